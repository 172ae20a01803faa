#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# The point of the project, end to end: capsh turns root into nobody with
# CAP_PERFMON in the ambient set, and the program it then runs (perfprobe,
# a CPU-wide perf_event_open) succeeds; without the ambient bit, or with
# only P or only I, the same program as the same user fails with EACCES.
# Also the recipe printed by "capsh --explain=cap_perfmon".
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
# Users and groups by name (nobody, nogroup) from the base accounts only.
private_etc "$@"
C=$BUILD/progs/capsh
[ "$(id -u)" -eq 0 ] || skip "needs root"
[ -x "$C" ] && [ -x "$BIN/perfprobe" ] || { fail "capsh or perfprobe not built"; finish; }
id nobody >/dev/null 2>&1 || skip "no user nobody"
chmod 755 "$T"
cp "$BIN/perfprobe" "$T/perfprobe"; chmod 755 "$T/perfprobe"

# The probe must be refused to a capability-less nobody, or nothing is shown.
if as_nobody "$T/perfprobe" >/dev/null 2>&1; then
	skip "perf_event_paranoid=$(cat /proc/sys/kernel/perf_event_paranoid) lets nobody open CPU-wide events"
fi
"$T/perfprobe" >/dev/null 2>&1 || skip "perf_event_open does not work here even as root"
[ "$("$C" --supports=cap_perfmon 2>&1)" = "" ] || skip "kernel without CAP_PERFMON"

setup='--caps=cap_perfmon,cap_setuid,cap_setgid+p cap_perfmon+i'
probe() { "$C" "$@" --shell=/bin/sh -- -c "$T/perfprobe -c" 2>&1; }

out=$(probe "$setup" --keep=1 --user=nobody --addamb=cap_perfmon); rc=$?
[ $rc -eq 0 ] && pass || fail "ambient cap_perfmon as nobody: exit $rc [$out]"
echo "$out" | grep -qx 'perf_event_open: ok' && pass || fail "ambient: probe output [$out]"
echo "$out" | grep -q '^CapAmb:.*0000004000000000' && pass || fail "ambient: CapAmb not perfmon [$out]"
echo "$out" | grep -q '^CapEff:.*0000004000000000' && pass || fail "ambient: CapEff not perfmon [$out]"

out=$(probe "$setup" --keep=1 --user=nobody); rc=$?
[ $rc -eq 1 ] && pass || fail "no ambient bit: exit $rc [$out]"
echo "$out" | grep -q 'Permission denied' && pass || fail "no ambient bit: want EACCES [$out]"

out=$(probe "$setup" --keep=1 --user=nobody --addamb=cap_perfmon --delamb=cap_perfmon); rc=$?
[ $rc -eq 1 ] && pass || fail "--delamb: probe still works [$out]"
out=$(probe "$setup" --keep=1 --user=nobody --addamb=cap_perfmon --noamb); rc=$?
[ $rc -eq 1 ] && pass || fail "--noamb: probe still works [$out]"

# Raising ambient needs the bit in both P and I.
expect_lines --case="ambient without I" 1 "" "failed to raise ambient [cap_perfmon=38]" \
	"$C" --caps=cap_perfmon,cap_setuid,cap_setgid+p --user=nobody --addamb=cap_perfmon
expect_lines --case="ambient without P" 1 "" "failed to raise ambient [cap_perfmon=38]" \
	"$C" "--caps=cap_setuid,cap_setgid,cap_setpcap+p cap_perfmon+i" --user=nobody --addamb=cap_perfmon
# The secure-no-ambient-raise bit forbids it altogether.
expect_lines --case="secbit no-ambient-raise" 1 "" "failed to raise ambient [cap_perfmon=38]" \
	"$C" --secbits=0x40 "$setup" --addamb=cap_perfmon

# The IAB form of the same thing (libcap 2.66 wants CAP_SETPCAP here; 2.76
# and this library only when I grows beyond P).
out=$(probe --caps="cap_perfmon,cap_setuid,cap_setgid+p" --keep=1 --user=nobody --iab='^cap_perfmon'); rc=$?
[ $rc -eq 0 ] && pass || fail "--iab=^cap_perfmon as nobody: exit $rc [$out]"

# The recipe from --explain=cap_perfmon, with nobody in place of alice.
recipe=$("$C" --explain=cap_perfmon | sed -n '/capsh --caps=/,/perf top/p' |
	sed -e 's/^ *//' -e 's/\\$//' | tr -d '\n')
case $recipe in
*'--caps="cap_perfmon,cap_setuid,cap_setgid+p cap_perfmon+i"'*'--keep=1 --user=alice'*'--addamb=cap_perfmon'*) ;;
*) fail "--explain recipe changed: [$recipe]" ;;
esac
out=$(probe --caps="cap_perfmon,cap_setuid,cap_setgid+p cap_perfmon+i" --keep=1 --user=nobody --addamb=cap_perfmon); rc=$?
[ $rc -eq 0 ] && pass || fail "recipe: exit $rc"
finish "capsh ambient cap_perfmon as nobody: all checks passed"
