#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# getpcaps --all over PROCS sleeping processes (bin/sleepers: half root,
# half uid 65534, a quarter with a reduced bounding set), in a pid
# namespace of their own so both tools see the same processes and nothing
# outlives the run. Times ours and, when installed, libcap-ng's pscap
# (Debian: libcap-ng-utils) alternately, ROUNDS each, and prints the
# medians, their ratio and each tool's maximum resident set size.
#   PROCS=5000 ROUNDS=5 sh bench/getpcaps_all.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
BUILD=${BUILD:-$top/build/main}
ours=${OURS:-$BUILD/progs/getpcaps}
ref=${REF:-$(command -v pscap 2>/dev/null)}
procs=${PROCS:-5000}
rounds=${ROUNDS:-5}
sleepers=$BUILD/bench/bin/sleepers

[ -x "$ours" ] || { echo "bench: build first ($ours missing)"; exit 1; }
[ -x "$sleepers" ] || { echo "bench: $sleepers missing (make -C bench bin/sleepers)"; exit 1; }
[ "$(id -u)" -eq 0 ] || { echo "bench: needs root (a pid namespace, processes of another user)"; exit 77; }
if [ -z "${GETPCAPS_BENCH_NS:-}" ]; then
	command -v unshare >/dev/null || { echo "bench: unshare (util-linux) is not installed"; exit 77; }
	GETPCAPS_BENCH_NS=1 exec unshare --pid --fork --mount-proc sh "$0" "$@"
fi

work=$(mktemp -d) || exit 1
mkfifo "$work/hold"
trap 'exec 9>&-; rm -rf "$work"' EXIT INT TERM
# sleepers runs until the fifo's writer (fd 9 here) closes.
"$sleepers" "$procs" <"$work/hold" >"$work/ready" &
exec 9>"$work/hold"
i=0
until grep -q ready "$work/ready" 2>/dev/null; do
	i=$((i + 1))
	[ $i -lt 600 ] || { echo "bench: sleepers did not start"; exit 1; }
	sleep 0.1
done
echo "$(ls /proc | grep -cE '^[0-9]+$') processes in the namespace, $(nproc) cpus"
if [ -n "$ref" ]; then
	echo "reference: $ref ($(dpkg-query -W -f='libcap-ng-utils ${Version}' libcap-ng-utils 2>/dev/null || echo 'version unknown'))"
else
	echo "reference: pscap (libcap-ng-utils) is not installed; timing ours alone"
fi

now() { date +%s%N; }
run_ms() {	# prints wall ms; output in $work/$2.out
	t0=$(now)
	"$1" $3 >"$work/$2.out" 2>"$work/$2.err"
	t1=$(now)
	echo $(( (t1 - t0) / 1000000 ))
}
median() { tr ' ' '\n' | grep . | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
maxrss() {	# kilobytes, or "?" without GNU time
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -f %M -o "$work/rss" "$@" >/dev/null 2>&1
		cat "$work/rss"
	else
		echo "?"
	fi
}

run_ms "$ours" ours --all >/dev/null	# warm the caches for both
[ -n "$ref" ] && run_ms "$ref" ref "" >/dev/null
t_ours= t_ref=
i=0
while [ $i -lt "$rounds" ]; do
	[ -n "$ref" ] && t_ref="$t_ref $(run_ms "$ref" ref "")"
	t_ours="$t_ours $(run_ms "$ours" ours --all)"
	i=$((i + 1))
done
status=0
if [ -s "$work/ours.err" ]; then
	echo "getpcaps --all wrote to stderr:"; head -n 5 "$work/ours.err"; status=1
fi
m_ours=$(echo "$t_ours" | median)
echo "getpcaps --all wall ms:$t_ours  median $m_ours; $(tail -n 1 "$work/ours.out")"
echo "getpcaps --all max RSS: $(maxrss "$ours" --all) KiB"
if [ -n "$ref" ]; then
	m_ref=$(echo "$t_ref" | median)
	echo "pscap wall ms:$t_ref  median $m_ref; $(($(wc -l <"$work/ref.out") - 1)) processes listed"
	echo "pscap max RSS: $(maxrss "$ref") KiB"
	echo "wall-time ratio getpcaps --all / pscap: $(awk -v a="$m_ours" -v b="$m_ref" 'BEGIN { printf "%.3f", b ? a / b : 0 }')"
	echo "(pscap leaves out pid 1 and processes with empty sets whose bounding set is reduced; getpcaps --all shows those)"
fi
echo "load average now: $(cut -d' ' -f1-3 /proc/loadavg) (other work on the cores skews wall times)"
exit $status
