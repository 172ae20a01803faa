#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# A grant the kernel refuses must not cost a configured
# restriction, and must not pass silently. pamcase -P first takes one
# capability out of P, so the line's ambient raise of it is refused:
#   - every bounding drop of the line still happens (the library drops
#     before it raises), whichever order the line names them in;
#   - setcred fails with PAM_CRED_ERR and logs at LOG_ERR (libcap 2.66
#     returns PAM_IGNORE, and for the second order skips the drop too);
#   - with defer, pam_end cannot fail: the drops happen, no ambient bit is
#     left, and the failure is logged.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
. "$TESTS_DIR/tools/pam_world.sh"
require_pam_driver
PWDEBUG=2	# pam_wrapper prints pam_syslog() messages as "SYSLOG(prio): ..."
k0='keepcaps=0'
all=ffffffffffffffff
no_chown=fffffffffffffffe		# P without cap_chown (0)
no_sys_admin=ffffffffffdfffff		# P without cap_sys_admin (21)

# The ambient bit asked for is named first, then last: I gets the bit
# (raising I beyond P is allowed with CAP_SETPCAP), A stays empty, B loses
# every bit the line drops.
t ours '^cap_chown,!cap_sys_admin,!cap_net_raw alice\n' '' alice 'setcred' \
	"setcred=CRED_ERR iab=0,!13,!21 $k0" "-P $no_chown -I 2020 -M 20"
logged "SYSLOG(3): capabilities '^cap_chown,!cap_sys_admin,!cap_net_raw' not applied, failing setcred: Operation not permitted"
t ours '!cap_chown,!cap_net_raw,^cap_sys_admin alice\n' '' alice 'setcred' \
	"setcred=CRED_ERR iab=!0,!13,21 $k0" "-P $no_sys_admin -I 2020 -M 20"
logged "SYSLOG(3): capabilities '!cap_chown,!cap_net_raw,^cap_sys_admin' not applied, failing setcred"
# Through libpam, as a login runs it: stacked "required" after the
# password check, the refusal fails pam_setcred() and so the login.
cases=$((cases + 1))
printf '^cap_chown,!cap_sys_admin alice\n' >"$T/c$cases"
printf 'auth required pam_permit.so\nauth required %s config=%s\n' \
	"$OURS" "$T/c$cases" >"$T/svc/required"
want="setcred=CRED_ERR iab=0,!21 $k0"
got=$(pam -s required -u alice -P "$no_chown" setcred)
check "case $cases (required stack): want '$want' got '$got'" [ "$got" = "$want" ]
# Deferred to pam_end, which cannot fail: the drop happens all the same.
t ours '^cap_chown,!cap_sys_admin alice\n' 'defer' alice 'stack setcred end=silent' \
	"setcred=PERM_DENIED end=SUCCESS iab=0,!21 $k0" "-P $no_chown -I 20 -M 20"
logged "SYSLOG(3): deferred capabilities not applied at pam_end, restrictions applied, no ambient grant: Operation not permitted"
# Control: with cap_chown in P the same lines apply whole.
t ours '^cap_chown,!cap_sys_admin alice\n' '' alice 'setcred' \
	"setcred=SUCCESS iab=^0,!21 $k0" "-P $all"
t ours '^cap_chown,!cap_sys_admin alice\n' 'defer' alice 'stack setcred end=silent' \
	"setcred=PERM_DENIED end=SUCCESS iab=^0,!21 $k0" "-P $all"

echo "$cases cases"
finish
