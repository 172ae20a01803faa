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
# in the kernel. ROUNDS rounds, each running every row once, in an order
# that turns by one row every round and goes the other way round every
# other round (so no row always follows the same one), SETTLE seconds
# between runs (0.25). With two CPUs or more, the loop runs on one CPU
# alone (the last this script may use, or LOOP_CPU; LOOP_CPU=none: no
# such split) and everything else the bench starts (capwatch, the tools,
# this shell) on the others, in every row alike: a tool's own process
# then never takes the loop's CPU, and the loop's new threads start
# where their creator waits. The loop times itself, so no tool's
# start-up is part of those figures: wall time, and the loop's CPU time
# (what each tool adds in the kernel is charged to it). Every row is compared with plain in each
# round, and the median of those per-round ratios is its figure: the
# machine's load drifts over a bench, and rows run seconds apart see
# nearly the same load. Beside it the fastest round (the one noise
# disturbed least). Each row runs under bin/capwatch (capwatch.c), which
# sees another tool's programs on cap_capable (a test suite's capaudit):
# they slow the row they meet and no other, so a round where any met one
# of its rows is left out, every row's alike, as long as 3 rounds or
# more are left. Then the checks each tool counted, capaudit's distance
# from the floor and from bpftrace, each round's in turn and their median
# (the goals' verdicts follow from those medians, with an interval that
# holds the median of the noise at 95%), the machine's load, and what
# starting and ending an audit costs:
# `capaudit -- true`, wall, median of STARTS runs. Needs root (capaudit
# mounts tracefs in a private mount namespace of its own if none is
# mounted; bpftrace is given one).
#   LOOPS=100000 ROUNDS=41 STARTS=20 SETTLE=0.25 sh bench/capaudit.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
BUILD=${BUILD:-$top/build/main}
ca=$BUILD/progs/capaudit loop=$BUILD/bench/bin/capaudit_loop
floor=$BUILD/bench/bin/floor
loops=${LOOPS:-100000} rounds=${ROUNDS:-41} starts=${STARTS:-20}
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
# The CPUs: the loop on the last one this shell may use (or LOOP_CPU),
# everything else on the others. The loop pins itself (--cpu), so the
# tool that starts it (capaudit, the floor, bpftrace) runs where it is.
allowed=$(awk '/^Cpus_allowed_list:/ {
	n = split($2, r, ",")
	for (i = 1; i <= n; i++)
		if (split(r[i], ab, "-") == 2) for (c = ab[1]; c <= ab[2]; c++) print c
		else print r[i] }' /proc/self/status)
loop_cpu=${LOOP_CPU-$(echo "$allowed" | tail -1)}
tool_cpus=$(echo "$allowed" | grep -vx "$loop_cpu" | paste -sd, -)
pinned=
if [ "$loop_cpu" = none ] || [ -z "$tool_cpus" ]; then
	layout="the loop and the tools on any of the $(echo "$allowed" | wc -l) CPUs (no CPU of the loop's own)"
elif ! command -v taskset >/dev/null; then
	layout="the loop and the tools on any CPU (taskset, util-linux, not installed)"
elif ! taskset -pc "$tool_cpus" $$ >/dev/null; then
	layout="the loop and the tools on any CPU (taskset -pc $tool_cpus refused)"
else
	pinned=--cpu=$loop_cpu
	layout="the loop on CPU $loop_cpu alone, everything else on CPU $tool_cpus, in every row"
fi
mkdir "$tmp/fs"
if [ "$on_tmpfs" = 1 ]; then
	mount -t tmpfs -o size=1m capaudit-bench "$tmp/fs" || exit 1
fi
file=$tmp/fs/file
touch "$file"
load_start=$(cut -d' ' -f1-3 /proc/loadavg)
# The CPU time a hypervisor gave others ("steal", /proc/stat): with the
# total, in clock ticks, so its share over the bench can be said.
steal() { awk '$1 == "cpu" { t = 0; for (i = 2; i <= 9; i++) t += $i; print $9, t }' /proc/stat; }
steal_start=$(steal)

# Another tool's programs on cap_capable (a test suite's capaudit, on a
# machine shared with them) run at every check of whatever row they meet,
# and only of that row. So each row runs under bin/capwatch, which notes
# the most it saw attached there meanwhile.
watch=$BUILD/bench/bin/capwatch
if [ ! -x "$watch" ]; then
	echo "other programs on cap_capable: not watched ($watch missing: make -C bench)"
	watch=
elif ! "$watch" "$tmp/w" true 2>"$tmp/watch.err"; then
	echo "other programs on cap_capable: not watched ($(head -1 "$tmp/watch.err"))"
	watch=
fi
watched() {	# COMMAND...: run under capwatch, when there is one
	if [ -n "$watch" ]; then
		"$watch" "$tmp/w" "$@"
	else
		echo 0 >"$tmp/w"
		"$@"
	fi
}

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
	watched unshare -m --propagation private sh -c '
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

# The rows, in the order of the first round. Each round starts one row
# further along, every other one going the other way round, so that each
# row follows two others in turn; and each run starts SETTLE seconds
# after the last, once what the last run's tool left for the kernel to
# do (its programs, maps and buffers freed after an RCU grace period) is
# done, which would otherwise be charged to whatever ran next.
rows="plain${floor:+ floor} capaudit samples${bt:+ bpftrace}"
nrows=$(echo $rows | wc -w)
settle=${SETTLE:-0.25}
rotated() {	# ROUND: the rows in that round's order
	echo $rows $rows | tr ' ' '\n' | tail -n +$(($1 % nrows + 1)) | head -n "$nrows" |
		if [ $(($1 % 2)) -eq 1 ]; then tac; else cat; fi
}

# One run of one row on a loop: MODE is alike or mixed, the loop's
# arguments follow; its times are appended to $tmp/MODE.ROW, and the
# other tools' programs it met on cap_capable to $tmp/MODE.others.ROW
# (what capwatch saw, less the row's own: the floor's or capaudit's).
run_row() {	# ROW MODE LOOP-ARGS...
	row=$1 m=$2; shift 2
	own=0
	sleep "$settle"
	case $row in
	plain)
		watched "$loop" "$@" "$file" "$tmp/$m.plain" || exit 1 ;;
	floor)
		own=1
		watched "$floor" "$loop" "$@" "$file" "$tmp/$m.floor" || exit 1 ;;
	capaudit)
		own=1
		watched "$ca" --output="$tmp/rep" -- "$loop" "$@" "$file" "$tmp/$m.capaudit" 2>/dev/null || exit 1
		sed -n 's/^lost samples: \([0-9]*\).*/\1/p' "$tmp/rep" >>"$tmp/$m.lost"
		counted "$m" "$tmp/rep" >>"$tmp/$m.counted"
		sed -n 's/^counting: //p' "$tmp/rep" >"$tmp/counting" ;;
	samples)
		watched "$ca" --no-bpf --output="$tmp/rep" -- "$loop" "$@" "$file" "$tmp/$m.samples" 2>/dev/null || exit 1
		sed -n 's/^lost samples: \([0-9]*\).*/\1/p' "$tmp/rep" >>"$tmp/$m.lost.samples"
		counted "$m" "$tmp/rep" >>"$tmp/$m.counted.samples" ;;
	bpftrace)
		bpftrace_run "$tmp/bt.out" "$@" "$file" "$tmp/$m.bpftrace" ||
			{ cat "$tmp/bt.out"; exit 1; }
		bt_counted "$m" "$tmp/bt.out" >>"$tmp/$m.btcounted" ;;
	esac
	awk -v own="$own" '{ print ($1 > own ? $1 - own : 0) }' "$tmp/w" >>"$tmp/$m.others.$row"
}

r=0
while [ "$r" -lt "$rounds" ]; do
	cut -d' ' -f1 /proc/loadavg >>"$tmp/load"
	for row in $(rotated "$r"); do
		run_row "$row" alike $pinned "$loops"
	done
	for row in $(rotated "$r"); do
		run_row "$row" mixed --mixed $pinned "$loops"
	done
	r=$((r + 1))
done
steal_end=$(steal)

# A round of a loop is disturbed where another tool's program met any of
# its rows. The rounds judged, every row's alike: the undisturbed ones,
# when there are 3 or more; else every round (and the report says so).
# The times of the rounds judged replace each row's, all of them kept in
# $tmp/MODE.ROW.all.
judge() {	# MODE
	paste -d' ' $(for row in $rows; do echo "$tmp/$1.others.$row"; done) |
		awk '{ d = 0; for (i = 1; i <= NF; i++) if ($i > 0) d = 1; print d }' >"$tmp/$1.disturbed"
	if [ "$(grep -c '^0$' "$tmp/$1.disturbed")" -ge 3 ]; then
		awk '$1 == 0 { print NR }' "$tmp/$1.disturbed" >"$tmp/$1.judged"
	else
		awk '{ print NR }' "$tmp/$1.disturbed" >"$tmp/$1.judged"
	fi
	for row in $rows; do
		mv "$tmp/$1.$row" "$tmp/$1.$row.all"
		awk 'NR == FNR { keep[$1] = 1; next } keep[FNR]' \
			"$tmp/$1.judged" "$tmp/$1.$row.all" >"$tmp/$1.$row"
	done
}
judge alike
judge mixed

# Starting and ending an audit: the command does nothing, so what is
# left is capaudit's own work (tracefs, loading, attaching, detaching,
# the report). `true` alone, timed the same way, is the clock's floor.
# On every CPU again, as an audit starts anywhere else.
[ -n "$pinned" ] && taskset -pc "$(echo "$allowed" | paste -sd, -)" $$ >/dev/null
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
	awk -v c="${2:-1}" '{ print $c }' "$1" | sort -g |
		awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
quantile() {	# FILE Q: between the sorted values, linearly
	sort -g "$1" | awk -v q="$2" '{ v[NR] = $1 } END {
		p = 1 + (NR - 1) * q; i = int(p)
		print (i < NR) ? v[i] + (p - i) * (v[i + 1] - v[i]) : v[NR] }'
}
range() { sort -n "$1" | sed -n '1p;$p' | paste -sd- -; }
# An interval the median of the noise lies in, from the sorted values
# alone, no law of the noise assumed: the k-th smallest to the k-th
# largest, k the largest for which at most 2.5% of as many fair coin
# tosses as values give fewer than k heads; with its confidence (95% or
# more from 6 values on).
bounds() {	# FILE: LOW HIGH CONFIDENCE
	sort -g "$1" | awk '{ v[NR] = $1 } END {
		k = 1; p = 0.5 ^ NR; c = p
		for (j = 1; j < NR; j++) { p *= (NR - j + 1) / j; if (c + p > 0.025) break; c += p; k = j + 1 }
		print v[k], v[NR - k + 1], 100 * (1 - 2 * c) }'
}
interval() {	# FILE
	bounds "$1" | awk '{ printf "%+.3fx to %+.3fx (%.0f%%)", $1, $2, $3 }'
}
fastest() { awk -v c="${2:-1}" '{ print $c }' "$1" | sort -g | head -1; }
# Each round's time of a row over plain's in the same round (COLUMN 1:
# wall, 2: the loop's CPU), one a line, the rounds in order.
# (A times file's line: wall, CPU, then the loop's context switches.)
per_round() {	# MODE ROW COLUMN
	paste -d' ' "$tmp/$1.plain" "$tmp/$1.$2" |
		awk -v c="$3" '{ print $(c + NF / 2) / $c }'
}
# Each round's capaudit ratio minus another row's, the loop's CPU, of
# the rounds judged (SUFFIX empty) or of all (SUFFIX .all).
per_round_over() {	# MODE OTHER-ROW [SUFFIX]
	paste -d' ' "$tmp/$1.plain${3-}" "$tmp/$1.capaudit${3-}" "$tmp/$1.$2${3-}" |
		awk '{ w = NF / 3; print ($(w + 2) - $(2 * w + 2)) / $2 }'
}
echo "capaudit benchmark: $rounds rounds, each row once a round, in an order that turns every round, $settle s between runs; $(echo "$allowed" | wc -l) CPUs"
echo "load average (1, 5, 15 min): $load_start at the start, $(cut -d' ' -f1-3 /proc/loadavg) at the end, the 1-minute one $(range "$tmp/load") at the rounds' starts"
echo "$steal_start $steal_end" | awk '{ if ($4 > $2) printf "CPU time the hypervisor gave others meanwhile (steal): %.1f%% of all CPUs'"'"' time\n", 100 * ($3 - $1) / ($4 - $2) }'
echo "the chowned file: on a $(stat -f -c %T "$tmp/fs") file system"
echo "CPUs: $layout"
[ -n "$bt" ] && echo "bpftrace: $("$bt" --version 2>/dev/null | head -1)"
line() {	# MODE ROW NAME
	per_round "$1" "$2" 1 >"$tmp/ratio.wall"
	per_round "$1" "$2" 2 >"$tmp/ratio.cpu"
	awk -v n="$3" -v w="$(median "$tmp/$1.$2" 1)" -v c="$(median "$tmp/$1.$2" 2)" \
	    -v rw="$(median "$tmp/ratio.wall")" -v rc="$(median "$tmp/ratio.cpu")" \
	    -v f="$(fastest "$tmp/$1.$2" 2)" -v pf="$(fastest "$tmp/$1.plain" 2)" 'BEGIN {
		printf "%-12s %8.3f s %5.2fx  %8.3f s %5.2fx  %8.3f s %5.2fx\n", n, w, rw, c, rc, f, f / pf }'
}
# capaudit's distance from another row, the loop's CPU over plain's:
# each round's, their median and quartiles, and that of the fastest
# rounds (the machine's noise only ever adds time, so the fastest round
# of each row is the one it disturbed least). The median is the figure
# the goals are judged by; it goes into $tmp/MODE.over.OTHER.
over() {	# MODE OTHER-ROW
	per_round_over "$1" "$2" >"$tmp/$1.over.rounds"
	median "$tmp/$1.over.rounds" >"$tmp/$1.over.$2"
	awk -v m="$(cat "$tmp/$1.over.$2")" -v q1="$(quantile "$tmp/$1.over.rounds" 0.25)" \
	    -v q3="$(quantile "$tmp/$1.over.rounds" 0.75)" \
	    -v fa="$(fastest "$tmp/$1.capaudit" 2)" -v fo="$(fastest "$tmp/$1.$2" 2)" \
	    -v fp="$(fastest "$tmp/$1.plain" 2)" 'BEGIN {
		printf "median %+.3fx (quartiles %+.3fx to %+.3fx; fastest rounds %+.3fx)", m, q1, q3, (fa - fo) / fp }'
	printf '; the median within %s' "$(interval "$tmp/$1.over.rounds")"
	cp "$tmp/$1.over.rounds" "$tmp/$1.rounds.$2"
	per_round_over "$1" "$2" .all | paste -d' ' - "$tmp/$1.disturbed" >"$tmp/$1.over.all"
	printf '; each round: %s' "$(awk '{ printf "%s%+.3f%s", (NR > 1 ? " " : ""), $1, ($2 ? "*" : "") }' "$tmp/$1.over.all")"
}
# Which rounds the figures of a loop come from.
judged() {	# MODE
	n=$(wc -l <"$tmp/$1.disturbed")
	k=$(grep -c '^0$' "$tmp/$1.disturbed")
	others=$(cat "$tmp/$1".others.* | sort -n | tail -1)
	if [ -z "$watch" ]; then
		echo "rounds judged: all $n (other programs on cap_capable not watched)"
	elif [ "$k" -eq "$n" ]; then
		echo "rounds judged: all $n (no other program on cap_capable met any row)"
	elif [ "$k" -ge 3 ]; then
		echo "rounds judged: the $k of $n that no other program on cap_capable met (up to $others met a row of the others, marked *)"
	else
		echo "rounds judged: all $n, though only $k met no other program on cap_capable (up to $others met a row of the others, marked *): the figures carry their cost where it fell"
	fi
}
report() {	# MODE TITLE WHAT-IS-COUNTED
	m=$1
	echo
	echo "$2"
	judged "$m"
	echo "the loop's wall and CPU time, medians; each ratio the median of the rounds' ratios to plain; the fastest round's CPU over plain's fastest"
	echo "                     wall          loop's CPU     fastest round's CPU"
	line "$m" plain plain
	[ -n "$floor" ] && line "$m" floor floor
	line "$m" capaudit capaudit
	line "$m" samples "--no-bpf"
	[ -n "$bt" ] && line "$m" bpftrace bpftrace
	printf "the loop's context switches, medians, voluntary/involuntary:"
	for row in $rows; do
		printf ' %s %s/%s' "$row" "$(median "$tmp/$m.$row" 3)" "$(median "$tmp/$m.$row" 4)"
	done
	echo
	[ -n "$floor" ] &&
		echo "capaudit over the floor, loop's CPU: $(over "$m" floor)"
	[ -n "$bt" ] &&
		echo "capaudit over bpftrace, loop's CPU: $(over "$m" bpftrace)"
	echo "capaudit counted $(range "$tmp/$m.counted") $3 of $loops, lost $(range "$tmp/$m.lost") samples"
	echo "capaudit --no-bpf counted $(range "$tmp/$m.counted.samples") $3 of $loops, lost $(range "$tmp/$m.lost.samples") samples"
	[ -n "$bt" ] && echo "bpftrace counted $(range "$tmp/$m.btcounted") $3 of $loops"
	return 0
}
report alike "$loops chowns, one cap_chown check each, all alike:" "cap_chown checks"
report mixed "$loops checks, cap_chown and cap_sys_nice in turn, a new thread every 256 pairs (--mixed):" "cap_chown and cap_sys_nice checks"
echo "capaudit counting: $(cat "$tmp/counting")"
# The goals, judged by the medians of the rounds' differences above:
# capaudit at most +0.03x over the floor, and not above bpftrace, on
# both loops.
within() {	# FILE LIMIT: the rounds whose difference is within it
	awk -v l="$2" '$1 <= l { k++ } END { printf "%d of %d rounds", k, NR }' "$1"
}
# Whether the noise could have made the verdict: the median's interval
# wholly within the limit, wholly beyond it, or holding it (then these
# rounds cannot tell, whatever the median says).
sure() {	# FILE LIMIT
	bounds "$1" | awk -v l="$2" '{
		print ($2 <= l ? "wholly within the goal" : ($1 > l ? "wholly beyond the goal" : "holding the limit (these rounds cannot tell)")) }'
}
verdict() {	# OTHER-ROW GOAL LIMIT
	awk -v a="$(cat "$tmp/alike.over.$1")" -v b="$(cat "$tmp/mixed.over.$1")" \
	    -v g="$2" -v l="$3" 'BEGIN {
		printf "goal, %s (medians of the rounds'"'"' differences): chowns %+.3fx %s, mixed %+.3fx %s: %s\n",
			g, a, a <= l ? "yes" : "no", b, b <= l ? "yes" : "no", a <= l && b <= l ? "met" : "not met" }'
	echo "  within it: chowns $(within "$tmp/alike.rounds.$1" "$3"), mixed $(within "$tmp/mixed.rounds.$1" "$3"); medians within $(interval "$tmp/alike.rounds.$1") and $(interval "$tmp/mixed.rounds.$1")"
	echo "  so, the intervals: chowns $(sure "$tmp/alike.rounds.$1" "$3"), mixed $(sure "$tmp/mixed.rounds.$1" "$3")"
}
echo
if [ -n "$floor" ]; then
	verdict floor "capaudit at most +0.03x over the floor" 0.03
else
	echo "goal, capaudit at most +0.03x over the floor: not judged (no floor row)"
fi
if [ -n "$bt" ]; then
	verdict bpftrace "capaudit not above bpftrace" 0
else
	echo "goal, capaudit not above bpftrace: not judged (no bpftrace row)"
fi
echo
echo "starting and ending an audit, wall, median of $starts:"
awk -v t="$(median "$tmp/start.true")" 'BEGIN { printf "true alone          %6.3f s (the clock'"'"'s own cost)\n", t / 1e6 }'
[ -n "$floor" ] &&
	awk -v t="$(median "$tmp/start.floor")" 'BEGIN { printf "floor true          %6.3f s\n", t / 1e6 }'
awk -v t="$(median "$tmp/start.capaudit")" 'BEGIN {
	printf "capaudit -- true    %6.3f s (goal: at most 0.05 s)\n", t / 1e6 }'
exit 0
