#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# libcap's state changes reach every thread when a program links our
# libpsx as libcap documents, and only then. psxcaps (tests/tools) changes
# the process from its main thread while four others sit in read(2), in
# nanosleep(2), idle and spinning, then compares every
# /proc/self/task/*/status with the expected state:
#   cap_set_proc, cap_set_mode(CAP_MODE_NOPRIV), cap_setuid, cap_iab_set_proc
# and runs the classic exploit: a thread keeps using CAP_DAC_OVERRIDE and
# CAP_NET_RAW after the main thread dropped every capability.
# Three builds: libpsx.so (the pkg-config link), libpsx.a with
# -Wl,-wrap,pthread_create, and none, where the bug must show.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
[ "$(id -u)" -eq 0 ] || skip "needs root (full capability sets)"
for b in psxcaps psxcaps-static psxcaps-nopsx; do
	[ -x "$BIN/$b" ] || { fail "$BIN/$b is not built"; finish; }
done
# A file only CAP_DAC_OVERRIDE opens, even for its owner, root.
install -m 000 /dev/null "$T/secret"

run_tool() {	# expected-exit binary args...
	want=$1; shift
	timeout 60 "$BIN/$@" >"$T/out" 2>&1; rc=$?
	sed 's/^/    /' "$T/out"
	if [ $rc -ne "$want" ]; then
		fail "$* exited $rc, expected $want"
	else
		ok "$* (exit $rc)"
	fi
}

for mode in proc mode setuid iab; do
	run_tool 0 psxcaps $mode
	grep -qx '5 threads, 0 differ from the expected state' "$T/out" && pass ||
		{ fail "psxcaps $mode: not every thread changed"; }
	run_tool 0 psxcaps-static $mode
	# Without libpsx only the main thread changes: the bug libpsx fixes.
	run_tool 1 psxcaps-nopsx $mode
	grep -qx '5 threads, 4 differ from the expected state' "$T/out" && pass ||
		{ fail "psxcaps-nopsx $mode: expected the four workers to differ"; }
done

run_tool 0 psxcaps exploit "$T/secret"
grep -q '^worker thread: CapEff 0000000000000000, .*Permission denied, raw socket: Operation not permitted$' "$T/out" && pass ||
	{ fail "the worker kept privilege with libpsx"; }
run_tool 0 psxcaps-static exploit "$T/secret"
run_tool 1 psxcaps-nopsx exploit "$T/secret"
grep -q '^worker thread: .*OPENED, raw socket: OPENED$' "$T/out" && pass ||
	{ fail "without libpsx the exploit should work (test broken?)"; }

finish "every thread changed with libpsx (shared and static); without it the exploit works"
