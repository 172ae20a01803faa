#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# A manifest grants capabilities as root: restore must not act on one
# that someone else could have written. add already refused to write
# such a manifest; restore read any. The finding, reproduced: root's
# manifest of a tree, left group-writable; nobody appends a line giving
# cap_setuid to a root-owned program of the tree (she can read it, so
# she can compute its digest), and root's next restore set it. Each way
# nobody could have put a line in the manifest is now refused (exit 2,
# the manifest and the reason named, nothing changed):
#   1. group or other write bits on it;
#   2. an ACL entry that lets her write it (the mode shows only the mask);
#   3. her own file;
#   4. in a directory she may write (she renames her file over root's);
#   5. a symbolic link (to her file);
#   6. root's manifest in root's directory, below her directory: she
#      renames root's directory aside and moves in another directory of
#      root's holding a manifest of her choosing (one a tarball of hers
#      left when root unpacked it, say); add refuses to write there too;
#   7. the same reached through a link of root's to that directory (it
#      is judged where the link leads);
#   8. root's directory in a sticky directory of hers (she may remove
#      anything in it, sticky or not);
#   9. root's link to root's directory, in her directory (she may point
#      it elsewhere: it was followed, and judged only where it led);
#  10. her own link in root's directory;
#  11. root's manifest on a read-only mount of a directory everyone may
#      write, which no other mount reaches (pam_cap reads such a one).
# verify still reads any manifest (it changes nothing), and root's own
# manifest in root's directory (below the sticky /tmp, whose sticky bit
# does keep others from renaming root's directory away) is restored as
# before.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
private_etc "$@"
cm=$BUILD/progs/capmanifest
[ -x "$cm" ] || { fail "capmanifest not built"; finish; }
id nobody >/dev/null 2>&1 || skip "no user nobody"
command -v setfattr >/dev/null 2>&1 || skip "setfattr (attr) is not installed"
chmod 755 "$T"
nobody_uid=$(id -u nobody) nobody_gid=$(id -g nobody)
umask 022
t=$T/tree
mkdir -p "$t/bin" "$T/reg" "$T/hers" && chown nobody "$T/hers" || exit 1
cp /bin/true "$t/bin/tool" && setcap cap_net_raw=ep "$t/bin/tool" &&
	"$cm" record "$t" >"$T/reg/m" && setcap -r "$t/bin/tool" || { fail "setup"; finish; }
sum=$(sha256sum "$t/bin/tool" | cut -d' ' -f1)
# Her manifest: the tool, its recorded owner, mode and content, and the
# capability of her choice.
line="./bin/tool owner=0 group=0 mode=0755 acl=no sha256=$sum cap_setuid=ep"
reason="refused (a manifest grants capabilities as root, so nobody but its owner may be able to write it)"

# refused CASE MANIFEST ERR: restore exits 2 with that line, changes nothing.
refused() {
	run run_ours "$cm" restore "$2" "$t"
	expect_rc 2 "$1" || cat "$T/out"
	expect_out "" "$1"
	expect_err "capmanifest: $2: $3: $reason
" "$1"
	[ -z "$(xattr_hex "$t/bin/tool")" ] && pass || {
		fail "$1: the tool got $(getcap "$t/bin/tool")"
		setcap -r "$t/bin/tool"		# bare again for the next case
	}
}

# 1. Group write bits (an umask of 002, a group-writable copy).
cp "$T/reg/m" "$T/reg/m1" && chmod 0664 "$T/reg/m1" && chgrp "$nobody_gid" "$T/reg/m1" || exit 1
as_nobody sh -c 'printf "# capmanifest 3\n%s\n" "$2" >"$1"' - "$T/reg/m1" "$line" && pass || fail "1: nobody could not write it (test setup)"
refused "1: group-writable" "$T/reg/m1" "group $nobody_gid may write it (mode 0664)"
# Other write bits.
cp "$T/reg/m" "$T/reg/m1o" && chmod 0646 "$T/reg/m1o" &&
	as_nobody sh -c 'printf "# capmanifest 3\n%s\n" "$2" >"$1"' - "$T/reg/m1o" "$line" && pass || fail "1: setup"
refused "1: world-writable" "$T/reg/m1o" "everyone may write it (mode 0646)"

# 2. An ACL entry user:nobody:rw- (mask rw-: the mode shows 0664, but
# the group has only r--): she may write it.
acl() {	# the raw xattr: user::rw-, user:UID:rw-, group::r--, mask::rw-, other::r--
	printf '0x02000000''01000600ffffffff''02000600%02x%02x%02x%02x''04000400ffffffff''10000600ffffffff''20000400ffffffff' \
		$(($1 & 255)) $(($1 >> 8 & 255)) $(($1 >> 16 & 255)) $(($1 >> 24 & 255))
}
cp "$T/reg/m" "$T/reg/m2" && setfattr -n system.posix_acl_access -v "$(acl "$nobody_uid")" "$T/reg/m2" && pass ||
	fail "2: cannot set the ACL"
as_nobody sh -c 'printf "# capmanifest 3\n%s\n" "$2" >"$1"' - "$T/reg/m2" "$line" && pass || fail "2: the ACL did not let nobody write (test setup)"
refused "2: an ACL entry" "$T/reg/m2" "uid $nobody_uid may write it (ACL entry)"

# 3. Her own file, in root's directory.
printf '# capmanifest 3\n%s\n' "$line" >"$T/reg/m3" && chown nobody "$T/reg/m3" || exit 1
refused "3: her own file" "$T/reg/m3" "uid $nobody_uid owns it"

# 4. Root's manifest, 0644, in her directory: she renames hers over it.
cp "$T/reg/m" "$T/hers/m" && chmod 0644 "$T/hers/m" || exit 1
as_nobody sh -c 'printf "# capmanifest 3\n%s\n" "$2" >"$1.new" && mv -f "$1.new" "$1"' - "$T/hers/m" "$line" && pass ||
	fail "4: nobody could not replace it (test setup)"
refused "4: in her directory" "$T/hers/m" "its directory: uid $nobody_uid owns it"
# The same file, root's and 0644 again, is still refused there: she
# could replace it again between any check and the read.
chown 0:0 "$T/hers/m" && chmod 0644 "$T/hers/m"
refused "4: root's file in her directory" "$T/hers/m" "its directory: uid $nobody_uid owns it"

# 5. A link in root's directory to her manifest.
printf '# capmanifest 3\n%s\n' "$line" >"$T/hers/m5" && chown nobody "$T/hers/m5" &&
	ln -s "$T/hers/m5" "$T/reg/m5" || exit 1
refused "5: a symbolic link" "$T/reg/m5" "a symbolic link"

# 6. Below her directory: root's $T/hers/reg, which she renames aside
# for another directory of root's there, its manifest hers in content.
above="refused (a manifest grants capabilities as root, so nobody but its owner may be able to write it, or rename the way to it)"
mkdir "$T/hers/reg" "$T/hers/unpacked" && cp "$T/reg/m" "$T/hers/reg/m" &&
	printf '# capmanifest 3\n%s\n' "$line" >"$T/hers/unpacked/m" || exit 1
as_nobody sh -c 'mv "$1/reg" "$1/reg.old" && mv "$1/unpacked" "$1/reg"' - "$T/hers" && pass ||
	fail "6: nobody could not swap root's directories (test setup)"
[ "$(stat -c %u "$T/hers/reg" "$T/hers/reg/m" | sort -u)" = 0 ] && pass || fail "6: not root's (test setup)"
run run_ours "$cm" restore "$T/hers/reg/m" "$t"
expect_rc 2 "6: below her directory" || cat "$T/out"
expect_out "" "6: below her directory"
expect_err "capmanifest: $T/hers/reg/m: directory $T/hers: uid $nobody_uid owns it: $above
" "6: below her directory"
[ -z "$(xattr_hex "$t/bin/tool")" ] && pass || { fail "6: the tool got $(getcap "$t/bin/tool")"; setcap -r "$t/bin/tool"; }
setcap cap_net_raw=ep "$t/bin/tool" && pass || fail "6: setcap"
run run_ours "$cm" add "$T/hers/reg/new" "$t/bin/tool"
setcap -r "$t/bin/tool"
expect_rc 1 "6: add below her directory"
expect_err "capmanifest: $T/hers/reg/new: directory $T/hers: uid $nobody_uid owns it: $above
" "6: add below her directory"
[ -e "$T/hers/reg/new" ] && fail "6: add wrote below her directory" || pass

# 7. Through a link of root's (in root's directory) to that directory.
ln -s "$T/hers/reg" "$T/reg/linked.d" || exit 1
run run_ours "$cm" restore "$T/reg/linked.d/m" "$t"
expect_rc 2 "7: a linked directory" || cat "$T/out"
expect_err "capmanifest: $T/reg/linked.d/m: directory $T/hers: uid $nobody_uid owns it: $above
" "7: a linked directory"
[ -z "$(xattr_hex "$t/bin/tool")" ] && pass || { fail "7: the tool got $(getcap "$t/bin/tool")"; setcap -r "$t/bin/tool"; }

# 8. Her sticky directory, root's directory in it.
mkdir -p "$T/sticky/reg" && chown nobody "$T/sticky" && chmod 1777 "$T/sticky" &&
	printf '# capmanifest 3\n%s\n' "$line" >"$T/sticky/reg/m" || exit 1
run run_ours "$cm" restore "$T/sticky/reg/m" "$t"
expect_rc 2 "8: below her sticky directory" || cat "$T/out"
expect_err "capmanifest: $T/sticky/reg/m: directory $T/sticky: uid $nobody_uid owns it: $above
" "8: below her sticky directory"
[ -z "$(xattr_hex "$t/bin/tool")" ] && pass || { fail "8: the tool got $(getcap "$t/bin/tool")"; setcap -r "$t/bin/tool"; }

# 9. Root's own link to root's directory, in her directory: she may point
# it at another directory of root's (one holding an old manifest). The
# way is judged where the link lies, not only where it leads (it was
# followed, and root's manifest restored).
ln -s "$T/reg" "$T/hers/reg.l" || exit 1
run run_ours "$cm" restore "$T/hers/reg.l/m" "$t"
expect_rc 2 "9: a link in her directory" || cat "$T/out"
expect_err "capmanifest: $T/hers/reg.l/m: directory $T/hers: uid $nobody_uid owns it: $above
" "9: a link in her directory"
[ -z "$(xattr_hex "$t/bin/tool")" ] && pass || { fail "9: the tool got $(getcap "$t/bin/tool")"; setcap -r "$t/bin/tool"; }

# 10. Her own link, in root's directory, to root's directory: hers to
# repoint whenever she likes.
ln -s "$T/reg" "$T/reg/hers.l" && chown -h nobody "$T/reg/hers.l" || exit 1
run run_ours "$cm" restore "$T/reg/hers.l/m" "$t"
expect_rc 2 "10: her link" || cat "$T/out"
expect_err "capmanifest: $T/reg/hers.l/m: symbolic link $T/reg/hers.l: uid $nobody_uid owns it, and may point it elsewhere: $above
" "10: her link"
[ -z "$(xattr_hex "$t/bin/tool")" ] && pass || { fail "10: the tool got $(getcap "$t/bin/tool")"; setcap -r "$t/bin/tool"; }

# 11. Root's manifest in a directory whose mode lets everyone write, on a
# read-only mount that no other mount reaches (a Kubernetes ConfigMap's
# layout, which pam_cap reads): refused all the same. capmanifest judges
# its manifests, and the files they make capable, by owner, mode and ACL
# alone (path_trust.h, sealed_mounts).
cat >"$T/ro.sh" <<'EOF'
set -e
mount -t tmpfs -o mode=0777 vol "$1"
cp "$3" "$1/m"
chmod 0644 "$1/m"
mount --bind "$1" "$2"
mount -o remount,bind,ro "$2"
umount "$1"
shift 3
exec "$@"
EOF
mkdir "$T/vol" "$T/ro" || exit 1
run unshare -m --propagation private sh "$T/ro.sh" "$T/vol" "$T/ro" "$T/reg/m" "$cm" restore "$T/ro/m" "$t"
expect_rc 2 "11: a read-only mount of a directory everyone may write" || cat "$T/out"
expect_err "capmanifest: $T/ro/m: its directory: everyone may write it (mode 0777): $reason
" "11: a read-only mount of a directory everyone may write"
[ -z "$(xattr_hex "$t/bin/tool")" ] && pass || { fail "11: the tool got $(getcap "$t/bin/tool")"; setcap -r "$t/bin/tool"; }

# verify reads them all: it only reports.
run run_ours "$cm" verify "$T/reg/m1" "$t"
expect_rc 1 "verify of a group-writable manifest"
expect_out "missing: ./bin/tool cap_setuid=ep
" "verify of a group-writable manifest"

# Root's manifest in root's directory: restored as before. ($T is
# root's, in the sticky /tmp: the sticky bit keeps it there.)
tmp=$(dirname "$T")
[ "$(stat -c '%u %a' "$tmp")" = "0 1777" ] ||
	not_checked "$tmp is not root's 1777: a sticky directory above is not checked"
run run_ours "$cm" restore "$T/reg/m" "$t"
expect_rc 0 "root's manifest" || cat "$T/err"
expect_out "set: ./bin/tool cap_net_raw=ep
" "root's manifest"
finish "restore acts on no manifest that others could have written or put in its place"
