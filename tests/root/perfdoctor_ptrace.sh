#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# perfdoctor --pid reads another process's seccomp filters with ptrace
# (root only): a privileged path into a process it must not disturb.
# Against targets that make it hard (tests/tools/ptarget), it answers
# from what it read or says UNKNOWN, never YES on a guess, and leaves
# every target as it found it: running, stopped if it was stopped,
# traced by nobody new, its signals all delivered, a set-user-ID program
# it executes meanwhile still privileged.
#  - a target another tracer holds: UNKNOWN, naming the tracer, which
#    keeps it;
#  - a zombie, and targets that exit while being read: never YES, no hang;
#    a zombie, or a process whose main thread ended, is not judged with
#    perfdoctor's root's binary in place of its own (exit 2);
#  - every signal blocked; stopped by SIGSTOP (stays stopped);
#  - a stream of queued signals while it is read again and again: none lost;
#  - a vfork() parent, which cannot stop: UNKNOWN after the bound, let go;
#  - frozen by cgroup v1's freezer (a paused container): UNKNOWN at once,
#    saying so, untouched; by cgroup v2's: its filter read;
#  - threads: all read; one with a filter of its own makes it UNKNOWN;
#  - a set-user-ID program executing itself in a loop while read: every
#    execution keeps its effective uid 0;
#  - 3000 filters and a profile: all read, the profile's refusal found.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
. "$TESTS_DIR/tools/perf_world.sh"
doctor_bin=$BUILD/progs/perfdoctor
for t in scfilter ptarget; do
	[ -x "$BIN/$t" ] || { fail "$t is not built"; finish; }
done
pids=
at_exit 'for p in $pids; do kill -9 "$p" 2>/dev/null; done'
mkdir "$T/nopam"
: >"$T/empty.conf"
perf=$T/perf
cp "$BIN/perfprobe" "$perf"
chmod 0755 "$perf"

# The targets are uid 0, whose securebits nobody else may read: with
# this perf a yes rests on root's exec rule, which SECBIT_NOROOT takes
# away, so it is UNKNOWN from here. Where a case wants a yes, perfc's
# file capabilities give it whatever the securebits.
perfc=$T/perfc
cp "$BIN/perfprobe" "$perfc"
/usr/sbin/setcap cap_perfmon=ep "$perfc"

doctor() {	# PID: perfdoctor --pid=PID on $P (default $perf); $d, $T/doc
	timeout 30 "$doctor_bin" --pam-dir="$T/nopam" --config="$T/empty.conf" \
		--pid="$1" "${P:-$perf}" >"$T/doc" 2>&1
	d=$?
}
# start CMD...: CMD under scfilter's options $SCF (default: podman's
# profile without its rule), in the background; $pid is it, once it has
# executed CMD (and so installed the filters).
start() {
	want=$(readlink -f "$(command -v "$1")")
	# shellcheck disable=SC2086 # options
	"$BIN/scfilter" ${SCF:--P} "$@" &
	pid=$!
	pids="$pids $pid"
	i=0
	while [ "$(readlink "/proc/$pid/exe" 2>/dev/null)" != "$want" ] &&
		[ $i -lt 100 ]; do
		sleep 0.05; i=$((i + 1))
	done
}
field() {	# PID NAME: the field of its status
	sed -n "s/^$2:\t//p" "/proc/$1/status" 2>/dev/null
}
state() { field "$1" State | cut -c1; }
# left LABEL PID STATE TRACER: the target is in STATE, traced by TRACER
# (S: running, asleep or just woken, R; T: stopped).
left() {
	s=$(state "$2") tr=$(field "$2" TracerPid)
	[ "$s" = R ] && [ "$3" = S ] && s=S
	[ "$s" = "$3" ] && [ "$tr" = "$4" ] && pass ||
		fail "$1: process $2 left in state '$s' traced by '$tr', want '$3' and '$4'"
}
said() {	# LABEL EXIT TEXT: the last report
	if [ "$d" -eq "$2" ] && grep -qF -- "$3" "$T/doc"; then
		ok "$1: $(grep '^verdict' "$T/doc")"
	else
		fail "$1: exit $d, want $2 and '$3':"; sed 's/^/    | /' "$T/doc"
	fi
}

# Another tracer holds it: a process has one tracer.
start sleep 120
"$BIN/ptarget" -S "$pid" &
tracer=$!
pids="$pids $tracer"
i=0
while [ "$(field "$pid" TracerPid)" != "$tracer" ] && [ $i -lt 100 ]; do
	sleep 0.05; i=$((i + 1))
done
doctor "$pid"
said "traced by another" 3 "process $pid is traced by process $tracer, and a process has one tracer: its seccomp filter cannot be read"
left "traced by another" "$pid" S "$tracer"
kill -9 "$tracer" "$pid"

# A zombie under the filter: nothing to trace, nothing to answer yes to.
sh -c '"$0" -P true & exec sleep 120' "$BIN/scfilter" &
parent=$!
pids="$pids $parent"
i=0
while ! grep -q '^State:.Z' "/proc/$(cat "/proc/$parent/task/$parent/children" 2>/dev/null | tr -d ' ')/status" 2>/dev/null &&
	[ $i -lt 100 ]; do
	sleep 0.05; i=$((i + 1))
done
zombie=$(tr -d ' ' <"/proc/$parent/task/$parent/children")
doctor "$zombie"
said "a zombie" 2 "perfdoctor: process $zombie: its root is gone: it has exited, or its main thread has: No such file or directory"
kill -9 "$parent"

# A process whose main thread has ended, another one living on: its root
# cannot be opened through its /proc directory. It is not judged with
# perfdoctor's own root's binary in its place (a container's process
# would have been, this host's perf for the container's).
# (Not start(): the leader's exe link goes with its thread.)
"$BIN/scfilter" -P "$BIN/ptarget" -L &
pid=$!
pids="$pids $pid"
i=0
while ! grep -q '^State:.Z' "/proc/$pid/status" && [ $i -lt 100 ]; do
	sleep 0.05; i=$((i + 1))
done
doctor "$pid"
said "its main thread ended" 2 "perfdoctor: process $pid: its root is gone: it has exited, or its main thread has"
kill -9 "$pid"

# Targets that exit while they are read, each under the filter from its
# fork on: a refusal read in time (NO), or nothing read (UNKNOWN, or no
# such process), never YES, never a hang.
: >"$T/pids.out"
"$BIN/scfilter" -P sh -c 'i=0; while [ $i -lt 12 ]; do
	sleep "0.0$((i % 4))" & echo $!; wait; i=$((i + 1)); done' >"$T/pids.out" &
launcher=$!
pids="$pids $launcher"
n=0 bad=0 seen=0 got=
while [ $n -lt 12 ]; do
	i=0
	while [ "$(wc -l <"$T/pids.out")" -le $n ] && [ $i -lt 200 ]; do
		sleep 0.01; i=$((i + 1))
	done
	p=$(sed -n "$((n + 1))p" "$T/pids.out")
	[ -n "$p" ] || break
	doctor "$p"
	seen=$((seen + 1))
	case $d in 1|2|3) ;; *) bad=$((bad + 1)); sed 's/^/    | /' "$T/doc" ;; esac
	got="$got $d"
	n=$((n + 1))
done
wait "$launcher"
[ $bad -eq 0 ] && [ $seen -eq 12 ] &&
	ok "12 targets exiting as they are read: no YES, no hang (exits:$got)" ||
	fail "targets exiting as they are read: $bad of $seen got another answer"

# Every signal blocked: ptrace's stop is no signal.
start "$BIN/ptarget" -b
doctor "$pid"
said "every signal blocked" 1 "SECCOMP_RET_ERRNO(1) from filter 1 of 1"
left "every signal blocked" "$pid" S 0
kill -9 "$pid"

# Stopped by SIGSTOP before: read, and still stopped after.
start sleep 120
kill -STOP "$pid"
i=0
while [ "$(state "$pid")" != T ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
doctor "$pid"
said "stopped by SIGSTOP" 1 "SECCOMP_RET_ERRNO(1) from filter 1 of 1"
left "stopped by SIGSTOP" "$pid" T 0
kill -CONT "$pid"
i=0
while [ "$(state "$pid")" = T ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
left "stopped by SIGSTOP, then continued" "$pid" S 0
kill -9 "$pid"

# Queued signals arriving while it is read, again and again: every one
# reaches its handler (one caught in a signal-delivery stop is handed
# back on detach).
start "$BIN/ptarget" -r "$T/count"
i=0
while [ ! -s "$T/count.sig" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
sig=$(cat "$T/count.sig")
# Ten at a time, a pause between, for the reads to meet them.
( n=0; while [ $n -lt 200 ]; do
	kill -"$sig" "$pid"; n=$((n + 1))
	[ $((n % 10)) -ne 0 ] || sleep 0.02
done ) &
sender=$!
reads=0
while kill -0 "$sender" 2>/dev/null; do
	doctor "$pid"
	grep -q "1 filter read from process $pid" "$T/doc" && reads=$((reads + 1))
done
wait "$sender"
kill -TERM "$pid"
wait "$pid" 2>/dev/null
got=$(cat "$T/count")
if [ "$got" = 200 ] && [ $reads -gt 0 ]; then
	ok "200 queued signals sent while it was read $reads times: all 200 handled"
else
	fail "queued signals: $got of 200 handled, $reads reads"
fi

# Filters belong to threads, and any thread may start perf: every thread
# is read. Three threads sharing the filters: read, all three let go;
# three threads with a filter of their own each, as many filters for each
# but one refusing perf_event_open(): UNKNOWN, naming it. (Only the main
# thread was read, and the others' counts compared: YES.)
SCF=-Q
start "$BIN/ptarget" -m 0
i=0
while [ "$(field "$pid" Threads)" != 3 ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
P=$perfc
doctor "$pid"
P=
said "three threads, one chain" 0 "1 filter read from process $pid"
for t in /proc/"$pid"/task/*; do
	left "three threads, one chain: thread ${t##*/}" "$pid/task/${t##*/}" S 0
done
kill -9 "$pid"
start "$BIN/ptarget" -m 1
i=0
while [ "$(sed -n 's/^Seccomp_filters:\t//p' /proc/"$pid"/task/*/status | sort -u)" != 2 ] &&
	[ $i -lt 100 ]; do
	sleep 0.05; i=$((i + 1))
done
doctor "$pid"
said "threads with filters of their own" 3 "runs under other seccomp filters than its main thread, and which one starts perf is not known"
for t in /proc/"$pid"/task/*; do
	left "threads with filters of their own: thread ${t##*/}" "$pid/task/${t##*/}" S 0
done
kill -9 "$pid"
SCF=

# A vfork() parent cannot stop until its child is done: perfdoctor gives
# up after its bound and lets it go, untouched.
start "$BIN/ptarget" -v 3
doctor "$pid"
said "a vfork() parent" 3 "did not stop within 2 seconds to have its seccomp filter read"
[ "$(field "$pid" TracerPid)" = 0 ] && pass || fail "the vfork() parent is still traced"
i=0
while [ "$(state "$pid")" = D ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
left "a vfork() parent, its child done" "$pid" S 0
kill -9 "$pid"

# A paused container's process, frozen by its cgroup's freezer: with
# cgroup v1's it waits in the kernel's refrigerator and no ptrace stop
# comes until it is thawed; perfdoctor says so at once, without tracing
# it (a wait would end only at the bound), and leaves it as it was. With
# cgroup v2's the frozen process takes the stop: its filter is read.
frozen_case() {	# LABEL DIR FREEZE THAW STATE-FILE FROZEN-STATE EXIT TEXT
	start sleep 120
	g=$2/perfdoctor_ptrace.$$
	at_exit_checked "{ [ ! -d '$g' ] || { echo '$4' >'$g/$3'; kill -9 $pid; i=0; while [ -s '$g/cgroup.procs' ] && [ \$i -lt 100 ]; do sleep 0.05; i=\$((i + 1)); done; rmdir '$g'; }; }"
	mkdir "$g" && echo "$pid" >"$g/cgroup.procs" && echo "$5" >"$g/$3" ||
		{ fail "$1: cannot freeze process $pid in $g"; return; }
	i=0
	until grep -qx "$6" "$g/$7" || [ $i -ge 100 ]; do sleep 0.05; i=$((i + 1)); done
	doctor "$pid"
	said "$1" "$8" "$9"
	left "$1, still frozen" "$pid" "$(state "$pid")" 0
	echo "$4" >"$g/$3"
	i=0
	until [ "$(state "$pid")" = S ] || [ $i -ge 100 ]; do sleep 0.05; i=$((i + 1)); done
	left "$1, thawed" "$pid" S 0
	kill -9 "$pid"
	wait "$pid" 2>/dev/null
	i=0
	while [ -s "$g/cgroup.procs" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
	rmdir "$g" && pass || fail "$1: cannot remove $g"
}
v1=/sys/fs/cgroup/freezer
if [ -f "$v1/cgroup.procs" ] && [ -w "$v1" ] && grep -q 'cgroup .*freezer' /proc/self/mountinfo; then
	frozen_case "a process frozen by cgroup v1's freezer" "$v1" \
		freezer.state THAWED FROZEN FROZEN freezer.state 3 \
		"is frozen (its cgroup's freezer: a container paused with podman pause or docker pause)"
else
	not_checked "a process frozen by cgroup v1's freezer: no cgroup v1 freezer here"
fi
v2=$(awk '$9 == "cgroup2" { print $5; exit }' /proc/self/mountinfo)
if [ -n "$v2" ] && [ -f "$v2/cgroup.procs" ] && [ -w "$v2" ]; then
	frozen_case "a process frozen by cgroup v2's freezer" "$v2" \
		cgroup.freeze 0 1 "frozen 1" cgroup.events 1 \
		"SECCOMP_RET_ERRNO(1) from filter"
else
	not_checked "a process frozen by cgroup v2's freezer: no writable cgroup2 here"
fi

# A set-user-ID program executing itself 200 times under the filter while
# it is read: a tracer without CAP_SYS_PTRACE would cost an execution its
# privileges (LSM_UNSAFE_PTRACE); perfdoctor's reader holds it.
cp "$BIN/ptarget" "$T/suid"
chmod 4755 "$T/suid"
"$BIN/scfilter" -Q setpriv --reuid=4001 --regid=4001 --clear-groups \
	"$T/suid" -e "$T/euids" 200 &
loop=$!
pids="$pids $loop"
reads=0
while kill -0 "$loop" 2>/dev/null; do
	doctor "$loop"
	grep -q "filter read from process $loop" "$T/doc" && reads=$((reads + 1))
done
wait "$loop"
lines=$(wc -l <"$T/euids")
other=$(grep -cvx 0 "$T/euids")
if [ "$lines" -eq 201 ] && [ "$other" -eq 0 ] && [ $reads -gt 0 ]; then
	ok "a set-user-ID program re-executing while read $reads times: 201 executions, all with euid 0"
else
	fail "set-user-ID loop: $lines executions, $other without euid 0, $reads reads"
fi

# 3000 filters under podman's profile: all read, the refusal found, the
# probe inside agrees.
SCF="-x 3000 -P"
start sleep 120
SCF=
doctor "$pid"
said "3001 filters" 1 "3001 filters read from process $pid"
grep -qF "SECCOMP_RET_ERRNO(1) from filter 3001 of 3001" "$T/doc" && pass ||
	fail "3001 filters: not the newest's refusal"
left "3001 filters" "$pid" S 0
kill -9 "$pid"
"$BIN/scfilter" -x 3000 -P "$doctor_bin" --pam-dir="$T/nopam" \
	--config="$T/empty.conf" "$perf" >"$T/doc" 2>&1
d=$?
said "3001 filters, inside" 1 "EPERM (Operation not permitted) from the filter"
finish
