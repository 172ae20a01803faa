#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# A perfdoctor fix gives perf to the user asked about, and nothing else to
# anybody: each case sets up a world where the old fixes reached further,
# pastes every command perfdoctor prints (perf_world.sh's pd_apply), and
# checks, through real logins in the same PAM stack (pam_wrapper) and the
# perf probe, what the user and the others hold afterwards:
#   S1  perf root:perf_users 0750 with file capabilities, and
#       "cap_sys_admin @perf_users" in capability.conf: the old fix was
#       "usermod -aG perf_users bob", and bob's next login got
#       cap_sys_admin. Now words naming the grant that would change.
#       (The old fix for any other group of the binary, "usermod -aG devs
#       alice", every right of devs for a perf fix, is words now too:
#       perfdoctor_fixes.sh's F6.)
#   S2  "^cap_perfmon,^cap_sys_admin alice bob" below "none *": the old
#       fix moved it above, giving bob, who was not asked about, ambient
#       cap_sys_admin, and alice more than perf. Now alice's own line goes
#       above the '*' (cap_perfmon alone). A line that differs from the
#       '*' line's grant in cap_perfmon alone is still moved, whoever it
#       names (S2b, S2c: the perf_users setup the guide describes); one
#       without the '*' line's bounding drop is not, since its members
#       would lose it (S2d).
#   S3  a user capability.conf cannot name ("a b"): the old fix inserted
#       "cap_sys_nice,cap_perfmon @perf_users" above the line deciding for
#       her as a member, and dave, in perf_users, lost his own
#       "!cap_sys_admin" line to it. Now no line, words saying why.
#   S4  joining perf_users for the preset while capability.conf says
#       "cap_sys_admin @perf_users": the old fix joined bob anyway. Now
#       words naming the grant that would change.
#   S5  a group name of 70 bytes: the old fix named its first 63, another
#       group (bob's), which then got perf; now the whole name.
#   S6  a user name of 1200 bytes: the line would name its first 1099
#       bytes, another user. The old code printed no command only because
#       the command came out longer than a fix line; now the name's length
#       is checked itself, and the reason says so.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
private_etc
init
. "$TESTS_DIR/tools/perf_world.sh"
require_pam_driver
perfdoctor_world

# login_iab USER: the IAB a real login of USER ends up with (PAM's login
# stack, pam_end silent as util-linux login does).
login_iab() {
	VALGRIND_CMD='' pam -s login -u "$1" auth setcred end=silent |
		sed -n 's/.* iab=\([^ ]*\) .*/\1/p'
}
# no_command LABEL: no fix line perfdoctor printed is a command.
no_command() {
	if pd_fixes | grep -Eq '^(setcap|usermod|groupadd|chown|chmod|sed|printf) '; then
		fail "$1: a command was printed:"
		sed 's/^/    | /' "$T/doc"
	else
		pass
	fi
}
keepdefer() {
	printf 'auth required pam_permit.so\nauth optional %s config=%s keepcaps defer\n' \
		"$OURS" "$CONF" >"$PAMD/login"
}

# --- S1: joining perf_users would bring "cap_sys_admin @perf_users" ---
pd_world
pd_perf_file 0750 root perf_users cap_perfmon,cap_syslog=ep
printf 'cap_sys_admin @perf_users\nnone  *\n' >"$CONF"
pd_doctor --user=bob "$PERF"
[ $d -eq 1 ] && pass || fail "S1: exit $d, want 1"
pd_expect_fixes "S1 join" "joining perf_users changes what $CONF grants bob: 'cap_sys_admin' instead of 'none'; no command printed: give bob's grant a line of its own first, or change that group's"
no_command "S1"
# What the words say: joined, bob's login gets cap_sys_admin.
PATH="$T/bin:$PATH" nss usermod -aG perf_users bob && pass || fail "S1: usermod failed"
[ "$(login_iab bob)" = 21 ] && pass || fail "S1: bob's login once joined: iab=$(login_iab bob), want 21"

# --- S2: a shadowed line naming others and granting more ---
pd_world
keepdefer
pd_perf_file 0755 root root cap_perfmon=ei
printf 'none  *\n^cap_perfmon,^cap_sys_admin alice bob\n' >"$CONF"
[ "$(login_iab bob)" = "" ] && pass || fail "S2: bob's login before: $(login_iab bob)"
pd_fixed "S2 alice's own line" "sed -i '1i cap_perfmon alice' $CONF   # above line 1: its '*' matches everybody first, and the first matching line wins" \
	--user=alice "$PERF"
pd_login_yes "S2" alice
[ "$(login_iab bob)" = "" ] && pass || fail "S2: bob's login after the fix: iab=$(login_iab bob), want nothing"
[ "$(login_iab alice)" = 38 ] && pass || fail "S2: alice's login after the fix: iab=$(login_iab alice), want 38 (cap_perfmon alone)"
# S2b: her own line, granting perf alone, is moved.
pd_world
pd_perf_file 0755 root root cap_perfmon=ei
printf 'none  *\ncap_perfmon alice\n' >"$CONF"
pd_fixed "S2b moved" "sed -i -e '1i cap_perfmon alice' -e 2d $CONF   # moves line 2 ('cap_perfmon alice') above line 1: the '*' on line 1 matches everybody first, and the first matching line wins" \
	--user=alice "$PERF"
[ "$(grep -c . "$CONF")" -eq 2 ] && pass || fail "S2b: $(cat "$CONF")"
pd_login_yes "S2b" alice
# S2c: perf_users' and bob's line, perf alone: moved; bob gets perf, as it
# says, and nothing else.
pd_world
pd_perf_file 0755 root root cap_perfmon=ei
printf 'none  *\ncap_perfmon @perf_users bob\n' >"$CONF"
pd_fixed "S2c moved" "sed -i -e '1i cap_perfmon @perf_users bob' -e 2d $CONF   # moves line 2 ('cap_perfmon @perf_users') above line 1: the '*' on line 1 matches everybody first, and the first matching line wins" \
	--user=alice "$PERF"
[ "$(login_iab bob)" = 38 ] && pass || fail "S2c: bob's login after the move: iab=$(login_iab bob), want 38"
# S2d: the '*' line drops cap_sys_module from the bounding set, the line
# below does not: moved, it would give dave (in perf_users) cap_sys_module
# back. alice gets her own line with the drop.
pd_world
pd_perf_file 0755 root root cap_perfmon=ei
printf '!cap_sys_module  *\ncap_perfmon @perf_users\n' >"$CONF"
[ "$(login_iab dave)" = '!16' ] && pass || fail "S2d: dave's login before: $(login_iab dave)"
pd_fixed "S2d not moved" "sed -i '1i !cap_sys_module,cap_perfmon alice' $CONF   # above line 1: its '*' matches everybody first, and the first matching line wins" \
	--user=alice "$PERF"
[ "$(login_iab dave)" = '!16' ] && pass || fail "S2d: dave's login after the fix: iab=$(login_iab dave), want !16"
[ "$(login_iab alice)" = '!16,38' ] && pass || fail "S2d: alice's login after the fix: iab=$(login_iab alice)"

# --- S3: a name capability.conf cannot hold ---
pd_world
printf 'a b:x:4010:4010::/tmp:/bin/sh\n' >>"$ROOT/etc/passwd"
printf 'ab:x:4010:\n' >>"$ROOT/etc/group"
pd_perf_file 0755 root root cap_perfmon=ei
printf 'cap_sys_nice @ab\n!cap_sys_admin dave\nnone  *\n' >"$CONF"
[ "$(login_iab dave)" = '!21' ] && pass || fail "S3: dave's login before: $(login_iab dave)"
pd_doctor --user='a b' "$PERF"
[ $d -eq 1 ] && pass || fail "S3: exit $d, want 1"
pd_expect_fixes "S3 'a b'" "capability.conf cannot name a b (a blank separates names there), and a line for a group would change the grant of its other members: no line can give a b alone cap_perfmon; a name without blanks, '@' or '*' can have one"
no_command "S3"

# --- S4: joining perf_users would bring a capability.conf grant ---
pd_world
pd_perf_file 0755 root root
printf 'cap_sys_admin @perf_users\nnone  *\n' >"$CONF"
pd_doctor --user=bob "$PERF"
[ $d -eq 1 ] && pass || fail "S4: exit $d, want 1"
pd_expect_fixes "S4 join" "joining perf_users changes what $CONF grants bob: 'cap_sys_admin' instead of 'none'; no command printed: give bob's grant a line of its own first, or change that group's"
no_command "S4"
# With bob's own line first, joining changes nothing there: the preset.
printf 'none bob\ncap_sys_admin @perf_users\nnone  *\n' >"$CONF"
pd_fixed "S4 own line" "usermod -aG perf_users bob   # bob then logs in again
setcap --perf-group=perf_users --perf $PERF" --user=bob "$PERF"
pd_kernel_yes "S4" bob
[ "$(login_iab bob)" = "" ] && pass || fail "S4: bob's login after the fix: iab=$(login_iab bob)"

# --- S5: a long group name, and another named by its first 63 bytes ---
pd_world
g63=$(printf 'g%062d' 0)
g70=${g63}1234567
printf '%s:x:4400:alice\n%s:x:4401:bob\n' "$g70" "$g63" >>"$ROOT/etc/group"
pd_perf_file 0750 root 4400
pd_fixed "S5 group of 70 bytes" "setcap --perf-group=$g70 --perf $PERF" --user=alice "$PERF"
pd_kernel_yes "S5" alice
# shellcheck disable=SC2046
probe_as $(pd_creds bob) "$PERF" && fail "S5: bob (in $g63) runs perf" || pass

# --- S6: a user name of 1200 bytes, and another of its first 1099 ---
pd_world
u1099=$(printf 'u%01098d' 0)
u1200=${u1099}$(printf '%0101d' 0)
printf '%s:x:4030:4030::/tmp:/bin/sh\n%s:x:4031:4031::/tmp:/bin/sh\n' "$u1200" "$u1099" >>"$ROOT/etc/passwd"
printf 'g4030:x:4030:\ng4031:x:4031:\n' >>"$ROOT/etc/group"
pd_perf_file 0755 root root cap_perfmon=ei
printf 'none  *\n' >"$CONF"
pd_doctor --user="$u1200" "$PERF"
grep -q "cap_perfmon $u1099\$\|cap_perfmon $u1099'" "$T/doc" && fail "S6: a line for the 1099-byte prefix was printed" || pass
pd_expect_fixes "S6 1200 bytes" "no line printed: a capability.conf line for this user would be longer than 1199 bytes"
no_command "S6"
finish "every fix stays with the user asked about and with perf"
