#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# A program linked with libpsx (as libcap documents) gets every state
# change applied to all its threads: our libcap finds psx_load_syscalls
# through a weak reference and routes cap_set_proc() through psx_syscall.
# psxprobe clears E from the main thread and reads a second thread's E.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
[ "$(id -u)" -eq 0 ] || skip "needs a non-empty E (root)"
[ -x "$BIN/psxprobe" ] || skip "psxprobe not built (libpsx missing)"
out=$("$BIN/psxprobe"); rc=$?
echo "$out"
[ $rc -eq 0 ] || fail "cap_set_proc did not reach the second thread"
echo "$out" | grep -qx 'main E 0000000000000000, worker E 0000000000000000' ||
	fail "unexpected output"
finish "cap_set_proc reached every thread"
