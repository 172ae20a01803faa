#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# capability.conf mistakes an administrator makes, through both modules
# (ours and Debian's pam_cap.so, in pam_wrapper and nss_wrapper):
#  - a capability list ending in a comma ("cap_perfmon,"): libcap's module
#    grants what comes before the comma, and so does ours (no silent
#    difference in what is granted; capcheck warns, capcheck_verdicts.sh);
#  - a group without '@' ("perf_users"): no module selects its members
#    (a word without '@' is a user name), and ours says in its log which
#    group was probably meant.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
. "$TESTS_DIR/tools/pam_world.sh"
require_pam_driver
ok='auth=SUCCESS setcred=SUCCESS'
ign='auth=IGNORE setcred=IGNORE'
k0='keepcaps=0'

# Trailing commas: the grant is the list before the comma, in both.
t both 'cap_perfmon, alice\n' '' alice 'auth setcred' "$ok iab=38 $k0"
t both 'cap_perfmon,cap_bpf, alice\n' '' alice 'auth setcred' "$ok iab=38,39 $k0"
t both '^cap_perfmon, @perf_users\n' '' alice 'auth setcred' "$ok iab=^38 $k0"
# A list broken by a space: the second name is a user nobody has.
t both 'cap_perfmon, cap_bpf alice\n' '' alice 'auth setcred' "$ok iab=38 $k0"
t both 'cap_perfmon, cap_bpf @perf_users\n' '' dave 'auth setcred' "$ok iab=38 $k0"
# Two commas, a leading comma: no IAB text, nothing granted, in both.
t both 'cap_perfmon,, alice\n' '' alice 'auth setcred' "auth=SUCCESS setcred=IGNORE iab= $k0"
t both ',cap_perfmon alice\n' '' alice 'auth setcred' "auth=SUCCESS setcred=IGNORE iab= $k0"

# No '@': never a group, in both; ours names the group in its log.
PWDEBUG=2
export PWDEBUG
t both 'cap_perfmon perf_users\n' '' alice 'auth setcred' "$ign iab= $k0"
t ours 'cap_perfmon perf_users\n' '' alice 'auth setcred' "$ign iab= $k0"
logged "c$cases:1: 'perf_users' is a user name, not a group, so this line does not select 'alice', who is in group 'perf_users': did you mean '@perf_users'?"
# carol has perf_users as her primary group: the same.
t ours 'cap_kill bob perf_users\n' '' carol 'auth setcred' "$ign iab= $k0"
logged "c$cases:1: 'perf_users' is a user name, not a group, so this line does not select 'carol', who is in group 'perf_users': did you mean '@perf_users'?"
# The hint changes nothing: a later line still decides, and is applied.
t ours 'cap_kill perf_users\ncap_bpf @perf_users\n' '' alice 'auth setcred' "$ok iab=39 $k0"
logged "did you mean '@perf_users'?"
# Not for a group the user is not in, nor for the user's own name.
t ours 'cap_kill devs\n' '' alice 'auth setcred' "$ign iab= $k0"
not_logged "did you mean"
t ours 'cap_kill alice\n' '' alice 'auth setcred' "$ok iab=5 $k0"
not_logged "did you mean"

echo "$cases cases, $diffed also through Debian's pam_cap.so"
finish
