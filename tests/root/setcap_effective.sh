#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# setcap and the effective flag. A file has one
# effective bit, so E must be empty or equal P | I. libcap 2.76 checks
# before writing: it walks the capabilities in order, stops at the first
# whose E differs from P | I, and refuses (nothing written, exit 1) if an E
# bit came up to and including that one, printing
#   Error: under Linux, effective file capabilities must either be empty, or
#          exactly match the union of selected permitted and inheritable bits.
# whatever -q says. With -f the same two lines are a warning and the write
# goes on (the library drops E bits outside P | I). A set whose first
# mismatch is a P | I bit without E gets no such lines and fails in
# cap_set_file (EINVAL, "Invalid file"), with or without -f. -r and -v are
# not checked. CAP_SETFCAP is raised before the check, so a caller
# without it hears about that first. We used to let "cap_net_raw+e" and
# "cap_chown=ep cap_chown-p" through (the bit at the mismatch did not
# count) and -f was silent. Debian's 2.66 writes all of these; see the "!"
# rows of setcap_diff.sh.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
S=$BUILD/progs/setcap
[ -x "$S" ] || { fail "progs/setcap is not built"; finish; }
command -v getfattr >/dev/null && command -v setfattr >/dev/null ||
	skip "getfattr/setfattr (attr) are not installed"
cd "$T" || exit 1

E1='Error: under Linux, effective file capabilities must either be empty, or'
E2='       exactly match the union of selected permitted and inheritable bits.'
ERR="$E1
$E2"
# Our lines after 2.76's, one per kind of fault.
extra() { echo "setcap: $1: $2: effective but neither permitted nor inheritable, so there is nothing to raise: add p (=ep), or leave e out"; }
missing() { echo "setcap: $1: $2: permitted or inheritable but not effective: a file has one effective flag, on for all its capabilities or for none"; }
forced() { echo "setcap: $1: written anyway (-f), without $2: neither permitted nor inheritable, so never raised"; }
INVALID="Invalid file 'f' for capability operation
setcap: f: the effective flags must be empty or include every permitted and inheritable capability (a file has one effective bit)"


# on_fresh_f RC ERR XATTR -- ARGS...: setcap ARGS on a fresh f without
# capabilities: exit status RC, nothing on stdout, the lines ERR on stderr
# (expect_lines), then f's xattr XATTR ("" for none).
on_fresh_f() {
	want_rc=$1 want_err=$2 want_x=$3; shift 4
	rm -f f; touch f
	expect_lines "$want_rc" "" "$want_err" run_ours "$S" "$@"
	got_x=$(xattr_hex f)
	if [ "$got_x" = "$want_x" ]; then pass; else fail "setcap $*: xattr [$got_x], want [$want_x]"; fi
}

# Refused: nothing written, exit 1.
on_fresh_f 1 "$ERR
$(extra f cap_net_raw)" "" -- cap_net_raw+e f
on_fresh_f 1 "$ERR
$(extra f cap_chown)" "" -- "cap_chown=ep cap_chown-p" f
on_fresh_f 1 "$ERR
$(extra f cap_kill)" "" -- "cap_chown=ep cap_kill=e" f
on_fresh_f 1 "$ERR
$(missing f cap_setuid)" "" -- "cap_chown=ei cap_setuid=p" f
on_fresh_f 1 "$ERR
$(extra f cap_kill)
$(missing f cap_setuid)" "" -- "cap_chown=ep cap_kill=e cap_setuid=p" f
on_fresh_f 1 "$ERR
$(extra f 63)" "" -- 63+e f
# "=e": every capability effective, none granted; the list is cut.
all=$(($(cat /proc/sys/kernel/cap_last_cap) + 1))
[ "$all" -eq 41 ] && on_fresh_f 1 "$ERR
$(extra f "cap_chown,cap_dac_override,cap_dac_read_search,cap_fowner and 37 more")" "" -- =e f
# -q silences neither 2.76's lines nor, on a refusal, ours.
on_fresh_f 1 "$ERR
$(extra f cap_net_raw)" "" -- -q cap_net_raw+e f
# A namespaced capability is checked the same way.
on_fresh_f 1 "$ERR
$(extra f cap_net_raw)" "" -- -n 1000 cap_net_raw+e f
# From stdin too.
rm -f f; touch f
printf 'cap_net_raw+e\n' | run_ours "$S" -q - f >out 2>err; rc=$?
[ "$rc" = 1 ] && [ ! -s out ] && [ "$(cat err)" = "$ERR
$(extra f cap_net_raw)" ] && [ -z "$(xattr_hex f)" ] && pass ||
	{ fail "stdin cap_net_raw+e: $rc [$(cat err)] [$(xattr_hex f)]"; }

# The walk's first mismatch is a P | I bit without E: no lines from the
# check; cap_set_file refuses, -f or not.
on_fresh_f 1 "$INVALID" "" -- "cap_chown=p cap_setuid+ei" f
on_fresh_f 1 "$INVALID" "" -- -f "cap_chown=p cap_setuid+ei" f
# -f cannot write what the library refuses either.
on_fresh_f 1 "$ERR
$(missing f cap_setuid)
$INVALID" "" -- -f "cap_chown=ei cap_setuid=p" f

# -f: written with 2.76's lines as a warning; E outside P | I is dropped.
V2E=0x0100000200000000000000000000000000000000
on_fresh_f 0 "$ERR
$(forced f cap_net_raw)" $V2E -- -f cap_net_raw+e f
on_fresh_f 0 "$ERR
$(forced f cap_chown)" $V2E -- -f "cap_chown=ep cap_chown-p" f
on_fresh_f 0 "$ERR
$(forced f cap_kill)" 0x0100000201000000000000000000000000000000 -- -f "cap_chown=ep cap_kill=e" f
on_fresh_f 0 "$ERR" $V2E -- -q -f cap_net_raw+e f
# A dropped E bit is not stored, so no "above this kernel" warning for it.
on_fresh_f 0 "$ERR
$(forced f 63)" $V2E -- -f 63+e f
on_fresh_f 0 "$ERR
$(forced f cap_net_raw)" 0x0100000300000000000000000000000000000000e8030000 -- -f -n 1000 cap_net_raw+e f

# Sets that are fine: no lines at all.
on_fresh_f 0 "" 0x0100000200200000000000000000000000000000 -- cap_net_raw=ep f
on_fresh_f 0 "" 0x0000000200200000000000000000000000000000 -- cap_net_raw=p f
on_fresh_f 0 "" 0x0100000201000000010000000000000000000000 -- "cap_chown=eip" f
on_fresh_f 0 "" 0x0000000200000000000000000000000000000000 -- = f

# -v compares and never checks: E alone differs from a file without caps.
rm -f f; touch f
run_ours "$S" -v cap_net_raw+e f >out 2>err; rc=$?
[ "$rc" = 1 ] && [ "$(cat out)" = "f differs in [e]" ] && [ ! -s err ] && pass ||
	{ fail "-v cap_net_raw+e: $rc [$(cat out)] [$(cat err)]"; }

# Left to right: the pair before the refusal is done (-r is not checked),
# the one after is not.
rm -f f g h; touch f g h
setfattr -n security.capability -v $V2E f
setfattr -n security.capability -v $V2E h
run_ours "$S" -r f cap_net_raw+e g -r h >out 2>err; rc=$?
[ "$rc" = 1 ] && [ "$(cat err)" = "$ERR
$(extra g cap_net_raw)" ] && [ -z "$(xattr_hex f)" ] && [ -z "$(xattr_hex g)" ] &&
	[ "$(xattr_hex h)" = $V2E ] && pass ||
	{ fail "-r f, refused g, -r h: $rc [$(cat err)] f[$(xattr_hex f)] g[$(xattr_hex g)] h[$(xattr_hex h)]"; }

# Without CAP_SETFCAP, that is the error (2.76 raises it first), for the
# sets the check refuses as for the others.
rm -f f; touch f; chmod 666 f; chmod 755 "$T"
for caps in cap_net_raw+e "cap_chown=ep cap_kill=p"; do
	out=$(setpriv --reuid=nobody --regid=nogroup --clear-groups \
		"$S" "$caps" f 2>&1); rc=$?
	[ "$rc" = 1 ] && [ "$out" = "unable to set CAP_SETFCAP effective capability: Operation not permitted
setcap: writing file capabilities needs CAP_SETFCAP in the permitted set: run setcap as root" ] && pass ||
		{ fail "as nobody, $caps: $rc [$out]"; }
done

finish "effective-flag cases as libcap 2.76"
