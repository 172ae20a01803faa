#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# Numbers that wrap. libcap's programs narrow what
# strtoul() read to 32 bits, or read only the leading digits:
#   capsh --uid=4294967296       stays root (uid 0)
#   capsh --gid=99999999999      becomes gid 1215752191
#   setcap -n 4294967296 ...     writes a v2 capability (every namespace)
# Every such value is refused here, with a line naming the option and the
# value and nothing done, checked on the real kernel (the shell after "--"
# must never run). In-range values still behave byte for byte as libcap's
# programs (Debian's 2.66 capsh, setcap and getpcaps).
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
capsh=$BUILD/progs/capsh setcap=$BUILD/progs/setcap getpcaps=$BUILD/progs/getpcaps
need_reference 2.66
command -v getfattr >/dev/null || skip "getfattr (attr) is not installed"
[ "$(id -u)" -eq 0 ] || skip "needs root"

cases=0

# refuse MESSAGE ARGS...: our capsh prints exactly MESSAGE on stderr,
# exits 1, runs nothing (the "--" shell would print "ran").
refuse() {
	want=$1; shift
	cases=$((cases + 1))
	run_ours "$capsh" "$@" -- -c 'echo ran; id -u; id -g; id -G' \
		>"$T/out" 2>"$T/err"
	rc=$?
	[ $rc -eq 1 ] && pass || fail "capsh $*: exit $rc, want 1"
	[ -s "$T/out" ] && fail "capsh $*: ran or printed: $(tr '\n' ' ' <"$T/out")" || pass
	[ "$(cat "$T/err")" = "$want" ] && pass ||
		fail "capsh $*: stderr '$(cat "$T/err")', want '$want'"
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
"$REF/capsh" --drop=5x -- -c 'grep CapBnd /proc/self/status' >"$T/ref" 2>&1
echo "libcap for --drop=5x: $(cat "$T/ref")"

# The kernel's word, as libcap's capsh gets it: with 4294967296 it stays
# root, we never get that far.
"$REF/capsh" --uid=4294967296 -- -c 'id -u' >"$T/ref" 2>&1
echo "libcap for --uid=4294967296: uid $(cat "$T/ref")"

# In range: byte-identical to libcap's capsh (stdout, stderr, status),
# ours on the names libcap 2.66 has (tools/as_libcap266.sh) and without
# the lines we add after libcap's (cli/progs_version_help.sh checks them).
on_266() {	# FILE ref|ours out|err
	[ "$2" = ours ] || return 0
	case $3 in
	out) sh "$TESTS_DIR/tools/as_libcap266.sh" <"$1" >"$1.266" && mv "$1.266" "$1" ;;
	err) sed -i "/^capsh: unknown capability '/d" "$1" ;;
	esac
}
AS_LIBCAP_NORM=on_266
cd "$T" || exit 1
as_libcap capsh --uid=65534 -- -c 'id -u'
as_libcap capsh --uid=0x10 --gid=010 -- -c 'id -u; id -g'
as_libcap capsh '--uid= 7' '--gid=+8' -- -c 'id -u; id -g'
as_libcap capsh --gid=4294967294 -- -c 'id -g'
as_libcap capsh --uid=4294967295
as_libcap capsh --gid=4294967295
as_libcap capsh --groups=010,0x10,4294967294,0 -- -c 'id -G'
as_libcap capsh --groups=4294967295
as_libcap capsh --keep=1 --print
as_libcap capsh --keep=2
as_libcap capsh --secbits=0x2f --print
as_libcap capsh --secbits=4294967295
as_libcap capsh --is-uid=0 --is-gid=0
as_libcap capsh --is-uid=4294967295
as_libcap capsh --decode=0x10
as_libcap capsh --decode=ffffffffffffffff
as_libcap capsh --decode=0X4000000001
as_libcap capsh --drop=0x5,010 --print
as_libcap capsh --explain=64
as_libcap capsh --explain=cap_chownx
as_libcap capsh --has-p=0x26
as_libcap capsh --has-b=63
# Capability numbers in text go through the library's parser, which never
# wrapped: the same refusal as libcap's.
as_libcap capsh --inh=4294967296
as_libcap capsh --caps=4294967296=p
as_libcap capsh --iab=4294967297
as_libcap capsh --iab=18446744073709551617
as_libcap capsh --addamb=4294967301
as_libcap capsh --supports=4294967334

# setcap -n: refused values write nothing; in-range ones write the same
# bytes as libcap's setcap.
: >"$T/f"
for v in 4294967296 18446744073709551616 9223372036854775808 ' -5' 1x; do
	cases=$((cases + 1))
	run_ours "$setcap" -n "$v" cap_chown=p "$T/f" >"$T/out" 2>"$T/err"
	rc=$?
	case $v in
	*[!0-9]*) want="bad ns rootid: want positive integer, got \"$v\"" ;;
	*) want="bad ns rootid: out of range (1 to 4294967295), got \"$v\"" ;;
	esac
	[ $rc -eq 1 ] && pass || fail "setcap -n '$v': exit $rc, want 1"
	[ "$(cat "$T/err")" = "$want" ] && pass || fail "setcap -n '$v': stderr '$(cat "$T/err")'"
	if getfattr -n security.capability "$T/f" >/dev/null 2>&1; then
		fail "setcap -n '$v' wrote: $(getfattr -e hex -n security.capability "$T/f" 2>&1 | tail -n 2)"
		setfattr -x security.capability "$T/f"
	else
		pass
	fi
done
for v in 1 1000 0x10 010 +5 4294967294 4294967295; do
	cases=$((cases + 1))
	rm -rf "$T/r" "$T/o"; mkdir "$T/r" "$T/o"
	: >"$T/r/f"; : >"$T/o/f"
	(cd "$T/r" && "$REF/setcap" -n "$v" cap_chown=p f 2>/dev/null); rrc=$?
	(cd "$T/o" && run_ours "$setcap" -n "$v" cap_chown=p f 2>/dev/null); orc=$?
	r=$(cd "$T/r" && getfattr -e hex -n security.capability f 2>&1)
	o=$(cd "$T/o" && getfattr -e hex -n security.capability f 2>&1)
	[ $rrc = $orc ] && [ "$r" = "$o" ] && pass ||
		fail "setcap -n $v: libcap $rrc '$r', ours $orc '$o'"
done

# getpcaps already refuses what does not fit a pid, as libcap does.
for v in 4294967297 -1 1x 99999999999999999999; do
	cases=$((cases + 1))
	"$REF/getpcaps" "$v" >"$T/gr" 2>&1; rrc=$?
	run_ours "$getpcaps" "$v" >"$T/go" 2>&1; orc=$?
	[ $rrc = $orc ] && cmp -s "$T/gr" "$T/go" && [ $orc -ne 0 ] && pass ||
		fail "getpcaps '$v': libcap $rrc '$(cat "$T/gr")', ours $orc '$(cat "$T/go")'"
done

echo "$cases cases, and the in-range capsh runs compared with libcap's"
finish
