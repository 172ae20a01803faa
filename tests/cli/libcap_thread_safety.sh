#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# Issue 12, item 10: libcap locks each cap_t, cap_iab_t and launcher inside
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
set -u
cc=${CC:-cc}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# Can this compiler and kernel run TSan at all? A two-line probe decides
# between "skip, with the reason" and "run".
printf 'int main(void) { return 0; }\n' >"$tmp/probe.c"
if ! "$cc" -fsanitize=thread -o "$tmp/probe" "$tmp/probe.c" 2>"$tmp/probe.err"; then
	echo "skipped: $cc cannot build with -fsanitize=thread (libtsan missing?): $(head -n 1 "$tmp/probe.err")"
	exit 77
fi
run_tsan() {
	"$@" >"$tmp/out" 2>"$tmp/err"
}
wrap=
if ! run_tsan "$tmp/probe"; then
	if command -v setarch >/dev/null && run_tsan setarch "$(uname -m)" -R "$tmp/probe"; then
		wrap="setarch $(uname -m) -R"
	else
		echo "skipped: TSan binaries do not start on this kernel: $(head -n 1 "$tmp/err")"
		exit 77
	fi
fi

# Every library source but the entry point that runs libcap.so.2 as a
# program (no library code; its .interp belongs in the shared object only).
srcs=$(ls "$TOP"/libcap/*.c | grep -v '/cap_exec_entry\.c$')
# shellcheck disable=SC2086 # $srcs: one path per word, none with blanks
"$cc" -std=gnu11 -O1 -g -fsanitize=thread -Wall -Wextra -Werror \
	-I"$TOP/include" -I"$TOP/libcap" -o "$tmp/threads" \
	$srcs "$TESTS_DIR/tsan/threads.c" -lpthread ||
	{ echo "could not build the TSan copy"; exit 1; }

# A deadlock (a launch child stuck on a lock held by a thread that does
# not exist after fork) must fail the suite, not hang it.
to=
command -v timeout >/dev/null && to="timeout 180"
TSAN_OPTIONS="halt_on_error=0 exitcode=66 second_deadlock_stack=1" \
	run_tsan $to $wrap "$tmp/threads"
rc=$?
[ "$rc" -eq 124 ] && echo "FAIL: still running after 180 s (deadlock?)"
cat "$tmp/out"
reports=$(grep -c '^WARNING: ThreadSanitizer' "$tmp/err")
if [ "$rc" -ne 0 ] || [ "$reports" -ne 0 ]; then
	echo "FAIL: exit $rc, $reports ThreadSanitizer reports"
	grep -A 12 '^WARNING: ThreadSanitizer' "$tmp/err" | head -n 80
	exit 1
fi
grep -q '^calls: ' "$tmp/out" || { echo "FAIL: no call counts"; exit 1; }
echo "no ThreadSanitizer report"
