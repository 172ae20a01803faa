#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# A file system on a loop device is the bytes of its backing file, a disk
# image: whoever may write the image writes the file system, owners,
# modes and lines alike, however it is mounted (read-only included). With
# an ext4 image that bob (uid 4002) owns, holding root's 0644
# capability.conf and a root-owned tool, mounted read-only: pam_cap
# granted the file's lines, capcheck read them, and capmanifest restore
# set capabilities on the tool, each trusting owner and mode, while bob
# rewrites the file through the image (shown: his line appears once the
# image is mounted again). Each now refuses a file, or a directory on the
# way, on such a file system, naming the loop device, its backing file
# and who may write it; with the image root's 0644, each reads or
# restores as before. Root: loop devices, files owned by another user.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
[ "$(id -u)" -eq 0 ] || skip "needs root (loop devices, files owned by other users)"
command -v mkfs.ext4 >/dev/null || skip "mkfs.ext4 (e2fsprogs) is not installed"
init
. "$TESTS_DIR/tools/pam_world.sh"
require_pam_driver
bob=4002
chmod 755 "$T"

# The image: root's files, laid out by mkfs.ext4 -d; the image bob's.
mkdir -p "$T/src/bin" "$T/img" || exit 1
printf 'cap_kill      bob\n' >"$T/src/capability.conf"
cp /bin/true "$T/src/bin/tool" && chmod 0644 "$T/src/capability.conf" &&
	chmod 0755 "$T/src/bin/tool" "$T/src/bin" "$T/src" || exit 1
truncate -s 8M "$T/disk" && mkfs.ext4 -q -d "$T/src" "$T/disk" ||
	skip "mkfs.ext4 cannot make an image from a directory here"
chown "$bob:$bob" "$T/disk"
mount -o loop,ro "$T/disk" "$T/img" 2>"$T/mount.err" ||
	skip "no loop device to mount an image on: $(cat "$T/mount.err")"
at_exit_checked "umount '$T/img'"
loop=$(findmnt -n -o SOURCE "$T/img")
loop=${loop#/dev/}
# The disguise: root's files, read-only; bob owns the image.
[ "$(stat -c '%u %a' "$T/img/capability.conf")" = "0 644" ] && pass ||
	fail "the image's file is not root's 0644: $(stat -c '%u %a' "$T/img/capability.conf")"
image="on loop device $loop, whose backing file $T/disk anyone who may write it rewrites"

# --- capcheck: judges as pam_cap does ---
CC=$BUILD/progs/capcheck
f=$T/img/capability.conf
run run_ours "$CC" --config "$f"
expect_rc 1 "capcheck, a file on bob's image"
expect_err "capcheck: $f: not root's alone: it is $image: uid $bob owns it: pam_cap grants nothing from it, not even default=
" "capcheck, a file on bob's image"
run run_ours "$CC" --config "$T/img/bin/../capability.conf"
expect_rc 1 "capcheck, a way through bob's image"

# --- pam_cap, through pam_wrapper ---
PWDEBUG=2
stop='auth=AUTHINFO_UNAVAIL setcred=CRED_ERR iab= keepcaps=0'
t ours "@$f" "config=$f" bob 'auth setcred' "$stop"
logged "SYSLOG(3): $f: not root's alone: it is $image: uid $bob owns it; nothing granted"

# --- capmanifest restore ---
cm=$BUILD/progs/capmanifest
printf '# capmanifest 3\n./bin/tool owner=0 group=0 mode=0755 acl=no sha256=%s cap_net_raw=ep\n' \
	"$(sha256sum "$T/img/bin/tool" | cut -d' ' -f1)" >"$T/m"
run run_ours "$cm" restore "$T/m" "$T/img"
expect_rc 1 "capmanifest, a tree on bob's image" || cat "$T/out"
expect_err "capmanifest: ./bin/tool: it is $image: uid $bob owns it, so its content could change after it is checked: not restored
" "capmanifest, a tree on bob's image"

# What bob may do: his line in root's file, written into the image.
at=$(grep -boa 'cap_kill      bob' "$T/disk" | head -n 1 | cut -d: -f1)
if [ -n "$at" ] && setpriv --reuid=$bob --regid=$bob --clear-groups \
	sh -c 'printf "cap_sys_admin bob" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none' - "$T/disk" "$at" &&
	umount "$T/img" && mount -o loop,ro "$T/disk" "$T/img" &&
	[ "$(cat "$T/img/capability.conf")" = "cap_sys_admin bob" ] &&
	[ "$(stat -c '%u %a' "$T/img/capability.conf")" = "0 644" ]; then
	ok "bob rewrote root's 0644 file on the read-only mount through the image"
else
	fail "bob could not rewrite the file through the image (test setup): $(cat "$T/img/capability.conf" 2>&1)"
fi

# The image root's 0644: read, and restored, as before.
chown 0:0 "$T/disk" && chmod 0644 "$T/disk"
run run_ours "$CC" --config "$f"
grep -qF "$f:1:" "$T/err" && ! grep -q "not root's alone" "$T/err" && pass ||
	fail "capcheck does not read root's image's file: $(cat "$T/err")"
umount "$T/img" && mount -o loop "$T/disk" "$T/img" || { fail "cannot mount root's image writable"; finish; }
run run_ours "$cm" restore "$T/m" "$T/img"
expect_rc 0 "capmanifest, a tree on root's image" || cat "$T/err"
expect_out "set: ./bin/tool cap_net_raw=ep
" "capmanifest, a tree on root's image"
finish "a file, or a directory on its way, on a disk image anyone but root may write is trusted by no check"
