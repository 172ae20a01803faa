#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# capmanifest records the entries of a capable file's access ACL, not
# only that it has one, so an ACL that lets one more user run the file is
# never passed silently. On the real kernel, a capable tool root:root
# 0750 whose ACL already lets uid A run it (user:A:r-x, mask r-x):
#   - record writes its entries (version 4);
#   - mallory (uid M) gets an entry too, as "setfacl -m u:M:rx" does: she
#     can now run it; verify names the difference, restore refuses with
#     the command that restores it, which pasted puts back exactly the
#     recorded ACL (A runs it, M cannot) and the capability, through the
#     file's own descriptor;
#   - A's permissions changed, and the mask widened by a chmod (g+x lets
#     the named entry run it again): both reported;
#   - an upgrade loses the ACL: restore --fix-owner re-creates it, byte
#     for byte;
#   - a version 3 manifest, which recorded only "acl=yes": an ACL with
#     named entries is reported by verify and refused by restore (no
#     option hinted, nothing changed), never taken for the recorded one;
#     add records it again as version 4, and refuses to carry such an
#     entry over unrecorded.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
cm=$BUILD/progs/capmanifest setcap=$BUILD/progs/setcap
[ -x "$cm" ] && [ -x "$setcap" ] || { fail "capmanifest or setcap not built"; finish; }
command -v setfattr >/dev/null 2>&1 && command -v getfattr >/dev/null 2>&1 ||
	skip "setfattr and getfattr (attr) are not installed"
command -v setpriv >/dev/null 2>&1 || skip "setpriv (util-linux) is not installed"
chmod 755 "$T"
# Numbers no account has (the kernel needs none for an ACL or a uid).
A=47021 M=47022
t=$T/tree tool=$T/tree/usr/bin/tool
mkdir -p "$t/usr/bin" && chmod -R 755 "$t"

# ENTRY...: the raw ACL ("tag perm id" each, id - for none), for setfattr.
acl() {
	printf '0x02000000'
	while [ $# -gt 0 ]; do
		id=$3; [ "$id" = - ] && id=4294967295
		printf '%02x00%02x00%02x%02x%02x%02x' "$1" "$2" \
			$((id & 255)) $((id >> 8 & 255)) $((id >> 16 & 255)) $((id >> 24 & 255))
		shift 3
	done
}
acl_of() { getfattr -e hex -n system.posix_acl_access "$1" 2>/dev/null | sed -n 's/^system.posix_acl_access=//p'; }
set_acl() { setfattr -n system.posix_acl_access -v "$2" "$1" && pass || fail "cannot set an ACL on $1"; }
caps_of() { "$BUILD/progs/getcap" "$1" | sed 's/^[^ ]* *//'; }
state() { printf '%s %s %s\n' "$(stat -c '%u:%g %a' "$1")" "$(acl_of "$1")" "$(caps_of "$1")"; }
# UID: whether that user may run the tool (exit 0), as the kernel decides.
# Through a shell, so that setpriv's own execve, still with root's
# capabilities, is not the one checked.
runs() { setpriv --reuid="$1" --regid=47020 --clear-groups sh -c 'exec "$0"' "$tool" 2>/dev/null; }

# user::rwx user:A:r-x group::r-x mask::r-x other::---, mode 0750.
recorded=$(acl 1 7 - 2 5 $A 4 5 - 16 5 - 32 0 -)
text="user::rwx,user:$A:r-x,group::r-x,mask::r-x,other::---"
cp /bin/true "$tool" && chmod 0750 "$tool" && set_acl "$tool" "$recorded" &&
	"$setcap" cap_net_raw=ep "$tool" >/dev/null || { fail "setup"; finish; }
runs $A && pass || fail "setup: uid $A cannot run the tool"
runs $M && fail "setup: uid $M can run the tool" || pass
run "$cm" record "$t"
expect_rc 0 "record" || cat "$T/err"
sum=$(sha256sum "$tool" | cut -d' ' -f1)
expect_out "# capmanifest 4
./usr/bin/tool owner=0 group=0 mode=0750 acl=$text sha256=$sum cap_net_raw=ep
" "record"
cp "$T/out" "$T/m"

# Mallory gets an entry beside A's: the same ACL presence, more runners.
set_acl "$tool" "$(acl 1 7 - 2 5 $A 2 5 $M 4 5 - 16 5 - 32 0 -)"
runs $M && pass || fail "setup: the added entry does not let uid $M run it"
widened="user::rwx,user:$A:r-x,user:$M:r-x,group::r-x,mask::r-x,other::---"
expect 1 "differs: ./usr/bin/tool has acl=$widened, manifest says acl=$text
" "" "$cm" verify "$T/m" "$t"
state "$tool" >"$T/before"
expect 1 "" "capmanifest: ./usr/bin/tool: has acl=$widened, manifest says acl=$text: not restored (--fix-owner re-applies them)
capmanifest: to restore them: capmanifest restore --fix-owner $T/m $t
" "$cm" restore "$T/m" "$t"
cp "$T/err" "$T/refusal"
state "$tool" >"$T/after"
same "$T/before" "$T/after" "the refused restore changed nothing"
expect 0 "would fix: ./usr/bin/tool acl=$text
would set: ./usr/bin/tool cap_net_raw=ep
" "" "$cm" restore -n --fix-owner "$T/m" "$t"
state "$tool" >"$T/after"
same "$T/before" "$T/after" "the dry run changed nothing"
paste_for_real "$T/refusal" "capmanifest: to restore them: "
expect_rc 0 "the repair line, pasted" || cat "$T/err"
expect_out "fixed: ./usr/bin/tool acl=$text
set: ./usr/bin/tool cap_net_raw=ep
" "the repair line, pasted"
[ "$(acl_of "$tool")" = "$recorded" ] && pass || fail "the ACL restored: $(acl_of "$tool"), recorded $recorded"
[ "$(caps_of "$tool")" = cap_net_raw=ep ] && [ "$(stat -c '%u:%g %a' "$tool")" = "0:0 750" ] && pass ||
	fail "after the restore: $(state "$tool")"
runs $M && fail "after the restore uid $M still runs the tool" || pass
runs $A && pass || fail "after the restore uid $A cannot run the tool"
expect 0 "" "" "$cm" verify "$T/m" "$t"

# A's permissions changed (r-x to --x): reported.
set_acl "$tool" "$(acl 1 7 - 2 1 $A 4 5 - 16 5 - 32 0 -)"
expect 1 "differs: ./usr/bin/tool has acl=user::rwx,user:$A:--x,group::r-x,mask::r-x,other::---, manifest says acl=$text
" "" "$cm" verify "$T/m" "$t"
# A mask narrowed when recorded (r--: A may read, not run), widened by chmod.
set_acl "$tool" "$(acl 1 7 - 2 5 $A 4 4 - 16 4 - 32 0 -)"
runs $A && fail "setup: mask r-- still lets uid $A run it" || pass
"$cm" record "$t" >"$T/mnarrow" && pass || fail "record with mask r--"
chmod 0750 "$tool"
runs $A && pass || fail "setup: chmod g+x did not let uid $A run it"
expect 1 "differs: ./usr/bin/tool has mode=0750 acl=user::rwx,user:$A:r-x,group::r--,mask::r-x,other::---, manifest says mode=0740 acl=user::rwx,user:$A:r-x,group::r--,mask::r--,other::---
" "" "$cm" verify "$T/mnarrow" "$t"
run "$cm" restore --fix-owner "$T/mnarrow" "$t"
expect_rc 0 "restore of a narrowed mask" || cat "$T/err"
runs $A && fail "after restoring the mask uid $A still runs the tool" || pass

# An upgrade loses the ACL (a new file renamed over it): re-created.
cp /bin/true "$tool.new" && chmod 0755 "$tool.new" && mv -f "$tool.new" "$tool" && pass || fail "upgrade"
expect 1 "missing: ./usr/bin/tool cap_net_raw=ep
differs: ./usr/bin/tool has mode=0755 acl=no, manifest says mode=0750 acl=$text
" "" "$cm" verify "$T/m" "$t"
run "$cm" restore --fix-owner "$T/m" "$t"
expect_rc 0 "restore of a lost ACL" || cat "$T/err"
expect_out "fixed: ./usr/bin/tool mode=0750 acl=$text
set: ./usr/bin/tool cap_net_raw=ep
" "restore of a lost ACL"
[ "$(acl_of "$tool")" = "$recorded" ] && pass || fail "the ACL re-created: $(acl_of "$tool"), recorded $recorded"
runs $A && pass || fail "uid $A cannot run the tool whose ACL was re-created"

# A version 3 manifest knew only that there was an ACL.
sed -e '1s/4$/3/' -e 's/ acl=[^ ]* / acl=yes /' "$T/m" >"$T/m3"
set_acl "$tool" "$(acl 1 7 - 2 5 $A 2 5 $M 4 5 - 16 5 - 32 0 -)"
expect 1 "differs: ./usr/bin/tool has acl=$widened, manifest says acl=yes
" "capmanifest: $T/m3: version 3 manifest: ACL entries are not recorded, so a file whose ACL has named entries is reported as differing; record it again
" "$cm" verify "$T/m3" "$t"
state "$tool" >"$T/before"
expect 1 "" "capmanifest: ./usr/bin/tool: has acl=$widened, manifest says acl=yes: not restored: the manifest (version 3) records that it has an ACL, not its entries, so whom its named entries let run it cannot be checked; record it again
" "$cm" restore --fix-owner "$T/m3" "$t"
state "$tool" >"$T/after"
same "$T/before" "$T/after" "the restore refused for a version 3 ACL changed nothing"
# add: an entry whose ACL entries were never recorded is not carried over
# as if they were; recorded again, it is written with them.
mkdir "$T/reg" && chmod 0755 "$T/reg"
sed "s|^\./usr/bin/tool |.$tool |" "$T/m3" >"$T/reg/m" && cp /bin/true "$t/usr/bin/other" &&
	"$setcap" cap_kill=ep "$t/usr/bin/other" >/dev/null && pass || fail "setup: add"
cp "$T/reg/m" "$T/m3.copy"
expect 1 "" "capmanifest: $T/reg/m: a version 3 manifest records that these files have an ACL, not its entries, and they are not being recorded again:
capmanifest:   .$tool
capmanifest: name it too, so that the manifest can be written as version 4
" "$cm" add "$T/reg/m" "$t/usr/bin/other"
same "$T/m3.copy" "$T/reg/m" "the refused add changed the manifest"
run "$cm" add "$T/reg/m" "$tool"
expect_rc 0 "add again" || cat "$T/err"
grep -qx "\.$tool owner=0 group=0 mode=0750 acl=$widened sha256=$sum cap_net_raw=ep" "$T/reg/m" &&
	[ "$(head -n 1 "$T/reg/m")" = "# capmanifest 4" ] && pass || fail "add again: $(cat "$T/reg/m")"
# The moment between two changes. strace holds each of restore's chmods
# (then its capability write) for 0.5 s while someone tries, every 20
# ms, to open the tool for writing; one who gets a descriptor then keeps
# it, and a store through a shared mapping changes the capable file and
# leaves it capable.
# - A group the ACL lets read and run it, never write: the recorded tool
#   has no ACL (0755, group G); it now has user::rwx,user:0:rwx,
#   group::r-x,mask::rwx (0775). Taking the ACL away leaves the mask's rwx
#   as G's own, until the last chmod: a member of G, who may write it
#   neither before nor after, must not get it open for writing.
# - Its recorded owner, who may write it, opens it while its capability
#   is written: restore must not leave it capable, held open for writing.
# opener ID GID FILE: in the background, ID:GID opens FILE for writing
# (waiting for restore's lease to end, once let), and says so in $T/wh.
opener() {
	rm -f "$T/wh/opened"
	setpriv --reuid="$1" --regid="$2" --clear-groups sh -c '
		i=0
		while [ $i -lt 200 ]; do
			if { command exec 3<>"$1"; } 2>/dev/null; then
				echo opened >"$2"
				exec sleep 10
			fi
			sleep 0.02
			i=$((i + 1))
		done' - "$3" "$T/wh/opened" &
	opener_pid=$!
	at_exit "kill $opener_pid 2>/dev/null"
}
# held_restore SYSCALLS ID GID ARG...: capmanifest ARG..., each of
# SYSCALLS held for 0.5 s as it enters; once the first holds it, ID:GID
# starts opening the tool for writing. Its status in $rc, its output in
# $T/out and $T/err.
held_restore() {
	calls=$1 id=$2 gid=$3
	shift 3
	strace_hold 500000 "$calls" "$cm" "$@" && pass ||
		fail "window: restore never reached $calls (test setup)"
	opener "$id" "$gid" "$wt"
	wait $tracer
	rc=$?
	sleep 0.1	# an open that waited for the lease returns now
}
if command -v strace >/dev/null 2>&1; then
	G=47020 W=47023
	mkdir -p "$T/wh" "$T/win/usr/bin" && chmod 777 "$T/wh" && chmod -R 755 "$T/win"
	wt=$T/win/usr/bin/tool
	cp /bin/true "$wt" && chown 0:$G "$wt" && chmod 0755 "$wt" &&
		"$setcap" cap_net_raw=ep "$wt" >/dev/null && "$cm" record "$T/win" >"$T/mwin" &&
		set_acl "$wt" "$(acl 1 7 - 2 7 0 4 5 - 16 7 - 32 5 -)" && pass || fail "window: setup"
	[ "$(stat -c %a "$wt")" = 775 ] && pass || fail "window: setup: mode $(stat -c %a "$wt"), want 775"
	held_restore chmod,fchmodat $W $G restore --fix-owner "$T/mwin" "$T/win"
	[ $rc -eq 0 ] && pass || fail "window: restore exited $rc: $(cat "$T/err")"
	if [ -e "$T/wh/opened" ]; then
		fail "window: uid $W of group $G, who may not write the tool before or after, opened it for writing while restore took its ACL away (now: $(state "$wt"))"
	else
		pass
	fi
	[ "$(state "$wt")" = "0:$G 755  cap_net_raw=ep" ] && pass || fail "window: after the restore: $(state "$wt")"
	kill $opener_pid 2>/dev/null; wait $opener_pid 2>/dev/null

	chown $A:$G "$wt" && "$setcap" cap_net_raw=ep "$wt" >/dev/null &&
		"$cm" record "$T/win" >"$T/mown" && "$setcap" -r "$wt" >/dev/null && pass ||
		fail "window: setup (owner)"
	held_restore fsetxattr,setxattr $A $G restore "$T/mown" "$T/win"
	[ -e "$T/wh/opened" ] && pass || fail "window: the owner could not open the tool for writing (test setup)"
	[ $rc -eq 1 ] && pass || fail "window: restore of a tool opened for writing meanwhile: exit $rc, want 1"
	[ "$(cat "$T/err")" = "capmanifest: ./usr/bin/tool: opened for writing while it was restored: its capabilities are taken off again" ] &&
		pass || fail "window: stderr: $(cat "$T/err")"
	[ -z "$(caps_of "$wt")" ] && pass || fail "window: capable while its owner holds it open for writing: $(state "$wt")"
	kill $opener_pid 2>/dev/null; wait $opener_pid 2>/dev/null
else
	not_checked "no strace: the moments between restore's changes not checked"
fi
finish
