#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# getcap -r while the tree is being deleted under it: files and whole
# directories vanish mid-walk. getcap must finish (no crash, no hang, exit
# 0 as libcap's), print only whole lines for files that really carried
# capabilities, and say nothing on stderr but its own directory messages.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
command -v setfattr >/dev/null 2>&1 || skip "setfattr (attr) is not installed"
getcap=$BUILD/progs/getcap
# cap_net_raw=ep, revision 2, as setcap writes it.
value=0x0100000200200000000000000000000000000000

round=0
while [ $round -lt 5 ]; do
	round=$((round + 1))
	t=$T/t$round
	d=0
	while [ $d -lt 40 ]; do
		mkdir -p "$t/d$d/sub"
		f=0
		while [ $f -lt 50 ]; do : >"$t/d$d/f$f"; f=$((f + 1)); done
		: >"$t/d$d/sub/capped"
		setfattr -n security.capability -v $value "$t/d$d/sub/capped"
		d=$((d + 1))
	done
	# Delete from the far end while getcap walks from the near one.
	( d=39; while [ $d -ge 0 ]; do rm -rf "$t/d$d"; d=$((d - 1)); done ) &
	deleter=$!
	timeout 60 "$getcap" -r "$t" >"$T/out" 2>"$T/err"; rc=$?
	wait $deleter
	[ $rc -eq 0 ] && pass || fail "round $round: exit $rc (124 = hung, >128 = signal)"
	bad=$(grep -v "^$t/d[0-9]*/sub/capped cap_net_raw=ep\$" "$T/out")
	[ -z "$bad" ] && pass || fail "round $round: unexpected stdout: $bad"
	bad=$(grep -v "^Failed to read directory '$t/d[0-9]*\(/sub\)\?' (No such file or directory)\$" "$T/err")
	[ -z "$bad" ] && pass || fail "round $round: unexpected stderr: $bad"
	echo "round $round: $(wc -l <"$T/out") of 40 capped files seen before they vanished"
done
# The same walk with nothing vanishing sees every capped file.
mkdir -p "$T/still/a" && : >"$T/still/a/capped" &&
	setfattr -n security.capability -v $value "$T/still/a/capped"
[ "$("$getcap" -r "$T/still")" = "$T/still/a/capped cap_net_raw=ep" ] && pass || fail "control walk"
finish
