#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# capmanifest restore --listed-only (the Debian trigger's mode): a manifest
# that registers one file restores that file and leaves every other file's
# capabilities alone (plain restore removes them); owner, group, mode and
# content are still checked; a listed file that is gone is reported, exit
# 1; a path through a symlink is never followed. verify --listed-only
# checks the listed files and reports no extra one (against / that was
# every capable file of the system).
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
[ "$(id -u)" -eq 0 ] || skip "needs root (writes file capabilities)"
cm=$BUILD/progs/capmanifest
[ -x "$cm" ] || { fail "capmanifest not built"; finish; }
t=$T/tree
caps() { /usr/sbin/getcap "$1"; }

umask 022
mkdir -p "$t/usr/bin" "$t/bin"
for f in usr/bin/perf usr/bin/ping usr/bin/other; do echo x >"$t/$f"; done
/usr/sbin/setcap cap_perfmon=ep "$t/usr/bin/perf"
/usr/sbin/setcap cap_net_raw=ep "$t/usr/bin/ping"
sum=$(sha256sum "$t/usr/bin/perf" | cut -d' ' -f1)
printf '# capmanifest 3\n./usr/bin/perf owner=0 group=0 mode=0644 acl=no sha256=%s cap_perfmon=ep\n' "$sum" >"$T/m"

# verify --listed-only: perf only; ping is not "extra".
expect_lines --case="verify --listed-only of an intact perf" 0 "" "" \
	run_ours "$cm" verify --listed-only "$T/m" "$t"
expect_lines --case="verify without --listed-only" 1 "extra:   ./usr/bin/ping cap_net_raw=ep" "" \
	run_ours "$cm" verify "$T/m" "$t"

# A new copy of perf with the same content (as a reinstall unpacks it):
# no capability.
rm "$t/usr/bin/perf"; echo x >"$t/usr/bin/perf"
expect_lines --case="verify --listed-only of a bare perf" 1 "missing: ./usr/bin/perf cap_perfmon=ep" "" \
	run_ours "$cm" verify --listed-only "$T/m" "$t"
expect_lines --case="restore --listed-only" 0 "set: ./usr/bin/perf cap_perfmon=ep" "" \
	run_ours "$cm" restore --listed-only "$T/m" "$t"
[ "$(caps "$t/usr/bin/ping")" = "$t/usr/bin/ping cap_net_raw=ep" ] && pass ||
	fail "--listed-only removed ping's capability"
[ "$(caps "$t/usr/bin/perf")" = "$t/usr/bin/perf cap_perfmon=ep" ] && pass ||
	fail "perf not restored"

# Owner, group and mode still decide.
/usr/sbin/setcap -r "$t/usr/bin/perf" 2>/dev/null; chmod 0755 "$t/usr/bin/perf"
out=$(run_ours "$cm" restore --listed-only "$T/m" "$t" 2>&1); rc=$?
[ $rc -eq 1 ] && [ -z "$(caps "$t/usr/bin/perf")" ] &&
	echo "$out" | grep -q 'not restored' && pass || fail "a 0755 perf: exit $rc, output: $out"

# Gone: reported, exit 1; through a symlinked directory: refused.
rm "$t/usr/bin/perf"
out=$(run_ours "$cm" restore --listed-only "$T/m" "$t" 2>&1); rc=$?
[ $rc -eq 1 ] && echo "$out" | grep -q 'usr/bin/perf' && pass || fail "a missing perf: exit $rc, output: $out"
mv "$t/usr/bin" "$t/real"; ln -s real "$t/usr/bin"
out=$(run_ours "$cm" restore --listed-only "$T/m" "$t" 2>&1); rc=$?
[ $rc -eq 1 ] && [ -z "$(caps "$t/real/perf" 2>/dev/null)" ] && pass ||
	fail "restore followed a symlinked directory: exit $rc, output: $out"
[ "$(caps "$t/real/ping")" = "$t/real/ping cap_net_raw=ep" ] && pass || fail "ping lost its capability"

# Plain restore still removes what the manifest does not list.
rm "$t/usr/bin"; mv "$t/real" "$t/usr/bin"; echo x >"$t/usr/bin/perf"
run_ours "$cm" restore "$T/m" "$t" >/dev/null 2>&1
[ -z "$(caps "$t/usr/bin/ping")" ] && pass || fail "plain restore kept an unlisted capability"

# Other content: verify says so on a line of its own, restore refuses.
echo y >"$t/usr/bin/perf"
new=$(sha256sum "$t/usr/bin/perf" | cut -d' ' -f1)
expect_lines --case="verify --listed-only of another perf" 1 "missing: ./usr/bin/perf cap_perfmon=ep
content: ./usr/bin/perf has sha256=$new, manifest says sha256=$sum" "" \
	run_ours "$cm" verify --listed-only "$T/m" "$t"
out=$(run_ours "$cm" restore --listed-only "$T/m" "$t" 2>&1); rc=$?
[ $rc -eq 1 ] && [ -z "$(caps "$t/usr/bin/perf")" ] &&
	echo "$out" | grep -q 'content differs' && pass || fail "another perf: exit $rc, output: $out"

run_ours "$cm" record --listed-only "$t" >/dev/null 2>&1
[ $? -eq 2 ] && pass || fail "record --listed-only is not a usage error"
finish
