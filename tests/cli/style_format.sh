#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# Every C file of the tree is as .clang-format lays it out, so that a
# change shows its substance and never a reformatting, and the format is
# settled by a tool rather than in review. Layouts differ between
# clang-format versions: the check runs with the one the tree was
# formatted with (Debian 12's clang-format 14: $CLANG_FORMAT, else
# clang-format-14, else clang-format, whichever is version 14) and skips
# naming what it found and how to get version 14. A file that needs a hand layout (a table) says so with
# "clang-format off/on" comments around it. The public headers (include/)
# keep the layout of libcap's, one declaration a line, which the ABI
# suites read.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
[ "${VALGRIND:-0}" = 1 ] && skip "runs none of our code under valgrind"
cf= found=
for c in ${CLANG_FORMAT:-} clang-format-14 clang-format; do
	command -v "$c" >/dev/null 2>&1 || continue
	major=$("$c" --version | sed -n 's/.*version \([0-9]*\)\..*/\1/p')
	[ "$major" = 14 ] && { cf=$c; break; }
	found="$found, $c is version ${major:-unknown}"
done
[ -n "$cf" ] || skip "the tree is laid out by clang-format 14, and there is none here (${found#, }${found:+; }none of CLANG_FORMAT, clang-format-14, clang-format is version 14): install Debian 12's or Ubuntu 22.04's clang-format-14 (apt-get install clang-format-14), or pip install clang-format==14.0.6, or set CLANG_FORMAT to a clang-format 14"
cd "$TOP" || { fail "cannot enter $TOP"; finish; }
if [ -d .git ] || [ -f .git ]; then
	git ls-files -z -- '*.c' '*.h' ':!include/' >"$T/files"
else
	find . \( -path ./build -o -path ./include \) -prune -o \
		\( -name '*.c' -o -name '*.h' \) -print0 >"$T/files"
fi
n=$(tr -cd '\0' <"$T/files" | wc -c)
[ "$n" -gt 100 ] && pass || fail "only $n C files found in $TOP"
xargs -0 "$cf" --dry-run --Werror <"$T/files" >"$T/out" 2>&1 && pass ||
	fail "files not laid out as .clang-format says ($cf -i FILE fixes them):
$(grep -o '^[^:]*\.[ch]:[0-9]*' "$T/out" | sort -u | head -n 20)"
finish "$n C files as .clang-format lays them out"
