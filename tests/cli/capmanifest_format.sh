#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# capmanifest without privileges (so it also runs under ASan and valgrind):
# record's walk of a generated tree, the version 4 format and its strict
# parsing (owner/group/mode/acl/sha256 fields, no "." components, no
# \000; version 2 lines are still read), version 1 and 2 handling (no
# content digest: restore refuses), and restore's refusals and dry runs.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
cm=$BUILD/progs/capmanifest
[ -x "$cm" ] || { fail "capmanifest not built"; finish; }
writer=
at_exit '[ -z "$writer" ] || kill $writer 2>/dev/null'
umask 022
t=$T/t
mkdir -p "$t/a/b" "$t/c" && echo x >"$t/a/b/f" && echo x >"$t/c/g" &&
	ln -s a "$t/link" && mkfifo "$t/fifo" || exit 1
i=0
while [ $i -lt 40 ]; do mkdir "$t/d$i" && echo x >"$t/d$i/f"; i=$((i + 1)); done
uid=$(id -u) gid=$(id -g)
x=$(echo x | sha256sum | cut -d' ' -f1)	# every file here holds "x\n"

run_ours "$cm" record "$t" >"$T/out" 2>"$T/err" && pass || fail "record exited $?: $(cat "$T/err")"
[ "$(cat "$T/out")" = "# capmanifest 4" ] && pass || fail "record of a tree without capabilities: $(cat "$T/out")"
[ -s "$T/err" ] && fail "record stderr: $(cat "$T/err")" || pass
# A manifest that could not be written whole is no manifest: exit 2.
if [ -w /dev/full ]; then
	run_ours "$cm" record "$t" >/dev/full 2>"$T/err"; rc=$?
	[ $rc -eq 2 ] && [ "$(cat "$T/err")" = "capmanifest: standard output: No space left on device" ] && pass ||
		fail "record to a full disk: exit $rc: $(cat "$T/err")"
fi
expect_lines --case="record of a symlink" 2 "" \
	"capmanifest: $t/link: a symbolic link: name the directory or file it points to" \
	run_ours "$cm" record "$t/link"

# verify: a file listed with capabilities it lacks, with another mode.
printf '# capmanifest 3\n./a/b/f owner=%s group=%s mode=0750 acl=no sha256=%s cap_net_raw=ep\n' $uid $gid $x >"$T/m"
run_ours "$cm" verify "$T/m" "$t" >"$T/out" 2>"$T/err"; rc=$?
cat >"$T/want" <<'OUT'
missing: ./a/b/f cap_net_raw=ep
differs: ./a/b/f has mode=0644, manifest says mode=0750
OUT
[ $rc -eq 1 ] && cmp -s "$T/out" "$T/want" && [ ! -s "$T/err" ] && pass || fail "verify: exit $rc: $(cat "$T/out" "$T/err")"
# Other content: a line of its own.
echo y >"$T/y" && y=$(sha256sum "$T/y" | cut -d' ' -f1) &&
	printf '# capmanifest 3\n./c/g owner=%s group=%s mode=0644 acl=no sha256=%s cap_net_raw=ep\n' $uid $gid $y >"$T/mc" || exit 1
run_ours "$cm" verify "$T/mc" "$t" >"$T/out" 2>"$T/err"; rc=$?
printf 'missing: ./c/g cap_net_raw=ep\ncontent: ./c/g has sha256=%s, manifest says sha256=%s\n' $x $y >"$T/want"
[ $rc -eq 1 ] && cmp -s "$T/out" "$T/want" && [ ! -s "$T/err" ] && pass || fail "verify of other content: exit $rc: $(cat "$T/out" "$T/err")"
# (Below $T, where not root alone may write: no hint names
# --accept-new-content, which would not take it either.)
run_ours "$cm" restore -n "$T/mc" "$t" >"$T/out" 2>"$T/err"; rc=$?
[ $rc -eq 1 ] && [ ! -s "$T/out" ] && [ "$(wc -l <"$T/err")" -eq 1 ] &&
	grep -qF "capmanifest: ./c/g: content differs: has sha256=$x, manifest says sha256=$y: not restored (nor with --accept-new-content: " "$T/err" && pass ||
	fail "restore -n of other content: exit $rc: $(cat "$T/out" "$T/err")"
# restore refuses it, and says what --fix-owner would do, and the command
# (the repair: without -n).
expect_lines --case="restore -n of a changed mode" 1 "" \
	"capmanifest: ./a/b/f: has mode=0644, manifest says mode=0750: not restored (--fix-owner re-applies them)
capmanifest: to restore them: capmanifest restore --fix-owner $T/m $t" \
	run_ours "$cm" restore -n "$T/m" "$t"
run_ours "$cm" restore -n --fix-owner "$T/m" "$t" >"$T/out" 2>"$T/err"; rc=$?
printf 'would fix: ./a/b/f mode=0750\nwould set: ./a/b/f cap_net_raw=ep\n' >"$T/want"
[ $rc -eq 0 ] && cmp -s "$T/out" "$T/want" && pass || fail "restore -n --fix-owner: exit $rc: $(cat "$T/out" "$T/err")"
[ "$(stat -c %a "$t/a/b/f")" = 644 ] && pass || fail "a dry run changed the mode"

# Version 2: no content digest: verify says so, restore grants nothing.
printf '# capmanifest 2\n./c/g owner=%s group=%s mode=0644 acl=no cap_net_raw=ep\n' $uid $gid >"$T/v2"
expect_lines --case="verify v2" 1 "missing: ./c/g cap_net_raw=ep" \
	"capmanifest: $T/v2: version 2 manifest: file contents are not recorded, so not verified" \
	run_ours "$cm" verify "$T/v2" "$t"
run_ours "$cm" restore -n "$T/v2" "$t" >"$T/out" 2>"$T/err"; rc=$?
[ $rc -eq 1 ] && [ ! -s "$T/out" ] && [ "$(wc -l <"$T/err")" -eq 1 ] &&
	grep -qF "capmanifest: ./c/g: the manifest (version 2) records no content digest: not restored (nor with --accept-new-content: " "$T/err" && pass ||
	fail "restore -n v2: exit $rc: $(cat "$T/out" "$T/err")"

# Version 1: verify compares capabilities and says what it cannot check;
# restore needs --allow-v1, and grants nothing to unknown content.
printf '# capmanifest 1\n./c/g cap_net_raw=ep\n' >"$T/v1"
run_ours "$cm" verify "$T/v1" "$t" >"$T/out" 2>"$T/err"; rc=$?
[ $rc -eq 1 ] && [ "$(cat "$T/out")" = "missing: ./c/g cap_net_raw=ep" ] &&
	grep -q "version 1 manifest: owner, group and mode are not recorded, so not verified" "$T/err" && pass ||
	fail "verify v1: exit $rc: $(cat "$T/out" "$T/err")"
run_ours "$cm" restore -n "$T/v1" "$t" >"$T/out" 2>"$T/err"; rc=$?
[ $rc -eq 2 ] && [ ! -s "$T/out" ] && grep -q -- "--allow-v1" "$T/err" && pass ||
	fail "restore v1: exit $rc: $(cat "$T/out" "$T/err")"
# (Not root: the file is not root's, the owner a version 1 manifest
# leaves to assume, and that is said first.)
if [ $uid -eq 0 ]; then
	why="the manifest (version 1) records no content digest: not restored (nor with --accept-new-content: "
else
	why="owned by uid $uid, neither root nor the recorded owner (0): not restored"
fi
run_ours "$cm" restore -n --allow-v1 "$T/v1" "$t" >"$T/out" 2>"$T/err"; rc=$?
[ $rc -eq 1 ] && [ ! -s "$T/out" ] && grep -qF "capmanifest: ./c/g: $why" "$T/err" && pass ||
	fail "restore -n --allow-v1: exit $rc: $(cat "$T/out" "$T/err")"

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
} >"$T/bad"
run_ours "$cm" verify "$T/bad" "$t" >"$T/out" 2>"$T/err"; rc=$?
[ $rc -eq 2 ] && [ ! -s "$T/out" ] && pass || fail "bad manifest: exit $rc: $(cat "$T/out")"
for n in 2 3 4 5 6 7 8 9 10 11 12; do
	grep -q "^capmanifest: $T/bad:$n: " "$T/err" && pass || fail "bad line $n not reported: $(cat "$T/err")"
done
grep -q "^capmanifest: $T/bad:13: " "$T/err" && fail "good line 13 reported" || pass

# Version 4: the ACL's entries, in one spelling (the kernel's order,
# numeric ids without leading zeros, rwx with dashes), agreeing with the
# mode, and only when they grant beyond it ("acl=no" otherwise); not
# "acl=yes", which says nothing of who may run the file.
x4=$(printf 0 | sha256sum | cut -d' ' -f1)
ok_acl="user::rwx,user:1000:r-x,group::r-x,mask::r-x,other::---"
{
	echo "# capmanifest 4"
	for a in yes "" "user::rwx,group::r-x,other::---" \
		"user::rwx,group::r-x,user:1000:r-x,mask::r-x,other::---" \
		"user::rwx,user:1000:r-x,group::r-x,other::---" \
		"user::rwx,user:1000:r-x,group::r-x,mask::rwx,other::---" \
		"user::r-x,user:1000:r-x,group::r-x,mask::r-x,other::---" \
		"user::rwx,user:1000:r-x,group::r-x,mask::r-x,other::r--" \
		"user::rwx,user:01000:r-x,group::r-x,mask::r-x,other::---" \
		"user::rwx,user:4294967295:r-x,group::r-x,mask::r-x,other::---" \
		"user::rwx,user:1000:rx,group::r-x,mask::r-x,other::---" \
		"user::rwx,user:1000:x-r,group::r-x,mask::r-x,other::---" \
		"user::rwx,mask:1000:r-x,group::r-x,mask::r-x,other::---" \
		"user::rwx,user:1000:r-x,group::r-x,mask::r-x,other::---,"; do
		echo "./c/g owner=0 group=0 mode=0750 acl=$a sha256=$x4 cap_kill=p"
	done
	echo "./c/g owner=0 group=0 mode=0750 acl=$ok_acl sha256=$x4 cap_kill=p"
	echo "./c/h owner=0 group=0 mode=0740 acl=user::rwx,group::r-x,mask::r--,other::--- sha256=$x4 cap_kill=p"
	echo "./c/i owner=0 group=0 mode=0750 acl=no sha256=$x4 cap_kill=p"
} >"$T/bad4"
run_ours "$cm" verify "$T/bad4" "$t" >"$T/out" 2>"$T/err"; rc=$?
[ $rc -eq 2 ] && [ ! -s "$T/out" ] && pass || fail "bad version 4 manifest: exit $rc: $(cat "$T/out")"
for n in 2 3 4 5 6 7 8 9 10 11 12 13 14 15; do
	grep -q "^capmanifest: $T/bad4:$n: want \"owner=N group=N mode=NNNN acl=no|ENTRIES\" after the path" "$T/err" && pass ||
		fail "bad version 4 line $n not reported: $(sed -n "${n}p" "$T/bad4")"
done
for n in 16 17 18; do
	grep -q "^capmanifest: $T/bad4:$n: " "$T/err" && fail "good version 4 line $n reported: $(grep ":$n: " "$T/err")" || pass
done

# A directory record cannot read is named on stderr and marked "!unread"
# in the manifest, which holds the rest; exit 1 (an exit 2 with an empty
# manifest lost all that could be read). (As root, as nobody: root reads
# everything.)
chmod 755 "$T" && mkdir -p "$T/u/open" "$T/u/shut" && echo x >"$T/u/open/f" &&
	chmod 000 "$T/u/shut" || exit 1
if [ "$(id -u)" -eq 0 ]; then
	# By number: the host's user database is not the test's.
	as_user() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
else
	as_user() { "$@"; }
fi
expect_lines --case="record of an unreadable directory" 1 "$(printf '# capmanifest 4\n!unread ./shut')" \
	"capmanifest: cannot read directory $T/u/shut: Permission denied
capmanifest: 1 path could not be read: the manifest marks it \"!unread\" and does not cover it" \
	as_user ${VALGRIND_CMD:-} "$cm" record "$T/u"
chmod 755 "$T/u/shut"
# "!unread" paths have the entries' one spelling; a bad one fails the read.
for bad in '/etc' './a/../b' './' 'x' './a\000'; do
	printf '# capmanifest 2\n!unread %s\n' "$bad" >"$T/m"
	run_ours "$cm" verify "$T/m" "$t" >"$T/out" 2>"$T/err"; rc=$?
	[ $rc -eq 2 ] && grep -q "^capmanifest: $T/m:2: bad path after !unread\$" "$T/err" && pass ||
		fail "!unread $bad: exit $rc: $(cat "$T/err")"
done

# A FIFO named by a manifest is refused without being opened.
(exec 3>"$t/fifo"; echo connected >"$T/writer") & writer=$!
printf '# capmanifest 3\n./fifo owner=%s group=%s mode=0644 acl=no sha256=%s cap_net_raw=ep\n' $uid $gid $x >"$T/m"
expect_lines --case="restore -n of a FIFO" 1 "" \
	"capmanifest: cannot set ./fifo: not a regular file" \
	run_ours "$cm" restore -n "$T/m" "$t"
[ -e "$T/writer" ] && fail "the FIFO was opened for reading" || pass
kill $writer 2>/dev/null; wait $writer 2>/dev/null; writer=
finish
