#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# getpcaps --all judges a process by all of its threads, on the real
# kernel, in a pid namespace of its own. tools/threadcreds gives threads
# different credentials with raw setresuid(2) (which glibc would
# broadcast to every thread):
#   split     main thread nobody with nothing, a worker root with every
#             capability: shown as root with the worker's sets, flagged
#             threads-differ, one line (JSON: thread_sets) per thread set,
#             each equal to that thread's /proc/<pid>/task/<tid>/status
#   mainexit  the main thread exited (pthread_exit), the root worker runs:
#             no zombie, shown by its worker
#   many      3000 threads: read whole, two sets, bounded output, timed
#   hide      3000 threads, the root one last: the others exit while
#             getpcaps is between two batches of the task listing; the
#             root one is still found
#   groups    2 processes of 65 threads with 65536 groups and a uid of
#             their own each: the audit runs in 28 MiB (it kept 16 MiB a
#             process)
#   churn     threads starting and exiting all the time, each taking
#             another uid: every one of 75 scans examines the process
#             (none "not examined", exit 0) and sees the root worker
# Then, on the same processes: a status without CapAmb and NoNewPrivs
# lines (kernels before 4.3 and 4.10), bind-mounted over the real one, is
# shown as unknown, never as "no ambient" or "no_new_privs off"; and the
# exe path printed by --verbose is that of the file judged, while a
# process keeps executing a nobody-owned and a root-owned program in turn.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
G=$BUILD/progs/getpcaps S=$BUILD/progs/setcap TC=$BIN/threadcreds
[ "$(id -u)" -eq 0 ] || skip "needs root"
for p in "$G" "$S" "$TC"; do [ -x "$p" ] || { fail "$p not built"; finish; }; done
for t in setsid setpriv unshare python3; do
	command -v $t >/dev/null || skip "$t is not installed"
done
own_pid_ns "$@"
private_etc "$@"

init
at_exit pid_ns_cleanup
chmod 755 "$T"

# start MODE [N]: runs threadcreds as a daemon; sets $tc_pid and $tc_tids
# (main first) once it says ready.
start() {
	out=$T/tc.$1
	# The same MODE again: the old file must not be read as this one's
	# (the redirect below truncates it only once the child runs).
	rm -f "$out"
	setsid "$TC" "$@" >"$out" 2>"$out.err" </dev/null &
	# (a name of its own: callers count their loops in i)
	tries=0
	until grep -q '^ready' "$out" 2>/dev/null; do
		tries=$((tries + 1))
		[ $tries -lt 100 ] || { fail "threadcreds $*: not ready: $(cat "$out.err")"; finish; }
		sleep 0.1
	done
	set -- $(cat "$out")
	tc_pid=$2
	shift
	tc_tids=$*
}
row() { awk -v p="$1" '$1 == p' "$2"; }
# details PID FILE: the lines under PID's row
details() { awk -v p="$1" '/^ *[0-9]+ / { cur = $1; next } cur == p' "$2"; }
status_of() { awk -F'\t' -v k="$2:" '$1 == k { print $2 }' "$1"; }
full=$(status_of /proc/self/status CapBnd)

# --- split ---
start split
main=$tc_pid worker=$(echo "$tc_tids" | cut -d' ' -f2)
[ "$(status_of /proc/$main/task/$main/status Uid | cut -f2)" = 65534 ] &&
[ "$(status_of /proc/$main/task/$worker/status Uid | cut -f2)" = 0 ] ||
	{ fail "threadcreds split did not split: $(grep -h Uid /proc/$main/task/*/status)"; finish; }
run run_ours "$G" --all
expect_rc 0 "split: --all"
r=$(row "$main" "$T/out")
[ -n "$r" ] && pass || fail "split: the process is not shown (judged by its main thread: nobody with nothing)"
set -- $r
[ "${3:-}" = root ] && pass || fail "split: user ${3:-} (want root, the worker's): $r"
ref=$(run_ours "$G" "$worker" | sed "s/^$worker: //")
case $r in *"\"$ref\""*) pass ;; *) fail "split: row [$r] lacks the worker's sets \"$ref\"" ;; esac
d=$(details "$main" "$T/out")
case $d in *"! threads-differ: "*) pass ;; *) fail "split: not flagged threads-differ: [$d]" ;; esac
echo "$d" | grep -q "^ *thread $main (main): nobody uids 65534,65534,65534,65534 \"=\"" && pass ||
	fail "split: no line for the main thread: [$d]"
echo "$d" | grep -q "^ *thread $worker: root uids 0,0,0,0 \"$ref\"" && pass ||
	fail "split: no line for the worker: [$d]"
run run_ours "$G" --all --json
expect_rc 0 "split: --all --json"
python3 - "$T/out" "$main" "$worker" <<'PY' && pass || fail "split: --json"
import json, sys
objs = [json.loads(l) for l in open(sys.argv[1])]
main, worker = int(sys.argv[2]), int(sys.argv[3])
o = [x for x in objs if x.get("pid") == main][0]
def st(tid):
    return dict(l.rstrip("\n").split(":\t", 1) for l in open("/proc/%d/task/%d/status" % (main, tid)) if ":\t" in l)
assert o["threads"] == 2 and "threads-differ" in o["flags"], o
assert o["uid"] == 0 and o["user"] == "root", o
w = st(worker)
assert int(o["effective"]["hex"], 16) == int(w["CapEff"], 16) != 0, o["effective"]
sets = o["thread_sets"]
assert len(sets) == 2 and o["threads_untold"] == 0, sets
for s, tid in zip(sets, (main, worker)):
    t = st(tid)
    assert s["tids"] == [tid] and s["threads"] == 1, s
    assert s["main"] == (tid == main), s
    assert [s["ruid"], s["uid"], s["suid"], s["fsuid"]] == [int(x) for x in t["Uid"].split()], (s, t["Uid"])
    for k, j in (("CapEff", "effective"), ("CapPrm", "permitted"), ("CapInh", "inheritable"),
                 ("CapAmb", "ambient"), ("CapBnd", "bounding")):
        assert int(s[j]["hex"], 16) == int(t[k], 16), (tid, k, s[j], t[k])
print("split json ok")
PY
run run_ours "$G" --tree
grep -q "^ *| *thread $worker: root uids 0,0,0,0 \"$ref\"\|^ *thread $worker: root uids 0,0,0,0 \"$ref\"" "$T/out" && pass ||
	fail "split: --tree lacks the worker's line: $(grep -n "$main\|thread" "$T/out")"
kill -9 "$main"

# --- mainexit ---
start mainexit
main=$tc_pid worker=$(echo "$tc_tids" | cut -d' ' -f2)
i=0
until [ "$(awk '{print $3}' /proc/$main/stat)" = Z ]; do
	i=$((i + 1)); [ $i -lt 50 ] && pass || { fail "mainexit: the main thread did not exit"; break; }
	sleep 0.1
done
run run_ours "$G" --all --verbose
expect_rc 0 "mainexit: --all"
r=$(row "$main" "$T/out")
[ -n "$r" ] && pass || fail "mainexit: not shown (taken for a zombie): $(tail -n 1 "$T/out")"
ref=$(run_ours "$G" "$worker" | sed "s/^$worker: //")
case $r in *" root "*"\"$ref\""*) pass ;; *) fail "mainexit: row [$r], want root \"$ref\"" ;; esac
d=$(details "$main" "$T/out")
echo "$d" | grep -q '? main thread: exited' && pass || fail "mainexit: no main-thread line: [$d]"
echo "$d" | grep -q "exe: $TC\$" && pass || fail "mainexit: exe not read from the live thread: [$d]"
echo "$d" | grep -q "command: $TC mainexit\$" && pass || fail "mainexit: command line not read: [$d]"
run run_ours "$G" --all --json
python3 - "$T/out" "$main" <<'PY' && pass || fail "mainexit: --json"
import json, sys
o = [x for x in map(json.loads, open(sys.argv[1])) if x.get("pid") == int(sys.argv[2])][0]
assert o["main_thread_exited"] is True and o["threads"] == 1 and o["uid"] == 0, o
assert "thread_sets" not in o and "threads-differ" not in o["flags"], o
PY
kill -9 "$main"

# --- many: 3000 threads, all nobody but the last ---
start many 3000
main=$tc_pid last=$(echo "$tc_tids" | awk '{print $NF}')
t0=$(date +%s%N)
run run_ours "$G" --all --json
t1=$(date +%s%N)
expect_rc 0 "many: --all --json"
echo "many: --all over a 3001-thread process took $(( (t1 - t0) / 1000000 )) ms"
python3 - "$T/out" "$main" "$last" <<'PY' && pass || fail "many: --json"
import json, sys
o = [x for x in map(json.loads, open(sys.argv[1])) if x.get("pid") == int(sys.argv[2])][0]
assert o["threads"] == 3001 and o["uid"] == 0, (o["threads"], o["uid"])
sets = o["thread_sets"]
assert len(sets) == 2, [(s["threads"], s["uid"]) for s in sets]
assert sets[0]["main"] and sets[0]["threads"] == 3000 and len(sets[0]["tids"]) == 8, sets[0]["tids"]
assert sets[1]["tids"] == [int(sys.argv[3])] and sets[1]["uid"] == 0, sets[1]
PY
run run_ours "$G" --all
d=$(details "$main" "$T/out")
echo "$d" | grep -q "^ *threads $main,[0-9,]* and 2992 more (main): nobody " && pass ||
	fail "many: the main set's line: [$d]"
kill -9 "$main"

# --- hide: the task directory listed in getdents(2) batches (glibc: 32
# KiB, about a thousand threads) resumes by position when the thread it
# stopped at has exited. threadcreds hide 3000: the main thread and 2999
# workers nobody, the root worker created last. getpcaps is held after
# its first batch (tools/preload/readdir_pause.c); the 2999 exit; the
# next batch starts past the end, and the old getpcaps never listed the
# root worker: the process looked like its main thread, nobody with
# nothing (exit 0). Now the second listing finds it. ---
start hide 3000
main=$tc_pid hidden=$(echo "$tc_tids" | awk '{print $NF}')
mkdir "$T/pause"
# (built without the sanitizers: under them, ASan is told it is not first)
LD_PRELOAD=$BIN/libreaddir_pause.so PAUSE_PID=$main PAUSE_DIR=$T/pause \
	ASAN_OPTIONS="${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}verify_asan_link_order=0" \
	"$G" --all >"$T/out" 2>"$T/err" &
gp=$!
i=0
until [ -e "$T/pause/paused" ]; do
	i=$((i + 1))
	[ $i -lt 200 ] && pass || { fail "hide: getpcaps never reached the task directory"; break; }
	sleep 0.05
done
kill -USR1 "$main"
i=0
until grep -q '^gone' "$T/tc.hide"; do
	i=$((i + 1))
	[ $i -lt 200 ] && pass || { fail "hide: the workers did not exit"; break; }
	sleep 0.05
done
[ "$(ls "/proc/$main/task" | wc -l)" -eq 2 ] && pass || fail "hide: $(ls "/proc/$main/task" | wc -l) threads left, want 2"
touch "$T/pause/go"
wait "$gp"
rc=$?
expect_rc 0 "hide: --all"
r=$(row "$main" "$T/out")
set -- $r
[ "${3:-}" = root ] && pass || fail "hide: the root worker $hidden was not seen: row [$r]"
details "$main" "$T/out" | grep -q "^ *thread $hidden: root uids 0,0,0,0 " && pass ||
	fail "hide: no line for the root worker $hidden: [$(details "$main" "$T/out")]"
kill -9 "$main"

# --- groups: 2 processes of 64 workers and a main thread, each thread a
# credential set of its own (a uid of its own) holding 65536 groups (a
# user can do as much with the 65536 subordinate ids of a user
# namespace). The audit kept every set's group list to the end: 16 MiB a
# process, and out of memory under a 28 MiB address-space limit with two
# such processes ("getpcaps: /proc: Cannot allocate memory"; it needed
# 36 MiB). Now a process's groups go once its executable is judged: the
# audit runs in 20 MiB, whatever the number of processes. Each process
# costs a second of kernel time (its 65 status files are 450 KB each),
# so two, the fewest that tell one process's lists from all of them
# kept. The threads share one list (set once, before the workers start):
# each setgroups(2) sorts its 65536 entries in the kernel, and one a
# thread took 6 s of CPU. ---
if is_sanitized; then
	# The list grows one gid at a time (common/procstatus.c), which ASan's
	# realloc, moving it at each, makes quadratic (over five minutes here);
	# and its shadow memory alone is more than the bound.
	not_checked "groups: 65536 groups a thread are not read under ASan"
elif [ -z "${VALGRIND_CMD:-}" ]; then
	gpids=
	i=0
	while [ $i -lt 2 ]; do
		start groups 64
		gpids="$gpids $tc_pid"
		i=$((i + 1))
	done
	# shellcheck disable=SC2016 # $0 is the inner sh's
	(ulimit -v 28672 && exec "$G" --all) >"$T/out" 2>"$T/err"
	rc=$?
	# shellcheck disable=SC2086 # pids
	kill -9 $gpids
	expect_rc 0 "groups: --all in 28 MiB"
	expect_err "" "groups: --all in 28 MiB"
	for p in $gpids; do
		[ -n "$(row "$p" "$T/out")" ] && pass || fail "groups: process $p not shown"
	done
	# 65 sets (the main thread's and 64 workers'): 64 listed, one counted.
	d=$(details "$(echo $gpids | cut -d' ' -f1)" "$T/out")
	n=$(echo "$d" | grep -c '^ *thread [0-9]*\( (main)\)\{0,1\}: ')
	[ "$n" -eq 64 ] && pass || fail "groups: $n sets listed, want 64: [$d]"
	# (a line of its own, which details would take for a new row)
	grep -q '^ *1 threads more, in credential sets past the first 64' "$T/out" && pass ||
		fail "groups: the 65th set is not counted: [$d]"
else
	not_checked "the memory bound is not checked under valgrind"
fi

# --- churn: threads appear and vanish while they are read ---
start churn
main=$tc_pid
# The scans run back to back and are judged together afterwards: the
# churning threads burn a CPU for as long as the scans last.
scans=75 n=0
while [ $n -lt $scans ]; do
	n=$((n + 1))
	run_ours "$G" --all --json >"$T/c.out.$n" 2>"$T/c.err.$n"
	echo $? >"$T/c.rc.$n"
done
kill -9 "$main"
python3 - "$T" "$main" "$scans" >"$T/c.py" 2>&1 <<'PY'
import json, sys
t, main = sys.argv[1], int(sys.argv[2])
for n in range(1, int(sys.argv[3]) + 1):
    try:
        objs = [json.loads(l) for l in open("%s/c.out.%d" % (t, n))]
        rc = int(open("%s/c.rc.%d" % (t, n)).read())
        err = open("%s/c.err.%d" % (t, n)).read()
        summary = objs[-1]
        assert rc == 0 and err == "", (rc, err)
        assert summary["not_examined"] == 0, summary
        o = [x for x in objs if x.get("pid") == main]
        assert o, "not shown"
        o = o[0]
        assert o["uid"] == 0 and int(o["effective"]["hex"], 16) != 0, o
        assert "threads-differ" in o["flags"], o["flags"]
        print(n, "other" if any(s["uid"] >= 70000 for s in o["thread_sets"]) else "plain")
    except Exception as e:
        print(n, "bad", repr(e)[:300])
PY
bad=$(grep -c '^[0-9]* bad' "$T/c.py")
seen_other=$(grep -c '^[0-9]* other$' "$T/c.py")
[ "$(wc -l <"$T/c.py")" -eq $scans ] && pass || fail "churn: the judge did not read $scans scans: $(tail -n 3 "$T/c.py")"
if [ "$bad" -eq 0 ]; then
	ok "churn: $scans scans, each examined the process and saw its root worker"
else
	fail "churn: $bad of $scans scans failed, the first: $(grep -m 3 '^[0-9]* bad' "$T/c.py")"
fi
# The short-lived threads must have been met, or nothing raced.
echo "churn: $seen_other of $scans scans met a short-lived thread with its own uid"
[ $seen_other -gt 0 ] && pass || fail "churn: no scan met a short-lived thread: the race was not exercised"

# --- A status without CapAmb and NoNewPrivs lines (kernels before 4.3
# and 4.10), bind-mounted over a daemon's real one: unknown, not 0 ---
setsid setpriv --inh-caps=+net_raw sleep 300 </dev/null >/dev/null 2>&1 &
i=0
while :; do
	old=$(for d in /proc/[0-9]*; do
		[ "$(cat "$d/comm" 2>/dev/null)" = sleep ] && echo "${d#/proc/}"; done | head -n 1)
	[ -n "$old" ] && [ "$(status_of "/proc/$old/status" CapInh)" != 0000000000000000 ] && break
	i=$((i + 1)); [ $i -lt 50 ] || { fail "the sleep with cap_net_raw in I did not start"; finish; }
	sleep 0.1
done
grep -v -e '^CapAmb:' -e '^NoNewPrivs:' "/proc/$old/status" >"$T/oldstatus"
mount --bind "$T/oldstatus" "/proc/$old/status" || { fail "cannot bind a status file over /proc/$old/status"; finish; }
grep -q CapAmb "/proc/$old/status" && { fail "the bind mount did not hide CapAmb"; finish; }
run run_ours "$G" --all
expect_rc 0 "old-kernel status: --all"
r=$(row "$old" "$T/out") d=$(details "$old" "$T/out")
case $r in *' ambient=?') pass ;; *) fail "old-kernel status: the row does not say ambient=?: [$r]" ;; esac
echo "$d" | grep -q '? ambient: unknown' && pass || fail "old-kernel status: no '? ambient' line: [$d]"
echo "$d" | grep -q '? no_new_privs: unknown' && pass || fail "old-kernel status: no '? no_new_privs' line: [$d]"
echo "$d" | grep -q 'no-new-privs-missing' && fail "old-kernel status: flagged no-new-privs-missing on no evidence: [$d]" || pass
run run_ours "$G" --all --json
python3 - "$T/out" "$old" <<'PY' && pass || fail "old-kernel status: --json"
import json, sys
o = [x for x in map(json.loads, open(sys.argv[1])) if x.get("pid") == int(sys.argv[2])][0]
assert o["ambient"] is None and o["no_new_privs"] is None and o["iab"] is None, o
assert "no-new-privs-missing" not in o["flags"], o["flags"]
assert int(o["inheritable"]["hex"], 16) == 1 << 13, o["inheritable"]
PY
umount "/proc/$old/status"
kill -9 "$old"

# --- The exe path printed is the file judged: a process executes a
# nobody-owned copy of env (writable by its user) and a root-owned one in
# turn, both with cap_net_raw; every --verbose row that names the
# nobody-owned file must be flagged writable-exe, every row naming the
# root-owned one must not. ---
# Under the sanitizers each scan is several times slower, and the four
# exec loops burn the CPU for as long: the race is run by the plain pass
# (the exe path's reading is run under them by getpcaps_all.sh).
exe_race() {
	cp /usr/bin/env "$T/envown" && cp /usr/bin/env "$T/envroot" &&
	chown nobody "$T/envown" && chmod 755 "$T/envown" "$T/envroot" &&
	"$S" cap_net_raw=ep "$T/envown" cap_net_raw=ep "$T/envroot" || { fail "cannot make the env copies"; finish; }
	# env runs its first argument with the rest: 2000 execs in turn, and
	# each chain starts again until the scans are done, so a slow machine
	# cannot run out of execs before it has made enough scans.
	awk -v a="$T/envown" -v b="$T/envroot" 'BEGIN { for (i = 0; i < 2000; i++) print (i % 2 ? a : b); print "true" }' >"$T/chain"
	rm -f "$T/chain.stop"
	for k in 1 2 3 4; do
		while [ ! -e "$T/chain.stop" ]; do
			xargs -a "$T/chain" setsid setpriv --reuid=nobody --regid=nogroup --clear-groups "$T/envown" </dev/null >/dev/null 2>&1
		done &
	done
	sleep 0.2
	n=0 named=0 mismatched=0
	# At least 125 scans, and on until 250 rows named the programs (at most 1000).
	while [ $n -lt 125 ] || { [ $named -lt 250 ] && [ $n -lt 1000 ]; }; do
		n=$((n + 1))
		run_ours "$G" --all --verbose >"$T/x.out" 2>/dev/null
		res=$(awk -v own="$T/envown" -v root="$T/envroot" '
			/^ *[0-9]+ / { flagged = 0; next }
			/! writable-exe:/ { flagged = 1 }
			/^ *exe: / { if ($2 == own) { n++; if (!flagged) bad++ }
				     else if ($2 == root) { n++; if (flagged) bad++ } }
			END { print n + 0, bad + 0 }' "$T/x.out")
		named=$((named + ${res% *})) mismatched=$((mismatched + ${res#* }))
	done
	: >"$T/chain.stop"
	wait
	echo "exe race: $named rows named one of the two files over $n scans, $mismatched with the other file's verdict"
	[ $named -ge 250 ] && pass || fail "exe race: only $named rows named the alternating programs"
	[ $mismatched -eq 0 ] && pass || fail "exe race: $mismatched rows printed one file and judged another"
}
if is_sanitized; then
	not_checked "the exe race is run by the plain pass, not under the sanitizers"
else
	exe_race
fi

finish "getpcaps --all: threads (split, main exited, 3000, churn), unknown CapAmb/NoNewPrivs, exe path of the file judged"
