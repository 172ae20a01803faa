#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# A user's huge file must not stall capmanifest. nobody makes a sparse
# file of 1 TiB in her directory (no disk space used) and gives it a
# capability of her own (setcap in a user namespace of hers writes a
# namespaced one; where she cannot, root's setcap stands in, the same to
# capmanifest). "capmanifest record" read all of it for its digest: an
# 8 GiB one took 84 s, 1 TiB hours, and "truncate -s 8E" on a tmpfs never
# ends. Now the content of files a user may have made is read up to 1 GiB
# per run: record names the file unread and finishes (exit 1), her small
# file and root's are still recorded with their digests; verify and
# restore refuse it likewise, each in seconds. (The budget is per run,
# not per file, since she can make many; that is not timed here.)
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
private_etc "$@"
cm=$BUILD/progs/capmanifest setcap=$BUILD/progs/setcap
[ -x "$cm" ] && [ -x "$setcap" ] || { fail "capmanifest or setcap not built"; finish; }
id nobody >/dev/null 2>&1 || skip "no user nobody"
chmod 755 "$T"
gid=$(id -g nobody)
limit=${CAPMANIFEST_BIGFILE_SECONDS:-120}
t=$T/tree
umask 022
mkdir -p "$t/bin" "$t/u" && chown nobody "$t/u" || exit 1
echo x >"$t/bin/tool" && setcap cap_net_raw=ep "$t/bin/tool" || { fail "setup"; finish; }
as_nobody sh -c 'truncate -s 1T "$1/big" && echo x >"$1/small"' - "$t/u" || { fail "nobody's files"; finish; }
if as_nobody unshare -Ur "$setcap" cap_net_raw=ep "$t/u/big" 2>/dev/null &&
	as_nobody unshare -Ur "$setcap" cap_net_raw=ep "$t/u/small"; then
	echo "nobody gave them namespaced capabilities herself: $(getcap -n "$t/u/big")"
	caps="cap_net_raw=ep [rootid=$(id -u nobody)]"
else
	echo "note: no user namespace for nobody here: root sets the capabilities"
	setcap cap_net_raw=ep "$t/u/big" && setcap cap_net_raw=ep "$t/u/small" || { fail "setcap"; finish; }
	caps=cap_net_raw=ep
fi
x=$(sha256sum "$t/bin/tool" | cut -d' ' -f1)
why="content not read: larger than what is left of the 1 GiB a run reads from files users may change (a user can make one as large as she likes)"

# timed CASE CMD...: run CMD, killed after $limit seconds.
timed() {
	lcase=$1; shift
	start=$(date +%s)
	run timeout "$limit" ${VALGRIND_CMD:-} "$@"
	echo "$lcase: $(($(date +%s) - start)) s, exit $rc"
	[ $rc -ne 124 ] && pass || fail "$lcase: still reading after $limit s"
}
timed "record" "$cm" record "$t"
expect_rc 1 "record"
printf '%s\n' '# capmanifest 4' '!unread ./u/big' \
	"./bin/tool owner=0 group=0 mode=0644 acl=no sha256=$x cap_net_raw=ep" \
	"./u/small owner=$(id -u nobody) group=$gid mode=0644 acl=no sha256=$x $caps" >"$T/want"
same "$T/want" "$T/out" "record's manifest"
expect_err "capmanifest: $t/u/big: $why
capmanifest: 1 path could not be read: the manifest marks it \"!unread\" and does not cover it
" "record"

# A manifest from when her file was small lists it: verify and restore
# come to it in a few seconds and say why they cannot compare it.
sed -n "s|^\./u/small |./u/big |p" "$T/want" >"$T/line"
{ echo '# capmanifest 3'; cat "$T/line"; } >"$T/m"
timed "verify --listed-only" "$cm" verify --listed-only "$T/m" "$t"
expect_rc 2 "verify --listed-only"
expect_err "capmanifest: ./u/big: $why
" "verify --listed-only"
as_nobody unshare -Ur "$setcap" -r "$t/u/big" 2>/dev/null || setcap -r "$t/u/big"
timed "restore --listed-only" "$cm" restore --listed-only "$T/m" "$t"
expect_rc 1 "restore --listed-only"
expect_err "capmanifest: cannot read ./u/big: $why
" "restore --listed-only"
[ -z "$(xattr_hex "$t/u/big")" ] && pass || fail "restore set a capability on the file it did not read"
finish "a user's huge file is named, not read for ever"
