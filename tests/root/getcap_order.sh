#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# getcap -r prints exactly libcap's byte stream, so what scripts and diffs
# made of libcap's output keeps working: nftw's order, readdir order with
# each directory's contents right after its own entry, although our walk
# lists directories in parallel. Compared with Debian's getcap (2.66) -r
# and -v -r on generated trees (capable files, links, FIFOs, empty and deep
# directories; several operand spellings), walked on two CPUs, on one, and
# out of descriptors (hard limit 48), several times each; and on /usr
# with -v (every file printed).
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
command -v setfattr >/dev/null 2>&1 || skip "setfattr (attr) is not installed"
ours=$BUILD/progs/getcap
need_reference 2.66
ref=$REF/getcap
runs=0
value=0x0100000200200000000000000000000000000000	# cap_net_raw=ep

# A tree whose directories hold files before and after their
# subdirectories in readdir order, so any interleaving shows.
t=$T/t
mkdir -p "$t"
i=0
while [ $i -lt 12 ]; do
	j=0
	while [ $j -lt 6 ]; do
		d=$t/d$i/s$j/deeper/still
		mkdir -p "$d" "$t/d$i/s$j/empty"
		for f in a b c; do
			for x in "$t/d$i/$f$j" "$t/d$i/s$j/$f" "$d/$f"; do
				: >"$x" && setfattr -n security.capability -v $value "$x" || exit 1
			done
		done
		ln -s ../"s$j" "$t/d$i/l$j"
		j=$((j + 1))
	done
	mkfifo "$t/d$i/fifo"
	: >"$t/d$i/plain"
	i=$((i + 1))
done
d=$t/comb
for i in $(seq 34); do mkdir -p "$d/t1" "$d/n" && : >"$d/t1/f" && setfattr -n security.capability -v $value "$d/t1/f"; d=$d/n; done

# same_order_as_libcap DIR ARGS...: ours, in every way of running it
# (one CPU, few descriptors), each twice (or $ways), prints libcap's
# bytes in libcap's order.
same_order_as_libcap() {
	dir=$1; shift
	(cd "$dir" && "$ref" "$@" >"$T/ref" 2>/dev/null)
	[ -s "$T/ref" ] && pass || { fail "libcap printed nothing for $*"; return; }
	for how in ${ways:-plain one-cpu fd48 plain one-cpu fd48}; do
		case $how in
		plain) (cd "$dir" && "$ours" "$@" >"$T/ours" 2>/dev/null) ;;
		one-cpu) (cd "$dir" && taskset -c 0 "$ours" "$@" >"$T/ours" 2>/dev/null) ;;
		fd48) (cd "$dir" && prlimit --nofile=48:48 "$ours" "$@" >"$T/ours" 2>/dev/null) ;;
		esac
		runs=$((runs + 1))
		if ! cmp -s "$T/ref" "$T/ours"; then
			fail "getcap $* ($how, in $dir): not libcap's order; first difference:"
			diff "$T/ref" "$T/ours" | head -n 6
			return
		fi
	done
	pass
	echo "getcap $* (in $dir): $(wc -l <"$T/ref") lines, identical"
}
same_order_as_libcap "$T" -r t
same_order_as_libcap "$T" -v -r t
same_order_as_libcap "$T" -r -v t/ ./t/d3 t//d5/
same_order_as_libcap "$t" -v -r .
same_order_as_libcap "$T" -r -n t/comb
# An operand spelled from /: the generated tree, whose 682 capable files
# tell any order apart (/usr holds two here: the walk before the ordered
# one printed them in libcap's order; its -v walk of /usr differed).
same_order_as_libcap / -r "$t"
# A real tree, every entry printed: 166,062 lines here, each way once
# (half a CPU second a walk): the getcap before the ordered walk
# (bd0a396^) differed from libcap in all six runs of each case, the
# first of each way included, and one walk of /usr meets more
# directories than all the runs above.
ways="plain one-cpu fd48" same_order_as_libcap / -r -v usr
echo "$runs runs compared"
finish
