#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# capsh on a kernel older than its names, simulated by $BIN/oldkernel (a
# seccomp filter that answers prctl questions about capabilities above the
# given one with EINVAL): 37 is a pre-5.8 kernel without CAP_PERFMON and
# CAP_BPF, 39 a 5.8 kernel without CAP_CHECKPOINT_RESTORE. --explain marks
# the missing ones "<reserved for>", --supports rejects them, --print and
# "all" stop at the kernel's last capability. Where libcap's capsh is
# installed, the same runs under the same filter must print the same.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
# Nothing here runs under valgrind: in the valgrind pass it would only
# repeat the plain pass.
[ "${VALGRIND:-0}" = 1 ] && skip "runs none of our code under valgrind (the plain and sanitizer passes run it)"
C=$BUILD/progs/capsh old=$BIN/oldkernel
[ -x "$C" ] && [ -x "$old" ] || { fail "capsh or oldkernel not built"; finish; }
"$old" 37 /bin/true; rc=$?
# 77 is the tool's own "no seccomp filters here"; anything else is a failure.
[ $rc -ne 77 ] || skip "seccomp filter unavailable here"
[ $rc -eq 0 ] || { fail "oldkernel 37 /bin/true: exit $rc"; finish; }
nl='
'

run "$old" 37 "$C" --explain=cap_perfmon
[ "$(sed -n 1p "$T/out")" = "<reserved for> cap_perfmon (38) [/proc/self/status:CapXXX: 0x0000004000000000]" ] && pass ||
	fail "--explain=cap_perfmon on 5.7: $(sed -n 1p "$T/out")"
expect_line "$T/out" 'In Linux since 5.8' "reserved cap lost its description"
run "$old" 37 "$C" --explain=cap_audit_read
[ "$(sed -n 1p "$T/out")" = "cap_audit_read (37) [/proc/self/status:CapXXX: 0x0000002000000000]" ] && pass || fail "--explain=37 on 5.7"
run "$old" 39 "$C" --explain=40
[ "$(sed -n 1p "$T/out")" = "<reserved for> cap_checkpoint_restore (40) [/proc/self/status:CapXXX: 0x0000010000000000]" ] && pass || fail "--explain=40 on 5.8"
run "$old" 39 "$C" --explain=cap_bpf
[ "$(sed -n 1p "$T/out")" = "cap_bpf (39) [/proc/self/status:CapXXX: 0x0000008000000000]" ] && pass || fail "--explain=cap_bpf on 5.8"
run "$old" 37 "$C" --suggest=perf_event_paranoid
grep -q '^<reserved for> cap_perfmon (38)' "$T/out" && pass || fail "--suggest on 5.7"

run "$old" 37 "$C" --supports=cap_perfmon
[ $rc -eq 1 ] && [ "$(cat "$T/err")" = "cap[cap_perfmon=38] not supported by kernel" ] && pass || fail "--supports=cap_perfmon on 5.7: $rc"
run "$old" 37 "$C" --supports=cap_audit_read; [ $rc -eq 0 ] && pass || fail "--supports=cap_audit_read on 5.7"
run "$old" 39 "$C" --supports=cap_bpf; [ $rc -eq 0 ] && pass || fail "--supports=cap_bpf on 5.8"
run "$old" 39 "$C" --supports=cap_checkpoint_restore; [ $rc -eq 1 ] && pass || fail "--supports=40 on 5.8"
run "$old" 37 "$C" --print
case $(sed -n 2p "$T/out") in
*cap_perfmon*|*cap_bpf*) fail "--print on 5.7 shows perfmon/bpf in the bounding set" ;;
esac
run "$old" 37 "$C" --has-b=cap_perfmon --dropped=cap_perfmon --has-a=cap_bpf
[ $rc -eq 0 ] && pass || fail "--has-b/--dropped/--has-a on an unknown cap should pass (exit $rc)"

if has_reference 2.66; then
	ref=$REF/capsh
	first_unnamed=$(grep -c '^CAP_FACT(' "$TOP/private/caps.def")
	[ "$first_unnamed" -gt 41 ] || first_unnamed=41
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
			"$old" $last "$ref" $args >"$T/r.out" 2>"$T/r.err" </dev/null; rrc=$?
			# shellcheck disable=SC2086
			"$old" $last "$C" $args >"$T/o.out" 2>"$T/o.err" </dev/null; orc=$?
			if [ $rrc != $orc ] || ! cmp -s "$T/r.out" "$T/o.out" || ! cmp -s "$T/r.err" "$T/o.err"; then
				fail "last cap $last, capsh $args differs from libcap ($rrc vs $orc)"
				diff "$T/r.out" "$T/o.out" | head -4
				diff "$T/r.err" "$T/o.err" | head -4
			else
				pass
			fi
		done
		# Up to libcap 2.66's last name, then the first number neither names.
		for v in 37 38 39 40 $first_unnamed; do
			n=$((n + 1))
			h1=$("$old" $last "$ref" --explain=$v | sed -n 1p)
			h2=$("$old" $last "$C" --explain=$v | sed -n 1p)
			[ "$h1" = "$h2" ] && pass || fail "last cap $last, --explain=$v header: libcap [$h1] ours [$h2]"
		done
	done
	echo "$n runs compared with libcap's capsh under the same filter"
else
	not_checked "not compared with libcap's capsh: $reference_why"
fi
finish "capsh on simulated older kernels: all checks passed"
