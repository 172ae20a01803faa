#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# The headline: a CPU-wide perf probe is refused to nobody, and after OUR
# setcap grants cap_perfmon=ep (and nothing else) it works for nobody.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
# Users and groups by name (nobody, nogroup) from the base accounts only.
private_etc "$@"
S=$BUILD/progs/setcap probe=$BIN/perfprobe
[ -x "$S" ] && [ -x "$probe" ] || { fail "setcap or perfprobe not built"; finish; }
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null) ||
	skip "no /proc/sys/kernel/perf_event_paranoid (perf events not built in)"
[ "$paranoid" -ge 1 ] ||
	skip "perf_event_paranoid is $paranoid, so everyone may already probe"
[ "$(cat /proc/sys/kernel/cap_last_cap)" -ge 38 ] ||
	skip "this kernel predates CAP_PERFMON (38)"
chmod 755 "$T"
cp "$probe" "$T/probe" && chmod 755 "$T/probe"

out=$(as_nobody "$T/probe" 2>&1) && { fail "nobody could probe before setcap: $out"; finish; }
pass
echo "before: $out"
"$S" cap_perfmon=ep "$T/probe" && pass || { fail "our setcap failed"; finish; }
got=$(getfattr --absolute-names -e hex -n security.capability "$T/probe" | sed -n 's/^security.capability=//p')
[ "$got" = 0x0100000200000000000000004000000000000000 ] && pass ||
	{ fail "unexpected xattr $got"; finish; }
out=$(as_nobody "$T/probe" -c 2>&1) && pass || { fail "nobody still refused after setcap: $out"; finish; }
echo "$out"
# Exactly perfmon (bit 38) in the effective set, nothing else.
echo "$out" | grep -qx 'CapEff:	0000004000000000' && pass ||
	{ fail "effective set is not exactly cap_perfmon"; finish; }
"$S" -r "$T/probe" || exit 1
as_nobody "$T/probe" >/dev/null 2>&1 && { fail "still works after setcap -r"; finish; }
pass
finish "perf probe: refused to nobody, allowed with our cap_perfmon=ep, refused after -r"
