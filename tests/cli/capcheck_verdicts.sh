#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# capcheck: per-user verdicts (what, from which line, why), every warning
# class, and the exit codes 0 (clean), 1 (warnings), 2 (usage/unreadable).
# A line that stops pam_cap's scan is reported as stopping it, with the
# module's verdict; hostile user names and config text come out escaped.
# Users and groups come from nss_wrapper files, never from /etc.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
. "$TESTS_DIR/tools/pam_world.sh"
CC=$BUILD/progs/capcheck
[ -x "$CC" ] || { fail "capcheck has not been built"; finish; }

# cc EXPECTED-RC ARGS...: runs capcheck; stdout in $T/out, stderr in $T/err.
# Under VALGRIND=1 it runs inside valgrind (as run_ours in lib.sh does).
# As another user, in pam_world.sh's user namespace ($NS), where our files
# are root's: pam_cap, and so capcheck, reads no file another user owns.
cc() {
	want=$1; shift
	cases=$((cases + 1))
	run env NSS_WRAPPER_PASSWD="$T/passwd" NSS_WRAPPER_GROUP="$T/group" \
		ASAN_OPTIONS=verify_asan_link_order=0 LD_PRELOAD="$NWRAP" $NS ${VALGRIND_CMD:-} "$CC" "$@"
	expect_rc "$want" "case $cases: capcheck $*" || sed 's/^/    /' "$T/out" "$T/err"
}

C=$T/conf
cat >"$C" <<'CONF'
# perf for the perf team; comment lines start with '#'
cap_perfmon	@perf_users
^cap_perfmon,!cap_sys_admin bob
cap_bogus carol
all root bin,daemon +bin #x
none nosuch
cap_kill
38,^39 *
cap_bpf bob @nogroup
CONF
printf 'cap_kill bob\0\n' >>"$C"
printf '#%04100d\n' 0 >>"$C"

STOPS="pam_cap stops reading here: users no earlier line names get nothing, not even default="
# Each grant is followed by the risk label of its riskiest capability.
RISK_PERFMON="  risk: kernel-read: cap_perfmon: observes every process and the kernel through perf_events; with cap_bpf it loads tracing programs that read kernel memory"
cc 1 --config "$C" alice bob carol root zed daemon
expect_out "alice: cap_perfmon [$C:2, group @perf_users]
$RISK_PERFMON
bob: !cap_sys_admin,^cap_perfmon [$C:3, user name bob]
$RISK_PERFMON
carol: cap_perfmon [$C:2, group @perf_users]
$RISK_PERFMON
root: all: capabilities left unchanged [$C:5, user name root]
zed: unknown user: nothing granted
daemon: cap_perfmon,^cap_bpf [$C:8, wildcard *]
$RISK_PERFMON$nl" "case $cases"
expect_err "capcheck: $C:4: warning: 'cap_bogus' is not valid IAB text: users it matches get nothing
capcheck: $C:5: warning: 'bin,daemon' is one user name, not a list: separate names with spaces
capcheck: $C:5: warning: '+bin' is a user name, not a group: write '@bin'
capcheck: $C:5: warning: '#x' is a user name: '#' starts a comment only at the start of a line
capcheck: $C:6: warning: unknown user 'nosuch': never matches
capcheck: $C:7: warning: no users listed: never matches
capcheck: $C:9: warning: never used: the '*' on line 8 matches everybody first: move this line above line 8
capcheck: $C:10: warning: NUL byte: $STOPS
capcheck: $C:11: warning: longer than 4095 bytes: $STOPS (libcap would split it into two lines)$nl" "case $cases"

# A clean file: no warnings, exit 0, also with no user to report on.
printf 'cap_perfmon @perf_users\nnone @devs\n' >"$T/good"
cc 0 -c "$T/good" alice bob dave nobody
expect_out "alice: cap_perfmon [$T/good:1, group @perf_users]
$RISK_PERFMON
bob: none: inheritable and ambient sets cleared [$T/good:2, group @devs]
dave: cap_perfmon [$T/good:1, group @perf_users]
$RISK_PERFMON
nobody: no line matches: nothing granted$nl" "case $cases"
expect_err "" "case $cases"
cc 0 --config="$T/good"
printf 'cap_perfmon @perf_team\n' >"$T/badgroup"
cc 1 -c "$T/badgroup"
expect_err "capcheck: $T/badgroup:1: warning: unknown group 'perf_team': never matches$nl" "case $cases"

# Debian's capability.conf ends with "none *": a grant appended below it
# (as the guide once said) is never reached, since the first matching
# line wins. capcheck says which line was meant for whom and where it
# must go; bob, whom no later line names, gets no such hint.
printf '# stock file\nnone  *\n\ncap_perfmon @perf_users\ncap_kill bob\n' >"$T/deb"
cc 1 -c "$T/deb" alice dave nobody
expect_out "alice: none: inheritable and ambient sets cleared [$T/deb:2, wildcard *]
  never reached: line 4 ('cap_perfmon', group @perf_users) is meant for alice, but the '*' on line 2 matches first: move line 4 above line 2
dave: none: inheritable and ambient sets cleared [$T/deb:2, wildcard *]
  never reached: line 4 ('cap_perfmon', group @perf_users) is meant for dave, but the '*' on line 2 matches first: move line 4 above line 2
nobody: none: inheritable and ambient sets cleared [$T/deb:2, wildcard *]$nl" "case $cases"
expect_err "capcheck: $T/deb:4: warning: never used: the '*' on line 2 matches everybody first: move this line above line 2
capcheck: $T/deb:5: warning: never used: the '*' on line 2 matches everybody first: move this line above line 2$nl" "case $cases"
# Moved above it (the guide's "sed -i 1i"), the grant decides: no warning.
printf 'cap_perfmon @perf_users\n# stock file\nnone  *\n' >"$T/deb"
cc 0 -c "$T/deb" alice bob
expect_out "alice: cap_perfmon [$T/deb:1, group @perf_users]
$RISK_PERFMON
bob: none: inheritable and ambient sets cleared [$T/deb:3, wildcard *]$nl" "case $cases"

# A malformed line that matches still decides, exactly as in the module.
printf 'cap_bogus alice\ncap_kill alice\n' >"$T/mal"
cc 1 -c "$T/mal" alice
expect_out "alice: nothing granted: 'cap_bogus' is not valid IAB text [$T/mal:1, user name alice]$nl" "case $cases"

# Files pam_cap will not use.
cp "$T/good" "$T/ww"; chmod 666 "$T/ww"
cc 1 -c "$T/ww" alice
expect_out "alice: nothing granted, not even default=: world-writable: anyone could have rewritten it [$T/ww]$nl" "case $cases"
expect_err "capcheck: $T/ww: world-writable: anyone could have rewritten it: pam_cap grants nothing from it, not even default=$nl" "case $cases"
cc 0 -c /dev/null alice
expect_out "alice: no line matches: nothing granted$nl" "case $cases"
cc 2 -c "$T/missing" alice
expect_err "capcheck: $T/missing: No such file or directory$nl" "case $cases"
cp "$BIN/pamcase" "$T/elf"
cc 1 -c "$T/elf" alice
# Its first line holds NUL bytes, and may run past 4095 bytes (builds differ).
grep -qxE "alice: nothing granted, not even default=: (NUL byte in line|line longer than 4095 bytes) \[$T/elf:1, pam_cap stops here\]" "$T/out" && pass || {
	fail "case $cases: binary file:"; sed 's/^/    /' "$T/out"; }
head -c 2000000 /dev/zero | tr '\0' a >"$T/huge"	# one 2 MB line, no newline
cc 1 -c "$T/huge" alice
expect_err "capcheck: $T/huge:1: warning: longer than 4095 bytes: $STOPS (libcap would split it into two lines)$nl" "case $cases"
head -c 262144 /dev/urandom >"$T/random"
cc 1 -c "$T/random" alice bob

# The example shipped with the module: one active line, no warnings.
cc 0 -c "$TOP/pam_cap/capability.conf" alice bob
expect_out "alice: cap_perfmon [$TOP/pam_cap/capability.conf:$(grep -n '^cap_perfmon' "$TOP/pam_cap/capability.conf" | cut -d: -f1), group @perf_users]
$RISK_PERFMON
bob: no line matches: nothing granted$nl" "case $cases"
[ "$(grep -cv '^[[:space:]]*\(#\|$\)' "$TOP/pam_cap/capability.conf")" -eq 1 ] && pass || {
	fail "the example has more than one active line"; }

# Usage errors.
cc 2 --bogus
cc 2 -c
cc 0 --help
expect_out "usage: capcheck [-h|--help] [-c|--config FILE] [--version] [USER...]$nl" "case $cases"

# The risk line names the riskiest grant: root-equivalent beats the rest.
printf 'cap_kill,cap_net_bind_service,cap_setuid,^cap_net_raw bob\ncap_net_bind_service alice\n' >"$T/risky"
cc 0 -c "$T/risky" bob alice
expect_out "bob: cap_kill,cap_setuid,cap_net_bind_service,^cap_net_raw [$T/risky:1, user name bob]
  risk: root-equivalent: cap_setuid: can switch to uid 0: root in one system call
alice: cap_net_bind_service [$T/risky:2, user name alice]
  risk: low: cap_net_bind_service: can bind ports below 1024$nl" "case $cases"

# --- Lines that stop pam_cap: the module's verdict ---
# A NUL byte in line 1: the module stops there, so must capcheck.
printf 'none alice\0\n^cap_sys_admin *\n' >"$T/nul"
cc 1 -c "$T/nul" alice bob
expect_out "alice: nothing granted, not even default=: NUL byte in line [$T/nul:1, pam_cap stops here]
bob: nothing granted, not even default=: NUL byte in line [$T/nul:1, pam_cap stops here]$nl" "case $cases"
expect_err "capcheck: $T/nul:1: warning: NUL byte: $STOPS
capcheck: $T/nul:2: warning: never used: pam_cap stops at line 1 first$nl" "case $cases"
{ printf 'cap_perfmon bob\nnone alice'
  awk 'BEGIN { for (i = 1; i <= 600; i++) printf " user%d", i }'
  printf '\n^cap_sys_admin *\n'; } >"$T/long"
cc 1 -c "$T/long" bob alice
expect_out "bob: cap_perfmon [$T/long:1, user name bob]
$RISK_PERFMON
alice: nothing granted, not even default=: line longer than 4095 bytes [$T/long:2, pam_cap stops here]$nl" "case $cases"
expect_err "capcheck: $T/long:2: warning: longer than 4095 bytes: $STOPS (libcap would split it into two lines)
capcheck: $T/long:3: warning: never used: pam_cap stops at line 2 first$nl" "case $cases"
# A read error (offset 0 of /proc/self/mem reads EIO): exit 2, verdict too.
cc 2 -c /proc/self/mem alice
expect_out "alice: nothing granted, not even default=: read error: Input/output error [/proc/self/mem:1, pam_cap stops here]$nl" "case $cases"
expect_err "capcheck: /proc/self/mem:1: read error: Input/output error$nl" "case $cases"
# A group list that cannot be had whole (more groups than a login can
# hold) leaves "@deny" undecided for mal (deny's own entry does not name
# mal: one that did would decide, list or no list). Not under valgrind or the
# sanitizers: nss_wrapper grows its group table one entry at a time, and
# their realloc always copies, so reading 65,537 groups takes minutes
# there (300 s under ASan) against well under a second here.
if [ -n "${SANITIZE:-}" ]; then
	echo "sanitizer pass: the 65,537-group case runs in the plain pass only"
else
cp "$T/passwd" "$T/passwd.orig"; cp "$T/group" "$T/group.orig"
echo 'mal:x:4500:4500:Mal:/tmp:/bin/sh' >>"$T/passwd"
awk 'BEGIN { print "mal:x:4500:"; print "deny:x:4700:"
	for (i = 0; i < 65537; i++) printf "g%d:x:%d:mal\n", i, 100000 + i }' >>"$T/group"
printf '^cap_perfmon bob\nnone @deny\n^cap_sys_admin *\n' >"$T/many"
vg=${VALGRIND_CMD:-}; VALGRIND_CMD=
cc 1 -c "$T/many" mal bob
VALGRIND_CMD=$vg
expect_out "mal: nothing granted, not even default=: cannot tell whether 'mal' is in '@deny': 'mal' is in more than 65536 groups [$T/many:2, pam_cap stops here]
bob: ^cap_perfmon [$T/many:1, user name bob]
$RISK_PERFMON$nl" "case $cases"
cp "$T/passwd.orig" "$T/passwd"; cp "$T/group.orig" "$T/group"
fi

# --- Hostile text is escaped ---
# Every control character, the backslash and bidi controls come out as
# \ooo, so no line can be forged, hidden or recoloured.
RISK_KILL="  risk: escalation-adjacent: cap_kill: can signal any process, including daemons that guard the system"
# A user named with an ESC sequence: the argument is escaped; a line
# naming it holds a control character, which pam_cap does not read (what a
# terminal shows of it is not what pam_cap would match), so it stops there.
printf 'eve\033[8m:x:4010:4010::/tmp:/bin/sh\n' >>"$T/passwd"
printf 'cap_kill eve\033[8m\n' >"$T/esc"
cc 1 -c "$T/esc" "$(printf 'eve\033[8m')"
expect_out "eve\\033[8m: nothing granted, not even default=: control character 0x1b in line: a name would hold it [$T/esc:1, pam_cap stops here]$nl" "case $cases"
expect_err "capcheck: $T/esc:1: warning: control character 0x1b: pam_cap stops reading here: users no earlier line names get nothing, not even default= (libcap would read it as part of a name)$nl" "case $cases"
# User arguments: a CR that would hide the verdict, a newline that would
# forge a second one.
cc 1 -c "$T/good" "$(printf 'alice\r')" "$(printf 'x\nalice: cap_sys_admin [forged]')"
expect_out "alice\\015: unknown user: nothing granted
x\\012alice: cap_sys_admin [forged]: unknown user: nothing granted$nl" "case $cases"
# Config tokens: CR, ESC, BEL (each stops pam_cap, and is named by its
# number), a backslash, a right-to-left override; valid UTF-8 text passes.
printf 'cap_perfmon alice\r\n\033]0;pwned\007 bob\ncap_kill a\\b caf\303\251 \342\200\256x\n' >"$T/hostile"
cc 1 -c "$T/hostile" bob
expect_out "bob: nothing granted, not even default=: control character 0x0d in line (CR: a file with DOS line ends?): a name would hold it [$T/hostile:1, pam_cap stops here]$nl" "case $cases"
expect_err "capcheck: $T/hostile:1: warning: control character 0x0d (CR: DOS line ends?): pam_cap stops reading here: users no earlier line names get nothing, not even default= (libcap would read it as part of a name)
capcheck: $T/hostile:2: warning: control character 0x1b: pam_cap stops reading here: users no earlier line names get nothing, not even default= (libcap would read it as part of a name)
capcheck: $T/hostile:3: warning: never used: pam_cap stops at line 1 first
capcheck: $T/hostile:3: warning: unknown user 'a\\134b': never matches
capcheck: $T/hostile:3: warning: unknown user 'café': never matches
capcheck: $T/hostile:3: warning: unknown user '\\342\\200\\256x': never matches$nl" "case $cases"
# The config's own name, in warnings and verdicts.
forged=$(printf '%s\nforged' "$T/x")
printf 'cap_kill nosuch\n' >"$forged"
cc 1 -c "$forged" alice
expect_out "alice: no line matches: nothing granted$nl" "case $cases"
expect_err "capcheck: $T/x\\012forged:1: warning: unknown user 'nosuch': never matches$nl" "case $cases"
cc 2 -c "$(printf '%s\033[2J' "$T/none")" alice
expect_err "capcheck: $T/none\\033[2J: No such file or directory$nl" "case $cases"

# No argument at all: what capcheck needs, not a silent check of the
# default file (--config FILE alone still checks FILE, above).
cc 2
expect_out "" "case $cases"
expect_err "usage: capcheck [-h|--help] [-c|--config FILE] [--version] [USER...]
capcheck: name a USER to see what pam_cap grants them, or give --config FILE to check FILE alone$nl" "case $cases"

# A group written without '@' (pam_cap reads it as a user name since the
# CVE-2025-1390 fix) gets the fix when a group of that name exists; a
# capability list cut by a trailing comma (both modules grant what comes
# before it: tests/cli/pam_cap_conf_hints.sh) gets what is granted, and
# the joined list when the next word is capability text.
printf 'cap_perfmon perf_users\ncap_perfmon, cap_bpf @perf_users\ncap_kill, bob\n' >"$T/noat"
cc 1 -c "$T/noat" alice
expect_out "alice: cap_perfmon [$T/noat:2, group @perf_users]
$RISK_PERFMON$nl" "case $cases"
expect_err "capcheck: $T/noat:1: warning: unknown user 'perf_users': never matches; there is a group 'perf_users': did you mean '@perf_users'?
capcheck: $T/noat:2: warning: 'cap_perfmon,' ends in a comma: pam_cap grants 'cap_perfmon' and reads 'cap_bpf' as a user; for both, write 'cap_perfmon,cap_bpf'
capcheck: $T/noat:2: warning: unknown user 'cap_bpf': never matches
capcheck: $T/noat:3: warning: 'cap_kill,' ends in a comma: pam_cap grants 'cap_kill' and reads the next word as a user$nl" "case $cases"
# A group name a terminal would not show as it is: no text to copy. (A
# bidi override: a control character would end pam_cap's reading at the
# line, which capcheck says instead.)
printf 'perf\342\200\256x:x:4300:alice\n' >>"$T/group"
printf 'cap_perfmon perf\342\200\256x\n' >"$T/noat2"
cc 1 -c "$T/noat2"
expect_err "capcheck: $T/noat2:1: warning: unknown user 'perf\\342\\200\\256x': never matches; a group of that name exists, which is written '@' and its name (not shown here: it holds characters a terminal would not show as they are)$nl" "case $cases"

echo "$cases capcheck runs"
finish
