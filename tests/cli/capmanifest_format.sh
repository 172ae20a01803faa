#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# capmanifest without privileges (so it also runs under ASan and valgrind):
# record's walk of a generated tree, the version 2 format and its strict
# parsing (owner/group/mode/acl fields, no "." components, no \000),
# version 1 handling, and restore's refusals and dry runs.
set -u
. "$TESTS_DIR/lib.sh"
cm=$BUILD/progs/capmanifest
[ -x "$cm" ] || { echo "capmanifest not built"; exit 1; }
tmp=$(mktemp -d); writer=
trap '[ -n "$writer" ] && kill $writer 2>/dev/null; rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
umask 022
t=$tmp/t
mkdir -p "$t/a/b" "$t/c" && echo x >"$t/a/b/f" && echo x >"$t/c/g" &&
	ln -s a "$t/link" && mkfifo "$t/fifo" || exit 1
i=0
while [ $i -lt 40 ]; do mkdir "$t/d$i" && echo x >"$t/d$i/f"; i=$((i + 1)); done
uid=$(id -u) gid=$(id -g)

run_ours "$cm" record "$t" >"$tmp/out" 2>"$tmp/err" || fail "record exited $?: $(cat "$tmp/err")"
[ "$(cat "$tmp/out")" = "# capmanifest 2" ] || fail "record of a tree without capabilities: $(cat "$tmp/out")"
[ -s "$tmp/err" ] && fail "record stderr: $(cat "$tmp/err")"
run_ours "$cm" record "$t/link" >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && [ ! -s "$tmp/out" ] || fail "record of a symlink: exit $rc, $(cat "$tmp/out")"

# verify: a file listed with capabilities it lacks, with another mode.
printf '# capmanifest 2\n./a/b/f owner=%s group=%s mode=0750 acl=no cap_net_raw=ep\n' $uid $gid >"$tmp/m"
run_ours "$cm" verify "$tmp/m" "$t" >"$tmp/out" 2>"$tmp/err"; rc=$?
cat >"$tmp/want" <<'OUT'
missing: ./a/b/f cap_net_raw=ep
differs: ./a/b/f has mode=0644, manifest says mode=0750
OUT
[ $rc -eq 1 ] && cmp -s "$tmp/out" "$tmp/want" || fail "verify: exit $rc: $(cat "$tmp/out" "$tmp/err")"
# restore refuses it, and says what --fix-owner would do.
run_ours "$cm" restore -n "$tmp/m" "$t" >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 1 ] && [ ! -s "$tmp/out" ] &&
	[ "$(cat "$tmp/err")" = "capmanifest: ./a/b/f: has mode=0644, manifest says mode=0750: not restored (--fix-owner re-applies them)" ] ||
	fail "restore -n of a changed mode: exit $rc: $(cat "$tmp/out" "$tmp/err")"
run_ours "$cm" restore -n --fix-owner "$tmp/m" "$t" >"$tmp/out" 2>"$tmp/err"; rc=$?
printf 'would fix: ./a/b/f mode=0750\nwould set: ./a/b/f cap_net_raw=ep\n' >"$tmp/want"
[ $rc -eq 0 ] && cmp -s "$tmp/out" "$tmp/want" || fail "restore -n --fix-owner: exit $rc: $(cat "$tmp/out" "$tmp/err")"
[ "$(stat -c %a "$t/a/b/f")" = 644 ] || fail "a dry run changed the mode"

# Version 1: verify compares capabilities and says what it cannot check;
# restore needs --allow-v1.
printf '# capmanifest 1\n./c/g cap_net_raw=ep\n' >"$tmp/v1"
run_ours "$cm" verify "$tmp/v1" "$t" >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 1 ] && [ "$(cat "$tmp/out")" = "missing: ./c/g cap_net_raw=ep" ] &&
	grep -q "version 1 manifest: owner, group and mode are not recorded, so not verified" "$tmp/err" ||
	fail "verify v1: exit $rc: $(cat "$tmp/out" "$tmp/err")"
run_ours "$cm" restore -n "$tmp/v1" "$t" >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && [ ! -s "$tmp/out" ] && grep -q -- "--allow-v1" "$tmp/err" ||
	fail "restore v1: exit $rc: $(cat "$tmp/out" "$tmp/err")"
run_ours "$cm" restore -n --allow-v1 "$tmp/v1" "$t" >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 0 ] && [ "$(cat "$tmp/out")" = "would set: ./c/g cap_net_raw=ep" ] ||
	fail "restore -n --allow-v1: exit $rc: $(cat "$tmp/out" "$tmp/err")"

# Bad lines: each named with its number, nothing applied, exit 2.
m="owner=0 group=0 mode=0644 acl=no"
{
	echo "# capmanifest 2"
	echo "./a/./b/f $m cap_kill=p"
	echo "./a/b/. $m cap_kill=p"
	echo "./a\\000/../x $m cap_kill=p"
	echo "./a/b/f cap_kill=p"
	echo "./a/b/f owner=-1 group=0 mode=0644 acl=no cap_kill=p"
	echo "./a/b/f owner=0 group=0 mode=644 acl=no cap_kill=p"
	echo "./a/b/f owner=0 group=0 mode=0648 acl=no cap_kill=p"
	echo "./a/b/f owner=0 group=0 mode=0644 acl=maybe cap_kill=p"
	echo "./a/b/f owner=4294967295 group=0 mode=0644 acl=no cap_kill=p"
	echo "./a/b/f owner=0 group=0 mode=10644 acl=no cap_kill=p"
	echo "./a/b/f owner=0  group=0 mode=0644 acl=no cap_kill=p"
	echo "./c/g $m cap_kill=p"
} >"$tmp/bad"
run_ours "$cm" verify "$tmp/bad" "$t" >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && [ ! -s "$tmp/out" ] || fail "bad manifest: exit $rc: $(cat "$tmp/out")"
for n in 2 3 4 5 6 7 8 9 10 11 12; do
	grep -q "^capmanifest: $tmp/bad:$n: " "$tmp/err" || fail "bad line $n not reported: $(cat "$tmp/err")"
done
grep -q "^capmanifest: $tmp/bad:13: " "$tmp/err" && fail "good line 13 reported"

# A directory record cannot read is named on stderr and marked "!unread"
# in the manifest, which holds the rest; exit 1 (issue 14: it was exit 2
# with an empty manifest). (As root, as nobody: root reads everything.)
chmod 755 "$tmp" && mkdir -p "$tmp/u/open" "$tmp/u/shut" && echo x >"$tmp/u/open/f" &&
	chmod 000 "$tmp/u/shut" || exit 1
if [ "$(id -u)" -eq 0 ]; then
	# By number: the host's user database is not the test's.
	as_user() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
else
	as_user() { "$@"; }
fi
as_user ${VALGRIND_CMD:-} "$cm" record "$tmp/u" >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 1 ] && [ "$(cat "$tmp/out")" = "$(printf '# capmanifest 2\n!unread ./shut')" ] &&
	[ "$(cat "$tmp/err")" = "capmanifest: cannot read directory $tmp/u/shut: Permission denied
capmanifest: 1 path could not be read: the manifest marks it \"!unread\" and does not cover it" ] ||
	fail "record of an unreadable directory: exit $rc: $(cat "$tmp/out" "$tmp/err")"
chmod 755 "$tmp/u/shut"
# "!unread" paths have the entries' one spelling; a bad one fails the read.
for bad in '/etc' './a/../b' './' 'x' './a\000'; do
	printf '# capmanifest 2\n!unread %s\n' "$bad" >"$tmp/m"
	run_ours "$cm" verify "$tmp/m" "$t" >"$tmp/out" 2>"$tmp/err"; rc=$?
	[ $rc -eq 2 ] && grep -q "^capmanifest: $tmp/m:2: bad path after !unread\$" "$tmp/err" ||
		fail "!unread $bad: exit $rc: $(cat "$tmp/err")"
done

# A FIFO named by a manifest is refused without being opened.
(exec 3>"$t/fifo"; echo connected >"$tmp/writer") & writer=$!
printf '# capmanifest 2\n./fifo owner=%s group=%s mode=0644 acl=no cap_net_raw=ep\n' $uid $gid >"$tmp/m"
run_ours "$cm" restore -n "$tmp/m" "$t" >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 1 ] && [ "$(cat "$tmp/err")" = "capmanifest: cannot set ./fifo: not a regular file" ] ||
	fail "restore -n of a FIFO: exit $rc: $(cat "$tmp/out" "$tmp/err")"
[ -e "$tmp/writer" ] && fail "the FIFO was opened for reading"
kill $writer 2>/dev/null; wait $writer 2>/dev/null; writer=
[ $fails -eq 0 ]
