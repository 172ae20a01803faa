#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# capcheck's one piece of text to copy: for a "+name" token (a user name
# to pam_cap, never a group) it says "write '@name'". capability.conf has
# no quoting, so the text must be the group's name byte for byte: with
# hostile group names (shell metacharacters, quotes, a backslash, '#', a
# leading '@' or '-'), the token copied into a capability.conf line makes
# pam_cap's matcher (capcheck's own) pick exactly that group: its member
# gets the grant, a user outside it does not. A name a terminal would not
# show as it is gets no text to copy, and a line that says why. Users and
# groups come from nss_wrapper files, never from /etc.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
CC=$BUILD/progs/capcheck
[ -x "$CC" ] || { fail "capcheck is not built"; finish; }
need_nss_wrapper
shown() { cat -v "$1" | sed 's/\\/<backslash>/g'; }
label() { printf '%s' "$1" | sed 's/\\/<backslash>/g'; }

cat >"$T/names" <<'EOF'
x;touch${IFS}INJECTED;#
$(touch${IFS}INJECTED)
it's
back\slash
a\134b
#hash
@at
-dash
caf€
"dq"
EOF
printf 'root:x:0:0:root:/root:/bin/sh\nalice:x:4001:4001::/tmp:/bin/sh\nbob:x:4002:4002::/tmp:/bin/sh\n' >"$T/passwd"
{
	printf 'root:x:0:\nalice:x:4001:\nbob:x:4002:\n'
	gid=5000
	while IFS= read -r name; do
		printf '%s:x:%d:alice\n' "$name" $gid
		gid=$((gid + 1))
	done <"$T/names"
} >"$T/group"

# As another user, capcheck runs in a user namespace where our files are
# root's: pam_cap, and so capcheck, reads no file another user owns.
NS=
if [ "$(id -u)" -ne 0 ]; then
	unshare -Ur true 2>/dev/null || skip "needs root or unprivileged user namespaces"
	NS="unshare -Ur"
fi
# cc [--plain] ARGS...: capcheck in that world (--plain: not under valgrind).
cc() {
	vg=${VALGRIND_CMD:-}
	[ "$1" = --plain ] && { vg=; shift; }
	in_nss_world $NS $vg "$CC" "$@"
}

# The world is as meant: nss_wrapper gives alice each group by its name.
# (Outside valgrind: the loop below runs capcheck under it on these very
# '@name' lines, for alice, once the token is copied.)
while IFS= read -r name; do
	printf 'cap_kill @%s\n' "$name" >"$T/direct"
	cc --plain --config "$T/direct" alice >"$T/out" 2>&1
	grep -q '^alice: cap_kill ' "$T/out" ||
		skip "nss_wrapper does not give alice the group [$(label "$name")]: $(shown "$T/out")"
done <"$T/names"

while IFS= read -r name; do
	printf 'cap_kill +%s\n' "$name" >"$T/conf"
	cc --config "$T/conf" >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc -eq 1 ] && pass || fail "[+$(label "$name")]: exit $rc, want 1 (a warning)"
	# The text to copy is between "write '" and the line's last "'".
	sed -n "s/^capcheck: .*:1: warning: '.*' is a user name, not a group: write '\(.*\)'$/\1/p" \
		"$T/err" >"$T/token"
	if [ "$(grep -c '' "$T/token")" -ne 1 ]; then
		fail "[+$(label "$name")]: no text to copy: $(shown "$T/err")"
		continue
	fi
	# Copied into a line of its own: alice (in the group) gets the grant,
	# bob (in no such group) does not.
	printf 'cap_perfmon %s\n' "$(cat "$T/token")" >"$T/fixed"
	cc --config "$T/fixed" alice bob >"$T/out" 2>"$T/err"
	rc=$?
	if [ $rc -eq 0 ] && grep -q "^alice: cap_perfmon \[$T/fixed:1, group @" "$T/out" &&
	   grep -qx 'bob: no line matches: nothing granted' "$T/out" &&
	   [ ! -s "$T/err" ]; then
		pass
	else
		fail "[+$(label "$name")]: the copied text '$(shown "$T/token")' does not name the group: $(shown "$T/out") $(shown "$T/err")"
	fi
done <"$T/names"

# A plain name is printed as before.
printf 'cap_kill +perf_users\n' >"$T/conf"
cc --config "$T/conf" 2>"$T/err"
[ "$(cat "$T/err")" = "capcheck: $T/conf:1: warning: '+perf_users' is a user name, not a group: write '@perf_users'" ] && pass ||
	fail "plain name: $(shown "$T/err")"
# Names a terminal would not show as they are: nothing to copy, and why.
# (One with a control character stops pam_cap: capcheck_verdicts.sh.)
for esc in 'bad\377' 'bidi\342\200\256x'; do
	printf "cap_kill +$esc\\n" >"$T/conf"
	cc --config "$T/conf" 2>"$T/err"
	rc=$?
	if [ $rc -eq 1 ] && [ "$(cat "$T/err")" = "capcheck: $T/conf:1: warning: '+$esc' is a user name, not a group: a group is written '@' and its name, not shown here: it holds characters a terminal would not show as they are" ]; then
		pass
	else
		fail "unshowable name: $(shown "$T/err")"
	fi
done
finish "capcheck: the '@group' text to copy names the group byte for byte"
