#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# capmanifest restore --listed-only (the Debian trigger's mode): a manifest
# that registers one file restores that file and leaves every other file's
# capabilities alone (plain restore removes them); owner, group and mode
# are still checked; a listed file that is gone is reported, exit 1; a
# path through a symlink is never followed; the option belongs to restore.
set -u
. "$TESTS_DIR/lib.sh"
[ "$(id -u)" -eq 0 ] || { echo "skipped: needs root (writes file capabilities)"; exit 77; }
cm=$BUILD/progs/capmanifest
[ -x "$cm" ] || { echo "capmanifest not built"; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
t=$tmp/tree fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
caps() { /usr/sbin/getcap "$1"; }

umask 022
mkdir -p "$t/usr/bin" "$t/bin"
for f in usr/bin/perf usr/bin/ping usr/bin/other; do echo x >"$t/$f"; done
/usr/sbin/setcap cap_perfmon=ep "$t/usr/bin/perf"
/usr/sbin/setcap cap_net_raw=ep "$t/usr/bin/ping"
printf '# capmanifest 2\n./usr/bin/perf owner=0 group=0 mode=0644 acl=no cap_perfmon=ep\n' >"$tmp/m"

# A new copy of perf (as dpkg unpacks it): no capability.
rm "$t/usr/bin/perf"; echo y >"$t/usr/bin/perf"
out=$(run_ours "$cm" restore --listed-only "$tmp/m" "$t" 2>&1); rc=$?
[ $rc -eq 0 ] && [ "$out" = "set: ./usr/bin/perf cap_perfmon=ep" ] ||
	fail "restore --listed-only: exit $rc, output: $out"
[ "$(caps "$t/usr/bin/ping")" = "$t/usr/bin/ping cap_net_raw=ep" ] ||
	fail "--listed-only removed ping's capability"
[ "$(caps "$t/usr/bin/perf")" = "$t/usr/bin/perf cap_perfmon=ep" ] ||
	fail "perf not restored"

# Owner, group and mode still decide.
/usr/sbin/setcap -r "$t/usr/bin/perf" 2>/dev/null; chmod 0755 "$t/usr/bin/perf"
out=$(run_ours "$cm" restore --listed-only "$tmp/m" "$t" 2>&1); rc=$?
[ $rc -eq 1 ] && [ -z "$(caps "$t/usr/bin/perf")" ] &&
	echo "$out" | grep -q 'not restored' || fail "a 0755 perf: exit $rc, output: $out"

# Gone: reported, exit 1; through a symlinked directory: refused.
rm "$t/usr/bin/perf"
out=$(run_ours "$cm" restore --listed-only "$tmp/m" "$t" 2>&1); rc=$?
[ $rc -eq 1 ] && echo "$out" | grep -q 'usr/bin/perf' || fail "a missing perf: exit $rc, output: $out"
mv "$t/usr/bin" "$t/real"; ln -s real "$t/usr/bin"
out=$(run_ours "$cm" restore --listed-only "$tmp/m" "$t" 2>&1); rc=$?
[ $rc -eq 1 ] && [ -z "$(caps "$t/real/perf" 2>/dev/null)" ] ||
	fail "restore followed a symlinked directory: exit $rc, output: $out"
[ "$(caps "$t/real/ping")" = "$t/real/ping cap_net_raw=ep" ] || fail "ping lost its capability"

# Plain restore still removes what the manifest does not list.
rm "$t/usr/bin"; mv "$t/real" "$t/usr/bin"; echo y >"$t/usr/bin/perf"
run_ours "$cm" restore "$tmp/m" "$t" >/dev/null 2>&1
[ -z "$(caps "$t/usr/bin/ping")" ] || fail "plain restore kept an unlisted capability"

run_ours "$cm" verify --listed-only "$tmp/m" "$t" >/dev/null 2>&1
[ $? -eq 2 ] || fail "verify --listed-only is not a usage error"
exit $fails
