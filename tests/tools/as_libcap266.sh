# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# A filter for the suites that compare with Debian's libcap 2.66, which
# names capabilities 0..40 only: every name $TOP/private/caps.def gives a
# higher number is written as that number, as 2.66 prints it. With
# --lengths, a line ending "<text> <length> <hex>" (capprobe's cap_to_text
# results) whose text changed gets its length counted again.
#   sh "$TESTS_DIR/tools/as_libcap266.sh" [--lengths] <ours >ours.266
lengths=0; [ "${1:-}" = --lengths ] && lengths=1
newer=$(sed -n 's/^CAP_FACT(\([0-9]*\), *[A-Z0-9_]*, *\([a-z0-9_]*\),.*/\1 cap_\2/p' \
	"$TOP/private/caps.def" | awk '$1 > 40')
[ -n "$newer" ] || exec cat
awk -v newer="$newer" -v lengths=$lengths '
function as_number(line, name, num,    out, i, before, after) {
	out = ""
	while ((i = index(line, name)) > 0) {
		before = i > 1 ? substr(line, i - 1, 1) : ""
		after = substr(line, i + length(name), 1)
		if (before !~ /[a-z0-9_]/ && after !~ /[a-z0-9_]/) {
			out = out substr(line, 1, i - 1) num; changed = 1
		} else {
			out = out substr(line, 1, i - 1 + length(name))
		}
		line = substr(line, i + length(name))
	}
	return out line
}
BEGIN {
	n = split(newer, f, /[ \n]+/)
	for (i = 1; i + 1 <= n; i += 2) num[f[i + 1]] = f[i]
}
{
	changed = 0; line = $0
	for (name in num) line = as_number(line, name, num[name])
	if (lengths && changed && match(line, / [0-9]+ [0-9a-f]+$/)) {
		text = substr(line, 1, RSTART - 1)
		line = text " " length(text) " " $NF
	}
	print line
}'
