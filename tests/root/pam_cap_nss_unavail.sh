#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# pam_cap.so (capsh --user, perfdoctor --user) when a group database
# service fails: a
# service of our own, tools/nss/captest.c (libnss_captest.so.2), stands in
# for LDAP or sssd behind "group: files captest". glibc's getgrouplist()
# skips a service that answers UNAVAIL or TRYAGAIN and returns the other
# services' groups as if whole, so mal, in "ldapdeny" only through
# captest, looks like no member of it, and "^cap_sys_admin *" after
# "none @ldapdeny" granted. Now the group is looked up by name, the
# failure is seen, nothing is granted (no later line, no default=), and
# the reason is logged, also when some library of the process exports
# the name of nss_wrapper's switch. Nor does a group entry that names mal
# decide while mal's group list (what the login gets) lacks the group
# ("initgroups: files"). The suite re-runs itself in a private mount
# namespace and binds its own passwd, group and nsswitch.conf over /etc's
# there (the host's are never written); glibc finds the service through
# LD_LIBRARY_PATH (pamcase and capsh are not set-user-ID).
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
[ "$(id -u)" -eq 0 ] || skip "needs root (a private mount namespace)"
if [ -z "${PAM_NSS_UNAVAIL_NS:-}" ]; then
	command -v unshare >/dev/null || skip "unshare (util-linux) is not installed"
	unshare -m true 2>/dev/null || skip "cannot create a mount namespace"
	PAM_NSS_UNAVAIL_NS=1 exec unshare -m --propagation private sh "$0" "$@"
fi
init
. "$TESTS_DIR/tools/pam_world.sh"
require_pam_driver
REAL_NSS=1
PWDEBUG=2
[ -f "$BIN/libnss_captest.so.2" ] || { fail "libnss_captest.so.2 not built"; finish; }

cat >"$T/passwd" <<'PW'
root:x:0:0:root:/root:/bin/sh
alice:x:4001:4001:Alice:/tmp:/bin/sh
mal:x:4500:4500:Mal:/tmp:/bin/sh
PW
printf 'root:x:0:\nalice:x:4001:\nmal:x:4500:\n' >"$T/group"
printf 'passwd: files\ngroup: files captest\nshadow: files\n' >"$T/nsswitch.conf"
printf 'passwd: files\ngroup: captest [UNAVAIL=return TRYAGAIN=return] files\nshadow: files\n' >"$T/nsswitch.first"
for f in passwd group nsswitch.conf; do
	mount --bind "$T/$f" "/etc/$f" || { fail "cannot bind-mount /etc/$f in the namespace"; finish; }
done
for d in /run/nscd /var/run/nscd; do
	[ -d "$d" ] && { mount -t tmpfs none "$d" || { fail "cannot hide $d"; finish; }; }
done
LD_LIBRARY_PATH=$BIN${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export LD_LIBRARY_PATH CAPTEST_NSS
CAPTEST_NSS=member
[ "$(id -Gn mal)" = 'mal ldapdeny' ] || { fail "captest does not put mal in ldapdeny: $(id -Gn mal)"; finish; }
CAPTEST_NSS=unavail
# What glibc does: the failed service's groups are silently left out.
[ "$(id -Gn mal)" = 'mal' ] || { fail "with captest unavailable, id says: $(id -Gn mal)"; finish; }

ok='auth=SUCCESS setcred=SUCCESS'
stop='auth=AUTHINFO_UNAVAIL setcred=CRED_ERR iab= keepcaps=0'
k0='keepcaps=0'
cfg='none @ldapdeny\n^cap_sys_admin *\n'

# --- The service answers: mal is in ldapdeny, "none" clears I and A ---
CAPTEST_NSS=member
t both "$cfg" '' mal 'auth setcred' "$ok iab= $k0" '-I 4000000000 -M 4000000000'
t both "$cfg" '' alice 'setcred' "setcred=SUCCESS iab=^21 $k0"

# --- The service is down (UNAVAIL, ENOENT as nss-pam-ldapd says) ---
CAPTEST_NSS=unavail
t ours "$cfg" '' mal 'auth setcred' "$stop"
logged "SYSLOG(3): $T/c$cases:1: cannot tell whether 'mal' is in '@ldapdeny': group 'ldapdeny' cannot be looked up: No such file or directory; stopped here, nothing granted"
deb "$ok iab=^21 $k0"	# getgrouplist's partial list: "*" grants
t ours 'none @ldapdeny\n' 'default=^cap_sys_admin' mal 'auth setcred' "$stop"
# capcheck judges the line as pam_cap does: a look-up that failed, not a
# group that does not exist (it said "unknown group 'ldapdeny': never
# matches", as if the line could be deleted).
printf 'none @ldapdeny\n^cap_sys_admin *\n' >"$T/cc.conf"
"$BUILD/progs/capcheck" --config "$T/cc.conf" >"$T/cc.out" 2>&1
if grep -qF "$T/cc.conf:1: warning: cannot look up group 'ldapdeny': No such file or directory" "$T/cc.out" &&
	! grep -q 'unknown group' "$T/cc.out"; then
	pass
else
	fail "capcheck, captest down: $(cat "$T/cc.out")"
fi
# Other errors the same: a refused connection, TRYAGAIN.
CAPTEST_NSS_ERRNO=111 t ours "$cfg" '' mal 'auth setcred' "$stop"
logged "group 'ldapdeny' cannot be looked up: Connection refused; stopped here"
CAPTEST_NSS=tryagain
t ours "$cfg" '' mal 'auth setcred' "$stop"
logged "group 'ldapdeny' cannot be looked up: Resource temporarily unavailable; stopped here"
CAPTEST_NSS=unavail
# A library of the process exporting nss_wrapper_enabled() (the service
# itself, preloaded, saying yes) while glibc answers the look-ups: glibc's
# ENOENT is still a failed service. The old check looked for the name
# alone, took ENOENT for "no such group", and "*" granted.
PAM_PRELOAD_MORE=$BIN/libnss_captest.so.2 CAPTEST_FAKE_WRAPPER=1
export PAM_PRELOAD_MORE CAPTEST_FAKE_WRAPPER
t ours "$cfg" '' mal 'auth setcred' "$stop"
logged "cannot tell whether 'mal' is in '@ldapdeny': group 'ldapdeny' cannot be looked up: No such file or directory; stopped here, nothing granted"
# ... and the service answering, the same process decides as before.
CAPTEST_NSS=member
t ours "$cfg" '' alice 'setcred' "setcred=SUCCESS iab=^21 $k0"
CAPTEST_NSS=unavail
unset PAM_PRELOAD_MORE CAPTEST_FAKE_WRAPPER
# Lines that need no group decide as before; alice's own line too.
t ours '^cap_perfmon mal\nnone @ldapdeny\n' '' mal 'auth setcred' "$ok iab=^38 $k0"
t ours 'cap_perfmon alice\n^cap_sys_admin *\n' '' alice 'auth setcred' "$ok iab=38 $k0"
# A group that no service is asked about is no question: a line naming a
# group of mal's own list decides.
t ours 'cap_perfmon @mal\nnone @ldapdeny\n' '' mal 'auth setcred' "$ok iab=38 $k0"

# --- The failing service first: glibc's default actions would lose its
# error to files' NOTFOUND (common/groups.c); [UNAVAIL=return] keeps it ---
mount --bind "$T/nsswitch.first" /etc/nsswitch.conf || { fail "cannot bind nsswitch.first"; finish; }
t ours "$cfg" '' mal 'auth setcred' "$stop"
logged "cannot tell whether 'mal' is in '@ldapdeny'"
umount /etc/nsswitch.conf

# --- The database and the login disagree: "initgroups: files" gives the
# login (and getgrouplist) the files' groups only, while getgrnam() still
# asks captest, whose ldapdeny lists mal. The login holds no ldapdeny, so
# a grant to @ldapdeny is not mal's (Debian's module: IGNORE), and "not a
# member" would skip a restriction meant for mal: no decision either way.
# (A grant here was the old answer: "^cap_sys_admin @ldapdeny" gave mal
# cap_sys_admin, for a group the login does not have.) ---
printf 'passwd: files\ngroup: files captest\ninitgroups: files\nshadow: files\n' >"$T/nsswitch.initgroups"
mount --bind "$T/nsswitch.initgroups" /etc/nsswitch.conf || { fail "cannot bind nsswitch.initgroups"; finish; }
CAPTEST_NSS=member
[ "$(id -Gn mal)" = 'mal' ] && pass || fail "initgroups: files: id says: $(id -Gn mal)"
t ours '^cap_sys_admin @ldapdeny\n' '' mal 'auth setcred' "$stop"
logged "cannot tell whether 'mal' is in '@ldapdeny': group 'ldapdeny' lists 'mal' as a member, but getgrouplist() leaves the group out; stopped here, nothing granted"
deb 'auth=IGNORE setcred=IGNORE iab= keepcaps=0'
t ours "$cfg" '' mal 'auth setcred' "$stop"
# Others are not touched: alice is in no list of ldapdeny.
t both "$cfg" '' alice 'setcred' "setcred=SUCCESS iab=^21 $k0"
umount /etc/nsswitch.conf

# --- capsh --user: no login with a silently partial group list ---
C=$BUILD/progs/capsh
CAPTEST_NSS=member
run run_ours "$C" --user=mal -- -c 'id -G'
expect_rc 0 "capsh --user=mal (service up)"
expect_out "4500 4800$nl" "capsh --user=mal (service up)"
CAPTEST_NSS=unavail
run run_ours "$C" --user=mal -- -c 'id -G'
expect_rc 1 "capsh --user=mal (service down)"
expect_out "" "capsh --user=mal (service down)"
case $(cat "$T/err") in
"Unable to get group list for user: Input/output error"*) pass ;;
*) fail "capsh --user=mal (service down): stderr [$(cat "$T/err")]" ;;
esac

# --- perfdoctor --user: no verdict on a partial group list ---
P=$BUILD/progs/perfdoctor
mkdir "$T/pamd"
CAPTEST_NSS=member
run run_ours "$P" --user=mal --pam-dir="$T/pamd" /bin/true
[ "$rc" -ne 2 ] && pass || fail "perfdoctor --user=mal (service up): exit 2: $(cat "$T/err")"
CAPTEST_NSS=unavail
run run_ours "$P" --user=mal --pam-dir="$T/pamd" /bin/true
expect_rc 2 "perfdoctor --user=mal (service down)"
expect_err "perfdoctor: Input/output error$nl" "perfdoctor --user=mal (service down)"

echo "$cases cases through glibc's NSS with a failing service${DEB:+, compared with $DEB}"
finish
