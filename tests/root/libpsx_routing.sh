#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# A program linked with libpsx (as libcap documents) gets every state
# change applied to all its threads: our libcap finds psx_load_syscalls
# through a weak reference and routes cap_set_proc() through psx_syscall.
# psxprobe clears E from the main thread and reads a second thread's E.
set -u
[ "$(id -u)" -eq 0 ] || { echo "skipped: needs a non-empty E (root)"; exit 77; }
[ -x "$BIN/psxprobe" ] || { echo "skipped: psxprobe not built (libpsx missing)"; exit 77; }
out=$("$BIN/psxprobe"); rc=$?
echo "$out"
[ $rc -eq 0 ] || { echo "cap_set_proc did not reach the second thread"; exit 1; }
echo "$out" | grep -qx 'main E 0000000000000000, worker E 0000000000000000' ||
	{ echo "unexpected output"; exit 1; }
