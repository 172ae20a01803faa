#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# "capmanifest record / > caps.manifest" once exited 2 with an empty
# manifest, because /proc/1/task/*/fdinfo cannot be read. In a private
# mount namespace a tree gets proc and sysfs mounted inside it (skipped by
# default: pseudo filesystems hold no programs), a tmpfs holding a capable
# file (recorded: tmpfs holds real files), and a directory its recorder
# (nobody) may not read. What cannot be read is named on stderr and as
# "!unread" lines, the rest is recorded, exit 1; verify and restore then
# leave the files below an unread path alone instead of calling them extra.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
cm=$BUILD/progs/capmanifest
[ "$(id -u)" -eq 0 ] || skip "needs root (mounts, setcap)"
[ -x "$cm" ] || { fail "capmanifest not built"; finish; }
unshare -m true 2>/dev/null || skip "no mount namespaces (unshare -m)"
command -v setpriv >/dev/null || skip "no setpriv (util-linux)"
chmod 755 "$T"
LIB_T=$T
export cm LIB_T VALGRIND_CMD="${VALGRIND_CMD:-}"
unshare -m --propagation private sh -s <<'INNER'
. "$TESTS_DIR/lib.sh"
init
t=$T/tree
umask 022
mkdir -p "$t/bin" "$t/proc" "$t/sys" "$t/run" "$t/shut"
mount -t proc proc "$t/proc" && mount -t sysfs sysfs "$t/sys" &&
	mount -t tmpfs -o mode=755 tmpfs "$t/run" || { fail "mounts failed"; finish; }
echo x >"$t/bin/ping"; echo x >"$t/run/helper"; echo x >"$t/shut/tool"
/usr/sbin/setcap cap_net_raw=ep "$t/bin/ping"
/usr/sbin/setcap cap_net_admin=ep "$t/run/helper"
/usr/sbin/setcap cap_kill=ep "$t/shut/tool"
x=$(sha256sum "$t/bin/ping" | cut -d' ' -f1)	# every file here holds "x"

# 1. proc and sysfs skipped, the tmpfs walked: the whole manifest, exit 0.
# (As nobody, /proc/1/fd and friends cannot be read on any host.)
chmod 755 "$t/shut"
as_nobody $VALGRIND_CMD "$cm" record "$t" >"$T/m" 2>"$T/err"; rc=$?
printf '%s\n' '# capmanifest 4' \
	"./bin/ping owner=0 group=0 mode=0644 acl=no sha256=$x cap_net_raw=ep" \
	"./run/helper owner=0 group=0 mode=0644 acl=no sha256=$x cap_net_admin=ep" \
	"./shut/tool owner=0 group=0 mode=0644 acl=no sha256=$x cap_kill=ep" >"$T/want"
if [ $rc -ne 0 ] || ! cmp -s "$T/want" "$T/m" || [ -s "$T/err" ]; then
	fail "record of a tree with proc and sysfs inside: exit $rc (want 0)"
	diff "$T/want" "$T/m" | sed 's/^/    /'; head -n 5 "$T/err" | sed 's/^/    /'
else
	pass
fi

# 2. --include-pseudo walks them: proc's unreadable directories are named
# on stderr and in the manifest, the capable files are still all there.
as_nobody "$cm" record --include-pseudo "$t" >"$T/m" 2>"$T/err"; rc=$?
[ $rc -eq 1 ] && pass || fail "record --include-pseudo: exit $rc, want 1"
grep -q '^!unread \./proc/1/' "$T/m" && pass || fail "record --include-pseudo: no '!unread ./proc/1/...' line"
grep -q "^capmanifest: cannot read directory $t/proc/1/" "$T/err" && pass || fail "record --include-pseudo: /proc/1 not named on stderr"
grep -q '^capmanifest: [0-9]* paths could not be read: the manifest marks them "!unread" and does not cover them$' "$T/err" && pass ||
	fail "record --include-pseudo: no summary: $(tail -n 1 "$T/err")"
[ "$(grep -v '^!unread ' "$T/m")" = "$(cat "$T/want")" ] && pass || fail "record --include-pseudo lost entries: $(grep -v '^!unread' "$T/m")"

# 3. A directory nobody may not read: named, marked, the rest recorded.
chmod 700 "$t/shut"
as_nobody $VALGRIND_CMD "$cm" record "$t" >"$T/m" 2>"$T/err"; rc=$?
printf '%s\n' '# capmanifest 4' '!unread ./shut' \
	"./bin/ping owner=0 group=0 mode=0644 acl=no sha256=$x cap_net_raw=ep" \
	"./run/helper owner=0 group=0 mode=0644 acl=no sha256=$x cap_net_admin=ep" >"$T/want"
printf '%s\n' "capmanifest: cannot read directory $t/shut: Permission denied" \
	'capmanifest: 1 path could not be read: the manifest marks it "!unread" and does not cover it' >"$T/wanterr"
if [ $rc -ne 1 ] || ! cmp -s "$T/want" "$T/m" || ! cmp -s "$T/wanterr" "$T/err"; then
	fail "record with an unreadable directory: exit $rc (want 1)"
	diff "$T/want" "$T/m" | sed 's/^/    /'; diff "$T/wanterr" "$T/err" | sed 's/^/    /'
else
	pass
fi
# Root verifies and restores with it: ./shut/tool is not "extra", and keeps
# its capability; a real difference elsewhere is still found and fixed.
/usr/sbin/setcap -r "$t/bin/ping"
$VALGRIND_CMD "$cm" verify "$T/m" "$t" >"$T/out" 2>"$T/err"; rc=$?
[ $rc -eq 1 ] && [ "$(cat "$T/out")" = "missing: ./bin/ping cap_net_raw=ep" ] &&
	[ "$(cat "$T/err")" = 'capmanifest: not compared: ./shut/tool (the manifest marks ./shut !unread)' ] && pass ||
	fail "verify: exit $rc: $(cat "$T/out" "$T/err")"
expect_lines --case="restore" 0 "set: ./bin/ping cap_net_raw=ep" \
	"capmanifest: not compared: ./shut/tool (the manifest marks ./shut !unread)" \
	$VALGRIND_CMD "$cm" restore "$T/m" "$t"
[ "$(/usr/sbin/getcap "$t/shut/tool")" = "$t/shut/tool cap_kill=ep" ] && pass ||
	fail "restore stripped a file below an unread path: $(/usr/sbin/getcap "$t/shut/tool")"
[ "$(/usr/sbin/getcap "$t/bin/ping")" = "$t/bin/ping cap_net_raw=ep" ] && pass || fail "restore did not set ./bin/ping"
finish "capmanifest: pseudo filesystems skipped, unread paths marked, verify and restore honour them"
INNER
