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
# One run: "wall-ms cpu-ms maxrss-KiB"; the output goes to $work/$2.out.
# CPU time and RSS come from GNU time when installed ("?" otherwise).
run_one() {
	prog=$1 name=$2; shift 2
	t0=$(now)
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -f '%U %S %M' -o "$work/time" "$prog" "$@" \
			>"$work/$name.out" 2>"$work/$name.err"
	else
		"$prog" "$@" >"$work/$name.out" 2>"$work/$name.err"
		echo '? ? ?' >"$work/time"
	fi
	t1=$(now)
	awk -v w=$(( (t1 - t0) / 1000000 )) '{
		if ($1 == "?") print w, "?", "?"
		else printf "%d %d %d\n", w, ($1 + $2) * 1000, $3 }' "$work/time"
}
median() { tr ' ' '\n' | grep . | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
col() { echo "$1" | awk -v c="$2" '{ print $c }'; }

run_one "$ours" ours --all >/dev/null	# warm the caches for both
[ -n "$ref" ] && run_one "$ref" ref >/dev/null
w_ours= c_ours= r_ours= w_ref= c_ref= r_ref=
i=0
while [ $i -lt "$rounds" ]; do
	if [ -n "$ref" ]; then
		r=$(run_one "$ref" ref)
		w_ref="$w_ref $(col "$r" 1)" c_ref="$c_ref $(col "$r" 2)" r_ref="$r_ref $(col "$r" 3)"
	fi
	r=$(run_one "$ours" ours --all)
	w_ours="$w_ours $(col "$r" 1)" c_ours="$c_ours $(col "$r" 2)" r_ours="$r_ours $(col "$r" 3)"
	i=$((i + 1))
done
status=0
if [ -s "$work/ours.err" ]; then
	echo "getpcaps --all wrote to stderr:"; head -n 5 "$work/ours.err"; status=1
fi
mw_ours=$(echo "$w_ours" | median) mc_ours=$(echo "$c_ours" | median)
echo "getpcaps --all: wall ms$w_ours (median $mw_ours), cpu ms$c_ours (median $mc_ours), max RSS $(echo "$r_ours" | tr ' ' '\n' | sort -n | tail -n 1) KiB"
echo "  $(tail -n 1 "$work/ours.out")"
if [ -n "$ref" ]; then
	mw_ref=$(echo "$w_ref" | median) mc_ref=$(echo "$c_ref" | median)
	echo "pscap:          wall ms$w_ref (median $mw_ref), cpu ms$c_ref (median $mc_ref), max RSS $(echo "$r_ref" | tr ' ' '\n' | sort -n | tail -n 1) KiB"
	echo "  $(($(wc -l <"$work/ref.out") - 1)) processes listed"
	ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "?" || b == "?" || b == 0) print "?"; else printf "%.3f", a / b }'; }
	echo "ratio getpcaps --all / pscap: wall $(ratio "$mw_ours" "$mw_ref"), cpu $(ratio "$mc_ours" "$mc_ref")"
	echo "(pscap leaves out pid 1 and processes with empty sets whose bounding set is reduced, which getpcaps --all shows; it reads only status, once, by path)"
fi
echo "load average now: $(cut -d' ' -f1-3 /proc/loadavg) (other work on the cores skews wall times)"
exit $status
