#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# restore --fix-owner must not launder a user's file into a set-user-ID
# root, capable program. The finding, reproduced: app/tool is recorded
# root 4755 cap_net_raw=ep; nobody, who may write app, puts her copy of
# id there; restore --fix-owner chowned it to root, made it 4755 and
# capable, and it printed euid=0(root) when she ran it. Each way in is
# refused, naming the file and the reason, and changes nothing (owner,
# mode and security.capability compared before and after); then nobody
# runs the file and gets neither euid 0 nor a capability:
#   1. her own file in her directory (the exact reproduction);
#   2. a file of hers in a directory of root's;
#   3. a root-owned file of other content she renamed over the recorded
#      one, in a directory an ACL entry lets her write (and an ACL that
#      grants nobody write does not stop a fix: the ACL is read, not the
#      mask in the mode bits alone);
#   4. other content, root-owned, in a directory of root's alone, without
#      --accept-new-content; with it, below a sticky /tmp (not accepted:
#      everyone may add names there);
#   5. the recorded content but a process holding it open for writing, or
#      mapped shared and writable with its descriptor closed (it could
#      change it after the check): refused until it lets go;
#   6. emptied by open(O_RDONLY | O_TRUNC), which does not break a read
#      lease, between the digest and the capability: taken off again;
#   7. a recorded mode or ACL that lets her write the file: --fix-owner
#      made it 4775 and capable while her group could write it, then a
#      store through a shared mapping kept both; refused as a file she
#      may write now is.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
# Users by name (nobody) from the base accounts only.
private_etc "$@"
cm=$BUILD/progs/capmanifest
[ -x "$cm" ] || { fail "capmanifest not built"; finish; }
# The replacement programs: nobody's id (the finding's), and a copy of cat
# that, run as "FILE /proc/self/status", shows what exec gave it.
probe=$(command -v cat) || skip "no cat"
command -v setfattr >/dev/null 2>&1 && command -v getfattr >/dev/null 2>&1 ||
	skip "setfattr/getfattr (attr) is not installed"
id nobody >/dev/null 2>&1 || skip "no user nobody"
[ -x /usr/bin/id ] || skip "no /usr/bin/id"
chmod 755 "$T"
nobody_uid=$(id -u nobody) nobody_gid=$(id -g nobody)
# Owner, group, mode and the capability xattr: all restore could change.
state() { printf '%s %s' "$(stat -c '%u:%g %04a' "$1")" "$(xattr_hex "$1")"; }
# What the file gives nobody: its effective uid and capabilities, as the
# kernel reports them to the copy of cat itself.
no_gain() {	# CASE FILE
	as_nobody "$2" /proc/self/status >"$T/status" 2>&1
	euid=$(sed -n 's/^Uid:[[:space:]]*[0-9]*[[:space:]]*\([0-9]*\).*/\1/p' "$T/status")
	eff=$(sed -n 's/^CapEff:[[:space:]]*//p' "$T/status")
	echo "$1: nobody runs it: euid $euid, CapEff $eff"
	[ "$euid" = "$nobody_uid" ] && [ "$eff" = 0000000000000000 ] && pass ||
		fail "$1: nobody running it got euid '$euid', CapEff '$eff'"
}
# refused CASE FILE STATE WANT-ERR CMD...: exit 1, that one line on
# stderr, nothing on stdout, the file as it was.
refused() {
	lc=$1 lf=$2 lstate=$3 lerr=$4; shift 4
	run run_ours "$@"
	expect_rc 1 "$lc: exit" || cat "$T/out" "$T/err"
	expect_out "" "$lc"
	expect_err "$lerr
" "$lc"
	[ "$(state "$lf")" = "$lstate" ] && pass ||
		fail "$lc: the file changed: $lstate -> $(state "$lf")"
}
# recorded TREE: a root 4755 cap_net_raw=ep copy of /bin/true at
# ./app/tool, recorded; prints the manifest's path.
recorded() {
	cp /bin/true "$1/app/tool" && chmod 4755 "$1/app/tool" &&
		setcap cap_net_raw=ep "$1/app/tool" || { fail "setup in $1"; finish; }
	run_ours "$cm" record "$1" >"$1.m" && pass || fail "record $1 exited $?"
	echo "$1.m"
}

# 1. The finding: nobody's directory, nobody's copy of id.
t=$T/t1; mkdir -p "$t/app" && chown nobody "$t/app"
m=$(recorded "$t")
as_nobody sh -c 'rm -f "$1" && cp /usr/bin/id "$1"' - "$t/app/tool" && pass || fail "1: nobody could not replace it"
before=$(state "$t/app/tool")
refused "1: nobody's id in her directory" "$t/app/tool" "$before" \
	"capmanifest: ./app/tool: owned by uid $nobody_uid, neither root nor the recorded owner (0): not restored" \
	"$cm" restore --fix-owner "$m" "$t"
out=$(as_nobody "$t/app/tool")
echo "1: nobody runs it: $out"
case $out in
*euid=*) fail "1: nobody's id ran with another effective uid: $out" ;;
*) pass ;;
esac
[ -z "$(xattr_hex "$t/app/tool")" ] && pass || fail "1: it has capabilities"
# The same with a copy of cat, for its capabilities as well.
as_nobody sh -c 'rm -f "$1" && cp "$2" "$1"' - "$t/app/tool" "$probe" && pass || fail "1: nobody could not replace it"
before=$(state "$t/app/tool")
refused "1: nobody's cat in her directory" "$t/app/tool" "$before" \
	"capmanifest: ./app/tool: owned by uid $nobody_uid, neither root nor the recorded owner (0): not restored" \
	"$cm" restore --fix-owner "$m" "$t"
no_gain 1 "$t/app/tool"

# 2. A file of nobody's in a directory of root's (unpacked with its
# owner kept, say): never re-owned, whatever its content.
t=$T/t2; mkdir -p "$t/app"
m=$(recorded "$t")
cp "$probe" "$t/app/tool.new" && chown nobody "$t/app/tool.new" && chmod 0755 "$t/app/tool.new" &&
	mv -f "$t/app/tool.new" "$t/app/tool" && pass || fail "2: setup"
before=$(state "$t/app/tool")
refused "2: nobody's file in root's directory" "$t/app/tool" "$before" \
	"capmanifest: ./app/tool: owned by uid $nobody_uid, neither root nor the recorded owner (0): not restored" \
	"$cm" restore --fix-owner "$m" "$t"
no_gain 2 "$t/app/tool"

# 3. An ACL entry (u:nobody:rwx; the mask rwx shows as mode 0775) lets
# nobody rename a root-owned program of other content over the tool.
t=$T/t3; mkdir -p "$t/app"
m=$(recorded "$t")
cp "$probe" "$t/app/spare" && chmod 0755 "$t/app/spare" && pass || fail "3: setup"
setfattr -n system.posix_acl_access -v "$(acl_user_hex "$nobody_uid" 7)" "$t/app" && pass || fail "3: cannot set the ACL"
as_nobody mv -f "$t/app/spare" "$t/app/tool" && pass || fail "3: the ACL did not let nobody rename (test setup)"
before=$(state "$t/app/tool")
refused "3: a directory nobody writes through an ACL entry" "$t/app/tool" "$before" \
	"capmanifest: ./app/tool: directory ./app: uid $nobody_uid may write it (ACL entry): not restored (--fix-owner changes no file in a directory that others than root may write)" \
	"$cm" restore --fix-owner "$m" "$t"
no_gain 3 "$t/app/tool"
# The same mode 0775, but the ACL grants nobody r-x only: root's alone,
# and the recorded content fixed as --fix-owner should.
cp /bin/true "$t/app/tool" && chmod 0755 "$t/app/tool" &&
	setfattr -n system.posix_acl_access -v "$(acl_user_hex "$nobody_uid" 5)" "$t/app" && pass || fail "3: setup"
[ "$(stat -c %a "$t/app")" = 775 ] && pass || fail "3: the mode is $(stat -c %a "$t/app"), want 775"
run run_ours "$cm" restore --fix-owner "$m" "$t"
expect_rc 0 "3: --fix-owner below an ACL that grants no write" || cat "$T/err"
expect_out "fixed: ./app/tool mode=4755
set: ./app/tool cap_net_raw=ep
" "3: --fix-owner below an ACL that grants no write"

# 4. Other content at the path, root-owned, in root's directories: an
# upgrade, or root's mistake; restore cannot tell which, so it refuses
# unless told, and even told, not below /tmp.
t=$T/t4; mkdir -p "$t/app"
m=$(recorded "$t")
old=$(sha256sum /bin/true | cut -d' ' -f1) new=$(sha256sum "$probe" | cut -d' ' -f1)
cp "$probe" "$t/app/tool.new" && chmod 0755 "$t/app/tool.new" && mv -f "$t/app/tool.new" "$t/app/tool" && pass ||
	fail "4: setup"
before=$(state "$t/app/tool")
tmp=$(dirname "$T")
if [ "$(stat -c %a "$tmp")" = 1777 ]; then
	# The refusal names no option: --accept-new-content would not take
	# it either, and says why.
	refused "4: other content, root's" "$t/app/tool" "$before" \
		"capmanifest: ./app/tool: content differs: has sha256=$new, manifest says sha256=$old: not restored (nor with --accept-new-content: directory $tmp: everyone may write it (mode 1777, sticky, which still lets them add names))" \
		"$cm" restore --fix-owner "$m" "$t"
	no_gain 4 "$t/app/tool"
	refused "4: other content, --accept-new-content below $tmp" "$t/app/tool" "$before" \
		"capmanifest: ./app/tool: content differs: has sha256=$new, manifest says sha256=$old: not accepted: directory $tmp: everyone may write it (mode 1777, sticky, which still lets them add names)" \
		"$cm" restore --fix-owner --accept-new-content "$m" "$t"
	no_gain "4 (--accept-new-content)" "$t/app/tool"
else
	not_checked "$tmp is not mode 1777: --accept-new-content below a sticky directory not checked"
fi

# 5. The recorded content, but nobody holds it open for writing: she
# could rewrite it once it is capable (a write through a shared mapping
# keeps capabilities), so restore refuses while she does.
t=$T/t5; mkdir -p "$t/app"
cp /bin/true "$t/app/tool" && chown nobody "$t/app/tool" && chmod 0755 "$t/app/tool" &&
	setcap cap_net_raw=ep "$t/app/tool" && run_ours "$cm" record "$t" >"$t.m" &&
	setcap -r "$t/app/tool" && pass || fail "5: setup"
mkdir "$T/h" && chown nobody "$T/h"
as_nobody_bg sh -c 'exec 3<>"$1"; echo open >"$2"; exec sleep 60' - "$t/app/tool" "$T/h/holding"
holder=$nobody_pid
at_exit "kill $holder 2>/dev/null"
i=0
while [ ! -s "$T/h/holding" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
[ -s "$T/h/holding" ] && pass || fail "5: nobody did not open it (test setup)"
before=$(state "$t/app/tool")
refused "5: held open for writing" "$t/app/tool" "$before" \
	"capmanifest: ./app/tool: open for writing by a process, so its content could change after it is checked: not restored" \
	"$cm" restore "$t.m" "$t"
kill $holder; wait $holder 2>/dev/null
# A shared writable mapping, its descriptor closed: stores through it
# change the content and keep capabilities, so it counts as a writer.
# (The system's python3, which nobody may run; not a user's shim.)
py=/usr/bin/python3
if [ -x "$py" ] && as_nobody "$py" -c pass 2>/dev/null; then
	rm -f "$T/h/holding"
	as_nobody_bg "$py" -c '
import mmap, os, sys, time
fd = os.open(sys.argv[1], os.O_RDWR)
m = mmap.mmap(fd, 0, mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE)
os.close(fd)
open(sys.argv[2], "w").write("mapped")
time.sleep(60)' "$t/app/tool" "$T/h/holding"
	holder=$nobody_pid
	at_exit "kill $holder 2>/dev/null"
	i=0
	while [ ! -s "$T/h/holding" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
	[ -s "$T/h/holding" ] && pass || fail "5: nobody did not map it (test setup)"
	refused "5: mapped shared and writable" "$t/app/tool" "$before" \
		"capmanifest: ./app/tool: open for writing by a process, so its content could change after it is checked: not restored" \
		"$cm" restore "$t.m" "$t"
	kill $holder; wait $holder 2>/dev/null
else
	not_checked "no $py that nobody may run: a shared writable mapping not checked"
fi
run run_ours "$cm" restore "$t.m" "$t"
expect_rc 0 "5: once let go" || cat "$T/err"
expect_out "set: ./app/tool cap_net_raw=ep
" "5: once let go"

# 6. The one way to change the content without breaking the lease:
# open(O_RDONLY | O_TRUNC), which she may do to her file, empties it. An
# empty capable file runs nothing, and any write that fills it again
# takes the capability off, but restore said "set:" for content it had
# not hashed. strace holds restore for 3 s as it is about to write the
# capability; she empties the file meanwhile; restore takes the
# capability off again and says why.
truncopen=$BIN/truncopen
if command -v strace >/dev/null 2>&1 && [ -x "$truncopen" ]; then
	setcap -r "$t/app/tool"
	# Stopped for the delay, on its way into setxattr: the only stop.
	strace_hold 3000000 setxattr,lsetxattr,fsetxattr "$cm" restore "$t.m" "$t" && pass ||
		fail "6: restore never reached its capability write (test setup)"
	as_nobody "$truncopen" "$t/app/tool" && pass || fail "6: nobody could not empty it (test setup)"
	wait $tracer; rc=$?
	[ "$(stat -c %s "$t/app/tool")" = 0 ] && pass || fail "6: not emptied (test setup)"
	[ $rc -eq 1 ] && pass || fail "6: restore of a file emptied meanwhile: exit $rc, want 1"
	[ "$(cat "$T/err")" = "capmanifest: ./app/tool: truncated while it was restored: its capabilities are taken off again" ] &&
		pass || fail "6: stderr: $(cat "$T/err")"
	[ -z "$(xattr_hex "$t/app/tool")" ] && pass ||
		fail "6: the emptied file kept $(getcap "$t/app/tool" | sed 's/^[^ ]* //')"
else
	not_checked "no strace or truncopen: a file emptied during restore not checked"
fi

# 7. A manifest recording a mode that lets others write: root 4775 with
# nobody's group, or an ACL entry of hers under a mask rwx (mode 0775).
# The file is 0755 now, so nobody may write it yet; --fix-owner would
# make it set-user-ID root and capable while she may write it (a store
# through a shared mapping keeps both). Refused like a file she may
# write now: nothing of it changes.
t=$T/t7; mkdir -p "$t/app"
cp "$probe" "$t/app/tool" && chgrp "$nobody_gid" "$t/app/tool" && chmod 4775 "$t/app/tool" &&
	setcap cap_net_raw=ep "$t/app/tool" && run_ours "$cm" record "$t" >"$t.m" &&
	setcap -r "$t/app/tool" && chmod 0755 "$t/app/tool" && pass || fail "7: setup"
grep -q "^\./app/tool owner=0 group=$nobody_gid mode=4775 acl=no " "$t.m" && pass || fail "7: manifest: $(cat "$t.m")"
before=$(state "$t/app/tool")
refused "7: a recorded mode her group may write" "$t/app/tool" "$before" \
	"capmanifest: ./app/tool: as the manifest has it, group $nobody_gid may write it (mode 4775), so its content could change once it is restored: not restored" \
	"$cm" restore --fix-owner "$t.m" "$t"
no_gain 7 "$t/app/tool"
as_nobody sh -c 'exec 3>>"$1"' - "$t/app/tool" 2>/dev/null && fail "7: she may open it for writing" || pass
cp /bin/true "$t/app/tool" && chgrp 0 "$t/app/tool" && chmod 0775 "$t/app/tool" &&
	setfattr -n system.posix_acl_access -v "$(acl_user_hex "$nobody_uid" 7)" "$t/app/tool" &&
	setcap cap_net_raw=ep "$t/app/tool" && run_ours "$cm" record "$t" >"$t.m" &&
	setcap -r "$t/app/tool" && chmod 0755 "$t/app/tool" && pass || fail "7: setup (ACL)"
grep -q "^\./app/tool owner=0 group=0 mode=0775 acl=user::rwx,user:$nobody_uid:rwx,group::r-x,mask::rwx,other::r-x " "$t.m" && pass || fail "7: manifest: $(cat "$t.m")"
as_nobody sh -c ': >>"$1"' - "$t/app/tool" 2>/dev/null && fail "7: nobody may write it under mask r-x (test setup)" || pass
before=$(state "$t/app/tool")
refused "7: a recorded ACL entry of hers" "$t/app/tool" "$before" \
	"capmanifest: ./app/tool: as the manifest has it, uid $nobody_uid may write it (ACL entry), so its content could change once it is restored: not restored" \
	"$cm" restore --fix-owner "$t.m" "$t"
as_nobody sh -c 'exec 3>>"$1"' - "$t/app/tool" 2>/dev/null && fail "7: she may open it for writing (ACL)" || pass
finish "capmanifest restore: no laundering: nobody's files, writable directories (mode and ACL), other content and open writers refused"
