#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# Unprivileged part of the setcap differential test: argument handling,
# usage, parse errors and -v on files without capabilities, which need no
# CAP_SETFCAP. Our stdout, stderr (less the "setcap: " lines and the usage
# text's -f line we add) and exit status must equal /usr/sbin/setcap's.
# The privileged rows live in tests/root/setcap_diff.sh.
set -u
# Nothing here runs under valgrind: in the valgrind pass it would only
# repeat the plain pass.
[ "${VALGRIND:-0}" = 1 ] && { echo "skipped: runs none of our code under valgrind (the plain and sanitizer passes run it)"; exit 77; }
ours=$BUILD/progs/setcap ref=/usr/sbin/setcap
[ -x "$ref" ] || { echo "skipped: /usr/sbin/setcap (libcap2-bin) is not installed"; exit 77; }
[ -x "$ours" ] || { echo "progs/setcap is not built"; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$tmp" && touch g && mkdir d || exit 1
n=0 bad=0
while IFS= read -r row; do
	input=
	case $row in '<'*) input=${row%%|*}; input=${input#<}; row=${row#*|} ;; esac
	eval "set -- $row"
	printf "$input" | "$ref" "$@" >ref.out 2>ref.err; echo $? >>ref.out
	printf "$input" | "$ours" "$@" >our.out 2>our.err; echo $? >>our.out
	sed -e '/^setcap: /d' -e '/^ -f  /d' -e '/(not in libcap)$/d' our.err >our.err.libcap
	n=$((n + 1))
	if ! cmp -s ref.out our.out || ! cmp -s ref.err our.err.libcap; then
		echo "[$row]: differs (< 2.66, > ours)"
		diff ref.out our.out; diff ref.err our.err.libcap
		bad=$((bad + 1))
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
[ "$n" -ge 34 ] || { echo "only $n rows ran"; exit 1; }
[ "$bad" -eq 0 ] || { echo "$bad of $n argument lists differ"; exit 1; }
echo "$n argument lists identical to libcap 2.66 (unprivileged)"
