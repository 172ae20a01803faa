#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# capaudit --pid on the real kernel. A capaudit holding cap_perfmon, run
# by nobody, watches what ptrace(2)'s PTRACE_MODE_READ_REALCREDS would let
# nobody read, and nothing else: nobody's dumpable process yes; its
# process that made itself non-dumpable, or that exec'd a program with
# file capabilities (cap_perfmon, which capaudit holds too: only to
# trace, not as the user's own), no. Root's
# capaudit may watch them. And a watched process whose first thread
# leaves (its events say POLLHUP from then on) does not make capaudit
# spin: its CPU time over a 4-second watch stays well under a second.
# capaudit counts only the process: a thread that ends while capaudit
# attaches, its id taken by a stranger (ns_last_pid, in a pid namespace
# of the suite's own), is left out and said (tools/capaudit_stranger.sh);
# a /proc of another pid namespace than capaudit's is refused; the test
# hook that widens that window is ignored by a capaudit that gained
# privileges.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
# nobody by name; our private mount namespace for tracefs.
private_etc "$@"
init
CA=$BUILD/progs/capaudit S=$BUILD/progs/setcap target=$BIN/capaudit_target
[ -x "$CA" ] && [ -x "$S" ] && [ -x "$target" ] || { fail "capaudit, setcap or capaudit_target not built"; finish; }
skip_if_sanitized "file capabilities on a copy of capaudit (ASan refuses AT_SECURE)"
at_exit_checked tracefs_restore
# Readable by nogroup, as an admin lets a perf_users group read it.
tracefs_mount gid=65534,mode=0750 || { fail "cannot mount tracefs in our mount namespace"; finish; }
[ -r /sys/kernel/tracing/events/capability/cap_capable/id ] ||
	skip "no capability:cap_capable tracepoint (Linux 6.14+)"
chmod 755 "$T"
mkdir "$T/w" && chown nobody:nogroup "$T/w"
cp "$CA" "$T/capaudit" && chmod 755 "$T/capaudit"
"$S" cap_perfmon=ep "$T/capaudit" || { fail "our setcap cap_perfmon=ep"; finish; }
cp "$target" "$T/target" && chmod 755 "$T/target"
cp "$target" "$T/capped" && chmod 755 "$T/capped"
"$S" cap_perfmon=ep "$T/capped" || { fail "our setcap on the target"; finish; }

pids=
at_exit 'for p in $pids; do kill "$p" 2>/dev/null; done'
# start NAME CMD...: runs CMD in the background, sets $tpid to the pid it prints.
start() {
	name=$1
	shift
	"$@" >"$T/$name.out" 2>&1 &
	pids="$pids $!"
	tpid=
	n=0
	while [ -z "$tpid" ] && [ "$n" -lt 50 ]; do
		tpid=$(sed -n 's/^pid //p' "$T/$name.out")
		[ -n "$tpid" ] || sleep 0.1
		n=$((n + 1))
	done
	[ -n "$tpid" ] || fail "$name did not start: $(cat "$T/$name.out")"
}
# watch WHO PID: capaudit --pid for a second; exit status in $rc.
watch() {
	who=$1
	shift
	if [ "$who" = nobody ]; then
		as_nobody "$T/capaudit" --pid="$1" --duration=1 --output="$T/w/rep" 2>"$T/err"
	else
		"$CA" --pid="$1" --duration=1 --output="$T/rep" 2>"$T/err"
	fi
	rc=$?
}

# 1. nobody's own, dumpable: watched.
start dumpable as_nobody "$T/target" --dumpable 30
watch nobody "$tpid"
[ "$rc" -eq 0 ] && grep -q "^command: attached for " "$T/w/rep" ||
	fail "nobody's dumpable process not watched: exit $rc, $(cat "$T/err")"

# 1b. The same with CAPAUDIT_ATTACH_WAIT naming a FIFO nobody may open and
#     nobody writes: the copy with file capabilities ignores it (else
#     it would wait there until killed).
mkfifo -m 666 "$T/w/hold"
as_nobody env CAPAUDIT_ATTACH_WAIT="$T/w/hold" timeout 20 "$T/capaudit" \
	--pid="$tpid" --duration=1 --output="$T/w/rep" 2>"$T/err"
rc=$?
[ "$rc" -eq 0 ] && grep -q "^command: attached for " "$T/w/rep" ||
	fail "CAPAUDIT_ATTACH_WAIT honoured by a capaudit with file capabilities: exit $rc, $(cat "$T/err")"

# 2. nobody's own, made non-dumpable: refused, as ptrace would refuse.
start nodumpable as_nobody "$T/target" --nodumpable 30
watch nobody "$tpid"
[ "$rc" -eq 1 ] || fail "nobody's non-dumpable process watched: exit $rc"
grep -q "^capaudit: --pid=$tpid: not dumpable .*: capaudit watches only what ptrace(2) would let you read$" "$T/err" ||
	fail "non-dumpable: $(cat "$T/err")"
watch root "$tpid"
[ "$rc" -eq 0 ] || fail "root's capaudit refused the non-dumpable process: $(cat "$T/err")"

# 3. nobody's own, running a program with file capabilities: refused.
start capped as_nobody "$T/capped" --dumpable 30
watch nobody "$tpid"
[ "$rc" -eq 1 ] || fail "nobody's file-capability process watched: exit $rc"
grep -q "^capaudit: --pid=$tpid: it holds capabilities you do not (cap_perfmon): " "$T/err" ||
	fail "file capabilities: $(cat "$T/err")"
watch root "$tpid"
[ "$rc" -eq 0 ] || fail "root's capaudit refused the file-capability process: $(cat "$T/err")"

# 4. Another user's: refused.
watch nobody 1
[ "$rc" -eq 1 ] && grep -q "^capaudit: --pid=1: not a process of yours: " "$T/err" ||
	fail "--pid=1 as nobody: exit $rc, $(cat "$T/err")"

# 5. nobody's first thread, root's second (a raw setresuid(2) changes one
#    thread): refused, as ptrace would refuse the root thread; root may.
start mixed "$target" --mixed-creds 30
watch nobody "$tpid"
[ "$rc" -eq 1 ] || fail "a process with a root thread watched by nobody: exit $rc"
grep -q "^capaudit: --pid=$tpid: its thread [0-9]*: not a process of yours: " "$T/err" ||
	fail "a root thread: $(cat "$T/err")"
watch root "$tpid"
[ "$rc" -eq 0 ] || fail "root's capaudit refused the process with a root thread: $(cat "$T/err")"

# 6. The first thread leaves while capaudit watches: no spinning.
start threads "$T/target" --thread-exit 30
"$target" --cpu "$CA" --pid="$tpid" --duration=4 --output="$T/rep" >"$T/cpu" 2>"$T/err" ||
	fail "--pid on a process whose first thread left: $(cat "$T/err")"
cpu=$(sed -n 's/^cpu //p' "$T/cpu")
echo "capaudit --pid --duration=4 used ${cpu:-?} s of CPU after the first thread left"
awk -v c="${cpu:-99}" 'BEGIN { exit c < 1.0 ? 0 : 1 }' ||
	fail "capaudit spun: ${cpu:-?} s of CPU in a 4-second watch"
# 7. A thread's id given to a stranger as capaudit attaches (one perf
#    sample per check: capaudit runs in the namespace, where the kernel's
#    programs do not count; root/capaudit_bpf_attack.sh plays it with
#    them): a thread that ends, one that runs execve(2) (taking the
#    process's id and leaving its own), the whole process killed.
for what in thread exec process; do
	LIB_T=$T unshare -p -f --mount-proc sh "$TESTS_DIR/tools/capaudit_stranger.sh" \
		last_pid $what "$T/$what" "$CA" --no-bpf ||
		fail "--pid: a $what's id given to a stranger (above)"
done

# 8. capaudit in a pid namespace of its own under the outer /proc: there
#    /proc/N is the suite's target (root's, which root may watch), and N
#    to perf_event_open(2) is a stranger's id in the namespace
#    (capaudit_target --stranger, chmodding a file: cap_fowner). The ids
#    do not name the same processes: refused, nothing watched.
start outer "$target" --dumpable 30
: >"$T/own1" && chown 1 "$T/own1"
# The namespace ends with unshare (--kill-child), which holds SIGTERM
# blocked while it waits: SIGKILL at the end.
unshare -p -f --kill-child sh -c '"$0" --stranger last_pid "$1" "$2" 30 >"$3" 2>&1
while :; do sleep 1; done' "$target" "$tpid" "$T/own1" "$T/ns.out" &
ns_unshare=$!
at_exit "kill -9 $ns_unshare 2>/dev/null"
# The stranger, among the children of the namespace's first process.
outer=
n=0
while [ -z "$outer" ] && [ "$n" -lt 50 ]; do
	for init in $(cat "/proc/$ns_unshare/task/$ns_unshare/children" 2>/dev/null); do
		for c in $(cat "/proc/$init/task/$init/children" 2>/dev/null); do
			grep -q "^NSpid:[[:space:]]*$c[[:space:]][[:space:]]*$tpid\$" "/proc/$c/status" 2>/dev/null &&
				outer=$c
		done
	done
	[ -n "$outer" ] || sleep 0.1
	n=$((n + 1))
done
if [ -z "$outer" ]; then
	fail "no stranger with id $tpid in a pid namespace of its own: $(cat "$T/ns.out")"
else
	nsenter -t "$outer" -p "$CA" --pid="$tpid" --duration=1 --json --output="$T/ns.json" 2>"$T/err"
	rc=$?
	[ "$rc" -eq 1 ] && ! grep -q cap_fowner "$T/ns.json" 2>/dev/null ||
		fail "--pid=$tpid with the /proc of another pid namespace: exit $rc, $(cat "$T/ns.json" "$T/err" 2>/dev/null)"
	expect_line "$T/err" "capaudit: --pid=$tpid: /proc shows another pid namespace than capaudit's own, where perf_event_open(2) would find another process by that id: mount the proc file system of capaudit's pid namespace on /proc" \
		"--pid with the /proc of another pid namespace: said"
fi
finish "capaudit --pid: ptrace's read rule for nobody, root may; no spin on POLLHUP; only the process's own threads counted"
