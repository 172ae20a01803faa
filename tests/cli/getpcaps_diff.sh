#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# Differential test: our getpcaps and the system's (libcap 2.66) print the
# same stdout and stderr bytes and exit the same way for the same pids and
# options: self (0, ""), $$, 1, processes with a reduced IAB (started by
# capsh --iab, and by capsh as nobody), bad and missing pids, option mixes.
# The one intended difference: 2.66's usage line says "getcaps" (a typo
# fixed in libcap 2.70); ours says "getpcaps" like 2.76. Our usage text
# also ends with lines for our own options, marked "(not in libcap)": those
# additions are removed before comparing, after checking they come last.
set -u
# Nothing here runs under valgrind: in the valgrind pass it would only
# repeat the plain pass.
[ "${VALGRIND:-0}" = 1 ] && { echo "skipped: runs none of our code under valgrind (the plain and sanitizer passes run it)"; exit 77; }
ours=$BUILD/progs/getpcaps ref=/usr/sbin/getpcaps capsh=/usr/sbin/capsh
[ -x "$ours" ] || { echo "progs/getpcaps is not built"; exit 1; }
if [ ! -x "$ref" ] || [ ! -x "$capsh" ]; then
	echo "skipped: /usr/sbin/getpcaps or capsh (libcap2-bin) is not installed"; exit 77
fi
tmp=$(mktemp -d)
pids=
cleanup() { for p in $pids; do kill "$p" 2>/dev/null; done; rm -rf "$tmp"; }
trap cleanup EXIT

# Long-lived targets with distinctive states. capsh needs privilege for
# --iab; without it the target is simply an ordinary process.
"$capsh" --iab='!cap_sys_admin,^cap_perfmon,cap_net_raw' -- -c 'exec sleep 60' \
	2>/dev/null &
pids="$pids $!"
"$capsh" --drop=cap_sys_admin --inh=cap_setpcap -- -c 'exec sleep 60' \
	2>/dev/null &
pids="$pids $!"
# Another uid with nothing, by number: the host's users are not the test's.
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	setpriv --reuid=65534 --regid=65534 --clear-groups sleep 60 2>/dev/null &
	pids="$pids $!"
fi
sleep 0.3
set -- $pids
t1=$1 t2=$2 t3=${3:-$1}

n=0 bad=0
check() {
	n=$((n + 1))
	"$ref" "$@" >"$tmp/ref.out" 2>"$tmp/ref.err"; ref_rc=$?
	"$ours" "$@" >"$tmp/our.out" 2>"$tmp/our.err"; our_rc=$?
	sed -i 's/^usage: getcaps /usr: getpcaps /; s/^usr: /usage: /' "$tmp/ref.err"
	# --license: our second line names our authors, not libcap's.
	sed -i 's/^\[Copyright (c) 1997-8,2007-8,19,21-22 Andrew G. Morgan <morgan@kernel.org>\]$/[Copyright (c) 2026 the libcap-perfmon authors (an independent reimplementation of libcap'"'"'s getpcaps)]/' "$tmp/ref.out"
	if grep -q '(not in libcap)$' "$tmp/our.err"; then
		# Additions only after libcap's last usage line.
		tail -n 1 "$tmp/our.err" | grep -q '(not in libcap)$' ||
			{ bad=$((bad + 1)); echo "ADDITION NOT LAST: getpcaps $*"; }
		sed -i '/(not in libcap)$/d' "$tmp/our.err"
	fi
	# Ours: after libcap's "Cannot parse pid -x" line, the unknown option
	# named (tests/cli/cli_version_help.sh checks those lines).
	sed -i "/^getpcaps: unknown option '/d" "$tmp/our.err"
	# pid 0 and "" name the getpcaps process itself: same state in both.
	if ! cmp -s "$tmp/ref.out" "$tmp/our.out" ||
	   ! cmp -s "$tmp/ref.err" "$tmp/our.err" || [ $ref_rc -ne $our_rc ]; then
		bad=$((bad + 1))
		echo "DIFFERS: getpcaps $* (exit ref $ref_rc, ours $our_rc)"
		diff "$tmp/ref.out" "$tmp/our.out" | head -5
		diff "$tmp/ref.err" "$tmp/our.err" | head -5
	fi
}

for opts in "" --verbose --legacy --ugly --iab "--iab --verbose" \
	    "--verbose --iab" "--iab --legacy" "--legacy --verbose" \
	    "--verbose --legacy"; do
	# shellcheck disable=SC2086
	for pid in 0 "" $$ 1 "$t1" "$t2" "$t3" +1 007 -0 " 1"; do
		check $opts "$pid"
	done
	check $opts 1 "$t1" "$t2" "$t3" $$
	check $opts abc 1
	check $opts -5 1
	check $opts 99999999999 1
	check $opts 99999999999999999999x
	check $opts 2147483647 1
	check $opts 4194304 "$t1"
	check $opts 0x10 "1 " 1e3 -1x -- -v --foo 1
done
check
check --help
check -h
check --usage
check 1 --help 1
check --license
check 1 --license 1
check x --license
check --iab 0 1
check --iab --verbose "" 1
check --iab 999999 1
check 1 --iab "$t1" --verbose "$t2" --legacy "$t3"

[ "$bad" -eq 0 ] || { echo "$bad of $n invocations differ"; exit 1; }
# The reduced-IAB target must really show its IAB (else the test is weak).
if [ "$(id -u)" -eq 0 ]; then
	"$ours" --iab "$t1" | grep -q '!cap_sys_admin.*\^cap_perfmon' ||
		{ echo "target $t1 lacks the IAB it was started with"; exit 1; }
fi
echo "$n invocations identical to /usr/sbin/getpcaps"
