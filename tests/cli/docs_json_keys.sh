#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# Every JSON key a program can print is documented in its man page. The
# keys are read from each program's sources (tests/tools/json_keys.pl:
# "\"key\":" literals, the literal keys given to json_path(),
# json_vector() and the programs' own key writers, and what the common/
# functions they call write); a key is documented when its page shows it
# quoted, as in an example ("key":...), or in bold (.B key, .BR key ,
# \fBkey\fP), anywhere in the page. Three more checks keep that honest:
#   - a planted key: a copy of capsh with an undocumented "\"planted\":"
#     literal and a json_path() of "planted_path" must fail with exactly
#     planted, planted_path and planted_path_hex named;
#   - what the programs really print: the keys in the output of capsh,
#     getpcaps and getcap --json must all be among the keys read from their
#     sources, so a key written in a form the reader does not know cannot
#     slip past it;
#   - a program with no JSON today is read too: one that gains a key gains
#     this check without an edit here.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
[ "${VALGRIND:-0}" = 1 ] && skip "reads sources and pages; the plain pass runs it"
command -v perl >/dev/null || skip "perl is needed to read the sources"
keys_of="$TESTS_DIR/tools/json_keys.pl"

# The page as its words are written: \(dq is a quote, \- a hyphen.
plain_page() {
	sed -e 's/\\(dq/"/g' -e 's/\\-/-/g' -e 's/\\&//g' "$1"
}

# documented PAGE_TEXT KEY: the key quoted, or a bold word of the page
# (neither an option's name, "--groups", nor a word of the text output,
# "groups=", is the key "groups").
documented() {
	grep -qF "\"$2\"" "$1" && return 0
	grep -E '^\.(B|BR|RB|BI|IB) ' "$1" | sed -e 's/--[a-z0-9_-]*//g' -e 's/[a-z0-9_]*=//g' |
		tr -c 'a-z0-9_\n' ' ' | grep -qE "(^| )$2( |\$)" && return 0
	grep -qE "\\\\fB$2\\\\f" "$1"
}

# check_tree TOP OUT: one line in OUT per undocumented key ("PROG KEY"),
# "PROG: ..." for a program whose keys cannot be listed; the number of
# keys found documented on stdout.
check_tree() {
	: >"$2"
	n=0
	for dir in "$1"/progs/*/; do
		prog=$(basename "$dir")
		perl "$keys_of" "$1" "$prog" >"$T/keys" 2>"$T/keys.err" ||
			{ echo "$prog: $(cat "$T/keys.err")" >>"$2"; continue; }
		[ -s "$T/keys" ] || continue
		page=$(ls "$1"/man/man[18]/"$prog".[18] 2>/dev/null | head -n 1)
		if [ -z "$page" ]; then
			echo "$prog: prints JSON keys and has no man page" >>"$2"
			continue
		fi
		plain_page "$page" >"$T/page"
		while IFS= read -r key; do
			if documented "$T/page" "$key"; then
				n=$((n + 1))
			else
				echo "$prog $key" >>"$2"
			fi
		done <"$T/keys"
	done
	echo "$n"
}

# The tree itself.
documented_keys=$(check_tree "$TOP" "$T/missing")
while IFS= read -r line; do
	case $line in
	*:*) fail "$line" ;;
	*) fail "${line%% *} prints the JSON key '${line#* }', which its man page does not document" ;;
	esac
done <"$T/missing"
[ "$documented_keys" -gt 100 ] && pass ||
	fail "only $documented_keys documented keys found: the reader lost the programs' keys"

# A planted key in a copy: the check must name exactly what was planted.
plant=$T/plant
mkdir -p "$plant/progs" "$plant/common" "$plant/man/man1" || exit 1
cp -R "$TOP/progs/capsh" "$plant/progs/" && cp "$TOP"/common/*.c "$plant/common/" &&
	cp "$TOP/man/man1/capsh.1" "$plant/man/man1/" || exit 1
cat >>"$plant/progs/capsh/capsh_json.c" <<'EOF'

void capsh_planted(void)
{
	json_object_open(stdout, NULL);
	printf("\"planted\":1,");
	json_path(stdout, "planted_path", "/");
	printf("}\n");
}
EOF
check_tree "$plant" "$T/planted" >/dev/null
{ grep '^capsh ' "$T/missing"
  printf 'capsh planted\ncapsh planted_path\ncapsh planted_path_hex\n'; } | sort >"$T/want"
sort "$T/planted" >"$T/got"
same "$T/want" "$T/got" "planted undocumented keys are found, and only they"

# What the programs print: every key among those read from their sources.
json_keys_in() {	# FILE: the keys of every object in it, one a line
	perl -MJSON::PP -ne '
		sub walk { my ($v) = @_;
			if (ref $v eq "HASH") { for (keys %$v) { print "$_\n"; walk($v->{$_}) } }
			elsif (ref $v eq "ARRAY") { walk($_) for @$v } }
		walk(JSON::PP->new->decode($_))' "$1" | sort -u
}
printed() {	# PROG FILE: FILE's keys are all known to the reader
	perl "$keys_of" "$TOP" "$1" >"$T/src.keys" || { fail "$1: keys not listed"; return; }
	json_keys_in "$2" >"$T/out.keys" || { fail "$1: output is not JSON: $(head -c 300 "$2")"; return; }
	[ -s "$T/out.keys" ] || { fail "$1: printed no keys"; return; }
	extra=$(sort "$T/src.keys" | comm -13 - "$T/out.keys" | tr '\n' ' ')
	[ -z "$extra" ] && pass ||
		fail "$1 printed keys tests/tools/json_keys.pl did not find in its sources: $extra"
}
mkdir "$T/dir" && printf 'x' >"$T/dir/plain" || exit 1
run_ours "$BUILD/progs/capsh" --json --decode=0x4000000001 --print >"$T/capsh.json"
printed capsh "$T/capsh.json"
sleep 30 &
sleeper=$!
at_exit 'kill $sleeper 2>/dev/null'
run_ours "$BUILD/progs/getpcaps" --json $sleeper 1 >"$T/getpcaps.json"
printed getpcaps "$T/getpcaps.json"
kill $sleeper 2>/dev/null
run_ours "$BUILD/progs/getcap" -v --json "$T/dir/plain" "$T/dir" >"$T/getcap.json" 2>/dev/null
printed getcap "$T/getcap.json"
finish "$documented_keys JSON keys documented"
