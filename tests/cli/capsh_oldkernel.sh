#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# capsh on a kernel older than its names, simulated by $BIN/oldkernel (a
# seccomp filter that answers prctl questions about capabilities above the
# given one with EINVAL): 37 is a pre-5.8 kernel without CAP_PERFMON and
# CAP_BPF, 39 a 5.8 kernel without CAP_CHECKPOINT_RESTORE. --explain marks
# the missing ones "<reserved for>", --supports rejects them, --print and
# "all" stop at the kernel's last capability. Where libcap's capsh is
# installed, the same runs under the same filter must print the same.
set -u
# Nothing here runs under valgrind: in the valgrind pass it would only
# repeat the plain pass.
[ "${VALGRIND:-0}" = 1 ] && { echo "skipped: runs none of our code under valgrind (the plain and sanitizer passes run it)"; exit 77; }
C=$BUILD/progs/capsh ref=/usr/sbin/capsh old=$BIN/oldkernel
[ -x "$C" ] && [ -x "$old" ] || { echo "capsh or oldkernel not built"; exit 1; }
"$old" 37 /bin/true; rc=$?
[ $rc -eq 0 ] || { echo "skipped: seccomp filter unavailable here (exit $rc)"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
nl='
'
run() { "$old" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null; rc=$?; }

run 37 "$C" --explain=cap_perfmon
[ "$(sed -n 1p "$tmp/out")" = "<reserved for> cap_perfmon (38) [/proc/self/status:CapXXX: 0x0000004000000000]" ] ||
	bad "--explain=cap_perfmon on 5.7: $(sed -n 1p "$tmp/out")"
grep -q 'In Linux since 5.8' "$tmp/out" || bad "reserved cap lost its description"
run 37 "$C" --explain=cap_audit_read
[ "$(sed -n 1p "$tmp/out")" = "cap_audit_read (37) [/proc/self/status:CapXXX: 0x0000002000000000]" ] || bad "--explain=37 on 5.7"
run 39 "$C" --explain=40
[ "$(sed -n 1p "$tmp/out")" = "<reserved for> cap_checkpoint_restore (40) [/proc/self/status:CapXXX: 0x0000010000000000]" ] || bad "--explain=40 on 5.8"
run 39 "$C" --explain=cap_bpf
[ "$(sed -n 1p "$tmp/out")" = "cap_bpf (39) [/proc/self/status:CapXXX: 0x0000008000000000]" ] || bad "--explain=cap_bpf on 5.8"
run 37 "$C" --suggest=perf_event_paranoid
grep -q '^<reserved for> cap_perfmon (38)' "$tmp/out" || bad "--suggest on 5.7"

run 37 "$C" --supports=cap_perfmon
[ $rc -eq 1 ] && [ "$(cat "$tmp/err")" = "cap[cap_perfmon=38] not supported by kernel" ] || bad "--supports=cap_perfmon on 5.7: $rc"
run 37 "$C" --supports=cap_audit_read; [ $rc -eq 0 ] || bad "--supports=cap_audit_read on 5.7"
run 39 "$C" --supports=cap_bpf; [ $rc -eq 0 ] || bad "--supports=cap_bpf on 5.8"
run 39 "$C" --supports=cap_checkpoint_restore; [ $rc -eq 1 ] || bad "--supports=40 on 5.8"
run 37 "$C" --print
case $(sed -n 2p "$tmp/out") in
*cap_perfmon*|*cap_bpf*) bad "--print on 5.7 shows perfmon/bpf in the bounding set" ;;
esac
run 37 "$C" --has-b=cap_perfmon --dropped=cap_perfmon --has-a=cap_bpf
[ $rc -eq 0 ] || bad "--has-b/--dropped/--has-a on an unknown cap should pass (exit $rc)"

if [ -x "$ref" ]; then
	n=0
	for last in 37 39; do
		for args in --print --current --modes --mode "--supports=cap_perfmon" \
			"--supports=cap_bpf" "--supports=cap_checkpoint_restore" \
			"--decode=ffffffffff" "--has-b=cap_perfmon" "--dropped=cap_bpf" \
			"--has-a=cap_perfmon" "--has-p=cap_perfmon" "--addamb=cap_perfmon" \
			"--delamb=all --current" "--addamb=all" "--drop=cap_bpf" "--drop=all --print" \
			"--inh=all --current" "--iab=cap_chown --current" "--explain=64"; do
			n=$((n + 1))
			# shellcheck disable=SC2086
			"$old" $last "$ref" $args >"$tmp/r.out" 2>"$tmp/r.err" </dev/null; rrc=$?
			# shellcheck disable=SC2086
			"$old" $last "$C" $args >"$tmp/o.out" 2>"$tmp/o.err" </dev/null; orc=$?
			if [ $rrc != $orc ] || ! cmp -s "$tmp/r.out" "$tmp/o.out" || ! cmp -s "$tmp/r.err" "$tmp/o.err"; then
				bad "last cap $last, capsh $args differs from libcap ($rrc vs $orc)"
				diff "$tmp/r.out" "$tmp/o.out" | head -4
				diff "$tmp/r.err" "$tmp/o.err" | head -4
			fi
		done
		for v in 37 38 39 40 41; do
			n=$((n + 1))
			h1=$("$old" $last "$ref" --explain=$v | sed -n 1p)
			h2=$("$old" $last "$C" --explain=$v | sed -n 1p)
			[ "$h1" = "$h2" ] || bad "last cap $last, --explain=$v header: libcap [$h1] ours [$h2]"
		done
	done
	echo "$n runs compared with libcap's capsh under the same filter"
fi
[ $fail -eq 0 ] && echo "capsh on simulated older kernels: all checks passed"
exit $fail
