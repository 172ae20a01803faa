#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# The harness's own rules, on throw-away suites run by the real lib.sh and
# run.sh: a skip after a counted failure is a failure; a checked clean-up
# that fails (a host setting not put back) fails a suite that passed or
# skipped; run.sh fails a suite that outlives SUITE_TIMEOUT, with its log,
# instead of waiting for it, and one in whose processes valgrind or a
# sanitizer found an error, whatever the suite's own checks said.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
[ "${VALGRIND:-0}" = 1 ] && skip "runs none of our code under valgrind"

# suite NAME BODY: a suite file sourcing this lib.sh.
suite() {
	printf '%s\n' '#!/bin/sh' ". \"$TESTS_DIR/lib.sh\"" init "$2" >"$T/$1.sh"
}
# outcome NAME WANT_RC CASE: runs suite NAME on its own.
outcome() {
	(d=$T; unset LIB_SH_LOADED T; sh "$d/$1.sh") >"$T/$1.log" 2>&1
	got=$?
	if [ "$got" -eq "$2" ]; then pass; else fail "$3: exit $got, want $2"; sed 's/^/    /' "$T/$1.log"; fi
}

suite skip_clean 'skip "nothing to do"'
outcome skip_clean 77 "a skip with no failure"
suite skip_after_fail 'fail "first"; skip "later"'
outcome skip_after_fail 1 "a skip after a failed check"
grep -q '^FAIL: 1 failed before a skip: later$' "$T/skip_after_fail.log" ||
	fail "the late skip does not say it follows a failure"

suite cleanup_ok 'at_exit_checked "true"; ok one; finish'
outcome cleanup_ok 0 "a checked clean-up that succeeds"
# The command, quotes and all, is what runs.
suite cleanup_bad "at_exit_checked \"echo 'it'\\''s' >'$T/said'; false\"; ok one; finish"
outcome cleanup_bad 1 "a checked clean-up that fails, after a pass"
[ "$(cat "$T/said" 2>/dev/null)" = "it's" ] || fail "the checked clean-up did not run as written"
grep -q "^FAIL: clean-up failed: " "$T/cleanup_bad.log" ||
	fail "the failed clean-up is not named"
suite cleanup_skip 'at_exit_checked false; skip "nothing"'
outcome cleanup_skip 1 "a checked clean-up that fails, after a skip"
suite cleanup_plain 'at_exit false; ok one; finish'
outcome cleanup_plain 0 "an unchecked clean-up may fail (kill of a dead helper)"

# tracefs helpers act only in a private mount namespace.
suite tracefs_here 'LIB_OUTER_MNT_NS=$(readlink /proc/self/ns/mnt); if tracefs_mount; then fail "mounted in the outer namespace"; fi; finish'
outcome tracefs_here 0 "tracefs_mount refuses the namespace the suite started in"

# run.sh: a suite that hangs is failed after SUITE_TIMEOUT.
printf '%s\n' '#!/bin/sh' 'echo started' "sleep 600 & echo \$! >'$T/hang.pid'; wait" >"$T/hang.sh"
printf '%s\n' '#!/bin/sh' 'exit 0' >"$T/quick.sh"
start=$(date +%s)
# Not the outer run's TEST_SUMMARY: these verdicts are not the real run's.
TESTS="$T/hang.sh $T/quick.sh" SUITE_TIMEOUT=2 LOGDIR="$T/logs" JOBS=2 TEST_SUMMARY= \
	sh "$TESTS_DIR/run.sh" >"$T/run.out" 2>&1
rc=$?
took=$(($(date +%s) - start))
[ "$rc" -ne 0 ] || fail "run.sh passed a run whose suite hung"
grep -q "^FAIL: $T/hang.sh (exit 124" "$T/run.out" || { fail "the hung suite is not failed as timed out"; sed 's/^/    /' "$T/run.out"; }
grep -q "run.sh: timed out after 2 s" "$T/run.out" || fail "the log does not say it timed out"
grep -q "^PASS: $T/quick.sh" "$T/run.out" || fail "the other suite's verdict is missing"
[ "$took" -lt 60 ] || fail "run.sh took $took s for a 2 s time-out"
child=$(cat "$T/hang.pid" 2>/dev/null) || fail "the hung suite never started its child"
sleep 1	# timeout(1) signalled the group; let it go
# Gone, or a zombie waiting for whoever inherited it.
state=$(ps -o stat= -p "${child:-0}" 2>/dev/null)
case $state in
''|Z*) ;;
*) kill "$child"; fail "the hung suite's child outlived the time-out ($state)" ;;
esac
# run.sh's passes are its own to run: a suite does not inherit PASSES.
# One that runs run.sh again (progs_host_preset.sh) would otherwise repeat
# every pass of "make test" inside the plain one, the sanitizer pass's
# build of the tree included, racing the outer run's own.
printf '%s\n' '#!/bin/sh' "echo \"[\${PASSES-unset}]\" >'$T/passes.seen'" >"$T/passes.sh"
PASSES=plain TESTS="$T/passes.sh" LOGDIR="$T/logs" TEST_SUMMARY= \
	sh "$TESTS_DIR/run.sh" >"$T/run2.out" 2>&1 ||
	{ fail "run.sh failed a suite that only writes a file"; sed 's/^/    /' "$T/run2.out"; }
[ "$(cat "$T/passes.seen" 2>/dev/null)" = "[unset]" ] ||
	fail "a suite sees run.sh's PASSES: $(cat "$T/passes.seen" 2>/dev/null)"
# run.sh's valgrind pass: a memcheck report fails the suite, even one
# whose own checks all passed and that never looked at the exit status or
# stderr (as the pam suites compared only pamcase's output line); valgrind's
# own warnings (a system call it does not know) do not.
if command -v valgrind >/dev/null 2>&1 && command -v cc >/dev/null 2>&1; then
	# leak: its forked child loses a block (the parent frees its own);
	# leak warn: no leak, one system call valgrind does not know.
	printf '%s\n' '#include <stdlib.h>' '#include <unistd.h>' \
		'int main(int c, char **v) { char *volatile p = malloc(40); p[0] = 1;' \
		'(void)v; if (c > 1) syscall(1000);' \
		'else if (fork() == 0) { p = NULL; _exit(0); }' \
		'free(p); return 0; }' >"$T/leak.c"
	cc -O0 -o "$T/leak" "$T/leak.c" || fail "cannot build the leaking program"
	suite vg_leak "run_ours '$T/leak' >/dev/null 2>&1; ok ran; finish"
	suite vg_warn "run_ours '$T/leak' warn 2>/dev/null; ok ran; finish"
	VALGRIND=1 TESTS="$T/vg_leak.sh $T/vg_warn.sh" LOGDIR="$T/vglogs" TEST_SUMMARY= \
		sh "$TESTS_DIR/run.sh" >"$T/run3.out" 2>&1
	grep -q "^FAIL: $T/vg_leak.sh (exit 1" "$T/run3.out" ||
		{ fail "a suite whose program leaks passes under valgrind"; sed 's/^/    /' "$T/run3.out"; }
	grep -q "definitely lost" "$T/run3.out" || fail "the leak report is not shown"
	grep -q "^FAIL: $T/vg_warn.sh" "$T/run3.out" &&
		{ fail "valgrind's warning about a system call failed a suite"; sed 's/^/    /' "$T/run3.out"; }
fi
# The sanitizer pass likewise: LeakSanitizer's report at exit (status 23)
# fails the suite that ignored the status.
if command -v cc >/dev/null 2>&1 &&
   printf 'int main(void) { return 0; }\n' | cc -fsanitize=address -x c -o "$T/asan_ok" - 2>/dev/null; then
	printf '%s\n' '#include <stdlib.h>' \
		'int main(void) { char *volatile p = malloc(40); p[0] = 1; p = NULL; return 0; }' \
		>"$T/aleak.c"
	cc -O0 -fsanitize=address -o "$T/aleak" "$T/aleak.c" || fail "cannot build the ASan leak"
	suite san_leak "'$T/aleak' >/dev/null 2>&1; ok ran; finish"
	suite san_clean "'$T/asan_ok'; ok ran; finish"
	SANITIZE=address TESTS="$T/san_leak.sh $T/san_clean.sh" LOGDIR="$T/sanlogs" TEST_SUMMARY= \
		sh "$TESTS_DIR/run.sh" >"$T/run4.out" 2>&1
	grep -q "^FAIL: $T/san_leak.sh (exit 1" "$T/run4.out" ||
		{ fail "a suite whose program leaks passes under ASan"; sed 's/^/    /' "$T/run4.out"; }
	grep -q "^PASS: $T/san_clean.sh" "$T/run4.out" ||
		{ fail "a clean program fails under ASan"; sed 's/^/    /' "$T/run4.out"; }
fi
# The unit suites' marker for a foreign child (check_run.h) is the one
# run.sh's valgrind skips: were they to drift, every shell a suite reads
# back through would run under memcheck again, at ten times the cost.
mark=$(sed -n 's/^#define UNTRACED_FOREIGN "\(.*\)"$/\1/p' "$TESTS_DIR/unit/check_run.h")
[ -n "$mark" ] && grep -q -- "--trace-children-skip-by-arg=\*$mark\*" "$TESTS_DIR/run.sh" ||
	fail "run.sh's valgrind does not skip check_run.h's UNTRACED_FOREIGN ('$mark')"
finish "skip after failure, checked clean-ups, suite time-outs and the passes behave"
