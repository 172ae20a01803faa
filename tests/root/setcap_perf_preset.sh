#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# setcap --perf and --perf-group: the preset for this kernel lands on disk,
# is verified, restricts the binary to the group, and does what it promises
# on the real kernel: a member of the group runs the CPU-wide perf probe,
# an outsider cannot even execute it.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
. "$TESTS_DIR/tools/perf_world.sh"
setcap=$BUILD/progs/setcap
tmp=$T
major=$(uname -r | cut -d. -f1) minor=$(uname -r | cut -d. -f2)
want="cap_syslog,cap_perfmon=ep"
[ "$major" -eq 5 ] && [ "$minor" -lt 9 ] && want="cap_sys_ptrace,cap_syslog,cap_perfmon=ep"

cp "$BIN/perfprobe" "$T/perf"
grp=perf_users
ours "$setcap" --perf-group="$grp" --perf "$T/perf" >"$T/out" 2>&1 && pass || fail "--perf exited $?: $(cat "$T/out")"
[ "$(cat "$T/out")" = "$T/perf: OK" ] && pass || fail "--perf output: $(cat "$T/out")"
[ "$(/usr/sbin/getcap "$T/perf")" = "$T/perf $want" ] && pass || fail "caps: $(/usr/sbin/getcap "$T/perf")"
[ "$(stat -c '%a %g' "$T/perf")" = "750 4100" ] && pass || fail "mode/group: $(stat -c '%a %g' "$T/perf")"
probe_as 4001 4001 4001,4100 "$T/perf" && pass || fail "group member cannot open the CPU-wide event"
probe_as 4002 4002 4002 "$T/perf" && fail "outsider could run the restricted perf" || pass

# Sampling subcommands add cap_ipc_lock; -q silences the verification line.
cp "$BIN/perfprobe" "$T/perf2"
run_ours "$setcap" -q --perf=record,top "$T/perf2" >"$T/out" 2>/dev/null && pass || fail "--perf=record,top exited $?"
[ -s "$T/out" ] && fail "-q --perf printed: $(cat "$T/out")" || pass
case $(/usr/sbin/getcap "$T/perf2") in
*cap_ipc_lock*cap_perfmon=ep) ;;
*) fail "record,top caps: $(/usr/sbin/getcap "$T/perf2")" ;;
esac
ours "$setcap" --perf=stat "$T/perf2" >/dev/null 2>&1 && pass || fail "--perf=stat"
[ "$(/usr/sbin/getcap "$T/perf2")" = "$T/perf2 $want" ] && pass || fail "stat resets to the base set"

# Errors: unknown subcommand, unknown group, symlink; nothing is changed.
ours "$setcap" --perf=frobnicate "$T/perf2" 2>"$T/err"; [ $? -eq 1 ] && pass || fail "unknown subcommand accepted"
grep -q "unknown perf subcommand 'frobnicate'" "$T/err" && pass || fail "message: $(cat "$T/err")"
cp "$BIN/perfprobe" "$T/perf3"
ours "$setcap" --perf-group=no-such-group-xyz --perf "$T/perf3" 2>"$T/err"; [ $? -eq 1 ] && pass || fail "unknown group accepted"
grep -q "no group named 'no-such-group-xyz'" "$T/err" && pass || fail "message: $(cat "$T/err")"
[ -z "$(/usr/sbin/getcap "$T/perf3")" ] && pass || fail "caps written despite the group error"
ln -s "$T/perf3" "$T/link"
ours "$setcap" --perf-group="$grp" --perf "$T/link" 2>/dev/null && fail "symlink accepted" || pass
[ -z "$(/usr/sbin/getcap "$T/perf3")" ] && pass || fail "symlink target got capabilities"
[ "$(stat -c %g "$T/perf3")" = 0 ] && pass || fail "symlink target changed group"
# -v --perf verifies only.
ours "$setcap" -v --perf "$T/perf" >"$T/out" && pass || fail "-v --perf on a good file"
ours "$setcap" -v --perf "$T/perf3" >"$T/out" 2>/dev/null; [ $? -eq 1 ] && pass || fail "-v --perf on a bare file"
finish
