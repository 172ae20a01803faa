#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# The exported symbols of libcap.so.2 are exactly the names in libcap.map,
# every one of them is declared in <sys/capability.h>, and the library is
# unversioned with SONAME libcap.so.2. Once the whole API is implemented,
# every function the header declares (bar the libc-provided capget/capset)
# is exported too, as is every API name of the system's libcap:
# LIBCAP_COMPLETE=1 below turns that check on.
set -eu
# Nothing here runs under valgrind: in the valgrind pass it would only
# repeat the plain pass.
[ "${VALGRIND:-0}" = 1 ] && { echo "skipped: runs none of our code under valgrind (the plain and sanitizer passes run it)"; exit 77; }
top=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
lib=$BUILD/libcap/libcap.so.2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

nm -D --defined-only "$lib" | awk '{print $3}' | sort >"$tmp/exported"
sed -n 's/^[[:space:]]*\([a-z_][a-z0-9_]*\);$/\1/p' "$top/libcap/libcap.map" |
	sort >"$tmp/map"
# Function names declared in the header: the identifier before "(" on an
# extern line, skipping function-pointer parameters.
sed -n 's/^extern[^(]*[ *]\([a-z_][a-z0-9_]*\)(.*/\1/p' \
	"$top/include/sys/capability.h" | grep -vx 'capget\|capset' |
	sort >"$tmp/declared"

status=0
if ! diff -u "$tmp/map" "$tmp/exported"; then
	echo "exported symbols differ from libcap.map (- map, + exported)"; status=1
fi
extra=$(comm -23 "$tmp/map" "$tmp/declared")
if [ -n "$extra" ]; then
	echo "in libcap.map but not declared in the header: $extra"; status=1
fi
if [ "${LIBCAP_COMPLETE:-1}" = 1 ]; then
	missing=$(comm -13 "$tmp/exported" "$tmp/declared")
	if [ -n "$missing" ]; then
		echo "declared but not exported:" $missing; status=1
	fi
	# Binaries linked against the system libcap must find every API name.
	for sys in /lib/*/libcap.so.2 /usr/lib/*/libcap.so.2; do
		[ -e "$sys" ] || continue
		nm -D --defined-only "$sys" | awk '$2 == "T" {print $3}' |
			grep -v '^_' | sort >"$tmp/system"
		missing=$(comm -23 "$tmp/system" "$tmp/exported")
		if [ -n "$missing" ]; then
			echo "exported by $sys but not by ours:" $missing; status=1
		fi
		break
	done
fi
# Unversioned, SONAME its own name, which is a symlink to the real file.
check_elf() {	# path soname
	elf_ok=0
	if readelf -V "$1" | grep -q 'Version definition'; then
		echo "$2 has symbol versions; libcap's are unversioned"; elf_ok=1
	fi
	readelf -d "$1" | grep -q "Library soname: \[$2\]" ||
		{ echo "the SONAME of $1 is not $2"; elf_ok=1; }
	[ -L "$1" ] || { echo "$1 is not a symlink"; elf_ok=1; }
	return $elf_ok
}
check_elf "$lib" libcap.so.2 || status=1
[ $status -eq 0 ] && echo "$(wc -l <"$tmp/exported") exported symbols match libcap.map and the header"

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
nm -D --defined-only "$psx" | awk '{print $3}' | LC_ALL=C sort >"$tmp/psx_exported"
sed -n 's/^[[:space:]]*\([a-z_][a-z0-9_]*\);$/\1/p' "$top/psx/libpsx.map" |
	LC_ALL=C sort >"$tmp/psx_map"
sed -n 's/^extern[^(]*[ *]\([a-z_][a-z0-9_]*\)(.*/\1/p' \
	"$top/include/sys/psx_syscall.h" | LC_ALL=C sort >"$tmp/psx_declared"
printf '%s\n' $psx_api | LC_ALL=C sort >"$tmp/psx_api"
pstatus=0
if ! diff -u "$tmp/psx_map" "$tmp/psx_exported"; then
	echo "libpsx: exported symbols differ from libpsx.map (- map, + exported)"; pstatus=1
fi
if ! diff -u "$tmp/psx_api" "$tmp/psx_declared"; then
	echo "libpsx: the header does not declare libcap 2.76's API (- API, + header)"; pstatus=1
fi
if ! diff -u "$tmp/psx_api" "$tmp/psx_map"; then
	echo "libpsx: libpsx.map is not libcap 2.76's API (- API, + map)"; pstatus=1
fi
nm -D --defined-only "$psx" | grep -q ' W __real_pthread_create$' ||
	{ echo "libpsx: __real_pthread_create is not weak"; pstatus=1; }
for sys in /lib/*/libpsx.so.2 /usr/lib/*/libpsx.so.2; do
	[ -e "$sys" ] || continue
	nm -D --defined-only "$sys" | awk '$2 ~ /^[TBDW]$/ {print $3}' | LC_ALL=C sort >"$tmp/psx_system"
	missing=$(LC_ALL=C comm -23 "$tmp/psx_system" "$tmp/psx_exported" | tr '\n' ' ')
	if [ "$missing" != "__so_start psx_action_key " ]; then
		echo "libpsx: exported by $sys but not by ours: $missing" \
		     "(only __so_start and psx_action_key are left out on purpose)"
		pstatus=1
	fi
	break
done
check_elf "$psx" libpsx.so.2 || pstatus=1
[ $pstatus -eq 0 ] && echo "$(wc -l <"$tmp/psx_exported") libpsx symbols: libcap 2.76's API, unversioned"
[ $pstatus -eq 0 ] || status=1
exit $status
