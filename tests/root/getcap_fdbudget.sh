#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# getcap -r past its descriptor budget must never leave the tree (issue 12,
# item 11). A comb 34 levels deep, every level with two teeth still waiting
# while the next level is walked, under a hard limit of 48 descriptors:
# the walk runs out of descriptors to keep and has to reach directories
# again. Meanwhile pathswap exchanges a directory near the top ("n" at
# level 2) with a symlink to a copy of the comb outside the tree, whose
# files are named ESCAPED. Reaching a directory again by its path (as the
# base commit did) follows that symlink; getcap must print the tree's own
# files only, and with nothing swapped, every one of them. Every other walk
# runs on one CPU, where the walk order is fixed and always runs out of
# descriptors (with two threads it depends on timing); strace confirms
# that directories are then reached again through O_PATH descriptors and
# never by a path from the current directory.
set -u
. "$TESTS_DIR/lib.sh"
command -v setfattr >/dev/null 2>&1 || { echo "skipped: setfattr (attr) is not installed"; exit 77; }
command -v prlimit >/dev/null 2>&1 || { echo "skipped: prlimit (util-linux) is not installed"; exit 77; }
getcap=$BUILD/progs/getcap swap=$BIN/pathswap
[ -x "$getcap" ] && [ -x "$swap" ] || { echo "getcap or pathswap not built"; exit 1; }
tmp=$(mktemp -d); swapper=
trap '[ -n "$swapper" ] && kill $swapper 2>/dev/null; rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
depth=34 seconds=${GETCAP_RACE_SECONDS:-15}
# cap_net_raw=ep, revision 2, as setcap writes it.
value=0x0100000200200000000000000000000000000000

# comb DIR MARK: levels DIR, DIR/n, DIR/n/n, ...; teeth t1 and t2 at each
# level hold a capped file named MARK.
comb() {
	d=$1 i=0
	while [ $i -lt $depth ]; do
		mkdir -p "$d/t1" "$d/t2" "$d/n"
		for t in t1 t2; do
			: >"$d/$t/$2" && setfattr -n security.capability -v $value "$d/$t/$2" ||
				{ echo "cannot build the comb"; exit 1; }
		done
		d=$d/n i=$((i + 1))
	done
}
comb "$tmp/tree" INSIDE
# The copy outside mirrors the tree below level 2's "n", so a path that
# goes through the symlink names an existing directory there.
comb "$tmp/outside" ESCAPED
ln -s "$tmp/outside" "$tmp/tree/n/n.x"
want=$((depth * 2))

# walk [one-cpu] [wrapper...]
walk() {
	if [ "$1" = 1 ]; then shift; set -- taskset -c 0 "$@"; else shift; fi
	"$@" prlimit --nofile=48:48 "$getcap" -r "$tmp/tree" >"$tmp/out" 2>"$tmp/err"
}

# Control: nothing swapped, every file seen although descriptors ran out.
for cpu1 in 0 1; do
	walk $cpu1 || fail "control walk exited $?"
	got=$(grep -c "/INSIDE cap_net_raw=ep\$" "$tmp/out")
	[ "$got" -eq "$want" ] || fail "control walk (one cpu: $cpu1) saw $got of $want capped files: $(head -c 300 "$tmp/err")"
	[ -s "$tmp/err" ] && fail "control walk stderr: $(head -c 300 "$tmp/err")"
done
if command -v strace >/dev/null 2>&1; then
	walk 1 strace -f -qq -e trace=openat -o "$tmp/trace"
	reopens=$(grep -c 'O_PATH' "$tmp/trace")
	bypath=$(grep -c "openat(AT_FDCWD, \"$tmp/tree/" "$tmp/trace")
	echo "one-cpu walk under strace: $reopens directories reached again through O_PATH, $bypath opened by a path below the root"
	[ $((reopens + bypath)) -gt 0 ] || fail "the walk never ran out of descriptors: the test does not exercise the budget"
	[ "$bypath" -eq 0 ] || fail "directories opened by path: $(grep "openat(AT_FDCWD, \"$tmp/tree/" "$tmp/trace" | head -n 2)"
else
	echo "strace not installed: the reopen path is not confirmed"
fi

# The race: every walk counts; any ESCAPED line is a walk led out of the tree.
(cd "$tmp/tree/n" && exec "$swap" n n.x "$seconds") >"$tmp/swaps" & swapper=$!
runs=0 escaped=0 partial=0
while kill -0 $swapper 2>/dev/null; do
	walk $((runs % 2))
	runs=$((runs + 1))
	if grep -q ESCAPED "$tmp/out"; then
		escaped=$((escaped + 1))
		[ $escaped -eq 1 ] && echo "first escape, run $runs: $(grep ESCAPED "$tmp/out" | head -n 1)"
	fi
	[ "$(grep -c INSIDE "$tmp/out")" -lt "$want" ] && partial=$((partial + 1))
	bad=$(grep -v "^Failed to read directory '$tmp/tree/n/n[^']*' (replaced by another directory during the walk)\$" "$tmp/err")
	[ -z "$bad" ] || { fail "run $runs stderr: $(echo "$bad" | head -n 3)"; break; }
done
wait $swapper || fail "pathswap failed"
swapper=
echo "$runs walks against $(cat "$tmp/swaps") swaps; $escaped led out of the tree, $partial missed part of the tree (swapped away mid-walk)"
[ "$runs" -ge 20 ] || fail "only $runs walks: the race was hardly exercised"
[ "$escaped" -eq 0 ] || fail "getcap printed files from outside the tree in $escaped of $runs walks"
[ $fails -eq 0 ]
