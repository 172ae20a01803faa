#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# README.md stays what a newcomer reads in five minutes: at most 200
# lines; its set-up block is exactly the two commands "make demo" and
# "make test"; its map names every manual page (a page, not a ".so" alias)
# as name(section) and links every guide in docs/ and bench/README.md;
# every relative link there and in the guides reaches its file and
# heading. (The map once left out capmanifest(8), perfdoctor(8), capcheck(8) and
# capaudit(8).)
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
readme=$TOP/README.md
[ -f "$readme" ] || { fail "no README.md"; finish; }

lines=$(wc -l <"$readme")
if [ "$lines" -le 200 ]; then ok "README.md has $lines lines (at most 200)"
else fail "README.md has $lines lines: more than 200; move the detail to docs/"; fi

# The first sh block after the "two commands" heading, comments dropped.
awk '/^## .*two commands/ { h = 1; next }
	h && /^```sh$/ { b = 1; next }
	b && /^```$/ { exit }
	b { sub(/[ \t]+#.*$/, ""); if ($0 != "") print }' "$readme" >"$T/setup"
printf 'make demo\nmake test\n' >"$T/want"
if cmp -s "$T/setup" "$T/want"; then ok "the set-up block is 'make demo' and 'make test'"
else fail "the set-up block is not exactly 'make demo', 'make test':"; sed 's/^/    /' "$T/setup"; fi

named=0
for page in "$TOP"/man/man*/*.[0-9]; do
	head -c 4 "$page" | grep -q '^\.so ' && continue
	base=${page##*/}
	name=${base%.*} sect=${base##*.}
	if grep -qF "\`$name($sect)\`" "$readme"; then named=$((named + 1))
	else fail "README.md's map does not name $name($sect)"; fi
done
[ "$named" -ge 20 ] && ok "README.md names all $named manual pages" && pass ||
	fail "only $named manual pages found or named"

for doc in "$TOP"/docs/*.md "$TOP/bench/README.md"; do
	rel=${doc#"$TOP"/}
	expect_line "$readme" "]($rel)" "README.md's map does not link $rel"
done
# Every relative link of README.md, the guides and bench/README.md reaches
# a file of the tree, and its #anchor a heading of that file (GitHub's
# anchors: lower case, punctuation dropped, spaces as '-').
slugs() {	# the anchors of a Markdown file's headings
	sed -n 's/^#\{1,6\} //p' "$1" | tr 'A-Z' 'a-z' |
		sed 's/[^a-z0-9 _-]//g; s/ /-/g'
}
links=0
for doc in "$readme" "$TOP"/docs/*.md "$TOP/bench/README.md"; do
	dir=${doc%/*}
	grep -o '\]([^)]*)' "$doc" | sed 's/^](//; s/)$//' >"$T/links"
	while IFS= read -r l; do
		case $l in *://*|mailto:*) continue ;; esac
		links=$((links + 1))
		file=${l%%#*} anchor=
		case $l in *#*) anchor=${l#*#} ;; esac
		target=$dir/$file
		[ -n "$file" ] || target=$doc
		if [ ! -e "$target" ]; then
			fail "${doc#"$TOP"/}: link to a missing file: $l"
		elif [ -n "$anchor" ] && ! slugs "$target" | grep -qxF "$anchor"; then
			fail "${doc#"$TOP"/}: link to a missing heading: $l"
		fi
	done <"$T/links"
done
[ "$links" -ge 20 ] && ok "$links relative links reach their files and headings" && pass ||
	fail "only $links relative links found"
finish "README.md: short, two set-up commands, a complete map; the guides' links hold"
