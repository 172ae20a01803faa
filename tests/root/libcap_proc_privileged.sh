#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# Privileged process-state tests on the real kernel: bounding drops,
# ambient raise/clear, the modes, cap_setuid/cap_setgroups, IAB set_proc,
# and launchers (perfprobe as nobody with and without ^cap_perfmon, NOPRIV,
# chroot, errors returned to the parent). The same Check suite runs
# against our library and against the system libcap, so the expectations
# are libcap's own (apart from the documented 2.66 differences).
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
# Users and groups by name (nobody, nogroup) from the base accounts only.
private_etc "$@"
[ "$(id -u)" -eq 0 ] || skip "needs root"
id nobody >/dev/null 2>&1 || skip "no user nobody"
[ "$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null || echo 0)" -ge 1 ] ||
	skip "perf_event_paranoid < 1 lets anyone open CPU-wide events"
chmod 755 "$T"
cp "$BIN/perfprobe" "$T/perfprobe"
export PERFPROBE=$T/perfprobe

# Sanity: nobody cannot open the event unaided, so success below means something.
if as_nobody "$PERFPROBE" >/dev/null 2>&1; then
	fail "perfprobe works as nobody without capabilities: test would prove nothing"
	finish
fi
check "privcheck on our libcap" "$BIN/privcheck"
if [ -x "$BIN/ref-privcheck" ]; then
	echo "--- the same suite against the system libcap:"
	check "privcheck on the system libcap" "$BIN/ref-privcheck"
fi
finish
