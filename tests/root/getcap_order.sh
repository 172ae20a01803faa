#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# getcap -r prints exactly libcap's byte stream (issue 13, item 3): nftw's
# order, readdir order with each directory's contents right after its own
# entry, although our walk lists directories in parallel. Compared with
# /usr/sbin/getcap -r and -v -r on generated trees (capable files, links,
# FIFOs, empty and deep directories; several operand spellings), walked
# on two CPUs, on one, and out of descriptors (hard limit 48), several
# times each; and on /usr.
set -u
. "$TESTS_DIR/lib.sh"
command -v setfattr >/dev/null 2>&1 || { echo "skipped: setfattr (attr) is not installed"; exit 77; }
ref=/usr/sbin/getcap ours=$BUILD/progs/getcap
[ -x "$ref" ] || { echo "skipped: no reference getcap at $ref"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fails=0 runs=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
value=0x0100000200200000000000000000000000000000	# cap_net_raw=ep

# A tree whose directories hold files before and after their
# subdirectories in readdir order, so any interleaving shows.
t=$tmp/t
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

# same DIR ARGS...: ours, in every way of running it, prints libcap's bytes.
same() {
	dir=$1; shift
	(cd "$dir" && "$ref" "$@" >"$tmp/ref" 2>/dev/null)
	[ -s "$tmp/ref" ] || { fail "libcap printed nothing for $*"; return; }
	for how in plain one-cpu fd48 plain one-cpu fd48; do
		case $how in
		plain) (cd "$dir" && "$ours" "$@" >"$tmp/ours" 2>/dev/null) ;;
		one-cpu) (cd "$dir" && taskset -c 0 "$ours" "$@" >"$tmp/ours" 2>/dev/null) ;;
		fd48) (cd "$dir" && prlimit --nofile=48:48 "$ours" "$@" >"$tmp/ours" 2>/dev/null) ;;
		esac
		runs=$((runs + 1))
		if ! cmp -s "$tmp/ref" "$tmp/ours"; then
			fail "getcap $* ($how, in $dir): not libcap's order; first difference:"
			diff "$tmp/ref" "$tmp/ours" | head -n 6
			return
		fi
	done
	echo "getcap $* (in $dir): $(wc -l <"$tmp/ref") lines, identical"
}
same "$tmp" -r t
same "$tmp" -v -r t
same "$tmp" -r -v t/ ./t/d3 t//d5/
same "$t" -v -r .
same "$tmp" -r -n t/comb
same / -r -v usr
same / -r /usr
echo "$runs runs compared"
[ $fails -eq 0 ]
