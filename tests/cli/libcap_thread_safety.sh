#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# libcap locks each cap_t, cap_iab_t and launcher inside
# every call on it (since 2.61), so programs share them between threads.
# tests/tsan/threads.c hammers one of each from eight threads; here it is
# built with the library's sources under ThreadSanitizer (a private copy in
# a temp dir: the tree's own build is untouched) and must end without a
# single ThreadSanitizer report.
#
# The binary is built from the sources with its own flags, whatever the
# pass (SANITIZE=address or VALGRIND=1 do not apply to it: TSan cannot
# share a process with ASan, nor run inside valgrind). On a kernel whose
# ASLR layout TSan's runtime rejects ("unexpected memory mapping"), it
# runs under setarch -R; only a compiler without libtsan skips it.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
cc=${CC:-cc}

# Can this compiler and kernel run TSan at all? A two-line probe decides
# between "skip, with the reason" and "run".
printf 'int main(void) { return 0; }\n' >"$T/probe.c"
if ! "$cc" -fsanitize=thread -o "$T/probe" "$T/probe.c" 2>"$T/probe.err"; then
	skip "$cc cannot build with -fsanitize=thread (libtsan missing?): $(head -n 1 "$T/probe.err")"
fi
run_tsan() {
	"$@" >"$T/out" 2>"$T/err"
}
wrap=
if ! run_tsan "$T/probe"; then
	if command -v setarch >/dev/null && run_tsan setarch "$(uname -m)" -R "$T/probe"; then
		wrap="setarch $(uname -m) -R"
	else
		skip "TSan binaries do not start on this kernel: $(head -n 1 "$T/err")"
	fi
fi

# Every library source but the entry point that runs libcap.so.2 as a
# program (no library code; its .interp belongs in the shared object only),
# and the xattr codec the library compiles from private/.
srcs="$(ls "$TOP"/libcap/*.c | grep -v '/cap_exec_entry\.c$') $TOP/private/cap_xattr.c"
# shellcheck disable=SC2086 # $srcs: one path per word, none with blanks
"$cc" -std=gnu11 -O1 -g -fsanitize=thread -Wall -Wextra -Werror \
	-I"$TOP/include" -I"$TOP/private" -I"$TOP/libcap" -o "$T/threads" \
	$srcs "$TESTS_DIR/tsan/threads.c" -lpthread ||
	{ fail "could not build the TSan copy"; finish; }

# A deadlock (a launch child stuck on a lock held by a thread that does
# not exist after fork) must fail the suite, not hang it.
to=
command -v timeout >/dev/null && to="timeout 180"
TSAN_OPTIONS="halt_on_error=0 exitcode=66 second_deadlock_stack=1" \
	run_tsan $to $wrap "$T/threads"
rc=$?
[ "$rc" -eq 124 ] && fail "still running after 180 s (deadlock?)" || pass
cat "$T/out"
reports=$(grep -c '^WARNING: ThreadSanitizer' "$T/err")
if [ "$rc" -ne 0 ] || [ "$reports" -ne 0 ]; then
	fail "exit $rc, $reports ThreadSanitizer reports"
	grep -A 12 '^WARNING: ThreadSanitizer' "$T/err" | head -n 80
	finish
fi
check "call counts printed" grep -q '^calls: ' "$T/out"
finish "no ThreadSanitizer report"
