#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# Every fix perfdoctor can print leads to YES. For each one (the writers
# of perfdoctor_fix.c, perfdoctor_fixconf.c and perfdoctor_judge.c, login
# again in perfdoctor.c, the suggest: lines of perfdoctor_print.c: one case
# or more each, the "F" and "S" labels), the suite sets up the broken
# world, runs perfdoctor, checks the fix lines it prints, runs the
# command lines for real as a person pasting them into sh would (fix lines
# in words are carried out by the case), runs perfdoctor again and wants
# YES and no fix; then the kernel agrees: the perf probe, run with the
# user's database credentials or after a real login through the same PAM
# stack (pam_wrapper), opens its CPU-wide event. Where no fix can be made
# true, none may be printed (the "N" cases).
#
# The world is private: the suite runs in its own mount namespace
# (private_etc); perf, capability.conf and the user and group files live
# in a fake root under $T ($ROOT/usr/bin/perf, $ROOT/etc/...), users and
# groups reach every program through nss_wrapper, the PAM stacks are
# pam_world.sh's, and the pasted usermod and groupadd are shims running
# the real ones with --prefix=$ROOT. Nothing of the host's /etc or perf
# is read for a verdict or written.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
private_etc
init
. "$TESTS_DIR/tools/perf_world.sh"
require_pam_driver
perfdoctor_world

# --- the binary (perfdoctor_fix.c: fix_perf, fix_preset) ---

# F1: the preset, the user already in perf_users.
pd_world
pd_perf_file 0755 root root
pd_fixed "F1 preset" "setcap --perf-group=perf_users --perf $PERF" --user=alice "$PERF"
pd_kernel_yes "F1" alice
# ... and it keeps the others out.
# shellcheck disable=SC2046
probe_as $(pd_creds bob) "$PERF" && fail "F1: bob runs the restricted perf" || pass

# F2: the preset, the user joins perf_users first.
pd_world
pd_perf_file 0755 root root
pd_fixed "F2 preset and join" "usermod -aG perf_users bob   # bob then logs in again
setcap --perf-group=perf_users --perf $PERF" --user=bob "$PERF"
pd_kernel_yes "F2" bob

# F3: no group perf_users yet: created, joined, then the preset.
pd_world
sed -i '/^perf_users:/d' "$ROOT/etc/group"
pd_perf_file 0755 root root
pd_fixed "F3 groupadd, join, preset" "groupadd --system perf_users; usermod -aG perf_users alice   # alice then logs in again
setcap --perf-group=perf_users --perf $PERF" --user=alice "$PERF"
pd_kernel_yes "F3" alice

# F4: owned by bob, not root: setcap --perf-group refuses such a file, so
# chown comes first (the old fix was refused: "chown root ... first").
pd_world
pd_perf_file 0755 bob root
pd_fixed "F4 chown, preset" "chown root $PERF; setcap --perf-group=perf_users --perf $PERF" \
	--user=alice "$PERF"
pd_kernel_yes "F4" alice

# F5: the binary's own group keeps others out and dave is in it.
pd_world
pd_perf_file 0750 root devs
pd_fixed "F5 preset with the file's group" "setcap --perf-group=devs --perf $PERF" --user=dave "$PERF"
pd_kernel_yes "F5" dave

# F6: capable, but bob may not execute it: joining its group does. That
# group is perf's own (perf_users): the command (not when capability.conf
# grants its members more than perf: perfdoctor_scope.sh's S1).
pd_world
pd_perf_file 0750 root perf_users cap_perfmon,cap_syslog=ep
pd_fixed "F6 join perf_users" "usermod -aG perf_users bob   # then log in again" --user=bob "$PERF"
pd_kernel_yes "F6" bob
# ... any other group (wheel, docker, a project's) gives alice all else it
# may do, more than perf: said in words, no command to paste (the old fix
# was the command "usermod -aG devs alice"). Carried out here.
pd_world
pd_perf_file 0750 root devs cap_perfmon,cap_syslog=ep
pd_doctor --user=alice "$PERF"
[ $d -eq 1 ] && pass || fail "F6 devs: exit $d, want 1"
pd_expect_fixes "F6 the file's group, in words" "only members of group devs may run it, and joining it gives alice all else that group may do: no command printed"
PATH="$T/bin:$PATH" nss usermod -aG devs alice && pass || fail "F6: usermod failed"
pd_now_yes "F6 joined devs" --user=alice "$PERF"
pd_kernel_yes "F6 devs" alice

# F7: in its group, yet no execute bit for the group: joining cannot
# help, the preset gives the file its mode (the old code printed nothing).
pd_world
pd_perf_file 0700 root perf_users cap_perfmon,cap_syslog=ep
pd_fixed "F7 preset for a mode that keeps the group out" \
	"setcap --perf-group=perf_users --perf $PERF" --user=alice "$PERF"
pd_kernel_yes "F7" alice

# F8: permitted but not effective.
pd_world
pd_perf_file 0755 root root cap_perfmon+p
pd_fixed "F8 permitted, not effective" "setcap --perf-group=perf_users --perf $PERF" --user=alice "$PERF"
pd_kernel_yes "F8" alice

# F9: /usr/bin/perf a symbolic link: setcap --perf refuses a link, so the
# fix names where it leads (the old fix named the link and failed).
pd_world
rm -f "$PERF"
cp "$BIN/perfprobe" "$ROOT/usr/bin/perf_6.1"
chmod 0755 "$ROOT/usr/bin/perf_6.1"
ln -s perf_6.1 "$PERF"
pd_fixed "F9 a symbolic link" "setcap --perf-group=perf_users --perf $ROOT/usr/bin/perf_6.1" \
	--user=alice "$PERF"
pd_kernel_yes "F9" alice
rm -f "$PERF" "$ROOT/usr/bin/perf_6.1"

# --- pam_cap's grant (perfdoctor_fixconf.c), perf cap_perfmon=ei ---

# F10: no capability.conf: the line is written.
pd_world
pd_perf_file 0755 root root cap_perfmon=ei
pd_fixed "F10 a new capability.conf" "printf '%s\\n' 'cap_perfmon alice' >> $CONF" --user=alice "$PERF"
pd_login_yes "F10" alice

# F11: lines, none for alice: appended.
pd_world
pd_perf_file 0755 root root cap_perfmon=ei
printf '# comment\ncap_sys_nice bob' >"$CONF"	# no final newline
pd_fixed "F11 appended" "sed -i '\$a cap_perfmon alice' $CONF" --user=alice "$PERF"
[ "$(sed -n 2p "$CONF")" = "cap_sys_nice bob" ] && pass || fail "F11: bob's line was changed: $(cat "$CONF")"
pd_login_yes "F11" alice

# F12: alice's own line grants something else: a line above it, with both.
pd_world
pd_perf_file 0755 root root cap_perfmon=ei
printf 'cap_sys_nice alice bob\n' >"$CONF"
pd_fixed "F12 above alice's own line" "sed -i '1i cap_sys_nice,cap_perfmon alice' $CONF   # above line 1, which decides for alice now: the first matching line wins" \
	--user=alice "$PERF"
pd_login_yes "F12" alice
grep -q "iab=23,38 " "$T/login.out" && pass || fail "F12: alice lost cap_sys_nice: $(cat "$T/login.out")"

# F13: Debian's "none *": the line goes above it.
pd_world
pd_perf_file 0755 root root cap_perfmon=ei
printf '# as Debian ships it\nnone  *\n' >"$CONF"
pd_fixed "F13 above 'none *'" "sed -i '2i cap_perfmon alice' $CONF   # above line 2: its '*' matches everybody first, and the first matching line wins" \
	--user=alice "$PERF"
pd_login_yes "F13" alice

# F14: the grant is there, below "none *": moved above it.
pd_world
pd_perf_file 0755 root root cap_perfmon=ei
printf '# as Debian ships it\nnone  *\ncap_perfmon\t@perf_users  bob\n' >"$CONF"
pd_fixed "F14 the grant moved up" "sed -i -e '2i cap_perfmon @perf_users bob' -e 3d $CONF   # moves line 3 ('cap_perfmon @perf_users') above line 2: the '*' on line 2 matches everybody first, and the first matching line wins" \
	--user=alice "$PERF"
pd_login_yes "F14" alice
[ "$(grep -c . "$CONF")" -eq 3 ] && pass || fail "F14: the file has $(grep -c . "$CONF") lines, want 3: $(cat "$CONF")"

# ... but not a line that grants more than cap_perfmon: moved up, it would
# give alice cap_sys_admin too, and everyone it names (the old fix moved
# it). Alice gets a line of her own: perf, and nothing else changes.
pd_world
pd_perf_file 0755 root root cap_perfmon=ei
printf 'none  *\ncap_sys_admin,cap_perfmon @perf_users bob\n' >"$CONF"
pd_fixed "F14 a grant of more than perf stays" "sed -i '1i cap_perfmon alice' $CONF   # above line 1: its '*' matches everybody first, and the first matching line wins" \
	--user=alice "$PERF"
pd_login_yes "F14 more than perf" alice
grep -q "iab=38 " "$T/login.out" && pass || fail "F14: alice got more than cap_perfmon: $(cat "$T/login.out")"
# ... nor one that would lift the '*' line's bounding drop for everyone
# it names (perf_users, bob): alice's own line keeps the drop.
printf '!cap_sys_module  *\ncap_perfmon @perf_users bob\n' >"$CONF"
pd_fixed "F14 a drop of the '*' line kept" "sed -i '1i !cap_sys_module,cap_perfmon alice' $CONF   # above line 1: its '*' matches everybody first, and the first matching line wins" \
	--user=alice "$PERF"
pd_login_yes "F14 the drop kept" alice
grep -q "iab=!16,38 " "$T/login.out" && pass || fail "F14: alice lost the drop: $(cat "$T/login.out")"

# F15: a grant text that is not IAB: alice gets a line that is.
pd_world
pd_perf_file 0755 root root cap_perfmon=ei
echo 'cap_bogus alice' >"$CONF"
pd_fixed "F15 unusable text" "sed -i '1i cap_perfmon alice' $CONF   # above line 1, which decides for alice now: the first matching line wins" \
	--user=alice "$PERF"
pd_login_yes "F15" alice

# F16: default= grants something else; alice's line keeps it.
pd_world
pd_perf_file 0755 root root cap_perfmon=ei
echo 'none bob' >"$CONF"
printf 'auth required pam_permit.so\nauth optional %s config=%s default=cap_sys_nice\n' \
	"$OURS" "$CONF" >"$PAMD/login"
pd_fixed "F16 default=" "sed -i '\$a cap_sys_nice,cap_perfmon alice' $CONF   # default= applies only where no line matches" \
	--user=alice "$PERF"
pd_login_yes "F16" alice

# F17: a world-writable capability.conf that grants it: pam_cap reads
# none of it, and the fix is its mode (the old one said "add a line").
pd_world
pd_perf_file 0755 root root cap_perfmon=ei
echo 'cap_perfmon alice' >"$CONF"
chmod 0666 "$CONF"
pd_fixed "F17 world-writable" "chmod 0644 $CONF   # pam_cap reads nothing from a world-writable file; read every line first: anyone could have written it" \
	--user=alice "$PERF"
pd_login_yes "F17" alice

# F18: world-writable, owned by bob, and no line for alice: chown, chmod,
# then the line.
pd_world
pd_perf_file 0755 root root cap_perfmon=ei
printf 'none  *\n' >"$CONF"
nss chown bob "$CONF"
chmod 0666 "$CONF"
pd_fixed "F18 world-writable, owned by bob, no grant" "chown root $CONF; chmod 0644 $CONF   # pam_cap reads nothing from a world-writable file; read every line first: anyone could have written it
sed -i '1i cap_perfmon alice' $CONF   # above line 1: its '*' matches everybody first, and the first matching line wins" \
	--user=alice "$PERF"
pd_login_yes "F18" alice

# F19: pam_cap is not in the stack: appended to the service's file (libpam
# loads it from its module directory).
pd_world
pd_perf_file 0755 root root cap_perfmon=ei
echo 'cap_perfmon alice' >"$CONF"
printf 'auth required pam_permit.so\n' >"$PAMD/login"
pd_fixed "F19 pam_cap added to the stack" "sed -i '\$a auth optional pam_cap.so config=$CONF' $PAMD/login   # pam_cap is not in the auth stack of login" \
	--user=alice "$PERF"
pd_login_yes "F19" alice

# F20: a bounding drop in capability.conf against an =ep perf: alice's
# own line without it.
pd_world
pd_perf_file 0755 root root cap_perfmon,cap_syslog=ep
echo '!cap_perfmon alice' >"$CONF"
pd_fixed "F20 a bounding drop" "sed -i '1i none alice' $CONF   # above line 1, which decides for alice now: the first matching line wins" \
	--user=alice "$PERF"
pd_login_yes "F20" alice
# ... and against an =ei perf, where alice needs the grant as well.
pd_perf_file 0755 root root cap_perfmon=ei
echo '!cap_perfmon,cap_sys_nice alice' >"$CONF"
pd_fixed "F20 a bounding drop, =ei" "sed -i '1i cap_sys_nice,cap_perfmon alice' $CONF   # above line 1, which decides for alice now: the first matching line wins" \
	--user=alice "$PERF"
pd_login_yes "F20 =ei" alice

# ... and a drop of cap_syslog, which perf carries too: the kernel refuses
# the exec (the old answer was YES).

pd_perf_file 0755 root root cap_perfmon,cap_syslog=ep
echo '!cap_syslog alice' >"$CONF"
pd_fixed "F20 a bounding drop of cap_syslog" "sed -i '1i none alice' $CONF   # above line 1, which decides for alice now: the first matching line wins" \
	--user=alice "$PERF"
pd_login_yes "F20 cap_syslog" alice

# F21: an ambient grant below "none *", perf without file capabilities:
# moving it works, and so does the preset; each alone.
pd_world
pd_perf_file 0755 root root
printf 'none  *\n^cap_perfmon @perf_users\n' >"$CONF"
printf 'auth required pam_permit.so\nauth optional %s config=%s keepcaps defer\n' \
	"$OURS" "$CONF" >"$PAMD/login"
pd_doctor --user=alice "$PERF"
pd_expect_fixes "F21 ambient grant below '*'" "sed -i -e '1i ^cap_perfmon @perf_users' -e 2d $CONF   # moves line 2 ('^cap_perfmon @perf_users') above line 1: the '*' on line 1 matches everybody first, and the first matching line wins
setcap --perf-group=perf_users --perf $PERF"
cp "$T/doc" "$T/doc.21"
pd_fixes | sed -n 1p >"$T/apply.sh"
PATH="$T/bin:$PATH" nss sh -e "$T/apply.sh" >"$T/apply.out" 2>&1 && pass || fail "F21: the move failed"
pd_now_yes "F21 the move alone" --user=alice "$PERF"
pd_login_yes "F21 the move" alice
printf 'none  *\n^cap_perfmon @perf_users\n' >"$CONF"
cp "$T/doc.21" "$T/doc"
pd_fixes | sed -n 2p >"$T/apply.sh"
PATH="$T/bin:$PATH" nss sh -e "$T/apply.sh" >"$T/apply.out" 2>&1 && pass || fail "F21: the preset failed"
pd_now_yes "F21 the preset alone" --user=alice "$PERF"
pd_login_yes "F21 the preset" alice

# A name capability.conf cannot hold ("a b" is two names there): no line
# can give that user alone the grant (a line for perf_users would change
# its other members' grants: perfdoctor_scope.sh), so no command, the
# reason in words; the preset, which needs no line, still leads to YES.
pd_world
printf 'a b:x:4010:4010::/tmp:/bin/sh\n' >>"$ROOT/etc/passwd"
printf 'ab:x:4010:\n' >>"$ROOT/etc/group"
pd_perf_file 0755 root root cap_perfmon=ei
printf 'none  *\n' >"$CONF"
pd_doctor --user='a b' "$PERF"
pd_expect_fixes "F22 a name with a blank" "capability.conf cannot name a b (a blank separates names there), and a line for a group would change the grant of its other members: no line can give a b alone cap_perfmon; a name without blanks, '@' or '*' can have one"
pd_perf_file 0755 root root
pd_fixed "F22 a name with a blank, the preset" "usermod -aG perf_users 'a b'   # a b then logs in again
setcap --perf-group=perf_users --perf $PERF" --user='a b' "$PERF"
pd_login_yes "F22" 'a b'

# ... and in a file others may write, where joining perf_users would also
# bring "cap_sys_nice @perf_users": no command, words say what joining
# would change (read from the file as pam_cap reads it once its mode is
# fixed).
pd_world
printf 'a b:x:4010:4010::/tmp:/bin/sh\n' >>"$ROOT/etc/passwd"
printf 'ab:x:4010:\n' >>"$ROOT/etc/group"
printf '# site policy\ncap_sys_nice @perf_users\nnone  *\n' >"$CONF"
chmod 0666 "$CONF"
pd_doctor --user='a b' "$PERF"
pd_expect_fixes "F22 a name with a blank, world-writable" "joining perf_users changes what $CONF grants a b: 'cap_sys_nice' instead of 'none'; no command printed: give a b's grant a line of its own first, or change that group's"

# F31: two services, pam_cap in neither: each one's file gets it (the
# answer is YES only when both pass).
pd_world
pd_perf_file 0755 root root cap_perfmon=ei
echo 'cap_perfmon alice' >"$CONF"
printf 'auth required pam_permit.so\n' >"$PAMD/login"
printf 'auth required pam_permit.so\n' >"$PAMD/su"
pd_fixed "F31 two services" "sed -i '\$a auth optional pam_cap.so config=$CONF' $PAMD/login   # pam_cap is not in the auth stack of login
sed -i '\$a auth optional pam_cap.so config=$CONF' $PAMD/su   # pam_cap is not in the auth stack of su" \
	--service=login,su --user=alice "$PERF"
pd_login_yes "F31 login" alice
VALGRIND_CMD='' pam -s su -u alice -x "$PERF" auth setcred become end=silent >"$T/login.out" && pass ||
	fail "F31: a real login through su: $(cat "$T/login.out")"
rm -f "$PAMD/su"

# --- capability.conf judged as pam_cap judges it ---

# pam_cap refuses a file anyone but root could have written: world-
# writable (S_IWOTH, whatever set it), owned by another user, writable
# through its group or an ACL entry (which leaves S_IWOTH clear; the old
# pam_cap read such files), or reached through a directory others may
# change (common/capconf_trust.c). For the file itself chown and chmod
# (which sets the ACL's mask) are the fix, its note naming who may write
# it, and perfdoctor agrees with a real login each time; a directory is no
# edit of the file, and no fix is printed.
acl() {	# FILE HEX: a POSIX access ACL (no setfacl needed)
	setfattr -n system.posix_acl_access -v "$2" "$1"
}
pd_world
pd_perf_file 0755 root root cap_perfmon=ei
echo 'cap_perfmon alice' >"$CONF"
chmod 0644 "$CONF"
nss chown bob "$CONF"
pd_fixed "A1 owned by bob" "chown root $CONF; chmod 0644 $CONF   # pam_cap reads nothing from a file others may write (uid 4002 owns it, and may make it say anything); read every line first: they could have written it" \
	--user=alice "$PERF"
pd_login_yes "A1 owned by bob" alice
# user::rw- user:bob:rw- group::r-- mask::rw- other::r--
if acl "$CONF" 0x0200000001000600ffffffff02000600a20f000004000400ffffffff10000600ffffffff20000400ffffffff; then
	pd_fixed "A2 ACL user:bob:rw-" "chmod 0644 $CONF   # pam_cap reads nothing from a file others may write (an ACL entry lets uid 4002 write it); read every line first: they could have written it" \
		--user=alice "$PERF"
	pd_login_yes "A2 ACL user:bob:rw-" alice
	# other::rw- through the ACL is world-writable: refused, and chmod
	# 0644 (which sets the ACL's other entry) is the fix.
	acl "$CONF" 0x0200000001000600ffffffff02000600a20f000004000400ffffffff10000600ffffffff20000600ffffffff
	pd_fixed "A3 ACL other::rw-" "chmod 0644 $CONF   # pam_cap reads nothing from a world-writable file; read every line first: anyone could have written it" \
		--user=alice "$PERF"
	pd_login_yes "A3" alice
	setfattr -x system.posix_acl_access "$CONF" 2>/dev/null
else
	not_checked "no POSIX ACLs on $T's filesystem; ACL cases not run"
fi
chmod 0777 "$ROOT/etc/security"
pd_doctor --user=alice "$PERF"
if [ $d -eq 1 ] && ! grep -q '^fix:' "$T/doc" &&
	grep -qF "pam_cap:   $CONF: pam_cap stops here (not root's alone: directory $ROOT/etc/security on its way: everybody may write it; another file could be put in its place)" "$T/doc"; then
	pass
else
	fail "A4: a world-writable directory: exit $d"; sed 's/^/    | /' "$T/doc"
fi
VALGRIND_CMD='' pam -s login -u alice -x "$PERF" auth setcred become end=silent >"$T/login.out" &&
	fail "A4: a real login got perf: $(cat "$T/login.out")" || pass
chmod 0755 "$ROOT/etc/security"

# --- where no fix can be made true, none is printed ---

# no_fix LABEL WANT-EXIT ARGS...: perfdoctor ARGS says WANT-EXIT and
# prints no fix line.
no_fix() {
	label=$1 want=$2
	shift 2
	pd_doctor "$@"
	if [ $d -eq "$want" ] && ! grep -q '^fix:' "$T/doc"; then
		ok "$label: no fix: $(grep '^verdict' "$T/doc")"
	else
		fail "$label: exit $d (want $want), fixes:"; sed 's/^/    | /' "$T/doc"
	fi
}
# N1: perf behind a directory alice may not search: no mode of the file
# helps (the old fix restricted it to perf_users, to no avail).
pd_world
mkdir -m 0700 "$ROOT/locked"
cp "$BIN/perfprobe" "$ROOT/locked/perf"
chmod 0755 "$ROOT/locked/perf"
no_fix "N1 a directory in the way" 1 --user=alice "$ROOT/locked/perf"
# shellcheck disable=SC2046
probe_as $(pd_creds alice) "$ROOT/locked/perf" && fail "N1: the probe ran" || pass
# The grant is in capability.conf already, but does not arrive: adding it
# again (the old fix) changes nothing. N2: pam_cap named but not
# installed; N3: defer without keepcaps; N4: a line that may skip pam_cap
# (UNKNOWN); N5: a line pam_cap stops at, before a broader grant.
pd_world
pd_perf_file 0755 root root cap_perfmon=ei
echo 'cap_perfmon alice' >"$CONF"
printf 'auth optional /nonexistent/pam_cap.so config=%s\n' "$CONF" >"$PAMD/login"
no_fix "N2 pam_cap not installed" 1 --user=alice "$PERF"
printf 'auth optional %s config=%s defer\n' "$OURS" "$CONF" >"$PAMD/login"
no_fix "N3 defer without keepcaps" 1 --user=alice "$PERF"
printf 'auth sufficient pam_permit.so\nauth optional %s config=%s\n' "$OURS" "$CONF" >"$PAMD/login"
no_fix "N4 a line that may skip pam_cap" 3 --user=alice "$PERF"
pd_world
printf 'none alice\000\ncap_perfmon *\n' >"$CONF"
no_fix "N5 a line pam_cap stops at" 1 --user=alice "$PERF"
VALGRIND_CMD='' pam -s login -u alice -x "$PERF" auth setcred become end=silent >"$T/login.out" &&
	fail "N5: a real login got perf: $(cat "$T/login.out")" || pass
# N6: perfdoctor run by alice herself cannot read a 0600 capability.conf:
# what it grants is unknown to her, so no line is suggested (the old fix
# said to add the line it holds).
pd_world
echo 'cap_perfmon alice' >"$CONF"
chmod 0600 "$CONF"
# shellcheck disable=SC2016,SC2086 # for sh -c; VALGRIND_CMD is a command line
setpriv --reuid=4001 --regid=4001 --groups=4001,4100 sh -c 'exec "$@"' sh env \
	LD_PRELOAD="$NWRAP" NSS_WRAPPER_PASSWD="$T/passwd" NSS_WRAPPER_GROUP="$T/group" \
	ASAN_OPTIONS=verify_asan_link_order=0 ${VALGRIND_CMD:-} "$doctor_bin" \
	--pam-dir="$PAMD" --service=login --config="$CONF" "$PERF" >"$T/doc" 2>&1
d=$?
if [ $d -eq 1 ] && ! grep -q '^fix:' "$T/doc" &&
	grep -qF "pam_cap:   $CONF: perfdoctor may not read it, so what it grants is unknown (run perfdoctor as root)" "$T/doc"; then
	ok "N6 unreadable to the caller: no fix"
else
	fail "N6: exit $d:"; sed 's/^/    | /' "$T/doc"
fi

# N7: a name capability.conf cannot hold ("a b") gets no line: one for
# perf_users would be the first match of its other members too. Where the
# user's grant comes from a line that is not theirs all ("cap_sys_nice
# @devs"), it would hand cap_sys_nice to alice (an old fix: "sed -i '1i
# cap_sys_nice,cap_perfmon @perf_users'"); where it comes from a line
# every member matches, it would still give each of them cap_perfmon.
# Words say why, and no command is printed, in both cases.
pd_world
printf 'a b:x:4010:4010::/tmp:/bin/sh\n' >>"$ROOT/etc/passwd"
printf 'ab:x:4010:\n' >>"$ROOT/etc/group"
sed -i 's/^devs:x:4200:.*/&,a b/' "$ROOT/etc/group"
pd_perf_file 0755 root root cap_perfmon=ei
no_line_for_ab="capability.conf cannot name a b (a blank separates names there), and a line for a group would change the grant of its other members: no line can give a b alone cap_perfmon; a name without blanks, '@' or '*' can have one"
for n7 in 'cap_sys_nice @devs\nnone  *\n' 'cap_sys_nice @devs\ncap_sys_nice @perf_users\nnone  *\n'; do
	printf "$n7" >"$CONF"
	pd_doctor --user='a b' "$PERF"
	[ $d -eq 1 ] && pass || fail "N7 $n7: exit $d, want 1"
	pd_expect_fixes "N7 $n7" "$no_line_for_ab"
	grep -q '^fix: *\(usermod\|sed\|printf\) ' "$T/doc" && fail "N7 $n7: a command: $(pd_fixes)" || pass
done

# N8: a session of uid 4999, which has no name, while user "4999" is uid
# 5000: the number is no name to look up. The old fix was "sed -i '1i
# cap_perfmon 4999'", a grant for uid 5000.
pd_world
printf '4999:x:5000:5000::/tmp:/bin/sh\n' >>"$ROOT/etc/passwd"
pd_perf_file 0755 root root cap_perfmon=ei
printf 'none  *\n' >"$CONF"
setpriv --reuid=4999 --regid=4999 --clear-groups sleep 60 &
n8=$!
i=0
while [ "$(readlink "/proc/$n8/exe" 2>/dev/null)" != "$(command -v sleep)" ] && [ $i -lt 100 ]; do
	sleep 0.05; i=$((i + 1))
done
no_fix "N8 a uid without a name, another user named by its number" 1 --pid="$n8" "$PERF"
kill "$n8"
wait "$n8" 2>/dev/null

# --- fixes in words, carried out here ---

# F23: no such binary: installing it (a copy here) is the first step; the
# next run gives the preset, which leads to YES.
pd_world
rm -f "$PERF"
pd_doctor --user=alice "$PERF"
pd_expect_fixes "F23 no binary" "install perf (Debian: apt-get install linux-perf) or name the binary"
cp "$BIN/perfprobe" "$PERF"
chmod 0755 "$PERF"
pd_fixed "F23 then" "setcap --perf-group=perf_users --perf $PERF" --user=alice "$PERF"
pd_kernel_yes "F23" alice

# F24: a script: perfdoctor is to judge the ELF binary it runs, and the
# script then runs a capable perf.
pd_world
pd_perf_file 0755 root root
printf '#!/bin/sh\nexec %s "$@"\n' "$PERF" >"$ROOT/usr/bin/perf_wrapper"
chmod 0755 "$ROOT/usr/bin/perf_wrapper"
pd_doctor --user=alice "$ROOT/usr/bin/perf_wrapper"
pd_expect_fixes "F24 a script" "find the ELF binary it runs (readlink -f, file: it must say ELF), then run perfdoctor on that one"
pd_fixed "F24 then" "setcap --perf-group=perf_users --perf $PERF" --user=alice "$PERF"
pd_kernel_yes "F24 the script" alice "$ROOT/usr/bin/perf_wrapper"
rm -f "$ROOT/usr/bin/perf_wrapper"

# F25, F26: a nosuid mount, and one without extended attributes (ramfs):
# the copy elsewhere, then its preset. In a mount namespace of its own.
pd_world
pd_perf_file 0755 root root
mkdir "$T/mnt"
for how in "tmpfs -o nosuid" "ramfs"; do
	# shellcheck disable=SC2086,SC2016 # the type and options; $1..$8 are sh -c's
	unshare -m --propagation private sh -c 'mount -t $1 none "$2" || exit 99
		cp "$3" "$2/perf" && chmod 0755 "$2" "$2/perf" || exit 99
		LD_PRELOAD="$4" NSS_WRAPPER_PASSWD="$5/passwd" NSS_WRAPPER_GROUP="$5/group" ASAN_OPTIONS=verify_asan_link_order=0 \
		"$6" --user=alice --pam-dir="$7" --service=login --config="$8" "$2/perf"' sh \
		"$how" "$T/mnt" "$PERF" "$NWRAP" "$T" "$doctor_bin" "$PAMD" "$CONF" >"$T/doc" 2>&1
	d=$?
	case $how in
	tmpfs*) want="copy perf to a filesystem mounted without nosuid and noexec, then run perfdoctor on the copy" ;;
	*) want="copy perf to a filesystem that stores extended attributes, then run perfdoctor on the copy" ;;
	esac
	if [ $d -eq 1 ]; then
		pd_expect_fixes "F25/F26 $how" "$want"
	else
		fail "F25/F26 $how: exit $d"; sed 's/^/    | /' "$T/doc"
	fi
done
pd_fixed "F25/F26 the copy" "setcap --perf-group=perf_users --perf $PERF" --user=alice "$PERF"
pd_kernel_yes "F25/F26" alice

# --- sessions: fixes in words, carried out by starting another one ---

pids=
at_exit 'for p in $pids; do kill "$p" 2>/dev/null; done'
# session SETPRIV-OPTIONS...: a sleeping process so; $pid.
session() {
	setpriv "$@" sleep 120 &
	pid=$!
	pids="$pids $pid"
	i=0
	while [ "$(readlink "/proc/$pid/exe" 2>/dev/null)" != "$(command -v sleep)" ] && [ $i -lt 100 ]; do
		sleep 0.05; i=$((i + 1))
	done
}
pd_world
pd_perf_file 0750 root perf_users cap_perfmon,cap_syslog=ep
# F27: log in again (a session from before alice joined perf_users).
session --reuid=4001 --regid=4001 --groups=4001
pd_doctor --pid="$pid" "$PERF"
pd_expect_fixes "F27 log in again" "log in again (a new login reads groups and capability.conf afresh)"
session --reuid=4001 --regid=4001 --groups=4001,4100
pd_now_yes "F27 a new login" --pid="$pid" "$PERF"
# F28: no_new_privs.
session --reuid=4001 --regid=4001 --groups=4001,4100 --no-new-privs
pd_doctor --pid="$pid" "$PERF"
# Then a systemd service's way (root/perfdoctor_runtime.sh).
pd_expect_fixes "F28 no_new_privs" "run perf from a session without NoNewPrivileges= (systemd) or no_new_privs
a systemd service: AmbientCapabilities=CAP_PERFMON in its unit's [Service] section (perf then needs no file capabilities, NoNewPrivileges= or not)"
session --reuid=4001 --regid=4001 --groups=4001,4100
pd_now_yes "F28 without" --pid="$pid" "$PERF"
# F29: a bounding set without cap_perfmon (not pam_cap's doing).
session --reuid=4001 --regid=4001 --groups=4001,4100 --bounding-set=-perfmon
pd_doctor --pid="$pid" "$PERF"
pd_expect_fixes "F29 bounding set" "allow cap_perfmon in the bounding set of that service or container
a systemd service: its unit's CapabilityBoundingSet=, where it sets one, must hold CAP_PERFMON"
session --reuid=4001 --regid=4001 --groups=4001,4100
pd_now_yes "F29 with it" --pid="$pid" "$PERF"
# ... cap_syslog, which this perf carries too.
session --reuid=4001 --regid=4001 --groups=4001,4100 --bounding-set=-syslog
pd_doctor --pid="$pid" "$PERF"
pd_expect_fixes "F29 bounding set, cap_syslog" "allow cap_syslog in the bounding set of that service or container"
session --reuid=4001 --regid=4001 --groups=4001,4100
pd_now_yes "F29 cap_syslog with it" --pid="$pid" "$PERF"
# F30: a user namespace.
unshare --user --map-root-user sleep 120 &
pid=$!
pids="$pids $pid"
i=0
while [ "$(readlink "/proc/$pid/exe" 2>/dev/null)" != "$(command -v sleep)" ] && [ $i -lt 100 ]; do
	sleep 0.05; i=$((i + 1))
done
pd_doctor --pid="$pid" "$PERF"
# Then the runtimes' ways out of it (root/perfdoctor_runtime.sh): a
# namespace that holds CAP_SYS_ADMIN, so the narrower profile too.
pd_expect_fixes "F30 user namespace" "run perf from a session outside the container or user namespace
perfdoctor --seccomp-profile >perfmon.json   # on the host: podman's and CRI-O's default profile (/usr/share/containers/seccomp.json) with perf_event_open() also allowed to CAP_PERFMON; docker's: --seccomp-profile=BASE, its profiles/seccomp/default.json
podman or docker run: --cap-add=PERFMON --security-opt seccomp=perfmon.json, not --privileged, --cap-add=SYS_ADMIN or --security-opt seccomp=unconfined; run by root (rootful podman), without --userns: CAP_PERFMON in a user namespace does not count for perf
Kubernetes, the container's securityContext: {capabilities: {add: [PERFMON]}, seccompProfile: {type: Localhost, localhostProfile: perfmon.json}, allowPrivilegeEscalation: false}, the profile at /var/lib/kubelet/seccomp/perfmon.json on every node; false will do: perf gets CAP_PERFMON from the container's own sets; and hostUsers: true in the pod's spec: CAP_PERFMON in a user namespace does not count for perf
podman play kube of that pod: its metadata also needs annotations: {seccomp.security.alpha.kubernetes.io/pod: localhost/perfmon.json} (podman 4 reads this annotation, not seccompProfile; the profile in /var/lib/kubelet/seccomp too)"
session --reuid=4001 --regid=4001 --groups=4001,4100
pd_now_yes "F30 outside" --pid="$pid" "$PERF"

# --- the suggest: lines: also commands, also leading to a perf that works ---

# S1, S2: cap_sys_admin on a perf every user may run: the commands that
# restrict it keep alice's access (YES before and after), and the lines go.
pd_world
pd_perf_file 0755 root root cap_sys_admin=ep
pd_doctor --user=bob "$PERF"
[ $d -eq 0 ] && pass || fail "S1: exit $d"
grep -qxF "suggest:   perf needs cap_perfmon (Linux 5.8+), not cap_sys_admin: usermod -aG perf_users bob; setcap --perf-group=perf_users --perf $PERF   # bob then logs in again" "$T/doc" && pass ||
	{ fail "S2: the cap_sys_admin suggestion:"; sed 's/^/    | /' "$T/doc"; }
grep -qxF "suggest:   every user may run it with these capabilities; restrict it to a group: usermod -aG perf_users bob; setcap --perf-group=perf_users --perf $PERF   # bob then logs in again" "$T/doc" && pass ||
	{ fail "S1: the restriction suggestion:"; sed 's/^/    | /' "$T/doc"; }
sed -n 's/^suggest:   every user may run it with these capabilities; restrict it to a group: //p' "$T/doc" >"$T/apply.sh"
PATH="$T/bin:$PATH" nss sh -e "$T/apply.sh" >"$T/apply.out" 2>&1 && pass || fail "S1: the commands failed: $(cat "$T/apply.out")"
pd_now_yes "S1/S2 restricted" --user=bob "$PERF"
grep -q '^suggest:' "$T/doc" && { fail "S1/S2: still suggests:"; grep '^suggest' "$T/doc"; }
pd_kernel_yes "S1" bob
# S3: owned by bob: chown root, then the same capabilities again.
pd_perf_file 0750 bob perf_users cap_perfmon,cap_syslog=ep
pd_doctor --user=alice "$PERF"
grep -qxF "suggest:   its owner (uid 4002), not root, can change who runs it: chown root $PERF; setcap cap_syslog,cap_perfmon=ep $PERF" "$T/doc" && pass ||
	{ fail "S3: the owner suggestion:"; sed 's/^/    | /' "$T/doc"; }
sed -n 's/^suggest:   its owner (uid 4002), not root, can change who runs it: //p' "$T/doc" >"$T/apply.sh"
PATH="$T/bin:$PATH" nss sh -e "$T/apply.sh" >"$T/apply.out" 2>&1 && pass || fail "S3: the commands failed: $(cat "$T/apply.out")"
pd_now_yes "S3 owned by root" --user=alice "$PERF"
grep -q '^suggest:' "$T/doc" && { fail "S3: still suggests:"; grep '^suggest' "$T/doc"; }
pd_kernel_yes "S3" alice
finish
