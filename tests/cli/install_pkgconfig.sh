#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# libcap.pc and libpsx.pc, as built and as installed with
# "make install DESTDIR=... prefix=/usr LIBCAP_LAYOUT=system" (as a
# package build installs them), carry the fields and variables of
# Debian's (libcap-dev), in the same order, and pkg-config answers
# --print-variables, --cflags, --libs and --libs --static as for Debian's.
# One difference is on purpose: libpsx's link flags are libcap 2.76's
# (--whole-archive -lpsx), not 2.66's -Wl,-wrap,pthread_create, which our
# libpsx does not need (see psx_syscall(3), docs/libpsx.md); that line is
# checked against 2.76's instead.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
command -v pkg-config >/dev/null 2>&1 || skip "pkg-config is not installed"
deb=
for d in /usr/lib/*/pkgconfig /usr/lib/pkgconfig /usr/share/pkgconfig; do
	[ -f "$d/libcap.pc" ] && [ -f "$d/libpsx.pc" ] && { deb=$d; break; }
done
[ -n "$deb" ] || skip "Debian's libcap.pc and libpsx.pc are not installed (libcap-dev)"

stage=$T/stage
mkdir "$stage"

# libcap/ and psx/ install the .pc files; the top-level install would
# relink every program for nothing here (install_staged.sh covers it).
for d in libcap psx; do
	make -s -C "$TOP/$d" install DESTDIR="$stage/root" prefix=/usr LIBCAP_LAYOUT=system || exit 1
done >"$stage/log" 2>&1 ||
	{ cat "$stage/log"; fail "make install"; finish; }
ours=$stage/root/usr/lib/pkgconfig
[ -f "$ours/libcap.pc" ] && [ -f "$ours/libpsx.pc" ] ||
	{ fail "make install wrote no .pc files in $ours"; ls -R "$stage/root/usr/lib"; finish; }

# One pkg-config question, put to a single directory only.
ask() {	# dir package args...
	dir=$1 pkg=$2; shift 2
	PKG_CONFIG_LIBDIR=$dir PKG_CONFIG_PATH= pkg-config "$@" "$pkg" 2>&1
}
same_value() {	# label ours debian's
	if [ "$2" = "$3" ]; then
		ok "$1: $(printf '%s' "$2" | tr '\n' ' ')"
	else
		fail "$1: ours \"$(printf '%s' "$2" | tr '\n' ' ')\"," \
		     "Debian's \"$(printf '%s' "$3" | tr '\n' ' ')\""
	fi
}
# Keys in file order: "name=" variables and "Field:" lines.
keys() { sed -n 's/^\([A-Za-z_][A-Za-z0-9_.]*\)[=:].*/\1/p' "$1"; }

for pkg in libcap libpsx; do
	built=$BUILD/libcap; [ $pkg = libpsx ] && built=$BUILD/psx
	same_value "$pkg.pc keys (installed)" "$(keys "$ours/$pkg.pc")" "$(keys "$deb/$pkg.pc")"
	same_value "$pkg.pc keys (built)" "$(keys "$built/$pkg.pc")" "$(keys "$deb/$pkg.pc")"
	same_value "$pkg --print-variables (installed)" \
		"$(ask "$ours" $pkg --print-variables)" "$(ask "$deb" $pkg --print-variables)"
	same_value "$pkg --print-variables (built)" \
		"$(ask "$built" $pkg --print-variables)" "$(ask "$deb" $pkg --print-variables)"
	same_value "$pkg --cflags" "$(ask "$ours" $pkg --cflags)" "$(ask "$deb" $pkg --cflags)"
	# Our values, as installed with prefix=/usr.
	for v in prefix=/usr exec_prefix=/usr libdir=/usr/lib includedir=/usr/include; do
		got=$(ask "$ours" $pkg --variable="${v%%=*}")
		[ "$got" = "${v#*=}" ] && pass || fail "$pkg: ${v%%=*} is \"$got\", want \"${v#*=}\""
	done
	[ "$(ask "$ours" $pkg --modversion)" = 2.76 ] && pass || fail "$pkg --modversion: $(ask "$ours" $pkg --modversion)"
done

for static in "" --static; do
	same_value "libcap --libs $static" "$(ask "$ours" libcap --libs $static)" \
		"$(ask "$deb" libcap --libs $static)"
	want='-Wl,--no-as-needed -Wl,--whole-archive -lpsx -Wl,--no-whole-archive -Wl,--as-needed -lpthread'
	got=$(ask "$ours" libpsx --libs $static | sed 's/ *$//')
	[ "$got" = "$want" ] && echo "ok: libpsx --libs $static: libcap 2.76's" && pass ||
		fail "libpsx --libs $static: \"$got\", want libcap 2.76's \"$want\""
done

finish "libcap.pc and libpsx.pc carry Debian's fields and variables"
