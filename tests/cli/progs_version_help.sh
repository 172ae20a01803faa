#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# --version for every program and plain answers to mistakes: the unknown
# word named, the nearest option,
# command or capability name suggested. Where libcap's program prints
# something for the same mistake, its lines come first, byte for byte as
# Debian's 2.66 prints them (with our usage additions taken out), same
# stdout and exit status; ours follow.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init

version=$(sed -n 's/^VERSION_\(MAJOR\|MINOR\) *:= *\([0-9]*\)$/\2/p' "$TOP/Make.Rules" |
	paste -sd.)
[ -n "$version" ] || { fail "no version in Make.Rules"; finish; }

prog_path() {
	case $1 in
	capcheck) echo "$BUILD/progs/capcheck" ;;
	*) echo "$BUILD/progs/$1" ;;
	esac
}

# --- --version: one line on stdout, nothing else, status 0 ----------------
# Every program progs/ builds (one folder each). capaudit adds a second
# line: whether counting in the kernel is built in (a build without the
# BPF tool chain leaves it out).
for p in $(cd "$TOP/progs" && ls -d */ | tr -d /); do
	exe=$(prog_path "$p")
	[ -x "$exe" ] && pass || { fail "$p is not built"; continue; }
	run_ours "$exe" --version >"$T/o" 2>"$T/e" </dev/null; rc=$?
	[ $rc -eq 0 ] && pass || fail "$p --version: exit $rc"
	if [ "$p" = capaudit ]; then
		head -n 1 "$T/o" >"$T/o1"
		tail -n +2 "$T/o" | grep -qxE 'counting in the kernel: (built in|not built in: capaudit was built without the BPF tool chain \(clang, bpftool, libbpf-dev\))' &&
			[ "$(wc -l <"$T/o")" -eq 2 ] && pass || fail "capaudit --version: no counting line [$(head -c 300 "$T/o")]"
		mv "$T/o1" "$T/o"
	fi
	echo "$p (libcap-perfmon) $version" | cmp -s - "$T/o" && pass ||
		fail "$p --version: stdout [$(head -c 200 "$T/o")]"
	[ -s "$T/e" ] && fail "$p --version: stderr [$(head -c 200 "$T/e")]" || pass
done
# Options before it still count, as for -h and --license.
for args in "setcap -q --version" "getcap -r --version" \
	    "getpcaps --verbose --version" "capsh --quiet --version"; do
	set -- $args; p=$1; shift
	run_ours "$(prog_path "$p")" "$@" >"$T/o" 2>/dev/null </dev/null; rc=$?
	[ $rc -eq 0 ] && grep -qxF "$p (libcap-perfmon) $version" "$T/o" && pass ||
		fail "$args: exit $rc, stdout [$(head -c 200 "$T/o")]"
done
# A --version that cannot be written is not a success.
if [ -w /dev/full ]; then
	run_ours "$BUILD/progs/getcap" --version >/dev/full 2>"$T/e"; rc=$?
	[ $rc -ne 0 ] && grep -q '^getcap: writing --version: No space left on device$' "$T/e" && pass ||
		fail "getcap --version >/dev/full: exit $rc [$(cat "$T/e")]"
fi

# --- mistakes ---------------------------------------------------------------
# mistake PROG WANT_RC OURS_LINES ARGS...: our program exits WANT_RC; its
# stderr ends in OURS_LINES (newline-separated; "" for none). With
# Debian's libcap 2.66 at hand ($REF/PROG), what comes before our lines
# (less our usage additions) equals Debian's stderr, and stdout and
# status agree: judged by judge_mistakes once every case ran, so that
# rows.pl (a perl start and the rules compiled) runs four times a
# program, not four times a case.
# Under VALGRIND=1 every fourth case runs in valgrind (each start costs a
# second or two there); the others run plain.
k=0 compared= M=$T/m
mkdir "$M" || exit 1
mistake() {
	p=$1 want_rc=$2 ours_lines=$3; shift 3
	exe=$(prog_path "$p")
	k=$((k + 1)) vg=
	[ $((k % 4)) -eq 1 ] && vg=${VALGRIND_CMD:-}
	(cd "$T/w" && $vg "$exe" "$@" >"$M/$k.$p.u.o" 2>"$T/u.e" </dev/null)
	rc=$?
	[ $rc -eq "$want_rc" ] && pass || fail "$p $*: exit $rc, want $want_rc"
	n=0
	[ -n "$ours_lines" ] && n=$(printf '%s\n' "$ours_lines" | wc -l)
	if [ "$n" -gt 0 ]; then
		tail -n "$n" "$T/u.e" >"$T/ours"
		printf '%s\n' "$ours_lines" | cmp -s - "$T/ours" && pass ||
			fail "$p $*: our lines [$(cat "$T/ours")], want [$ours_lines]"
	fi
	ref=$REF/$p
	[ -n "$compare" ] && [ -x "$ref" ] && [ "$p" != capmanifest ] &&
		[ "$p" != perfdoctor ] && [ "$p" != capcheck ] || return 0
	(cd "$T/w" && "$ref" "$@" >"$M/$k.$p.r.o" 2>"$M/$k.$p.r.e" </dev/null)
	ref_rc=$?
	[ $ref_rc -eq $rc ] && pass || fail "$p $*: exit $rc, libcap's $ref_rc"
	# Both name themselves by argv[0]: compare by program name.
	sed -i "s#$ref#$p#g" "$M/$k.$p.r.o" "$M/$k.$p.r.e"
	sed -i "s#$exe#$p#g" "$M/$k.$p.u.o" "$T/u.e"
	total=$(wc -l <"$T/u.e")
	head -n $((total - n)) "$T/u.e" >"$M/$k.$p.u.e"
	compared="$compared $k.$p"
	eval "case_$k=\"\$p \$*\""
}

# judge_mistakes: the saved outputs through the rows of
# docs/differences.md (tests/tools/rows.pl): 2.66's output as 2.76 prints
# it, ours without our additions and deliberate differences; then
# libcap's stderr lines and stdout, each case's side by side.
judge_mistakes() {
	[ -n "$compared" ] || return 0
	for p in setcap getcap getpcaps capsh; do
		m=$(cd "$M" && ls | sed -n "s/^\([0-9]*\.$p\)\.r\.o\$/\1/p")
		[ -n "$m" ] || continue
		for args in "2.66 r.e err" "2.66 r.o out" "ours u.e err" "ours u.o out"; do
			set -- $args
			# (one check a case, as when each case ran rows.pl)
			(cd "$M" && perl "$TESTS_DIR/tools/rows.pl" "$1" "$p" "$3" \
				$(for c in $m; do echo "$c.$2"; done)) &&
				checks=$((checks + $(echo $m | wc -w))) ||
				fail "tests/tools/rows.pl $1 $p $3: no rows applied"
		done
	done
	for c in $compared; do
		eval "what=\$case_${c%%.*}"
		cmp -s "$M/$c.u.e" "$M/$c.r.e" && pass || {
			fail "$what: libcap's stderr lines differ (< 2.66, > ours)"
			diff "$M/$c.r.e" "$M/$c.u.e" | head -n 8
		}
		cmp -s "$M/$c.u.o" "$M/$c.r.o" && pass || {
			fail "$what: stdout differs (< 2.66, > ours)"
			diff "$M/$c.r.o" "$M/$c.u.o" | head -n 8
		}
	done
}

mkdir "$T/w" && touch "$T/w/f" || exit 1
# libcap's lines are compared with Debian's 2.66 (the rows are 2.66's).
compare=
if has_reference 2.66 libcap2-bin; then
	compare=1
	[ -x "$REF/setcap" ] || not_checked "$REF/setcap absent: libcap's lines not compared"
else
	not_checked "libcap's lines not compared: $reference_why"
fi

# setcap: options it does not have are capability text to libcap.
mistake setcap 1 "setcap: unknown option '--help'; did you mean -h?" --help f
mistake setcap 1 "setcap: unknown option '--hlep'; did you mean -h?" --hlep f
mistake setcap 1 "setcap: unknown option '--verison'; did you mean --version?" --verison f
mistake setcap 1 "setcap: unknown option '--lisence'; did you mean --license?" --lisence f
mistake setcap 1 "setcap: unknown option '-x'" -x f
mistake setcap 1 "setcap: unknown option '--perf-grup=x'; did you mean --perf-group=?" --perf-grup=x f
mistake setcap 1 "setcap: bad capability text, clause 1 of 1 \"cap_perfmn+ep\": unknown capability name \"cap_perfmn\"
setcap: unknown capability 'cap_perfmn'; did you mean cap_perfmon?" cap_perfmn+ep f
mistake setcap 1 "setcap: bad capability text, clause 2 of 2 \"CAP_SYSADMIN-i\": unknown capability name \"CAP_SYSADMIN\"
setcap: unknown capability 'CAP_SYSADMIN'; did you mean cap_sys_admin?" "cap_chown=ep CAP_SYSADMIN-i" f
mistake setcap 1 "setcap: bad capability text, clause 1 of 1 \"perfmon=ep\": unknown capability name \"perfmon\"
setcap: unknown capability 'perfmon'; did you mean cap_perfmon?" perfmon=ep f
# Far from every name: libcap's lines and the explanation, no guess.
mistake setcap 1 "setcap: bad capability text, clause 1 of 1 \"cap_xyzzy_plugh=p\": unknown capability name \"cap_xyzzy_plugh\"" cap_xyzzy_plugh=p f

# getcap: libcap's getopt names only the '-' of a --word.
mistake getcap 1 "getcap: unknown option '--jsn'; did you mean --json?" --jsn f
mistake getcap 1 "getcap: unknown option '--help'; did you mean -h?" --help
mistake getcap 1 "getcap: unknown option '--audti'; did you mean --audit?" --audti f
mistake getcap 1 "getcap: unknown option '--exlcude=/x'; did you mean --exclude=?" -r --exlcude=/x .
mistake getcap 1 "getcap: unknown option '--frobnicate'" --frobnicate f
mistake getcap 1 "" -z f
# The word is the user's: escaped, so it cannot forge or hide a line.
esc=$(printf '\033')
mistake getcap 1 "getcap: unknown option '--js\\033[2Jn'" "--js$esc[2Jn" f

# getpcaps: libcap reads an option it lacks as a pid it cannot parse.
mistake getpcaps 1 "getpcaps: unknown option '--jsn'; did you mean --json?" --jsn 1
mistake getpcaps 1 "getpcaps: unknown option '--verbse'; did you mean --verbose?" --verbse 1
mistake getpcaps 1 "" -1x

# capsh: libcap prints its usage (stdout) and nothing on stderr.
mistake capsh 1 "capsh: unknown option '--dcode'; did you mean --decode=?" --dcode
mistake capsh 1 "capsh: unknown option '--dcode=0x4000000000'; did you mean --decode=?" --dcode=0x4000000000
mistake capsh 1 "capsh: unknown option '--prnit'; did you mean --print?" --prnit
mistake capsh 1 "capsh: unknown option '--xyzzy'" --xyzzy
mistake capsh 1 "capsh: unknown option '--modez'; did you mean --mode?" --modez
mistake capsh 1 "capsh: unknown capability 'cap_perfmn'; did you mean cap_perfmon?" --drop=cap_perfmn
mistake capsh 1 "capsh: unknown capability 'cap_perfmn'; did you mean cap_perfmon?" --has-p=cap_perfmn
mistake capsh 1 "capsh: unknown capability 'cap_bpff'; did you mean cap_bpf?" --supports=cap_bpff
mistake capsh 1 "capsh: unknown capability 'cap_perfmn'; did you mean cap_perfmon?" --explain=cap_perfmn
mistake capsh 1 "capsh: unknown capability 'cap_perfmn'; did you mean cap_perfmon?" --caps=cap_perfmn=ep
mistake capsh 1 "capsh: unknown capability 'cap_sysadmin'; did you mean cap_sys_admin?" --iab=!cap_sysadmin
mistake capsh 1 "" --drop=cap_nothing_like_this
# A name without libcap's "cap_" prefix, as the kernel's documents write it.
mistake capsh 1 "capsh: unknown capability 'perfmon'; did you mean cap_perfmon?" --explain=perfmon
mistake capsh 1 "capsh: unknown capability 'perfmon'; did you mean cap_perfmon?" --supports=perfmon
mistake capsh 1 "capsh: unknown capability 'sys_admin'; did you mean cap_sys_admin?" --drop=sys_admin

# The cases of libcap's programs, beside libcap 2.66's.
judge_mistakes

# Our own programs: no libcap lines to keep; the usage, then the guess
# last (tests/cli/progs_typo_hint.sh checks the order for every program).
mistake capmanifest 2 "capmanifest: unknown command 'recrod'; did you mean record?" recrod .
grep -q '^usage: capmanifest record' "$T/u.e" && pass || fail "capmanifest recrod: no usage"
mistake capmanifest 2 "capmanifest: unknown command 'list'" list .
mistake capmanifest 2 "" verify only-one
head -n 1 "$T/u.e" | grep -qxF "capmanifest: verify takes 2 operands (<manifest> <dir>), got 1" && pass ||
	fail "capmanifest verify: first line [$(head -n 1 "$T/u.e")]"
mistake capmanifest 2 "capmanifest: unknown option '--fix-ownr'; did you mean --fix-owner?" restore --fix-ownr m .
mistake perfdoctor 2 "perfdoctor: unknown option '--usr=bob'; did you mean --user=?" --usr=bob
mistake capcheck 2 "capcheck: unknown option '--confg=/x'; did you mean --config=?" --confg=/x

finish "--version and mistakes: all checks passed"
