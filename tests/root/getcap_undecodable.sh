#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# An audit never hides a capable file. On a crafted
# filesystem a security.capability value can be revision 1, or revision 2
# with undefined flag bits: getxattr(2) refuses to show it (EINVAL), yet
# the kernel honours it at exec. We build such an ext4 image with debugfs,
# mount it in a private mount namespace, prove the kernel grants the
# capability, and check that getcap's default output stays libcap's while
# --audit and --json report the file on stdout and exit 1.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
# Users and groups by name (nobody, nogroup) from the base accounts only.
private_etc "$@"
for t in debugfs mkfs.ext4 unshare python3; do
	command -v $t >/dev/null 2>&1 || skip "$t is not installed"
done
[ -e /dev/loop-control ] || skip "no loop devices (/dev/loop-control)"
getcap=$BUILD/progs/getcap
need_reference 2.66
ref=$REF/getcap
chmod 755 "$T"

# rev 2 + effective + undefined flag 0x2, P = cap_net_raw; rev 1, same.
printf '\003\000\000\002\000\040\000\000\000\000\000\000\000\000\000\000\000\000\000\000' >"$T/v2flags"
printf '\001\000\000\001\000\040\000\000\000\000\000\000' >"$T/v1"
name=$(printf 'rev1\033[2J')
truncate -s 16M "$T/img"
mkfs.ext4 -q -F "$T/img" || { fail "mkfs.ext4 failed"; finish; }
cp /bin/cat "$T/cat"
for cmd in "write $T/cat v2flags" "write $T/cat plain" "write $T/cat $name" \
	   "ea_set -f $T/v2flags /v2flags security.capability" \
	   "ea_set -f $T/v1 /$name security.capability" \
	   "sif /v2flags mode 0100755" "sif /$name mode 0100755" "sif /plain mode 0100755"; do
	debugfs -w -R "$cmd" "$T/img" >/dev/null 2>&1 || { fail "debugfs $cmd failed"; finish; }
done

# Everything below runs in a private mount namespace: the mount (and its
# loop device, autocleared) goes away with it.
cat >"$T/inner.sh" <<'INNER'
. "$TESTS_DIR/lib.sh"
init
m=$T/mnt
mkdir "$m"
if ! mount -o loop "$T/img" "$m" 2>"$T/mount.err"; then
	skip "cannot loop-mount an ext4 image: $(cat "$T/mount.err")"
fi
name=$(printf 'rev1\033[2J')

# The kernel grants cap_net_raw (bit 13) from both values at exec ...
for f in v2flags "$name"; do
	prm=$(as_nobody "$m/$f" /proc/self/status | awk '/^CapPrm:/ {print $2}')
	[ "$prm" = 0000000000002000 ] && pass || fail "exec of $f as nobody: CapPrm '$prm', want 0000000000002000 (test premise)"
done
# ... while getxattr(2) refuses to show them.
getfattr -n security.capability "$m/v2flags" >/dev/null 2>&1 && fail "getxattr shows the value (test premise)" || pass

# Default output: libcap's, byte for byte (stderr only), exit 0.
for args in "$m/v2flags" "$m/$name" "-r $m"; do
	# shellcheck disable=SC2086
	run_ours "$getcap" $args >"$T/o.out" 2>"$T/o.err"; orc=$?
	# shellcheck disable=SC2086
	"$ref" $args >"$T/r.out" 2>"$T/r.err"; rrc=$?
	sort "$T/o.err" >"$T/o.errs"; sort "$T/r.err" >"$T/r.errs"
	cmp -s "$T/o.out" "$T/r.out" && pass || fail "stdout differs from libcap for $args"
	cmp -s "$T/o.errs" "$T/r.errs" && pass || { fail "stderr differs from libcap for $args"; diff "$T/r.errs" "$T/o.errs"; }
	[ $orc -eq $rrc ] && pass || fail "exit $orc, libcap $rrc for $args"
done

# --audit: both files on stdout, escaped, with the unknown tier; exit 1.
run_ours "$getcap" -r --audit "$m" >"$T/audit" 2>"$T/err"; rc=$?
[ $rc -eq 1 ] && pass || fail "--audit exit $rc, want 1"
grep -qx "$m/v2flags (capabilities unknown: Invalid argument)" "$T/audit" && pass || fail "--audit: v2flags missing: $(cat "$T/audit")"
grep -qx "$m/rev1\\\\033\\[2J (capabilities unknown: Invalid argument)" "$T/audit" && pass || fail "--audit: rev1 missing or unescaped: $(od -c "$T/audit" | head)"
[ "$(grep -c '^  risk: unknown: security.capability is present' "$T/audit")" -eq 2 ] && pass || fail "--audit risk lines: $(cat "$T/audit")"
grep -q "$(printf '\033')" "$T/audit" "$T/err" && fail "--audit printed a raw ESC" || pass
grep -q plain "$T/audit" && fail "--audit reports a file without capabilities" || pass

# --json: one object each, tier unknown, errno EINVAL; exit 1.
run_ours "$getcap" --json "$m/v2flags" "$m/plain" >"$T/json" 2>/dev/null; rc=$?
[ $rc -eq 1 ] && pass || fail "--json exit $rc, want 1"
python3 - "$T/json" <<'PY' && pass || fail "--json: $(cat "$T/json")"
import json, sys
objs = [json.loads(l) for l in open(sys.argv[1])]
assert len(objs) == 1, objs
o = objs[0]
assert o["path"].endswith("/v2flags") and o["text"] is None, o
assert o["errno"] == 22 and o["risk"]["tier"] == "unknown", o
PY
# A file that reads fine keeps exit 0.
run_ours "$getcap" --json --audit "$m/plain" >/dev/null 2>&1 && pass || fail "--json on a plain file exit $?"
umount "$m"
finish
INNER
LIB_T=$T
export LIB_T getcap ref
unshare -m --propagation private sh "$T/inner.sh"
