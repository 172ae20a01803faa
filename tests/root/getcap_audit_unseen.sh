#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# An audit never hides what it could not see (beyond undecodable values):
# run as nobody, a directory it may not read and one it may list but not
# search hide capable files. getcap -r's default output stays libcap's
# (stdout and exit status; our stderr lines are additions), while --audit
# and --json report each unseen directory or file on stdout with the tier
# "unknown" and exit 1; the paths in those reports and in --audit's stderr
# lines are escaped.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
# Users and groups by name (nobody, nogroup) from the base accounts only.
private_etc "$@"
command -v python3 >/dev/null 2>&1 || skip "python3 is needed to parse JSON"
getcap=$BUILD/progs/getcap
# The files' capabilities are written by Debian's setcap where it can be
# had (the reference of the comparison below), else by ours.
setcap=$BUILD/progs/setcap compared=
has_reference 2.66 && setcap=$REF/setcap compared=1
chmod 755 "$T"

t=$T/t
esc=$(printf 'dark\033[8m')
mkdir -p "$t/open" "$t/$esc/x" "$t/listonly"
for f in open/ping "$esc/x/tool" listonly/perf; do
	echo x >"$t/$f"; "$setcap" cap_net_raw=ep "$t/$f"
done
chmod 0700 "$t/$esc"		# nobody can neither list nor search it
chmod 0744 "$t/listonly"	# nobody can list it but not search it

# Default: libcap's stdout and exit status (Debian's 2.66).
run_ours as_nobody "$getcap" -r "$t" >"$T/ours" 2>/dev/null; orc=$?
if [ -n "$compared" ]; then
	as_nobody "$REF/getcap" -r "$t" >"$T/theirs" 2>/dev/null; rrc=$?
	cmp -s "$T/ours" "$T/theirs" && pass || { fail "default -r stdout differs from libcap's"; diff "$T/theirs" "$T/ours"; }
	[ $orc -eq $rrc ] && pass || fail "default -r exit $orc, libcap $rrc"
else
	not_checked "default -r not compared with libcap's: $reference_why"
fi
grep -q "^$t/open/ping cap_net_raw=ep$" "$T/ours" && pass || fail "the readable file is missing (test premise)"

# --audit: both unseen places on stdout, escaped; exit 1.
run_ours as_nobody "$getcap" -r --audit "$t" >"$T/audit" 2>"$T/err"; rc=$?
[ $rc -eq 1 ] && pass || fail "--audit exit $rc, want 1"
grep -qx "$t/open/ping cap_net_raw=ep" "$T/audit" && pass || fail "--audit lost the readable file"
grep -qx "$t/dark\\\\033\\[8m (directory not examined: Permission denied)" "$T/audit" && pass ||
	fail "--audit: the unreadable directory is not reported (escaped): $(cat "$T/audit")"
grep -qx "$t/listonly/perf (capabilities unknown: Permission denied)" "$T/audit" && pass ||
	fail "--audit: the file in the unsearchable directory is not reported: $(cat "$T/audit")"
[ "$(grep -c '^  risk: unknown: ' "$T/audit")" -eq 2 ] && pass || fail "--audit risk lines: $(cat "$T/audit")"
grep -q "$(printf '\033')" "$T/audit" "$T/err" && fail "--audit printed a raw ESC" || pass
grep -q 'dark\\033\[8m' "$T/err" && pass || fail "--audit stderr does not name the directory escaped: $(cat "$T/err")"

# --json: the same findings as objects; exit 1.
run_ours as_nobody "$getcap" -r --json "$t" >"$T/json" 2>/dev/null; rc=$?
[ $rc -eq 1 ] && pass || fail "--json exit $rc, want 1"
python3 - "$T/json" "$t" <<'PY' && pass || fail "--json: $(cat "$T/json")"
import json, sys
top = sys.argv[2]
objs = {o["path"][len(top) + 1:]: o for o in map(json.loads, open(sys.argv[1]))}
assert set(objs) == {"open/ping", "dark\x1b[8m", "listonly/perf"}, objs.keys()
for k in ("dark\x1b[8m", "listonly/perf"):
    o = objs[k]
    assert o["text"] is None and o["errno"] == 13 and o["risk"]["tier"] == "unknown", o
assert objs["open/ping"]["text"] == "cap_net_raw=ep"
PY

# As root everything is seen: no finding, exit 0.
run_ours "$getcap" -r --audit "$t" >"$T/root" 2>&1 && pass || fail "--audit as root exit $?"
grep -q unknown "$T/root" && fail "--audit as root reports unknowns: $(cat "$T/root")" || pass
finish
