#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# <sys/psx_syscall.h> and libpsx are drop-ins for libcap's:
#  - our header compiles cleanly as C99, C11 and C++, and every declaration
#    in it agrees with Debian's header (both in one translation unit);
#  - tools/psxapi.c, which uses every name the header declares, passes when
#    built against our header and library, against Debian's header and
#    our library, and against Debian's header and library but run on ours;
#  - libpsx.pc gives libcap's link flags and variables.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
psx=$BUILD/psx inc=$TOP/include src=$TESTS_DIR/tools/psxapi.c
# Debian's header (a pinned copy's by -I), and its library by its
# SONAME's file (libcap-dev's libpsx.so is an absolute link, which a copy
# unpacked elsewhere cannot follow).
sys_inc=
if has_reference 2.66 libcap2 libcap-dev; then
	[ "$REF_PINNED" = 1 ] && sys_inc=$REF_ROOT/usr/include
	sys_h=$REF_ROOT/usr/include/sys/psx_syscall.h sys_lib=$REF_LIB/libpsx.so.2
else
	not_checked "Debian's header and libpsx left out: $reference_why"
	sys_h=/nonexistent sys_lib= sys_inc=
fi
[ -e "$psx/libpsx.so.2" ] || { fail "libpsx.so.2 is not built"; finish; }
cc=${CC:-cc}
san=; is_sanitized && san="-fsanitize=$SANITIZE"
threads=3

# psxapi's verdict line, then its output on failure.
psxapi_passes() {	# label command...
	label=$1; shift
	"$@" >"$T/out" 2>&1; rc=$?
	if [ $rc -eq 0 ] && tail -n 1 "$T/out" | grep -qx 'psxapi: PASSED'; then
		ok "$label ($(head -n 1 "$T/out"))"
	else
		fail "$label: exit $rc"; sed 's/^/    /' "$T/out"
	fi
}

# --- 1. our header on its own, strict -----------------------------------
for std in c99 c11 gnu11; do
	$cc -std=$std -Wall -Wextra -Wpedantic -Werror -I"$inc" -fsyntax-only "$src" && pass ||
		fail "psxapi.c with our header does not compile as $std"
done
cat >"$T/cxx.cc" <<'CXX'
#include <sys/psx_syscall.h>
#include <sys/syscall.h>
#include <unistd.h>
int main()
{
	long int (*f3)(long int, long int, long int, long int) = psx_syscall3;
	return f3(SYS_getpid, 0, 0, 0) == getpid() &&
	       psx_syscall(SYS_getpid, 0) == getpid() ? 0 : 1;
}
CXX
if command -v c++ >/dev/null 2>&1; then
	c++ $san -Wall -Wextra -Werror -I"$inc" -o "$T/cxx" "$T/cxx.cc" \
		-L"$psx" -Wl,-rpath,"$psx" -lpsx -lpthread && pass || fail "C++ build"
	run_ours "$T/cxx" && pass || fail "C++ program: exit $?"
	echo "ok: the header works from C++"
fi

# --- 2. every declaration agrees with Debian's ---------------------------
if [ -f "$sys_h" ]; then
	# Debian's header under another guard, without the enum (which may be
	# defined once only): what is left must redeclare ours compatibly.
	sed -e 's/_SYS_PSX_SYSCALL_H/DEBIAN_PSX_SYSCALL_H/' \
	    -e '/^typedef enum {/,/} psx_sensitivity_t;/d' "$sys_h" >"$T/debian.h"
	expect_line "$T/debian.h" 'psx_set_sensitivity' "could not prepare $sys_h"
	printf '#include <sys/psx_syscall.h>\n#include "debian.h"\nint main(void) { return 0; }\n' >"$T/both.c"
	if $cc -Wall -Wextra -Werror -I"$inc" -I"$T" -o "$T/both" "$T/both.c"; then
		echo "ok: our declarations agree with $sys_h (macro included)"
	else
		fail "our header and Debian's disagree"
	fi
else
	not_checked "$sys_h missing (libcap-dev), declarations not compared"
fi

# --- 3. psxapi against each header and library ----------------------------
psxapi_passes "our header, our libpsx" run_ours "$BIN/psxapi" $threads
if [ -f "$sys_h" ]; then
	# No -I of ours: <sys/psx_syscall.h> is Debian's.
	$cc $san ${sys_inc:+-I"$sys_inc"} -o "$T/debhdr" "$src" -L"$psx" -Wl,-rpath,"$psx" -lpsx \
		-lpthread -Wl,-wrap,pthread_create && pass || fail "Debian's header, our libpsx: link"
	ldd "$T/debhdr" | grep -q "$psx/libpsx.so.2" && pass || fail "debhdr does not load our libpsx"
	psxapi_passes "Debian's header, our libpsx" run_ours "$T/debhdr" $threads
fi
if [ -f "$sys_h" ] && [ -n "$sys_lib" ]; then
	$cc ${sys_inc:+-I"$sys_inc"} -o "$T/debian" "$src" "$sys_lib" -lpthread -Wl,-wrap,pthread_create && pass ||
		fail "Debian's header and libpsx: link"
	LD_LIBRARY_PATH=$psx ldd "$T/debian" | grep -q "$psx/libpsx.so.2" && pass ||
		fail "a binary linked with Debian's libpsx does not load ours"
	on_ours() { LD_LIBRARY_PATH=$psx with_our_lib ${VALGRIND_CMD:-} "$@"; }
	psxapi_passes "built on Debian's libpsx, run on ours" on_ours "$T/debian" $threads
fi

# --- 4. pkg-config ---------------------------------------------------------
if command -v pkg-config >/dev/null 2>&1; then
	want='-L/usr/local/lib -Wl,--no-as-needed -Wl,--whole-archive -lpsx -Wl,--no-whole-archive -Wl,--as-needed -lpthread'
	# The default (private) layout adds a run path to its libdir, so that
	# programs built against it load our libpsx (install_layout.sh); the
	# rest of the line is libcap 2.76's.
	got=$(PKG_CONFIG_LIBDIR=$psx pkg-config --define-variable=libdir=/usr/local/lib --libs libpsx |
		sed -e 's/ *$//' -e 's| -Wl,-rpath,/usr/local/lib$||')
	[ "$got" = "$want" ] && pass || fail "pkg-config --libs libpsx: \"$got\", want \"$want\""
	vars=$(PKG_CONFIG_LIBDIR=$psx pkg-config --print-variables libpsx | sort | tr '\n' ' ')
	for v in exec_prefix includedir libdir prefix; do
		case " $vars" in *" $v "*) pass ;; *) fail "libpsx.pc lacks the variable $v ($vars)" ;; esac
	done
	echo "ok: pkg-config --libs libpsx: $got"
else
	not_checked "libpsx.pc: pkg-config is not installed"
fi

finish "libpsx's header, library and pkg-config file are drop-ins for libcap's"
