#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# Debian's own libpsx test programs (libcap-dev's tests directory, the
# system's or the pinned copy's), built against Debian's libpsx 2.66 and
# libcap, run on our libpsx.so.2 and libcap.so.2 through LD_LIBRARY_PATH
# and pass: psx_test (psx_syscall from the main thread and from threads,
# keepcaps everywhere), libcap_psx_test (cap_set_proc through libpsx
# while threads come and go), libcap_psx_launch_test (the launcher;
# despite its name Debian links it without libpsx), and noexploit (the
# exploit, linked with libpsx, fails). exploit, linked without libpsx,
# must still succeed: it shows the exploit is real. Then once more with
# our libpsx and Debian's libcap.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
[ "$(id -u)" -eq 0 ] || skip "needs root (the programs change capabilities)"
need_reference 2.66 libcap2 libcap-dev
dir=$REF_ROOT/usr/lib/x86_64-linux-gnu/libcap2/tests
[ -x "$dir/psx_test" ] || skip "Debian's libcap2 test programs are not installed ($dir)"
# A pinned copy's programs need glibc 2.34 or later (Debian 12's build).
out=$(cd "$dir" && ref_env ./noop 2>&1) ||
	skip "Debian 12's test programs ($dir) do not run on this system's C library (they need glibc 2.34 or later): $(printf '%s' "$out" | head -n 1)"
# Debian's libcap: the system's, or the pinned copy's after ours.
deb_cap=
[ "$REF_PINNED" = 1 ] && deb_cap=:$REF_LIB
psx=$BUILD/psx cap=$BUILD/libcap
[ -e "$psx/libpsx.so.2" ] || { fail "libpsx.so.2 is not built"; finish; }
if ldd "$psx/libpsx.so.2" "$cap/libcap.so.2" | grep -q 'libasan\|libubsan'; then
	skip "built with sanitizers; uninstrumented Debian binaries cannot load it"
fi

run_prog() {	# libpath expected-exit last-line-pattern program
	# From their directory: the launch test runs ./noop.
	(cd "$dir" && LD_LIBRARY_PATH=$1 timeout 120 "./$4") >"$T/out" 2>&1; rc=$?
	last=$(tail -n 1 "$T/out")
	# libcap_psx_test forks from threads while its main thread prints, so
	# a child's exit may flush a stale copy of stdout's buffer: a stray
	# "h" inside the dots, or ".." after PASSED (seen 2 in 200 runs on
	# Debian's own libpsx and libcap). Its verdict is then any line.
	seen=$last
	[ "$4" = libcap_psx_test ] && seen=$(grep -x "$3" "$T/out" | tail -n 1)
	if [ $rc -ne "$2" ] || ! printf '%s\n' "$seen" | grep -qx "$3"; then
		fail "$4 on $1: exit $rc, last line \"$last\" (want $2, \"$3\")"
		tail -n 15 "$T/out" | sed 's/^/    /'
	else
		ok "$4 on $1: exit $rc, \"$last\""
	fi
}

# The loader must really pick ours up.
for prog in psx_test libcap_psx_test noexploit; do
	LD_LIBRARY_PATH=$psx:$cap ldd "$dir/$prog" | grep -q "$psx/libpsx.so.2" && pass ||
		{ fail "$prog does not load $psx/libpsx.so.2"; }
done
LD_LIBRARY_PATH=$psx:$cap ldd "$dir/libcap_psx_test" | grep -q "$cap/libcap.so.2" && pass ||
	{ fail "libcap_psx_test does not load $cap/libcap.so.2"; }

ours=$psx:$cap
run_prog "$ours" 0 "\./psx_test PASSED" psx_test
run_prog "$ours" 0 "hello libcap and libpsx .* PASSED" libcap_psx_test
run_prog "$ours" 0 "cap_launch_test: PASSED" libcap_psx_launch_test
run_prog "$ours" 0 "exploit failed" noexploit
run_prog "$ours" 1 "exploit succeeded" exploit
# Our libpsx under Debian's libcap (noexploit loads libpsx first, so
# Debian's libcap finds its psx_load_syscalls).
run_prog "$psx$deb_cap" 0 "hello libcap and libpsx .* PASSED" libcap_psx_test
run_prog "$psx$deb_cap" 0 "exploit failed" noexploit

finish "Debian's libpsx test programs pass on our libpsx.so.2 and libcap.so.2"
