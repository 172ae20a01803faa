#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# getcap -r on a generated tree: ours against the system's libcap getcap.
# Builds FILES regular files (1% with capabilities, a symlink per directory,
# some empty directories) under a temporary directory on the real disk,
# times both programs alternately (ROUNDS each, median), counts system
# calls per regular file with strace, and checks the sorted outputs match.
#   FILES=200000 ROUNDS=5 BENCH_DIR=/var/tmp sh bench/tree.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
BUILD=${BUILD:-$top/build/main}
ours=${OURS:-$BUILD/progs/getcap}
ref=${REF:-/usr/sbin/getcap}
files=${FILES:-200000}
rounds=${ROUNDS:-5}
gen=$BUILD/bench/bin/gentree

[ -x "$ours" ] || { echo "bench: build first ($ours missing)"; exit 1; }
[ -x "$ref" ] || { echo "bench: no reference getcap at $ref"; exit 77; }
[ -x "$gen" ] || { echo "bench: $gen missing (make -C bench)"; exit 1; }
[ "$(id -u)" -eq 0 ] || { echo "bench: needs root to write security.capability"; exit 77; }

work=$(mktemp -d "${BENCH_DIR:-/var/tmp}/getcap-bench.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT INT TERM
echo "generating $files files in $work ..."
"$gen" "$work/t" "$files" || exit 1
regular=$(find "$work/t" -type f | wc -l)
dirs=$(find "$work/t" -type d | wc -l)
echo "tree: $regular regular files, $dirs directories, $(nproc) cpus"

now() { date +%s%N; }
# Prints "wall-ms cpu-ms" for one run. It runs in its own subshell, whose
# children's CPU time (POSIX times) is then this run plus two dates.
run_ms() {
	t0=$(now)
	(cd "$work/t" && "$1" -r . >"$2" 2>&1)
	t1=$(now)
	times >"$work/times"	# a builtin, not a subshell: sees our children
	cpu=$(tail -n 1 "$work/times" | awk '{
		t = 0
		for (i = 1; i <= 2; i++) {
			split($i, a, "m"); sub("s", "", a[2]); t += a[1] * 60 + a[2]
		}
		printf "%d", t * 1000 }')
	echo "$(( (t1 - t0) / 1000000 )) $cpu"
}
median() { tr ' ' '\n' | grep . | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# Warm the caches for both equally, then alternate.
run_ms "$ours" "$work/ours.out" >/dev/null
run_ms "$ref" "$work/ref.out" >/dev/null
t_ours= t_ref= c_ours= c_ref=
i=0
while [ $i -lt "$rounds" ]; do
	set -- $(run_ms "$ref" "$work/ref.out"); t_ref="$t_ref $1"; c_ref="$c_ref $2"
	set -- $(run_ms "$ours" "$work/ours.out"); t_ours="$t_ours $1"; c_ours="$c_ours $2"
	i=$((i + 1))
done
m_ours=$(echo "$t_ours" | median) m_ref=$(echo "$t_ref" | median)
mc_ours=$(echo "$c_ours" | median) mc_ref=$(echo "$c_ref" | median)
echo "ours   wall ms:$t_ours  median $m_ours (cpu median $mc_ours)"
echo "libcap wall ms:$t_ref  median $m_ref (cpu median $mc_ref)"
ratio=$(awk -v a="$m_ours" -v b="$m_ref" 'BEGIN { printf "%.3f", a / b }')
cratio=$(awk -v a="$mc_ours" -v b="$mc_ref" 'BEGIN { printf "%.3f", a / b }')
echo "wall-time ratio ours/libcap: $ratio (target <= 0.4); cpu-time ratio: $cratio"
echo "load average now: $(cut -d' ' -f1-3 /proc/loadavg) (other work on the cores skews the wall ratio)"

status=0
sort "$work/ours.out" >"$work/ours.sorted"
sort "$work/ref.out" >"$work/ref.sorted"
if cmp -s "$work/ours.sorted" "$work/ref.sorted"; then
	echo "outputs identical after sorting: $(wc -l <"$work/ours.sorted") lines"
else
	echo "OUTPUTS DIFFER (< libcap, > ours):"
	diff "$work/ref.sorted" "$work/ours.sorted" | head -20
	status=1
fi

# strace -c leaves out system calls it cannot name (getxattrat on an older
# strace), so count the calls in a full log: with -f -o each line is "PID
# call(..."; resumed halves, signals and exits are not new calls.
count_calls() {
	(cd "$work/t" && strace -f -qq -o "$work/strace.log" "$1" -r . >/dev/null 2>&1)
	grep -Evc '^([0-9]+ +)?(<\.\.\. |\+\+\+ |--- )' "$work/strace.log"
}
if command -v strace >/dev/null 2>&1; then
	c_ours=$(count_calls "$ours")
	c_ref=$(count_calls "$ref")
	awk -v c="$c_ours" -v f="$regular" 'BEGIN { printf "syscalls ours:   %d (%.3f per regular file, target <= 1.25)\n", c, c / f }'
	awk -v c="$c_ref" -v f="$regular" 'BEGIN { printf "syscalls libcap: %d (%.3f per regular file)\n", c, c / f }'
else
	echo "strace not installed: system calls not counted"
fi
exit $status
