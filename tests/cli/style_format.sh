#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# Every C file of the tree is as .clang-format lays it out, so that a
# change shows its substance and never a reformatting, and the format is
# settled by a tool rather than in review. Layouts differ between
# clang-format versions: the check runs with the one the tree was
# formatted with (Debian 12's clang-format 14) and skips with the reason
# on another. A file that needs a hand layout (a table) says so with
# "clang-format off/on" comments around it. The public headers (include/)
# keep the layout of libcap's, one declaration a line, which the ABI
# suites read.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
[ "${VALGRIND:-0}" = 1 ] && skip "runs none of our code under valgrind"
command -v clang-format >/dev/null 2>&1 || skip "clang-format is not installed"
major=$(clang-format --version | sed -n 's/.*version \([0-9]*\)\..*/\1/p')
[ "$major" = 14 ] || skip "clang-format $major: the tree is laid out by clang-format 14"
cd "$TOP" || { fail "cannot enter $TOP"; finish; }
if [ -d .git ] || [ -f .git ]; then
	git ls-files -z -- '*.c' '*.h' ':!include/' >"$T/files"
else
	find . \( -path ./build -o -path ./include \) -prune -o \
		\( -name '*.c' -o -name '*.h' \) -print0 >"$T/files"
fi
n=$(tr -cd '\0' <"$T/files" | wc -c)
[ "$n" -gt 100 ] && pass || fail "only $n C files found in $TOP"
xargs -0 clang-format --dry-run --Werror <"$T/files" >"$T/out" 2>&1 && pass ||
	fail "files not laid out as .clang-format says (clang-format -i FILE fixes them):
$(grep -o '^[^:]*\.[ch]:[0-9]*' "$T/out" | sort -u | head -n 20)"
finish "$n C files as .clang-format lays them out"
