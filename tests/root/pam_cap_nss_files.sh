#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# pam_cap.so's user and group lookups through glibc's own files backend,
# where the bug lived: glibc answers ERANGE for every group after one whose
# record does not fit the buffer, so an earlier version's 1 MiB cap hid
# the "deny" group behind a big one and "^cap_sys_admin *" decided. Then
# lookup errors (an /etc/group or /etc/passwd that cannot be read) must stop
# the decision, never read as "not a member" or "no such user".
#
# The suite re-runs itself in a private mount namespace (unshare -m) and
# bind-mounts its own passwd, group and nsswitch.conf ("files" only) over
# /etc's there; nscd's socket directory is hidden the same way. The host's
# /etc is never written, and the mounts vanish with the namespace.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
if [ -z "${PAM_NSS_FILES_NS:-}" ]; then
	command -v unshare >/dev/null || skip "unshare (util-linux) is not installed"
	unshare -m true 2>/dev/null || skip "cannot create a mount namespace"
	PAM_NSS_FILES_NS=1 exec unshare -m --propagation private sh "$0" "$@"
fi
init
. "$TESTS_DIR/tools/pam_world.sh"
require_pam_driver
REAL_NSS=1
PWDEBUG=2

# A private /etc view: only this process tree sees it.
cat >"$T/passwd" <<'PW'
root:x:0:0:root:/root:/bin/sh
alice:x:4001:4001:Alice:/tmp:/bin/sh
mal:x:4500:4500:Mal:/tmp:/bin/sh
PW
{
	echo 'root:x:0:'
	echo 'alice:x:4001:'
	# A group record over 1 MiB on its own, before the one that matters.
	awk 'BEGIN { printf "big:x:4600:"
		for (i = 1; i <= 70000; i++) printf "%sbig_group_member_%05d", (i > 1 ? "," : ""), i
		print "" }'
	echo 'mal:x:4500:'
	echo 'deny:x:4700:mal'
} >"$T/group"
printf 'passwd: files\ngroup: files\nshadow: files\n' >"$T/nsswitch.conf"
[ "$(grep '^big:' "$T/group" | wc -c)" -gt 1048576 ] || { fail "the big group is too small to test"; finish; }
for f in passwd group nsswitch.conf; do
	mount --bind "$T/$f" "/etc/$f" || { fail "cannot bind-mount /etc/$f in the namespace"; finish; }
done
for d in /run/nscd /var/run/nscd; do
	[ -d "$d" ] && { mount -t tmpfs none "$d" || { fail "cannot hide $d"; finish; }; }
done
# The files backend now reads our files, and finds deny past the big group.
[ "$(getent group deny)" = 'deny:x:4700:mal' ] || { fail "getent does not see the private /etc/group"; finish; }
[ "$(id -Gn mal)" = 'mal deny' ] || { fail "mal's groups are not 'mal deny': $(id -Gn mal)"; finish; }

ok='auth=SUCCESS setcred=SUCCESS'
stop='auth=AUTHINFO_UNAVAIL setcred=CRED_ERR iab= keepcaps=0'
k0='keepcaps=0'

# --- A 70,000-member group listed before deny ---
# mal is in deny: "none" clears the I and A it starts with.
t both 'none @deny\n^cap_sys_admin *\n' '' mal 'auth setcred' "$ok iab= $k0" '-I 4000000000 -M 4000000000'
t both '!cap_sys_admin @deny\n^cap_sys_admin *\n' '' mal 'auth setcred' "$ok iab=!21 $k0"
t both 'none @deny\n^cap_sys_admin *\n' '' alice 'auth setcred' "$ok iab=^21 $k0"

# --- /etc/group cannot be read (a write-only procfs file: open gives
# EACCES even to root; nothing writes to it) ---
mount --bind /proc/sys/vm/drop_caches /etc/group || { fail "cannot make /etc/group unreadable"; finish; }
if getent group mal >/dev/null 2>&1; then echo "/etc/group is still readable"; exit 1; fi
t ours 'none @deny\n^cap_sys_admin *\n' '' mal 'auth setcred' "$stop"
logged "SYSLOG(3): $T/c$cases:1: cannot tell whether 'mal' is in '@deny': group 'deny' cannot be looked up: Permission denied; stopped here, nothing granted"
deb "$ok iab=^21 $k0"	# the failed lookup reads as "not in deny"
t ours 'none @deny\n' 'default=^cap_sys_admin' mal 'auth setcred' "$stop"
# Lines that need no group still decide.
t ours '^cap_perfmon mal\nnone @deny\n' '' mal 'auth setcred' "$ok iab=^38 $k0"
t ours 'cap_perfmon alice\n' '' mal 'auth setcred' "auth=IGNORE setcred=IGNORE iab= $k0"
umount /etc/group

# --- /etc/passwd cannot be read: no "unknown user", whose lines are
# skipped and who gets default= ---
mount --bind /proc/sys/vm/drop_caches /etc/passwd || { fail "cannot make /etc/passwd unreadable"; finish; }
t ours '!cap_sys_admin *\n' 'default=^cap_sys_admin' mal 'auth setcred' "$stop"
logged "SYSLOG(3): $T/c$cases: cannot look up user 'mal': Permission denied; nothing granted"
deb "auth=IGNORE setcred=SUCCESS iab=^21 $k0"	# unknown user: default= instead of !21
umount /etc/passwd
# A user who really does not exist still gets default=, as in libcap.
t both '!cap_sys_admin *\n' 'default=cap_bpf' nosuch 'auth setcred' "auth=IGNORE setcred=SUCCESS iab=39 $k0"

echo "$cases cases through glibc's files backend${DEB:+, compared with $DEB}"
finish
