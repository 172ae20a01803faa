#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# capsh --explain and --suggest: libcap's header line format for every value
# 0..63, the error for anything else, our own descriptions (the facts the
# project promises: kernel versions, root equivalence, perf without root),
# and --suggest's case-insensitive search with blank-line separators.
set -u
# Nothing here runs under valgrind: in the valgrind pass it would only
# repeat the plain pass.
[ "${VALGRIND:-0}" = 1 ] && { echo "skipped: runs none of our code under valgrind (the plain and sanitizer passes run it)"; exit 77; }
C=$BUILD/progs/capsh
[ -x "$C" ] || { echo "capsh not built"; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
run() { "$C" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null; rc=$?; }

names="chown dac_override dac_read_search fowner fsetid kill setgid setuid setpcap
linux_immutable net_bind_service net_broadcast net_admin net_raw ipc_lock ipc_owner
sys_module sys_rawio sys_chroot sys_ptrace sys_pacct sys_admin sys_boot sys_nice
sys_resource sys_time sys_tty_config mknod lease audit_write audit_control setfcap
mac_override mac_admin syslog wake_alarm block_suspend audit_read perfmon bpf
checkpoint_restore"
last=$(($(cat /proc/sys/kernel/cap_last_cap 2>/dev/null || echo 40)))
# Three spellings of each value (name, number, upper case), all in one run;
# the expected header lines are built with the shell's own printf.
n=0 args=""
: >"$tmp/want"
for name in $names; do
	upper=$(echo "CAP_$name" | tr a-z A-Z)
	args="$args --explain=cap_$name --explain=$n --explain=$upper"
	prefix=""; [ $n -le "$last" ] || prefix="<reserved for> "
	printf '%scap_%s (%d) [/proc/self/status:CapXXX: 0x%016x]\n' "$prefix" "$name" $n $((1 << n)) >>"$tmp/want"
	n=$((n + 1))
done
[ $n -eq 41 ] || bad "only $n names checked"
# shellcheck disable=SC2086
run $args
[ $rc -eq 0 ] || bad "--explain x123: exit $rc"
[ -s "$tmp/err" ] && bad "--explain x123: stderr $(head -n 3 "$tmp/err")"
# Split into blocks at header lines; check each triple is identical, the
# blank second line, the indentation, the line length, "In Linux since",
# and that no line uses libcap's stock opening. Bodies go to body.<name>.
awk -v dir="$tmp" -v names="$names" '
	function flush() {
		if (blk < 0) return
		i = int(blk / 3)
		if (blk % 3 == 0) { first = text; hdr = head; print head > (dir "/got") }
		else if (text != first || head != hdr) printf "FAIL: --explain spellings of %s differ\n", nm[i + 1]
		if (blk % 3 == 2) {
			file = dir "/body." nm[i + 1]
			printf "%s", body > file; close(file)
			if (!seen_blank) printf "FAIL: %s: line 2 not blank\n", nm[i + 1]
			if (!since) printf "FAIL: %s: no In Linux since\n", nm[i + 1]
			if (stock) printf "FAIL: %s: libcap wording\n", nm[i + 1]
			if (bad_line) printf "FAIL: %s: unindented or long line\n", nm[i + 1]
		}
	}
	BEGIN { blk = -1; split(names, nm, /[ \n]+/) }
	/^[^ ]/ {
		flush(); blk++; head = $0; text = ""; body = ""; lineno = 0
		seen_blank = since = stock = bad_line = 0; next
	}
	{
		lineno++; text = text $0 "\n"
		if (lineno == 1) { seen_blank = ($0 == ""); next }
		body = body $0 "\n"
		if ($0 ~ /In Linux since [0-9]/) since = 1
		if ($0 ~ /^    Allows a process to/) stock = 1
		if (($0 != "" && $0 !~ /^    /) || length($0) > 64) bad_line = 1
	}
	END { flush(); if (blk != 122) printf "FAIL: %d blocks, want 123\n", blk + 1 }
' "$tmp/out" >"$tmp/awk"
[ -s "$tmp/awk" ] && { cat "$tmp/awk"; fail=1; }
cmp -s "$tmp/want" "$tmp/got" || { bad "--explain headers:"; diff "$tmp/want" "$tmp/got" | head; }
for name in $names; do
	[ -s "$tmp/body.$name" ] || bad "cap_$name: no description"
done

since() { grep -q "In Linux since $2" "$tmp/body.$1" || bad "cap_$1: want since $2"; }
since chown 2.2; since sys_admin 2.2; since mknod 2.4; since lease 2.4
since audit_write 2.6.11; since setfcap 2.6.24; since mac_admin 2.6.25
since syslog 2.6.37; since wake_alarm 3.0; since block_suspend 3.5
since audit_read 3.16; since perfmon 5.8; since bpf 5.8; since checkpoint_restore 5.9
# The capabilities that amount to root say so.
for name in sys_admin setuid setgid dac_override sys_module sys_ptrace sys_rawio \
	    setfcap setpcap chown fowner mknod dac_read_search; do
	grep -qi 'root' "$tmp/body.$name" || bad "cap_$name: no root-equivalence warning"
done
grep -q 'CAP_PERFMON' "$tmp/body.bpf" || bad "cap_bpf: does not pair with CAP_PERFMON"
grep -q 'CAP_SYS_ADMIN' "$tmp/body.perfmon" || bad "cap_perfmon: no CAP_SYS_ADMIN history"
grep -q 'perf' "$tmp/body.syslog" || bad "cap_syslog: no perf note"
grep -q '5.9' "$tmp/body.sys_ptrace" || bad "cap_sys_ptrace: no 5.9 perf note"
grep -q 'perf_event_mlock_kb' "$tmp/body.ipc_lock" || bad "cap_ipc_lock: no perf mlock note"
# cap_perfmon: everything needed to give perf to a group without root.
for want in perf_event_paranoid 'groupadd perf_users' 'chgrp perf_users' 'chmod 0750' \
	    'setcap cap_perfmon,cap_syslog=ep' 'setcap -v cap_perfmon,cap_syslog=ep' \
	    'getcap' cap_ipc_lock cap_sys_ptrace 'before Linux 5.9' 'older' \
	    'cap_sys_admin' 'cap_perfmon   @perf_users' 'pam_cap.so' \
	    'capability.conf' '^cap_perfmon' 'perf_event_mlock_kb' 'kptr_restrict'; do
	grep -qF -- "$want" "$tmp/body.perfmon" || bad "cap_perfmon: lacks '$want'"
done

# Numbers without a name, and values that are not capabilities.
for v in 41 50 63; do
	run "--explain=$v"
	hex=$(printf '0x%016x' $((1 << v)))
	[ $rc -eq 0 ] || bad "--explain=$v: exit $rc"
	printf '<unsupported> (%d) [/proc/self/status:CapXXX: %s]\n' $v "$hex" | cmp -s - "$tmp/out" ||
		bad "--explain=$v: $(cat "$tmp/out")"
done
run --explain=0x26; [ "$(sed -n 1p "$tmp/out")" = "cap_perfmon (38) [/proc/self/status:CapXXX: 0x0000004000000000]" ] || bad "--explain=0x26"
for v in 64 -1 foo "" 99999999999999999999 cap_chownx; do
	run "--explain=$v"
	[ $rc -eq 1 ] || bad "--explain=$v: exit $rc"
	[ -s "$tmp/out" ] && bad "--explain=$v: printed to stdout"
	# libcap's line, then (ours) the nearest name where one is near.
	{ printf "unrecognised value '%s'\n" "$v"
	  [ "$v" = cap_chownx ] &&
		echo "capsh: unknown capability 'cap_chownx'; did you mean cap_chown?"
	} | cmp -s - "$tmp/err" || bad "--explain=$v: stderr $(cat "$tmp/err")"
done
run --explain=cap_chown --explain=cap_kill
[ "$(grep -c '^cap_' "$tmp/out")" -eq 2 ] || bad "two --explain: want two headers"

# --suggest: case-insensitive over names and descriptions, blank line between.
run --suggest=PERFMON
[ $rc -eq 0 ] || bad "--suggest=PERFMON: exit $rc"
grep -q '^cap_perfmon (38) ' "$tmp/out" || bad "--suggest=PERFMON: no cap_perfmon"
grep -q '^cap_bpf (39) ' "$tmp/out" || bad "--suggest=PERFMON: no cap_bpf (description mentions it)"
heads=$(grep -c '^cap_' "$tmp/out")
# Every header after the first follows a blank line; the output ends without one.
awk 'NR > 1 && /^cap_/ && prev != "" { exit 1 } { prev = $0 }' "$tmp/out" || bad "--suggest: missing blank separator"
[ -n "$(tail -n 1 "$tmp/out")" ] || bad "--suggest: trailing blank line"
[ "$heads" -ge 5 ] || bad "--suggest=PERFMON: only $heads hits"
run --suggest=cap_setfcap; grep -q '^cap_setfcap (31)' "$tmp/out" || bad "--suggest by name"
run --suggest=zzzz-no-such-text; [ $rc -eq 0 ] && [ ! -s "$tmp/out" ] || bad "--suggest with no hit"
run --suggest=; [ "$(grep -c '^cap_' "$tmp/out")" -eq 41 ] || bad "--suggest= should list all 41"
grep -q 'Allows a process to' "$tmp/out" && bad "--suggest=: libcap's text found"
[ $fail -eq 0 ] && echo "capsh --explain/--suggest: all checks passed"
exit $fail
