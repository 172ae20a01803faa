#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# Differential test, as root on the real kernel: our capsh and libcap's
# capsh (Debian's 2.66) run the same argument lists, and stdout, stderr and
# the exit status must be byte-identical. Both programs' paths are replaced
# by "CAPSH" and child PIDs by "PID=N" first. Then both go through the rows
# of docs/differences.md (tests/tools/rows.pl): libcap's usage and --license
# text, and ours without our additions and deliberate differences (nothing
# else may differ). --explain/--suggest descriptions are our own and are
# not compared; their error paths are. Our one-line plain answer to a
# mistake is a row too (cli/progs_typo_hint.sh checks where it goes).
# Numbers that libcap wraps or half-reads (--uid=4294967296, --decode=zz,
# --groups=1x, ...) are refused on purpose (the wrapped value is another
# id) and checked in
# root/progs_numbers_range.sh instead; in-range numbers stay here.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
# Users and groups by name (nobody, nogroup) from the base accounts only.
private_etc "$@"
ours=$BUILD/progs/capsh
need_reference 2.66
ref=$REF/capsh
[ -x "$ours" ] || { fail "our capsh is not built"; finish; }
[ "$(id -u)" -eq 0 ] || skip "needs root"
id nobody >/dev/null 2>&1 || skip "no user nobody"

chmod 755 "$T"

# One argument list per line, in sh quoting.
cat >"$T/cases" <<'CASES'

--print
--current
--help
-h
-h --print
--print --help
--foo
--print --foo
--modex
--modes=1
--mode
--modes
--mode=FOO
--mode=
--mode=NOPRIV --print
--mode=PURE1E --print
--mode=PURE1E_INIT --inmode=PURE1E_INIT --mode
--mode=NOPRIV --mode=HYBRID
--inmode=HYBRID
--inmode=NOPRIV
--user=nobody --print
--user=nosuchuser
--user=
--user=daemon --current
--drop=cap_chown,cap_kill --print
--drop=all --print
--drop=cap_chown,,cap_kill --current
--drop=foo
--drop=41
--drop=cap_kill,all
--caps=cap_setpcap=p --strict --drop=cap_kill
--caps=cap_setpcap=p --drop=cap_kill --current
--caps=cap_setpcap=p --strict --drop=all
--caps=cap_chown=p --drop=cap_kill
--uid=65534 --drop=cap_chown
'--iab=!cap_kill,^cap_chown' --print
--iab=all
--iab= --current
--uid=65534 --iab=cap_chown
--secbits=0x2f --print
--secbits=0xc0 --print
--secbits=x
--secbits=-1
--secbits=0x1000
--decode=3
--decode=0x4000000000
--decode=ffffffffffffffff
--supports=cap_perfmon
--supports=41
--supports=64
--supports=foo
--supports=0x26
--has-p=cap_chown
--has-p=foo
--has-p=41
--uid=65534 --has-p=cap_chown
--has-i=cap_chown
--inh=cap_chown --has-i=cap_chown --current
--has-a=cap_chown
--inh=cap_chown --addamb=cap_chown --has-a=cap_chown --print
--has-a=41
--has-b=cap_chown
--has-b=63
--drop=cap_chown --has-b=cap_chown
--dropped=cap_chown
--dropped=41
--drop=cap_chown --dropped=cap_chown --current
--has-ambient
--has-ambientx
--has-no-new-privs
--no-new-privs --has-no-new-privs --print
--caps=foo
--caps= --current
--caps=cap_chown=ep --print
--caps=cap_setpcap=p '--caps=cap_setpcap=p cap_chown=i' --current
--caps=cap_setpcap=p --strict '--caps=cap_setpcap=p cap_chown=i'
--caps=cap_setpcap=p --strict --strict '--caps=cap_setpcap=p cap_chown=i' --current
--caps=cap_setpcap=p --inh=cap_chown --current
--strict --caps=cap_setpcap=p --inh=cap_chown
--inh=foo
--inh=none --current
--inh= --current
--inh=all
--inh=cap_chown --inh=cap_kill --current
--caps=cap_kill=p --inh=cap_kill+e --current
--addamb=cap_chown
--addamb=cap_chown,foo
--addamb=all
--addamb=
--delamb=41
--delamb=all --current
--uid=65534 --addamb=all
--inh=cap_chown,cap_kill --addamb=cap_chown,cap_kill --delamb=cap_kill --current
--inh=cap_chown,cap_kill --addamb=cap_chown,cap_kill --noambXYZ --current
--noam
--keep=2
--keep=x
--keep=1 --print
--uid=-1
--uid=-0
--uid=' 0' --current
--uid=1x
--uid=
--uid=4294967295
--gid=1 --uid=2 --print
--cap-uid=65534 --print
--uid=65534 --cap-uid=0
--uid=65534 --uid=0
--uid=65534 --user=root
--uid=65534 --mode=NOPRIV
--uid=65534 --secbits=1
--uid=65534 --inh=cap_chown
--groups=0,1,2 --print
--groups=root,daemon,bin --print
--groups=010,0x10 --print
--groups=,0 --print
--groups= --print
--groups=nosuch
--groups=root,nosuch
--groups=99999 --gid=99999 --print
--uid=65534 --groups=0
--is-uid=0 --is-gid=0
--is-uid=5
--is-gid=5
--is-gid=x
--forkfor=0
--forkfor=x
--forkfor=1 --forkfor=1
--forkfor=1 --killit=18
--forkfor=5 --killit=9
--forkfor=1 --killit=99
--killit=9
--killit=-1
--license --foo
--explain=64
--explain=-1
--explain=foo
--explain=
--explain=41
--explain=63
--chroot=/nonexistent
--chroot=
--uid=65534 --chroot=/
--caps=cap_chown=ep --chroot=/
--shell=/bin/sh -- -c 'echo "$0" "$@"; exit 3' a b
--shell=/nonexistent -- x
--user=nobody --shell=/bin/sh -- -c 'echo "$HOME"; id -u'
--noenv --user=nobody --shell=/bin/sh -- -c 'echo "$HOME"'
-+ -c 'exit 4'
-+ -c 'kill -15 $$'
--print=1
--quiet --print
--quiet=1
-- -c 'exit 5'
=+ --foo
=+ --mode
== --current
== --quiet --user=nobody --current
--user=nobody --caps=cap_perfmon=p --has-p=cap_perfmon --addamb=cap_perfmon
--caps=cap_perfmon,cap_setuid,cap_setgid=p --keep=1 --user=nobody --inh=cap_perfmon --addamb=cap_perfmon --print
CASES

norm() {
	sed -e "s|$ours|CAPSH|g" -e "s|$ref|CAPSH|g" -e 's/PID=[0-9]*/PID=N/g' "$1"
}
# The deliberate differences are rows of docs/differences.md: both sides
# go through them (tests/tools/rows.pl FILE_SIDE STREAM FILE).
rows() {
	perl "$TESTS_DIR/tools/rows.pl" "$1" capsh "$2" "$3" && pass ||
		fail "tests/tools/rows.pl $*: failed"
}

# 41 stands for the first number neither libcap 2.66 nor our table names.
first_unnamed=$(grep -c '^CAP_FACT(' "$TOP/private/caps.def")
[ "$first_unnamed" -gt 41 ] && sed -i "s/=41\$/=$first_unnamed/" "$T/cases"

n=0
while IFS= read -r line; do
	n=$((n + 1))
	eval "set -- $line"
	(cd "$T" && "$ref" "$@" >"$T/r.out" 2>"$T/r.err" </dev/null); rrc=$?
	(cd "$T" && "$ours" "$@" >"$T/o.out" 2>"$T/o.err" </dev/null); orc=$?
	# Most runs match as they are; normalise only the others.
	if [ "$rrc" = "$orc" ] && cmp -s "$T/r.out" "$T/o.out" &&
	   cmp -s "$T/r.err" "$T/o.err"; then
		continue
	fi
	norm "$T/r.out" >"$T/r.out.n"; norm "$T/r.err" >"$T/r.err.n"
	rows 2.66 out "$T/r.out.n"; rows 2.66 err "$T/r.err.n"
	# Names 2.66 lacks (private/caps.def's beyond 40) as the numbers it prints.
	norm "$T/o.out" | sh "$TESTS_DIR/tools/as_libcap266.sh" >"$T/o.out.n"
	norm "$T/o.err" >"$T/o.err.n"
	rows ours out "$T/o.out.n"; rows ours err "$T/o.err.n"
	# Our plain answer to a mistake must be the last line (the row took it
	# out wherever it was: cli/progs_typo_hint.sh checks where).
	if [ "$rrc" != "$orc" ] || ! cmp -s "$T/r.out.n" "$T/o.out.n" ||
	   ! cmp -s "$T/r.err.n" "$T/o.err.n"; then
		fail "capsh $line: differs"
		echo "  exit: libcap $rrc, ours $orc"
		diff "$T/r.out.n" "$T/o.out.n" | head -8 | sed 's/^/  stdout /'
		diff "$T/r.err.n" "$T/o.err.n" | head -8 | sed 's/^/  stderr /'
	else
		pass
	fi
done <"$T/cases"
echo "$n argument lists, $fails differ"
[ "$n" -ge 40 ] && pass || fail "too few cases: $n"
finish
