#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# Differential test of the IAB API: the probe built against our library and
# against the system's libcap 2.66 must agree on fixed IAB texts, 150,000
# generated valid and broken texts (cap_iab_from_text -> cap_iab_to_text or
# errno) and 60,000 random tuples built with cap_iab_set_vector and
# cap_iab_fill (return codes, errno, text, every vector bit, re-parse).
set -u
# Nothing here runs under valgrind: in the valgrind pass it would only
# repeat the plain pass.
[ "${VALGRIND:-0}" = 1 ] && { echo "skipped: runs none of our code under valgrind (the plain and sanitizer passes run it)"; exit 77; }
ours=$BIN/capprobe ref=$BIN/ref-capprobe
if [ ! -x "$ref" ]; then
	echo "skipped: the system libcap (libcap-dev) is not installed"; exit 77
fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
{
	for t in '' cap_chown %cap_chown '!cap_chown' '^cap_chown' '!%cap_chown' \
		'!^cap_chown' '!!cap_chown' '^^cap_chown' 'cap_chown,' \
		'cap_kill,cap_chown' '%^cap_chown' '^!cap_chown' \
		'!cap_chown,^cap_chown' 'cap_setuid,!cap_chown' \
		'cap_perfmon,^cap_bpf' '!cap_sys_admin,^cap_perfmon' CAP_CHOWN 38 \
		0x5 '^41' '!63' '!' '^' '%' 64 all none ',cap_chown' \
		'cap_chown cap_kill' 'cap_chown, cap_kill' 'cap_chown=ep' \
		'cap_chown,,cap_kill' ',' '!,cap_chown' 'cap_chown,,' '^cap_perfmon' \
		'!^cap_perfmon,!cap_bpf,%cap_setpcap' '^40,!40,%39' '0x26' '046' \
		'cap_kill2' 'cap_' '-1' '1e' ' cap_chown' 'cap_chown ' '^%!38'; do
		printf 'I %s\n' "$t"
	done
	echo "J 4 100000"
	echo "J 2026 50000"
	echo "K 38 60000"
} >"$tmp/cmds"
"$ours" <"$tmp/cmds" >"$tmp/ours" || { echo "our probe failed"; exit 1; }
"$ref" <"$tmp/cmds" >"$tmp/ref" || { echo "reference probe failed"; exit 1; }
lines=$(wc -l <"$tmp/ours")
if ! diff "$tmp/ref" "$tmp/ours" >"$tmp/diff"; then
	echo "differences (< libcap 2.66, > ours):"; head -40 "$tmp/diff"; exit 1
fi
[ "$lines" -ge 210000 ] || { echo "only $lines results compared"; exit 1; }
valid=$(grep -c '^J .* -> \[' "$tmp/ours")
[ "$valid" -ge 20000 ] || { echo "only $valid valid generated texts"; exit 1; }
echo "$lines IAB results identical to the system libcap ($valid valid generated texts)"
