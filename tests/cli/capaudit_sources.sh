#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# capaudit's choice of event source and its "what is missing" lines,
# against fake /proc and /sys trees (CAPAUDIT_SYSROOT): an old kernel,
# tracefs not mounted, the kprobe PMU, tracefs kprobe_events (the probes
# written, then removed), a readable tracepoint; and its usage errors
# (--success, --no-minimize and --no-container included).
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
CA=$BUILD/progs/capaudit
[ -x "$CA" ] || { fail "capaudit not built"; finish; }
ca() { CAPAUDIT_SYSROOT=$root run_ours "$CA" "$@"; }

# A machine: kernel $1, perf_event_paranoid -1 (no capability needed).
machine() {
	root=$T/$2
	mkdir -p "$root/proc/sys/kernel" "$root/sys/kernel/tracing" \
		"$root/sys/bus/event_source/devices"
	echo "$1" >"$root/proc/sys/kernel/osrelease"
	echo -1 >"$root/proc/sys/kernel/perf_event_paranoid"
}

# 1. Linux 6.1, nothing mounted, no kprobes: three lines, exit 1.
machine 6.1.0-test old
ca --check >"$T/out" 2>"$T/err" && fail "--check succeeded with nothing to use" || pass
cat "$T/err"
cat >"$T/want" <<EOF2
capaudit: kernel 6.1.0-test has no capability:cap_capable tracepoint (it came with Linux 6.14)
capaudit: tracefs is not mounted at $root/sys/kernel/tracing (mount -t tracefs nodev $root/sys/kernel/tracing, or run capaudit as root: it mounts one in a private mount namespace)
capaudit: no kprobe to fall back on: no kprobe PMU ($root/sys/bus/event_source/devices/kprobe) and no kprobe_events in a mounted tracefs (CONFIG_KPROBE_EVENTS)
EOF2
cmp "$T/want" "$T/err" && pass || fail "missing lines differ"
[ ! -s "$T/out" ] && pass || fail "stdout not empty"
# A command is not run when nothing can trace it.
ca -- touch "$T/ran" 2>/dev/null
[ $? -eq 1 ] && [ ! -e "$T/ran" ] && pass || fail "the command ran, or exit was not 1"
# A new kernel with tracefs unmounted does not blame the kernel version.
echo 6.18.0 >"$root/proc/sys/kernel/osrelease"
ca --check 2>"$T/err" && fail "--check succeeded" || pass
grep -q "has no capability:cap_capable" "$T/err" && fail "6.18 blamed for the tracepoint" || pass
expect_line "$T/err" "tracefs is not mounted" "no tracefs line on 6.18"
# perf_event_paranoid is blamed only without CAP_PERFMON; -1 lets everyone.
grep -q paranoid "$T/err" && fail "paranoid -1 blamed" || pass

# 2. The kprobe PMU: its type and the config bit of a return probe.
machine 6.1.0 pmu
mkdir -p "$root/sys/bus/event_source/devices/kprobe/format"
echo 9 >"$root/sys/bus/event_source/devices/kprobe/type"
echo config:0 >"$root/sys/bus/event_source/devices/kprobe/format/retprobe"
ca --check >"$T/out" 2>"$T/err"
rc=$?
case $(uname -m) in
x86_64|aarch64)
	[ "$rc" -eq 0 ] && pass || { cat "$T/err"; fail "kprobe PMU not used"; }
	grep -qx "capaudit: would use kprobe PMU (type 9) on cap_capable, arguments from registers" "$T/out" && pass ||
		fail "--check: $(cat "$T/out")" ;;
*)
	[ "$rc" -eq 1 ] && grep -q "argument registers" "$T/err" && pass || fail "kprobe PMU on $(uname -m)" ;;
esac
# A retprobe format it cannot read is named.
echo garbage >"$root/sys/bus/event_source/devices/kprobe/format/retprobe"
ca --check 2>"$T/err" && fail "a garbled kprobe PMU was used" || pass
grep -q "format/retprobe: cannot read which config bit makes a return probe" "$T/err" && pass ||
	fail "garbled retprobe not named: $(cat "$T/err")"

# 3. tracefs without the tracepoint but with kprobe_events: --check only
#    says so; a run writes both probes, fails to find their ids (this
#    tracefs is a plain directory), says so, and removes them again.
machine 6.1.0 kev
mkdir -p "$root/sys/kernel/tracing/events"
: >"$root/sys/kernel/tracing/kprobe_events"
ca --check >"$T/out" 2>"$T/err" && pass || { cat "$T/err"; fail "kprobe_events not used"; }
grep -qx "capaudit: would use kprobes on cap_capable written to $root/sys/kernel/tracing/kprobe_events" "$T/out" && pass ||
	fail "--check: $(cat "$T/out")"
[ ! -s "$root/sys/kernel/tracing/kprobe_events" ] && pass || fail "--check wrote a probe"
ca -- true >"$T/out" 2>"$T/err" && fail "ran without probe ids" || pass
grep -q "^capaudit: $root/sys/kernel/tracing/kprobe_events: cannot probe cap_capable: No such file or directory$" "$T/err" && pass ||
	fail "kprobe_events failure: $(cat "$T/err")"
sed 's/capaudit_[0-9]*/capaudit_N/' "$root/sys/kernel/tracing/kprobe_events" >"$T/kev.txt"
cat >"$T/want" <<'EOF2'
p:capaudit_N/cap cap_capable cred=$arg1:x64 ns=$arg2:x64 cap=$arg3:s32
r:capaudit_N/ret cap_capable ret=$retval:s32
-:capaudit_N/cap
-:capaudit_N/ret
EOF2
cmp "$T/want" "$T/kev.txt" && pass || { cat "$T/kev.txt"; fail "probes not written and removed as expected"; }

# 4. A readable tracepoint: its id and format, on any kernel version.
machine 6.14.0 tp
ev=$root/sys/kernel/tracing/events/capability/cap_capable
mkdir -p "$ev"
echo 4242 >"$ev/id"
printf '%s\n' 'name: cap_capable' 'ID: 4242' 'format:' \
	'	field:int cap;	offset:32;	size:4;	signed:1;' \
	'	field:int ret;	offset:36;	size:4;	signed:1;' >"$ev/format"
ca --check >"$T/out" && pass || fail "tracepoint not used"
grep -qx "capaudit: would use tracepoint capability:cap_capable (id 4242) from $root/sys/kernel/tracing" "$T/out" && pass ||
	fail "--check: $(cat "$T/out")"
# Without the ret field the event is not one capaudit can read.
printf '%s\n' '	field:int cap;	offset:32;	size:4;	signed:1;' >"$ev/format"
ca --check 2>"$T/err" && fail "a format without ret was accepted" || pass
grep -q "^capaudit: $root/sys/kernel/tracing/events/capability/cap_capable: " "$T/err" && pass ||
	fail "unreadable format not named: $(cat "$T/err")"

# 5. perf_event_paranoid 2 and capaudit without what perf needs in E: the
#    line names what the running kernel lacks by the capabilities it
#    knows, never by its release, so a 4.18 distribution kernel with
#    CAP_PERFMON backported is told CAP_PERFMON. The kernel before
#    CAP_PERFMON is $BIN/oldkernel 37. As root, our capsh first drops the
#    named capabilities from the bounding set, so exec does not give them.
machine 4.18.0-477.el8 perm
echo 2 >"$root/proc/sys/kernel/perf_event_paranoid"
lacking() {	# DROP [old]: capaudit --check's permission line
	if [ $# -eq 1 ]; then
		set -- "$1" "$CA" --check
	else
		set -- "$1" "$BIN/oldkernel" 37 "$CA" --check
	fi
	drop=$1 prog=$2; shift 2
	if [ "$(id -u)" -eq 0 ]; then
		CAPAUDIT_SYSROOT=$root "$BUILD/progs/capsh" --drop="$drop" \
			--shell="$prog" -- "$@"
	else
		CAPAUDIT_SYSROOT=$root "$prog" "$@"
	fi >"$T/lack" 2>&1
	sed -n 's/^capaudit: perf_event_paranoid is 2 and //p' "$T/lack"
}
pre="capaudit's effective set lacks"
post=": tracing another process's capability checks needs it, or perf_event_paranoid -1 (kernel 4.18.0-477.el8)"
got=$(lacking cap_perfmon,cap_sys_admin)
[ "$got" = "$pre CAP_PERFMON$post" ] && pass ||
	fail "a kernel that knows CAP_PERFMON, numbered 4.18: '$got'"
"$BIN/oldkernel" 37 /bin/true; seccomp=$?
if [ $seccomp -eq 77 ]; then
	not_checked "no seccomp filters here; the pre-5.8 cases are not run"
else
	[ $seccomp -eq 0 ] && pass || fail "oldkernel 37 /bin/true: exit $seccomp"
	got=$(lacking cap_perfmon,cap_sys_admin old)
	[ "$got" = "$pre CAP_SYS_ADMIN (this kernel predates CAP_PERFMON)$post" ] && pass ||
		fail "a kernel without CAP_PERFMON: '$got'"
	# There the CAP_PERFMON bit counts for nothing: the kernel ignores it.
	if [ "$(id -u)" -eq 0 ]; then
		got=$(lacking cap_sys_admin old)
		[ "$got" = "$pre CAP_SYS_ADMIN (this kernel predates CAP_PERFMON)$post" ] && pass ||
			fail "cap_perfmon taken for enough before 5.8: '$got'"
	fi
fi
# CAP_SYS_ADMIN alone is enough where CAP_PERFMON exists.
if [ "$(id -u)" -eq 0 ]; then
	got=$(lacking cap_perfmon)
	[ -z "$got" ] && grep -q "has no capability:cap_capable" "$T/lack" && pass ||
		fail "cap_sys_admin alone not enough: '$got'"
fi

# 6. Usage: errors exit 2 with one line, --help lists every option.
root=$T/tp
run_ours "$CA" >/dev/null 2>"$T/err"; [ $? -eq 2 ] && pass || fail "no COMMAND: not 2"
grep -q "^capaudit: no COMMAND to run (or --pid=PID)$" "$T/err" && pass || fail "no COMMAND message"
run_ours "$CA" --jsn true >/dev/null 2>"$T/err"; [ $? -eq 2 ] && pass || fail "--jsn: not 2"
grep -q "did you mean --json?" "$T/err" && pass || fail "no suggestion for --jsn: $(cat "$T/err")"
run_ours "$CA" --pid=0 >/dev/null 2>"$T/err"; [ $? -eq 2 ] && pass || fail "--pid=0: not 2"
grep -qx "capaudit: --pid=0: not a process id" "$T/err" && pass || fail "--pid=0 message"
run_ours "$CA" --duration=3 true >/dev/null 2>"$T/err"; [ $? -eq 2 ] && pass || fail "--duration alone: not 2"
run_ours "$CA" --pid=1 true >/dev/null 2>"$T/err"; [ $? -eq 2 ] && pass || fail "--pid with COMMAND: not 2"
run_ours "$CA" --iab='cap_chwn' true >/dev/null 2>"$T/err"; [ $? -eq 2 ] && pass || fail "bad --iab: not 2"
grep -q "did you mean cap_chown" "$T/err" && pass || fail "no suggestion for cap_chwn: $(cat "$T/err")"
run_ours "$CA" -- "no-such-command-$$" >/dev/null 2>"$T/err"; [ $? -eq 127 ] && pass || fail "unknown command: not 127"
grep -qx "capaudit: no-such-command-$$: command not found" "$T/err" && pass || fail "not-found message"
run_ours "$CA" --help >"$T/out" && pass || fail "--help"
run_ours "$CA" --no-minimize true >/dev/null 2>"$T/err"; [ $? -eq 2 ] && pass || fail "--no-minimize without --suggest: not 2"
grep -qx "capaudit: --no-minimize, --success and --trial-timeout go with --suggest" "$T/err" && pass || fail "--no-minimize alone: $(cat "$T/err")"
run_ours "$CA" --trial-timeout=5 true >/dev/null 2>"$T/err"; [ $? -eq 2 ] && pass || fail "--trial-timeout without --suggest: not 2"
run_ours "$CA" --no-container true >/dev/null 2>"$T/err"; [ $? -eq 2 ] && pass || fail "--no-container without --suggest: not 2"
grep -qx "capaudit: --no-container goes with --suggest" "$T/err" && pass || fail "--no-container alone: $(cat "$T/err")"
for bad in "" 0 -1 1x 31536001; do
	run_ours "$CA" --suggest --trial-timeout="$bad" true >/dev/null 2>"$T/err"
	[ $? -eq 2 ] && pass || fail "--trial-timeout=$bad: not 2"
	grep -qxF -- "capaudit: --trial-timeout=$bad: not a number of seconds (1 to 31536000)" "$T/err" && pass ||
		fail "--trial-timeout=$bad: $(cat "$T/err")"
done
for bad in "" 256 -1 1,,2 0,x 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17 99999999999999999999; do
	run_ours "$CA" --suggest --success="$bad" true >/dev/null 2>"$T/err"
	[ $? -eq 2 ] && pass || fail "--success=$bad: not 2"
	grep -qF -- "--success=$bad: not a list of exit statuses" "$T/err" && pass || fail "--success=$bad: $(cat "$T/err")"
done
for o in user= iab= pid= duration= json suggest no-minimize no-container success= trial-timeout= output= check help version; do
	grep -q "^  --$o" "$T/out" && pass || fail "--help lacks --$o"
done
run_ours "$CA" --version | grep -q '^capaudit (libcap-perfmon) ' && pass || fail "--version"
finish "capaudit: sources chosen and missing things named on fake machines"
