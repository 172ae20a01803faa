#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# pam_cap.so stops at what it cannot use: a line
# with a NUL byte, a line over 4095 bytes, a read error, a group it cannot
# tell the user is not in. Each ends the scan: nothing is granted, no later
# line decides instead, default= does not apply either, authenticate says
# AUTHINFO_UNAVAIL and setcred CRED_ERR, and LOG_ERR names file and line.
# Every case is the real module under pam_wrapper (pamcase), with the IAB
# the process ends up with; Debian's module's result is shown beside it.
# The users and groups are nss_wrapper files; tests/root/pam_cap_nss_files.sh
# runs the group cases through glibc's own files backend.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
. "$TESTS_DIR/tools/pam_world.sh"
require_pam_driver
PWDEBUG=2	# pam_wrapper prints pam_syslog() messages as "SYSLOG(prio): ..."

stop='auth=AUTHINFO_UNAVAIL setcred=CRED_ERR iab= keepcaps=0'
k0='keepcaps=0'
users=$(awk 'BEGIN { for (i = 1; i <= 600; i++) printf " user%d", i }')

# --- An unusable line ends the scan ---
# A scan that went on past them gave alice ^cap_sys_admin for both.
t ours 'none alice\0\n^cap_sys_admin *\n' '' alice 'auth setcred' "$stop"
logged "SYSLOG(3): $T/c$cases:1: NUL byte in line; stopped here, nothing granted"
deb "auth=SUCCESS setcred=SUCCESS iab= $k0"	# reads "none alice", up to the NUL
t ours "none alice$users\n^cap_sys_admin *\n" '' alice 'auth setcred' "$stop"
logged "SYSLOG(3): $T/c$cases:1: line longer than 4095 bytes; stopped here, nothing granted"
deb "auth=SUCCESS setcred=SUCCESS iab= $k0"	# its first 4095 bytes name alice
# The name past the limit: libcap reads it on the split-off tail.
t ours "none$users alice\n^cap_sys_admin *\n" '' alice 'auth setcred' "$stop"
# default= is one more rule after the line: it must not apply either.
t ours 'none alice\0\n' 'default=^cap_sys_admin' alice 'auth setcred' "$stop"
t ours "none alice$users\n" 'default=^cap_sys_admin' alice 'auth setcred' "$stop"
deb "auth=SUCCESS setcred=SUCCESS iab= $k0"
# Also when the line is a comment: libcap parses the tail of a long one.
t ours "#$(printf '%5000s' '')\n^cap_sys_admin alice\n" '' alice 'auth setcred' "$stop"
logged ":1: line longer than 4095 bytes; stopped here"
# A line before the broken one still decides: it was read whole.
t ours 'cap_perfmon alice\nnone bob\0\n^cap_sys_admin *\n' '' alice 'auth setcred' "auth=SUCCESS setcred=SUCCESS iab=38 $k0"
t ours 'cap_perfmon alice\nnone bob\0\n^cap_sys_admin *\n' '' bob 'auth setcred' "$stop"
# A read error on the first read: /proc/self/mem is a regular, non
# world-writable file whose offset 0 reads EIO. An earlier version read it
# as empty and applied default=, as Debian still does.
t ours @/proc/self/mem 'config=/proc/self/mem default=^cap_sys_admin' alice 'auth setcred' "$stop"
logged "SYSLOG(3): /proc/self/mem:1: read error: Input/output error; stopped here, nothing granted"
deb "auth=IGNORE setcred=SUCCESS iab=^21 $k0"
# Files pam_cap does not trust: no default= either (main applied it).
printf '^cap_sys_admin alice\n' >"$T/ww"; chmod 666 "$T/ww"
t ours "@$T/ww" "config=$T/ww default=^cap_sys_admin" alice 'auth setcred' "$stop"
logged "SYSLOG(3): $T/ww: world-writable: anyone could have rewritten it; nothing granted"
mkfifo "$T/fifo"
t ours "@$T/fifo" "config=$T/fifo default=^cap_sys_admin" alice 'auth setcred' "$stop"
logged "SYSLOG(3): $T/fifo: not a regular file; nothing granted"
# A missing file is no error: it has no lines, and default= applies.
t ours @/nonexistent 'config=/nonexistent default=cap_bpf' alice 'auth setcred' "auth=IGNORE setcred=SUCCESS iab=39 $k0"
deb "auth=IGNORE setcred=SUCCESS iab=39 $k0"

# --- Groups whose lookup needs a big buffer, or cannot be whole ---
# nss_wrapper grows its lists one entry at a time: under valgrind and ASan
# (whose realloc always copies) each lookup in these files takes minutes.
# These cases run without valgrind, and not in the sanitizer build, where
# nss_wrapper runs inside the ASan-built pamcase;
# tests/unit/check_capconf.c takes the same paths (buffers past 1 MiB, too
# many groups) in the valgrind and sanitizer passes.
big_groups() {
	vg=${VALGRIND_CMD:-}; VALGRIND_CMD=
	echo 'mal:x:4500:4500:Mal:/tmp:/bin/sh' >>"$T/passwd"
	echo 'mal:x:4500:' >>"$T/group"
	# A group record over 1 MiB (70,000 members, mal the last): main's lookup
	# gave up at 1 MiB and took mal for a non-member, so "*" decided.
	awk 'BEGIN { printf "deny:x:4700:"
		for (i = 1; i <= 70000; i++) printf "deny_member_%05d,", i; print "mal" }' >>"$T/group"
	[ "$(grep '^deny:' "$T/group" | wc -c)" -gt 1048576 ] || { fail "the deny group is too small to test"; finish; }
	t both 'none @deny\n^cap_sys_admin *\n' '' mal 'auth setcred' "auth=SUCCESS setcred=SUCCESS iab= $k0" '-I 4000000000 -M 4000000000'
	t both '!cap_sys_admin @deny\n^cap_sys_admin *\n' '' mal 'setcred' "setcred=SUCCESS iab=!21 $k0"
	t both 'none @deny\n^cap_sys_admin *\n' '' alice 'setcred' "setcred=SUCCESS iab=^21 $k0"

	# More groups than a login can hold: the list is not whole, so "@deny"
	# cannot be ruled out and the scan stops there (main: "out of memory", and
	# default= applied).
	cp "$T/group" "$T/group.small"
	awk 'BEGIN { for (i = 0; i < 65537; i++) printf "g%d:x:%d:mal\n", i, 100000 + i }' >>"$T/group"
	# deny2's entry does not name mal: with the list incomplete, that proves
	# nothing (a member can come from elsewhere than the entry's member list).
	echo 'deny2:x:4800:' >>"$T/group"
	echo 'deny3:x:4801:mal' >>"$T/group"
	t ours 'none @deny2\n^cap_sys_admin *\n' '' mal 'auth setcred' "$stop"
	logged "SYSLOG(3): $T/c$cases:1: cannot tell whether 'mal' is in '@deny2': 'mal' is in more than 65536 groups; stopped here, nothing granted"
	t ours 'none @deny2\n' 'default=^cap_sys_admin' mal 'auth setcred' "$stop"
	# Lines that do not need the missing groups still decide; so does the end
	# of a file with no "@group" line left that could name mal.
	t ours 'cap_perfmon alice\n' 'default=^cap_sys_admin' mal 'auth setcred' "auth=IGNORE setcred=SUCCESS iab=^21 $k0"
	t ours '^cap_perfmon mal\nnone @deny2\n' '' mal 'auth setcred' "auth=SUCCESS setcred=SUCCESS iab=^38 $k0"
	t ours 'cap_perfmon @mal\nnone @deny2\n' '' mal 'auth setcred' "auth=SUCCESS setcred=SUCCESS iab=38 $k0"
	t ours 'cap_perfmon @deny2 mal\n^cap_sys_admin *\n' '' mal 'auth setcred' "auth=SUCCESS setcred=SUCCESS iab=38 $k0"
	t ours 'cap_perfmon *\n' '' mal 'auth setcred' "auth=SUCCESS setcred=SUCCESS iab=38 $k0"
	# deny3's own entry names mal, but a login holds only the first 65536 of
	# mal's groups, so whether it holds deny3 is still unknown: a grant to
	# @deny3 would go to a login without it. Nothing decides.
	t ours 'none @deny3\n^cap_sys_admin *\n' '' mal 'auth setcred' "$stop"
	t ours '^cap_sys_admin @deny3\n' '' mal 'auth setcred' "$stop"
	logged "cannot tell whether 'mal' is in '@deny3': 'mal' is in more than 65536 groups; stopped here"
	cp "$T/group.small" "$T/group"
	VALGRIND_CMD=$vg
}
if is_sanitized; then
	not_checked "groups of 70,000 members and users in 65,537 groups: nss_wrapper's lookups take minutes under ASan (unit/check_capconf checks the same paths there)"
else
	big_groups
fi

echo "$cases cases"
finish
