#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# capaudit on the real kernel: the probe chowns a file to
# another uid, binds port 80 on loopback and, in a forked grandchild,
# opens a CPU-wide perf event. Under capaudit as root every check is
# granted; under a copy of capaudit holding only cap_perfmon, run as
# nobody, cap_chown, cap_net_bind_service and cap_perfmon are refused; the
# grandchild's check is its own; and the --suggest line (unproven: the
# root-equivalent cap_chown held apart, in no line to paste), applied
# with our setcap to a copy of the probe, lets nobody bind and count, and
# with cap_chown added by hand run it to the end.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
# Users by name from the base accounts only; also our private mount
# namespace, where tracefs is mounted for this suite alone.
private_etc "$@"
init
CA=$BUILD/progs/capaudit S=$BUILD/progs/setcap probe=$BIN/capaudit_probe
[ -x "$CA" ] && [ -x "$S" ] && [ -x "$probe" ] || { fail "capaudit, setcap or capaudit_probe not built"; finish; }
skip_if_sanitized "file capabilities on a copy of capaudit (ASan refuses AT_SECURE)"
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null) ||
	skip "no perf events in this kernel"
[ "$paranoid" -ge 1 ] ||
	skip "perf_event_paranoid is $paranoid, so nobody may already open CPU-wide events"
tfs=/sys/kernel/tracing
at_exit_checked tracefs_restore
# Readable by nogroup, as an admin lets a perf_users group read it.
tracefs_mount gid=65534,mode=0750 || { fail "cannot mount tracefs in our mount namespace"; finish; }
[ -r "$tfs/events/capability/cap_capable/id" ] ||
	skip "no capability:cap_capable tracepoint (Linux 6.14+)"
chmod 755 "$T"

# row REPORT CAP PID: "granted refused" of that table row, or nothing.
row() { awk -v c="$2" -v p="$3" '$1 == c && $5 == p { print $3, $4 }' "$1"; }
expect_row() {	# REPORT CAP PID granted|refused
	r=$(row "$1" "$2" "$3")
	[ -n "$r" ] && pass || { cat "$1"; fail "no $2 row for pid $3"; }
	set -- "$r" "$4" "$2" "$3"
	n_yes=${1% *} n_no=${1#* }
	case $2 in
	granted) [ "$n_yes" -ge 1 ] && [ "$n_no" -eq 0 ] && pass || fail "$3 in $4: granted $n_yes refused $n_no, expected granted only" ;;
	refused) [ "$n_no" -ge 1 ] && [ "$n_yes" -eq 0 ] && pass || fail "$3 in $4: granted $n_yes refused $n_no, expected refused only" ;;
	esac
}

# 1. As root: everything granted, the perf check in the grandchild.
# The probe's files on file systems of the suite's own: the counts below
# are one check per chown, which an overlay (the container world's root)
# doubles, checking each chown in each layer.
tmpfs_dir "$T/root" || { fail "cannot mount a tmpfs on $T/root"; finish; }
"$CA" --output="$T/rep" -- "$probe" "$T/root" >"$T/out" ||
	{ cat "$T/out" "$T/rep"; fail "the probe failed under capaudit as root"; finish; }
pid=$(sed -n 's/^pid //p' "$T/out") g=$(sed -n 's/^grandchild //p' "$T/out")
[ -n "$pid" ] && [ -n "$g" ] || { fail "probe output: $(cat "$T/out")"; finish; }
cat "$T/rep"
expect_row "$T/rep" cap_chown "$pid" granted
expect_row "$T/rep" cap_net_bind_service "$pid" granted
expect_row "$T/rep" cap_perfmon "$g" granted
[ -z "$(row "$T/rep" cap_perfmon "$pid")" ] && pass || fail "the grandchild's cap_perfmon check went to $pid"
grep -qx 'lost samples: 0' "$T/rep" && pass || fail "lost samples not reported as 0"
grep -q "^command: exited with status 0 after .*; 3 processes followed$" "$T/rep" && pass ||
	fail "summary line: $(grep '^command' "$T/rep")"

# The same as JSON: one object per line, the grandchild's check its own.
"$CA" --json --output="$T/json" -- "$probe" "$T/root" >"$T/out" && pass || fail "--json run failed"
g=$(sed -n 's/^grandchild //p' "$T/out")
python3 - "$T/json" "$g" <<'PY' && pass || fail "--json output"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
g = int(sys.argv[2])
assert all(r["schema"] == 1 for r in rows)
perf = [r for r in rows if r["type"] == "check" and r["capability"] == "cap_perfmon"]
assert perf and all(r["pid"] == g and r["granted"] >= 1 and r["refused"] == 0 for r in perf), perf
assert perf[0]["risk"] == "kernel-read", perf
summary = [r for r in rows if r["type"] == "summary"]
assert len(summary) == 1 and summary[0]["exit_status"] == 0 and summary[0]["lost"] == 0, summary
assert summary[0]["source"] == "tracepoint", summary
PY

# 2. capaudit holding cap_perfmon only, run by nobody: every check refused.
cp "$CA" "$T/capaudit" && chmod 755 "$T/capaudit"
"$S" cap_perfmon=ep "$T/capaudit" || { fail "our setcap cap_perfmon=ep"; finish; }
tmpfs_dir "$T/w" "$T/w2" "$T/w3" && chown nobody:nogroup "$T/w" "$T/w2" "$T/w3"
as_nobody "$T/capaudit" --suggest --output="$T/w/rep" -- "$probe" "$T/w" >"$T/out"
rc=$?
[ "$rc" -eq 1 ] && pass || { cat "$T/out" "$T/w/rep"; fail "capaudit as nobody: exit $rc, expected the probe's 1"; }
pid=$(sed -n 's/^pid //p' "$T/out") g=$(sed -n 's/^grandchild //p' "$T/out")
cat "$T/w/rep"
expect_row "$T/w/rep" cap_chown "$pid" refused
expect_row "$T/w/rep" cap_net_bind_service "$pid" refused
expect_row "$T/w/rep" cap_perfmon "$g" refused
grep -q "^command: exited with status 1 " "$T/w/rep" && pass || fail "exit status not reported"
grep -q "^# not exercised: the command failed (exit status 1)" "$T/w/rep" && pass ||
	fail "--suggest does not say the failed run left checks unexercised"
grep -q "^# left out: cap_sys_admin" "$T/w/rep" && pass || fail "cap_sys_admin not explained"
# Unproven: the root-equivalent cap_chown is held apart, in no line
# meant to be pasted.
line=$(grep '^setcap ' "$T/w/rep")
set -- $line
[ "$#" -eq 3 ] && [ "$2" = cap_net_bind_service,cap_perfmon=ep ] && pass ||
	fail "suggested: $line"
grep -q "^# held apart: cap_chown: root-equivalent and not proven needed" "$T/w/rep" && pass ||
	fail "cap_chown not held apart"
grep -qx "cap_net_bind_service,cap_perfmon	nobody" "$T/w/rep" && pass ||
	fail "no capability.conf line for nobody"
grep -qx "AmbientCapabilities=CAP_NET_BIND_SERVICE CAP_PERFMON" "$T/w/rep" && pass ||
	fail "no AmbientCapabilities= line"
grep -qx "CapabilityBoundingSet=CAP_NET_BIND_SERVICE CAP_PERFMON" "$T/w/rep" && pass ||
	fail "no CapabilityBoundingSet= line"
grep -q "^#   cap_perfmon  *kernel-read: " "$T/w/rep" && pass || fail "no risk label for cap_perfmon"
grep -q "^#   cap_chown  *root-equivalent: .* (held apart: unproven)$" "$T/w/rep" && pass ||
	fail "no risk label for the held-apart cap_chown"

# 2b. The cap_perfmon copy passes none of its privilege on: --iab and
#     --user are refused (before, --iab='^cap_perfmon' gave the command an
#     ambient cap_perfmon), and --pid watches only nobody's own processes.
as_nobody "$T/capaudit" --iab='^cap_perfmon' -- grep CapAmb /proc/self/status \
	>"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -eq 2 ] && grep -q -- '--iab and --user are refused' "$T/err" && pass ||
	fail "--iab with file capabilities: exit $rc, $(cat "$T/out" "$T/err")"
grep -q 'CapAmb:.*[1-9a-f]' "$T/out" && fail "--iab gave the command an ambient capability: $(cat "$T/out")" || pass
as_nobody "$T/capaudit" --user=nobody -- true 2>"$T/err"
[ $? -eq 2 ] && pass || fail "--user with file capabilities was not refused"
as_nobody "$T/capaudit" --pid=1 --duration=1 --output="$T/w/rep1" 2>"$T/err"
rc=$?
[ "$rc" -eq 1 ] && grep -q -- '--pid=1: not a process of yours' "$T/err" && pass ||
	fail "--pid=1 as nobody: exit $rc, $(cat "$T/err")"
as_nobody_bg sleep 5
mine=$nobody_pid
sleep 0.2
as_nobody "$T/capaudit" --pid="$mine" --duration=1 --output="$T/w/rep2" 2>"$T/err" && pass ||
	fail "--pid of nobody's own process refused: $(cat "$T/err")"
kill "$mine" 2>/dev/null; wait "$mine" 2>/dev/null

# 2c. Without CAP_IPC_LOCK and with no RLIMIT_MEMLOCK at all, nobody may
#     lock only perf_event_mlock_kb per CPU: capaudit's buffers shrink to
#     fit, and still every check is counted.
mlock_kb=$(cat /proc/sys/kernel/perf_event_mlock_kb 2>/dev/null || echo 0)
if [ "$mlock_kb" -ge 516 ]; then
	as_nobody prlimit --memlock=0 "$T/capaudit" --output="$T/w/rep3" -- \
		"$probe" --loop 2000 "$T/w/rep3" >/dev/null 2>"$T/err" && pass ||
		fail "capaudit as nobody with RLIMIT_MEMLOCK 0: $(cat "$T/err")"
	grep -q '^cap_chown  *2000  *0  *2000 ' "$T/w/rep3" && grep -qx 'lost samples: 0' "$T/w/rep3" && pass ||
		{ cat "$T/w/rep3"; fail "RLIMIT_MEMLOCK 0: not every refused cap_chown counted"; }
else
	echo "perf_event_mlock_kb is $mlock_kb: the small-buffer case not tried"
fi

# 3. The suggestion applied with our setcap: nobody's probe binds and
#    counts, and still may not chown; with the held-apart cap_chown
#    added by hand it succeeds.
cp "$probe" "$T/probe" && chmod 755 "$T/probe"
as_nobody "$T/probe" "$T/w2" >/dev/null && fail "the probe worked for nobody before setcap" || pass
"$S" "$2" "$T/probe" && pass || fail "our setcap $2"
as_nobody "$T/probe" "$T/w2" >"$T/out" && { cat "$T/out"; fail "the probe chowned without cap_chown"; } || pass
grep -qx 'bind: ok' "$T/out" && grep -qx 'perf: ok' "$T/out" && pass ||
	fail "probe output after setcap $2: $(cat "$T/out")"
"$S" "cap_chown,$2" "$T/probe" && pass || fail "our setcap cap_chown,$2"
as_nobody "$T/probe" "$T/w2" >"$T/out" && pass || { cat "$T/out"; fail "the probe still fails after setcap cap_chown,$2"; }
grep -qx 'chown: ok' "$T/out" && grep -qx 'bind: ok' "$T/out" && grep -qx 'perf: ok' "$T/out" && pass ||
	fail "probe output: $(cat "$T/out")"

# 4. As root with --user=nobody: the launcher's own setuid is not the command's.
"$CA" --user=nobody --output="$T/rep" -- "$probe" "$T/w3" >"$T/out"
[ $? -eq 1 ] && pass || fail "--user=nobody run"
pid=$(sed -n 's/^pid //p' "$T/out")
expect_row "$T/rep" cap_chown "$pid" refused
grep -q '^cap_setuid ' "$T/rep" && fail "the launcher's cap_setuid was counted" || pass
grep -q "^not counted: [0-9]* checks* by capaudit's launcher" "$T/rep" && pass ||
	fail "the launcher's checks are not mentioned"
# 4b. --iab reaches the command through the launcher: root without
#     cap_chown in its bounding set is refused; nobody with an ambient
#     cap_chown is granted, and the file really changes owner.
: >"$T/w3/iab" && chown nobody:nogroup "$T/w3/iab"
"$CA" --iab='!cap_chown' --output="$T/rep" -- chown 1 "$T/w3/iab" >/dev/null 2>&1
[ "$(stat -c %u "$T/w3/iab")" = 65534 ] && pass || fail "--iab=!cap_chown: root still changed the owner"
grep -q '^cap_chown  *1  *0  *1 ' "$T/rep" && pass || { cat "$T/rep"; fail "--iab=!cap_chown: no refused cap_chown row"; }
"$CA" --iab='^cap_chown' --user=nobody --output="$T/rep" -- chown 1 "$T/w3/iab" && pass ||
	fail "--iab=^cap_chown --user=nobody: the chown failed"
[ "$(stat -c %u "$T/w3/iab")" = 1 ] && pass || fail "--iab=^cap_chown: the owner did not change"
grep -q '^cap_chown  *1  *1  *0 ' "$T/rep" && pass || { cat "$T/rep"; fail "--iab=^cap_chown: no granted cap_chown row"; }
# 5. --pid: attached to a running loop, the checks of the children it
#    starts from then on count; a process that ends ends the watch early.
touch "$T/root/x"
sh -c 'while :; do chown 1 "$1"; sleep 0.2; done' loop "$T/root/x" &
loop=$!
"$CA" --pid="$loop" --duration=2 --output="$T/rep" && pass || fail "--pid run"
kill "$loop"; wait "$loop" 2>/dev/null
cat "$T/rep"
grep -q '^cap_chown .* chown$' "$T/rep" && pass || fail "no cap_chown from the loop's chown"
grep -q "^command: attached for 2\.[0-9]* s; " "$T/rep" && pass || fail "no 'attached' summary"
sleep 1 &
start=$(date +%s)
"$CA" --pid=$! --duration=60 --output="$T/rep" && pass || fail "--pid on a short process"
[ $(($(date +%s) - start)) -lt 30 ] && pass || fail "--pid watched a finished process on"
# 6. Every check counted, none lost, while capaudit cannot read: it is
#    stopped while the loop makes 10000 checks on one CPU, which that
#    CPU's buffer must hold (1 MiB at least as root; the 256 KiB buffer
#    of old held 3276 and lost the rest).
for how in --no-bpf --count-in-kernel; do
	[ "$how" = --no-bpf ] || how=
	"$CA" $how --output="$T/rep" -- "$probe" --loop 10000 "$T/root/x" --stop-parent \
		>"$T/out" 2>"$T/err" && pass || fail "stopped loop run $how: $(cat "$T/err")"
	counted=$(awk '$1 == "cap_chown" { n += $2 } END { print n + 0 }' "$T/rep")
	echo "10000 checks with capaudit stopped ${how:-in the kernel}: counted $counted, $(grep '^lost samples' "$T/rep")"
	[ "$counted" -eq 10000 ] && grep -qx 'lost samples: 0' "$T/rep" && [ ! -s "$T/err" ] && pass ||
		{ cat "$T/rep" "$T/err"; fail "10000 checks while capaudit was stopped $how: counted $counted"; }
done
# 6b. Checks that differ, one after the other, are each their own: 20000
#     chowns and 20000 nice values in turn, then an exec of chown(1) in
#     the same process; its one check is chown's, not the probe's.
"$CA" --output="$T/rep" -- "$probe" --mix 20000 "$T/root/x" >"$T/out" 2>"$T/err" && pass ||
	fail "mixed loop run: $(cat "$T/err")"
mix=$(awk '($1 == "cap_chown" || $1 == "cap_sys_nice") { print $1, $2, $3, $4, $6 }' "$T/rep" | sort | tr '\n' ';')
[ "$mix" = "cap_chown 1 1 0 chown;cap_chown 20000 20000 0 capaudit_probe;cap_sys_nice 20000 20000 0 capaudit_probe;" ] &&
	grep -qx 'lost samples: 0' "$T/rep" && pass ||
	{ cat "$T/rep"; fail "mixed checks: $mix"; }
# 6c. Lost samples are counted and reported, never silent: stopped while
#     the loop makes 300000 checks, more than any buffer holds (8 MiB).
#     Read sample by sample (--no-bpf): counted in the kernel, nothing
#     passes through the buffers (capaudit_bpf.sh fills the kernel's
#     tables instead).
"$CA" --no-bpf --output="$T/rep" -- "$probe" --loop 300000 "$T/root/x" --stop-parent \
	>"$T/out" 2>"$T/err" && pass || fail "loop run: $(cat "$T/err")"
lost=$(sed -n 's/^lost samples: \([0-9]*\).*/\1/p' "$T/rep")
counted=$(awk '$1 == "cap_chown" { n += $2 } END { print n + 0 }' "$T/rep")
echo "lost $lost, cap_chown checks $counted"
[ "${lost:-0}" -gt 0 ] && pass || { cat "$T/rep"; fail "no lost samples reported"; }
[ $((lost + counted)) -ge 300000 ] && pass || fail "lost $lost + counted $counted < 300000 checks made"
grep -qx "capaudit: $lost samples were lost; the counts are lower bounds" "$T/err" && pass ||
	fail "the loss is not on stderr: $(cat "$T/err")"
# 6b. A command's name is its own: an escape sequence in it is printed as
#     text, in the table and in --suggest's setcap line.
esc=$(printf 'x\033[2Jy')
cp /bin/true "$T/root/$esc" && chmod 755 "$T/root/$esc"
"$CA" --suggest --output="$T/rep" -- "$T/root/$esc" && pass || fail "escape-named command"
grep -q "$(printf '\033')" "$T/rep" && fail "a raw ESC reached the report: $(cat -v "$T/rep")" || pass
grep -Fq ' x\033[2Jy' "$T/rep" && pass || { cat -v "$T/rep"; fail "the escape-named command is not shown as text"; }
# 7. A command the kernel will not execute: one line, exit 1.
printf '#!/nonexistent/interpreter\n' >"$T/bad" && chmod 755 "$T/bad"
"$CA" --output="$T/rep" -- "$T/bad" 2>"$T/err"
rc=$?
[ "$rc" -eq 1 ] && grep -qx "capaudit: $T/bad: the launcher could not start it (execve failed)" "$T/err" && pass ||
	fail "unexecutable command: exit $rc, $(cat "$T/err")"
# capaudit started with SIGCHLD ignored, as a parent that ignores it
# leaves it through execve: the kernel reaped capaudit's children itself,
# waitpid() failed ("No child processes"), the command's status and the
# report were lost (and a trial's leftover that ended lost its pid before
# capaudit killed it by that number). The command still gets SIGCHLD
# ignored, as it would without capaudit (bit 17 of SigIgn: 0x10000).
if env --ignore-signal=CHLD true 2>/dev/null; then
	env --ignore-signal=CHLD "$CA" --output="$T/ign" -- sh -c 'exit 3' 2>"$T/err"
	rc=$?
	[ "$rc" -eq 3 ] && grep -q "^command: exited with status 3" "$T/ign" && pass ||
		fail "SIGCHLD ignored by capaudit's caller: exit $rc: $(cat "$T/err")"
	# (grep itself: a shell would put SIGCHLD back for its children)
	env --ignore-signal=CHLD "$CA" --output="$T/ign" -- grep "^SigIgn:" /proc/self/status >"$T/out"
	ign=$(sed -n 's/^SigIgn:[[:space:]]*//p' "$T/out")
	[ $((0x${ign:-0} & 0x10000)) -ne 0 ] && pass ||
		fail "SIGCHLD ignored by capaudit's caller: not ignored in the command (SigIgn ${ign:-none})"
else
	not_checked "env has no --ignore-signal: capaudit under an ignored SIGCHLD not tried"
fi
finish "capaudit: root granted, nobody+cap_perfmon refused, grandchild attributed, suggestion applied"
