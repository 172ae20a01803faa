#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# The exported symbols of libcap.so.2 are exactly the names in libcap.map,
# every one of them is declared in <sys/capability.h>, and the library is
# unversioned with SONAME libcap.so.2. Once the whole API is implemented,
# every function the header declares (bar the libc-provided capget/capset)
# is exported too, as is every API name of the system's libcap:
# LIBCAP_COMPLETE=1 below turns that check on.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
set -e
# Nothing here runs under valgrind: in the valgrind pass it would only
# repeat the plain pass.
[ "${VALGRIND:-0}" = 1 ] && skip "runs none of our code under valgrind (the first pass of make test runs it)"
lib=$BUILD/libcap/libcap.so.2

nm -D --defined-only "$lib" | awk '{print $3}' | sort >"$T/exported"
sed -n 's/^[[:space:]]*\([a-z_][a-z0-9_]*\);$/\1/p' "$TOP/libcap/libcap.map" |
	sort >"$T/map"
# Function names declared in the header: the identifier before "(" on an
# extern line, skipping function-pointer parameters.
sed -n 's/^extern[^(]*[ *]\([a-z_][a-z0-9_]*\)(.*/\1/p' \
	"$TOP/include/sys/capability.h" | grep -vx 'capget\|capset' |
	sort >"$T/declared"

if ! diff -u "$T/map" "$T/exported"; then
	fail "exported symbols differ from libcap.map (- map, + exported)"
else
	pass
fi
extra=$(comm -23 "$T/map" "$T/declared")
if [ -n "$extra" ]; then
	fail "in libcap.map but not declared in the header: $extra"
else
	pass
fi
if [ "${LIBCAP_COMPLETE:-1}" = 1 ]; then
	missing=$(comm -13 "$T/exported" "$T/declared")
	if [ -n "$missing" ]; then
		fail "declared but not exported: $missing"
	else
		pass
	fi
	# Binaries linked against Debian's libcap must find every API name
	# (2.66's: a newer one may export names 2.76 does not).
	syslibs=
	if has_reference 2.66 libcap2; then
		syslibs=$REF_LIB/libcap.so.2
	else
		not_checked "not compared with Debian's libcap.so.2: $reference_why"
	fi
	for sys in $syslibs; do
		[ -e "$sys" ] || { fail "$sys is missing"; continue; }
		nm -D --defined-only "$sys" | awk '$2 == "T" {print $3}' |
			grep -v '^_' | sort >"$T/system"
		missing=$(comm -23 "$T/system" "$T/exported")
		if [ -n "$missing" ]; then
			fail "exported by $sys but not by ours: $missing"
		else
			pass
		fi
		break
	done
fi
# Unversioned, SONAME its own name, which is a symlink to the real file.
check_elf() {	# path soname
	if readelf -V "$1" | grep -q 'Version definition'; then
		fail "$2 has symbol versions; libcap's are unversioned"
	else
		pass
	fi
	readelf -d "$1" | grep -q "Library soname: \[$2\]" && pass ||
		{ fail "the SONAME of $1 is not $2"; }
	[ -L "$1" ] && pass || { fail "$1 is not a symlink"; }
}
check_elf "$lib" libcap.so.2
[ $fails -eq 0 ] && echo "$(wc -l <"$T/exported") exported symbols match libcap.map and the header"

# --- libpsx.so.2 -----------------------------------------------------------
# Exactly libpsx.map, which is exactly what the header declares, which is
# libcap 2.76's libpsx API; unversioned, SONAME libpsx.so.2, and the
# fallback __real_pthread_create weak (a program's own, or ld's --wrap,
# wins). Debian's 2.66 exports two more names that we deliberately do not:
# psx_action_key, the pthread key of 2.66's thread registration (gone
# since 2.72, declared nowhere), and __so_start, the entry point of
# libcap's runnable-library feature, not an API.
psx=$BUILD/psx/libpsx.so.2
psx_api='__psx_syscall __real_pthread_create __wrap_pthread_create psx_load_syscalls psx_set_sensitivity psx_syscall3 psx_syscall6'
nm -D --defined-only "$psx" | awk '{print $3}' | LC_ALL=C sort >"$T/psx_exported"
sed -n 's/^[[:space:]]*\([a-z_][a-z0-9_]*\);$/\1/p' "$TOP/psx/libpsx.map" |
	LC_ALL=C sort >"$T/psx_map"
sed -n 's/^extern[^(]*[ *]\([a-z_][a-z0-9_]*\)(.*/\1/p' \
	"$TOP/include/sys/psx_syscall.h" | LC_ALL=C sort >"$T/psx_declared"
printf '%s\n' $psx_api | LC_ALL=C sort >"$T/psx_api"
psx_from=$fails
if ! diff -u "$T/psx_map" "$T/psx_exported"; then
	fail "libpsx: exported symbols differ from libpsx.map (- map, + exported)"
else
	pass
fi
if ! diff -u "$T/psx_api" "$T/psx_declared"; then
	fail "libpsx: the header does not declare libcap 2.76's API (- API, + header)"
else
	pass
fi
if ! diff -u "$T/psx_api" "$T/psx_map"; then
	fail "libpsx: libpsx.map is not libcap 2.76's API (- API, + map)"
else
	pass
fi
nm -D --defined-only "$psx" | grep -q ' W __real_pthread_create$' && pass ||
	{ fail "libpsx: __real_pthread_create is not weak"; }
syslibs=
if has_reference 2.66 libcap2; then
	syslibs=$REF_LIB/libpsx.so.2
else
	not_checked "not compared with Debian's libpsx.so.2: $reference_why"
fi
for sys in $syslibs; do
	[ -e "$sys" ] || { fail "$sys is missing"; continue; }
	nm -D --defined-only "$sys" | awk '$2 ~ /^[TBDW]$/ {print $3}' | LC_ALL=C sort >"$T/psx_system"
	missing=$(LC_ALL=C comm -23 "$T/psx_system" "$T/psx_exported" | tr '\n' ' ')
	if [ "$missing" != "__so_start psx_action_key " ]; then
		fail "libpsx: exported by $sys but not by ours: $missing" \
		     "(only __so_start and psx_action_key are left out on purpose)"
	else
		pass
	fi
	break
done
check_elf "$psx" libpsx.so.2
# The header's capability values are exactly private/caps.def's (the build
# checks each entry has its define; this checks there are no others).
sed -n 's/^#define[[:space:]]\{1,\}CAP_\([A-Z0-9_]*\)[[:space:]]\{1,\}\([0-9]\{1,\}\)$/\2 \1/p' \
	"$TOP/include/sys/capability.h" | sort -n >"$T/header_caps"
sed -n 's/^CAP_FACT(\([0-9]*\), *\([A-Z0-9_]*\),.*/\1 \2/p' "$TOP/private/caps.def" |
	sort -n >"$T/table_caps"
diff -u "$T/table_caps" "$T/header_caps" && pass ||
	fail "<sys/capability.h> CAP_* values differ from private/caps.def (- table, + header)"
[ $fails -eq $psx_from ] && echo "$(wc -l <"$T/psx_exported") libpsx symbols: libcap 2.76's API, unversioned"
finish
