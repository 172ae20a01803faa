#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# capaudit counting in the kernel (eBPF) against one perf sample per check
# (--no-bpf), on the real kernel: the same rows for the same commands
# (forks, threads, an exec from a thread that is not the leader, runs of
# different checks in turn, a file-capability program run by nobody); no
# check of a process that is not the command's, also when it gets a
# thread id the command used; full kernel tables said, never silent; a
# credential taken for lent by its address alone (the kernel reuses
# addresses) where the kernel can say whose it is;
# only a caller who holds CAP_BPF itself gets it, never a copy of capaudit
# whose file grants it; a capaudit built without the BPF tool chain, or
# whose programs read another kernel, says so and counts by samples.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
# nobody by name from the base accounts.
private_etc "$@"
init
CA=$BUILD/progs/capaudit S=$BUILD/progs/setcap probe=$BIN/capaudit_probe
py=/usr/bin/python3
[ -x "$CA" ] && [ -x "$S" ] && [ -x "$probe" ] || { fail "capaudit, setcap or capaudit_probe not built"; finish; }
[ -x "$py" ] || { fail "$py missing (tests/install-deps.sh installs it)"; finish; }
"$CA" --check >"$T/check" 2>&1 || skip "capaudit cannot trace here: $(cat "$T/check")"
"$CA" --version | grep -qx 'counting in the kernel: built in' ||
	skip "capaudit was built without the BPF tool chain (make BPF=no, or no clang, bpftool or libbpf-dev): $("$CA" --version | tail -n 1)"
grep -q '^capaudit: would use tracepoint capability:cap_capable' "$T/check" ||
	skip "no capability:cap_capable tracepoint (Linux 6.14+): $(cat "$T/check")"
chmod 755 "$T"
mkdir -m 755 "$T/bin"
# The commands' files on a file system of the suite's own: the counts
# below are one check per chown, which an overlay (the container world's
# root) doubles, checking each chown in each layer.
tmpfs_dir "$T/w" || { fail "cannot mount a tmpfs on $T/w"; finish; }

# 1. --check says how it counts, and why not with --no-bpf.
expect_line "$T/check" "capaudit: counting: in the kernel, by eBPF programs on the raw tracepoints cap_capable, task_newtask, sched_process_exec and signal_generate" "--check as root"
"$CA" --no-bpf --check >"$T/out" 2>&1
expect_line "$T/out" "capaudit: counting: one perf sample per check (eBPF: --no-bpf)" "--check --no-bpf"

# The check rows of a --json report, pids left out (each run has its own):
# capability, class, checks, granted, refused, command and file.
# ROWS_SKIP: a capability left out, where the run's own allocations vary.
rows() {
	sed -n '/"type":"check"/p' "$1" | grep -v "\"capability\":\"${ROWS_SKIP:-none}\"" |
		sed -E 's/"pid":[0-9]+,"ppid":[0-9]+,//' | sort
}
summary_field() {	# FILE FIELD
	sed -n 's/.*"type":"summary".*"'"$2"'":\([a-z0-9_"]*\).*/\1/p' "$1"
}
# both CASE CMD...: the command under each way of counting, the same rows.
# An argument @FRESH@ is a new empty directory for each run.
# A first run, not audited, warms the kernel's caches: on an overlay (the
# container world's root) the first read of a merged directory checks
# cap_sys_admin, under the mounter's credential, for its trusted xattrs,
# once, and only the run that came first would see it.
both() {
	case_name=$1
	shift
	for how in warm kernel samples; do
		fresh=$T/fresh.$how
		rm -rf "$fresh" && mkdir -m 755 "$fresh"
		for a in "$@"; do
			[ "$a" = @FRESH@ ] && a=$fresh
			set -- "$@" "$a"
			shift
		done
		[ $how = kernel ] && no_bpf= || no_bpf=--no-bpf
		if [ $how = warm ]; then
			"$@" >/dev/null 2>&1
		else
			"$CA" $no_bpf --json --output="$T/$how.json" -- "$@" >/dev/null 2>"$T/$how.err"
		fi
		for a in "$@"; do
			[ "$a" = "$fresh" ] && a=@FRESH@
			set -- "$@" "$a"
			shift
		done
	done
	[ "$(summary_field "$T/kernel.json" counting)" = '"kernel"' ] ||
		{ cat "$T/kernel.json" "$T/kernel.err"; fail "$case_name: not counted in the kernel"; return 1; }
	[ "$(summary_field "$T/samples.json" counting)" = '"samples"' ] ||
		{ cat "$T/samples.json"; fail "$case_name: --no-bpf counted in the kernel"; return 1; }
	rows "$T/kernel.json" >"$T/kernel.rows"
	rows "$T/samples.json" >"$T/samples.rows"
	[ -s "$T/kernel.rows" ] || { fail "$case_name: no rows"; return 1; }
	same "$T/samples.rows" "$T/kernel.rows" "$case_name: rows counted in the kernel and read as samples" || return 1
	for f in lost unfollowed processes; do
		[ "$(summary_field "$T/kernel.json" $f)" = "$(summary_field "$T/samples.json" $f)" ] ||
			fail "$case_name: summary $f $(summary_field "$T/kernel.json" $f) counted in the kernel, $(summary_field "$T/samples.json" $f) as samples"
	done
	ok "$case_name"
}
# count REPORT CAP [COMMAND]: the checks of CAP in the report's --json rows.
count() {
	sed -n '/"capability":"'"$2"'"/p' "$1" | grep "${3:+\"command\":\"$3\"}" |
		sed -n 's/.*"checks":\([0-9]*\).*/\1/p' | awk '{ n += $1 } END { print n + 0 }'
}

# 1b. capaudit as a build without the BPF tool chain makes it (tests/Makefile
#     links capaudit-nobpf from capaudit's own objects, capaudit_bpf_none.c in
#     place of the counter): --version and --check say it is not built in,
#     and an audit counts every check by samples.
nb=$BIN/capaudit-nobpf nb_why="not built in: capaudit was built without the BPF tool chain (clang, bpftool, libbpf-dev)"
if [ -x "$nb" ]; then
	"$nb" --version >"$T/out" 2>&1
	expect_line "$T/out" "counting in the kernel: $nb_why" "built without the tool chain: --version"
	"$nb" --check >"$T/out" 2>&1
	expect_line "$T/out" "capaudit: counting: one perf sample per check (eBPF: $nb_why)" "built without the tool chain: --check"
	: >"$T/w/nb"
	"$nb" --json --output="$T/nb.json" -- sh -c 'chown 1 "$0"; chown 2 "$0"' "$T/w/nb" >/dev/null 2>"$T/err" ||
		fail "built without the tool chain: the audit failed: $(cat "$T/err")"
	[ "$(summary_field "$T/nb.json" counting)" = '"samples"' ] && [ "$(count "$T/nb.json" cap_chown)" -eq 2 ] &&
		pass || { cat "$T/nb.json" "$T/err"; fail "built without the tool chain: not 2 cap_chown checks counted by samples"; }
	expect_line "$T/out" "capaudit: would use " "built without the tool chain: --check names the source"
else
	fail "$nb not built (tests/Makefile)"
fi
"$CA" --version >"$T/out" 2>&1
expect_line "$T/out" "counting in the kernel: built in" "--version"

# 1c. Programs that read another kernel than the running one count nothing
#     and say so: capaudit-mismatch's programs (tests/Makefile) name a
#     prototype of cap_capable and task_struct fields this kernel's BTF
#     lacks. The kernel tells at load time; the probe's calibration reads
#     what the programs stored and reports both, and the audit counts by
#     samples instead of misreading arguments.
mm=$BIN/capaudit-mismatch
if [ -x "$mm" ]; then
	"$mm" --check >"$T/out" 2>&1
	expect_line "$T/out" "capaudit: counting: one perf sample per check (eBPF: the running kernel's BTF differs from what the programs read (they count nothing there): the arguments of the raw tracepoint cap_capable, task_struct.pid (a 4-byte integer), task_struct.tgid (a 4-byte integer))" \
		"programs for another kernel: --check"
	"$mm" --json --output="$T/mm.json" -- chown 3 "$T/w/nb" >/dev/null 2>"$T/err" ||
		fail "programs for another kernel: the audit failed: $(cat "$T/err")"
	[ "$(summary_field "$T/mm.json" counting)" = '"samples"' ] && [ "$(count "$T/mm.json" cap_chown)" -eq 1 ] &&
		pass || { cat "$T/mm.json" "$T/err"; fail "programs for another kernel: not 1 cap_chown check counted by samples"; }
else
	fail "$mm not built (tests/Makefile)"
fi

# 2. The same rows both ways.
# (Under ASan the probe's own mappings, each a cap_sys_admin check, vary
# from run to run.)
is_sanitized && ROWS_SKIP=cap_sys_admin
both "the probe: chown, port 80, a grandchild's perf event" "$probe" @FRESH@
ROWS_SKIP=
: >"$T/w/f"
both "forks, a subshell in the background, a pipe" \
	sh -c 'chown 1 "$0"; (chown 2 "$0") & wait; ls / | cat >/dev/null; chown 3 "$0"' "$T/w/f"
both "runs of two different checks in turn, then an exec" "$probe" --mix 2000 "$T/w/f"
# Four threads, 500 chowns each: one process, 2000 checks. (How many
# private writable mappings, each a cap_sys_admin check, python's threads
# make varies from run to run.)
ROWS_SKIP=cap_sys_admin
both "four threads" "$py" -c '
import os, sys, threading
def work():
    for i in range(500):
        os.chown(sys.argv[1], 1 + i % 2, -1)
ts = [threading.Thread(target=work) for _ in range(4)]
for t in ts: t.start()
for t in ts: t.join()
' "$T/w/f" &&
	[ "$(count "$T/kernel.json" cap_chown)" -eq 2000 ] ||
	fail "four threads: $(count "$T/kernel.json" cap_chown) cap_chown checks, want 2000"
ROWS_SKIP=
# Ids that meet at one entry of the direct table (a thread's follow entry
# at its id's low bits) are followed in the spill table: in a direct
# table of four (CAPAUDIT_BPF_ENTRIES, which leaves the spill table and
# the totals four each), five processes, which keep their entries to the
# end, put one there at least. The same rows, and none left unfollowed.
ROWS_SKIP=cap_sys_admin
CAPAUDIT_BPF_ENTRIES=4
export CAPAUDIT_BPF_ENTRIES
both "five processes, a direct table of four" "$py" -c '
import os, sys
for i in range(4):
    pid = os.fork()
    if pid == 0:
        os.chown(sys.argv[1], 20 + i, -1)
        os._exit(0)
    os.waitpid(pid, 0)
' "$T/w/f" &&
	[ "$(count "$T/kernel.json" cap_chown)" -eq 4 ] ||
	fail "five processes, a direct table of four: $(count "$T/kernel.json" cap_chown) cap_chown checks, want 4"
unset CAPAUDIT_BPF_ENTRIES
ROWS_SKIP=
# A thread that is not the leader execs: it takes the leader's thread id,
# and chown's check is chown's, by the file the kernel ran.
both "an exec from a thread that is not the leader" "$py" -c '
import os, sys, threading, time
os.chown(sys.argv[1], 4, -1)
threading.Thread(target=lambda: os.execv("/bin/chown", ["chown", "5", sys.argv[1]])).start()
time.sleep(30)
' "$T/w/f" &&
	[ "$(count "$T/kernel.json" cap_chown chown)" -eq 1 ] &&
	grep -q '"capability":"cap_chown".*"command":"chown","file":"/usr/bin/chown"' "$T/kernel.json" ||
	{ cat "$T/kernel.json"; fail "exec from a thread: chown's own check not attributed to /usr/bin/chown"; }
[ "$(stat -c %u "$T/w/f")" = 5 ] || fail "exec from a thread: the file's owner is $(stat -c %u "$T/w/f"), want 5"

# 3. A file-capability program run by nobody, started by capaudit's
#    launcher and by nobody's shell: perf stops watching the second at
#    its exec (an EXIT record while it runs on); the kernel's counts stop
#    there too, so both ways show the same (and nobody no more than perf).
cp /bin/chown "$T/bin/chown" && chmod 755 "$T/bin/chown"
"$S" cap_chown=ep "$T/bin/chown" || fail "setcap cap_chown=ep on a copy of chown"
: >"$T/w/g" && chown nobody "$T/w/g"
for shape in direct shell; do
	for how in kernel samples; do
		[ $how = kernel ] && no_bpf= || no_bpf=--no-bpf
		[ $shape = direct ] && set -- "$T/bin/chown" 6 "$T/w/g" ||
			set -- sh -c '"$0" 6 "$1"; "$0" 7 "$1"' "$T/bin/chown" "$T/w/g"
		"$CA" $no_bpf --user=nobody --json --output="$T/$how.json" -- "$@" 2>"$T/err" ||
			fail "nobody's file-capability chown ($shape, $how) failed: $(cat "$T/err")"
		rows "$T/$how.json" >"$T/$how.rows"
	done
	same "$T/samples.rows" "$T/kernel.rows" "a file-capability program run by nobody ($shape): rows both ways"
done
[ "$(stat -c %u "$T/w/g")" = 7 ] || fail "the file-capability chown did not chown"

# 4. Checks of a process that is not the command's are never counted: a
#    loop of chowns runs beside the command the whole time.
"$py" -c '
import os, sys, time
end = time.time() + 3
while time.time() < end:
    os.chown(sys.argv[1], 8, -1)
' "$T/w/f" &
loop=$!
at_exit "kill $loop 2>/dev/null"
"$CA" --json --output="$T/k.json" -- sh -c 'sleep 0.5; chown 9 "$0"' "$T/w/f" 2>"$T/err" || fail "beside a loop: $(cat "$T/err")"
[ "$(count "$T/k.json" cap_chown)" -eq 1 ] ||
	{ cat "$T/k.json"; fail "beside another process's loop: $(count "$T/k.json" cap_chown) cap_chown checks counted, want the command's 1"; }
kill "$loop" 2>/dev/null
wait "$loop" 2>/dev/null

# 5. A recycled thread id: the command's child exits, and while the
#    command still runs a process that is not its own is given the same
#    pid (ns_last_pid) and chowns. Only the command's own check counts.
#    The command waits for the stranger's "done" before it ends.
recycled() {	# how: empty or --no-bpf
	rm -f "$T/w/pid" "$T/w/done"
	"$CA" $1 --json --output="$T/r.json" -- sh -c '
		chown 10 "$0/f" & wait $!; echo $! >"$0/pid"
		i=0; while [ ! -e "$0/done" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done' "$T/w" 2>"$T/err" &
	ca=$!
	i=0
	while [ ! -s "$T/w/pid" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
	child=$(cat "$T/w/pid")
	got=
	for try in $(seq 50); do
		echo $((child - 1)) >/proc/sys/kernel/ns_last_pid
		got=$("$py" -c 'import os, sys; os.getpid() == int(sys.argv[2]) and os.chown(sys.argv[1], 11, -1); print(os.getpid())' "$T/w/f" "$child")
		[ "$got" = "$child" ] && break
	done
	: >"$T/w/done"
	wait "$ca" || fail "recycled pid ${1:-(kernel)}: capaudit failed: $(cat "$T/err")"
	[ "$got" = "$child" ] || { fail "recycled pid: could not give pid $child to another process in 50 tries"; return; }
	n=$(count "$T/r.json" cap_chown)
	[ "$n" -eq 1 ] || { cat "$T/r.json"; fail "recycled pid $child ${1:-(kernel)}: $n cap_chown checks counted, want the command's 1"; return; }
	ok "recycled pid ${1:-(kernel)}"
}
recycled ""
recycled --no-bpf

# 6. Full tables are said, never silent: room for 3 threads and 3 runs.
"$CA" --json --output="$T/full.json" -- sh -c 'for i in 1 2 3 4 5 6; do chown $i "$0"; nice -n 1 true; done' "$T/w/f" \
	>/dev/null 2>"$T/err" &&
	CAPAUDIT_BPF_ENTRIES=3 "$CA" --output="$T/full" -- sh -c 'for i in 1 2 3 4 5 6; do chown $i "$0"; nice -n 1 true; done' "$T/w/f" \
		>/dev/null 2>"$T/err" || fail "full tables: capaudit failed: $(cat "$T/err")"
expect_line "$T/full" "not followed: " "full tables: the report's not followed line"
grep -Eq '^lost samples: [1-9][0-9]* \(the counts are lower bounds' "$T/full" ||
	{ cat "$T/full"; fail "full tables: no lost samples reported"; }
expect_line "$T/err" "capaudit: " "full tables: said on stderr"
grep -Eq 'threads the command started were not followed; the counts are lower bounds' "$T/err" ||
	fail "full tables: stderr does not say threads were not followed: $(cat "$T/err")"
[ "$(summary_field "$T/full.json" unfollowed)" = 0 ] || fail "unfollowed threads with the full-size tables"
# Values that are no size leave the tables as they are: a command of
# three processes and six checks fills no table of 2. (A '-' before the
# digits was read as the number's negation: -18446744073709551614 was 2.)
for bad in 0 1 -5 -18446744073709551614 x 99999999999 2x; do
	CAPAUDIT_BPF_ENTRIES=$bad "$CA" --output="$T/bad" -- \
		sh -c 'chown 12 "$0"; nice -n 1 true; chown 13 "$0"; nice -n 1 true' "$T/w/f" 2>"$T/err" &&
		grep -qx 'lost samples: 0' "$T/bad" && ! grep -q '^not followed' "$T/bad" ||
		{ cat "$T/bad" "$T/err"; fail "CAPAUDIT_BPF_ENTRIES=$bad: not the default tables"; }
done

# 6a. The follow tables, keyed by thread id: the spill table (a hash
#     map) has room for every id the machine gives, pid_max, up to the
#     tables' 262144, never less; the loader sizes it so rather than at
#     the tables' room, whose buckets the kernel makes while capaudit
#     waits. The direct table (an array, entries at an id's low bits) a
#     power of two, the largest no larger than pid_max and 65536. The
#     totals have the tables' room, which CAPAUDIT_BPF_ENTRIES raises to
#     1048576 for a command of hundreds of thousands of processes. Read
#     from capaudit's own descriptors (fdinfo: the follow tables' values
#     are 128 bytes, the totals' keys 48). And perf's buffers, which carry
#     no check then, only names, forks, exits and mappings, are mapped at
#     2 MiB each at most (and a page of their own), not at the 8 MiB a
#     loop's samples take (the kernel makes every page when it is mapped).
pid_max=$(cat /proc/sys/kernel/pid_max)
want=$pid_max
[ "$want" -gt 262144 ] && want=262144
want_direct=1
while [ $((want_direct * 2)) -le "$pid_max" ] && [ "$want_direct" -lt 65536 ]; do
	want_direct=$((want_direct * 2))
done
rooms() {	# ENTRIES (empty: unset): got, got_direct and got_totals
	if [ -n "$1" ]; then
		CAPAUDIT_BPF_ENTRIES=$1 "$CA" --output=/dev/null -- sleep 2 &
	else
		"$CA" --output=/dev/null -- sleep 2 &
	fi
	ca=$!
	got= got_direct= got_totals=
	for i in $(seq 40); do
		for f in $(grep -l '^value_size:	128$' /proc/$ca/fdinfo/* 2>/dev/null); do
			case $(sed -n 's/^map_type:	//p' "$f") in
			1) got=$(sed -n 's/^max_entries:	//p' "$f") ;;
			2) got_direct=$(sed -n 's/^max_entries:	//p' "$f") ;;
			esac
		done
		got_totals=$(grep -l '^key_size:	48$' /proc/$ca/fdinfo/* 2>/dev/null | head -n 1 |
			xargs -r sed -n 's/^max_entries:	//p')
		got_ring=0
		for r in $(sed -n 's/^\([0-9a-f]*\)-\([0-9a-f]*\) .*anon_inode:\[perf_event\]$/\1:\2/p' \
				/proc/$ca/maps 2>/dev/null); do
			n=$((0x${r#*:} - 0x${r%:*}))
			[ "$n" -gt "$got_ring" ] && got_ring=$n
		done
		[ -n "$got" ] && [ -n "$got_direct" ] && [ -n "$got_totals" ] &&
			[ "${got_ring:-0}" -gt 0 ] && break
		sleep 0.05
	done
	wait "$ca"
}
rooms ""
[ "$got" = "$want" ] && pass || fail "the spill table has room for ${got:-(not seen)} threads, want pid_max's $want"
[ "$got_direct" = "$want_direct" ] && pass ||
	fail "the direct table has room for ${got_direct:-(not seen)} threads, want $want_direct (pid_max $pid_max)"
[ "$got_totals" = 262144 ] && pass || fail "the totals have room for ${got_totals:-(not seen)} runs, want 262144"
[ "${got_ring:-0}" -gt 0 ] && [ "$got_ring" -le $((2097152 + $(getconf PAGESIZE))) ] && pass ||
	fail "counting in the kernel, perf's buffers are mapped at ${got_ring:-(not seen)} bytes, want 2 MiB and a page at most"
rooms 1048576
[ "$got_totals" = 1048576 ] && pass ||
	fail "CAPAUDIT_BPF_ENTRIES=1048576: the totals have room for ${got_totals:-(not seen)} runs, want 1048576"
[ "$got_direct" = "$want_direct" ] && pass ||
	fail "CAPAUDIT_BPF_ENTRIES=1048576: the direct table has room for ${got_direct:-(not seen)} threads, want $want_direct"

# 6b. A credential's address says nothing of whose it is: a server that
#     makes itself a new credential (setfsuid(2) per request does) and
#     then has a socket opened under the old one checked. The old
#     credential's address came after the new one's check, as around a
#     loan: the bind's cap_net_bind_service, the need, was taken for
#     lent and dropped, and the socket's cap_net_admin suggested. Counted
#     in the kernel, each check says whether its credential was the
#     thread's own: proven, cap_net_bind_service alone. From samples the
#     guess is said to be one, and no "nothing to grant" is proven.
ping=$BIN/capaudit_ping
cp "$probe" "$T/bin/newcred" && chmod 755 "$T/bin/newcred"
for how in kernel samples; do
	[ $how = kernel ] && no_bpf= || no_bpf=--no-bpf
	unshare -n sh -c '"$0" --lo-up && exec "$@"' "$ping" \
		"$CA" $no_bpf --suggest --user=nobody --output="$T/nc.$how" -- "$T/bin/newcred" --bind80-new-cred \
		>/dev/null 2>"$T/err"
	[ $? -eq 1 ] || fail "a new credential ($how): not the command's exit status 1: $(cat "$T/err")"
	if [ $how = kernel ]; then
		lines=$(grep '^setcap ' "$T/nc.$how")
		[ "$lines" = "setcap cap_net_bind_service=ep $T/bin/newcred" ] &&
			grep -q '^# capaudit --suggest: the least grant, proven' "$T/nc.$how" &&
			grep -q '^cap_net_admin .* credential$' "$T/nc.$how" && pass ||
			{ cat "$T/nc.$how"; fail "a new credential, counted in the kernel: not cap_net_bind_service alone, proven"; }
	elif grep -q '^cap_net_bind_service .* credential$' "$T/nc.$how"; then
		grep -q '^# capaudit --suggest: nothing to grant' "$T/nc.$how" &&
			fail "a new credential, from samples: \"nothing to grant\" proven"
		expect_line "$T/nc.$how" "# note: cap_net_bind_service: checked only under a credential taken for one lent for a call (see the table), a guess from samples" \
			"a new credential, from samples: the guess said"
	else
		pass
	fi
done

# 7. Only a caller who holds CAP_BPF itself: a copy of capaudit whose
#    file grants it counts sample by sample, and says why; nobody with
#    the same capabilities ambient (given, not gained) counts in the
#    kernel. On a host whose tracefs is root's 0700 (systemd mounts it so
#    at boot), counting in the kernel needs none, and a copy that must
#    read samples says what to change.
if is_sanitized; then
	echo "note: the file-capability copy is left out under ASan (it refuses AT_SECURE)"
else
	cp "$CA" "$T/bin/capaudit" && chmod 755 "$T/bin/capaudit"
	"$S" cap_perfmon,cap_bpf,cap_sys_admin=ep "$T/bin/capaudit" || fail "setcap on a copy of capaudit"
	cp "$CA" "$T/bin/capaudit_plain" && chmod 755 "$T/bin/capaudit_plain"
	ambient() {	# nobody holding cap_perfmon, cap_bpf and cap_chown ambient
		setpriv --reuid=65534 --regid=65534 --clear-groups \
			--inh-caps=+perfmon,+bpf,+chown --ambient-caps=+perfmon,+bpf,+chown \
			"$T/bin/capaudit_plain" "$@"
	}
	at_exit_checked tracefs_restore
	tracefs_as_systemd || fail "cannot make tracefs root's 0700"
	tfs=/sys/kernel/tracing
	as_nobody "$T/bin/capaudit" --check >"$T/out" 2>"$T/err" &&
		fail "a copy with file capabilities, run by nobody, on tracefs 0700: --check succeeded"
	expect_line "$T/err" "capaudit: $tfs: Permission denied (tracefs is root's; let a group read it: mount -o remount,gid=GROUP,mode=0750 $tfs, and at boot: \"tracefs $tfs tracefs gid=GROUP,mode=0750 0 0\" in /etc/fstab)" "a copy with file capabilities, run by nobody, on tracefs 0700"
	expect_line "$T/err" "capaudit: counting in the kernel, which needs no tracefs, cannot be used: capaudit's capabilities come from its file, not from its caller (it needs a caller who holds CAP_BPF and CAP_PERFMON: root, or a user given them as ambient capabilities)" "a copy with file capabilities, run by nobody, on tracefs 0700"
	ambient --check >"$T/out" 2>&1 || fail "nobody holding the capabilities ambient, on tracefs 0700: --check failed"
	expect_line "$T/out" "capaudit: would use raw tracepoint cap_capable, attached by eBPF (no tracefs needed)" "nobody holding the capabilities ambient, on tracefs 0700"
	expect_line "$T/out" "capaudit: counting: in the kernel, by eBPF programs on the raw tracepoints cap_capable, task_newtask, sched_process_exec and signal_generate" "nobody holding the capabilities ambient, on tracefs 0700"
	# And a real audit there: nobody's chown of its own file to uid 8,
	# granted by its ambient cap_chown, counted in the kernel.
	: >"$T/w/amb" && chown nobody "$T/w/amb"
	(cd "$T/w" && ambient --json -- chown 8 "$T/w/amb") >"$T/amb.json" 2>"$T/err" ||
		fail "nobody holding the capabilities ambient, on tracefs 0700: the audit failed: $(cat "$T/err")"
	[ "$(stat -c %u "$T/w/amb")" = 8 ] || fail "the ambient chown did not chown"
	[ "$(summary_field "$T/amb.json" source)" = '"raw_tracepoint"' ] &&
		[ "$(summary_field "$T/amb.json" counting)" = '"kernel"' ] ||
		fail "ambient audit on tracefs 0700: not counted in the kernel from the raw tracepoint: $(grep summary "$T/amb.json")"
	grep '"capability":"cap_chown"' "$T/amb.json" | grep -q '"granted":1,' ||
		fail "ambient audit on tracefs 0700: no granted cap_chown row: $(cat "$T/amb.json")"
	# tracefs shared with nobody's group: the copy reads samples, and
	# says why not in the kernel.
	tracefs_mount gid=65534,mode=0750 || fail "cannot give tracefs to nogroup"
	as_nobody "$T/bin/capaudit" --check >"$T/out" 2>&1
	expect_line "$T/out" "capaudit: counting: one perf sample per check (eBPF: capaudit's capabilities come from its file, not from its caller)" "a copy with file capabilities, run by nobody"
	ambient --check >"$T/out" 2>&1
	expect_line "$T/out" "capaudit: counting: in the kernel, by eBPF programs on the raw tracepoints cap_capable, task_newtask, sched_process_exec and signal_generate" "nobody holding the capabilities ambient"
fi
finish "capaudit counting in the kernel: the same rows as samples, no stranger counted, full tables said"
