#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# What the manual says about the capability table agrees with the table,
# private/caps.def: how many names there are ("All 41 names", "41 known
# values", "names of 0 to 40", "41 to 63" for the unnamed numbers (and
# "41 to 63 on Linux 6.18" for what that kernel does not know),
# "numbers above 40"), which is the last ("cap_chown to
# cap_checkpoint_restore"), how many the newest and older kernels know
# ("41 on Linux 5.9 and later", "0 to 37 before 5.8"), and the number next
# to a name ("cap_perfmon (38)", "CAP_PERFMON (number 38)"). These are
# written by hand, so a capability added to caps.def makes this suite name
# every page that still tells the old story. Every man page is read, and
# docs/*.md and README.md for the name/number pairs.
#
# CAPS_DEF names another table, to see the suite fail: a copy of caps.def
# with one more entry must fail it, naming each page and statement.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
# Nothing here runs under valgrind: it runs none of our programs.
[ "${VALGRIND:-0}" = 1 ] && skip "runs none of our code under valgrind (the plain and sanitizer passes run it)"
def=${CAPS_DEF:-$TOP/private/caps.def}
[ -r "$def" ] || { fail "cannot read $def"; finish; }

# The table: "number name since" for each entry.
sed -n 's/^CAP_FACT(\([0-9]*\), *[A-Z0-9_]*, *\([a-z0-9_]*\), *"\([0-9.]*\)".*/\1 \2 \3/p' \
	"$def" >"$T/table"
[ -s "$T/table" ] || { fail "$def: no CAP_FACT entries"; finish; }

# One awk reads the table and every page: a failure is one line of output
# naming the page and the statement, "checked RULE N" counts the checks.
awk -v table="$T/table" -v top="$TOP/" '
function vercmp(a, b,    x, y, i, n, m) {
	n = split(a, x, "."); m = split(b, y, ".")
	for (i = 1; i <= n || i <= m; i++) {
		if ((x[i] + 0) < (y[i] + 0)) return -1
		if ((x[i] + 0) > (y[i] + 0)) return 1
	}
	return 0
}
# How many capabilities a kernel of version v knows (before: older ones).
function known(v, before,    i, c, r) {
	c = 0
	for (i = 0; i < N; i++) {
		r = vercmp(since[i], v)
		if (r < 0 || (r == 0 && !before)) c++
	}
	return c
}
# The n-th number in s (versions count as one number each: "5.9").
function num(s, n,    i, k) {
	for (i = 1; i <= n; i++) {
		if (!match(s, /[0-9]+(\.[0-9]+)*/)) return ""
		k = substr(s, RSTART, RLENGTH)
		s = substr(s, RSTART + RLENGTH)
	}
	return k
}
# Roff arguments: words, or "quoted words"; alternating fonts join them.
function roff_args(s, join,    out, w, q) {
	out = ""
	while (s != "") {
		sub(/^[ \t]+/, "", s)
		if (s == "") break
		if (substr(s, 1, 1) == "\"") {
			q = index(substr(s, 2), "\"")
			if (q == 0) { w = substr(s, 2); s = "" }
			else { w = substr(s, 2, q - 1); s = substr(s, q + 2) }
		} else if (match(s, /[ \t]/)) {
			w = substr(s, 1, RSTART - 1); s = substr(s, RSTART)
		} else {
			w = s; s = ""
		}
		out = out (out == "" ? "" : join) w
	}
	return out
}
function render_roff(line,    macro) {
	if (line ~ /^[.\047]\\"/) return ""
	if (line ~ /^[.\047]/) {
		macro = line; sub(/[ \t].*/, "", macro); macro = substr(macro, 2)
		line = substr(line, length(macro) + 2)
		if (macro ~ /^(BR|RB|IR|RI|BI|IB)$/) line = roff_args(line, "")
		else if (macro ~ /^(B|I|SM|SB|SH|SS)$/) line = roff_args(line, " ")
		else return ""
	}
	gsub(/\\f(\[[A-Z]*\]|\(..|.)/, "", line)
	gsub(/\\\(em/, " - ", line)
	gsub(/\\\(dq/, "\"", line)
	gsub(/\\\(../, "", line)
	gsub(/\\-/, "-", line)
	gsub(/\\&/, "", line)
	gsub(/\\e/, "\\", line)
	return line
}
function render_md(line) {
	gsub(/`|\*\*/, "", line)
	return line
}
function bad(what, why) {
	print FILENAME_SHOWN ": \"" what "\": " why
}
# Each match of re in the page text, left to right, into hit[1..n].
function scan(re,    s, n) {
	s = text; n = 0
	while (match(s, re)) {
		hit[++n] = substr(s, RSTART, RLENGTH)
		before[n] = substr(s, RSTART > 3 ? RSTART - 3 : 1,
				   RSTART > 3 ? 3 : RSTART - 1)
		s = substr(s, RSTART + RLENGTH)
	}
	return n
}
function count(rule) { checked[rule]++ }
function check_page(    n, i, k, v, name) {
	text = " " text " "
	gsub(/[ \t]+/, " ", text)

	n = scan("All [0-9]+ names")
	for (i = 1; i <= n; i++) {
		count("all-names")
		if (num(hit[i], 1) != N) bad(hit[i], "caps.def names " N)
	}
	n = scan("[0-9]+ known values")
	for (i = 1; i <= n; i++) {
		count("known-values")
		if (num(hit[i], 1) != N) bad(hit[i], "caps.def names " N)
	}
	n = scan("names of 0 to [0-9]+")
	for (i = 1; i <= n; i++) {
		count("names-of")
		if (num(hit[i], 2) != N - 1)
			bad(hit[i], "caps.def names 0 to " N - 1)
	}
	# "41 to 63" is what caps.def leaves unnamed; "41 to 63 on Linux
	# 6.18" what that kernel does not know, true whatever caps.def adds.
	n = scan("[1-9][0-9]* to 63( on (Linux )?[0-9]+(\\.[0-9]+)+)?")
	for (i = 1; i <= n; i++) {
		if (hit[i] ~ / on /) {
			count("unknown-on-kernel")
			v = num(hit[i], 3)
			if (num(hit[i], 1) != known(v, 0))
				bad(hit[i], "Linux " v " knows " known(v, 0) " in caps.def")
			continue
		}
		count("unnamed")
		if (num(hit[i], 1) != N)
			bad(hit[i], "caps.def leaves " N " to 63 unnamed")
	}
	n = scan("numbers above [0-9]+")
	for (i = 1; i <= n; i++) {
		count("above")
		if (num(hit[i], 1) != N - 1)
			bad(hit[i], "caps.def names 0 to " N - 1)
	}
	n = scan("cap_chown to cap_[a-z0-9_]+")
	for (i = 1; i <= n; i++) {
		count("first-to-last")
		name = hit[i]; sub(/.* /, "", name)
		if (name != "cap_" names[N - 1])
			bad(hit[i], "the last name in caps.def is cap_" names[N - 1])
	}
	# "0 to L on Linux V and later" and "K on Linux V and later": the
	# newest kernel, so V is the newest "since" and K all it knows.
	n = scan("[0-9]+ on Linux [0-9]+(\\.[0-9]+)+ and later")
	for (i = 1; i <= n; i++) {
		count("newest-kernel")
		k = num(hit[i], 1)
		if (before[i] == "to ") {
			k++
			hit[i] = "0 to " hit[i]
		}
		v = num(hit[i], before[i] == "to " ? 3 : 2)
		if (vercmp(v, newest) != 0)
			bad(hit[i], "the newest capability in caps.def came with Linux " newest)
		else if (k != known(v, 0))
			bad(hit[i], "Linux " v " knows " known(v, 0) " in caps.def")
	}
	# "0 to L before V" and "K on kernels before V".
	n = scan("0 to [0-9]+ before [0-9]+(\\.[0-9]+)+")
	for (i = 1; i <= n; i++) {
		count("older-kernel")
		v = num(hit[i], 3)
		if (num(hit[i], 2) != known(v, 1) - 1)
			bad(hit[i], "kernels before " v " know " known(v, 1) " in caps.def")
	}
	n = scan("[0-9]+ on kernels before [0-9]+(\\.[0-9]+)+")
	for (i = 1; i <= n; i++) {
		count("older-kernel")
		v = num(hit[i], 2)
		if (num(hit[i], 1) != known(v, 1))
			bad(hit[i], "kernels before " v " know " known(v, 1) " in caps.def")
	}
	n = scan("[0-9]+ to [0-9]+ on old")
	for (i = 1; i <= n; i++) {
		count("older-kernel")
		if (num(hit[i], 2) != N - 1)
			bad(hit[i], "caps.def names 0 to " N - 1)
	}
	# A name with its number: "cap_perfmon (38)", "CAP_PERFMON (number
	# 38)", "(capability 38", "at 38", "cap[cap_perfmon=38]".
	n = scan("[Cc][Aa][Pp]_[A-Za-z0-9_]+( \\((number |capability )?| at |=)[0-9]+")
	for (i = 1; i <= n; i++) {
		name = tolower(hit[i]); sub(/[ =].*/, "", name); sub(/^cap_/, "", name)
		if (!(name in number))
			continue
		count("name-number")
		k = hit[i]; sub(/.*[ =(]/, "", k)
		if (k != number[name])
			bad(hit[i], "cap_" name " is " number[name] " in caps.def")
	}
}
BEGIN {
	N = 0; newest = "0"
	while ((getline line < table) > 0) {
		split(line, f, " ")
		if (f[1] != N) {
			print table ": entry " N " is numbered " f[1]
			exit 1
		}
		names[N] = f[2]; number[f[2]] = f[1]; since[N] = f[3]
		if (vercmp(f[3], newest) > 0) newest = f[3]
		N++
	}
}
FNR == 1 {
	if (NR > 1) check_page()
	text = ""
	FILENAME_SHOWN = FILENAME
	if (index(FILENAME, top) == 1)
		FILENAME_SHOWN = substr(FILENAME, length(top) + 1)
	md = FILENAME ~ /\.md$/
}
{ text = text " " (md ? render_md($0) : render_roff($0)) }
END {
	if (NR > 0) check_page()
	for (r in checked) print "checked " r " " checked[r]
}
' $(find "$TOP/man" -type f -name '*.[0-9]' | sort) \
  $(find "$TOP/docs" -type f -name '*.md' | sort) "$TOP/README.md" >"$T/out" 2>"$T/err" && pass ||
	fail "awk: $(cat "$T/err")"

# Every kind of statement is still found somewhere: reworded, a rule
# would check nothing and pass for ever.
for rule in all-names known-values names-of unnamed unknown-on-kernel above \
	    first-to-last newest-kernel older-kernel name-number; do
	grep -q "^checked $rule [1-9]" "$T/out" && pass ||
		fail "no page states $rule any more: update this suite's rules"
done
while IFS= read -r line; do
	case $line in
	"checked "*) pass ;;
	*) fail "$line" ;;
	esac
done <"$T/out"
finish "the manual agrees with caps.def ($(wc -l <"$T/table") names)"
