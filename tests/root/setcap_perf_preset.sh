#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# setcap --perf and --perf-group: the preset for this kernel lands on disk,
# is verified, restricts the binary to the group, and does what it promises
# on the real kernel: a member of the group runs the CPU-wide perf probe,
# an outsider cannot even execute it.
set -u
setcap=$TOP/progs/setcap probe=$BIN/perfprobe
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null || echo x)
case $paranoid in
-*|0|x) echo "skipped: perf_event_paranoid is '$paranoid'; the probe needs no capability"; exit 77 ;;
esac
[ "$(cat /proc/sys/kernel/cap_last_cap)" -ge 38 ] || { echo "skipped: kernel predates CAP_PERFMON"; exit 77; }
id daemon >/dev/null 2>&1 || { echo "skipped: no 'daemon' user to act as an outsider"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
# Through sh, so the exec is checked with the user's own credentials.
run_as() { u=$1 g=$2; shift 2; setpriv --reuid="$u" --regid="$g" --clear-groups sh -c 'exec "$0" "$@"' "$@"; }
major=$(uname -r | cut -d. -f1) minor=$(uname -r | cut -d. -f2)
want="cap_syslog,cap_perfmon=ep"
[ "$major" -eq 5 ] && [ "$minor" -lt 9 ] && want="cap_sys_ptrace,cap_syslog,cap_perfmon=ep"

cp "$probe" "$tmp/perf"
# nobody's primary group is the "perf_users" of this test.
grp=$(id -gn nobody)
"$setcap" --perf-group="$grp" --perf "$tmp/perf" >"$tmp/out" 2>&1 || fail "--perf exited $?: $(cat "$tmp/out")"
[ "$(cat "$tmp/out")" = "$tmp/perf: OK" ] || fail "--perf output: $(cat "$tmp/out")"
[ "$(/usr/sbin/getcap "$tmp/perf")" = "$tmp/perf $want" ] || fail "caps: $(/usr/sbin/getcap "$tmp/perf")"
[ "$(stat -c '%a %G' "$tmp/perf")" = "750 $grp" ] || fail "mode/group: $(stat -c '%a %G' "$tmp/perf")"
run_as nobody "$grp" "$tmp/perf" >/dev/null 2>&1 || fail "group member cannot open the CPU-wide event"
run_as daemon "$(id -gn daemon)" "$tmp/perf" >/dev/null 2>&1 && fail "outsider could run the restricted perf"

# Sampling subcommands add cap_ipc_lock; -q silences the verification line.
cp "$probe" "$tmp/perf2"
"$setcap" -q --perf=record,top "$tmp/perf2" >"$tmp/out" 2>&1 || fail "--perf=record,top exited $?"
[ -s "$tmp/out" ] && fail "-q --perf printed: $(cat "$tmp/out")"
case $(/usr/sbin/getcap "$tmp/perf2") in
*cap_ipc_lock*cap_perfmon=ep) ;;
*) fail "record,top caps: $(/usr/sbin/getcap "$tmp/perf2")" ;;
esac
"$setcap" --perf=stat "$tmp/perf2" >/dev/null 2>&1 || fail "--perf=stat"
[ "$(/usr/sbin/getcap "$tmp/perf2")" = "$tmp/perf2 $want" ] || fail "stat resets to the base set"

# Errors: unknown subcommand, unknown group, symlink; nothing is changed.
"$setcap" --perf=frobnicate "$tmp/perf2" 2>"$tmp/err"; [ $? -eq 1 ] || fail "unknown subcommand accepted"
grep -q "unknown perf subcommand 'frobnicate'" "$tmp/err" || fail "message: $(cat "$tmp/err")"
cp "$probe" "$tmp/perf3"
"$setcap" --perf-group=no-such-group-xyz --perf "$tmp/perf3" 2>"$tmp/err"; [ $? -eq 1 ] || fail "unknown group accepted"
grep -q "no group named 'no-such-group-xyz'" "$tmp/err" || fail "message: $(cat "$tmp/err")"
[ -z "$(/usr/sbin/getcap "$tmp/perf3")" ] || fail "caps written despite the group error"
ln -s "$tmp/perf3" "$tmp/link"
"$setcap" --perf-group="$grp" --perf "$tmp/link" 2>/dev/null && fail "symlink accepted"
[ -z "$(/usr/sbin/getcap "$tmp/perf3")" ] || fail "symlink target got capabilities"
[ "$(stat -c %G "$tmp/perf3")" = root ] || fail "symlink target changed group"
# -v --perf verifies only.
"$setcap" -v --perf "$tmp/perf" >"$tmp/out" || fail "-v --perf on a good file"
"$setcap" -v --perf "$tmp/perf3" >"$tmp/out"; [ $? -eq 1 ] || fail "-v --perf on a bare file"
[ $fails -eq 0 ]
