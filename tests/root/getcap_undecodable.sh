#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# Issue 12, item 13: an audit never hides a capable file. On a crafted
# filesystem a security.capability value can be revision 1, or revision 2
# with undefined flag bits: getxattr(2) refuses to show it (EINVAL), yet
# the kernel honours it at exec. We build such an ext4 image with debugfs,
# mount it in a private mount namespace, prove the kernel grants the
# capability, and check that getcap's default output stays libcap's while
# --audit and --json report the file on stdout and exit 1.
set -u
. "$TESTS_DIR/lib.sh"
# Users and groups by name (nobody, nogroup) from the base accounts only.
private_etc "$@"
for t in debugfs mkfs.ext4 unshare python3; do
	command -v $t >/dev/null 2>&1 || { echo "skipped: $t is not installed"; exit 77; }
done
[ -e /dev/loop-control ] || { echo "skipped: no loop devices (/dev/loop-control)"; exit 77; }
getcap=$BUILD/progs/getcap ref=/usr/sbin/getcap
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"

# rev 2 + effective + undefined flag 0x2, P = cap_net_raw; rev 1, same.
printf '\003\000\000\002\000\040\000\000\000\000\000\000\000\000\000\000\000\000\000\000' >"$tmp/v2flags"
printf '\001\000\000\001\000\040\000\000\000\000\000\000' >"$tmp/v1"
name=$(printf 'rev1\033[2J')
truncate -s 16M "$tmp/img"
mkfs.ext4 -q -F "$tmp/img" || { echo "mkfs.ext4 failed"; exit 1; }
cp /bin/cat "$tmp/cat"
for cmd in "write $tmp/cat v2flags" "write $tmp/cat plain" "write $tmp/cat $name" \
	   "ea_set -f $tmp/v2flags /v2flags security.capability" \
	   "ea_set -f $tmp/v1 /$name security.capability" \
	   "sif /v2flags mode 0100755" "sif /$name mode 0100755" "sif /plain mode 0100755"; do
	debugfs -w -R "$cmd" "$tmp/img" >/dev/null 2>&1 || { echo "debugfs $cmd failed"; exit 1; }
done

# Everything below runs in a private mount namespace: the mount (and its
# loop device, autocleared) goes away with it.
cat >"$tmp/inner.sh" <<'INNER'
set -u
. "$TESTS_DIR/lib.sh"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
m=$tmp/mnt
mkdir "$m"
if ! mount -o loop "$tmp/img" "$m" 2>"$tmp/mount.err"; then
	echo "skipped: cannot loop-mount an ext4 image: $(cat "$tmp/mount.err")"
	exit 77
fi
name=$(printf 'rev1\033[2J')

# The kernel grants cap_net_raw (bit 13) from both values at exec ...
for f in v2flags "$name"; do
	prm=$(setpriv --reuid=nobody --regid=nogroup --clear-groups "$m/$f" /proc/self/status | awk '/^CapPrm:/ {print $2}')
	[ "$prm" = 0000000000002000 ] || fail "exec of $f as nobody: CapPrm '$prm', want 0000000000002000 (test premise)"
done
# ... while getxattr(2) refuses to show them.
getfattr -n security.capability "$m/v2flags" >/dev/null 2>&1 && fail "getxattr shows the value (test premise)"

# Default output: libcap's, byte for byte (stderr only), exit 0.
for args in "$m/v2flags" "$m/$name" "-r $m"; do
	# shellcheck disable=SC2086
	run_ours "$getcap" $args >"$tmp/o.out" 2>"$tmp/o.err"; orc=$?
	# shellcheck disable=SC2086
	"$ref" $args >"$tmp/r.out" 2>"$tmp/r.err"; rrc=$?
	sort "$tmp/o.err" >"$tmp/o.errs"; sort "$tmp/r.err" >"$tmp/r.errs"
	cmp -s "$tmp/o.out" "$tmp/r.out" || fail "stdout differs from libcap for $args"
	cmp -s "$tmp/o.errs" "$tmp/r.errs" || { fail "stderr differs from libcap for $args"; diff "$tmp/r.errs" "$tmp/o.errs"; }
	[ $orc -eq $rrc ] || fail "exit $orc, libcap $rrc for $args"
done

# --audit: both files on stdout, escaped, with the unknown tier; exit 1.
run_ours "$getcap" -r --audit "$m" >"$tmp/audit" 2>"$tmp/err"; rc=$?
[ $rc -eq 1 ] || fail "--audit exit $rc, want 1"
grep -qx "$m/v2flags (capabilities unknown: Invalid argument)" "$tmp/audit" || fail "--audit: v2flags missing: $(cat "$tmp/audit")"
grep -qx "$m/rev1\\\\033\\[2J (capabilities unknown: Invalid argument)" "$tmp/audit" || fail "--audit: rev1 missing or unescaped: $(od -c "$tmp/audit" | head)"
[ "$(grep -c '^  risk: unknown: security.capability is present' "$tmp/audit")" -eq 2 ] || fail "--audit risk lines: $(cat "$tmp/audit")"
grep -q "$(printf '\033')" "$tmp/audit" "$tmp/err" && fail "--audit printed a raw ESC"
grep -q plain "$tmp/audit" && fail "--audit reports a file without capabilities"

# --json: one object each, tier unknown, errno EINVAL; exit 1.
run_ours "$getcap" --json "$m/v2flags" "$m/plain" >"$tmp/json" 2>/dev/null; rc=$?
[ $rc -eq 1 ] || fail "--json exit $rc, want 1"
python3 - "$tmp/json" <<'PY' || fail "--json: $(cat "$tmp/json")"
import json, sys
objs = [json.loads(l) for l in open(sys.argv[1])]
assert len(objs) == 1, objs
o = objs[0]
assert o["path"].endswith("/v2flags") and o["text"] is None, o
assert o["errno"] == 22 and o["risk"]["tier"] == "unknown", o
PY
# A file that reads fine keeps exit 0.
run_ours "$getcap" --json --audit "$m/plain" >/dev/null 2>&1 || fail "--json on a plain file exit $?"
umount "$m"
[ $fails -eq 0 ]
INNER
export tmp getcap ref
unshare -m --propagation private sh "$tmp/inner.sh"
