#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# getcap -v -r prints libcap's byte stream in libcap's (nftw's) order on a
# generated tree with files around every subdirectory, nested and empty
# directories, links and FIFOs; run without privileges, so the ordering
# code also runs under ASan and valgrind. tests/root/getcap_order.sh
# covers capable files, low descriptor limits and /usr.
set -u
. "$TESTS_DIR/lib.sh"
ref=/usr/sbin/getcap ours=$BUILD/progs/getcap
[ -x "$ref" ] || { echo "skipped: no reference getcap at $ref"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fails=0
t=$tmp/t
for i in 0 1 2 3 4 5; do
	for j in 0 1 2 3; do
		mkdir -p "$t/d$i/s$j/x/y" "$t/d$i/s$j/empty"
		: >"$t/d$i/a$j" && : >"$t/d$i/s$j/f" && : >"$t/d$i/s$j/x/y/g"
		ln -s s$j "$t/d$i/l$j"
	done
	mkfifo "$t/d$i/p"
done
for args in "-v -r t" "-r -v t/ ./t/d2 t//d4/"; do
	(cd "$tmp" && "$ref" $args >"$tmp/ref" 2>/dev/null)
	(cd "$tmp" && run_ours "$ours" $args >"$tmp/ours" 2>"$tmp/err")
	# valgrind's own notes (it does not know getxattrat) are not ours.
	grep -v '^--[0-9]*-- ' "$tmp/err" >"$tmp/err2"; mv "$tmp/err2" "$tmp/err"
	if cmp -s "$tmp/ref" "$tmp/ours" && [ ! -s "$tmp/err" ]; then
		echo "getcap $args: $(wc -l <"$tmp/ref") lines, identical"
	else
		echo "FAIL: getcap $args: not libcap's output:"
		diff "$tmp/ref" "$tmp/ours" | head -n 6; head -n 3 "$tmp/err"
		fails=$((fails + 1))
	fi
done
[ $fails -eq 0 ]
