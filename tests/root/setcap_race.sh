#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# CVE-2026-4878-style race: while the entry "p" flips between a regular
# file and a symlink to "target" (atomic renameat2 exchanges), setcap is
# run on "p" over and over. It may hit the file or refuse the symlink, but
# the symlink's target must never receive a capability. Phases:
#   0. control: a naive lstat-then-setxattr loop (tools/setloop -naive)
#      should hit the target, showing this test can see the bug;
#   1. our setcap program, run repeatedly (bounded: 2000 runs or 3 s);
#   2. cap_set_file in a tight loop (tools/setloop), tens of thousands of calls;
#   3. the same with /proc hidden (private mount namespace), which takes
#      cap_set_file's same-inode reopen fallback.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
S=$BUILD/progs/setcap swap=$BIN/pathswap loop=$BIN/setloop
[ -x "$S" ] && [ -x "$swap" ] && [ -x "$loop" ] || { fail "setcap, pathswap or setloop not built"; finish; }
pid=
at_exit '[ -z "$pid" ] || kill $pid 2>/dev/null'
# The swapped entries get a directory of their own: renames hold its lock,
# and the bookkeeping files below should not queue behind them.
mkdir "$T/race" && cd "$T/race" || exit 1
touch target p && ln -s target q

target_has_caps() { getfattr -n security.capability target >/dev/null 2>&1; }

# The loops below run for half a second, the swapper for one; the swaps
# made after a loop ended race nothing. stop_swapper ends it
# (SIGTERM, to which it answers by printing its count and exiting 0; or
# it dies of it when it comes before it set its handler) and fails when
# pathswap itself failed.
stop_swapper() {
	kill $pid 2>/dev/null
	wait $pid
	set -- $?
	pid=
	[ "$1" -eq 0 ] || [ "$1" -eq 143 ]
}

# library_phase <label> <command...>: runs the loop against the swapper.
library_phase() {
	label=$1; shift
	"$swap" p q 1 >"$T/swaps" & pid=$!
	counts=$("$@")
	stop_swapper || { fail "pathswap failed"; finish; }
	echo "$label: $counts; $(cat "$T/swaps") swaps"
	set -- $counts
	if target_has_caps; then
		fail "the symlink target got a capability ($label)"; finish
	fi
	pass
	[ "$6" -eq 0 ] && pass || { fail "unexpected errors ($label)"; finish; }
	[ "$2" -gt 0 ] && [ "$4" -gt 0 ] && pass || { fail "the race was not exercised ($label)"; finish; }
}

# 0. Control.
"$swap" p q 1 >"$T/swaps" & pid=$!
counts=$("$loop" -naive p 0.5)
stop_swapper
if target_has_caps; then
	echo "control: a naive lstat+setxattr loop wrote to the symlink target ($counts)"
	setfattr -x security.capability target
else
	echo "control: the naive loop did not hit the window this time ($counts)"
fi

# 1. The program, for 0.7 s by the clock's nanoseconds (whole seconds
# gave anything from none to one second), the swapper's 2 s outlasting it.
"$swap" p q 2 >"$T/swaps" & pid=$!
ok=0 refused=0 other=0 i=0
end=$(($(date +%s%N) + 700000000))
while [ $i -lt 2000 ] && [ "$(date +%s%N)" -lt $end ]; do
	i=$((i + 1))
	"$S" cap_net_raw=ep p 2>"$T/err"
	case $? in
	0) ok=$((ok + 1)) ;;
	*) if grep -q "^Invalid file 'p'" "$T/err"; then refused=$((refused + 1)); else other=$((other + 1)); cat "$T/err"; fi ;;
	esac
done
stop_swapper || { fail "pathswap failed"; finish; }
echo "setcap: $i runs: $ok written to the regular file, $refused refused a symlink, $other other; $(cat "$T/swaps") swaps"
target_has_caps && { fail "the symlink target got a capability (setcap)"; finish; }
pass
[ $other -eq 0 ] && pass || { fail "unexpected failures"; finish; }
# Each run is an exec, so on a busy machine there may be few; only then
# can one outcome be missing by chance. The library phases below must
# see both.
if [ $i -ge 20 ] && { [ $ok -eq 0 ] || [ $refused -eq 0 ]; }; then
	fail "the race was not exercised"; finish
fi
pass

# 2. The library, as fast as it goes.
library_phase "cap_set_file loop" "$loop" p 0.5

# 3. Without /proc. A sanitizer build cannot run there (the sanitizers
# read their options and the thread list from /proc), so it skips this.
if nm "$loop" 2>/dev/null | grep -q __asan_init; then
	not_checked "sanitizer build; /proc-less phase not run"
elif unshare -m sh -c 'mount -t tmpfs none /proc' 2>/dev/null; then
	library_phase "cap_set_file loop, /proc hidden" \
		unshare -m sh -c 'mount -t tmpfs none /proc && exec "$0" p 0.5' "$loop"
else
	not_checked "cannot make a private mount namespace; /proc-less phase not run"
fi
finish "the symlink target never received a capability"
