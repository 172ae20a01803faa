#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# capsh --explain and --suggest: libcap's header line format for every value
# 0..63, the error for anything else, our own descriptions (the facts the
# project promises: kernel versions, root equivalence, perf without root),
# and --suggest's case-insensitive search with blank-line separators.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
# Nothing here runs under valgrind: in the valgrind pass it would only
# repeat the plain pass.
[ "${VALGRIND:-0}" = 1 ] && skip "runs none of our code under valgrind (the plain and sanitizer passes run it)"
C=$BUILD/progs/capsh
[ -x "$C" ] || { fail "capsh not built"; finish; }

# Every capability of the one table of facts, in number order (its first
# line of each entry: CAP_FACT(number, NAME, name, "since", ...).
table=$TOP/private/caps.def
sed -n 's/^CAP_FACT(\([0-9]*\), *[A-Z0-9_]*, *\([a-z0-9_]*\), *"\([0-9.]*\)".*/\1 \2 \3/p' \
	"$table" >"$T/table"
names=$(awk '{ print $2 }' "$T/table")
count=$(wc -l <"$T/table")
[ "$count" -gt 40 ] && pass || fail "only $count capabilities read from $table"
last=$(($(cat /proc/sys/kernel/cap_last_cap 2>/dev/null || echo 40)))
# Three spellings of each value (name, number, upper case), all in one run;
# the expected header lines are built with the shell's own printf.
n=0 args=""
: >"$T/want"
for name in $names; do
	upper=$(echo "CAP_$name" | tr a-z A-Z)
	args="$args --explain=cap_$name --explain=$n --explain=$upper"
	prefix=""; [ $n -le "$last" ] || prefix="<reserved for> "
	printf '%scap_%s (%d) [/proc/self/status:CapXXX: 0x%016x]\n' "$prefix" "$name" $n $((1 << n)) >>"$T/want"
	n=$((n + 1))
done
[ $n -eq "$count" ] && pass || fail "only $n names checked"
awk '$1 != NR - 1 { exit 1 }' "$T/table" && pass || fail "$table: numbers not 0, 1, 2, ..."
# shellcheck disable=SC2086
run "$C" $args
[ $rc -eq 0 ] && pass || fail "--explain x123: exit $rc"
[ -s "$T/err" ] && fail "--explain x123: stderr $(head -n 3 "$T/err")" || pass
# Split into blocks at header lines; check each triple is identical, the
# blank second line, the indentation, the line length, "In Linux since",
# and that no line uses libcap's stock opening. Bodies go to body.<name>.
awk -v dir="$T" -v names="$names" -v n="$count" '
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
	END { flush(); if (blk != 3 * n - 1) printf "FAIL: %d blocks, want %d\n", blk + 1, 3 * n }
' "$T/out" >"$T/awk"
[ -s "$T/awk" ] && { cat "$T/awk"; fail "--explain text blocks (above)"; }
cmp -s "$T/want" "$T/got" && pass || { fail "--explain headers:"; diff "$T/want" "$T/got" | head; }
for name in $names; do
	[ -s "$T/body.$name" ] && pass || fail "cap_$name: no description"
done

since() { grep -q "In Linux since $2" "$T/body.$1" && pass || fail "cap_$1: want since $2"; }
# Each version the table gives, and (facts checked by hand) these:
while read -r _ name ver; do since "$name" "$ver"; done <"$T/table"
since chown 2.2; since sys_admin 2.2; since mknod 2.4; since lease 2.4
since audit_write 2.6.11; since setfcap 2.6.24; since mac_admin 2.6.25
since syslog 2.6.37; since wake_alarm 3.0; since block_suspend 3.5
since audit_read 3.16; since perfmon 5.8; since bpf 5.8; since checkpoint_restore 5.9
# The capabilities that amount to root say so.
for name in sys_admin setuid setgid dac_override sys_module sys_ptrace sys_rawio \
	    setfcap setpcap chown fowner mknod dac_read_search; do
	grep -qi 'root' "$T/body.$name" && pass || fail "cap_$name: no root-equivalence warning"
done
expect_line "$T/body.bpf" 'CAP_PERFMON' "cap_bpf: does not pair with CAP_PERFMON"
expect_line "$T/body.perfmon" 'CAP_SYS_ADMIN' "cap_perfmon: no CAP_SYS_ADMIN history"
expect_line "$T/body.syslog" 'perf' "cap_syslog: no perf note"
expect_line "$T/body.sys_ptrace" '5.9' "cap_sys_ptrace: no 5.9 perf note"
expect_line "$T/body.ipc_lock" 'perf_event_mlock_kb' "cap_ipc_lock: no perf mlock note"
# cap_perfmon: everything needed to give perf to a group without root.
for want in perf_event_paranoid 'groupadd perf_users' 'chgrp perf_users' 'chmod 0750' \
	    'setcap cap_perfmon,cap_syslog=ep' 'setcap -v cap_perfmon,cap_syslog=ep' \
	    'getcap' cap_ipc_lock cap_sys_ptrace 'before Linux 5.9' 'older' \
	    'cap_sys_admin' 'cap_perfmon   @perf_users' 'pam_cap.so' \
	    'capability.conf' '^cap_perfmon' 'perf_event_mlock_kb' 'kptr_restrict'; do
	expect_line "$T/body.perfmon" "$want" "cap_perfmon: lacks '$want'"
done

# Numbers without a name (the first after the table's last, and two more),
# and values that are not capabilities.
for v in "$count" 62 63; do
	run "$C" "--explain=$v"
	hex=$(printf '0x%016x' $((1 << v)))
	what="<unsupported>"; [ "$v" -le "$last" ] && what="<unnamed in libcap>"
	[ $rc -eq 0 ] && pass || fail "--explain=$v: exit $rc"
	printf '%s (%d) [/proc/self/status:CapXXX: %s]\n' "$what" $v "$hex" | cmp -s - "$T/out" && pass ||
		fail "--explain=$v: $(cat "$T/out")"
done
run "$C" --explain=0x26; [ "$(sed -n 1p "$T/out")" = "cap_perfmon (38) [/proc/self/status:CapXXX: 0x0000004000000000]" ] && pass || fail "--explain=0x26"
for v in 64 -1 foo "" 99999999999999999999 cap_chownx; do
	run "$C" "--explain=$v"
	[ $rc -eq 1 ] && pass || fail "--explain=$v: exit $rc"
	[ -s "$T/out" ] && fail "--explain=$v: printed to stdout" || pass
	# libcap's line, then (ours) the nearest name where one is near.
	{ printf "unrecognised value '%s'\n" "$v"
	  [ "$v" = cap_chownx ] &&
		echo "capsh: unknown capability 'cap_chownx'; did you mean cap_chown?"
	} | cmp -s - "$T/err" && pass || fail "--explain=$v: stderr $(cat "$T/err")"
done
run "$C" --explain=cap_chown --explain=cap_kill
[ "$(grep -c '^cap_' "$T/out")" -eq 2 ] && pass || fail "two --explain: want two headers"

# --suggest: case-insensitive over names and descriptions, blank line between.
run "$C" --suggest=PERFMON
[ $rc -eq 0 ] && pass || fail "--suggest=PERFMON: exit $rc"
grep -q '^cap_perfmon (38) ' "$T/out" && pass || fail "--suggest=PERFMON: no cap_perfmon"
grep -q '^cap_bpf (39) ' "$T/out" && pass || fail "--suggest=PERFMON: no cap_bpf (description mentions it)"
heads=$(grep -c '^cap_' "$T/out")
# Every header after the first follows a blank line; the output ends without one.
awk 'NR > 1 && /^cap_/ && prev != "" { exit 1 } { prev = $0 }' "$T/out" && pass || fail "--suggest: missing blank separator"
[ -n "$(tail -n 1 "$T/out")" ] && pass || fail "--suggest: trailing blank line"
[ "$heads" -ge 5 ] && pass || fail "--suggest=PERFMON: only $heads hits"
run "$C" --suggest=cap_setfcap; grep -q '^cap_setfcap (31)' "$T/out" && pass || fail "--suggest by name"
run "$C" --suggest=zzzz-no-such-text; [ $rc -eq 0 ] && [ ! -s "$T/out" ] && pass || fail "--suggest with no hit"
run "$C" --suggest=; [ "$(grep -c '^\(<reserved for> \)\{0,1\}cap_' "$T/out")" -eq "$count" ] && pass || fail "--suggest= should list all $count"
grep -q 'Allows a process to' "$T/out" && fail "--suggest=: libcap's text found" || pass
finish "capsh --explain/--suggest: all checks passed"
