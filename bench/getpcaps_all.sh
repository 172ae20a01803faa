#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# getpcaps --all over PROCS sleeping processes (bin/sleepers: half root,
# half uid 65534, a quarter with a reduced bounding set), in a pid
# namespace of their own so every tool sees the same processes and nothing
# outlives the run. In alternating rounds, ROUNDS each: the floor
# (bin/procfloor: each thread's status read once and nothing else, three
# ways), getpcaps --all, --all --json and --tree, and, when installed,
# libcap-ng's pscap (Debian: libcap-ng-utils). Prints each one's wall and
# CPU medians and the ratios. CPU is perf stat's task-clock when perf can
# count (else GNU time's user + system, in 10 ms steps).
# Then memory: each one's maximum resident set at PROCS processes and
# again with MORE more (fewer when kernel.pid_max leaves no room), what
# each process adds, and what that makes for 100,000 processes.
#   PROCS=5000 ROUNDS=5 MORE=20000 sh bench/getpcaps_all.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
BUILD=${BUILD:-$top/build/main}
ours=${OURS:-$BUILD/progs/getpcaps}
ref=${REF:-$(command -v pscap 2>/dev/null)}
procs=${PROCS:-5000}
rounds=${ROUNDS:-5}
more=${MORE:-20000}
sleepers=$BUILD/bench/bin/sleepers
floor=$BUILD/bench/bin/procfloor

[ -x "$ours" ] || { echo "bench: build first ($ours missing)"; exit 1; }
for b in "$sleepers" "$floor"; do
	[ -x "$b" ] || { echo "bench: $b missing (make -C bench all)"; exit 1; }
done
[ "$(id -u)" -eq 0 ] || { echo "bench: needs root (a pid namespace, processes of another user)"; exit 77; }
if [ -z "${GETPCAPS_BENCH_NS:-}" ]; then
	command -v unshare >/dev/null || { echo "bench: unshare (util-linux) is not installed"; exit 77; }
	echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
	GETPCAPS_BENCH_NS=1 exec unshare --pid --fork --mount-proc sh "$0" "$@"
fi

work=$(mktemp -d) || exit 1
mkfifo "$work/hold"
trap 'exec 9>&-; rm -rf "$work"' EXIT INT TERM
# start_sleepers N NAME: N more sleepers, which run until the fifo's
# writer (fd 9 here) closes; returns once all run.
start_sleepers() {
	"$sleepers" "$1" <"$work/hold" >"$work/$2" &
	[ -e /proc/self/fd/9 ] || exec 9>"$work/hold"
	i=0
	until grep -q ready "$work/$2" 2>/dev/null; do
		i=$((i + 1))
		[ $i -lt 1200 ] || { echo "bench: sleepers did not start"; exit 1; }
		sleep 0.1
	done
}
nprocs() { ls /proc | grep -cE '^[0-9]+$'; }
start_sleepers "$procs" ready1
echo "$(nprocs) processes in the namespace, $(nproc) cpus"
if [ -n "$ref" ]; then
	echo "reference: $ref ($(dpkg-query -W -f='libcap-ng-utils ${Version}' libcap-ng-utils 2>/dev/null || echo 'version unknown'))"
else
	echo "reference: pscap (libcap-ng-utils) is not installed; no pscap row"
fi

now() { date +%s%N; }
use_perf=0
command -v perf >/dev/null && perf stat -x, -e task-clock -o "$work/perf" true 2>/dev/null &&
	grep -q task-clock "$work/perf" && use_perf=1
echo "cpu: $([ $use_perf = 1 ] && echo "perf stat's task-clock" || echo "GNU time's user + system")"
# One run of a row: "wall-ms cpu-ms"; its output goes to $work/NAME.out.
run_one() {
	name=$1; shift
	t0=$(now)
	if [ $use_perf = 1 ]; then
		perf stat -x, -e task-clock -o "$work/perf" -- "$@" \
			>"$work/$name.out" 2>"$work/$name.err"
		cpu=$(awk -F, '$3 == "task-clock" { printf "%d", $1 }' "$work/perf")
	elif [ -x /usr/bin/time ]; then
		/usr/bin/time -f '%U %S' -o "$work/time" "$@" \
			>"$work/$name.out" 2>"$work/$name.err"
		cpu=$(awk '{ printf "%d", ($1 + $2) * 1000 }' "$work/time")
	else
		"$@" >"$work/$name.out" 2>"$work/$name.err"
		cpu='?'
	fi
	t1=$(now)
	echo "$(( (t1 - t0) / 1000000 )) ${cpu:-?}"
}
# Maximum resident set of one run, KiB ("?" without GNU time).
rss_of() {
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -f '%M' -o "$work/rss" "$@" >/dev/null 2>&1
		cat "$work/rss"
	else
		echo '?'
	fi
}
median() { tr ' ' '\n' | grep . | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "?" || b == "?" || b == 0) print "?"; else printf "%.3f", a / b }'; }

# The rows: name, then the command.
rows="floor_threads floor_audit floor_procs all json tree${ref:+ pscap}"
cmd_of() {
	case $1 in
	floor_threads) echo "$floor threads" ;;
	floor_audit) echo "$floor audit" ;;
	floor_procs) echo "$floor processes" ;;
	all) echo "$ours --all" ;;
	json) echo "$ours --all --json" ;;
	tree) echo "$ours --tree" ;;
	pscap) echo "$ref" ;;
	esac
}
what_of() {
	case $1 in
	floor_threads) echo "floor: every task directory listed, each thread's status read once" ;;
	floor_audit) echo "floor: each process's status, other threads' only where it counts more than one" ;;
	floor_procs) echo "floor: each process's status once, no other thread (pscap's information)" ;;
	all) echo "getpcaps --all" ;;
	json) echo "getpcaps --all --json" ;;
	tree) echo "getpcaps --tree" ;;
	pscap) echo "pscap" ;;
	esac
}

for r in $rows; do	# warm the caches
	# shellcheck disable=SC2046
	run_one "$r" $(cmd_of "$r") >/dev/null
done
for r in $rows; do eval "w_$r= c_$r="; done
i=0
while [ $i -lt "$rounds" ]; do
	for r in $rows; do
		# shellcheck disable=SC2046
		set -- $(run_one "$r" $(cmd_of "$r"))
		eval "w_$r=\"\$w_$r $1\" c_$r=\"\$c_$r $2\""
	done
	i=$((i + 1))
done
status=0
for r in all json tree; do
	if [ -s "$work/$r.err" ]; then
		echo "$(what_of $r) wrote to stderr:"; head -n 5 "$work/$r.err"; status=1
	fi
done
for r in $rows; do
	eval "w=\$w_$r c=\$c_$r"
	mw=$(echo "$w" | median) mc=$(echo "$c" | median)
	eval "mw_$r=$mw mc_$r=$mc"
	echo "$(what_of "$r"): wall ms$w (median $mw), cpu ms$c (median $mc)"
done
echo "  floor: $(cat "$work/floor_threads.out"); audit: $(cat "$work/floor_audit.out"); processes: $(cat "$work/floor_procs.out")"
echo "  getpcaps --all: $(tail -n 1 "$work/all.out")"
[ -n "$ref" ] && echo "  pscap: $(($(wc -l <"$work/pscap.out") - 1)) processes listed"
for r in all json tree; do
	eval "c=\$mc_$r w=\$mw_$r"
	line="$(what_of $r), cpu:"
	[ -n "$ref" ] && line="$line $(ratio "$c" "$mc_pscap")x pscap's (wall $(ratio "$w" "$mw_pscap")x),"
	line="$line $(ratio "$c" "$mc_floor_audit")x the audit floor's, $(ratio "$c" "$mc_floor_threads")x the listing floor's"
	echo "$line"
done
[ -n "$ref" ] && echo "(pscap leaves out pid 1 and processes with empty sets whose bounding set is reduced, which getpcaps --all shows; it reads no other thread)"
echo "load average after the rounds: $(cut -d' ' -f1-3 /proc/loadavg) (other work on the cores skews wall times most)"

# Memory: maximum RSS at two process counts.
mem_rows="all json tree${ref:+ pscap}"
n1=$(nprocs)
for r in $mem_rows; do
	# shellcheck disable=SC2046
	eval "m1_$r=$(rss_of $(cmd_of "$r"))"
done
# Room left under kernel.pid_max (a pid namespace does not raise it):
# every thread on the machine holds a pid; keep 2,000 spare.
room=$(( $(cat /proc/sys/kernel/pid_max) - $(cut -d' ' -f4 /proc/loadavg | cut -d/ -f2) - 2000 ))
[ "$more" -gt "$room" ] && more=$room
if [ "$more" -lt 1000 ]; then
	echo "memory at $n1 processes only (kernel.pid_max leaves room for $room more):"
	for r in $mem_rows; do eval "echo \"  \$(what_of $r): \$m1_$r KiB\""; done
	exit $status
fi
start_sleepers "$more" ready2
n2=$(nprocs)
echo "maximum resident set, at $n1 and at $n2 processes, what each process adds, and at 100,000 by that slope:"
for r in $mem_rows; do
	# shellcheck disable=SC2046
	m2=$(rss_of $(cmd_of "$r"))
	eval "m1=\$m1_$r"
	awk -v w="$(what_of "$r")" -v a="$m1" -v b="$m2" -v n1="$n1" -v n2="$n2" 'BEGIN {
		if (a == "?" || b == "?") { printf "  %s: ? (GNU time is not installed)\n", w; exit }
		per = (b - a) * 1024 / (n2 - n1)
		if (per > -0.5 && per < 0.5) per = 0
		printf "  %s: %d KiB, %d KiB, %.0f bytes, %.1f MiB\n", w, a, b, per, (a * 1024 + per * (100000 - n1)) / 1048576 }'
done
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
exit $status
