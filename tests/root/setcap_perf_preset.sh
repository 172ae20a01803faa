#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# setcap --perf and --perf-group: the preset for this kernel lands on disk,
# is verified, restricts the binary to the group, and does what it promises
# on the real kernel: a member of the group runs the CPU-wide perf probe,
# an outsider cannot even execute it.
set -u
. "$TESTS_DIR/tools/perf_world.sh"
setcap=$BUILD/progs/setcap
tmp=$T
major=$(uname -r | cut -d. -f1) minor=$(uname -r | cut -d. -f2)
want="cap_syslog,cap_perfmon=ep"
[ "$major" -eq 5 ] && [ "$minor" -lt 9 ] && want="cap_sys_ptrace,cap_syslog,cap_perfmon=ep"

cp "$BIN/perfprobe" "$tmp/perf"
grp=perf_users
ours "$setcap" --perf-group="$grp" --perf "$tmp/perf" >"$tmp/out" 2>&1 || fail "--perf exited $?: $(cat "$tmp/out")"
[ "$(cat "$tmp/out")" = "$tmp/perf: OK" ] || fail "--perf output: $(cat "$tmp/out")"
[ "$(/usr/sbin/getcap "$tmp/perf")" = "$tmp/perf $want" ] || fail "caps: $(/usr/sbin/getcap "$tmp/perf")"
[ "$(stat -c '%a %g' "$tmp/perf")" = "750 4100" ] || fail "mode/group: $(stat -c '%a %g' "$tmp/perf")"
probe_as 4001 4001 4001,4100 "$tmp/perf" || fail "group member cannot open the CPU-wide event"
probe_as 4002 4002 4002 "$tmp/perf" && fail "outsider could run the restricted perf"

# Sampling subcommands add cap_ipc_lock; -q silences the verification line.
cp "$BIN/perfprobe" "$tmp/perf2"
run_ours "$setcap" -q --perf=record,top "$tmp/perf2" >"$tmp/out" 2>/dev/null || fail "--perf=record,top exited $?"
[ -s "$tmp/out" ] && fail "-q --perf printed: $(cat "$tmp/out")"
case $(/usr/sbin/getcap "$tmp/perf2") in
*cap_ipc_lock*cap_perfmon=ep) ;;
*) fail "record,top caps: $(/usr/sbin/getcap "$tmp/perf2")" ;;
esac
ours "$setcap" --perf=stat "$tmp/perf2" >/dev/null 2>&1 || fail "--perf=stat"
[ "$(/usr/sbin/getcap "$tmp/perf2")" = "$tmp/perf2 $want" ] || fail "stat resets to the base set"

# Errors: unknown subcommand, unknown group, symlink; nothing is changed.
ours "$setcap" --perf=frobnicate "$tmp/perf2" 2>"$tmp/err"; [ $? -eq 1 ] || fail "unknown subcommand accepted"
grep -q "unknown perf subcommand 'frobnicate'" "$tmp/err" || fail "message: $(cat "$tmp/err")"
cp "$BIN/perfprobe" "$tmp/perf3"
ours "$setcap" --perf-group=no-such-group-xyz --perf "$tmp/perf3" 2>"$tmp/err"; [ $? -eq 1 ] || fail "unknown group accepted"
grep -q "no group named 'no-such-group-xyz'" "$tmp/err" || fail "message: $(cat "$tmp/err")"
[ -z "$(/usr/sbin/getcap "$tmp/perf3")" ] || fail "caps written despite the group error"
ln -s "$tmp/perf3" "$tmp/link"
ours "$setcap" --perf-group="$grp" --perf "$tmp/link" 2>/dev/null && fail "symlink accepted"
[ -z "$(/usr/sbin/getcap "$tmp/perf3")" ] || fail "symlink target got capabilities"
[ "$(stat -c %g "$tmp/perf3")" = 0 ] || fail "symlink target changed group"
# -v --perf verifies only.
ours "$setcap" -v --perf "$tmp/perf" >"$tmp/out" || fail "-v --perf on a good file"
ours "$setcap" -v --perf "$tmp/perf3" >"$tmp/out" 2>/dev/null; [ $? -eq 1 ] || fail "-v --perf on a bare file"
[ $fails -eq 0 ]
