#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# capaudit's overhead: the wall time of a capability-heavy loop (LOOPS
# chowns, one cap_chown check each) under capaudit and without, in
# alternating rounds (ROUNDS each, median), and the ratio; also the
# samples capaudit lost, which it reports. Needs root (capaudit mounts
# tracefs in a private mount namespace of its own if none is mounted).
#   LOOPS=200000 ROUNDS=5 sh bench/capaudit.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
BUILD=${BUILD:-$top/build/main}
ca=$BUILD/progs/capaudit loop=$BUILD/bench/bin/capaudit_loop
loops=${LOOPS:-200000} rounds=${ROUNDS:-5}
[ -x "$ca" ] || { echo "bench: build first ($ca missing)"; exit 1; }
[ -x "$loop" ] || { echo "bench: $loop missing (make -C bench)"; exit 1; }
[ "$(id -u)" -eq 0 ] || { echo "bench: needs root (chown to other uids, and tracing)"; exit 77; }
"$ca" --check >/dev/null 2>&1 || { "$ca" --check; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT INT TERM
touch "$tmp/file"
now() { date +%s.%N; }
r=0
while [ "$r" -lt "$rounds" ]; do
	t0=$(now); "$loop" "$loops" "$tmp/file" || exit 1; t1=$(now)
	"$ca" --output="$tmp/rep" -- "$loop" "$loops" "$tmp/file" 2>/dev/null || exit 1; t2=$(now)
	lost=$(sed -n 's/^lost samples: \([0-9]*\).*/\1/p' "$tmp/rep")
	counted=$(awk '$1 == "cap_chown" { n += $3 } END { print n + 0 }' "$tmp/rep")
	echo "$t0 $t1 $t2 $lost $counted" | awk '{ printf "plain %.4f\ncapaudit %.4f\nlost %d\ncounted %d\n", $2 - $1, $3 - $2, $4, $5 }' >>"$tmp/results"
	r=$((r + 1))
done
median() {
	awk -v k="$1" '$1 == k { print $2 }' "$tmp/results" | sort -n |
		awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
plain=$(median plain) traced=$(median capaudit) lost=$(median lost) counted=$(median counted)
echo "capaudit benchmark: $loops chowns (one cap_chown check each), median of $rounds alternating rounds, $(nproc) cpus"
awk -v p="$plain" -v c="$traced" -v n="$loops" -v l="$lost" -v k="$counted" 'BEGIN {
	printf "without capaudit %8.3f s  %9.0f checks/s\n", p, n / p
	printf "under capaudit   %8.3f s  %9.0f checks/s  (counted %d, lost %d)\n", c, n / c, k, l
	printf "ratio            %8.2fx\n", c / p }'
