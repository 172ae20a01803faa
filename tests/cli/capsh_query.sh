#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# capsh's read-only options, with no privilege needed: --decode, --supports,
# --has-*, --dropped, --is-uid/--is-gid, --mode/--modes/--inmode, the
# --print and --current layout checked against /proc/self/status and id(1),
# the number parser's messages, the failure messages of the options that
# change state (-+ whose child cannot exec), and --forkfor/--killit on an
# unprivileged child.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
# Nothing here runs under valgrind: in the valgrind pass it would only
# repeat the plain pass.
[ "${VALGRIND:-0}" = 1 ] && skip "runs none of our code under valgrind (the plain and sanitizer passes run it)"
C=$BUILD/progs/capsh
[ -x "$C" ] || { fail "capsh not built"; finish; }
nl='
'
last=$(cat /proc/sys/kernel/cap_last_cap)

expect 0 "0x0000000000000003=cap_chown,cap_dac_override$nl" "" "$C" --decode=3
expect 0 "0x0000004000000000=cap_perfmon$nl" "" "$C" --decode=0x4000000000
expect 0 "0x000000c000000000=cap_perfmon,cap_bpf$nl" "" "$C" --decode=c000000000
# Junk, empty, negative: libcap decodes 0x3z as 3, zz and "" as 0 and -1
# as all 64 bits; refused here (root/progs_numbers_range.sh has more).
expect 1 "" "invalid --decode value: want a 64-bit hexadecimal number, got \"0x3z\"$nl" "$C" --decode=0x3z
expect 1 "" "invalid --decode value: want a 64-bit hexadecimal number, got \"\"$nl" "$C" --decode=
# 62 and 63: numbers no table names yet and no kernel knows.
expect 0 "0x4000000000000000=62$nl" "" "$C" --decode=4000000000000000
run "$C" --decode=ffffffffffffffff
[ "$(cut -d= -f1 "$T/out")" = 0xffffffffffffffff ] && pass || fail "--decode=ffffffffffffffff"
tr ',' '\n' <"$T/out" | tail -n 1 | grep -qx 63 && pass || fail "--decode=ffffffffffffffff: does not end in 63"
[ "$(tr ',' '\n' <"$T/out" | wc -l)" -eq 64 ] && pass || fail "--decode=ffffffffffffffff: not 64 entries"

expect 0 "" "" "$C" --supports=cap_chown
expect 0 "" "" "$C" --supports=0x26
expect 1 "" "cap[foo] not recognized by library$nl" "$C" --supports=foo
expect 1 "" "cap[64] not recognized by library$nl" "$C" --supports=64
expect 1 "" "cap[] not recognized by library$nl" "$C" --supports=
if [ "$last" -lt 63 ]; then
	v=$((last + 1))
	expect 1 "" "cap[$v=$v] not supported by kernel$nl" "$C" --supports=$v
fi
if [ "$last" -ge 38 ]; then expect 0 "" "" "$C" --supports=cap_perfmon
else expect 1 "" "cap[cap_perfmon=38] not supported by kernel$nl" "$C" --supports=cap_perfmon; fi

# --has-*: compare with what the kernel says about this very process.
bit_set() { # <hexmask from /proc> <bit>
	[ $(( (0x$1 >> $2) & 1 )) -eq 1 ]
}
prm=$(awk '/^CapPrm/ {print $2}' /proc/self/status)
inh=$(awk '/^CapInh/ {print $2}' /proc/self/status)
bnd=$(awk '/^CapBnd/ {print $2}' /proc/self/status)
amb=$(awk '/^CapAmb/ {print $2}' /proc/self/status)
for c in 0 5 21 38; do
	name=$("$C" --decode=$(printf '%x' $((1 << c))) | cut -d= -f2)
	if bit_set "$prm" $c; then expect 0 "" "" "$C" --has-p=$name
	else expect 1 "" "cap[$name] not permitted$nl" "$C" --has-p=$name; fi
	if bit_set "$inh" $c; then expect 0 "" "" "$C" --has-i=$name
	else expect 1 "" "cap[$name] not inheritable$nl" "$C" --has-i=$name; fi
	if bit_set "$amb" $c; then expect 0 "" "" "$C" --has-a=$name
	else expect 1 "" "cap[$name] not in ambient vector$nl" "$C" --has-a=$name; fi
	if bit_set "$bnd" $c; then
		expect 0 "" "" "$C" --has-b=$name
		expect 1 "" "cap[$name] raised in bounding vector$nl" "$C" --dropped=$name
	else
		expect 1 "" "cap[$name] not in bounding vector$nl" "$C" --has-b=$name
		expect 0 "" "" "$C" --dropped=$name
	fi
done
for o in --has-p --has-i --has-a --has-b --dropped; do
	expect 1 "" "cap[nope] not recognized by library$nl" "$C" $o=nope
done
expect 1 "" "cap[62] not permitted$nl" "$C" --has-p=62
expect 0 "" "" "$C" --has-a=63
expect 0 "" "" "$C" --has-b=63
expect 0 "" "" "$C" --dropped=63
expect 0 "" "" "$C" --has-ambient
nnp=$(awk '/^NoNewPrivs/ {print $2}' /proc/self/status)
if [ "$nnp" = 1 ]; then expect 0 "" "" "$C" --has-no-new-privs
else expect 1 "" "no-new-privs not set$nl" "$C" --has-no-new-privs; fi
expect 0 "" "" "$C" --no-new-privs --has-no-new-privs

uid=$(id -ru) gid=$(id -rg)
expect 0 "" "" "$C" --is-uid=$uid --is-gid=$gid
other=$((uid + 1)) otherg=$((gid + 1))
expect 1 "" "uid: got=$uid, want=$other$nl" "$C" --is-uid=$other
expect 1 "" "gid: got=$gid, want=$otherg$nl" "$C" --is-gid=$otherg

# The number parser: strtoul base 0, whole text, no '-'; a value past 32
# bits is refused where libcap truncates it: the truncated id is another.
for o in uid gid cap-uid is-uid is-gid keep secbits forkfor; do
	for v in x -1 -0 "" 1x 0x 08 "0 "; do
		expect 1 "" "invalid --$o value: want non-negative integer, got \"$v\"$nl" "$C" "--$o=$v"
	done
done
expect 1 "" "invalid --killit signo value: want non-negative integer, got \"x\"$nl" "$C" --killit=x
expect 1 "" "invalid --is-uid value: out of range (0 to 4294967295), got \"$((uid + 4294967296))\"$nl" "$C" --is-uid=$((uid + 4294967296))
expect 0 "" "" "$C" "--is-uid= $uid" --is-uid=0x$(printf '%x' "$uid")

expect 0 "Supported modes: NOPRIV PURE1E_INIT PURE1E HYBRID$nl" "" "$C" --modes
run "$C" --mode
mode=$(sed -n 's/^Mode: //p' "$T/out")
[ -n "$mode" ] && pass || fail "--mode: $(cat "$T/out")"
expect 0 "" "" "$C" --inmode=$mode
expect 1 "mismatched mode got=$mode want=nopriv$nl" "" "$C" --inmode=nopriv
expect 1 "unsupported mode: FOO$nl" "" "$C" --mode=FOO
expect 1 "unsupported mode: $nl" "" "$C" --mode=
expect 1 "unsupported mode: UNCERTAIN$nl" "" "$C" --mode=UNCERTAIN

# --print: the layout, and values that match the kernel's and id(1)'s view.
run "$C" --print
[ $rc -eq 0 ] && pass || fail "--print: exit $rc"
sed -n 1p "$T/out" | grep -q '^Current: ' && pass || fail "--print line 1"
sed -n 2p "$T/out" | grep -q '^Bounding set =' && pass || fail "--print line 2"
sed -n 3p "$T/out" | grep -q '^Ambient set =' && pass || fail "--print line 3"
sed -n 4p "$T/out" | grep -q '^Current IAB: ' && pass || fail "--print line 4"
sed -n 5p "$T/out" | grep -Eq "^Securebits: 0[0-7]*/0x[0-9a-f]+/[0-9]+'b[01]+ \(no-new-privs=[01]\)$" && pass || fail "--print line 5"
sed -n 6p "$T/out" | grep -Eq '^ secure-noroot: (yes|no) \((locked|unlocked)\)$' && pass || fail "--print line 6"
sed -n 7p "$T/out" | grep -Eq '^ secure-no-suid-fixup: (yes|no) \((locked|unlocked)\)$' && pass || fail "--print line 7"
sed -n 8p "$T/out" | grep -Eq '^ secure-keep-caps: (yes|no) \((locked|unlocked)\)$' && pass || fail "--print line 8"
sed -n 9p "$T/out" | grep -Eq '^ secure-no-ambient-raise: (yes|no) \((locked|unlocked)\)$' && pass || fail "--print line 9"
sed -n 10p "$T/out" | grep -qx "uid=$uid($(id -run)) euid=$(id -u)($(id -un))" && pass || fail "--print uid line: $(sed -n 10p "$T/out")"
sed -n 11p "$T/out" | grep -qx "gid=$gid($(id -rgn))" && pass || fail "--print gid line: $(sed -n 11p "$T/out")"
sed -n 12p "$T/out" | grep -q '^groups=' && pass || fail "--print groups line"
sed -n 13p "$T/out" | grep -qx "Guessed mode: $mode ([0-9])" && pass || fail "--print mode line"
[ "$(wc -l <"$T/out")" -eq 13 ] && pass || fail "--print: not 13 lines"
# The bounding line names exactly the CapBnd bits.
want=$("$C" --decode=$bnd | cut -d= -f2)
sed -n 2p "$T/out" | grep -qx "Bounding set =$want" && pass || fail "--print bounding differs from CapBnd"
run "$C" --current
[ "$(wc -l <"$T/out")" -eq 2 ] && grep -q '^Current: ' "$T/out" && grep -q '^Current IAB: ' "$T/out" && pass || fail "--current layout"

# Messages of the state-changing options that fail before touching anything.
expect 1 "" "unable to interpret [--caps=foo]$nl" "$C" --caps=foo
expect 1 "" "Fatal error internalizing capabilities: Invalid argument$nl" "$C" --inh=foo
expect 1 "" "capability [foo] is unknown to libcap$nl" "$C" --drop=foo
expect 1 "" "capability [all] is unknown to libcap$nl" "$C" --drop=all,cap_kill
expect 1 "" "capability [foo] is unknown to libcap$nl" "$C" --addamb=foo
expect 1 "" "capability [ALL] is unknown to libcap$nl" "$C" --delamb=ALL
expect 1 "" "failed to raise ambient [62=62]$nl" "$C" --addamb=62
expect 1 "" "failed to clear ambient [62=62]$nl" "$C" --delamb=62
expect 1 "" "iab: 'all' malformed$nl" "$C" --iab=all
expect 1 "" "iab: 'foo' malformed$nl" "$C" --iab=foo
# Names this host does not have (a host may have any name at all).
nouser=no-such-user-x nogroup_=no-such-group-x i=0
while getent passwd "$nouser" >/dev/null 2>&1; do i=$((i + 1)); nouser=no-such-user-x$i; done
while getent group "$nogroup_" >/dev/null 2>&1; do i=$((i + 1)); nogroup_=no-such-group-x$i; done
expect 1 "" "User [$nouser] not known$nl" "$C" --user="$nouser"
expect 1 "" "Failed to identify gid for group [$nogroup_]$nl" "$C" --groups="$nogroup_"
expect 1 "" "failed to set securebits to 010000/0x1000$nl" "$C" --secbits=0x1000
expect 1 "" "prctl(PR_SET_KEEPCAPS, 2) failed: Invalid argument$nl" "$C" --keep=2
expect 0 "" "" "$C" --drop=
expect 0 "" "" "$C" --addamb=
# A launch that fails in the child is ECHILD, whatever failed there (here
# execve's ENOENT), as libcap's cap_launch reports it.
expect 1 "" "child failed to start: No child processes$nl" "$C" --shell=/nonexistent/sh -+

# --forkfor / --killit on our own child.
expect 1 "" "no forked process to kill$nl" "$C" --killit=9
expect 1 "" "already forked$nl" "$C" --forkfor=1 --forkfor=1
start=$(date +%s)
expect 0 "" "" "$C" --forkfor=30 --killit=9
expect 0 "" "" "$C" --forkfor=30 --killit=15
[ $(( $(date +%s) - start )) -lt 20 ] && pass || fail "--killit did not end the child early"
expect 1 "" "child terminated with odd signal (18 != 0)$nl" "$C" --forkfor=1 --killit=18
expect 0 "" "" "$C" --forkfor=1 --killit=0
expect 1 "" "Unable to kill child process: Invalid argument$nl" "$C" --forkfor=1 --killit=99
expect 1 "" "no forked process to kill$nl" "$C" --forkfor=5 --killit=9 --killit=9
finish "capsh queries and failure messages: all checks passed"
