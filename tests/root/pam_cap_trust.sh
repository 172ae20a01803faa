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
# may write is read as before: root's group, a mask that takes the write
# away, a sticky directory, root's own symbolic links.
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
file_msg="a user other than root owns it or may write it (its group or ACL): they could grant themselves anything; nothing granted"
dir_msg="a directory above it may be changed by a user other than root, who could put another file in its place; nothing granted"
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
refused "$f" "$file_msg"
f=$(conf group)
chgrp "$devs" "$f"; chmod 0664 "$f"
refused "$f" "$file_msg"
chmod 0644 "$f"
read_ok "$f"			# devs' group, not writable
f=$(conf rootgroup)
chmod 0664 "$f"
read_ok "$f"			# root's group may write: root's

if acl "$T/owner" 0x0200000001000600ffffffff04000400ffffffff20000400ffffffff 2>/dev/null; then
	# user::rw- user:bob:rw- group::r-- mask::rw- other::r--
	f=$(conf acluser)
	acl "$f" 0x0200000001000600ffffffff02000600a20f000004000400ffffffff10000600ffffffff20000400ffffffff
	refused "$f" "$file_msg"
	# the same with mask::r--: bob's entry cannot write
	acl "$f" 0x0200000001000600ffffffff02000600a20f000004000400ffffffff10000400ffffffff20000400ffffffff
	read_ok "$f"
	# group:devs:rw- mask::rw-
	f=$(conf aclgroup)
	acl "$f" 0x0200000001000600ffffffff04000400ffffffff080006006810000010000600ffffffff20000400ffffffff
	refused "$f" "$file_msg"
else
	echo "note: no POSIX ACLs on $T's filesystem; ACL cases not run"
fi

# --- The directories above it ---
mkdir "$T/open"; chmod 0777 "$T/open"
refused "$(conf c "$T/open")" "$dir_msg"
mkdir "$T/sticky"; chmod 1777 "$T/sticky"
read_ok "$(conf c "$T/sticky")"		# bob may not replace root's file
mkdir "$T/bobs"; chown "$bob" "$T/bobs"; chmod 0755 "$T/bobs"
refused "$(conf c "$T/bobs")" "$dir_msg"
mkdir -p "$T/deep/a/b"; chmod 0777 "$T/deep"
refused "$(conf c "$T/deep/a/b")" "$dir_msg"	# any level up
mkdir "$T/grp"; chgrp "$devs" "$T/grp"; chmod 0775 "$T/grp"
refused "$(conf c "$T/grp")" "$dir_msg"
# A root-owned link in a root-owned directory, to a root-owned file in
# bob's directory: judged where it leads.
mkdir "$T/safe"
ln -s "$T/bobs/c" "$T/safe/link"
refused "$T/safe/link" "$dir_msg"
ln -s "$T/sticky/c" "$T/safe/link2"
read_ok "$T/safe/link2"

echo "$cases cases${DEB:+, Debian's module shown granting where ours refuses}"
finish
