#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# Runs every tier of the suite and prints one verdict line per suite, then
# "N passed, N failed, N skipped". A suite exits 0 (pass), 77 (skip, with
# its reason on its output) or anything else (fail). Skips never count as
# passes. The root tier runs when we are root and is skipped otherwise.
#
#   TESTS="unit/check_text cli/diff_text.sh" sh run.sh   runs only those
#   VALGRIND=1 sh run.sh   runs unit suites and tools under valgrind memcheck
cd "$(dirname "$0")" || exit 1
TESTS_DIR=$(pwd)
TOP=$(cd .. && pwd)
BIN=$TESTS_DIR/bin
export TESTS_DIR TOP BIN
LOGDIR=${LOGDIR:-$BIN/logs}
mkdir -p "$LOGDIR"

if [ "${VALGRIND:-0}" = 1 ]; then
	# Check forks per test; trace children and fail on any leak or error.
	export VALGRIND_CMD="valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect --trace-children=yes"
	export CK_FORK=no
fi

suites=
if [ -n "${TESTS:-}" ]; then
	suites=$TESTS
else
	for f in unit/check_*.c; do
		[ -e "$f" ] && suites="$suites unit/$(basename "$f" .c)"
	done
	for f in cli/*.sh root/*.sh; do
		[ -e "$f" ] && suites="$suites $f"
	done
fi

pass=0 fail=0 skip=0
for s in $suites; do
	log=$LOGDIR/$(echo "$s" | tr / _).log
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
	case $rc in
	0) pass=$((pass + 1)); echo "PASS: $s" ;;
	77) skip=$((skip + 1)); echo "SKIP: $s ($(tail -n 1 "$log"))" ;;
	*) fail=$((fail + 1)); echo "FAIL: $s (exit $rc)"; sed 's/^/    /' "$log" | tail -n 40 ;;
	esac
done
echo "suites: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
