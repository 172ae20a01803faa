#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# Prints the dynamic loader (PT_INTERP) of the programs "$@" links, e.g.
#   sh exec_interp.sh cc -O2 -fsanitize=address   ->  /lib64/ld-linux-x86-64.so.2
# so our libraries can name it in their .interp section (private/exec_entry.h).
# Prints nothing when the compiler links no dynamic programs.
d=$(mktemp -d) || exit 0
trap 'rm -rf "$d"' EXIT
echo 'int main(void) { return 0; }' >"$d/t.c"
"$@" -o "$d/t" "$d/t.c" >/dev/null 2>&1 &&
	${READELF:-readelf} -lW "$d/t" 2>/dev/null |
	sed -n 's/.*program interpreter: \(.*\)\]$/\1/p'
exit 0
