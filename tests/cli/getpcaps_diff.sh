#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# Differential test: our getpcaps and Debian's (libcap 2.66) print the
# same stdout and stderr bytes and exit the same way for the same pids and
# options: self (0, ""), $$, 1, processes with a reduced IAB (started by
# capsh --iab, and by capsh as nobody), bad and missing pids, option mixes.
# The differences are rows of docs/differences.md, which both sides go
# through before comparing: 2.66's usage line says "getcaps" (a typo fixed
# in libcap 2.70; ours says "getpcaps" like 2.76), and our usage text ends
# with lines for our own options, marked "(not in libcap)" (checked to
# come last first).
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
# Nothing here runs under valgrind: in the valgrind pass it would only
# repeat the plain pass.
[ "${VALGRIND:-0}" = 1 ] && skip "runs none of our code under valgrind (the plain and sanitizer passes run it)"
ours=$BUILD/progs/getpcaps
[ -x "$ours" ] || { fail "progs/getpcaps is not built"; finish; }
need_reference 2.66
ref=$REF/getpcaps capsh=$REF/capsh
pids=
at_exit 'for p in $pids; do kill "$p" 2>/dev/null; done'

# Long-lived targets with distinctive states, killed at exit (600 s: on a
# loaded machine, with suites side by side, the suite can take over 60).
# capsh needs privilege for --iab; without it the target is simply an
# ordinary process.
"$capsh" --iab='!cap_sys_admin,^cap_perfmon,cap_net_raw' -- -c 'exec sleep 600' \
	2>/dev/null &
pids="$pids $!"
"$capsh" --drop=cap_sys_admin --inh=cap_setpcap -- -c 'exec sleep 600' \
	2>/dev/null &
pids="$pids $!"
# Another uid with nothing, by number: the host's users are not the test's.
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	setpriv --reuid=65534 --regid=65534 --clear-groups sleep 600 2>/dev/null &
	pids="$pids $!"
fi
sleep 0.3
set -- $pids
t1=$1 t2=$2 t3=${3:-$1}

# compare ARGS...: libcap's getpcaps and ours, run now and judged by
# judge_all below, once every case ran: rows.pl (a perl start and the
# rules compiled) then runs four times in all, not four times a case.
n=0
mkdir "$T/c" || exit 1
compare() {
	n=$((n + 1))
	"$ref" "$@" >"$T/c/$n.ref.out" 2>"$T/c/$n.ref.err"
	eval "ref_rc_$n=$? args_$n=\$*"
	"$ours" "$@" >"$T/c/$n.our.out" 2>"$T/c/$n.our.err"
	eval "our_rc_$n=$?"
	if grep -q '(not in libcap)$' "$T/c/$n.our.err"; then
		# Additions only after libcap's last usage line.
		tail -n 1 "$T/c/$n.our.err" | grep -q '(not in libcap)$' && pass ||
			fail "getpcaps $*: an addition is not last"
	fi
}

# judge_all: every case's outputs through the rows of docs/differences.md
# (tests/tools/rows.pl): 2.66's usage line as 2.76 prints it, our
# --license line, usage additions and "getpcaps: unknown option" lines
# taken out; then both sides byte for byte, and the exit statuses.
judge_all() {
	for s in out err; do
		# (one check a case, as when each case ran rows.pl on its own)
		perl "$TESTS_DIR/tools/rows.pl" 2.66 getpcaps $s "$T"/c/*.ref.$s &&
			perl "$TESTS_DIR/tools/rows.pl" ours getpcaps $s "$T"/c/*.our.$s &&
			checks=$((checks + n)) || fail "tests/tools/rows.pl: failed"
	done
	i=0
	while [ $i -lt $n ]; do
		i=$((i + 1))
		c=$T/c/$i
		eval "ref_rc=\$ref_rc_$i our_rc=\$our_rc_$i args=\$args_$i"
		# pid 0 and "" name the getpcaps process itself: same state in both.
		if ! cmp -s "$c.ref.out" "$c.our.out" ||
		   ! cmp -s "$c.ref.err" "$c.our.err" || [ "$ref_rc" -ne "$our_rc" ]; then
			fail "getpcaps $args differs (exit ref $ref_rc, ours $our_rc)"
			diff "$c.ref.out" "$c.our.out" | head -5
			diff "$c.ref.err" "$c.our.err" | head -5
		else
			pass
		fi
	done
}

for opts in "" --verbose --legacy --ugly --iab "--iab --verbose" \
	    "--verbose --iab" "--iab --legacy" "--legacy --verbose" \
	    "--verbose --legacy"; do
	# shellcheck disable=SC2086
	for pid in 0 "" $$ 1 "$t1" "$t2" "$t3" +1 007 -0 " 1"; do
		compare $opts "$pid"
	done
	compare $opts 1 "$t1" "$t2" "$t3" $$
	compare $opts abc 1
	compare $opts -5 1
	compare $opts 99999999999 1
	compare $opts 99999999999999999999x
	compare $opts 2147483647 1
	compare $opts 4194304 "$t1"
	compare $opts 0x10 "1 " 1e3 -1x -- -v --foo 1
done
compare
compare --help
compare -h
compare --usage
compare 1 --help 1
compare --license
compare 1 --license 1
compare x --license
compare --iab 0 1
compare --iab --verbose "" 1
compare --iab 999999 1
compare 1 --iab "$t1" --verbose "$t2" --legacy "$t3"
judge_all

[ "$fails" -eq 0 ] || { echo "$fails of $n invocations differ"; finish; }
# The reduced-IAB target must really show its IAB (else the test is weak).
if [ "$(id -u)" -eq 0 ]; then
	"$ours" --iab "$t1" | grep -q '!cap_sys_admin.*\^cap_perfmon' ||
		{ fail "target $t1 lacks the IAB it was started with"; finish; }
fi
finish "$n invocations identical to libcap 2.66's getpcaps ($ref)"
