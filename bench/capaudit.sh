#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# capaudit's overhead: a capability-heavy loop (LOOPS chowns, one
# cap_chown check each) run plain, under capaudit counting in the kernel
# (eBPF, as root), under capaudit --no-bpf (one perf sample per check)
# and, when it is installed, under a bpftrace one-liner that counts the
# same tracepoint in the kernel; in alternating rounds (ROUNDS each,
# medians). The loop
# times itself, so neither tool's start-up is part of the figures: wall
# time, and the loop's CPU time (what each tool adds in the kernel is
# charged to it). Also the checks capaudit counted and lost, and those
# bpftrace counted. Needs root (capaudit mounts tracefs in a private
# mount namespace of its own if none is mounted; bpftrace is given one).
#   LOOPS=500000 ROUNDS=5 sh bench/capaudit.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
BUILD=${BUILD:-$top/build/main}
ca=$BUILD/progs/capaudit loop=$BUILD/bench/bin/capaudit_loop
loops=${LOOPS:-500000} rounds=${ROUNDS:-5}
[ -x "$ca" ] || { echo "bench: build first ($ca missing)"; exit 1; }
[ -x "$loop" ] || { echo "bench: $loop missing (make -C bench)"; exit 1; }
[ "$(id -u)" -eq 0 ] || { echo "bench: needs root (chown to other uids, and tracing)"; exit 77; }
"$ca" --check >/dev/null 2>&1 || { "$ca" --check; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT INT TERM
touch "$tmp/file"

# bpftrace reads the tracepoint's format from tracefs: one mounted in a
# mount namespace of its own, so the host's mounts stay as they were.
bt=${BPFTRACE-$(command -v bpftrace)}	# BPFTRACE= leaves it out
prog='tracepoint:capability:cap_capable /pid == cpid/ { @[args->cap, args->ret] = count(); }'
bpftrace_run() {	# TIMES OUT
	unshare -m --propagation private sh -c '
		t=/sys/kernel/tracing
		[ -r "$t/events/capability/cap_capable/format" ] ||
			mount -t tracefs tracefs "$t" || exit 1
		exec "$@"' sh "$bt" -e "$prog" -c "$loop $loops $tmp/file $1" >"$2" 2>&1
}
if [ -z "$bt" ]; then
	echo "bpftrace not installed, skipped (Debian: apt-get install bpftrace)"
elif ! bpftrace_run "$tmp/probe" "$tmp/bt.out" || [ ! -s "$tmp/probe" ]; then
	echo "bpftrace cannot trace capability:cap_capable here, skipped:"
	sed 's/^/  /' "$tmp/bt.out" | head -5
	bt=
fi

r=0
while [ "$r" -lt "$rounds" ]; do
	"$loop" "$loops" "$tmp/file" "$tmp/t.plain" || exit 1
	"$ca" --output="$tmp/rep" -- "$loop" "$loops" "$tmp/file" "$tmp/t.capaudit" 2>/dev/null || exit 1
	sed -n 's/^lost samples: \([0-9]*\).*/\1/p' "$tmp/rep" >>"$tmp/lost"
	awk '$1 == "cap_chown" { n += $2 } END { print n + 0 }' "$tmp/rep" >>"$tmp/counted"
	sed -n 's/^counting: //p' "$tmp/rep" >"$tmp/counting"
	"$ca" --no-bpf --output="$tmp/rep" -- "$loop" "$loops" "$tmp/file" "$tmp/t.samples" 2>/dev/null || exit 1
	sed -n 's/^lost samples: \([0-9]*\).*/\1/p' "$tmp/rep" >>"$tmp/lost.samples"
	awk '$1 == "cap_chown" { n += $2 } END { print n + 0 }' "$tmp/rep" >>"$tmp/counted.samples"
	if [ -n "$bt" ]; then
		bpftrace_run "$tmp/t.bpftrace" "$tmp/bt.out" || { cat "$tmp/bt.out"; exit 1; }
		sed -n 's/^@\[0, 0\]: \([0-9]*\)$/\1/p' "$tmp/bt.out" >>"$tmp/btcounted"
	fi
	r=$((r + 1))
done
median() {	# FILE [COLUMN]
	awk -v c="${2:-1}" '{ print $c }' "$1" | sort -n |
		awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
range() { sort -n "$1" | sed -n '1p;$p' | paste -sd- -; }
echo "capaudit benchmark: $loops chowns (one cap_chown check each), median of $rounds alternating rounds, $(nproc) cpus, load $(cut -d' ' -f1 /proc/loadavg)"
echo "                     wall          loop's CPU"
line() {	# NAME TIMES
	awk -v n="$1" -v w="$(median "$2" 1)" -v c="$(median "$2" 2)" \
	    -v pw="$(median "$tmp/t.plain" 1)" -v pc="$(median "$tmp/t.plain" 2)" 'BEGIN {
		printf "%-12s %8.3f s %5.2fx  %8.3f s %5.2fx\n", n, w, w / pw, c, c / pc }'
}
line plain "$tmp/t.plain"
line capaudit "$tmp/t.capaudit"
line "--no-bpf" "$tmp/t.samples"
[ -n "$bt" ] && line bpftrace "$tmp/t.bpftrace"
echo "capaudit counting: $(cat "$tmp/counting")"
echo "capaudit counted $(range "$tmp/counted") cap_chown checks of $loops, lost $(range "$tmp/lost") samples"
echo "capaudit --no-bpf counted $(range "$tmp/counted.samples") cap_chown checks of $loops, lost $(range "$tmp/lost.samples") samples"
if [ -n "$bt" ]; then
	awk -v c="$(median "$tmp/t.capaudit" 2)" -v b="$(median "$tmp/t.bpftrace" 2)" 'BEGIN {
		printf "capaudit against bpftrace (loop'"'"'s CPU): %.2fx%s\n", c / b, c <= b ? "" : " (capaudit costs more)" }'
fi
[ -n "$bt" ] && echo "bpftrace counted $(range "$tmp/btcounted") cap_chown checks of $loops"
exit 0
