#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# The headline: a CPU-wide perf probe is refused to nobody, and after OUR
# setcap grants cap_perfmon=ep (and nothing else) it works for nobody.
set -u
. "$TESTS_DIR/lib.sh"
# Users and groups by name (nobody, nogroup) from the base accounts only.
private_etc "$@"
S=$BUILD/progs/setcap probe=$BIN/perfprobe
[ -x "$S" ] && [ -x "$probe" ] || { echo "setcap or perfprobe not built"; exit 1; }
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null) ||
	{ echo "skipped: no /proc/sys/kernel/perf_event_paranoid (perf events not built in)"; exit 77; }
[ "$paranoid" -ge 1 ] ||
	{ echo "skipped: perf_event_paranoid is $paranoid, so everyone may already probe"; exit 77; }
[ "$(cat /proc/sys/kernel/cap_last_cap)" -ge 38 ] ||
	{ echo "skipped: this kernel predates CAP_PERFMON (38)"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
cp "$probe" "$tmp/probe" && chmod 755 "$tmp/probe"
as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }

out=$(as_nobody "$tmp/probe" 2>&1) && { echo "nobody could probe before setcap: $out"; exit 1; }
echo "before: $out"
"$S" cap_perfmon=ep "$tmp/probe" || { echo "our setcap failed"; exit 1; }
got=$(getfattr --absolute-names -e hex -n security.capability "$tmp/probe" | sed -n 's/^security.capability=//p')
[ "$got" = 0x0100000200000000000000004000000000000000 ] ||
	{ echo "unexpected xattr $got"; exit 1; }
out=$(as_nobody "$tmp/probe" -c 2>&1) || { echo "nobody still refused after setcap: $out"; exit 1; }
echo "$out"
# Exactly perfmon (bit 38) in the effective set, nothing else.
echo "$out" | grep -qx 'CapEff:	0000004000000000' ||
	{ echo "effective set is not exactly cap_perfmon"; exit 1; }
"$S" -r "$tmp/probe" || exit 1
as_nobody "$tmp/probe" >/dev/null 2>&1 && { echo "still works after setcap -r"; exit 1; }
echo "perf probe: refused to nobody, allowed with our cap_perfmon=ep, refused after -r"
