#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# The differential suites compare with Debian 12's libcap 2.66 on a host
# that has not installed it, through the pinned copy tests/tools/
# libcap_ref.sh keeps in its cache (lib.sh's has_reference), and offline
# once the cache is warm. Here the host is made to lack 2.66: dpkg-query,
# earlier in PATH, says none of libcap2, libcap2-bin, libcap-dev and
# libpam-cap is installed; in a private mount namespace the system's
# setcap, getcap, getpcaps, capsh, pam_cap.so, <sys/capability.h>,
# <sys/psx_syscall.h> and libcap-dev's test programs are hidden (a use of
# a program is recorded and fails); the archive's address is a closed
# port on the loopback. Then a real differential suite (cli/getcap_order.sh,
# the cheapest) must
#  - pass on the warm cache, with no system program used;
#  - fail on a difference planted in our getcap (one trailing space);
#  - on an empty cache, skip, naming what the system lacks, why the copy
#    cannot be had and "make test-refs" (and the next to ask is answered
#    from that failure, without trying the network again);
# and libcap_ref.sh must fill an empty cache from a file:// mirror of the
# .debs the cache keeps (fetch, pin check, unpack, wrappers: the path of a
# first make test, without the network), and refuse a .deb that does not
# match its pin; LIBCAP_REF_PINNED=1 takes the copy on any host.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
[ "${VALGRIND:-0}" = 1 ] && skip "runs none of our code under valgrind"
[ "$(id -u)" -eq 0 ] || skip "needs root (a mount namespace hides the system's files)"
unshare -m true 2>/dev/null || skip "cannot create a mount namespace"
[ -x "$BUILD/progs/getcap" ] || { fail "progs/getcap is not built"; finish; }
ref_sh=$TESTS_DIR/tools/libcap_ref.sh

# The warm cache: the one make test-refs fills (filled now if it is cold
# and the archive can be reached).
sh "$ref_sh" 2.66 >"$T/refs" 2>"$T/refs.err"
case $? in
0) ;;
77) skip "no pinned copy of libcap 2.66 to test with: $(cat "$T/refs.err")" ;;
*) fail "tests/tools/libcap_ref.sh 2.66: $(cat "$T/refs.err")"; finish ;;
esac
cache=$(dirname "$(cut -d' ' -f1 "$T/refs")")
offline=http://127.0.0.1:9/debian

mkdir "$T/fake" && cat >"$T/fake/dpkg-query" <<'DQ' && chmod 755 "$T/fake/dpkg-query" || exit 1
#!/bin/sh
# None of Debian's libcap packages is installed; others as dpkg says.
for pkg; do :; done
case $pkg in
libcap2|libcap2-bin|libcap-dev|libpam-cap)
	echo "dpkg-query: no packages found matching $pkg" >&2; exit 1 ;;
esac
exec /usr/bin/dpkg-query "$@"
DQ
printf '#!/bin/sh\necho "$0 $*" >>"%s/used"\necho "$0: the system'"'"'s program was used" >&2\nexit 127\n' \
	"$T" >"$T/poison" && chmod 755 "$T/poison" || exit 1

# elsewhere CMD...: CMD on the host made to lack libcap 2.66 (above).
elsewhere() {
	unshare -m --propagation private sh -c '
		t=$1; shift
		for p in setcap getcap getpcaps capsh; do
			[ ! -e "/usr/sbin/$p" ] || mount --bind "$t/poison" "/usr/sbin/$p" || exit 125
		done
		for f in /usr/include/sys/capability.h /usr/include/sys/psx_syscall.h \
			 /usr/lib/x86_64-linux-gnu/security/pam_cap.so; do
			[ ! -e "$f" ] || mount --bind /dev/null "$f" || exit 125
		done
		d=/usr/lib/x86_64-linux-gnu/libcap2
		[ ! -d "$d" ] || mount -t tmpfs none "$d" || exit 125
		PATH=$t/fake:$PATH exec "$@"' sh "$T" "$@"
}
# differential LOG [VAR=VALUE...]: cli/getcap_order.sh, elsewhere, offline.
differential() {
	log=$1; shift
	elsewhere env LIBCAP_REF_MIRROR=$offline "$@" sh "$TESTS_DIR/cli/getcap_order.sh" >"$T/$log" 2>&1
}

# 1. The warm cache, offline: the suite compares and passes.
differential warm.log; rc=$?
[ $rc -ne 125 ] || { fail "cannot hide the system's files"; finish; }
if [ $rc -eq 0 ] && grep -q '^getcap -v -r t: [0-9]* lines, identical$' "$T/warm.log" &&
   grep -q '^[1-9][0-9]* checks, 0 failed$' "$T/warm.log"; then
	ok "without Debian's 2.66 and offline, getcap_order.sh compares with the pinned copy in $cache and passes"
else
	fail "getcap_order.sh on the warm cache, offline: exit $rc"; sed 's/^/    /' "$T/warm.log"
fi
[ ! -e "$T/used" ] && pass || { fail "the system's programs were used:"; sed 's/^/    /' "$T/used"; }
# The hiding holds: a getcap the system has cannot be run in that world.
if [ -x /usr/sbin/getcap ]; then
	elsewhere /usr/sbin/getcap -h >/dev/null 2>&1
	[ -e "$T/used" ] && pass || fail "the system's getcap is not hidden (the test proves nothing)"
	rm -f "$T/used"
else
	echo "note: this system has no /usr/sbin/getcap to hide"
fi

# 2. A difference planted in ours fails it.
mkdir -p "$T/build/progs" || exit 1
printf '#!/bin/sh\n"%s" "$@" | sed "1s/\\$/ /"\n' "$BUILD/progs/getcap" >"$T/build/progs/getcap" &&
	chmod 755 "$T/build/progs/getcap" || exit 1
differential planted.log BUILD="$T/build"; rc=$?
if [ $rc -eq 1 ] && grep -q '^FAIL: getcap -v -r t: not libcap.s output:$' "$T/planted.log"; then
	ok "a trailing space planted in our getcap's first line fails the comparison"
else
	fail "the planted difference: exit $rc, want 1 and the case named"; sed 's/^/    /' "$T/planted.log"
fi

# 3. An empty cache, offline: a skip that says what is missing and how.
differential cold.log LIBCAP_REF_CACHE="$T/cold"; rc=$?
want="skipped: needs Debian's libcap 2.66 as its reference; libcap2 is not installed, and its pinned copy cannot be had: libcap_ref: cannot download $offline/"
if [ $rc -eq 77 ] && grep -qF "$want" "$T/cold.log" &&
   grep -qF "run \"make test-refs\" once (it fills $T/cold)" "$T/cold.log"; then
	pass
else
	fail "getcap_order.sh on an empty cache, offline: exit $rc, want 77 and the reason"
	sed 's/^/    /' "$T/cold.log"
fi

# The next suite asking is answered from that failure, without the
# network (where it drops packets each try would cost its time-outs).
LIBCAP_REF_CACHE=$T/cold LIBCAP_REF_MIRROR=$offline sh "$ref_sh" 2.66 >"$T/again.out" 2>&1
rc=$?
[ $rc -eq 77 ] && grep -qF "(tried less than 10 minutes ago; make test-refs tries again now)" "$T/again.out" &&
	pass || { fail "a second try on the unreachable archive: exit $rc"; sed 's/^/    /' "$T/again.out"; }

# 4. An empty cache filled from a file:// mirror of the kept .debs.
LIBCAP_REF_CACHE=$T/fresh LIBCAP_REF_MIRROR=file://$cache/debs sh "$ref_sh" 2.66 >"$T/fresh.out" 2>&1
rc=$?
if [ $rc -eq 0 ] && [ "$(cat "$T/fresh.out")" = "$T/fresh/2.66 2.66" ] &&
   "$T/fresh/2.66/bin/getpcaps" 2>&1 | grep -q '^usage: getcaps \[opts\]'; then
	ok "an empty cache filled offline from the kept .debs runs Debian 12's getpcaps (2.66's usage says \"getcaps\")"
else
	fail "filling an empty cache from file://$cache/debs: exit $rc"; sed 's/^/    /' "$T/fresh.out"
fi
# A .deb that is not the pinned one is refused, nothing is marked ready.
# (libc6 is fetched first: a mirror holding a wrong one of it is enough.)
libc6=$(cd "$cache/debs" && find pool -name 'libc6_*.deb')
mkdir -p "$T/bad/$(dirname "$libc6")" && echo 'not the pinned libc6' >"$T/bad/$libc6" || exit 1
LIBCAP_REF_CACHE=$T/badcache LIBCAP_REF_MIRROR=file://$T/bad sh "$ref_sh" 2.66 >"$T/bad.out" 2>&1
rc=$?
if [ $rc -eq 1 ] && grep -q "^libcap_ref: pool/main/g/glibc/libc6_.*: sha256 [0-9a-f]*, pinned [0-9a-f]*$" "$T/bad.out" &&
   [ ! -e "$T/badcache/libc/.pinned" ] && [ ! -e "$T/badcache/2.66" ]; then
	pass
else
	fail "a .deb that fails its pin: exit $rc"; sed 's/^/    /' "$T/bad.out"
fi

# 5. LIBCAP_REF_PINNED=1 takes the copy even where the system has 2.66
# (here the real dpkg-query answers); each variable names the copy.
printf '%s\n' '. "$TESTS_DIR/lib.sh"' init \
	'has_reference 2.66 libcap2 libcap2-bin libcap-dev libpam-cap || echo "$reference_why"' \
	'echo "$REF_PINNED $REF $REF_LIB $REF_SBIN $REF_ROOT"; ok ran; finish' >"$T/knob.sh"
want="1 $cache/2.66/bin $cache/2.66/lib/x86_64-linux-gnu $cache/2.66/sbin $cache/2.66"
LIBCAP_REF_PINNED=1 LIBCAP_REF_MIRROR=$offline sh "$T/knob.sh" >"$T/knob.out" 2>&1
grep -qxF "$want" "$T/knob.out" && pass || { fail "LIBCAP_REF_PINNED=1: want [$want]"; sed 's/^/    /' "$T/knob.out"; }
finish "the differential suites compare with the pinned 2.66 where the system lacks it, offline on a warm cache"
