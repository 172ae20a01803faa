#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# restore of a version 1 manifest (no owner, group, mode or content
# digest) is refused whole, changing nothing, and the line it prints to
# repair that works when pasted, as printed:
#   - a tree root's alone from / (a tmpfs on /mnt in a private mount
#     namespace): the refusal ends with the command, --allow-v1 and
#     --accept-new-content; pasted, it restores the listed file and takes
#     an extra file's capabilities away, and exits 0;
#   - a tree below a directory every user may write (the suite's own, in
#     /tmp): no command, since none would restore it, but the reason;
#   - a manifest that grants nothing, there too: the command with
#     --allow-v1 alone, which pasted takes the extra file's away.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
# A mount namespace of its own, for the tmpfs on /mnt.
private_etc "$@"
cm=$BUILD/progs/capmanifest
[ -x "$cm" ] || { fail "capmanifest not built"; finish; }
[ "$(stat -c '%u %a' /)" = "0 755" ] || skip "/ is not root's 0755 here"
mountpoint -q /mnt 2>/dev/null && skip "/mnt is a mount point already (even in our namespace)"
mount -t tmpfs -o mode=0755 tmpfs /mnt || { fail "cannot mount a tmpfs on /mnt"; finish; }
caps_of() { "$BUILD/progs/getcap" "$1" | sed 's/^[^ ]* *//'; }
state() { for f in "$1"/usr/bin/*; do echo "$f $(stat -c '%u:%g %a' "$f") $(caps_of "$f")"; done; }
# TREE: a tool to restore (no capabilities now), an extra capable file.
tree() {
	mkdir -p "$1/usr/bin" && cp /bin/true "$1/usr/bin/tool" && cp /bin/true "$1/usr/bin/extra" &&
		"$BUILD/progs/setcap" cap_kill=ep "$1/usr/bin/extra" || { fail "setup of $1"; finish; }
}
mkdir "$T/m" && chmod 0755 "$T/m"
printf '# capmanifest 1\n./usr/bin/tool cap_net_raw=ep\n' >"$T/m/v1"
printf '# capmanifest 1\n' >"$T/m/none"
intro="capmanifest: $T/m/v1: a version 1 manifest records no owner, group or mode, and no content digest, so restore cannot check who may run the files it grants to, nor what they are; record the tree again"

# Root's alone from /: the command that restores it, which does.
tree /mnt
state /mnt >"$T/before"
run "$cm" restore "$T/m/v1" /mnt
expect_rc 2 "restore of a version 1 manifest"
expect_out "" "restore of a version 1 manifest"
expect_err "$intro
capmanifest: $T/m/v1: --allow-v1 --accept-new-content would restore it: every file it grants to is root's alone from /
capmanifest: to restore them: capmanifest restore --accept-new-content --allow-v1 $T/m/v1 /mnt
" "restore of a version 1 manifest"
cp "$T/err" "$T/refusal"
state /mnt >"$T/after"
same "$T/before" "$T/after" "the refused restore changed nothing"
paste_for_real "$T/refusal" "capmanifest: to restore them: "
expect_rc 0 "the repair line, pasted" || cat "$T/err"
tool=$(sha256sum /mnt/usr/bin/tool | cut -d' ' -f1)
expect_out "removed: ./usr/bin/extra cap_kill=ep
accepted: ./usr/bin/tool has sha256=$tool, manifest records none (root's alone from /)
set: ./usr/bin/tool cap_net_raw=ep
" "the repair line, pasted"
[ "$(caps_of /mnt/usr/bin/tool)" = cap_net_raw=ep ] && [ -z "$(caps_of /mnt/usr/bin/extra)" ] && pass ||
	fail "after the repair: $(state /mnt)"

# Below /tmp: no command would restore it, so none is printed.
tree "$T/t"
state "$T/t" >"$T/before"
tmp=$(dirname "$T")
run "$cm" restore "$T/m/v1" "$T/t"
expect_rc 2 "restore of a version 1 manifest below $tmp"
expect_out "" "restore of a version 1 manifest below $tmp"
if [ "$(stat -c %a "$tmp")" = 1777 ]; then
	expect_err "$intro
capmanifest: $T/m/v1: nor would --allow-v1 --accept-new-content restore it:
capmanifest: ./usr/bin/tool: the manifest (version 1) records no content digest: not accepted: directory $tmp: everyone may write it (mode 1777, sticky, which still lets them add names)
" "restore of a version 1 manifest below $tmp"
else
	grep -q "restore them" "$T/err" && fail "below $tmp: a command: $(cat "$T/err")" || pass
fi
state "$T/t" >"$T/after"
same "$T/before" "$T/after" "the refused restore below $tmp changed nothing"

# Granting nothing: --allow-v1 alone, which takes the extra's away.
run "$cm" restore "$T/m/none" "$T/t"
expect_rc 2 "restore of a version 1 manifest that grants nothing"
expect_err "capmanifest: $T/m/none: a version 1 manifest records no owner, group or mode, and no content digest, so restore cannot check who may run the files it grants to, nor what they are; record the tree again
capmanifest: $T/m/none: --allow-v1 would restore it: it grants to no file, only takes capabilities away
capmanifest: to restore them: capmanifest restore --allow-v1 $T/m/none $T/t
" "restore of a version 1 manifest that grants nothing"
cp "$T/err" "$T/refusal"
paste_for_real "$T/refusal" "capmanifest: to restore them: "
expect_rc 0 "--allow-v1, pasted" || cat "$T/err"
[ -z "$(caps_of "$T/t/usr/bin/extra")" ] && [ -z "$(caps_of "$T/t/usr/bin/tool")" ] && pass ||
	fail "after --allow-v1: $(state "$T/t")"
finish
