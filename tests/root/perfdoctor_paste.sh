#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# perfdoctor's fix lines are meant to be pasted into a shell, and the names
# in them are anyone's: nss_wrapper (like a directory service) allows a
# user or group called ";touch${IFS}INJECTED;#" or "$(touch INJECTED)", and
# perf may sit in a directory named so. For each such name the fix lines,
# pasted (lib.sh's paste_run: recorders instead of commands), run exactly
# the commands they show, each name arriving as one argument, and nothing
# else runs (paste_clean: no INJECTED, no complaint from sh). Pasted for
# real in the private world (perf_world.sh's perfdoctor_world), they then
# make perfdoctor answer YES. A capability.conf line is suggested only for
# a name capability.conf can hold; a name no terminal shows as it is gets
# no command at all, and the reason, escaped.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
private_etc
init
. "$TESTS_DIR/tools/perf_world.sh"
require_pam_driver
perfdoctor_world

# A user of the world, not in perf_users: add_user NAME UID.
add_user() {
	printf '%s:x:%s:%s::/tmp:/bin/sh\n' "$1" "$2" "$2" >>"$ROOT/etc/passwd"
	printf 'u%s:x:%s:\n' "$2" "$2" >>"$ROOT/etc/group"
}
# pasted LABEL LINES: the fix lines, pasted, ran exactly LINES (paste_run's
# form: "cmd <arg> <arg>"), nothing else; and printf's appends (a builtin
# of sh, which no recorder sees) wrote only what the lines say.
pasted() {
	pd_fixes >"$T/paste.in"
	paste_run "$T/paste.in"
	if printf '%s\n' "$2" | cmp -s - "$T/pasted"; then
		pass
	else
		fail "$1: pasted commands (- wanted, + ran)"
		printf '%s\n' "$2" | diff -u - "$T/pasted" | sed '1,2d; s/^/    /'
		sed 's/^/    | /' "$T/paste.in"
	fi
	paste_clean "$1"
}
# for_real LABEL USER PAM(yes|no): the same lines for real, from an
# empty directory: YES after them, no INJECTED anywhere, and the kernel
# agrees (a real login through the stack when PAM is yes).
for_real() {
	rm -rf "$T/real"
	mkdir "$T/real"
	(cd "$T/real" && pd_apply "$1") || return
	pd_now_yes "$1" --user="$2" "$PERF"
	[ -z "$(ls -A "$T/real")" ] && pass || fail "$1: the fixes made files: $(ls -A "$T/real")"
	[ ! -e "$T/INJECTED" ] && [ ! -e "$ROOT/INJECTED" ] && pass || fail "$1: INJECTED exists"
	if [ "$3" = yes ]; then pd_login_yes "$1" "$2"; else pd_kernel_yes "$1" "$2"; fi
}

semi=';touch${IFS}INJECTED;#'
subst='$(touch INJECTED)'

# A user name with ';' and '#': one argument to usermod, and (no blank in
# it) capability.conf can name it on a line of its own.
pd_world
add_user "$semi" 4020
pd_perf_file 0755 root root
pd_doctor --user="$semi" "$PERF"
pasted "user $semi, preset" "usermod <-aG> <perf_users> <$semi>
setcap <--perf-group=perf_users> <--perf> <$PERF>"
for_real "user $semi, preset" "$semi" no
pd_world
add_user "$semi" 4020
pd_perf_file 0755 root root cap_perfmon=ei
printf 'none *\n' >"$CONF"
pd_doctor --user="$semi" "$PERF"
pasted "user $semi, grant" "sed <-i> <1i cap_perfmon $semi> <$CONF>"
for_real "user $semi, grant" "$semi" yes

# "$(touch INJECTED)" has a blank: capability.conf would read two names,
# so no line is suggested (nor one for a group: perfdoctor_scope.sh); the
# preset names the user to usermod as one argument.
pd_world
add_user "$subst" 4021
pd_perf_file 0755 root root cap_perfmon=ei
printf 'none *\n' >"$CONF"
pd_doctor --user="$subst" "$PERF"
grep -qF "cap_perfmon $subst" "$T/doc" && fail "a line naming '$subst' was suggested" || pass
pd_fixes | grep -Eq '^(usermod|sed|setcap|groupadd|chown|chmod|printf) ' && fail "user $subst, grant: a command: $(pd_fixes)" || pass
pd_perf_file 0755 root root
pd_doctor --user="$subst" "$PERF"
pasted "user $subst, preset" "usermod <-aG> <perf_users> <$subst>
setcap <--perf-group=perf_users> <--perf> <$PERF>"
for_real "user $subst, preset" "$subst" no

# Quotes and a backquote; a backslash (sed reads escapes in its text, the
# terminal must see the command as it is: no \134).
pd_world
q="o'b\`touch\${IFS}INJECTED\`\\x"
add_user "$q" 4022
pd_perf_file 0755 root root cap_perfmon=ei
echo 'cap_sys_nice bob' >"$CONF"
pd_doctor --user="$q" "$PERF"
pd_fixes | sed 's/   # .*//' | grep -qF '\134' && { fail "a backslash was escaped in a command:"; grep '^fix' "$T/doc"; }
pasted "user $q, grant" "sed <-i> <\$a cap_perfmon o'b\`touch\${IFS}INJECTED\`\\\\x> <$CONF>"
for_real "user $q, grant" "$q" yes
grep -qxF "cap_perfmon $q" "$CONF" && pass || fail "the line for '$q' is not in capability.conf: $(cat "$CONF")"

# A name like an option: "--" before it.
pd_world
add_user "-rf" 4023
pd_perf_file 0755 root root
pd_doctor --user=-rf "$PERF"
pasted "user -rf" "usermod <-aG> <perf_users> <--> <-rf>
setcap <--perf-group=perf_users> <--perf> <$PERF>"
for_real "user -rf" -rf no

# A name with an escape character: no command for it, and the reason with
# the name escaped (the old line printed the ESC raw into a command).
pd_world
esc=$(printf 'a\033]0;x\007b')
add_user "$esc" 4024
pd_perf_file 0755 root root
pd_doctor --user="$esc" "$PERF"
pd_expect_fixes "user with ESC" "no command printed: the user name 'a\\033]0;x\\007b' holds characters a terminal would not show as they are"
grep -q "$(printf '\033')" "$T/doc" && fail "an ESC reached the output" || pass

# perf in directories named to inject: one argument to setcap.
for dir in "$semi" "$subst dir"; do
	pd_world
	mkdir -p "$ROOT/opt/$dir"
	chmod 755 "$ROOT/opt" "$ROOT/opt/$dir"
	rm -f "$PERF"
	cp "$BIN/perfprobe" "$ROOT/opt/$dir/perf"
	chmod 0755 "$ROOT/opt/$dir/perf"
	PERF=$ROOT/opt/$dir/perf
	pd_doctor --user=alice "$PERF"
	pasted "perf in '$dir'" "setcap <--perf-group=perf_users> <--perf> <$PERF>"
	for_real "perf in '$dir'" alice no
	PERF=$ROOT/usr/bin/perf
done

# A path too long for a fix line: no command, never one cut short (which
# would run on another file).
pd_world
long=$ROOT
for i in 1 2 3 4 5 6; do
	long=$long/$(printf '%0200d' "$i")
	mkdir "$long"
	chmod 755 "$long"
done
cp "$BIN/perfprobe" "$long/perf"
chmod 0755 "$long/perf"
pd_doctor --user=alice "$long/perf"
pd_expect_fixes "a path of ${#long} bytes" "no command printed: it would be longer than 1023 bytes"

# words_inert LABEL: the last doctor's fix lines, pasted, ran nothing and
# wrote nothing (sh only finds no command "only").
words_inert() {
	pd_fixes >"$T/paste.in"
	paste_run "$T/paste.in"
	if [ -s "$T/pasted" ] || [ -n "$(ls -A "$T/paste")" ] ||
		[ "$(cat "$T/paste.err")" != "/bin/sh: 1: only: not found" ]; then
		fail "$1: pasted, the words ran: $(cat "$T/pasted" "$T/paste.err")"
	else
		pass
	fi
}

# The binary's group named to inject: joining it is no command (it gives
# more than perf), and the words name it quoted: pasted by mistake, the
# sentence runs nothing it names (sh only finds no command "only").
pd_world
printf 'g%s:x:4300:dave\n' "$semi" >>"$ROOT/etc/group"
pd_perf_file 0750 root 4300 cap_perfmon,cap_syslog=ep
pd_doctor --user=alice "$PERF"
pd_expect_fixes "group g$semi, join" "only members of group 'g$semi' may run it, and joining it gives alice all else that group may do: no command printed"
words_inert "group g$semi, join"
# A quote in the name too: the words quote it with '"'"', not '\'': they
# are printed escaped, where the backslash would come out as \134 and
# leave the $(...) outside the quotes, to run when pasted.
pd_world
printf "g'%s':x:4302:dave\\n" "$subst" >>"$ROOT/etc/group"
pd_perf_file 0750 root 4302 cap_perfmon,cap_syslog=ep
pd_doctor --user=alice "$PERF"
pd_expect_fixes "group g'$subst', join" "only members of group 'g'\"'\"'$subst'\"'\"'' may run it, and joining it gives alice all else that group may do: no command printed"
words_inert "group g'$subst', join"
pd_world
printf 'g %s:x:4301:dave\n' "$subst" >>"$ROOT/etc/group"
pd_perf_file 0750 root 4301
pd_doctor --user=dave "$PERF"
pasted "group 'g $subst', preset" "setcap <--perf-group=g $subst> <--perf> <$PERF>"
for_real "group 'g $subst', preset" dave no

# capability.conf in a directory named to inject (no blank or '#': pam_cap's
# config= can name it), world-writable.
pd_world
cdir="$ROOT/c;touch\${IFS}INJECTED"
mkdir "$cdir"
chmod 755 "$cdir"
CONF=$cdir/capability.conf
printf 'auth required pam_permit.so\nauth optional %s config=%s\n' "$OURS" "$CONF" >"$PAMD/login"
pd_perf_file 0755 root root cap_perfmon=ei
echo 'none *' >"$CONF"
chmod 0666 "$CONF"
pd_doctor --user=alice "$PERF"
pasted "capability.conf in '$cdir'" "chmod <0644> <$CONF>
sed <-i> <1i cap_perfmon alice> <$CONF>"
chmod 0666 "$CONF"
for_real "capability.conf in '$cdir'" alice yes
CONF=$ROOT/etc/security/capability.conf
finish
