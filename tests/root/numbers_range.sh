#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# Issue 12, item 12: numbers that wrap. libcap's programs narrow what
# strtoul() read to 32 bits, or read only the leading digits:
#   capsh --uid=4294967296       stays root (uid 0)
#   capsh --gid=99999999999      becomes gid 1215752191
#   setcap -n 4294967296 ...     writes a v2 capability (every namespace)
# Every such value is refused here, with a line naming the option and the
# value and nothing done, checked on the real kernel (the shell after "--"
# must never run). In-range values still behave byte for byte as libcap's
# programs (/usr/sbin/capsh, /usr/sbin/setcap, /usr/sbin/getpcaps).
set -u
. "$TESTS_DIR/lib.sh"
capsh=$BUILD/progs/capsh setcap=$BUILD/progs/setcap getpcaps=$BUILD/progs/getpcaps
for p in /usr/sbin/capsh /usr/sbin/setcap /usr/sbin/getpcaps; do
	[ -x "$p" ] || { echo "skipped: $p (libcap2-bin) is not installed"; exit 77; }
done
command -v getfattr >/dev/null || { echo "skipped: getfattr (attr) is not installed"; exit 77; }
[ "$(id -u)" -eq 0 ] || { echo "skipped: needs root"; exit 77; }

tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fails=0 cases=0
fail() { fails=$((fails + 1)); echo "FAIL: $*"; }

# refuse MESSAGE ARGS...: our capsh prints exactly MESSAGE on stderr,
# exits 1, runs nothing (the "--" shell would print "ran").
refuse() {
	want=$1; shift
	cases=$((cases + 1))
	run_ours "$capsh" "$@" -- -c 'echo ran; id -u; id -g; id -G' \
		>"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc -eq 1 ] || fail "capsh $*: exit $rc, want 1"
	[ -s "$tmp/out" ] && fail "capsh $*: ran or printed: $(tr '\n' ' ' <"$tmp/out")"
	[ "$(cat "$tmp/err")" = "$want" ] ||
		fail "capsh $*: stderr '$(cat "$tmp/err")', want '$want'"
}

refuse 'invalid --uid value: out of range (0 to 4294967295), got "4294967296"' --uid=4294967296
refuse 'invalid --uid value: out of range (0 to 4294967295), got "18446744073709551616"' --uid=18446744073709551616
refuse 'invalid --uid value: want non-negative integer, got " -1"' '--uid= -1'
refuse 'invalid --gid value: out of range (0 to 4294967295), got "99999999999"' --gid=99999999999
refuse 'invalid --cap-uid value: out of range (0 to 4294967295), got "4294967296"' --cap-uid=4294967296
refuse 'invalid --groups entry: out of range (0 to 4294967295), got "99999999999"' --groups=0,99999999999
refuse 'invalid --groups entry: want non-negative integer, got "12abc"' --groups=12abc
refuse 'invalid --keep value: out of range (0 to 4294967295), got "4294967297"' --keep=4294967297
refuse 'invalid --secbits value: out of range (0 to 4294967295), got "4294967296"' --secbits=4294967296
refuse 'invalid --is-uid value: out of range (0 to 4294967295), got "4294967296"' --is-uid=4294967296
refuse 'invalid --is-gid value: out of range (0 to 4294967295), got "4294967296"' --is-gid=4294967296
refuse 'invalid --forkfor value: out of range (0 to 4294967295), got "4294967297"' --forkfor=4294967297
for v in zz -1 10q 11111111111111111111 ''; do
	refuse "invalid --decode value: want a 64-bit hexadecimal number, got \"$v\"" "--decode=$v"
	refuse "invalid --decode value: want a 64-bit hexadecimal number, got \"$v\"" --json "--decode=$v"
done
# Our own lines escape what they quote (common/escape.h).
refuse 'invalid --decode value: want a 64-bit hexadecimal number, got "a\033[31mb"' "$(printf -- '--decode=a\033[31mb')"
refuse 'invalid --groups entry: want non-negative integer, got "1\015x"' "$(printf -- '--groups=1\rx')"
refuse "unrecognised value '38junk'" --explain=38junk
refuse "unrecognised value '4294967334'" --explain=4294967334
refuse 'capability [5x] is unknown to libcap' --drop=5x
refuse "capability [cap_kill-] is unknown to libcap
capsh: unknown capability 'cap_kill-'; did you mean cap_kill?" --inh=cap_kill --addamb=cap_kill-
refuse 'cap[38junk] not recognized by library' --has-p=38junk
# libcap's capsh reads the value only as far as the digits go: it drops
# cap_kill (5) for "5x" and runs the shell.
/usr/sbin/capsh --drop=5x -- -c 'grep CapBnd /proc/self/status' >"$tmp/ref" 2>&1
echo "libcap for --drop=5x: $(cat "$tmp/ref")"

# The kernel's word, as libcap's capsh gets it: with 4294967296 it stays
# root, we never get that far.
/usr/sbin/capsh --uid=4294967296 -- -c 'id -u' >"$tmp/ref" 2>&1
echo "libcap for --uid=4294967296: uid $(cat "$tmp/ref")"

# In range: byte-identical to libcap's capsh (stdout, stderr, status).
same() {
	cases=$((cases + 1))
	(cd "$tmp" && /usr/sbin/capsh "$@" >"$tmp/r.out" 2>"$tmp/r.err"); rrc=$?
	(cd "$tmp" && run_ours "$capsh" "$@" >"$tmp/o.out" 2>"$tmp/o.err"); orc=$?
	sed -i "s|/usr/sbin/capsh|CAPSH|g; s|$capsh|CAPSH|g" "$tmp/r.err" "$tmp/o.err"
	# Ours after libcap's lines (cli/cli_version_help.sh checks them).
	sed -i "/^capsh: unknown capability '/d" "$tmp/o.err"
	if [ $rrc != $orc ] || ! cmp -s "$tmp/r.out" "$tmp/o.out" ||
	   ! cmp -s "$tmp/r.err" "$tmp/o.err"; then
		fail "capsh $*: differs from libcap (exit $rrc/$orc)"
		diff "$tmp/r.out" "$tmp/o.out" | head -5
		diff "$tmp/r.err" "$tmp/o.err" | head -5
	fi
}
same --uid=65534 -- -c 'id -u'
same --uid=0x10 --gid=010 -- -c 'id -u; id -g'
same '--uid= 7' '--gid=+8' -- -c 'id -u; id -g'
same --gid=4294967294 -- -c 'id -g'
same --uid=4294967295
same --gid=4294967295
same --groups=010,0x10,4294967294,0 -- -c 'id -G'
same --groups=4294967295
same --keep=1 --print
same --keep=2
same --secbits=0x2f --print
same --secbits=4294967295
same --is-uid=0 --is-gid=0
same --is-uid=4294967295
same --decode=0x10
same --decode=ffffffffffffffff
same --decode=0X4000000001
same --drop=0x5,010 --print
same --explain=64
same --explain=cap_chownx
same --has-p=0x26
same --has-b=63
# Capability numbers in text go through the library's parser, which never
# wrapped: the same refusal as libcap's.
same --inh=4294967296
same --caps=4294967296=p
same --iab=4294967297
same --iab=18446744073709551617
same --addamb=4294967301
same --supports=4294967334

# setcap -n: refused values write nothing; in-range ones write the same
# bytes as libcap's setcap.
: >"$tmp/f"
for v in 4294967296 18446744073709551616 9223372036854775808 ' -5' 1x; do
	cases=$((cases + 1))
	run_ours "$setcap" -n "$v" cap_chown=p "$tmp/f" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	case $v in
	*[!0-9]*) want="bad ns rootid: want positive integer, got \"$v\"" ;;
	*) want="bad ns rootid: out of range (1 to 4294967295), got \"$v\"" ;;
	esac
	[ $rc -eq 1 ] || fail "setcap -n '$v': exit $rc, want 1"
	[ "$(cat "$tmp/err")" = "$want" ] || fail "setcap -n '$v': stderr '$(cat "$tmp/err")'"
	if getfattr -n security.capability "$tmp/f" >/dev/null 2>&1; then
		fail "setcap -n '$v' wrote: $(getfattr -e hex -n security.capability "$tmp/f" 2>&1 | tail -n 2)"
		setfattr -x security.capability "$tmp/f"
	fi
done
for v in 1 1000 0x10 010 +5 4294967294 4294967295; do
	cases=$((cases + 1))
	rm -rf "$tmp/r" "$tmp/o"; mkdir "$tmp/r" "$tmp/o"
	: >"$tmp/r/f"; : >"$tmp/o/f"
	(cd "$tmp/r" && /usr/sbin/setcap -n "$v" cap_chown=p f 2>/dev/null); rrc=$?
	(cd "$tmp/o" && run_ours "$setcap" -n "$v" cap_chown=p f 2>/dev/null); orc=$?
	r=$(cd "$tmp/r" && getfattr -e hex -n security.capability f 2>&1)
	o=$(cd "$tmp/o" && getfattr -e hex -n security.capability f 2>&1)
	[ $rrc = $orc ] && [ "$r" = "$o" ] ||
		fail "setcap -n $v: libcap $rrc '$r', ours $orc '$o'"
done

# getpcaps already refuses what does not fit a pid, as libcap does.
for v in 4294967297 -1 1x 99999999999999999999; do
	cases=$((cases + 1))
	/usr/sbin/getpcaps "$v" >"$tmp/gr" 2>&1; rrc=$?
	run_ours "$getpcaps" "$v" >"$tmp/go" 2>&1; orc=$?
	[ $rrc = $orc ] && cmp -s "$tmp/gr" "$tmp/go" && [ $orc -ne 0 ] ||
		fail "getpcaps '$v': libcap $rrc '$(cat "$tmp/gr")', ours $orc '$(cat "$tmp/go")'"
done

echo "$cases cases"
[ "$fails" -eq 0 ]
