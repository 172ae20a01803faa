#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# A program linked with libpsx (as libcap documents) gets every state
# change applied to all its threads: our libcap finds psx_load_syscalls
# through a weak reference and routes cap_set_proc() through psx_syscall.
# psxprobe clears E from the main thread and reads a second thread's E.
#
# Link order (psx_syscall(3), LINKING): our libcap's reference is undefined
# and weak, so it finds libpsx whenever libpsx is loaded. Debian's libcap
# (like libcap 2.76's) defines a weak psx_load_syscalls of its own, which
# the dynamic linker prefers when libcap comes before libpsx in the
# program's list of libraries. psxprobe.c is built here against Debian's
# header and libraries, once -lcap -lpsx and once -lpsx -lcap, and run on
# Debian's libcap with our libpsx (order decides) and on both of ours
# (every thread, either order).
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
[ "$(id -u)" -eq 0 ] || skip "needs a non-empty E (root)"
[ -x "$BIN/psxprobe" ] || skip "psxprobe not built (libpsx missing)"
out=$("$BIN/psxprobe"); rc=$?
echo "$out"
[ $rc -eq 0 ] && pass || fail "cap_set_proc did not reach the second thread"
echo "$out" | grep -qx 'main E 0000000000000000, worker E 0000000000000000' && pass ||
	fail "unexpected output"

psx=$BUILD/psx cap=$BUILD/libcap cc=${CC:-cc}
if [ ! -f /usr/include/sys/capability.h ] || [ ! -f /usr/include/sys/psx_syscall.h ] ||
	! ls /usr/lib/*/libpsx.so /lib/*/libpsx.so >/dev/null 2>&1; then
	echo "link order: Debian's libcap and libpsx development files are not installed"
	finish "cap_set_proc reached every thread"
fi
if ldd "$psx/libpsx.so.2" "$cap/libcap.so.2" | grep -q 'libasan\|libubsan'; then
	echo "link order: built with sanitizers; Debian-built programs cannot load them"
	finish "cap_set_proc reached every thread"
fi
for order in "cap psx" "psx cap"; do
	set -- $order
	# --no-as-needed: libpsx is not referenced by name, and must stay.
	$cc -O2 -o "$T/probe-$1-$2" "$TESTS_DIR/tools/psxprobe.c" \
		-Wl,--no-as-needed -l$1 -l$2 -lpthread && pass || fail "cc -l$1 -l$2"
done

probe() {	# case expected-exit binary library-path
	LD_LIBRARY_PATH=$4 timeout -k 10 60 "$3" >"$T/out" 2>&1; rc=$?
	sed 's/^/    /' "$T/out"
	if [ $rc -ne "$2" ]; then
		fail "$1: exit $rc, expected $2"
	else
		ok "$1"
	fi
}
probe "-lcap -lpsx, Debian's libcap, our libpsx: libcap's own definition wins" 1 \
	"$T/probe-cap-psx" "$psx"
grep -q 'worker E 0000000000000000' "$T/out" &&
	fail "-lcap -lpsx on Debian's libcap reached the worker (did the binding change?)" || pass
probe "-lpsx -lcap, Debian's libcap, our libpsx: libpsx's definition wins" 0 \
	"$T/probe-psx-cap" "$psx"
probe "-lcap -lpsx, our libcap and libpsx" 0 "$T/probe-cap-psx" "$psx:$cap"
probe "-lpsx -lcap, our libcap and libpsx" 0 "$T/probe-psx-cap" "$psx:$cap"
finish "cap_set_proc reached every thread; with Debian's libcap only when libpsx comes first"
