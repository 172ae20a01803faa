#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# getcap --audit's suggestion for a perf binary holding cap_sys_admin ends
# in the command that grants cap_perfmon instead, naming the file itself
# (it used to say "<file>", which pasted is a syntax error, and left the
# person to type the path in unquoted). With hostile file names, in the
# directory and in the file's own name, that command pasted the way a
# person would (lib.sh paste_run) gives setcap the file as exactly one
# argument and runs nothing else. A name a terminal would not show as it
# is gets no command but a line that says why; --json's "suggestion" is
# the same text. A plain name prints the path as it is.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
[ "$(id -u)" -eq 0 ] || skip "needs root (writes file capabilities)"
getcap=$BUILD/progs/getcap setcap=$BUILD/progs/setcap
for p in "$getcap" "$setcap"; do
	[ -x "$p" ] || { fail "$p is not built"; finish; }
done
command -v python3 >/dev/null 2>&1 || skip "python3 is needed to parse JSON"
shown() { cat -v "$1" | sed 's/\\/<backslash>/g'; }
PREFIX='  suggest: perf needs cap_perfmon (Linux 5.8+), not cap_sys_admin: '
UNSHOWN='run setcap --perf-group=perf_users --perf on this file (no command is shown, as the name holds characters a terminal would not show as they are)'

mkdir "$T/d"
# make PATH (below $T/d): an ELF file named like perf, with cap_sys_admin.
make_perf() {
	mkdir -p "$T/d/$(dirname -- "$1")" && cp /bin/true "$T/d/$1" &&
		"$setcap" cap_sys_admin=ep "$T/d/$1"
}

# audit PATH: getcap --audit and --json on PATH (from $T/d); the suggestion
# line without its prefix in $T/line, --json's in $T/json_sugg.
audit() {
	(cd "$T/d" && run_ours "$getcap" --audit -- "$1") >"$T/out" 2>"$T/err" && pass ||
		fail "[$1]: getcap --audit exit $?: $(shown "$T/err")"
	(cd "$T/d" && run_ours "$getcap" --json -- "$1") >"$T/json" 2>"$T/err" && pass ||
		fail "[$1]: getcap --json exit $?: $(shown "$T/err")"
	grep "^  suggest: " "$T/out" >"$T/sugg"
	sed -n "s/^$PREFIX//p" "$T/out" >"$T/line"
	python3 -c 'import json, sys
print(json.loads(open(sys.argv[1], encoding="utf-8").read())["suggestion"])' \
		"$T/json" >"$T/json_sugg" && pass || fail "[$1]: --json: $(shown "$T/json")"
	if [ "$(sed 's/^  suggest: //' "$T/sugg")" != "$(cat "$T/json_sugg")" ]; then
		fail "[$1]: --json's suggestion [$(shown "$T/json_sugg")] is not --audit's [$(shown "$T/sugg")]"
	else
		pass
	fi
}

case_path() {	# PATH (relative to $T/d, as given to getcap) WANT-PASTED
	make_perf "$1" && pass || { fail "cannot make [$1]"; return; }
	audit "$1"
	if [ "$(wc -l <"$T/line")" -ne 1 ]; then
		fail "[$1]: no suggestion with a command: $(shown "$T/out")"
		return
	fi
	rm -rf "$T/paste"
	paste_run "$T/line"
	paste_clean "suggestion for [$1]"
	if [ "$(cat "$T/pasted")" = "$2" ]; then
		pass
	else
		fail "suggestion for [$1]: pasting [$(cat "$T/line")] ran [$(cat "$T/pasted")], want [$2]"
	fi
}

# A plain name: the path as it is.
case_path bin/perf "setcap <--perf-group=perf_users> <--perf> <bin/perf>"
[ "$(cat "$T/line")" = "setcap --perf-group=perf_users --perf bin/perf" ] && pass ||
	fail "plain path: $(shown "$T/out")"
run_ours "$getcap" --audit "$T/d/bin/perf" >"$T/out"
grep -qxF "${PREFIX}setcap --perf-group=perf_users --perf $T/d/bin/perf" "$T/out" && pass ||
	fail "plain absolute path: $(shown "$T/out")"
# Hostile names: in a directory on the path, and in the file's own name
# (perf_..., perf-...: getcap knows perf by its name).
hostile_names "$T/names"
while IFS= read -r name; do
	case_path "$name/perf" "setcap <--perf-group=perf_users> <--perf> <$name/perf>"
	case_path "perf_$name" "setcap <--perf-group=perf_users> <--perf> <perf_$name>"
done <"$T/names"
case_path "perf-it's" "setcap <--perf-group=perf_users> <--perf> <perf-it's>"
# A relative path that starts with '-': "./" keeps it a file for every command.
case_path "-x/perf" "setcap <--perf-group=perf_users> <--perf> <./-x/perf>"
# -r: every file of the walk gets its own command.
run_ours "$getcap" -r --audit "$T/d" >"$T/out"
[ "$(grep -c "^$PREFIX" "$T/out")" -eq "$(grep -c ' cap_sys_admin=ep$' "$T/out")" ] && pass ||
	fail "-r: a perf binary without its command: $(shown "$T/out")"
sed -n "s/^$PREFIX//p" "$T/out" >"$T/line"
rm -rf "$T/paste"
paste_run "$T/line"
paste_clean "-r --audit: all suggestions at once"
if grep -v '^setcap <--perf-group=perf_users> <--perf> <' "$T/pasted" >/dev/null ||
   [ "$(grep -c '' "$T/pasted")" -ne "$(grep -c '' "$T/line")" ]; then
	fail "-r --audit: pasting ran more than one setcap a line: $(cat "$T/pasted")"
else
	pass
fi
# Names a terminal would not show as they are: no command, and why.
for esc in 'e\033[2J' 'nl\012x' 'bad\377'; do
	name=$(printf "perf_$esc")
	label=$(printf '%s' "$esc" | sed 's/\\/<backslash>/g')
	make_perf "$name" && pass || { fail "cannot make [$label]"; continue; }
	audit "$name"
	if [ "$(cat "$T/sugg")" = "  suggest: perf needs cap_perfmon (Linux 5.8+), not cap_sys_admin: $UNSHOWN" ]; then
		pass
	else
		fail "unshowable name [$label]: $(shown "$T/out")"
	fi
	rm -f "$T/d/$name"
done
finish "getcap --audit: the suggested setcap names the file as one argument"
