#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# Differential test: the same probe built against our library and against
# Debian's libcap 2.66 must print identical results for 100,000 random sets
# (cap_to_text, cap_copy_ext), 200,000 generated valid and broken texts
# (cap_from_text -> text or errno), every name and number, and external blobs.
# Under VALGRIND=1 our probe runs in valgrind, on a fifth of the cases.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
ours=$BIN/capprobe
need_reference 2.66 libcap2 libcap-dev
# tools/capprobe.c built on Debian's libcap.
ref=$(ref_tool capprobe 2>"$T/why") || { fail "$(cat "$T/why")"; finish; }
scale=1; [ "${VALGRIND:-0}" = 1 ] && scale=5
{
	echo "R 20261203 $((100000 / scale))"
	echo "G 38 $((200000 / scale))"
	v=-3; while [ $v -le 66 ]; do echo "V $v"; echo "N $v"; v=$((v + 1)); done
	for n in chown kill perfmon bpf checkpoint_restore sys_admin setfcap; do
		echo "N cap_$n"; echo "N CAP_$n"; echo "N cap_${n}2"; echo "N cap_${n}x"
		echo "N cap_$n,cap_kill"; echo "T cap_$n=ep"; echo "T cap_$n+i"
	done
	# Every name the reference knows, and near misses of each (the look-up
	# is a hash index: a miss must not land on a neighbour).
	v=0; while [ $v -le 40 ]; do echo "V $v"; v=$((v + 1)); done |
		"$ref" | while read -r n; do
		up=$(echo "$n" | tr a-z A-Z) short=${n%?} tail=${n#cap_}
		for t in "$n" "$up" "$short" "${n}_" "${n}s" "${tail}" "${short}x" \
			 "cap_${up#CAP_}" "${n}=ep"; do
			echo "N $t"
		done
		echo "T $n,$short=ep"; echo "T $up+i"
	done
	for x in 90c20151 90c2015100 90c20151080102 90c2015101010204 \
		 91c2015108 90c20151ff 90c201510801ff01ff01ff01ff01ff01ff01ff01ff; do
		echo "X $x"
	done
} >"$T/cmds"
run_ours "$ours" <"$T/cmds" >"$T/ours" || { fail "our probe failed"; finish; }
"$ref" <"$T/cmds" >"$T/ref" || { fail "reference probe failed"; finish; }
# libcap 2.66 names 0..40: names our table has beyond them, as its numbers.
sh "$TESTS_DIR/tools/as_libcap266.sh" --lengths <"$T/ours" >"$T/ours.266" &&
	mv "$T/ours.266" "$T/ours"
lines=$(wc -l <"$T/ours")
if diff "$T/ref" "$T/ours" >"$T/diff"; then
	pass
else
	fail "differences (< libcap 2.66, > ours):"; head -40 "$T/diff"; finish
fi
[ "$lines" -ge $((300000 / scale)) ] && pass || fail "only $lines results compared"
finish "$lines results identical to Debian's libcap 2.66"
