#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# pam_cap.so reads no capability.conf that anyone but root may write.
# libcap (2.69+) refuses only a world-writable one (S_IWOTH), but bob, who
# owns the file, or is in a group that may write it, or has an ACL entry
# letting him write it (S_IWOTH stays clear), can give himself anything
# just as well: "^cap_sys_admin bob" at his next login. Such a file now
# ends the decision like a world-writable one (nothing granted, no
# default=; authenticate AUTHINFO_UNAVAIL, setcred CRED_ERR), logged with
# the writer; Debian's 2.66 module grants (shown for comparison).
# Root (the owner, a named entry for uid 0) and a mask that takes write
# away leave the file trusted; group 0 does not (processes that are not
# root hold it), nor do the ids of the process reading it (a set-user-ID
# su keeps the user's group).
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
[ "$(id -u)" -eq 0 ] || skip "needs root (chown to another user)"
init
. "$TESTS_DIR/tools/pam_world.sh"
require_pam_driver
PWDEBUG=2	# pam_wrapper prints pam_syslog() messages as "SYSLOG(prio): ..."
command -v setfattr >/dev/null || skip "setfattr (attr) is not installed"

ok='auth=SUCCESS setcred=SUCCESS'
k0='keepcaps=0'
stop='auth=AUTHINFO_UNAVAIL setcred=CRED_ERR iab= keepcaps=0'
granted="$ok iab=5 $k0"

# conf NAME MODE OWNER:GROUP [ACL-HEX]: $T/NAME granting cap_kill to alice.
conf() {
	f=$T/$1
	printf 'cap_kill alice\n' >"$f"
	chown "$3" "$f" && chmod "$2" "$f" || { fail "cannot set up $f"; finish; }
	if [ -n "${4:-}" ]; then
		setfattr -n system.posix_acl_access -v "$4" "$f" ||
			skip "no POSIX ACLs on $T's filesystem"
	fi
}
refused() {	# NAME WHY: refused, and the log names the writer
	t ours "@$T/$1" "config=$T/$1" alice 'auth setcred' "$stop"
	logged "SYSLOG(3): $T/$1: not root's alone: $2; nothing granted"
	deb "$granted"
	t ours "@$T/$1" "config=$T/$1 default=cap_bpf" alice 'auth setcred' "$stop"
}
trusted() {	# NAME
	t both "@$T/$1" "config=$T/$1" alice 'auth setcred' "$granted"
}

# ACLs (system.posix_acl_access: version 2, then tag, perm, id per entry,
# little-endian): the owner's rw-, group r--, other r-- entries.
a_obj=01000600ffffffff g_obj=04000400ffffffff o_r=20000400ffffffff

conf root 0644 0:0
trusted root

# The owner may always chmod it writable.
conf bob 0644 4002:4002
refused bob "uid 4002 owns it, and may make it say anything"

# Group-writable: by a group other than root's, refused.
conf devs 0664 0:4200
refused devs "its group 4200 may write it"
# Group root is no more root's alone than any other group: gid 0 is held
# by processes that are not root (a user the group file lists in root, a
# daemon run as uid:0, a container's arbitrary uid with gid 0), and such a
# process rewrites the file. A first version trusted group 0 and read it.
conf rootgroup 0664 0:0
if setpriv --reuid=4002 --regid=0 --clear-groups \
	sh -c "printf '^cap_sys_admin bob\\n' >>'$T/rootgroup'" 2>/dev/null &&
	grep -qxF '^cap_sys_admin bob' "$T/rootgroup"; then
	pass
else
	fail "uid 4002 with gid 0 could not write a 0664 root:root file"
fi
refused rootgroup "its group 0 may write it"
# The same through the ACL: group::rw- and a named group:root:rw-.
conf rootgroupacl 0644 0:0 "0x02000000${a_obj}04000600ffffffff10000600ffffffff${o_r}"
refused rootgroupacl "its group 0 may write it"
conf aclgroup0 0644 0:0 "0x02000000${a_obj}04000400ffffffff080006000000000010000600ffffffff${o_r}"
refused aclgroup0 "an ACL entry lets group 0 write it"
# A set-user-ID su runs pam_cap with root's uid but the caller's group as
# its effective one: that group is not root's, and its members may write
# the file all the same (a first version trusted the process's own ids
# and read it).
conf devs_su 0664 0:4200
NS="setpriv --regid=4200 --clear-groups"
refused devs_su "its group 4200 may write it"
NS=

# ACLs (system.posix_acl_access: version 2, then tag, perm, id per entry,
# little-endian). user::rw- user:bob:rw- group::r-- mask::rw- other::r--
# gives mode 0664: nothing in S_IWOTH.
conf aclbob 0644 0:0 "0x02000000${a_obj}02000600a20f0000${g_obj}10000600ffffffff${o_r}"
[ "$(stat -c %a "$T/aclbob")" = 664 ] && pass || fail "the ACL did not set the mask: $(stat -c %a "$T/aclbob")"
refused aclbob "an ACL entry lets uid 4002 write it"
# group:perf_users:rw-
conf aclgroup 0644 0:0 "0x02000000${a_obj}${g_obj}080006000410000010000600ffffffff${o_r}"
refused aclgroup "an ACL entry lets group 4100 write it"
# The mask r-- takes write from bob's entry: trusted.
conf aclmasked 0644 0:0 "0x02000000${a_obj}02000600a20f0000${g_obj}10000400ffffffff${o_r}"
trusted aclmasked
# user:root:rw- is root's own.
conf aclroot 0644 0:0 "0x02000000${a_obj}0200060000000000${g_obj}10000600ffffffff${o_r}"
trusted aclroot
# What chmod 0644 does to bob's ACL (the mask becomes r--): trusted again.
chmod 0644 "$T/aclbob"
trusted aclbob

echo "$cases cases${DEB:+, compared with $DEB}"
finish
