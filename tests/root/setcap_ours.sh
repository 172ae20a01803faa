#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# Where our setcap deliberately differs from Debian's 2.66 (following
# libcap 2.76: -f, empty text, the effective check, --license), and the
# lines we add after libcap's messages: exact stdout, stderr and status.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
# Users and groups by name (nobody, nogroup) from the base accounts only.
private_etc "$@"
S=$BUILD/progs/setcap
[ -x "$S" ] || { fail "progs/setcap is not built"; finish; }
cd "$T" || exit 1

# Each case: expect_lines (lib.sh) on setcap under a time-out, as a FIFO
# must not hang it.

touch g f
E1='Error: under Linux, effective file capabilities must either be empty, or'
E2='       exactly match the union of selected permitted and inheritable bits.'

# --license names the program (2.76), not the option (2.66), and claims no
# copyright of libcap's author over code he did not write.
expect_lines 0 "$S see LICENSE file for details.
Copyright (c) 2026 the libcap-perfmon authors (an independent reimplementation of libcap's setcap)" "" timeout 10 "$S" --license

# Whitespace-only text is refused (2.76), and nothing is written.
expect_lines 1 "" "empty space is an invalid capability, did you mean -r?" timeout 10 "$S" " " g
expect_lines 1 "" "empty space is an invalid capability, did you mean -r?" timeout 10 "$S" "" g
[ -z "$(xattr_hex g)" ] && pass || { fail "empty text wrote $(xattr_hex g)"; }

# The effective check before writing (2.76); setcap_effective.sh has the
# rest of its cases.
expect_lines 1 "" "$E1
$E2
setcap: g: cap_kill: permitted or inheritable but not effective: a file has one effective flag, on for all its capabilities or for none" timeout 10 "$S" "cap_chown=ep cap_kill=p" g
expect_lines 1 "" "$E1
$E2
setcap: g: cap_kill: effective but neither permitted nor inheritable, so there is nothing to raise: add p (=ep), or leave e out" timeout 10 "$S" "cap_chown=ep cap_kill=e" g
[ -z "$(xattr_hex g)" ] && pass || { fail "refused E check wrote $(xattr_hex g)"; }
# -f: 2.76's lines become a warning, and E bits outside P|I are dropped
# by the library.
expect_lines 0 "" "$E1
$E2
setcap: g: written anyway (-f), without cap_kill: neither permitted nor inheritable, so never raised" timeout 10 "$S" -f "cap_chown=ep cap_kill=e" g
[ "$(xattr_hex g)" = 0x0100000201000000000000000000000000000000 ] && pass ||
	{ fail "-f wrote $(xattr_hex g)"; }
# A partial E that the walk does not catch fails in the library, and we
# say why.
expect_lines 1 "" "Invalid file 'g' for capability operation
setcap: g: the effective flags must be empty or include every permitted and inheritable capability (a file has one effective bit)" timeout 10 "$S" "cap_chown=p cap_kill=ep" g

# -r on nothing: fatal without -f, a message and on with -f.
setfattr -x security.capability g
NOCAP="File 'g' has no capablity to remove
setcap: g: has no security.capability attribute, so there is nothing to remove (-f makes this non-fatal)"
expect_lines 1 "" "$NOCAP" timeout 10 "$S" -r g
expect_lines 0 "" "$NOCAP" timeout 10 "$S" -f -r g cap_chown=p g
[ "$(xattr_hex g)" = 0x0000000201000000000000000000000000000000 ] && pass ||
	{ fail "-f -r did not go on to the next pair"; }

# Non-regular files, each named; a FIFO must not hang (timeout 10 above).
ln -s f link; mkdir d; mkfifo fifo; mknod null c 1 3
TAIL='only regular files carry file capabilities'
expect_lines 1 "" "Invalid file 'link' for capability operation
setcap: link: is a symbolic link: setcap never follows links, name the target file itself" timeout 10 "$S" cap_chown=p link
expect_lines 1 "" "Invalid file 'd' for capability operation
setcap: d: is a directory: $TAIL" timeout 10 "$S" cap_chown=p d
expect_lines 1 "" "Invalid file 'fifo' for capability operation
setcap: fifo: is a FIFO (named pipe): $TAIL" timeout 10 "$S" cap_chown=p fifo
expect_lines 1 "" "Invalid file 'null' for capability operation
setcap: null: is a character device: $TAIL" timeout 10 "$S" cap_chown=p null
[ -z "$(xattr_hex f)" ] && pass || { fail "the symlink's target got $(xattr_hex f)"; }

expect_lines 1 "" "Failed to set capabilities on file '/proc/version': Operation not supported
setcap: /proc/version: this filesystem does not support security.capability extended attributes" timeout 10 "$S" = /proc/version
expect_lines 1 "" "Failed to set capabilities on file 'nope': No such file or directory
setcap: nope: no such file: check the path" timeout 10 "$S" = nope
expect_lines 1 "" "Failed to set capabilities on file 'g/x': Not a directory
setcap: g/x: a component of the path is not a directory" timeout 10 "$S" = g/x
expect_lines 1 "" "Invalid file 'g' for capability operation
setcap: g: the kernel refused namespace root uid 4294967295 (not a uid mapped in this user namespace?)" timeout 10 "$S" -n 4294967295 = g

# Bad text: libcap 2.76's lines (its "argument:" line on stdout), then
# the clause and the name at fault.
USAGE=$("$S" -h 2>&1)
expect_lines 1 "argument: cap_chown=p cap_kil=p cap_kill=i" "fatal error: Invalid argument
$USAGE
setcap: bad capability text, clause 2 of 3 \"cap_kil=p\": unknown capability name \"cap_kil\"
setcap: unknown capability 'cap_kil'; did you mean cap_kill?" timeout 10 "$S" "cap_chown=p cap_kil=p cap_kill=i" g
expect_lines 1 "argument: cap_chown,cap_perfmonn=ep" "fatal error: Invalid argument
$USAGE
setcap: bad capability text, clause 1 of 1 \"cap_chown,cap_perfmonn=ep\": unknown capability name \"cap_perfmonn\"
setcap: unknown capability 'cap_perfmonn'; did you mean cap_perfmon?" timeout 10 "$S" "cap_chown,cap_perfmonn=ep" g
expect_lines 1 "argument: 99=p" "fatal error: Invalid argument
$USAGE
setcap: bad capability text, clause 1 of 1 \"99=p\": capability number \"99\" is out of range (0 to 63)" timeout 10 "$S" 99=p g
expect_lines 1 "argument: cap_chown" "fatal error: Invalid argument
$USAGE
setcap: bad capability text, clause 1 of 1 \"cap_chown\": no operator: write names=flags, names+flags or names-flags (flags e, i, p)" timeout 10 "$S" cap_chown g
expect_lines 1 "argument: cap_chown=x" "fatal error: Invalid argument
$USAGE
setcap: bad capability text, clause 1 of 1 \"cap_chown=x\": bad operator or flags after the names (operators =, +, -; flags e, i, p in lower case)" timeout 10 "$S" cap_chown=x g
expect_lines 1 "argument: cap_chown,,cap_kill=p" "fatal error: Invalid argument
$USAGE
setcap: bad capability text, clause 1 of 1 \"cap_chown,,cap_kill=p\": empty capability name (a stray comma?)" timeout 10 "$S" cap_chown,,cap_kill=p g

# Above the kernel's last capability: written, with a warning (not with
# -q, never for -v).
last=$(($(cat /proc/sys/kernel/cap_last_cap)))
if [ "$last" -eq 40 ]; then
	W="is above this kernel's last capability cap_checkpoint_restore (40); the kernel will ignore it at exec"
	# "capability 41", or "cap_<name> (41)" once private/caps.def names it.
	c41=$(sed -n 's/^CAP_FACT(41, *[A-Z0-9_]*, *\([a-z0-9_]*\),.*/cap_\1 (41)/p' \
		"$TOP/private/caps.def")
	c41=${c41:-capability 41}
	expect_lines 0 "" "setcap: warning: g: $c41 $W" timeout 10 "$S" 41=ep g
	[ "$(xattr_hex g)" = 0x0100000200000000000000000002000000000000 ] && pass ||
		{ fail "41=ep wrote $(xattr_hex g)"; }
	expect_lines 0 "" "setcap: warning: g: $c41 $W
setcap: warning: g: capability 63 $W" timeout 10 "$S" "cap_perfmon=p 41,63+p" g
	expect_lines 0 "" "" timeout 10 "$S" -q 41=ep g
	expect_lines 0 "g: OK" "" timeout 10 "$S" -v 41=ep g
else
	not_checked "cap_last_cap is $last, not 40: warning texts not checked"
fi

# Without CAP_SETFCAP (nobody): libcap's line and ours, once the library
# has the process functions setcap raises CAP_SETFCAP with.
chmod 755 "$T"; chmod 666 g
if nm -D --defined-only "$BUILD/libcap/libcap.so.2" | grep -q ' cap_set_proc$'; then
	out=$(as_nobody "$S" = g 2>&1); rc=$?
	want="unable to set CAP_SETFCAP effective capability: Operation not permitted
setcap: writing file capabilities needs CAP_SETFCAP in the permitted set: run setcap as root"
else
	out=$(as_nobody "$S" = g 2>&1); rc=$?
	want="Failed to set capabilities on file 'g': Operation not permitted
setcap: g: permission denied: writing file capabilities needs CAP_SETFCAP, and ownership of the file or CAP_FOWNER"
fi
[ "$rc" = 1 ] && [ "$out" = "$want" ] && pass || { fail "as nobody: $rc [$out]"; }

# An immutable or append-only file refuses root too: libcap's line, then
# ours naming the flag, not capabilities root already holds.
cp /bin/true imm && cp /bin/true app && pass || fail "copies for chattr"
at_exit "chattr -i '$T/imm'; chattr -a '$T/app'"
if chattr +i imm && chattr +a app; then
	for f in imm:immutable:i app:append-only:a; do
		n=${f%%:*} what=${f#*:}; what=${what%:*}; flag=${f##*:}
		out=$("$S" cap_net_raw=ep "$n" 2>&1); rc=$?
		want="Failed to set capabilities on file '$n': Operation not permitted
setcap: $n: permission denied: the file is $what (chattr -$flag lets it change)"
		[ "$rc" = 1 ] && [ "$out" = "$want" ] && pass || fail "$what file: $rc [$out]"
	done
	chattr -i imm && chattr -a app
else
	not_checked "the file system of $T keeps no immutable flag; not checked"
fi

# A non-root holder of CAP_SETFCAP may set caps on its own mode 0111 file,
# which it cannot open for reading: cap_set_file's O_PATH open needs no
# read permission.
cp /bin/true x && chown nobody x && chmod 0111 x
out=$(setpriv --reuid=nobody --regid=nogroup --clear-groups \
	--inh-caps=+setfcap --ambient-caps=+setfcap "$S" cap_perfmon=ep x 2>&1); rc=$?
[ "$rc" = 0 ] && [ -z "$out" ] && [ "$(xattr_hex x)" = 0x0100000200000000000000004000000000000000 ] && pass ||
	{ fail "nobody+CAP_SETFCAP on its 0111 file: $rc [$out] $(xattr_hex x)"; }

# Without /proc, cap_set_file reopens the path and insists on the same
# inode: writes, removal, symlink and FIFO refusals all still hold.
rm -f x; touch x; ln -sf x xlink
if nm "$S" 2>/dev/null | grep -q __asan_init; then
	# The sanitizers read their options and threads from /proc.
	not_checked "sanitizer build; /proc-less cases not run"
elif unshare -m sh -c 'mount -t tmpfs none /proc' 2>/dev/null; then
	out=$(unshare -m sh -c 'mount -t tmpfs none /proc &&
		"$0" cap_net_raw=ep x && echo set &&
		{ timeout 5 "$0" = fifo; echo "fifo $?"; } &&
		{ "$0" = xlink; echo "link $?"; } &&
		"$0" -v cap_net_raw=ep x' "$S" 2>&1)
	want="set
Invalid file 'fifo' for capability operation
setcap: fifo: is a FIFO (named pipe): $TAIL
fifo 1
Invalid file 'xlink' for capability operation
setcap: xlink: is a symbolic link: setcap never follows links, name the target file itself
link 1
x: OK"
	[ "$out" = "$want" ] && pass || { fail "without /proc:"; echo "$out"; }
else
	not_checked "no private mount namespace; /proc-less cases not run"
fi

finish "2.76 behaviours and our added lines exactly as specified"
