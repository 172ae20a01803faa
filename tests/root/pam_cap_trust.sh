#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# pam_cap.so reads no capability.conf that anyone but root could have
# written: whoever may write it may write "^cap_sys_admin bob". libcap
# (2.69+) refuses only a world-writable file, and so did we; a file owned
# by bob, one his group or an ACL entry lets him write, or one in a
# directory he may change (he replaces it, or links it to a root-owned file
# whose lines he can influence) granted what he wrote. Each such file now
# ends the decision (nothing granted, no default=; authenticate
# AUTHINFO_UNAVAIL, setcred CRED_ERR) with the reason logged; Debian's
# 2.66 module, which checks nothing, is shown granting. What root alone
# may write is read as before: a mask that takes the write away, a sticky
# directory on the way to root's directory, root's own symbolic links;
# not what group root may write (processes that are not root hold gid
# 0), nor a file or link of root's in a sticky directory others may write
# (anyone who may write it may have moved one there under a free name).
# Every directory on the way is judged, those holding a symbolic link on
# it too. In a user namespace the overflow uid counts as root's only when
# the namespace does not map it (checked with capcheck, which judges as
# pam_cap does).
# Root: the files get owners other than the runner (bob is uid 4002).
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
[ "$(id -u)" -eq 0 ] || skip "needs root (files owned by other users)"
command -v setfattr >/dev/null || skip "setfattr (attr) is not installed"
init
. "$TESTS_DIR/tools/pam_world.sh"
require_pam_driver
PWDEBUG=2
ok='auth=SUCCESS setcred=SUCCESS'
k0='keepcaps=0'
stop='auth=AUTHINFO_UNAVAIL setcred=CRED_ERR iab= keepcaps=0'
bob=4002 devs=4200
# file_msg WHO, dir_msg DIR WHO: the log line's reason, naming the writer.
file_msg() { echo "not root's alone: $1; nothing granted"; }
dir_msg() {
	echo "not root's alone: directory $1 on its way: $2; another file could be put in its place; nothing granted"
}
# conf NAME [DIR]: a fresh root-owned 0644 "^cap_sys_admin bob" file.
conf() {
	f=${2:-$T}/$1
	printf '^cap_sys_admin bob\n' >"$f"
	chown 0:0 "$f"
	chmod 0644 "$f"
	echo "$f"
}
acl() {	# FILE HEX: a POSIX access ACL (no setfacl needed)
	setfattr -n system.posix_acl_access -v "$2" "$1"
}
# refused FILE: ours stops and says why (MSG), Debian's grants.
refused() {
	t ours "@$1" "config=$1 default=cap_kill" bob 'auth setcred' "$stop"
	logged "SYSLOG(3): $1: $2"
	deb "$ok iab=^21 $k0"
}
read_ok() {
	t both "@$1" "config=$1" bob 'auth setcred' "$ok iab=^21 $k0"
}

# --- The file itself ---
f=$(conf owner)
read_ok "$f"
chown "$bob" "$f"
refused "$f" "$(file_msg "uid 4002 owns it, and may make it say anything")"
f=$(conf group)
chgrp "$devs" "$f"; chmod 0664 "$f"
refused "$f" "$(file_msg "its group 4200 may write it")"
chmod 0644 "$f"
read_ok "$f"			# devs' group, not writable
f=$(conf rootgroup)
chmod 0664 "$f"			# group 0 has members that are not root
refused "$f" "$(file_msg "its group 0 may write it")"

if acl "$T/owner" 0x0200000001000600ffffffff04000400ffffffff20000400ffffffff 2>/dev/null; then
	# user::rw- user:bob:rw- group::r-- mask::rw- other::r--
	f=$(conf acluser)
	acl "$f" 0x0200000001000600ffffffff02000600a20f000004000400ffffffff10000600ffffffff20000400ffffffff
	refused "$f" "$(file_msg "an ACL entry lets uid 4002 write it")"
	# the same with mask::r--: bob's entry cannot write
	acl "$f" 0x0200000001000600ffffffff02000600a20f000004000400ffffffff10000400ffffffff20000400ffffffff
	read_ok "$f"
	# group:devs:rw- mask::rw-
	f=$(conf aclgroup)
	acl "$f" 0x0200000001000600ffffffff04000400ffffffff080006006810000010000600ffffffff20000400ffffffff
	refused "$f" "$(file_msg "an ACL entry lets group 4200 write it")"
else
	not_checked "no POSIX ACLs on $T's filesystem; ACL cases not run"
fi

# --- The directories above it ---
mkdir "$T/open"; chmod 0777 "$T/open"
refused "$(conf c "$T/open")" "$(dir_msg "$T/open" "everybody may write it")"
mkdir "$T/sticky"; chmod 1777 "$T/sticky"
# bob may not replace root's file there, but may have moved it in from
# his own directory, under a name that was free
free_msg() {
	echo "not root's alone: directory $T/sticky holds $1: everybody may write it, and the sticky bit does not stop them putting $2 there under a free name; nothing granted"
}
refused "$(conf c "$T/sticky")" "$(free_msg it "a file")"
mkdir "$T/sticky/d"
read_ok "$(conf c "$T/sticky/d")"	# root's directory in it: nobody moves that
mkdir "$T/bobs"; chown "$bob" "$T/bobs"; chmod 0755 "$T/bobs"
refused "$(conf c "$T/bobs")" "$(dir_msg "$T/bobs" "uid 4002 owns it")"
mkdir -p "$T/deep/a/b"; chmod 0777 "$T/deep"
refused "$(conf c "$T/deep/a/b")" "$(dir_msg "$T/deep" "everybody may write it")"	# any level up
mkdir "$T/grp"; chgrp "$devs" "$T/grp"; chmod 0775 "$T/grp"
refused "$(conf c "$T/grp")" "$(dir_msg "$T/grp" "its group 4200 may write it")"
# The null device is empty, so default= decides; a name of it that bob
# could have put in place of the file's lines (his link in his directory)
# skips them all. Ours stops; Debian's applies default=. Root's own name
# of it, in root's directory, is still read as libcap reads it.
ln -s /dev/null "$T/bobs/null"
t ours "@$T/bobs/null" "config=$T/bobs/null default=^cap_kill" bob 'auth setcred' "$stop"
logged "SYSLOG(3): $T/bobs/null: $(dir_msg "$T/bobs" "uid 4002 owns it")"
deb "auth=IGNORE setcred=SUCCESS iab=^5 $k0"
ln -s /dev/null "$T/rootnull"
t both "@$T/rootnull" "config=$T/rootnull default=^cap_kill" bob 'auth setcred' "auth=IGNORE setcred=SUCCESS iab=^5 $k0"
# A root-owned link in a root-owned directory, to a root-owned file in
# bob's directory: judged where it leads.
mkdir "$T/safe"
ln -s "$T/bobs/c" "$T/safe/link"
refused "$T/safe/link" "$(dir_msg "$T/bobs" "uid 4002 owns it")"
ln -s "$T/sticky/d/c" "$T/safe/link2"
read_ok "$T/safe/link2"
ln -s "$T/sticky/c" "$T/safe/link3"
refused "$T/safe/link3" "$(free_msg it "a file")"
# Every directory the way passes is judged, those holding a link on it
# too: here a root-owned link in bob's directory, between two root-owned
# ones. bob may point it at any file (the old check resolved the path
# first, judged only where it ended, and read this one).
ln -s "$T/sticky/d/c" "$T/bobs/hop"
ln -s "$T/bobs/hop" "$T/safe/via"
refused "$T/safe/via" "$(dir_msg "$T/bobs" "uid 4002 owns it")"
# bob's own link in the sticky directory: he may repoint it whenever.
ln -s "$T/safe/link2" "$T/sticky/bl"
chown -h "$bob" "$T/sticky/bl"
refused "$T/sticky/bl" "not root's alone: symbolic link $T/sticky/bl on its way: uid 4002 owns it, and may point it at another file; nothing granted"
# root's own link in the sticky directory: as well moved in.
ln -s "$T/safe/link2" "$T/sticky/rl"
refused "$T/sticky/rl" "$(free_msg "a symbolic link on its way" "a link")"

# A directory everybody may write by its mode, on a read-only mount that
# no other mount lets anyone write through: a Kubernetes ConfigMap (its
# volume's root is 0777, the file reached through "..data" links). Made
# per case in a mount namespace of its own (configmap.sh), where the
# volume's writable mount is then unmounted, or kept (refused: a write
# through it reaches the directory); and a pid namespace, whose pid 1 the
# module's process is, with its /proc: under valgrind, which knows no
# statmount(2), the module reads mountinfo, which it takes as the whole
# only there. tests/root/pam_cap_layouts.sh shows the attacks with real
# logins.
cat >"$T/configmap.sh" <<'EOF'
# configmap.sh VOL DIR drop|keep COMMAND...
set -e
mount -t tmpfs -o mode=0777 configmap "$1"
mkdir -m 0755 "$1/..2026_12_05"
printf '^cap_sys_admin bob\n' >"$1/..2026_12_05/capability.conf"
chmod 0644 "$1/..2026_12_05/capability.conf"
ln -s ..2026_12_05 "$1/..data"
ln -s ..data/capability.conf "$1/capability.conf"
mount --bind "$1" "$2"
mount -o remount,bind,ro "$2"
[ "$3" = keep ] || umount "$1"
shift 3
exec "$@"
EOF
mkdir "$T/cmvol" "$T/cm"
NS="unshare -m -p -f --mount-proc --propagation private sh $T/configmap.sh $T/cmvol $T/cm drop"
read_ok "$T/cm/capability.conf"
NS="unshare -m -p -f --mount-proc --propagation private sh $T/configmap.sh $T/cmvol $T/cm keep"
refused "$T/cm/capability.conf" "$(dir_msg "$T/cm" "everybody may write it" |
	sed "s|place; nothing|place; its mount is read-only, but the writable mount on $T/cmvol reaches it too; nothing|")"
NS=

# --- Without /proc: the file looked at is reopened by its name ---
# capconf_open() judges the file before opening it for reading, then
# reopens it through /proc/self/fd; without /proc, by its name again,
# and only if that is still the file judged. capcheck reads as pam_cap.
f=$(conf noproc "$T/safe")
# shellcheck disable=SC2016 # expanded by the inner shell
if unshare -m --propagation private sh -c 'umount -l /proc && [ ! -e /proc/self ] && exec "$0" --config "$1"' \
	"$BUILD/progs/capcheck" "$f" >"$T/noproc.out" 2>&1; [ -s "$T/noproc.out" ]; then
	# Its lines are read: line 1 gets a warning (whoever bob is here).
	if grep -qF "$f:1:" "$T/noproc.out" && ! grep -q "not root's alone" "$T/noproc.out"; then
		pass
	else
		fail "without /proc, capcheck did not read $f: $(cat "$T/noproc.out")"
	fi
else
	not_checked "no private mount namespace without /proc here; that case not run"
fi

# --- A user namespace other than the first ---
# Files of owners it does not map show the overflow uid (65534): root's,
# since what is granted there stays there. A namespace that maps 65534
# (a container's nobody) is another matter: that is a user of its own,
# who may rewrite the file. capcheck judges as pam_cap does.
# in_userns MAP CMD...: CMD in a new user namespace with uid and gid maps
# MAP ("inner outer count" lines, ';' between them).
in_userns() {
	map=$1
	shift
	rm -f "$T/nsgo"
	mkfifo "$T/nsgo"
	# shellcheck disable=SC2016 # expanded by the inner shell
	unshare -U sh -c 'read -r go <"$0"; exec "$@"' "$T/nsgo" "$@" &
	nspid=$!
	i=0
	while [ "$(readlink "/proc/$nspid/ns/user" 2>/dev/null)" = "$(readlink /proc/self/ns/user)" ]; do
		i=$((i + 1)); [ $i -lt 200 ] || break; sleep 0.05
	done
	# No namespace made (unshare -U is refused in a chroot): no one would
	# ever read the fifo, so nothing is written to it.
	if ! kill -0 "$nspid" 2>/dev/null ||
		[ "$(readlink "/proc/$nspid/ns/user" 2>/dev/null)" = "$(readlink /proc/self/ns/user)" ]; then
		kill "$nspid" 2>/dev/null
		wait "$nspid"
		return 1
	fi
	printf '%s\n' "$map" | tr ';' '\n' >"/proc/$nspid/uid_map"
	printf '%s\n' "$map" | tr ';' '\n' >"/proc/$nspid/gid_map"
	echo go >"$T/nsgo"
	wait "$nspid"
}
CC=$BUILD/progs/capcheck
f=$(conf nsbob "$T/safe")
chown "$bob:$bob" "$f"
if unshare -U true 2>/dev/null && in_userns '0 0 1' true 2>/dev/null; then
	# Its lines are read: line 1 gets its warning (no user bob here).
	in_userns '0 0 1' "$CC" --config "$f" >"$T/ns1.out" 2>&1
	if grep -q "not root's alone" "$T/ns1.out" || ! grep -qF "$f:1:" "$T/ns1.out"; then
		fail "userns, 4002 unmapped: capcheck did not read it: $(cat "$T/ns1.out")"
	else
		pass
	fi
	in_userns '0 0 1;65534 4002 1' "$CC" --config "$f" >"$T/ns2.out" 2>&1
	if grep -qxF "capcheck: $f: not root's alone: uid 65534 owns it, and may make it say anything: pam_cap grants nothing from it, not even default=" "$T/ns2.out" &&
		! grep -qF "$f:1:" "$T/ns2.out"; then
		pass
	else
		fail "userns mapping 65534 to bob: capcheck reads his file: $(cat "$T/ns2.out")"
	fi
	# A group it does not map shows the overflow gid, and is no root's:
	# processes inside keep such groups (setgroups is denied there) and
	# write with them. A first version trusted it and read the file.
	f=$(conf nsdevs "$T/safe")
	chgrp "$devs" "$f"; chmod 0664 "$f"
	in_userns '0 0 1' "$CC" --config "$f" >"$T/ns3.out" 2>&1
	if grep -qxF "capcheck: $f: not root's alone: its group 65534 may write it: pam_cap grants nothing from it, not even default=" "$T/ns3.out"; then
		pass
	else
		fail "userns, group 4200 unmapped: capcheck trusts what it may write: $(cat "$T/ns3.out")"
	fi
else
	not_checked "no user namespaces here; their cases not run"
fi

echo "$cases cases${DEB:+, Debian's module shown granting where ours refuses}"
finish
