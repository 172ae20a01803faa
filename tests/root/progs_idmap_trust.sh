#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# Through an idmapped mount, owners are the mapping's, not the file
# system's. Root's bind of bob's directory (uid 4002) that maps bob to
# root shows his capability.conf, his manifest and his tool as root's,
# 0644 and 0755: pam_cap granted bob's "^cap_sys_admin bob", capcheck
# read it, and capmanifest restore acted on his manifest and set
# capabilities on his tool, while bob writes them all through his own
# directory (shown). Each now refuses a file, or a directory on its way,
# reached through an idmapped mount, naming why; the same files seen
# through a plain bind are bob's, and refused as his.
# Root: idmapped mounts (Linux 5.12, tests/tools/idmapbind).
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
[ "$(id -u)" -eq 0 ] || skip "needs root (idmapped mounts, files owned by other users)"
init
. "$TESTS_DIR/tools/pam_world.sh"
require_pam_driver
bob=4002
chmod 755 "$T"
mkdir -p "$T/bob/bin" "$T/mnt" "$T/safe" || exit 1
printf '^cap_sys_admin bob\n' >"$T/bob/capability.conf"
cp /bin/true "$T/bob/bin/tool" && chmod 0644 "$T/bob/capability.conf" &&
	chmod 0755 "$T/bob" "$T/bob/bin" "$T/bob/bin/tool" && chown -R "$bob:$bob" "$T/bob" || exit 1
"$BIN/idmapbind" "$T/bob" "$T/mnt" "$bob" 0 2>"$T/idmap.err" ||
	skip "no idmapped mount here: $(cat "$T/idmap.err")"
at_exit_checked "umount '$T/mnt'"
# The disguise works: without it nothing here would prove a thing.
got=$(stat -c '%u %g %a' "$T/mnt/capability.conf")
[ "$got" = "0 0 644" ] && pass || fail "the idmapped mount does not show bob's file as root's: $got"
idmapped="reached through an idmapped mount, whose mapping, not the file system, says who owns it"

# --- capcheck: judges as pam_cap does ---
CC=$BUILD/progs/capcheck
f=$T/mnt/capability.conf
run run_ours "$CC" --config "$f"
expect_rc 1 "capcheck, a file through an idmapped mount"
expect_err "capcheck: $f: not root's alone: it is $idmapped: pam_cap grants nothing from it, not even default=
" "capcheck, a file through an idmapped mount"

# --- pam_cap, through pam_wrapper ---
PWDEBUG=2
stop='auth=AUTHINFO_UNAVAIL setcred=CRED_ERR iab= keepcaps=0'
t ours "@$f" "config=$f" bob 'auth setcred' "$stop"
logged "SYSLOG(3): $f: not root's alone: it is $idmapped; nothing granted"

# --- capmanifest restore ---
cm=$BUILD/progs/capmanifest
printf '# capmanifest 3\n./bin/tool owner=0 group=0 mode=0755 acl=no sha256=%s cap_net_raw=ep\n' \
	"$(sha256sum "$T/bob/bin/tool" | cut -d' ' -f1)" >"$T/safe/m"
run run_ours "$cm" restore "$T/safe/m" "$T/mnt"
expect_rc 1 "capmanifest, a tree through an idmapped mount" || cat "$T/out"
expect_err "capmanifest: ./bin/tool: it is $idmapped, so its content could change after it is checked: not restored
" "capmanifest, a tree through an idmapped mount"
[ -z "$(xattr_hex "$T/bob/bin/tool")" ] && pass ||
	fail "capmanifest: bob's tool got $(getcap "$T/bob/bin/tool")"

# What bob may do: write his directory, which the mount shows as root's.
setpriv --reuid=$bob --regid=$bob --clear-groups sh -c 'echo "^cap_sys_admin,cap_setuid bob" >"$1"' - \
	"$T/bob/capability.conf" &&
	[ "$(cat "$f")" = "^cap_sys_admin,cap_setuid bob" ] && [ "$(stat -c %u "$f")" = 0 ] &&
	pass || fail "bob could not rewrite the file root's mount shows as root's (test setup)"
finish "a file, or a directory on its way, reached through an idmapped mount is trusted by no check"
