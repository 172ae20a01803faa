#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# "make install" into a staging directory honours DESTDIR, prefix, libdir,
# sbindir, pkgconfigdir and pamdir; installs the library with its SONAME
# symlinks, the header, libcap.pc, the programs, pam_cap.so and the man
# pages; nothing installed carries a run path into the build tree; and
# "make uninstall" with the same paths removes every file again.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
# Nothing here runs under valgrind: in the valgrind pass it would only
# repeat the plain pass.
[ "${VALGRIND:-0}" = 1 ] && skip "runs none of our code under valgrind (the first pass of make test runs it)"
stage=$T/stage
mkdir "$stage"

paths="DESTDIR=$stage prefix=/usr libdir=/usr/lib sbindir=/usr/sbin pamdir=/usr/lib/security"
# shellcheck disable=SC2086
make -s -C "$TOP" install $paths >"$stage.log" 2>&1 ||
	{ cat "$stage.log"; fail "make install"; finish; }
rm -f "$stage.log"

r=$stage/usr
[ -f "$r/lib/libcap.so.2.76" ] && pass || fail "no libcap.so.2.76"
[ "$(readlink "$r/lib/libcap.so.2")" = libcap.so.2.76 ] && pass || fail "libcap.so.2 link"
[ "$(readlink "$r/lib/libcap.so")" = libcap.so.2 ] && pass || fail "libcap.so link"
[ -f "$r/lib/libcap.a" ] && pass || fail "no libcap.a"
cmp -s "$r/include/sys/capability.h" "$TOP/include/sys/capability.h" && pass || fail "header"
grep -qx 'libdir=/usr/lib' "$r/lib/pkgconfig/libcap.pc" && pass || fail "libcap.pc libdir"
grep -qx 'Version: 2.76' "$r/lib/pkgconfig/libcap.pc" && pass || fail "libcap.pc version"
PKG_CONFIG_SYSROOT_DIR=$stage PKG_CONFIG_LIBDIR=$r/lib/pkgconfig \
	pkg-config --libs libcap | grep -q -- '-lcap' && pass || fail "pkg-config --libs libcap"
# libpsx beside libcap.
[ -f "$r/lib/libpsx.so.2.76" ] && pass || fail "no libpsx.so.2.76"
[ "$(readlink "$r/lib/libpsx.so.2")" = libpsx.so.2.76 ] && pass || fail "libpsx.so.2 link"
[ -f "$r/lib/libpsx.a" ] && pass || fail "no libpsx.a"
cmp -s "$r/include/sys/psx_syscall.h" "$TOP/include/sys/psx_syscall.h" && pass || fail "psx header"
grep -qx 'libdir=/usr/lib' "$r/lib/pkgconfig/libpsx.pc" && pass || fail "libpsx.pc libdir"
[ -f "$r/share/man/man3/psx_syscall.3" ] && pass || fail "man page psx_syscall.3 not installed"
# Every program progs/ builds (one folder each), none forgotten by install.
for d in "$TOP"/progs/*/; do
	p=$(basename "$d")
	[ -x "$r/sbin/$p" ] && pass || fail "no $p in sbindir"
done
[ -f "$r/lib/security/pam_cap.so" ] && pass || fail "no pam_cap.so in pamdir"
for f in "$r"/sbin/* "$r/lib/security/pam_cap.so" "$r/lib/libcap.so.2.76" "$r/lib/libpsx.so.2.76"; do
	[ -f "$f" ] || continue
	if readelf -d "$f" | grep -q 'RPATH\|RUNPATH'; then
		fail "$f carries a run path: $(readelf -d "$f" | grep 'RPATH\|RUNPATH')"
	else
		pass
	fi
done
for page in man3/cap_get_file.3 man3/cap_launcher_setuid.3 man8/setcap.8 \
	    man1/capsh.1 man5/capability.conf.5 man7/cap_text_formats.7 \
	    man8/capaudit.8; do
	[ -f "$r/share/man/$page" ] && pass || fail "man page $page not installed"
done
# An installed program finds the installed library by its SONAME.
LD_LIBRARY_PATH=$r/lib "$r/sbin/setcap" -v = /nonexistent-file >/dev/null && pass ||
	fail "installed setcap does not run against the installed library"
files=$(find "$stage" -type f | wc -l)
# shellcheck disable=SC2086
if make -s -C "$TOP" uninstall $paths >"$stage.log" 2>&1; then
	left=$(find "$stage" ! -type d)
	[ -z "$left" ] && pass || fail "left after make uninstall: $(echo $left)"
else
	fail "make uninstall: $(tail -3 "$stage.log")"
fi
rm -f "$stage.log"
finish "staged install complete: $files files, all removed by uninstall"
