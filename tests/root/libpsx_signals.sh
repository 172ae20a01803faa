#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# libpsx reaches threads that block signals, refuses in time when one
# cannot be reached, and shares signal 33 with glibc. psxreach
# (tests/tools), linked with libcap and libpsx, as root:
#   daemon    every thread blocks all signals (sigfillset, pthread_sigmask)
#             and one sits in sigwait(): cap_set_proc() returns at once and
#             changes all six threads;
#   rawblock  a thread blocks signal 33 too, with a raw rt_sigprocmask():
#             cap_set_proc() fails with EDEADLK within 8 s (libpsx waits 2)
#             and no thread, the caller included, has changed;
#   traced    a thread held in a ptrace stop: the same;
#   stall     a thread in an uninterruptible sleep (waiting in vfork())
#             after the check passed: libpsx names it on stderr and kills
#             the process after its 10 s time-out, never returns success;
#   setxid    glibc's setgroups(), setresgid() and setresuid(), which use
#             signal 33 themselves, before and after libpsx's calls, the
#             first of those made before any thread existed: each step
#             reaches every thread, none hangs.
# Every run has an outer timeout, so a hang is a failure, not a stall.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
[ "$(id -u)" -eq 0 ] || skip "needs root (full capability sets, ptrace, setuid)"
[ -x "$BIN/psxreach" ] || { fail "$BIN/psxreach is not built"; finish; }

reach() {	# case expected-exit mode
	case=$1 want=$2
	start=$(date +%s)
	timeout -k 10 60 "$BIN/psxreach" "$3" >"$T/out" 2>"$T/err"; rc=$?
	took=$(($(date +%s) - start))
	sed 's/^/    /' "$T/out" "$T/err"
	if [ $rc -ne "$want" ]; then
		fail "$case: exit $rc after ${took}s, expected $want"
	else
		ok "$case (${took}s)"
	fi
}

reach "daemon pattern: cap_set_proc returns" 0 daemon
grep -qx '6 threads, 0 differ from the expected state' "$T/out" && pass ||
	fail "daemon pattern: not every thread changed"

for mode in rawblock traced; do
	reach "$mode: refused, nothing changed" 0 $mode
	grep -q '^cap_set_proc(empty) returned -1 (Resource deadlock avoided) after [0-7]\.' "$T/out" && pass ||
		fail "$mode: expected EDEADLK within 8 s"
done

reach "stall: the process is killed" 137 stall
if [ "$took" -lt 9 ] || [ "$took" -gt 30 ]; then
	fail "stall: killed after ${took}s, expected about 10"
else
	pass
fi
grep -q '^libpsx:   thread [0-9]*: not started, state D, signal 33 pending$' "$T/err" && pass ||
	fail "stall: the unreached thread is not named"
grep -q '^libpsx: killing process [0-9]* rather than leave it with threads that differ$' "$T/err" && pass ||
	fail "stall: no report before the kill"
grep -q 'still alive' "$T/out" && fail "stall: the call returned" || pass

reach "glibc's setxid beside libpsx" 0 setxid
[ "$(grep -c '^5 threads, 0 differ from the expected state$' "$T/out")" -eq 6 ] && pass ||
	fail "setxid: a step did not reach every thread"

finish "blocked signals reached, unreachable threads refused or the process killed, glibc's setxid intact"
