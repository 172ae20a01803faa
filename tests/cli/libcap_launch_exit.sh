#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# cap_launch() when the launch fails in the child (row
# cap-launch-child-exit of docs/differences.md): the caller's buffered
# standard output is written once, and its atexit() handlers run once, in
# the caller. tests/tools/launchexit.c leaves "before;" in its stdout
# buffer, registers a handler that writes "atexit", and makes two launches
# that fail in the child (execve() of a missing program, a callback that
# refuses). Run against libcap 2.75's and 2.78's libcap.so.2 as well
# (tests/tools/libcap_ref.sh), which bracket the 2.76 we replace: there
# the child leaves with exit(), and both the text and the handler come
# twice more; the suite checks that too, so that the row stays true.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
probe=$BIN/launchexit
[ -x "$probe" ] || { fail "tests/tools/launchexit is not built"; finish; }
cd "$T" || exit 1

# One line, once: every "before;" a child would write again is a second
# one, and so is every "atexit".
want_out="before;launch=-1 errno=ECHILD;launch=-1 errno=ECHILD;"
want_err=atexit
expect_lines 0 "$want_out" "$want_err" run_ours "$probe"
# Through a pipe as well (buffered the same, read as a stream).
run sh -c '"$0" | cat' "$probe"
[ "$(cat "$T/out")" = "$want_out" ] && pass || fail "through a pipe: $(cat "$T/out")"

# libcap 2.75 and 2.78, for the row's account of 2.76 (not under the
# sanitizers: the probe then needs their runtime, which trixie's loader is
# not given; nor under valgrind, which would trace their code).
if is_sanitized || [ "${VALGRIND:-0}" = 1 ]; then
	finish "ours writes once and runs the handler once"
fi
sh "$TESTS_DIR/tools/libcap_ref.sh" >"$T/refs" 2>"$T/refs.err"
rc=$?
if [ $rc -ne 0 ]; then
	[ $rc -eq 77 ] && pass || fail "tests/tools/libcap_ref.sh: $(cat "$T/refs.err")"
	not_checked "no upstream libcap to compare with: $(cat "$T/refs.err")"
	finish "ours writes once and runs the handler once"
fi
while read -r dir ver; do
	"$dir/run" "$probe" >"$T/ref.out" 2>"$T/ref.err"
	befores=$(grep -o 'before;' "$T/ref.out" | wc -l)
	handlers=$(grep -c '^atexit$' "$T/ref.err")
	if [ "$befores" -gt 1 ] && [ "$handlers" -gt 1 ]; then
		echo "libcap $ver: \"before;\" $befores times, the handler $handlers times"
		pass
	else
		fail "libcap $ver no longer writes the caller's output again or runs its handler in the failed child ($befores, $handlers): docs/differences.md's cap-launch-child-exit row is stale"
	fi
done <"$T/refs"
finish "ours writes once and runs the handler once; libcap 2.75 and 2.78 do not"
