#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# Without /proc (a chroot, a container started without it, early boot),
# the programs that reach a file only through its descriptor's
# /proc/thread-self/fd link refuse before they change anything, and say
# so naming /proc and the reason: setcap --perf (with --perf-group, alone,
# and -v) and capmanifest (record, verify, restore --fix-owner, add).
# Each runs in a mount namespace of its own with /proc lazily unmounted
# (in a world that has no /proc at all, as it is); the file keeps its
# owner, group, mode, ACL and capabilities, the manifest its bytes.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
# Groups by name (daemon) from the base accounts only.
private_etc "$@"
setcap=$BUILD/progs/setcap cm=$BUILD/progs/capmanifest
[ -x "$setcap" ] && [ -x "$cm" ] || { fail "setcap or capmanifest not built"; finish; }
command -v getfattr >/dev/null 2>&1 && command -v setfattr >/dev/null 2>&1 ||
	skip "getfattr and setfattr (attr) are not installed"

d=$T/tree/usr/bin f=$T/tree/usr/bin/perf
mkdir -p "$d" && cp /bin/true "$f" && chmod 0755 "$f" &&
	"$setcap" cap_net_raw=ep "$f" >/dev/null &&
	# An ACL entry for nobody (r-x, mask r-x): --perf-group would remove it.
	setfattr -n system.posix_acl_access \
		-v 0x0200000001000700ffffffff02000500feff000004000500ffffffff10000500ffffffff20000500ffffffff "$f" ||
	{ fail "setup"; finish; }
"$cm" record "$T/tree" >"$T/m" || { fail "setup: record"; finish; }
chmod 0750 "$f" # so that restore --fix-owner would change the mode back
# Everything restore or setcap could change: owner, group, mode, xattrs.
state() {
	stat -c '%u:%g %a' "$f"
	getfattr -d -m - -e hex "$f" 2>/dev/null | sort
	cat "$T/m"
}
state >"$T/before"
grep -q '^security.capability=' "$T/before" && grep -q '^system.posix_acl_access=' "$T/before" ||
	{ fail "setup: $(cat "$T/before")"; finish; }

# CMD...: run without /proc (rc, $T/out, $T/err).
noproc() {
	run unshare -m --propagation private sh -c \
		'{ ! [ -e /proc/self ] || umount -l /proc; } && ! [ -e /proc/self ] || exit 99
		 exec "$@"' - "$@"
}
# CASE STATUS TEXT...: the refusal, one line on stderr naming each TEXT,
# nothing on stdout, nothing changed.
refused() {
	lcase=$1 want=$2; shift 2
	if [ "$rc" -eq 99 ]; then
		fail "$lcase: /proc could not be unmounted in a mount namespace"
		return
	fi
	expect_rc "$want" "$lcase" || sed 's/^/    /' "$T/err"
	expect_out "" "$lcase"
	[ "$(wc -l <"$T/err")" -eq 1 ] && pass || fail "$lcase: not one line: $(cat "$T/err")"
	for text; do
		grep -qF -- "$text" "$T/err" && pass || fail "$lcase: does not say '$text': $(cat "$T/err")"
	done
	state >"$T/after"
	same "$T/before" "$T/after" "$lcase: the file and the manifest"
}

why="/proc/thread-self/fd: No such file or directory"
noproc "$setcap" --perf-group=daemon --perf "$f"
refused "setcap --perf-group --perf" 1 "setcap: $f: refusing --perf, nothing changed: $why" "is /proc mounted?"
noproc "$setcap" --perf "$f"
refused "setcap --perf" 1 "setcap: $f: refusing --perf, nothing changed: $why" "is /proc mounted?"
noproc "$setcap" -v --perf-group=daemon --perf "$f"
refused "setcap -v --perf" 1 "setcap: $f: refusing --perf, nothing changed: $why"

noproc "$cm" record "$T/tree"
refused "capmanifest record" 2 "capmanifest: $why" "is /proc mounted?"
noproc "$cm" verify "$T/m" "$T/tree"
refused "capmanifest verify" 2 "capmanifest: $why"
noproc "$cm" restore --fix-owner "$T/m" "$T/tree"
refused "capmanifest restore --fix-owner" 2 "capmanifest: $why"
noproc "$cm" add "$T/m" "$f"
refused "capmanifest add" 2 "capmanifest: $why"

# With /proc, the same restore does change the file: the refusals above
# were the missing /proc, not a file restore would leave alone.
run "$cm" restore --fix-owner "$T/m" "$T/tree"
expect_rc 0 "restore --fix-owner with /proc" || cat "$T/err"
[ "$(stat -c %a "$f")" = 755 ] && pass || fail "restore with /proc: mode $(stat -c %a "$f")"
finish
