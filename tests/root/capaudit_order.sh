#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# capaudit reads each CPU's ring buffer in turn, so a child's first check
# (CPU 1) could be read before the record of the fork that made it (CPU
# 0): it was counted as capaudit's launcher's. The probe forks 2000
# children on CPU 0 between bursts of checks that keep CPU 0's buffer
# busy to read; each child moves to CPU 1 and makes one check at once.
# Every child's check is its own, and the launcher's count is that of a
# run with no child at all. Three rounds (the old reading lost up to
# three children in most of them).
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
CA=$BUILD/progs/capaudit probe=$BIN/capaudit_probe
[ -x "$CA" ] && [ -x "$probe" ] || { fail "capaudit or capaudit_probe not built"; finish; }
[ "$(id -u)" -eq 0 ] || skip "chown to other uids needs root"
[ "$(nproc)" -ge 2 ] || skip "one CPU: no second ring buffer to race"
"$CA" --check >"$T/out" 2>&1 || skip "capaudit cannot trace here: $(cat "$T/out")"
launcher() { sed -n "s/^not counted: \([0-9]*\) checks* by capaudit's launcher.*/\1/p" "$1"; }
: >"$T/f"
"$CA" --output="$T/rep" -- true || { fail "capaudit -- true"; finish; }
base=$(launcher "$T/rep")
base=${base:-0}
round=1
while [ "$round" -le 3 ]; do
	"$CA" --output="$T/rep" -- "$probe" --fork-race 2000 200 "$T/f" >"$T/out" 2>"$T/err"
	rc=$?
	[ "$rc" -eq 77 ] && skip "the probe cannot pin itself to CPUs 0 and 1"
	[ "$rc" -eq 0 ] && pass || { fail "round $round: exit $rc: $(cat "$T/err")"; break; }
	n=$(launcher "$T/rep")
	[ "${n:-0}" -eq "$base" ] && pass ||
		fail "round $round: $n checks counted as the launcher's, $base without children"
	lost=$(sed -n 's/^lost samples: \([0-9]*\).*/\1/p' "$T/rep")
	# The children's rows: one cap_chown check each, under its own pid.
	kids=$(awk '$1 == "cap_chown" && $2 == 1 && $3 == 1 { n++ } END { print n + 0 }' "$T/rep")
	echo "round $round: launcher ${n:-0} (base $base), children counted $kids of 2000, lost ${lost:-?}"
	if [ "${lost:-1}" -eq 0 ]; then
		[ "$kids" -eq 2000 ] && pass || fail "round $round: $kids of 2000 children's checks are theirs"
	fi
	round=$((round + 1))
done
finish "capaudit: a child's first check is its own, whatever buffer it lands in"
