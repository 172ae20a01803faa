#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# The exported symbols of libcap.so.2 are exactly the names in libcap.map,
# every one of them is declared in <sys/capability.h>, and the library is
# unversioned with SONAME libcap.so.2. Once the whole API is implemented,
# every function the header declares (bar the libc-provided capget/capset)
# is exported too, as is every API name of the system's libcap:
# LIBCAP_COMPLETE=1 below turns that check on.
set -eu
top=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
lib=$top/libcap/libcap.so.2
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
if readelf -V "$lib" | grep -q 'Version definition'; then
	echo "libcap.so.2 has symbol versions; libcap's are unversioned"; status=1
fi
readelf -d "$lib" | grep -q 'Library soname: \[libcap.so.2\]' ||
	{ echo "SONAME is not libcap.so.2"; status=1; }
[ -L "$top/libcap/libcap.so.2" ] || { echo "libcap.so.2 is not a symlink"; status=1; }
[ $status -eq 0 ] && echo "$(wc -l <"$tmp/exported") exported symbols match libcap.map and the header"
exit $status
