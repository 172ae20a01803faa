#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# The harness's own rules, on throw-away suites run by the real lib.sh and
# run.sh: a skip after a counted failure is a failure; a checked clean-up
# that fails (a host setting not put back) fails a suite that passed or
# skipped; run.sh fails a suite that outlives SUITE_TIMEOUT, with its log,
# instead of waiting for it, and one in whose processes valgrind or a
# sanitizer found an error, whatever the suite's own checks said; a suite
# that checked nothing fails, in lib.sh's finish and in run.sh, and the
# parts a passing suite could not check are named.
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
grep -q '^FAIL: 1 failed before a skip: later$' "$T/skip_after_fail.log" && pass ||
	fail "the late skip does not say it follows a failure"

suite cleanup_ok 'at_exit_checked "true"; ok one; finish'
outcome cleanup_ok 0 "a checked clean-up that succeeds"
# The command, quotes and all, is what runs.
suite cleanup_bad "at_exit_checked \"echo 'it'\\''s' >'$T/said'; false\"; ok one; finish"
outcome cleanup_bad 1 "a checked clean-up that fails, after a pass"
[ "$(cat "$T/said" 2>/dev/null)" = "it's" ] && pass || fail "the checked clean-up did not run as written"
grep -q "^FAIL: clean-up failed: " "$T/cleanup_bad.log" && pass ||
	fail "the failed clean-up is not named"
suite cleanup_skip 'at_exit_checked false; skip "nothing"'
outcome cleanup_skip 1 "a checked clean-up that fails, after a skip"
suite cleanup_plain 'at_exit false; ok one; finish'
outcome cleanup_plain 0 "an unchecked clean-up may fail (kill of a dead helper)"

# tracefs helpers act only in a private mount namespace.
suite tracefs_here 'LIB_OUTER_MNT_NS=$(readlink /proc/self/ns/mnt); if tracefs_mount; then fail "mounted in the outer namespace"; else ok refused; fi; finish'
outcome tracefs_here 0 "tracefs_mount refuses the namespace the suite started in"

# The tracefs lock (on a file of our own here, not the machine's): a
# second suite waits until the holder exits; a suite started by a holder
# (LIB_TRACEFS_LOCKED, as progs_host_preset.sh's inner suites) does not.
lock=$T/tracefs.lock
suite lock_hold "lib_tracefs_lock || fail lock; : >'$T/held'; sleep 2; date +%s%N >'$T/released'; finish"
suite lock_wait "lib_tracefs_lock || fail lock; date +%s%N >'$T/got'; finish"
suite lock_nested "LIB_TRACEFS_LOCKED=1 lib_tracefs_lock || fail lock; date +%s%N >'$T/nested'; finish"
(d=$T; unset LIB_SH_LOADED T; LIB_TRACEFS_LOCK=$lock sh "$d/lock_hold.sh") >"$T/lock_hold.log" 2>&1 &
holder=$!
i=0
while [ ! -e "$T/held" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
(d=$T; unset LIB_SH_LOADED T; LIB_TRACEFS_LOCK=$lock sh "$d/lock_nested.sh") >"$T/lock_nested.log" 2>&1
(d=$T; unset LIB_SH_LOADED T; LIB_TRACEFS_LOCK=$lock sh "$d/lock_wait.sh") >"$T/lock_wait.log" 2>&1
wait $holder
if [ ! -e "$T/held" ] || [ ! -s "$T/got" ] || [ ! -s "$T/released" ] || [ ! -s "$T/nested" ]; then
	fail "the tracefs lock suites did not run: $(cat "$T"/lock_*.log)"
elif [ "$(cat "$T/got")" -lt "$(cat "$T/released")" ]; then
	fail "a second suite took the tracefs lock while the first held it"
elif [ "$(cat "$T/nested")" -gt "$(cat "$T/released")" ]; then
	fail "a suite run under the holder waited for the holder's own lock"
else
	pass
fi

# run.sh builds what the suites need for its BUILD (the tree and the test
# programs: "make" alone builds no test program), unless its caller did
# (RUN_SH_BUILT, as "make test" and an outer run.sh set it). A recorder
# stands for make here: the real build is not this suite's to redo.
mkdir "$T/fakemake"
printf '%s\n' '#!/bin/sh' "printf '%s\\n' \"\$*\" >>'$T/made'" >"$T/fakemake/make"
chmod 755 "$T/fakemake/make"
printf '%s\n' '#!/bin/sh' 'exit 0' >"$T/nothing.sh"
(unset RUN_SH_BUILT; PATH="$T/fakemake:$PATH" TESTS="$T/nothing.sh" BUILD="$T/b" LOGDIR="$T/blogs" \
	TEST_SUMMARY= sh "$TESTS_DIR/run.sh") >"$T/build.out" 2>&1
if grep -q -- "-C $TOP all BUILD=$T/b SANITIZE=\$" "$T/made" 2>/dev/null &&
   grep -q -- "-C $TOP/tests all BUILD=$T/b SANITIZE=\$" "$T/made"; then
	pass
else
	fail "run.sh did not build the tree and the test programs for its BUILD: $(cat "$T/made" "$T/build.out" 2>&1)"
fi
rm -f "$T/made"
(RUN_SH_BUILT=1 PATH="$T/fakemake:$PATH" TESTS="$T/nothing.sh" BUILD="$T/b" LOGDIR="$T/blogs" \
	TEST_SUMMARY= sh "$TESTS_DIR/run.sh") >"$T/build.out" 2>&1
[ ! -e "$T/made" ] && pass || fail "run.sh built again what its caller had built: $(cat "$T/made")"

# run.sh: a suite that hangs is failed after SUITE_TIMEOUT.
printf '%s\n' '#!/bin/sh' 'echo started' "sleep 600 & echo \$! >'$T/hang.pid'; wait" >"$T/hang.sh"
printf '%s\n' '#!/bin/sh' 'echo "1 checks, 0 failed"' >"$T/quick.sh"
start=$(date +%s)
# Not the outer run's TEST_SUMMARY: these verdicts are not the real run's.
TESTS="$T/hang.sh $T/quick.sh" SUITE_TIMEOUT=2 LOGDIR="$T/logs" JOBS=2 TEST_SUMMARY= \
	sh "$TESTS_DIR/run.sh" >"$T/run.out" 2>&1
rc=$?
took=$(($(date +%s) - start))
[ "$rc" -ne 0 ] && pass || fail "run.sh passed a run whose suite hung"
grep -q "^FAIL: $T/hang.sh (exit 124" "$T/run.out" && pass || { fail "the hung suite is not failed as timed out"; sed 's/^/    /' "$T/run.out"; }
grep -q "run.sh: timed out after 2 s" "$T/run.out" && pass || fail "the log does not say it timed out"
grep -q "^PASS: $T/quick.sh" "$T/run.out" && pass || fail "the other suite's verdict is missing"
[ "$took" -lt 60 ] && pass || fail "run.sh took $took s for a 2 s time-out"
child=$(cat "$T/hang.pid" 2>/dev/null) && pass || fail "the hung suite never started its child"
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
printf '%s\n' '#!/bin/sh' "echo \"[\${PASSES-unset}]\" >'$T/passes.seen'" \
	'echo "1 checks, 0 failed"' >"$T/passes.sh"
PASSES=plain TESTS="$T/passes.sh" LOGDIR="$T/logs" TEST_SUMMARY= \
	sh "$TESTS_DIR/run.sh" >"$T/run2.out" 2>&1 && pass ||
	{ fail "run.sh failed a suite that only writes a file"; sed 's/^/    /' "$T/run2.out"; }
[ "$(cat "$T/passes.seen" 2>/dev/null)" = "[unset]" ] && pass ||
	fail "a suite sees run.sh's PASSES: $(cat "$T/passes.seen" 2>/dev/null)"
# A suite that checked nothing has not passed. lib.sh's finish fails it
# (a loop over an empty list, every case left out); run.sh fails one that
# exits 0 without finish's count above zero (a shell suite) or Check's
# (a unit suite), and names what a passing suite left unchecked.
suite none 'for f in $(ls "$T/no such dir" 2>/dev/null); do ok "$f"; done; finish'
outcome none 1 "finish with no check counted"
grep -qx '0 checks, 0 failed' "$T/none.log" && grep -q '^FAIL: ran no check' "$T/none.log" && pass ||
	{ fail "finish with no check does not say it ran none"; sed 's/^/    /' "$T/none.log"; }
suite some_left 'not_checked "perf stat: perf is not installed"; ok rest; finish'
outcome some_left 0 "a pass with one part not checked"
grep -qx '1 checks, 0 failed, 1 not checked: perf stat: perf is not installed' "$T/some_left.log" && pass ||
	{ fail "finish does not name the part not checked"; sed 's/^/    /' "$T/some_left.log"; }
# A run inside the suite (sh "$0" --inside, as deb_packages.sh does) is
# counted by the outer run, whose finish line is the suite's.
suite nested 'if [ "${1:-}" = --inside ]; then ok a; ok b; not_checked "c: none here"; finish; fi
LIB_T=$T LIB_COUNTS=$T/nested.counts sh "$0" --inside && pass || fail inner
add_counts "$T/nested.counts"; finish'
outcome nested 0 "a suite that counts the run inside it"
[ "$(tail -n 1 "$T/nested.log")" = "3 checks, 0 failed, 1 not checked: c: none here" ] && pass ||
	{ fail "the outer finish line does not count the run inside"; sed 's/^/    /' "$T/nested.log"; }
suite nested_lost 'if [ "${1:-}" = --inside ]; then ok a; exit 0; fi
LIB_T=$T LIB_COUNTS=$T/lost.counts sh "$0" --inside && pass || fail inner
add_counts "$T/lost.counts"; finish'
outcome nested_lost 1 "a run inside that never reached its finish"
printf '%s\n' '#!/bin/sh' 'echo "nothing to see"; exit 0' >"$T/silent.sh"
printf '%s\n' '#!/bin/sh' 'echo "0 checks, 0 failed"; exit 0' >"$T/zero.sh"
mkdir -p "$T/nb/tests/bin"
printf '%s\n' '#!/bin/sh' 'echo "100%: Checks: 0, Failures: 0, Errors: 0"' >"$T/nb/tests/bin/check_empty"
printf '%s\n' '#!/bin/sh' 'echo "100%: Checks: 2, Failures: 0, Errors: 0"' >"$T/nb/tests/bin/check_two"
chmod 755 "$T/nb/tests/bin/check_empty" "$T/nb/tests/bin/check_two"
RUN_SH_BUILT=1 BUILD="$T/nb" TESTS="$T/silent.sh $T/zero.sh $T/some_left.sh unit/check_empty unit/check_two" \
	LOGDIR="$T/nlogs" TEST_SUMMARY= sh "$TESTS_DIR/run.sh" >"$T/run5.out" 2>&1
rc=$?
for s in "$T/silent.sh" "$T/zero.sh" unit/check_empty; do
	if grep -q "^FAIL: $s (exit 0 but ran no check; " "$T/run5.out"; then
		pass
	else
		fail "run.sh does not fail $s, which exited 0 having checked nothing"
		sed 's/^/    /' "$T/run5.out"
	fi
done
grep -q "^PASS: $T/some_left.sh (.*; 1 not checked: perf stat: perf is not installed)\$" "$T/run5.out" &&
	grep -q '^PASS: unit/check_two ' "$T/run5.out" &&
	grep -qx 'suites: 2 passed, 3 failed, 0 skipped; 1 parts of passed suites not checked (named above)' "$T/run5.out" &&
	[ "$rc" -ne 0 ] && pass ||
	{ fail "run.sh's verdicts on suites that counted their checks (exit $rc)"; sed 's/^/    /' "$T/run5.out"; }

# need_reference: a differential suite on a system whose libcap is not
# the version it compares with, and without the pinned copy (an empty
# cache, the archive a closed port on the loopback), skips, naming what
# the system has and how to get the copy; dpkg-query is faked by one
# earlier in PATH that answers from $T/fake/versions. (With the copy at
# hand it compares: root/harness_reference.sh.)
mkdir "$T/fake"
cat >"$T/fake/dpkg-query" <<'DQ'
#!/bin/sh
for pkg; do :; done
awk -v p="$pkg" '$1 == p { print $2 "  " $3; found = 1 } END { exit !found }' \
	"$(dirname "$0")/versions" || { echo "dpkg-query: no packages found matching $pkg" >&2; exit 1; }
DQ
chmod 755 "$T/fake/dpkg-query"
# refsuite NAME VERSIONS BODY: a suite seeing the packages VERSIONS.
refsuite() {
	printf '%s\n' "$2" >"$T/fake/versions.$1"
	suite "$1" "PATH=\"$T/fake:\$PATH\"; cp '$T/fake/versions.$1' '$T/fake/versions'
LIBCAP_REF_CACHE='$T/nocache' LIBCAP_REF_MIRROR=$nomirror; export LIBCAP_REF_CACHE LIBCAP_REF_MIRROR
unset LIBCAP_REF_PINNED
$3"
}
nomirror=http://127.0.0.1:9/debian
# no_copy LOG: the part of a skip after what the system has.
no_copy=", and its pinned copy cannot be had: libcap_ref: cannot download $nomirror/"
no_copy_how="with the network, run \"make test-refs\" once (it fills $T/nocache)"
deb12='libcap2 ii 1:2.66-4+deb12u3+b1
libcap2-bin ii 1:2.66-4+deb12u3+b1'
refsuite ref_same "$deb12" 'need_reference 2.66; ok same; finish'
outcome ref_same 0 "need_reference 2.66 on 2.66"
refsuite ref_newer "libcap2 ii 1:2.75-10+deb13u1
libcap2-bin ii 1:2.75-10+deb13u1" 'need_reference 2.66; ok "ran on"; finish'
outcome ref_newer 77 "need_reference 2.66 on 2.75"
grep -qF "skipped: needs Debian's libcap 2.66 as its reference; the system has libcap2 2.75$no_copy" \
	"$T/ref_newer.log" && grep -qF "$no_copy_how" "$T/ref_newer.log" && pass ||
	{ fail "the skip does not name both versions and make test-refs"; sed 's/^/    /' "$T/ref_newer.log"; }
# Only the programs newer: the package named is the one that differs.
refsuite ref_bin "libcap2 ii 1:2.66-4
libcap2-bin ii 2.78-1" 'need_reference 2.66; finish'
outcome ref_bin 77 "need_reference 2.66, libcap2-bin 2.78"
grep -qF "skipped: needs Debian's libcap 2.66 as its reference; the system has libcap2-bin 2.78$no_copy" \
	"$T/ref_bin.log" && pass || { fail "the skip does not name libcap2-bin 2.78"; sed 's/^/    /' "$T/ref_bin.log"; }
# Removed (its conffiles left) or never installed: not installed.
refsuite ref_gone "libcap2 ii 1:2.66-4
libcap2-bin rc 1:2.66-4" 'need_reference 2.66; finish'
outcome ref_gone 77 "need_reference 2.66, libcap2-bin removed"
grep -qF "skipped: needs Debian's libcap 2.66 as its reference; libcap2-bin is not installed$no_copy" \
	"$T/ref_gone.log" && pass || { fail "the skip does not say libcap2-bin is not installed"; sed 's/^/    /' "$T/ref_gone.log"; }
refsuite ref_dev "$deb12" 'need_reference 2.66 libcap2 libcap-dev; finish'
outcome ref_dev 77 "need_reference 2.66 libcap2 libcap-dev, no libcap-dev"
grep -qF "skipped: needs Debian's libcap 2.66 as its reference; libcap-dev is not installed$no_copy" \
	"$T/ref_dev.log" && pass || { fail "the skip does not name libcap-dev"; sed 's/^/    /' "$T/ref_dev.log"; }
# has_reference: the suite goes on without the comparison, told why.
refsuite ref_part "libcap2 ii 1:2.78-1
libcap2-bin ii 1:2.78-1" 'if has_reference 2.66; then fail compared; else not_checked "$reference_why"; fi; ok rest; finish'
outcome ref_part 0 "has_reference 2.66 on 2.78"
grep -qF "not checked: needs Debian's libcap 2.66 as its reference; the system has libcap2 2.78$no_copy" \
	"$T/ref_part.log" && pass || { fail "has_reference gives no reason"; sed 's/^/    /' "$T/ref_part.log"; }

# expect, expect_lines, expect_line, as_libcap: a pass, and one failure
# per case that names it and shows the difference.
suite expects 'expect 0 "a$nl" "" echo a
expect_lines 3 "" "b${nl}c" sh -c "printf \"b\\\\nc\\\\n\" >&2; exit 3"
printf "x\\ny\\n" >"$T/f"; expect_line "$T/f" y
finish'
outcome expects 0 "expect, expect_lines, expect_line that hold"
grep -qx '3 checks, 0 failed' "$T/expects.log" && pass || fail "three expectations are not three checks: $(cat "$T/expects.log")"
suite expect_bad 'expect_lines 0 "a" "" sh -c "echo b; echo oops >&2; exit 2"; finish'
outcome expect_bad 1 "expect_lines that does not hold"
printf '%s\n' 'FAIL: sh -c echo b; echo oops >&2; exit 2: exit 2, wanted 0; stdout differs; stderr differs (- wanted, + got)' \
	'    stdout:' '    @@ -1 +1 @@' '    -a' '    +b' '    stderr:' '    @@ -0,0 +1 @@' '    +oops' \
	'1 checks, 1 failed' >"$T/expect_bad.want"
same "$T/expect_bad.want" "$T/expect_bad.log" "expect_lines's one failure"
suite line_bad 'printf "x\\n" >"$T/f"; expect_line "$T/f" y report; finish'
outcome line_bad 1 "expect_line without the line"
grep -qx 'FAIL: report: no line with: y' "$T/line_bad.log" && pass || fail "expect_line's failure: $(cat "$T/line_bad.log")"
# as_libcap against a fake reference and a fake build: the programs' own
# paths are PROG's name on both sides, AS_LIBCAP_NORM edits both.
mkdir -p "$T/ref" "$T/build/progs"
printf '#!/bin/sh\necho "$0: $*"; echo "usage" >&2; exit 1\n' >"$T/ref/prog"
cp "$T/ref/prog" "$T/build/progs/prog"
printf '#!/bin/sh\necho "$0: $*"; echo "usage: more" >&2; exit 2\n' >"$T/build/progs/worse"
cp "$T/ref/prog" "$T/ref/worse"
chmod 755 "$T/ref/prog" "$T/ref/worse" "$T/build/progs/prog" "$T/build/progs/worse"
suite as_libcap "REF='$T/ref' BUILD='$T/build'
as_libcap prog -x
as_libcap --case=named prog -x
drop_more() { sed -i 's/: more\$//' \"\$1\"; }
AS_LIBCAP_NORM=drop_more as_libcap worse y
finish"
outcome as_libcap 1 "as_libcap with one program that differs"
grep -qx '3 checks, 1 failed' "$T/as_libcap.log" &&
	grep -qx "FAIL: worse y: exit 2, libcap's 1 (- libcap's, + ours)" "$T/as_libcap.log" && pass ||
	{ fail "as_libcap's verdicts"; sed 's/^/    /' "$T/as_libcap.log"; }
# run.sh's valgrind pass: a memcheck report fails the suite, even one
# whose own checks all passed and that never looked at the exit status or
# stderr (as the pam suites compared only pamcase's output line); valgrind's
# own warnings (a system call it does not know) do not.
if command -v valgrind >/dev/null 2>&1 && command -v cc >/dev/null 2>&1; then
	# leak: its forked child loses a block (the parent frees its own,
	# and waits for the child, whose valgrind must have written its
	# report before run.sh reads the logs: a loaded machine ran the
	# check first);
	# leak warn: no leak, one system call valgrind does not know.
	printf '%s\n' '#include <stdlib.h>' '#include <sys/wait.h>' '#include <unistd.h>' \
		'int main(int c, char **v) { char *volatile p = malloc(40); p[0] = 1;' \
		'(void)v; if (c > 1) syscall(1000);' \
		'else if (fork() == 0) { p = NULL; _exit(0); } else wait(NULL);' \
		'free(p); return 0; }' >"$T/leak.c"
	cc -O0 -o "$T/leak" "$T/leak.c" && pass || fail "cannot build the leaking program"
	suite vg_leak "run_ours '$T/leak' >/dev/null 2>&1; ok ran; finish"
	suite vg_warn "run_ours '$T/leak' warn 2>/dev/null; ok ran; finish"
	VALGRIND=1 TESTS="$T/vg_leak.sh $T/vg_warn.sh" LOGDIR="$T/vglogs" TEST_SUMMARY= \
		sh "$TESTS_DIR/run.sh" >"$T/run3.out" 2>&1
	grep -q "^FAIL: $T/vg_leak.sh (exit 1" "$T/run3.out" && pass ||
		{ fail "a suite whose program leaks passes under valgrind"; sed 's/^/    /' "$T/run3.out"; }
	grep -q "definitely lost" "$T/run3.out" && pass || fail "the leak report is not shown"
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
	cc -O0 -fsanitize=address -o "$T/aleak" "$T/aleak.c" && pass || fail "cannot build the ASan leak"
	suite san_leak "'$T/aleak' >/dev/null 2>&1; ok ran; finish"
	suite san_clean "'$T/asan_ok'; ok ran; finish"
	SANITIZE=address TESTS="$T/san_leak.sh $T/san_clean.sh" LOGDIR="$T/sanlogs" TEST_SUMMARY= \
		sh "$TESTS_DIR/run.sh" >"$T/run4.out" 2>&1
	grep -q "^FAIL: $T/san_leak.sh (exit 1" "$T/run4.out" && pass ||
		{ fail "a suite whose program leaks passes under ASan"; sed 's/^/    /' "$T/run4.out"; }
	grep -q "^PASS: $T/san_clean.sh" "$T/run4.out" && pass ||
		{ fail "a clean program fails under ASan"; sed 's/^/    /' "$T/run4.out"; }
fi
# UBSan's reports too. Loaded beside libasan.so, GCC's UBSan ignores
# log_path, writes to standard error and exits 1, as our programs do on
# bad input, so a suite expecting that failure would pass; Make.Rules
# links it in instead. The program here is linked with the link flags a
# sanitizer build's makefile gives (asked of make itself).
if command -v cc >/dev/null 2>&1 &&
   printf 'int main(void) { return 0; }\n' |
	cc -fsanitize=address,undefined -x c -o "$T/asan_ub_ok" - 2>/dev/null; then
	san_ldflags=$(printf 'print-ldflags:\n\t@echo $(LDFLAGS)\n' |
		make -s -C "$TOP/common" -f Makefile -f - BUILD="$T/sanbuild" \
			SANITIZE=address,undefined print-ldflags 2>/dev/null)
	case " $san_ldflags " in
	*" -fsanitize=address,undefined "*) pass ;;
	*) fail "a sanitizer build's link flags: '$san_ldflags'" ;;
	esac
	printf '%s\n' '#include <limits.h>' \
		'int main(int argc, char **argv) { int n = INT_MAX; (void)argv; n += argc; return n == 0; }' \
		>"$T/ub.c"
	# shellcheck disable=SC2086 # the flags are words
	cc -O0 -fsanitize=address,undefined -fno-sanitize-recover=all -o "$T/ub" "$T/ub.c" \
		$san_ldflags && pass || fail "cannot build the undefined behaviour"
	suite san_ub "'$T/ub' >/dev/null 2>&1; ok ran; finish"
	SANITIZE=address,undefined TESTS="$T/san_ub.sh" LOGDIR="$T/sanublogs" TEST_SUMMARY= \
		sh "$TESTS_DIR/run.sh" >"$T/run5.out" 2>&1
	grep -q "^FAIL: $T/san_ub.sh (exit 1" "$T/run5.out" && pass ||
		{ fail "a suite whose program overflows an int passes under UBSan"; sed 's/^/    /' "$T/run5.out"; }
	grep -q "signed integer overflow" "$T/run5.out" && pass || fail "UBSan's report is not shown"
fi
# The unit suites' marker for a foreign child (check_run.h) is the one
# run.sh's valgrind skips: were they to drift, every shell a suite reads
# back through would run under memcheck again, at ten times the cost.
mark=$(sed -n 's/^#define UNTRACED_FOREIGN "\(.*\)"$/\1/p' "$TESTS_DIR/unit/check_run.h")
[ -n "$mark" ] && grep -q -- "--trace-children-skip-by-arg=\*$mark\*" "$TESTS_DIR/run.sh" && pass ||
	fail "run.sh's valgrind does not skip check_run.h's UNTRACED_FOREIGN ('$mark')"
finish "skip after failure, checked clean-ups, suite time-outs, the passes, need_reference and the expect helpers behave"
