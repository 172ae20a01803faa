#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# libpsx in a child PID namespace that still sees its parent's /proc
# (unshare -p -f without a new /proc, as several sandboxes start
# programs): /proc lists the threads under the parent namespace's ids,
# which tgkill() in the child namespace does not know. libpsx must map
# them (NSpid) and change every thread, never count them as gone and
# report success. psxreach (tests/tools) starts four pthread_create()
# threads and two raw clone(2) threads glibc does not know, then calls
# psx_syscall3(SYS_setresuid, 65534, ...) or cap_set_proc() of an empty
# set through libcap; every thread (7 with the caller) must change. The
# same with no namespace and with the namespace's own /proc. Last, a
# /proc of a namespace the process is not in at all: the call fails with
# ENOENT and no thread changes.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
[ "$(id -u)" -eq 0 ] || skip "needs root (PID namespaces, full capability sets)"
command -v unshare >/dev/null 2>&1 || skip "unshare(1) is not installed"
[ -x "$BIN/psxreach" ] || { fail "$BIN/psxreach is not built"; finish; }

reach() {	# case expected-exit command...
	case=$1 want=$2; shift 2
	timeout -k 10 60 "$@" >"$T/out" 2>&1; rc=$?
	sed 's/^/    /' "$T/out"
	if [ $rc -ne "$want" ]; then
		fail "$case: exit $rc, expected $want"
	else
		ok "$case"
	fi
}

for mode in ns-setresuid ns-caps; do
	reach "$mode, no namespace" 0 "$BIN/psxreach" $mode
	grep -qx '7 threads, 0 differ from the expected state' "$T/out" && pass ||
		fail "$mode, no namespace: not every thread changed"
	reach "$mode, child namespace, the parent's /proc" 0 unshare -p -f "$BIN/psxreach" $mode
	grep -q '^pid 1; /proc/self -> [1-9][0-9]*$' "$T/out" && pass ||
		fail "$mode: not pid 1 under the parent's /proc (test broken?)"
	grep -qx '7 threads, 0 differ from the expected state' "$T/out" && pass ||
		fail "$mode, child namespace, the parent's /proc: not every thread changed"
	reach "$mode, child namespace, its own /proc" 0 \
		unshare -p -f --mount-proc "$BIN/psxreach" $mode
	grep -qx '7 threads, 0 differ from the expected state' "$T/out" && pass ||
		fail "$mode, child namespace, its own /proc: not every thread changed"
done

reach "a /proc of another namespace: refused" 0 "$BIN/psxreach" foreign-proc
grep -q '^psx_syscall3(.*) returned -1 (No such file or directory)' "$T/out" && pass ||
	fail "foreign /proc: expected ENOENT"
grep -qx '7 threads, 0 differ from the expected state' "$T/out" && pass ||
	fail "foreign /proc: a thread changed although the call was refused"

finish "every thread changed in a child PID namespace under its parent's /proc; a foreign /proc is refused with ENOENT"
