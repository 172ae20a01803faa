#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# Differential test of the IAB API: the probe built against our library and
# against Debian's libcap 2.66 must agree on fixed IAB texts, 150,000
# generated valid and broken texts (cap_iab_from_text -> cap_iab_to_text or
# errno) and 60,000 random tuples built with cap_iab_set_vector and
# cap_iab_fill (return codes, errno, text, every vector bit, re-parse).
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
# Nothing here runs under valgrind: in the valgrind pass it would only
# repeat the plain pass.
[ "${VALGRIND:-0}" = 1 ] && skip "runs none of our code under valgrind (the plain and sanitizer passes run it)"
ours=$BIN/capprobe
need_reference 2.66 libcap2 libcap-dev
# tools/capprobe.c built on Debian's libcap.
ref=$(ref_tool capprobe 2>"$T/why") || { fail "$(cat "$T/why")"; finish; }
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
} >"$T/cmds"
"$ours" <"$T/cmds" >"$T/ours" || { fail "our probe failed"; finish; }
"$ref" <"$T/cmds" >"$T/ref" || { fail "reference probe failed"; finish; }
lines=$(wc -l <"$T/ours")
if diff "$T/ref" "$T/ours" >"$T/diff"; then
	pass
else
	fail "differences (< libcap 2.66, > ours):"; head -40 "$T/diff"; finish
fi
[ "$lines" -ge 210000 ] && pass || fail "only $lines results compared"
valid=$(grep -c '^J .* -> \[' "$T/ours")
[ "$valid" -ge 20000 ] && pass || fail "only $valid valid generated texts"
finish "$lines IAB results identical to Debian's libcap 2.66 ($valid valid generated texts)"
