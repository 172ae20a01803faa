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
set -u
[ "$(id -u)" -eq 0 ] || { echo "skipped: needs root (full capability sets)"; exit 77; }
for b in psxcaps psxcaps-static psxcaps-nopsx; do
	[ -x "$BIN/$b" ] || { echo "$BIN/$b is not built"; exit 1; }
done
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# A file only CAP_DAC_OVERRIDE opens, even for its owner, root.
install -m 000 /dev/null "$tmp/secret"
bad=0

run() {	# expected-exit binary args...
	want=$1; shift
	timeout 60 "$BIN/$@" >"$tmp/out" 2>&1; rc=$?
	sed 's/^/    /' "$tmp/out"
	if [ $rc -ne "$want" ]; then
		echo "FAIL: $* exited $rc, expected $want"; bad=$((bad + 1))
	else
		echo "ok: $* (exit $rc)"
	fi
}

for mode in proc mode setuid iab; do
	run 0 psxcaps $mode
	grep -qx '5 threads, 0 differ from the expected state' "$tmp/out" ||
		{ echo "FAIL: psxcaps $mode: not every thread changed"; bad=$((bad + 1)); }
	run 0 psxcaps-static $mode
	# Without libpsx only the main thread changes: the bug libpsx fixes.
	run 1 psxcaps-nopsx $mode
	grep -qx '5 threads, 4 differ from the expected state' "$tmp/out" ||
		{ echo "FAIL: psxcaps-nopsx $mode: expected the four workers to differ"; bad=$((bad + 1)); }
done

run 0 psxcaps exploit "$tmp/secret"
grep -q '^worker thread: CapEff 0000000000000000, .*Permission denied, raw socket: Operation not permitted$' "$tmp/out" ||
	{ echo "FAIL: the worker kept privilege with libpsx"; bad=$((bad + 1)); }
run 0 psxcaps-static exploit "$tmp/secret"
run 1 psxcaps-nopsx exploit "$tmp/secret"
grep -q '^worker thread: .*OPENED, raw socket: OPENED$' "$tmp/out" ||
	{ echo "FAIL: without libpsx the exploit should work (test broken?)"; bad=$((bad + 1)); }

[ $bad -eq 0 ] && echo "every thread changed with libpsx (shared and static); without it the exploit works"
[ $bad -eq 0 ]
