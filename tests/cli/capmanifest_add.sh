#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# capmanifest record FILE... and capmanifest add MANIFEST FILE...: single
# files named as "record /" names them (relative operands and linked
# directories resolved, a link as the file itself refused), and a
# manifest written so that nobody but its owner could have put a line
# in it: never through a link, never a FIFO, not one others may write or
# in a directory others may write; written whole (a temporary file beside
# it, renamed) or not at all. As root (to set capabilities on test files)
# the successful paths too: merging, replacing, "unchanged", a version 2
# manifest upgraded only when every entry is recorded again.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
cm=$BUILD/progs/capmanifest
[ -x "$cm" ] || { fail "capmanifest not built"; finish; }
writer=
at_exit '[ -z "$writer" ] || kill $writer 2>/dev/null'
umask 022
d=$T/d
mkdir -p "$d/sub" "$d/real" && echo x >"$d/plain" && echo x >"$d/real/f" &&
	ln -s real "$d/link" && ln -s plain "$d/plain.lnk" && mkfifo "$d/fifo" || exit 1
x=$(echo x | sha256sum | cut -d' ' -f1)
dd=$(cd "$d" && pwd -P)		# the canonical directory, as manifests name it

# The trees add says the package trigger watches are the ones it does.
sed -n 's/^interest-noawait //p' "$TOP/debian/libcap2-bin.triggers" | sort >"$T/triggers"
sed -n '/^#define TRIGGER_PATHS/,/[^\\]$/p' "$TOP/progs/capmanifest/capmanifest.h" |
	grep -o '"/[^"]*"' | tr -d '"' >"$T/paths"
sed -n 's/^#define TRIGGER_DIR *"\(.*\)"$/\1/p' "$TOP/progs/capmanifest/capmanifest.h" >>"$T/paths"
sort -o "$T/paths" "$T/paths"
[ "$(wc -l <"$T/paths")" -ge 5 ] && cmp -s "$T/triggers" "$T/paths" && pass ||
	fail "debian/libcap2-bin.triggers watches $(tr '\n' ' ' <"$T/triggers"), capmanifest.h says $(tr '\n' ' ' <"$T/paths")"

# --- without capabilities: the refusals --------------------------------
expect 1 "" "capmanifest: $d/plain: no file capabilities to record (set them with setcap first)
" run_ours "$cm" record "$d/plain"
expect 2 "" "capmanifest: $d/plain.lnk: a symbolic link: name the directory or file it points to
" run_ours "$cm" record "$d/plain.lnk"
expect 1 "" "capmanifest: $d/plain.lnk: a symbolic link: name the file it points to
capmanifest: $d/sub: a directory: record takes one directory, or files
capmanifest: $d/none: No such file or directory
capmanifest: $d/fifo: not a regular file
" run_ours "$cm" record "$d/plain.lnk" "$d/sub" "$d/none" "$d/fifo"
expect 2 "" "capmanifest: --one-file-system and --include-pseudo only apply to walking a directory
" run_ours "$cm" record -x "$d/plain" "$d/real/f"
run run_ours "$cm" add "$T/m"
expect_rc 2 "add with one operand"
head -n 1 "$T/err" | grep -qxF "capmanifest: add takes a manifest and files (<manifest> <file>...), got 1" && pass ||
	fail "add with one operand: $(head -n 1 "$T/err")"
expect 2 "" "capmanifest: --listed-only only applies to verify and restore
" run_ours "$cm" add --listed-only "$T/m" "$d/plain"
expect 2 "" "capmanifest: --dry-run, --fix-owner, --accept-new-content and --allow-v1 only apply to restore
" run_ours "$cm" verify --accept-new-content "$T/m" "$d"

# A file without capabilities: nothing written, not even a new manifest.
expect 1 "" "capmanifest: $d/plain: no file capabilities to record (set them with setcap first)
" run_ours "$cm" add "$T/m" "$d/plain"
[ ! -e "$T/m" ] && pass || fail "add of a bare file created the manifest"

# Where the manifest may not be: a link, a FIFO (never opened: its writer
# stays unconnected), one others may write, one in a directory others
# may write. None of them is touched.
reason="refused (a manifest grants capabilities as root, so nobody but its owner may be able to write it)"
echo keep >"$T/target" && ln -s target "$T/m.lnk"
expect 1 "" "capmanifest: $T/m.lnk: a symbolic link: $reason
" run_ours "$cm" add "$T/m.lnk" "$d/plain"
[ "$(cat "$T/target")" = keep ] && [ -L "$T/m.lnk" ] && pass || fail "add wrote through a link"
mkfifo "$T/m.fifo"
(exec 3>"$T/m.fifo"; echo connected >"$T/writer") & writer=$!
expect 1 "" "capmanifest: $T/m.fifo: not a regular file: $reason
" run_ours "$cm" add "$T/m.fifo" "$d/plain"
[ -e "$T/writer" ] && fail "add opened the FIFO for reading" || pass
kill $writer 2>/dev/null; wait $writer 2>/dev/null; writer=
printf '# capmanifest 3\n' >"$T/m.gw" && chmod 0664 "$T/m.gw"
expect 1 "" "capmanifest: $T/m.gw: group $(id -g) may write it (mode 0664): $reason
" run_ours "$cm" add "$T/m.gw" "$d/plain"
mkdir "$T/open" && chmod 1777 "$T/open" && printf '# capmanifest 3\n' >"$T/open/m"
expect 1 "" "capmanifest: $T/open/m: its directory: everyone may write it (mode 1777, sticky, which still lets them add names): $reason
" run_ours "$cm" add "$T/open/m" "$d/plain"
printf '# capmanifest 3\nnot a line\n' >"$T/m.bad"
run run_ours "$cm" add "$T/m.bad" "$d/plain"
expect_rc 2 "add to an invalid manifest"
grep -q "^capmanifest: $T/m.bad:2: " "$T/err" && pass || fail "add to an invalid manifest: $(cat "$T/err")"
[ "$(cat "$T/m.bad")" = "$(printf '# capmanifest 3\nnot a line')" ] && pass || fail "the invalid manifest changed"
for f in "$T/m.gw" "$T/open/m"; do
	[ "$(cat "$f")" = "# capmanifest 3" ] && pass || fail "$f changed"
done

if [ "$(id -u)" -ne 0 ] || ! command -v setcap >/dev/null 2>&1; then
	finish "(not root: the successful paths are not checked)"
fi
# --- as root: files with capabilities ----------------------------------
setcap cap_net_raw=ep "$d/plain" && setcap cap_kill=p "$d/real/f" || { fail "setcap"; finish; }
# Relative, through a linked directory, and twice: one entry each, named
# from /, in order.
run run_ours sh -c 'cd "$1" && exec "$2" record plain ../d/link/f plain' - "$d" "$cm"
expect_rc 0 "record of files" || cat "$T/err"
expect_out "# capmanifest 4
.$dd/plain owner=0 group=0 mode=0644 acl=no sha256=$x cap_net_raw=ep
.$dd/real/f owner=0 group=0 mode=0644 acl=no sha256=$x cap_kill=p
" "record of files"

# add creates the manifest, 0644 and root's, and leaves nothing beside it.
mkdir "$T/reg" && chmod 0755 "$T/reg"
expect 0 "added: .$dd/real/f cap_kill=p
" "" run_ours "$cm" add "$T/reg/local.manifest" "$d/real/f"
[ "$(stat -c '%u:%g %a' "$T/reg/local.manifest")" = "0:0 644" ] && pass ||
	fail "the new manifest: $(stat -c '%u:%g %a' "$T/reg/local.manifest")"
[ "$(ls -A "$T/reg")" = local.manifest ] && pass || fail "left behind: $(ls -A "$T/reg")"
# Merged: the old entry kept, the new one added, sorted; then replaced.
expect 0 "added: .$dd/plain cap_net_raw=ep
" "" run_ours "$cm" add "$T/reg/local.manifest" "$d/plain"
printf '# capmanifest 4\n.%s/plain owner=0 group=0 mode=0644 acl=no sha256=%s cap_net_raw=ep\n.%s/real/f owner=0 group=0 mode=0644 acl=no sha256=%s cap_kill=p\n' \
	"$dd" "$x" "$dd" "$x" >"$T/want"
same "$T/want" "$T/reg/local.manifest" "the merged manifest"
ino=$(stat -c %i "$T/reg/local.manifest")
expect 0 "unchanged: .$dd/plain cap_net_raw=ep
" "" run_ours "$cm" add "$T/reg/local.manifest" "$d/plain"
[ "$(stat -c %i "$T/reg/local.manifest")" = "$ino" ] && pass || fail "an unchanged manifest was rewritten"
setcap cap_net_admin=ep "$d/plain"
expect 0 "updated: .$dd/plain cap_net_admin=ep
" "" run_ours "$cm" add "$T/reg/local.manifest" "$d/plain"
grep -q "^\.$dd/plain .* cap_net_admin=ep\$" "$T/reg/local.manifest" && pass ||
	fail "not replaced: $(cat "$T/reg/local.manifest")"
[ "$(grep -c . "$T/reg/local.manifest")" = 3 ] && pass || fail "entries: $(cat "$T/reg/local.manifest")"
# "!unread" lines stay.
printf '!unread ./somewhere\n' >>"$T/reg/local.manifest"
run_ours "$cm" add "$T/reg/local.manifest" "$d/plain" >/dev/null
grep -qx '!unread ./somewhere' "$T/reg/local.manifest" && pass || fail "the !unread line was lost"

# A version 2 manifest: written as version 4 only when each of its
# entries is recorded again (no digest can be made up for the others).
printf '# capmanifest 2\n.%s/plain owner=0 group=0 mode=0644 acl=no cap_net_raw=ep\n./elsewhere owner=0 group=0 mode=0755 acl=no cap_kill=p\n' "$dd" >"$T/reg/old.manifest"
cp "$T/reg/old.manifest" "$T/old.copy"
expect 1 "" "capmanifest: $T/reg/old.manifest: a version 2 manifest records no content digests, and these entries are not being recorded again:
capmanifest:   ./elsewhere
capmanifest: name it too, so that the manifest can be written as version 4
" run_ours "$cm" add "$T/reg/old.manifest" "$d/plain"
same "$T/old.copy" "$T/reg/old.manifest" "the refused version 2 manifest"
printf '# capmanifest 2\n.%s/plain owner=0 group=0 mode=0644 acl=no cap_net_raw=ep\n' "$dd" >"$T/reg/old.manifest"
expect 0 "updated: .$dd/plain cap_net_admin=ep
" "" run_ours "$cm" add "$T/reg/old.manifest" "$d/plain"
head -n 1 "$T/reg/old.manifest" | grep -qx '# capmanifest 4' && pass || fail "not written as version 4"
finish
