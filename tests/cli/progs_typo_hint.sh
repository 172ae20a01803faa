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
	[ -x "$exe" ] || { fail "$p is not built"; return; }
	(cd "$T/w" && run_ours "$exe" "$@" >"$T/o" 2>"$T/e" </dev/null)
	rc=$?
	[ $rc -eq "$want_rc" ] || fail "$p $*: exit $rc, want $want_rc"
	last=$(tail -n 1 "$T/e")
	[ "$last" = "$hint" ] ||
		fail "$p $*: last line of stderr [$last], want [$hint]"
	# The second run plain: valgrind's own lines would share the pipe.
	(cd "$T/w" && "$exe" "$@" 2>&1 </dev/null | cat >"$T/both")
	last=$(tail -n 1 "$T/both")
	[ "$last" = "$hint" ] || {
		fail "$p $* 2>&1 | cat: last line [$last], want [$hint]"
		return
	}
	# Its own line, once: nothing before it on that line, no second copy.
	[ "$(grep -c "did you mean" "$T/both")" -eq 1 ] ||
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
	cmp -s - "$T/tail" || fail "getpcaps --jsn 1 --verbsoe: last lines [$(cat "$T/tail")]"
# A pid that is no option gets no guess.
run_ours "$BUILD/progs/getpcaps" -5 1 >/dev/null 2>"$T/e" </dev/null
grep -q "did you mean\|unknown option" "$T/e" && fail "getpcaps -5: a guess for a bad pid"

finish "the guess is the last line, on its own, for every program"
