#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# getcap -v -r prints libcap's byte stream in libcap's (nftw's) order on a
# generated tree with files around every subdirectory, nested and empty
# directories, links and FIFOs; run without privileges, so the ordering
# code also runs under ASan and valgrind. tests/root/getcap_order.sh
# covers capable files, low descriptor limits and /usr.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
ours=$BUILD/progs/getcap
need_reference 2.66
ref=$REF/getcap
t=$T/t
for i in 0 1 2 3 4 5; do
	for j in 0 1 2 3; do
		mkdir -p "$t/d$i/s$j/x/y" "$t/d$i/s$j/empty"
		: >"$t/d$i/a$j" && : >"$t/d$i/s$j/f" && : >"$t/d$i/s$j/x/y/g"
		ln -s s$j "$t/d$i/l$j"
	done
	mkfifo "$t/d$i/p"
done
for args in "-v -r t" "-r -v t/ ./t/d2 t//d4/"; do
	(cd "$T" && "$ref" $args >"$T/ref" 2>/dev/null)
	(cd "$T" && run_ours "$ours" $args >"$T/ours" 2>"$T/err")
	# valgrind's own notes (it does not know getxattrat) are not ours.
	grep -v '^--[0-9]*-- ' "$T/err" >"$T/err2"; mv "$T/err2" "$T/err"
	if cmp -s "$T/ref" "$T/ours" && [ ! -s "$T/err" ]; then
		pass
		echo "getcap $args: $(wc -l <"$T/ref") lines, identical"
	else
		fail "getcap $args: not libcap's output:"
		diff "$T/ref" "$T/ours" | head -n 6; head -n 3 "$T/err"
	fi
done
finish
