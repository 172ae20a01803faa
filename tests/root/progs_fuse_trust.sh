#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# On a FUSE file system owner and mode are whatever its daemon answers.
# bindfs, mounted by root with "-u 0 -g 0 -p 0755,a-w" over a directory
# of bob's (or by bob himself, with user_allow_other), shows his files as
# root's, 0555: the trust checks of pam_cap, capcheck (which judges as
# pam_cap does) and capmanifest read the owner and mode and trusted what
# bob writes: pam_cap granted his "^cap_sys_admin bob", capcheck read the
# file's lines, and capmanifest restore acted on his manifest and set
# capabilities on files he serves. Each now refuses a file, or a directory
# on the way, on FUSE, naming the file system and why; nothing granted,
# nothing set. A symbolic link of bob's (shown as root's) to a root-owned
# file elsewhere is refused for the FUSE directory holding it.
# Root: bindfs needs /dev/fuse; files are owned by bob (uid 4002).
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
[ "$(id -u)" -eq 0 ] || skip "needs root (FUSE mounts, files owned by other users)"
[ -c /dev/fuse ] || skip "no /dev/fuse: FUSE is unavailable here"
command -v bindfs >/dev/null || skip "bindfs is not installed (tests/install-deps.sh)"
init
. "$TESTS_DIR/tools/pam_world.sh"
require_pam_driver
bob=4002
fuse="on a FUSE file system, whose daemon, not the kernel, says who owns it"

# bob's directory, his capability.conf and manifest in it, and the same
# seen through bindfs as root's.
mkdir "$T/bob" "$T/mnt" "$T/safe" || exit 1
printf '^cap_sys_admin bob\n' >"$T/bob/capability.conf"
ln -s "$T/safe/conf" "$T/bob/link"
printf '^cap_sys_admin bob\n' >"$T/safe/conf"
chmod 0644 "$T/bob/capability.conf" "$T/safe/conf"
chown -hR "$bob:$bob" "$T/bob"
without_locks bindfs -u 0 -g 0 -p 0755,a-w "$T/bob" "$T/mnt" 2>"$T/bindfs.err" ||
	skip "bindfs cannot mount here: $(cat "$T/bindfs.err")"
at_exit_checked "umount '$T/mnt'"
# The disguise works: without it nothing here would prove a thing.
got=$(stat -c '%u %g %a' "$T/mnt" "$T/mnt/capability.conf" | sort -u)
[ "$got" = "0 0 555" ] && pass ||
	fail "bindfs does not show bob's files as root's 0555: $got"
[ "$(stat -f -c %t "$T/mnt")" = 65735546 ] && pass ||
	fail "$T/mnt is not FUSE: $(stat -f -c '%T %t' "$T/mnt")"

# --- capcheck: judges as pam_cap does ---
CC=$BUILD/progs/capcheck
f=$T/mnt/capability.conf
run run_ours "$CC" --config "$f"
expect_rc 1 "capcheck, a file on FUSE"
expect_err "capcheck: $f: not root's alone: it is $fuse: pam_cap grants nothing from it, not even default=
" "capcheck, a file on FUSE"
# The link in bob's directory leads to a root-owned file elsewhere; bob
# points it wherever he likes.
run run_ours "$CC" --config "$T/mnt/link"
expect_rc 1 "capcheck, a link in a FUSE directory"
expect_err "capcheck: $T/mnt/link: not root's alone: directory $T/mnt on its way: $fuse: pam_cap grants nothing from it, not even default=
" "capcheck, a link in a FUSE directory"
# The file it leads to, by its own way, is read (line 1 is warned about:
# no user bob here, whoever he is).
run run_ours "$CC" --config "$T/safe/conf"
grep -qF "$T/safe/conf:1:" "$T/err" && ! grep -q "not root's alone" "$T/err" && pass ||
	fail "capcheck does not read root's file in root's directory: $(cat "$T/err")"

# --- pam_cap, through pam_wrapper ---
PWDEBUG=2
stop='auth=AUTHINFO_UNAVAIL setcred=CRED_ERR iab= keepcaps=0'
granted='auth=SUCCESS setcred=SUCCESS iab=^21 keepcaps=0'
t ours "@$f" "config=$f default=cap_kill" bob 'auth setcred' "$stop"
logged "SYSLOG(3): $f: not root's alone: it is $fuse; nothing granted"
deb "$granted"		# Debian's 2.66 checks nothing
t ours "@$T/mnt/link" "config=$T/mnt/link default=cap_kill" bob 'auth setcred' "$stop"
logged "SYSLOG(3): $T/mnt/link: not root's alone: directory $T/mnt on its way: $fuse; nothing granted"
deb "$granted"
# The same line in root's file, by root's way: granted as before.
t ours "@$T/safe/conf" "config=$T/safe/conf" bob 'auth setcred' "$granted"

# --- capmanifest restore ---
# Root's tree with a capable tool, its manifest recorded; bob's manifest
# grants cap_setuid to it, and bob's tree served as root's.
cm=$BUILD/progs/capmanifest
tree=$T/tree
mkdir -p "$tree/bin" && cp /bin/true "$tree/bin/tool" &&
	setcap cap_net_raw=ep "$tree/bin/tool" &&
	"$cm" record "$tree" >"$T/safe/m" && setcap -r "$tree/bin/tool" ||
	{ fail "capmanifest setup"; finish; }
sum=$(sha256sum "$tree/bin/tool" | cut -d' ' -f1)
printf '# capmanifest 3\n./bin/tool owner=0 group=0 mode=0755 acl=no sha256=%s cap_setuid=ep\n' \
	"$sum" >"$T/bob/m"
chown "$bob:$bob" "$T/bob/m"
reason="refused (a manifest grants capabilities as root, so nobody but its owner may be able to write it)"
run run_ours "$cm" restore "$T/mnt/m" "$tree"
expect_rc 2 "capmanifest, a manifest on FUSE" || cat "$T/out"
expect_out "" "capmanifest, a manifest on FUSE"
expect_err "capmanifest: $T/mnt/m: its directory: it is $fuse: $reason
" "capmanifest, a manifest on FUSE"
[ -z "$(xattr_hex "$tree/bin/tool")" ] && pass ||
	fail "capmanifest, a manifest on FUSE: the tool got $(getcap "$tree/bin/tool")"
# Root's manifest, restoring a tree of bob's served as root's, 0755 as
# recorded: the daemon says what the checked content is, and bob's file
# would get the capability.
mkdir -p "$T/bobtree/bin" "$T/mnt2" && cp /bin/true "$T/bobtree/bin/tool" &&
	chown -R "$bob:$bob" "$T/bobtree" || exit 1
without_locks bindfs -u 0 -g 0 -p 0755 "$T/bobtree" "$T/mnt2" || { fail "bindfs $T/mnt2"; finish; }
at_exit_checked "umount '$T/mnt2'"
run run_ours "$cm" restore "$T/safe/m" "$T/mnt2"
expect_rc 1 "capmanifest, a tree on FUSE" || cat "$T/out"
expect_out "" "capmanifest, a tree on FUSE"
expect_err "capmanifest: ./bin/tool: it is $fuse, so its content could change after it is checked: not restored
" "capmanifest, a tree on FUSE"
[ -z "$(xattr_hex "$T/bobtree/bin/tool")" ] && pass ||
	fail "capmanifest, a tree on FUSE: bob's tool got $(getcap "$T/bobtree/bin/tool")"
# Root's manifest of root's tree: restored as before.
run run_ours "$cm" restore "$T/safe/m" "$tree"
expect_rc 0 "capmanifest, root's tree" || cat "$T/err"
expect_out "set: ./bin/tool cap_net_raw=ep
" "capmanifest, root's tree"
# A daemon that stops answering. The seal of a ConfigMap (a read-only
# bind of a 0777 volume) is judged by what every process holds and sees;
# a process whose working directory, or (in a mount namespace of its
# own) whose root, is on FUSE, its daemon stopped, held capcheck (and a
# login's pam_cap) for ever in statx(2) waiting for the daemon. What is
# needed is in the kernel's cache: the check ends, and reads the file.
if command -v perl >/dev/null 2>&1; then
	mkdir "$T/vol" "$T/cm" && mount -t tmpfs -o mode=0777 vol "$T/vol" &&
		printf 'cap_kill bob\n' >"$T/vol/capability.conf" &&
		chmod 0644 "$T/vol/capability.conf" &&
		mount --bind "$T/vol" "$T/cm" && mount -o remount,bind,ro "$T/cm" &&
		umount "$T/vol" || { fail "cannot mount the ConfigMap"; finish; }
	at_exit_checked "umount '$T/cm'"
	(cd "$T/mnt" && exec sleep 60) &
	in_cwd=$!
	at_exit "kill $in_cwd 2>/dev/null"
	unshare -m --propagation private perl -e 'chroot($ARGV[0]) && chdir("/") && sleep(60)' "$T/mnt" &
	in_root=$!
	at_exit "kill $in_root 2>/dev/null"
	daemon=$(pgrep -f "^bindfs .*$T/bob $T/mnt\$")
	sleep 0.3
	[ -n "$daemon" ] && kill -STOP "$daemon" && pass || fail "cannot stop bindfs (test setup)"
	# The suite runs under run.sh's machine-wide mount lock: a daemon
	# that outlived it must not keep that lock (lib.sh: without_locks).
	if ls -l /proc/"$daemon"/fd 2>/dev/null | grep -q "$LIB_MOUNTS_LOCK"; then
		fail "bindfs holds the suite's lock $LIB_MOUNTS_LOCK"
	else
		pass
	fi
	at_exit "kill -CONT $daemon 2>/dev/null"
	sleep 1.5	# past FUSE's attribute timeout
	timeout 20 "$CC" --config "$T/cm/capability.conf" >"$T/out" 2>"$T/err"
	rc=$?
	kill -CONT "$daemon"
	[ $rc -ne 124 ] && pass || fail "capcheck waited for a stopped FUSE daemon (killed after 20 s)"
	grep -q "not root's alone" "$T/err" &&
		fail "the ConfigMap is refused: $(cat "$T/err")" || pass
	kill "$in_cwd" "$in_root" 2>/dev/null
	wait "$in_cwd" "$in_root" 2>/dev/null
else
	not_checked "no perl: a stopped FUSE daemon not tried"
fi
finish "a file or a directory on FUSE is trusted by no check"
