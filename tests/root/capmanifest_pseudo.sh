#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# Issue 14: "capmanifest record / > caps.manifest" exited 2 with an empty
# manifest, because /proc/1/task/*/fdinfo cannot be read. In a private
# mount namespace a tree gets proc and sysfs mounted inside it (skipped by
# default: pseudo filesystems hold no programs), a tmpfs holding a capable
# file (recorded: tmpfs holds real files), and a directory its recorder
# (nobody) may not read. What cannot be read is named on stderr and as
# "!unread" lines, the rest is recorded, exit 1; verify and restore then
# leave the files below an unread path alone instead of calling them extra.
set -u
cm=$BUILD/progs/capmanifest
[ "$(id -u)" -eq 0 ] || { echo "skipped: needs root (mounts, setcap)"; exit 77; }
[ -x "$cm" ] || { echo "capmanifest not built"; exit 1; }
unshare -m true 2>/dev/null || { echo "skipped: no mount namespaces (unshare -m)"; exit 77; }
command -v setpriv >/dev/null || { echo "skipped: no setpriv (util-linux)"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
export cm tmp VALGRIND_CMD="${VALGRIND_CMD:-}"
unshare -m --propagation private sh -s <<'INNER'
set -u
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
t=$tmp/tree
umask 022
mkdir -p "$t/bin" "$t/proc" "$t/sys" "$t/run" "$t/shut"
mount -t proc proc "$t/proc" && mount -t sysfs sysfs "$t/sys" &&
	mount -t tmpfs -o mode=755 tmpfs "$t/run" || { echo "mounts failed"; exit 1; }
echo x >"$t/bin/ping"; echo x >"$t/run/helper"; echo x >"$t/shut/tool"
/usr/sbin/setcap cap_net_raw=ep "$t/bin/ping"
/usr/sbin/setcap cap_net_admin=ep "$t/run/helper"
/usr/sbin/setcap cap_kill=ep "$t/shut/tool"
nobody() { setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups "$@"; }

# 1. proc and sysfs skipped, the tmpfs walked: the whole manifest, exit 0.
# (As nobody, /proc/1/fd and friends cannot be read on any host.)
chmod 755 "$t/shut"
nobody $VALGRIND_CMD "$cm" record "$t" >"$tmp/m" 2>"$tmp/err"; rc=$?
printf '%s\n' '# capmanifest 2' \
	'./bin/ping owner=0 group=0 mode=0644 acl=no cap_net_raw=ep' \
	'./run/helper owner=0 group=0 mode=0644 acl=no cap_net_admin=ep' \
	'./shut/tool owner=0 group=0 mode=0644 acl=no cap_kill=ep' >"$tmp/want"
if [ $rc -ne 0 ] || ! cmp -s "$tmp/want" "$tmp/m" || [ -s "$tmp/err" ]; then
	fail "record of a tree with proc and sysfs inside: exit $rc (want 0)"
	diff "$tmp/want" "$tmp/m" | sed 's/^/    /'; head -n 5 "$tmp/err" | sed 's/^/    /'
fi

# 2. --include-pseudo walks them: proc's unreadable directories are named
# on stderr and in the manifest, the capable files are still all there.
nobody "$cm" record --include-pseudo "$t" >"$tmp/m" 2>"$tmp/err"; rc=$?
[ $rc -eq 1 ] || fail "record --include-pseudo: exit $rc, want 1"
grep -q '^!unread \./proc/1/' "$tmp/m" || fail "record --include-pseudo: no '!unread ./proc/1/...' line"
grep -q "^capmanifest: cannot read directory $t/proc/1/" "$tmp/err" || fail "record --include-pseudo: /proc/1 not named on stderr"
grep -q '^capmanifest: [0-9]* paths could not be read: the manifest marks them "!unread" and does not cover them$' "$tmp/err" ||
	fail "record --include-pseudo: no summary: $(tail -n 1 "$tmp/err")"
[ "$(grep -v '^!unread ' "$tmp/m")" = "$(cat "$tmp/want")" ] || fail "record --include-pseudo lost entries: $(grep -v '^!unread' "$tmp/m")"

# 3. A directory nobody may not read: named, marked, the rest recorded.
chmod 700 "$t/shut"
nobody $VALGRIND_CMD "$cm" record "$t" >"$tmp/m" 2>"$tmp/err"; rc=$?
printf '%s\n' '# capmanifest 2' '!unread ./shut' \
	'./bin/ping owner=0 group=0 mode=0644 acl=no cap_net_raw=ep' \
	'./run/helper owner=0 group=0 mode=0644 acl=no cap_net_admin=ep' >"$tmp/want"
printf '%s\n' "capmanifest: cannot read directory $t/shut: Permission denied" \
	'capmanifest: 1 path could not be read: the manifest marks it "!unread" and does not cover it' >"$tmp/wanterr"
if [ $rc -ne 1 ] || ! cmp -s "$tmp/want" "$tmp/m" || ! cmp -s "$tmp/wanterr" "$tmp/err"; then
	fail "record with an unreadable directory: exit $rc (want 1)"
	diff "$tmp/want" "$tmp/m" | sed 's/^/    /'; diff "$tmp/wanterr" "$tmp/err" | sed 's/^/    /'
fi
# Root verifies and restores with it: ./shut/tool is not "extra", and keeps
# its capability; a real difference elsewhere is still found and fixed.
/usr/sbin/setcap -r "$t/bin/ping"
$VALGRIND_CMD "$cm" verify "$tmp/m" "$t" >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 1 ] && [ "$(cat "$tmp/out")" = "missing: ./bin/ping cap_net_raw=ep" ] &&
	[ "$(cat "$tmp/err")" = 'capmanifest: not compared: ./shut/tool (the manifest marks ./shut !unread)' ] ||
	fail "verify: exit $rc: $(cat "$tmp/out" "$tmp/err")"
$VALGRIND_CMD "$cm" restore "$tmp/m" "$t" >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 0 ] && [ "$(cat "$tmp/out")" = "set: ./bin/ping cap_net_raw=ep" ] ||
	fail "restore: exit $rc: $(cat "$tmp/out" "$tmp/err")"
[ "$(/usr/sbin/getcap "$t/shut/tool")" = "$t/shut/tool cap_kill=ep" ] ||
	fail "restore stripped a file below an unread path: $(/usr/sbin/getcap "$t/shut/tool")"
[ "$(/usr/sbin/getcap "$t/bin/ping")" = "$t/bin/ping cap_net_raw=ep" ] || fail "restore did not set ./bin/ping"
[ $fails -eq 0 ] && echo "capmanifest: pseudo filesystems skipped, unread paths marked, verify and restore honour them"
exit $((fails != 0))
INNER
