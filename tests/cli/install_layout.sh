#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# A plain "make install" must not take over the system's libcap: Debian's
# ld.so searches /usr/local/lib before the multiarch directory holding
# libcap.so.2, so the default (private) layout keeps libcap.so.2 and
# libpsx.so.2 out of every directory ld.so searches, and our programs and
# pam_cap.so load them through a run path. Also: "make uninstall" removes
# exactly what install wrote, and the installed man pages name the real
# paths. Everything goes to temporary directories.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
# Nothing here runs under valgrind: in the valgrind pass it would only
# repeat the plain pass.
[ "${VALGRIND:-0}" = 1 ] && skip "runs none of our code under valgrind (the first pass of make test runs it)"
minstall() {	# make TARGET VAR=VALUE...; the log is shown on failure
	make -s -C "$TOP" "$@" >"$T/log" 2>&1 ||
		{ cat "$T/log"; echo "make $*: failed"; return 1; }
}

# One install, for real, under a temporary prefix that stands for
# /usr/local (the layout does not depend on the prefix; a real one lets the
# run paths resolve). No DESTDIR, LIBCAP_LAYOUT or libdir: the defaults.
p=$T/usr/local
minstall install prefix="$p" || exit 1
ours=$p/lib/libcap-perfmon/libcap.so.2

# 1. Nothing in $(libdir), which ld.so searches first on Debian, nor where cc
# and pkg-config look first; the library in its own directory.
for lib in libcap.so.2 libpsx.so.2 libcap.so libpsx.so libcap.a; do
	{ [ -e "$p/lib/$lib" ] || [ -L "$p/lib/$lib" ]; } &&
		fail "default install put $lib in \$(libdir), which ld.so searches before the system's libcap" || pass
done
[ -f "$p/lib/libcap-perfmon/libcap.so.2.76" ] && pass || fail "no libcap.so.2.76 in the private directory"
# Mode 0755, as upstream's "make install" leaves them: both libraries run
# as programs (Debian's packages make them 0644, as dh_fixperms does).
for lib in libcap.so.2.76 libpsx.so.2.76; do
	mode=$(stat -c %a "$p/lib/libcap-perfmon/$lib" 2>/dev/null)
	[ "$mode" = 755 ] && pass || fail "$lib installed mode $mode, upstream's make install gives 755"
	"$p/lib/libcap-perfmon/$lib" --help >"$T/run" 2>&1 && pass ||
		fail "$lib does not run as a program: $(head -c 200 "$T/run")"
done
[ -e "$p/include/sys/capability.h" ] && fail "default install put sys/capability.h where cc looks first" || pass
[ -e "$p/lib/pkgconfig/libcap.pc" ] && fail "default install put libcap.pc where pkg-config looks first" || pass

# 2. The programs, pam_cap.so and a program built with the installed
# libcap.pc load our library, not the system's, with no LD_LIBRARY_PATH.
for f in "$p"/sbin/* "$p/lib/security/pam_cap.so"; do
	[ -f "$f" ] && pass || { fail "nothing installed in sbin"; break; }
	got=$(env -u LD_LIBRARY_PATH ldd "$f" | awk '$1 == "libcap.so.2" {print $3}')
	[ "$got" = "$ours" ] && pass || fail "$(basename "$f") loads '$got', not $ours"
done
env -u LD_LIBRARY_PATH LD_DEBUG=libs "$p/sbin/getpcaps" $$ >/dev/null 2>"$T/debug" && pass ||
	fail "installed getpcaps failed: $(tail -1 "$T/debug")"
grep -q "calling init: $ours\$" "$T/debug" && pass || fail "getpcaps did not initialise $ours"
printf '#include <sys/capability.h>\nint main(void) { return cap_max_bits() > 0 ? 0 : 1; }\n' >"$T/t.c"
# shellcheck disable=SC2046
if cc -o "$T/t" "$T/t.c" $(PKG_CONFIG_PATH=$p/lib/libcap-perfmon/pkgconfig \
		pkg-config --cflags --libs libcap) 2>"$T/cc"; then
	got=$(env -u LD_LIBRARY_PATH ldd "$T/t" | awk '$1 == "libcap.so.2" {print $3}')
	[ "$got" = "$ours" ] && pass || fail "a program built with libcap.pc loads '$got', not $ours"
else
	fail "building with the installed libcap.pc: $(head -1 "$T/cc")"
fi

# 3. Installed man pages carry the paths of this install, no make variable
# or placeholder.
man=$p/share/man
if grep -lrE '\$\((prefix|exec_prefix|libdir|sbindir|bindir|includedir|mandir|pkgconfigdir|pamdir)\)|@[a-z]+dir@' \
	"$man" >"$T/left"; then
	fail "installed pages with build variables left: $(tr '\n' ' ' <"$T/left")"
else
	pass
fi
grep -qxF ".I $p/sbin/setcap" "$man/man8/setcap.8" && pass || fail "setcap.8 FILES does not name $p/sbin/setcap"
grep -qxF ".I $p/lib/security/pam_cap.so" "$man/man8/pam_cap.8" && pass || fail "pam_cap.8 FILES does not name the module"
grep -qxF ".I $ours" "$man/man3/libcap.3" && pass || fail "libcap.3 FILES does not name $ours"

# 4. Uninstall with the same prefix removes every file install wrote and
# nothing else: another package's files in the same directories stay.
echo other >"$p/sbin/other"
echo other >"$p/lib/libother.so.1"
if minstall uninstall prefix="$p"; then
	left=$(cd "$p" && find . ! -type d | sort | tr '\n' ' ')
	[ "$left" = "./lib/libother.so.1 ./sbin/other " ] && pass ||
		fail "after uninstall: left '$left', expected only the two foreign files"
	[ -d "$p/lib/libcap-perfmon" ] && fail "private libdir not removed" || pass
else
	fail "make uninstall failed"
fi

finish "default install stays private, uninstall is exact"
