#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# pam_cap.so's syslog lines quote what others wrote: the PAM user name
# (whatever was typed at a login prompt), capability.conf's tokens, group
# names. None of it reaches the log raw: a newline would forge a second
# line, an ESC sequence or a CR rewrite what a terminal shows, a bidi
# override reorder it. Each is logged as \ooo (common/escape.h), through
# pam_wrapper, which prints every pam_syslog() line on stderr
# ("SYSLOG(prio): ...").
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
. "$TESTS_DIR/tools/pam_world.sh"
require_pam_driver
PWDEBUG=2

k0='keepcaps=0'
esc=$(printf '\033')
cr=$(printf '\r')
rlo=$(printf '\342\200\256')	# U+202E RIGHT-TO-LEFT OVERRIDE

# no_raw WHAT: the last run's log holds no raw control or override, and
# no line that begins with the forged text.
no_raw() {
	if LC_ALL=C grep -q "$(printf '[\001-\010\013-\037\177]')" "$T/log" ||
	   grep -q "$rlo" "$T/log"; then
		fail "after case $cases ($1): a raw control reached the log:"
		cat -v "$T/log" | sed 's/^/    log: /'
	else
		pass
	fi
	if grep -q '^FORGED' "$T/log"; then
		fail "after case $cases ($1): a forged log line:"
		grep -n '^FORGED' "$T/log" | sed 's/^/    log: /'
	else
		pass
	fi
}

# A user name with a newline and the start of a log line of its own:
# unknown, so default= applies, and debug logs the name twice.
user="zed
FORGED pam_cap(sshd:auth): root granted cap_sys_admin"
t ours 'cap_kill alice\n' 'debug default=cap_bpf' "$user" 'setcred' "setcred=SUCCESS iab=39 $k0"
logged "SYSLOG(7): user 'zed\\012FORGED pam_cap(sshd:auth): root granted cap_sys_admin' unknown: no line can match"
logged "SYSLOG(7): using default='cap_bpf' for 'zed\\012FORGED pam_cap(sshd:auth): root granted cap_sys_admin'"
no_raw "newline in the user name"

# An ESC sequence and a bidi override in the user name.
t ours 'cap_kill alice\n' 'debug' "x${esc}[2J${esc}[Hy${rlo}z" 'auth' "auth=IGNORE iab= $k0"
logged "user 'x\\033[2J\\033[Hy\\342\\200\\256z' unknown"
no_raw "ESC and U+202E in the user name"

# A config token with ESC and CR: a rule holding a control character
# ends the decision (a name would hold it), logged at LOG_ERR; the line
# itself is never logged, the byte is named.
t ours "cap_kill${esc}]0;owned${esc}\\\\${cr} alice\n" '' alice 'setcred' "setcred=CRED_ERR iab= $k0"
logged "SYSLOG(3): $T/c3:1: control character 0x1b in line: a name would hold it; stopped here, nothing granted"
no_raw "ESC and CR in a config token"
# A bidi override is no control character: not capability text, and the
# token is logged escaped.
t ours "cap_kill${rlo}x alice\n" '' alice 'setcred' "setcred=IGNORE iab= $k0"
logged "SYSLOG(3): invalid capability text 'cap_kill\\342\\200\\256x': nothing granted"
no_raw "U+202E in a config token"

# A group token naming a group whose name holds a bidi override (the
# group file is the directory's: another admin's, or an LDAP server's).
# An ESC there ends the decision like any control character in a rule.
printf 'ev%sil:x:4400:alice\n' "$rlo" >>"$T/group"
t ours "cap_perfmon @ev${rlo}il\n" 'debug' alice 'setcred' "setcred=SUCCESS iab=38 $k0"
logged "matches 'alice' by group '@ev\\342\\200\\256il': 'cap_perfmon'"
no_raw "U+202E in a group name"

# The config path is the admin's, but escaped all the same.
cp "$T/c1" "$T/conf${cr}x"
t ours "@$T/conf${cr}x" "config=$T/conf${cr}x debug" alice 'setcred' "setcred=SUCCESS iab=5 $k0"
logged "$T/conf\\015x:1 matches 'alice' by user name 'alice': 'cap_kill'"
no_raw "CR in the config path"

echo "$cases cases"
finish "pam_cap: names, tokens and paths escaped in every log line"
