#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# Privileged process-state tests on the real kernel: bounding drops,
# ambient raise/clear, the modes, cap_setuid/cap_setgroups, IAB set_proc,
# and launchers (perfprobe as nobody with and without ^cap_perfmon, NOPRIV,
# chroot, errors returned to the parent). The same Check suite runs
# against our library and against the system libcap, so the expectations
# are libcap's own (apart from the documented 2.66 differences).
set -u
. "$TESTS_DIR/lib.sh"
# Users and groups by name (nobody, nogroup) from the base accounts only.
private_etc "$@"
[ "$(id -u)" -eq 0 ] || { echo "skipped: needs root"; exit 77; }
id nobody >/dev/null 2>&1 || { echo "skipped: no user nobody"; exit 77; }
[ "$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null || echo 0)" -ge 1 ] ||
	{ echo "skipped: perf_event_paranoid < 1 lets anyone open CPU-wide events"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
cp "$BIN/perfprobe" "$tmp/perfprobe"
export PERFPROBE=$tmp/perfprobe

# Sanity: nobody cannot open the event unaided, so success below means something.
if setpriv --reuid=nobody --regid=nogroup --clear-groups "$PERFPROBE" >/dev/null 2>&1; then
	echo "perfprobe works as nobody without capabilities: test would prove nothing"; exit 1
fi
status=0
"$BIN/privcheck" || status=1
if [ -x "$BIN/ref-privcheck" ]; then
	echo "--- the same suite against the system libcap:"
	"$BIN/ref-privcheck" || status=1
fi
exit $status
