#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# capaudit's overhead, on two loops (capaudit_loop.c): LOOPS chowns, one
# cap_chown check each, all alike (the best case for counting runs of
# identical checks), and LOOPS checks of two kinds in turn with a new
# thread now and then (--mixed: the worst case, every check a new run).
# Each is run plain; under the floor (bin/floor: empty eBPF programs on
# the four raw tracepoints capaudit's counter uses, what any eBPF counter
# there pays); under capaudit counting in the kernel (eBPF, as root);
# under capaudit --no-bpf (one perf sample per check); and, when it is
# installed, under a bpftrace one-liner that counts the same tracepoint
# in the kernel. In alternating rounds (ROUNDS each, medians). The loop
# times itself, so no tool's start-up is part of those figures: wall
# time, and the loop's CPU time (what each tool adds in the kernel is
# charged to it). Then the checks each tool counted, capaudit's distance
# from the floor and from bpftrace, and what starting and ending an audit
# costs: `capaudit -- true`, wall, median of STARTS runs. Needs root
# (capaudit mounts tracefs in a private mount namespace of its own if
# none is mounted; bpftrace is given one).
#   LOOPS=500000 ROUNDS=5 STARTS=20 sh bench/capaudit.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
BUILD=${BUILD:-$top/build/main}
ca=$BUILD/progs/capaudit loop=$BUILD/bench/bin/capaudit_loop
floor=$BUILD/bench/bin/floor
loops=${LOOPS:-500000} rounds=${ROUNDS:-5} starts=${STARTS:-20}
[ -x "$ca" ] || { echo "bench: build first ($ca missing)"; exit 1; }
[ -x "$loop" ] || { echo "bench: $loop missing (make -C bench)"; exit 1; }
[ "$(id -u)" -eq 0 ] || { echo "bench: needs root (chown to other uids, and tracing)"; exit 77; }
"$ca" --check >/dev/null 2>&1 || { "$ca" --check; exit 77; }
# The chowned file lives on a tmpfs of the bench's own, mounted in a
# private mount namespace: no journal or writeback of a disk's file
# system in the loop, so its time is steadier, and a chown costs little,
# so a tracer's cost per check shows in full. ON_TMPFS=0 leaves the file
# in the temporary directory (TMPDIR's file system).
on_tmpfs=${ON_TMPFS:-1}
if [ "$on_tmpfs" = 1 ] && ! command -v unshare >/dev/null; then
	echo "unshare (util-linux) not installed: the chowned file stays in TMPDIR"
	on_tmpfs=0
fi
if [ "$on_tmpfs" = 1 ] && [ -z "${CAPAUDIT_BENCH_NS:-}" ]; then
	CAPAUDIT_BENCH_NS=1 exec unshare -m --propagation private sh "$0" "$@"
fi
tmp=$(mktemp -d); trap 'umount "$tmp/fs" 2>/dev/null; rm -rf "$tmp"' EXIT INT TERM
mkdir "$tmp/fs"
if [ "$on_tmpfs" = 1 ]; then
	mount -t tmpfs -o size=1m capaudit-bench "$tmp/fs" || exit 1
fi
file=$tmp/fs/file
touch "$file"
load_start=$(cut -d' ' -f1-3 /proc/loadavg)

if [ ! -x "$floor" ]; then
	echo "floor: skipped (needs clang, bpftool, libbpf-dev)"
	floor=
elif ! "$floor" true 2>"$tmp/floor.err"; then
	echo "floor: skipped (its empty programs did not load here):"
	sed 's/^/  /' "$tmp/floor.err" | head -5
	floor=
fi

# bpftrace reads the tracepoint's format from tracefs: one mounted in a
# mount namespace of its own, so the host's mounts stay as they were.
bt=${BPFTRACE-$(command -v bpftrace)}	# BPFTRACE= leaves it out
prog='tracepoint:capability:cap_capable /pid == cpid/ { @[args->cap, args->ret] = count(); }'
bpftrace_run() {	# OUT LOOP-ARGS...
	out=$1; shift
	unshare -m --propagation private sh -c '
		t=/sys/kernel/tracing
		[ -r "$t/events/capability/cap_capable/format" ] ||
			mount -t tracefs tracefs "$t" || exit 1
		exec "$@"' sh "$bt" -e "$prog" -c "$loop $*" >"$out" 2>&1
}
if [ -z "$bt" ]; then
	echo "bpftrace not installed, skipped (Debian: apt-get install bpftrace)"
elif ! bpftrace_run "$tmp/bt.out" "$loops" "$file" "$tmp/probe" ||
     [ ! -s "$tmp/probe" ]; then
	echo "bpftrace cannot trace capability:cap_capable here, skipped:"
	sed 's/^/  /' "$tmp/bt.out" | head -5
	bt=
fi

# Another tool's programs on cap_capable (a test suite's capaudit, say)
# slow every row alike, plain included: counted at each round's start.
foreign() {
	command -v bpftool >/dev/null || return 0
	bpftool link show 2>/dev/null | grep -c "tp 'cap_capable'" >>"$tmp/foreign"
}

# The checks a report or bpftrace's map holds: cap_chown (0), and for
# the mixed loop cap_sys_nice (23) as well, all granted.
counted() {	# MODE REPORT
	awk -v m="$1" '$1 == "cap_chown" || (m == "mixed" && $1 == "cap_sys_nice") { n += $2 }
		END { print n + 0 }' "$2"
}
bt_counted() {	# MODE OUTPUT
	awk -v m="$1" '/^@\[(0|23), 0\]: / { if ($1 == "@[0," || m == "mixed") n += $3 }
		END { print n + 0 }' "$2"
}

# One round of a loop: MODE is alike or mixed, the loop's arguments follow.
round() {	# MODE LOOP-ARGS...
	m=$1; shift
	"$loop" "$@" "$file" "$tmp/$m.plain" || exit 1
	if [ -n "$floor" ]; then
		"$floor" "$loop" "$@" "$file" "$tmp/$m.floor" || exit 1
	fi
	"$ca" --output="$tmp/rep" -- "$loop" "$@" "$file" "$tmp/$m.capaudit" 2>/dev/null || exit 1
	sed -n 's/^lost samples: \([0-9]*\).*/\1/p' "$tmp/rep" >>"$tmp/$m.lost"
	counted "$m" "$tmp/rep" >>"$tmp/$m.counted"
	sed -n 's/^counting: //p' "$tmp/rep" >"$tmp/counting"
	"$ca" --no-bpf --output="$tmp/rep" -- "$loop" "$@" "$file" "$tmp/$m.samples" 2>/dev/null || exit 1
	sed -n 's/^lost samples: \([0-9]*\).*/\1/p' "$tmp/rep" >>"$tmp/$m.lost.samples"
	counted "$m" "$tmp/rep" >>"$tmp/$m.counted.samples"
	if [ -n "$bt" ]; then
		bpftrace_run "$tmp/bt.out" "$@" "$file" "$tmp/$m.bpftrace" ||
			{ cat "$tmp/bt.out"; exit 1; }
		bt_counted "$m" "$tmp/bt.out" >>"$tmp/$m.btcounted"
	fi
}

r=0
while [ "$r" -lt "$rounds" ]; do
	foreign
	round alike "$loops"
	round mixed --mixed "$loops"
	r=$((r + 1))
done

# Starting and ending an audit: the command does nothing, so what is
# left is capaudit's own work (tracefs, loading, attaching, detaching,
# the report). `true` alone, timed the same way, is the clock's floor.
now() { date +%s%N; }
r=0
while [ "$r" -lt "$starts" ]; do
	t0=$(now); true; t1=$(now)
	echo "$(((t1 - t0) / 1000)) 0" >>"$tmp/start.true"
	if [ -n "$floor" ]; then
		t0=$(now); "$floor" true; t1=$(now)
		echo "$(((t1 - t0) / 1000)) 0" >>"$tmp/start.floor"
	fi
	t0=$(now)
	"$ca" --output="$tmp/rep.true" -- true 2>/dev/null || exit 1
	t1=$(now)
	echo "$(((t1 - t0) / 1000)) 0" >>"$tmp/start.capaudit"
	r=$((r + 1))
done

median() {	# FILE [COLUMN]
	awk -v c="${2:-1}" '{ print $c }' "$1" | sort -n |
		awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
range() { sort -n "$1" | sed -n '1p;$p' | paste -sd- -; }
echo "capaudit benchmark: median of $rounds alternating rounds, $(nproc) cpus, load average $load_start at the start, $(cut -d' ' -f1-3 /proc/loadavg) at the end"
echo "the chowned file: on a $(stat -f -c %T "$tmp/fs") file system"
[ -n "$bt" ] && echo "bpftrace: $("$bt" --version 2>/dev/null | head -1)"
if [ -s "$tmp/foreign" ] && [ "$(sort -n "$tmp/foreign" | tail -1)" -gt 0 ]; then
	echo "other eBPF programs on cap_capable at a round's start: $(range "$tmp/foreign") (each slows every row, plain included)"
fi
fastest() { awk -v c="${2:-1}" '{ print $c }' "$1" | sort -n | head -1; }
line() {	# MODE NAME TIMES
	awk -v n="$2" -v w="$(median "$3" 1)" -v c="$(median "$3" 2)" -v f="$(fastest "$3" 2)" \
	    -v pw="$(median "$tmp/$1.plain" 1)" -v pc="$(median "$tmp/$1.plain" 2)" \
	    -v pf="$(fastest "$tmp/$1.plain" 2)" 'BEGIN {
		printf "%-12s %8.3f s %5.2fx  %8.3f s %5.2fx  %8.3f s %5.2fx\n", n, w, w / pw, c, c / pc, f, f / pf }'
}
# capaudit's ratio minus another row's, the loop's CPU: of the medians,
# then of the fastest rounds (the machine's noise only ever adds time, so
# the fastest round of each row is the one it disturbed least).
over() {	# MODE OTHER-TIMES
	awk -v a="$(median "$tmp/$1.capaudit" 2)" -v o="$(median "$2" 2)" \
	    -v p="$(median "$tmp/$1.plain" 2)" \
	    -v fa="$(fastest "$tmp/$1.capaudit" 2)" -v fo="$(fastest "$2" 2)" \
	    -v fp="$(fastest "$tmp/$1.plain" 2)" 'BEGIN {
		printf "%+.2fx (fastest rounds: %+.2fx)", (a - o) / p, (fa - fo) / fp }'
}
report() {	# MODE TITLE WHAT-IS-COUNTED
	m=$1
	echo
	echo "$2"
	echo "                     wall          loop's CPU     fastest round's CPU"
	line "$m" plain "$tmp/$m.plain"
	[ -n "$floor" ] && line "$m" floor "$tmp/$m.floor"
	line "$m" capaudit "$tmp/$m.capaudit"
	line "$m" "--no-bpf" "$tmp/$m.samples"
	[ -n "$bt" ] && line "$m" bpftrace "$tmp/$m.bpftrace"
	[ -n "$floor" ] &&
		echo "capaudit over the floor, loop's CPU: $(over "$m" "$tmp/$m.floor") (goal: at most +0.03x)"
	if [ -n "$bt" ]; then
		echo "capaudit over bpftrace, loop's CPU: $(over "$m" "$tmp/$m.bpftrace") (goal: not above it)"
		awk -v c="$(median "$tmp/$m.capaudit" 2)" -v b="$(median "$tmp/$m.bpftrace" 2)" 'BEGIN {
			printf "capaudit against bpftrace (loop'"'"'s CPU): %.2fx%s\n", c / b, c <= b ? "" : " (capaudit costs more)" }'
	fi
	echo "capaudit counted $(range "$tmp/$m.counted") $3 of $loops, lost $(range "$tmp/$m.lost") samples"
	echo "capaudit --no-bpf counted $(range "$tmp/$m.counted.samples") $3 of $loops, lost $(range "$tmp/$m.lost.samples") samples"
	[ -n "$bt" ] && echo "bpftrace counted $(range "$tmp/$m.btcounted") $3 of $loops"
	return 0
}
report alike "$loops chowns, one cap_chown check each, all alike:" "cap_chown checks"
report mixed "$loops checks, cap_chown and cap_sys_nice in turn, a new thread every 256 pairs (--mixed):" "cap_chown and cap_sys_nice checks"
echo "capaudit counting: $(cat "$tmp/counting")"
echo
echo "starting and ending an audit, wall, median of $starts:"
awk -v t="$(median "$tmp/start.true")" 'BEGIN { printf "true alone          %6.3f s (the clock'"'"'s own cost)\n", t / 1e6 }'
[ -n "$floor" ] &&
	awk -v t="$(median "$tmp/start.floor")" 'BEGIN { printf "floor true          %6.3f s\n", t / 1e6 }'
awk -v t="$(median "$tmp/start.capaudit")" 'BEGIN {
	printf "capaudit -- true    %6.3f s (goal: at most 0.05 s)\n", t / 1e6 }'
exit 0
