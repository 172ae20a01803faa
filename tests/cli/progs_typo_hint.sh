#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# A mistyped option or command gets one "did you mean" line, and it is the
# last line a person sees: after libcap's usage text (which stays as it
# is, tests/cli/progs_upstream_diff.sh), after our usage text, and after
# what the other arguments printed (getpcaps' pids), on a terminal and
# through one pipe (2>&1 | less) alike. The line is a line of its own,
# "<program>: unknown ...", never glued to another message.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
mkdir "$T/w" && touch "$T/w/f" || exit 1

# hint_last PROG WANT_RC HINT ARGS...: both the last line of stderr alone
# and the last line of stdout and stderr through one pipe are HINT.
hint_last() {
	p=$1 want_rc=$2 hint=$3; shift 3
	exe=$BUILD/progs/$p
	[ -x "$exe" ] && pass || { fail "$p is not built"; return; }
	(cd "$T/w" && run_ours "$exe" "$@" >"$T/o" 2>"$T/e" </dev/null)
	rc=$?
	[ $rc -eq "$want_rc" ] && pass || fail "$p $*: exit $rc, want $want_rc"
	last=$(tail -n 1 "$T/e")
	[ "$last" = "$hint" ] && pass ||
		fail "$p $*: last line of stderr [$last], want [$hint]"
	# The second run plain: valgrind's own lines would share the pipe.
	(cd "$T/w" && "$exe" "$@" 2>&1 </dev/null | cat >"$T/both")
	last=$(tail -n 1 "$T/both")
	[ "$last" = "$hint" ] && pass || {
		fail "$p $* 2>&1 | cat: last line [$last], want [$hint]"
		return
	}
	# Its own line, once: nothing before it on that line, no second copy.
	[ "$(grep -c "did you mean" "$T/both")" -eq 1 ] && pass ||
		fail "$p $*: the hint is not printed exactly once"
	pass
}

# libcap's programs: their lines first (same bytes as upstream's), ours last.
hint_last setcap 1 "setcap: unknown option '--hlep'; did you mean -h?" --hlep f
hint_last setcap 1 "setcap: unknown capability 'perfmon'; did you mean cap_perfmon?" perfmon+ep f
hint_last getcap 1 "getcap: unknown option '--jsn'; did you mean --json?" --jsn f
hint_last getpcaps 1 "getpcaps: unknown option '--verbsoe'; did you mean --verbose?" --verbsoe 1 $$
hint_last getpcaps 1 "getpcaps: unknown option '--jsn'; did you mean --json?" 1 --jsn 1
hint_last capsh 1 "capsh: unknown option '--prnit'; did you mean --print?" --prnit
hint_last capsh 1 "capsh: unknown capability 'perfmon'; did you mean cap_perfmon?" --explain=perfmon
hint_last capsh 1 "capsh: unknown capability 'perfmon'; did you mean cap_perfmon?" --supports=perfmon
# Ours: the usage text, then the guess.
hint_last capmanifest 2 "capmanifest: unknown command 'recrod'; did you mean record?" recrod .
hint_last capmanifest 2 "capmanifest: unknown option '--fix-ownr'; did you mean --fix-owner?" restore --fix-ownr m .
hint_last perfdoctor 2 "perfdoctor: unknown option '--usr=bob'; did you mean --user=?" --usr=bob
hint_last capcheck 2 "capcheck: unknown option '--confg=/x'; did you mean --config=?" --confg=/x
hint_last capaudit 2 "capaudit: unknown option '--jsn'; did you mean --json?" --jsn true

# getpcaps: every mistyped option gets its line, in order, after the pids.
(cd "$T/w" && "$BUILD/progs/getpcaps" --jsn 1 --verbsoe 2>&1 </dev/null |
	cat >"$T/both")
tail -n 2 "$T/both" >"$T/tail"
printf '%s\n' "getpcaps: unknown option '--jsn'; did you mean --json?" \
	"getpcaps: unknown option '--verbsoe'; did you mean --verbose?" |
	cmp -s - "$T/tail" && pass || fail "getpcaps --jsn 1 --verbsoe: last lines [$(cat "$T/tail")]"
# A pid that is no option gets no guess.
run_ours "$BUILD/progs/getpcaps" -5 1 >/dev/null 2>"$T/e" </dev/null
grep -q "did you mean\|unknown option" "$T/e" && fail "getpcaps -5: a guess for a bad pid" || pass

# --- every option of every table: in the usage text, and guessed ----------
# The options come from each program's option table in its source (one
# table per program feeds its parse, usage text and hints), so a row whose
# option the usage text leaves out, or whose one-letter typo the "did you
# mean" does not name, fails here. The man pages follow: docs_man_pages.sh
# checks that every option of the usage text is in the program's page.
# has FILE OPTION: OPTION appears in FILE as a word of its own.
has() {
	grep -qE -- "(^|[^A-Za-z0-9_-])$(printf '%s' "${2%=}" |
		sed 's/[+.]/\\&/g')([^A-Za-z0-9_-]|$)" "$1"
}
# typo OPTION: its second letter after "--" turned into 'z' (or 'y'), not a
# prefix of any option getopt_long() would take as an abbreviation.
typo() {
	name=${1#--} name=${name%=}
	rest=${name#??} first=${name%"${name#?}"} second=${name#?}
	second=${second%"$rest"}
	sub=z; [ "$second" = z ] && sub=y
	printf -- '--%s%s%s' "$first" "$sub" "$rest"
	case $1 in *=) printf '=x' ;; esac
}
# guessed PROG WORD OPTION ARGS...: the last stderr line of PROG ARGS is
# the guess of OPTION (or OPTION= / OPTION without '=') for WORD.
guessed() {
	p=$1 word=$2 want=${3%=}; shift 3
	last=$(cd "$T/w" && $vg "$BUILD/progs/$p" "$@" 2>&1 >/dev/null </dev/null |
		tail -n 1)
	[ "$last" = "$p: unknown option '$word'; did you mean $want?" ] ||
		[ "$last" = "$p: unknown option '$word'; did you mean $want=?" ]
}
total=0 k=0
for p in setcap getcap getpcaps capsh capcheck capmanifest perfdoctor capaudit; do
	cat "$TOP"/progs/$p/*.c | perl "$TESTS_DIR/tools/opt_table.pl" >"$T/table" && pass ||
		{ fail "$p: no option table found in progs/$p"; continue; }
	[ "$(wc -l <"$T/table")" -ge 4 ] && pass ||
		{ fail "$p: $(wc -l <"$T/table") options in its table"; continue; }
	case $p in
	capsh|getpcaps|capaudit) help=--help ;;
	*) help=-h ;;
	esac
	"$BUILD/progs/$p" $help >"$T/usage" 2>&1 </dev/null
	while read -r opt; do
		total=$((total + 1))
		has "$T/usage" "$opt" && pass || fail "$p: $opt is not in its $help text"
		case $opt in --*) ;; *) continue ;; esac
		# Under VALGRIND=1 every sixteenth guess runs in valgrind.
		k=$((k + 1)) vg=
		[ $((k % 16)) -eq 1 ] && vg=${VALGRIND_CMD:-}
		word=$(typo "$opt")
		case $p in
		setcap|getcap) guessed $p "$word" "$opt" "$word" f ;;
		capaudit) guessed $p "$word" "$opt" "$word" true ;;
		# Some stand instead of the command, the rest after it.
		capmanifest) guessed $p "$word" "$opt" "$word" ||
			guessed $p "$word" "$opt" restore "$word" m . ;;
		*) guessed $p "$word" "$opt" "$word" ;;
		esac && pass || fail "$p $word: last line [$last], want the guess $opt"
	done <"$T/table"
done
echo "$total table options checked"
[ "$total" -ge 100 ] && pass || fail "only $total options in the tables"
pass

finish "the guess is the last line, on its own, for every program"
