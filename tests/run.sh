#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# Runs every tier of the suite and prints one verdict line per suite, then
# "N passed, N failed, N skipped". A suite exits 0 (pass), 77 (skip, with
# its reason on its output) or anything else (fail). Skips never count as
# passes. The root tier runs when we are root and is skipped otherwise.
#
#   TESTS="unit/check_text cli/diff_text.sh" sh run.sh   runs only those
#   TIERS="unit cli" sh run.sh   runs only those tiers (default: unit cli root)
#   VALGRIND=1 sh run.sh   runs unit suites under valgrind memcheck (Check in
#                          no-fork mode) and exports VALGRIND_CMD, which
#                          suites put before our tools via run_ours
#
# Suites get TOP, BUILD (where the programs and libraries were built:
# $BUILD/progs/setcap, $BUILD/libcap/libcap.so.2), BIN and TESTS_DIR, plus SANITIZE (exported by
# tests/Makefile: non-empty when the tree was built with sanitizers) and
# VALGRIND. Shell suites source lib.sh for is_sanitized, skip_if_sanitized,
# run_ours and with_our_lib: a foreign, uninstrumented binary (a Debian
# program) loading our ASan-built library needs the sanitizer runtimes
# preloaded, which with_our_lib does. "make test" runs this three times:
# as built, then a sanitizer build and a valgrind pass of the unit and cli
# tiers (see tests/extra_pass.sh).
cd "$(dirname "$0")" || exit 1
TESTS_DIR=$(pwd)
TOP=$(cd .. && pwd)
# The build under test: make exports BUILD (build/main, or the sanitizer
# build's directory); run by hand, the plain build.
BUILD=${BUILD:-$TOP/build/main}
BIN=$BUILD/tests/bin
export TESTS_DIR TOP BUILD BIN
LOGDIR=${LOGDIR:-$BIN/logs}
mkdir -p "$LOGDIR"

if [ "${VALGRIND:-0}" = 1 ]; then
	# Check forks per test; trace children and fail on any leak or error.
	export VALGRIND_CMD="valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect --show-leak-kinds=definite,indirect --trace-children=yes"
	export CK_FORK=no
fi

suites=
if [ -n "${TESTS:-}" ]; then
	suites=$TESTS
else
	for tier in ${TIERS:-unit cli root}; do
		case $tier in
		unit)
			for f in unit/check_*.c; do
				[ -e "$f" ] && suites="$suites unit/$(basename "$f" .c)"
			done ;;
		*)
			for f in "$tier"/*.sh; do
				[ -e "$f" ] && suites="$suites $f"
			done ;;
		esac
	done
fi

pass=0 fail=0 skip=0
for s in $suites; do
	log=$LOGDIR/$(echo "$s" | tr / _).log
	started=$(date +%s)
	case $s in
	unit/*)
		${VALGRIND_CMD:-} "$BIN/$(basename "$s")" >"$log" 2>&1 ;;
	root/*)
		if [ "$(id -u)" -ne 0 ]; then
			echo "root tier needs root" >"$log"; (exit 77)
		else
			sh "$s" >"$log" 2>&1
		fi ;;
	*)
		sh "$s" >"$log" 2>&1 ;;
	esac
	rc=$?
	# Seconds per suite: CI must stay under 20 minutes for all passes.
	took="$(($(date +%s) - started)) s"
	case $rc in
	0) pass=$((pass + 1)); echo "PASS: $s ($took)" ;;
	77) skip=$((skip + 1)); echo "SKIP: $s ($(tail -n 1 "$log"); $took)" ;;
	*) fail=$((fail + 1)); echo "FAIL: $s (exit $rc; $took)"; sed 's/^/    /' "$log" | tail -n 40 ;;
	esac
done
echo "suites: $pass passed, $fail failed, $skip skipped"
# "make test" adds up its passes from this file for one closing total.
[ -n "${TEST_SUMMARY:-}" ] && echo "$pass $fail $skip" >>"$TEST_SUMMARY"
[ "$fail" -eq 0 ]
