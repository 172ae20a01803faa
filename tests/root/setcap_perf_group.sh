#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# setcap --perf-group restricts perf to the group for
# real. A binary whose POSIX ACL lets bob (not in perf_users) execute it
# must, after "--perf-group=perf_users --perf", refuse bob at exec while a
# member opens the CPU-wide event; a file not owned by root is refused (its
# owner could open it again); every misuse of --perf-group is an error
# that changes nothing. Users and groups are nss_wrapper's (perf_world.sh).
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
. "$TESTS_DIR/tools/perf_world.sh"
setcap=$BUILD/progs/setcap
# An access ACL (acl(5) xattr format, version 2): owner rwx, user 4002
# (bob) r-x, group r-x, mask r-x, others nothing.
ACL_BOB=0x0200000001000700ffffffff02000500a20f000004000500ffffffff10000500ffffffff20000000ffffffff
caps() { /usr/sbin/getcap "$1" | sed 's/^[^ ]* //'; }

f=$T/perf
cp "$BIN/perfprobe" "$f"
chmod 0750 "$f"
setfattr -n system.posix_acl_access -v "$ACL_BOB" "$f" ||
	skip "this filesystem ($T) has no POSIX ACLs"
# The set-up means something: the ACL lets bob execute the 0750 file.
probe_as 4002 4002 4002 "$f"
[ $? -ne 126 ] && pass || fail "set-up: the ACL does not let bob execute the file"

ours "$setcap" --perf-group=perf_users --perf "$f" >"$T/out" 2>"$T/err"
rc=$?
[ $rc -eq 0 ] && pass || fail "--perf-group=perf_users --perf exited $rc: $(cat "$T/err")"
grep -q "removed its ACL, which also let user:bob:r-x run it" "$T/err" && pass ||
	fail "no word about the removed ACL: $(cat "$T/err")"
[ "$(cat "$T/out")" = "$f: OK" ] && pass || fail "stdout: $(cat "$T/out")"
getfattr -n system.posix_acl_access "$f" >/dev/null 2>&1 && fail "the ACL is still there" || pass
[ "$(stat -c '%a %u %g' "$f")" = "750 0 4100" ] && pass || fail "mode/owner: $(stat -c '%a %u %g' "$f")"
probe_as 4002 4002 4002 "$f"; rc=$?
if [ $rc -eq 126 ]; then ok "bob (outside perf_users) cannot execute it"
else fail "bob ran it (exit $rc): $(cat "$T/probe.out")"; fi
probe_as 4001 4001 4001,4100 "$f"; rc=$?
if [ $rc -eq 0 ]; then ok "alice (in perf_users) opens the CPU-wide event"
else fail "alice's probe exited $rc: $(cat "$T/probe.out")"; fi
# -v with the group checks the restriction as well as the capabilities.
ours "$setcap" -v --perf-group=perf_users --perf "$f" >"$T/out" 2>&1 && pass ||
	fail "-v on the restricted file: $(cat "$T/out")"

# A file not owned by root: refused, nothing changed (not even the group).
g=$T/owned
cp "$BIN/perfprobe" "$g"
chown 4001:4001 "$g"
chmod 0755 "$g"
ours "$setcap" --perf-group=perf_users --perf "$g" 2>"$T/err"; rc=$?
[ $rc -eq 1 ] && pass || fail "non-root owner: exit $rc"
grep -q "owned by uid 4001 (alice), not root" "$T/err" && pass || fail "message: $(cat "$T/err")"
[ -z "$(caps "$g")" ] && pass || fail "non-root owner: capabilities written"
[ "$(stat -c '%a %u %g' "$g")" = "755 4001 4001" ] && pass || fail "non-root owner: file changed"

# Misuse: an error (exit 1, a message) and no file touched.
h=$T/plain
cp "$BIN/perfprobe" "$h"
misuse() {	# WANT-IN-MESSAGE ARGS...
	want=$1
	shift
	ours "$setcap" "$@" >"$T/out" 2>"$T/err"; rc=$?
	if [ $rc -ne 1 ]; then fail "setcap $*: exit $rc, want 1"
	elif ! grep -qF -- "$want" "$T/err"; then fail "setcap $*: message: $(cat "$T/err")"
	elif [ -n "$(caps "$h")" ] || [ "$(stat -c '%a %g' "$h")" != "755 0" ]; then
		fail "setcap $*: the file changed"
	else ok "setcap $*: refused"; fi
}
misuse "applies to the --perf files that follow it, and none does" \
	--perf-group=perf_users cap_perfmon=ep "$h"
misuse "must come before every --perf it applies to" \
	--perf "$h" --perf-group=perf_users
misuse "must come before every --perf it applies to" \
	--perf "$h" --perf-group=perf_users --perf "$h"
misuse "--perf-group given twice ('perf_users', then 'devs')" \
	--perf-group=perf_users --perf-group=devs --perf "$h"
misuse "no group named 'no_such_group'" --perf-group=no_such_group --perf "$h"
misuse "no group named ''" --perf-group= --perf "$h"
misuse "--perf-group needs a group" --perf-group --perf "$h"
misuse "not restricted to group perf_users: group 0 mode 0755" \
	-v --perf-group=perf_users --perf "$h"
# A symbolic link is refused without following it.
ln -s "$h" "$T/link"
misuse "not a regular file but a symbolic link" --perf-group=perf_users --perf "$T/link"
# A file named like the option, in a pair, is a file, not the option.
cp "$BIN/perfprobe" "$T/--perf-group=x"
(cd "$T" && ours "$setcap" cap_perfmon=ep --perf-group=x) 2>"$T/err" && pass ||
	fail "a file named --perf-group=x was taken for the option: $(cat "$T/err")"
[ "$(caps "$T/--perf-group=x")" = "cap_perfmon=ep" ] && pass || fail "--perf-group=x file: $(caps "$T/--perf-group=x")"
finish
