#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# Unprivileged part of the setcap differential test: argument handling,
# usage, parse errors and -v on files without capabilities, which need no
# CAP_SETFCAP. Our stdout, stderr and exit status must equal
# Debian's libcap 2.66 setcap's, once both went through the rows of
# docs/differences.md (tests/tools/rows.pl: 2.66's output as 2.76 prints
# it; ours without our "setcap:" lines and usage additions).
# The privileged rows live in tests/root/setcap_diff.sh.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
# Nothing here runs under valgrind: in the valgrind pass it would only
# repeat the plain pass.
[ "${VALGRIND:-0}" = 1 ] && skip "runs none of our code under valgrind (the plain and sanitizer passes run it)"
ours=$BUILD/progs/setcap
need_reference 2.66
ref=$REF/setcap
[ -x "$ours" ] || { fail "progs/setcap is not built"; finish; }
cd "$T" && touch g && mkdir d || exit 1
n=0
while IFS= read -r row; do
	input=
	case $row in '<'*) input=${row%%|*}; input=${input#<}; row=${row#*|} ;; esac
	eval "set -- $row"
	printf "$input" | "$ref" "$@" >ref.out 2>ref.err; ref_rc=$?
	printf "$input" | "$ours" "$@" >our.out 2>our.err; our_rc=$?
	cp our.err our.err.libcap
	perl "$TESTS_DIR/tools/rows.pl" 2.66 setcap out ref.out &&
		perl "$TESTS_DIR/tools/rows.pl" 2.66 setcap err ref.err &&
		perl "$TESTS_DIR/tools/rows.pl" ours setcap out our.out &&
		perl "$TESTS_DIR/tools/rows.pl" ours setcap err our.err.libcap && pass ||
		fail "[$row]: tests/tools/rows.pl failed"
	echo $ref_rc >>ref.out
	echo $our_rc >>our.out
	n=$((n + 1))
	if ! cmp -s ref.out our.out || ! cmp -s ref.err our.err.libcap; then
		fail "[$row]: differs (< 2.66, > ours)"
		diff ref.out our.out; diff ref.err our.err.libcap
	else
		pass
	fi
done <<'ROWS'

-h
-q -h
-h x y
-q
-v -q
-r
-n
-n 0 = g
-n -5 = g
-n abc = g
-n '5 ' = g
bogus g
bogus
cap_chown=p
'cap_chown=p cap_kil=p' g
cap_chown g
99=p g
-v g
-- g
-v = g
-v -r g
-v = nonexist
-v cap_chown=p g
-v cap_chown=p d
-q -v cap_chown=p g
-v -n 7 = g
-v -n 0x10 cap_kill=p g
-v = g -v cap_kill=i g
<cap_chown=p\n|-v - g
<|-v - g
<\n|-v - g
<bogus\n|-v - g
<=\n|-q -v - g
ROWS
[ "$n" -ge 34 ] && pass || fail "only $n rows ran"

# Our explanation after libcap's line names the file as text: a newline or
# escape sequence in the name cannot forge a line of ours or clear the screen
# (libcap's own line before it keeps libcap's bytes).
bad=$(printf 'no\nsetcap: forged\033[2J')
run_ours "$BUILD/progs/setcap" cap_net_raw=ep "$T/$bad" 2>"$T/err2" >/dev/null
grep -qF "setcap: $T/no\012setcap: forged\033[2J: no such file: check the path" "$T/err2" && pass ||
	fail "the explanation does not escape the file name"
[ "$fails" -eq 0 ] || echo "$fails of $n argument lists differ"
finish "$n argument lists identical to libcap 2.66 (unprivileged)"
