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
cd "$T" && touch g && mkdir d && mkdir r || exit 1
# Each row runs now; its outputs (r/N.ref.*, r/N.our.*) are judged once
# all ran, so that rows.pl (a perl start and the rules compiled) runs
# four times in all, not four times a row.
n=0
while IFS= read -r row; do
	input=
	case $row in '<'*) input=${row%%|*}; input=${input#<}; row=${row#*|} ;; esac
	n=$((n + 1))
	eval "row_$n=\$row"
	eval "set -- $row"
	printf "$input" | "$ref" "$@" >r/$n.ref.out 2>r/$n.ref.err
	eval "ref_rc_$n=$?"
	printf "$input" | "$ours" "$@" >r/$n.our.out 2>r/$n.our.err
	eval "our_rc_$n=$?"
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
# 2.66's output as 2.76 prints it, ours without our additions (one check
# a row, as when each row ran them).
(cd r && perl "$TESTS_DIR/tools/rows.pl" 2.66 setcap out *.ref.out &&
	perl "$TESTS_DIR/tools/rows.pl" 2.66 setcap err *.ref.err &&
	perl "$TESTS_DIR/tools/rows.pl" ours setcap out *.our.out &&
	perl "$TESTS_DIR/tools/rows.pl" ours setcap err *.our.err) &&
	checks=$((checks + n)) || fail "tests/tools/rows.pl failed"
i=0
while [ $i -lt $n ]; do
	i=$((i + 1))
	eval "row=\$row_$i; echo \$ref_rc_$i >>r/$i.ref.out; echo \$our_rc_$i >>r/$i.our.out"
	if ! cmp -s r/$i.ref.out r/$i.our.out || ! cmp -s r/$i.ref.err r/$i.our.err; then
		fail "[$row]: differs (< 2.66, > ours)"
		diff r/$i.ref.out r/$i.our.out; diff r/$i.ref.err r/$i.our.err
	else
		pass
	fi
done
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
