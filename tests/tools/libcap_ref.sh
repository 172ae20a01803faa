#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# The reference libcaps the differential suites compare with, as Debian
# built them, pinned:
#   2.66        Debian 12's libcap2, libcap2-bin, libcap-dev and libpam-cap
#               (1:2.66-4+deb12u3+b1), the "_diff" suites' reference on a
#               host that has not installed them (lib.sh's has_reference
#               prefers the system's own where it has them);
#   2.75, 2.78  trixie's and sid's libcap2 and libcap2-bin, which bracket
#               the 2.76 we replace (Debian never packaged 2.76).
# Each runs on trixie's libc6 through trixie's dynamic loader, so the
# host's own C library does not matter (glibc is backward compatible:
# Debian 12's programs need 2.34, trixie's gives 2.41). Downloads each
# pinned .deb once into a cache, checks it against the SHA-256 pinned
# below, keeps it there, unpacks it, and writes for each version a bin/ of
# wrapper scripts (setcap, getcap, getpcaps, capsh) that run the program
# through that loader, and DIR/run, "run PROGRAM ARG...", which runs any
# program (a test tool linked with -lcap) on that version's libraries and
# trixie's libc. argv[0]: 2.75's and 2.78's programs get their bare name,
# so that "capsh ==" finds the same wrapper in PATH (progs_upstream_diff
# runs them from PATH); 2.66's get the path they were started by, as a
# program installed at /usr/sbin/capsh and run by its path does.
#
#   sh tests/tools/libcap_ref.sh [VERSION...]   (default: 2.75 2.78)
#   sh tests/tools/libcap_ref.sh --setup        all three, one line of news
#   sh tests/tools/libcap_ref.sh --cache        the cache's directory
#
# On success prints "DIR VERSION" for each VERSION asked (DIR/bin holds the
# wrappers, DIR the unpacked packages) and exits 0. Exits 77 with the
# reason on stderr, naming what to do, when the archive cannot be reached
# or no longer holds a pinned package; 1 when a download does not match
# its pin or the cache cannot be written. A warm cache needs no network,
# and one whose layout changed is unpacked again from the .debs it keeps.
# --setup (make test) always exits 0: a reference that cannot be had makes
# the suites that need it skip, each saying why.
#
# The cache: $LIBCAP_REF_CACHE if set; else, for root,
# /var/cache/libcap-perfmon (the suites run the reference as nobody too,
# who cannot search /root); else $XDG_CACHE_HOME/libcap-perfmon or
# ~/.cache/libcap-perfmon. Outside the tree, so a fresh clone and a
# "make clean" keep it; build/libcap-ref in the tree when none of these
# can be made. $LIBCAP_REF_MIRROR replaces the archive (a file:// URL of a
# directory laid out as the archive's pool works too).
#
# Why pinned: the differential's verdict must change only when our code
# does, not when Debian uploads a new build. The pins were taken from the
# archive's Packages indices, themselves checked against the suites'
# InRelease files with gpgv and debian-archive-keyring. To renew them when
# the archive drops a pinned file: fetch dists/{bookworm,trixie,sid}/
# InRelease, check them with gpgv, fetch and check main/binary-amd64/
# Packages.xz against them, and copy each package's Filename and SHA256
# here; then rerun the suites that compare (docs/hacking.md lists them).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
mirror=${LIBCAP_REF_MIRROR:-http://deb.debian.org/debian}
# The loader's directory in an unpacked libc6.
libcdir=usr/lib/x86_64-linux-gnu
# Bump when the unpacked layout or the wrappers change: a cache laid out
# otherwise is unpacked again.
layout=3

die() { echo "libcap_ref: $*" >&2; exit 1; }
unreachable() { echo "libcap_ref: $*" >&2; exit 77; }

# default_cache: see the header.
default_cache() {
	if [ -n "${LIBCAP_REF_CACHE:-}" ]; then
		echo "$LIBCAP_REF_CACHE"
		return
	fi
	if [ "$(id -u)" = 0 ]; then
		d=/var/cache/libcap-perfmon
	elif [ -n "${XDG_CACHE_HOME:-}" ]; then
		d=$XDG_CACHE_HOME/libcap-perfmon
	elif [ -n "${HOME:-}" ] && [ "$HOME" != / ]; then
		d=$HOME/.cache/libcap-perfmon
	else
		d=
	fi
	if [ -n "$d" ] && mkdir -p "$d" 2>/dev/null && [ -w "$d" ]; then
		echo "$d"
	else
		echo "$top/build/libcap-ref"
	fi
}

# The pinned packages: pool file and SHA-256, in pairs.
pins_libc='pool/main/g/glibc/libc6_2.41-12+deb13u5_amd64.deb
b59b0625cd1a791375d40dab23a4d5d3d0641e3d0a773501becdc3725b7f99cf'
pins_266='pool/main/libc/libcap2/libcap2_2.66-4+deb12u3+b1_amd64.deb
8d684c673e7483802a5c447834b0df6fce006eb3a7109e1be412f5ad425bb24f
pool/main/libc/libcap2/libcap2-bin_2.66-4+deb12u3+b1_amd64.deb
e7e14ebae53ef34c881a557e0a6d125b5e6721b692999045cf6af962daebe8d6
pool/main/libc/libcap2/libcap-dev_2.66-4+deb12u3+b1_amd64.deb
897ee64c93b04c4c8eb46551df2277673c1ab95584c765d8d07e3528a6a1c689
pool/main/libc/libcap2/libpam-cap_2.66-4+deb12u3+b1_amd64.deb
55c395339705a6bfac9bfe23f36b9f68c83257a8f3ad86fb97982a1d892ef326'
pins_275='pool/main/libc/libcap2/libcap2_2.75-10+deb13u1+b3_amd64.deb
89fc4d34fc7a28ad6f0fcd0c561ab253b9dedf6f77f5a000b47c276c8295bf67
pool/main/libc/libcap2/libcap2-bin_2.75-10+deb13u1+b3_amd64.deb
6404b8ee315ce3eb8e273981650e419ff0e91aed5213d4975a6895f98944ea80'
pins_278='pool/main/libc/libcap2/libcap2_2.78-1+b1_amd64.deb
ded957f0dd933e80a3cbbc3a920cb66a3d683f7e2ba2ddd77008f9f02744dcd9
pool/main/libc/libcap2/libcap2-bin_2.78-1+b1_amd64.deb
e5b6828c65a9f5b4380c5caaa61487386718040770f05ae8c24a2f1c48d48490'

# pins_of VERSION: its pins, or nothing for a version not pinned.
pins_of() {
	case $1 in
	2.66) echo "$pins_266" ;;
	2.75) echo "$pins_275" ;;
	2.78) echo "$pins_278" ;;
	esac
}

case ${1:-} in
--cache)
	default_cache
	exit 0
	;;
--setup)
	# make test's step: fill the cache, one line either way, never fail.
	out=$(LIBCAP_REF_RETRY=1 sh "$0" 2.66 2.75 2.78 2>&1 >/dev/null)
	case $? in
	0) echo "reference libcaps 2.66, 2.75, 2.78: $(default_cache)" ;;
	*) echo "reference libcaps not all at hand (the suites comparing with them will skip): $out" ;;
	esac
	exit 0
	;;
-*)
	die "unknown option $1 (--setup, --cache, or versions: 2.66 2.75 2.78)"
	;;
esac
[ $# -gt 0 ] || set -- 2.75 2.78
for v; do
	[ -n "$(pins_of "$v")" ] || die "no pinned libcap $v (2.66, 2.75 and 2.78 are)"
done

cache=$(default_cache)
mkdir -p "$cache" || die "cannot make $cache"
cache=$(cd "$cache" && pwd)

# stamp NAME: what NAME's directory was made from: its pins, this layout
# and the cache's own path (the wrappers name it).
stamp() {
	if [ "$1" = libc ]; then
		p=$pins_libc
	else
		p=$(pins_of "$1")
	fi
	# shellcheck disable=SC2086 # $p: one pin a word
	printf '%s\n' $p "layout $layout" "$cache"
}
# ready NAME: its directory is complete and made from today's pins.
ready() { [ "$(cat "$cache/$1/.pinned" 2>/dev/null)" = "$(stamp "$1")" ]; }

all_ready() {
	ready libc || return 1
	for v; do ready "$v" || return 1; done
}
report() { for v; do echo "$cache/$v $v"; done; }

# The common case, a warm cache: no lock, no network.
if all_ready "$@"; then
	report "$@"
	exit 0
fi

[ "$(uname -m)" = x86_64 ] || unreachable "the reference packages are amd64; this is $(uname -m)"
for t in curl sha256sum flock tar; do
	command -v $t >/dev/null ||
		unreachable "$t is not installed (needed to fetch the reference packages into $cache)"
done
# dpkg-deb where there is one; elsewhere ar (binutils) and tar unpack a .deb.
command -v dpkg-deb >/dev/null || command -v ar >/dev/null ||
	unreachable "neither dpkg-deb nor ar (binutils) is installed: cannot unpack the reference packages"

# One filler at a time (the plain and sanitizer passes run side by side,
# other checkouts may share the cache); released when this shell exits.
exec 9>"$cache/.lock" || die "cannot lock $cache"
flock 9
# Another filler may have finished while we waited.
if all_ready "$@"; then
	report "$@"
	exit 0
fi
chmod 755 "$cache" 2>/dev/null

# A download that failed a moment ago is not tried again by every suite
# that asks (where the network drops packets, each try costs its
# time-outs): for ten minutes the same answer from the same mirror,
# unless LIBCAP_REF_RETRY=1 (--setup sets it: make test tries each time).
marker=$cache/.unreachable
if [ "${LIBCAP_REF_RETRY:-0}" != 1 ] && [ -n "$(find "$marker" -mmin -10 2>/dev/null)" ] &&
   [ "$(sed -n 1p "$marker")" = "$mirror" ]; then
	unreachable "$(sed 1d "$marker") (tried less than 10 minutes ago; make test-refs tries again now)"
fi

tmp=$(mktemp -d "$cache/.work.XXXXXX") || die "mktemp in $cache"
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

# fetch FILE SHA256: the pool FILE in $cache/debs, checked against its
# pin; downloaded only when it is not there already.
fetch() {
	f=$cache/debs/$1
	if [ -f "$f" ] && [ "$(sha256sum <"$f" | cut -d' ' -f1)" = "$2" ]; then
		return 0
	fi
	mkdir -p "$(dirname "$f")" || die "cannot make $(dirname "$f")"
	if ! curl -fsS --retry 2 --connect-timeout 15 --max-time 300 \
		-o "$tmp/p.deb" "$mirror/$1" 2>"$tmp/curl.err"; then
		msg="cannot download $mirror/$1 ($(tr '\n' ' ' <"$tmp/curl.err" | sed 's/ *$//')): with the network, run \"make test-refs\" once (it fills $cache); if the archive dropped the file, renew the pins in tests/tools/libcap_ref.sh"
		printf '%s\n%s\n' "$mirror" "$msg" >"$marker"
		unreachable "$msg"
	fi
	got=$(sha256sum <"$tmp/p.deb" | cut -d' ' -f1)
	[ "$got" = "$2" ] || die "$1: sha256 $got, pinned $2"
	mv "$tmp/p.deb" "$f" || die "cannot keep $f"
}

# unpack DEB DIR
unpack() {
	if command -v dpkg-deb >/dev/null; then
		dpkg-deb -x "$1" "$2" || die "$1: cannot unpack"
		return
	fi
	(
		cd "$2" || exit 1
		m=$(ar t "$1" | grep '^data\.tar') || exit 1
		case $m in
		*.xz) z=-J ;; *.gz) z=-z ;; *.zst) z=--zstd ;; *) z= ;;
		esac
		ar p "$1" "$m" | tar -x $z
	) || die "$1: cannot unpack with ar and tar"
}

# fill NAME PINS: NAME's directory in $tmp, its packages fetched and unpacked.
fill() {
	mkdir "$tmp/$1" || die mkdir
	# shellcheck disable=SC2086 # $2: one pin a word
	set -- "$1" $2
	name=$1; shift
	while [ $# -ge 2 ]; do
		fetch "$1" "$2"
		unpack "$cache/debs/$1" "$tmp/$name"
		shift 2
	done
}

# libdir DIR: where DIR's libcap.so.2 lies (bookworm's packages put it in
# /lib, trixie's in /usr/lib), relative to DIR.
libdir() {
	for d in lib/x86_64-linux-gnu usr/lib/x86_64-linux-gnu; do
		[ -e "$1/$d/libcap.so.2" ] && { echo "$d"; return 0; }
	done
	die "no libcap.so.2 in the unpacked packages of $1"
}

# wrappers VERSION: bin/PROG and run for an unpacked version, naming the
# paths it will have in the cache.
wrappers() {
	v=$1 final=$cache/$1
	ld=$cache/libc/$libcdir/ld-linux-x86-64.so.2
	libs=$final/$(libdir "$tmp/$v"):$cache/libc/$libcdir
	mkdir "$tmp/$v/bin" || die mkdir
	for p in setcap getcap getpcaps capsh; do
		s=usr/sbin
		[ -x "$tmp/$v/$s/$p" ] || s=sbin
		[ -x "$tmp/$v/$s/$p" ] || die "libcap2-bin $v has no $p"
		if [ "$v" = 2.66 ]; then
			# shellcheck disable=SC2016 # "$0" is the wrapper's
			argv0='"$0"' how="named by the path it was started by"
		else
			argv0=$p how="named $p"
		fi
		# upstream_run.pl reads 2.75's and 2.78's wrappers: keep their shape.
		cat >"$tmp/$v/bin/$p" <<EOF
#!/bin/sh
# libcap $v's $p on trixie's libc, $how (written by tests/tools/libcap_ref.sh).
exec "$ld" \\
	--library-path "$libs" \\
	--argv0 $argv0 "$final/$s/$p" "\$@"
EOF
		chmod 755 "$tmp/$v/bin/$p"
	done
	cat >"$tmp/$v/run" <<EOF
#!/bin/sh
# Runs "\$@" on libcap $v's libraries and trixie's libc (written by
# tests/tools/libcap_ref.sh).
exec "$ld" --library-path "$libs" "\$@"
EOF
	chmod 755 "$tmp/$v/run"
}

# install NAME: from $tmp into the cache, readable by every user (the
# suites run the reference as nobody too), then marked ready.
install_dir() {
	chmod -R go+rX "$tmp/$1" || die "chmod $tmp/$1"
	rm -rf "${cache:?}/$1"
	mv "$tmp/$1" "$cache/$1" || die "cannot fill $cache/$1"
	stamp "$1" >"$cache/$1/.pinned.new" || die "cannot mark $cache/$1 ready"
	mv "$cache/$1/.pinned.new" "$cache/$1/.pinned" || die "cannot mark $cache/$1 ready"
}

if ! ready libc; then
	fill libc "$pins_libc"
	install_dir libc
fi
for v; do
	ready "$v" && continue
	fill "$v" "$(pins_of "$v")"
	wrappers "$v"
	install_dir "$v"
	# A proof that it runs here, before it is reported.
	out=$("$cache/$v/bin/capsh" --license 2>&1) || {
		rm -f "$cache/$v/.pinned"
		die "libcap $v's capsh does not run: $out"
	}
done
rm -f "$marker"
report "$@"
