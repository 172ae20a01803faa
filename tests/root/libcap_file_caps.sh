#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# File capabilities on the real kernel, both ways against libcap 2.66:
#  1. our setcap and Debian's write identical xattr bytes for every
#     capability (0..63, named and numbered) and a set of mixed texts, with
#     and without -n; Debian's getcap reads ours as it reads its own;
#  2. what Debian's setcap writes, our library reads (tools/filecap) the
#     same as libcap does (ref-filecap), and our setcap -v calls it OK;
#  3. raw values written with setfattr: those the kernel takes are read
#     alike by both libraries; those it refuses are listed (their decoding
#     is covered by unit/check_file's codec tests).
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
ours=$BUILD/progs/setcap
need_reference 2.66 libcap2 libcap2-bin libcap-dev
ref=$REF/setcap getcap=$REF/getcap
command -v setfattr >/dev/null ||
	skip "setfattr (attr) is not installed"
# tools/filecap.c built on Debian's libcap.
reffilecap=$(ref_tool filecap 2>"$T/why") || { fail "$(cat "$T/why")"; finish; }
cd "$T" || exit 1
checked=0

read_ours() { "$BIN/filecap" "$@" | sh "$TESTS_DIR/tools/as_libcap266.sh"; }

# Each write has a pair of files of its own, a.N (our setcap's) and b.N
# (libcap's), and a line "N rc-ours rc-libcap ARGS" in cases; what the
# pairs hold is read once for every write at the end (compare_all), by
# one getfattr, one getcap, one filecap of ours and one of libcap's: a
# dozen processes a write cost more than the writes.
n=0
: >cases
compare_write() {	# compare_write <setcap args...>: same bytes, same getcap
	n=$((n + 1))
	touch "a.$n" "b.$n"
	# "=e" (the effective flag and nothing to raise) is refused by 2.76
	# and by us unless -f, which writes what 2.66 writes without it:
	# compare those bytes (setcap_effective.sh checks the refusal).
	force=
	case " $* " in *" =e "*) force=-f ;; esac
	"$ours" $force "$@" "a.$n" >out.a 2>err.a; rca=$?
	"$ref" "$@" "b.$n" >out.b 2>err.b; rcb=$?
	checked=$((checked + 1))
	echo "$n $rca $rcb $*" >>cases
	# What libcap wrote, our setcap verifies.
	# ("=e" is the exception: the flag alone reads back as "=", in both.)
	case " $* " in *" =e "*) return ;; esac
	if [ "$rcb" = 0 ] && ! "$ours" -q -v "$@" "b.$n"; then
		fail "our setcap -v $* rejects what libcap wrote"
	else
		pass
	fi
}

# compare_all: for each write, the same exit status and xattr bytes,
# the same getcap -n text, and read back alike both ways: our library
# and libcap agree on both files (on the names libcap 2.66 has: see
# tools/as_libcap266.sh).
compare_all() {
	set --
	i=1
	while [ $i -le $n ]; do set -- "$@" "a.$i" "b.$i"; i=$((i + 1)); done
	getfattr -e hex -n security.capability "$@" 2>/dev/null >xattrs
	"$getcap" -n "$@" >getcaps
	read_ours "$@" >read.ours
	"$reffilecap" "$@" >read.ref
	awk '
	FILENAME == "xattrs" && /^# file: / { f = substr($0, 9); next }
	FILENAME == "xattrs" && sub(/^security.capability=/, "") { x[f] = $0; next }
	FILENAME == "xattrs" { next }
	function rest() { return substr($0, length($1) + 2) }
	FILENAME == "getcaps" { g[$1] = rest(); next }
	FILENAME == "read.ours" { o[$1] = o[$1] $0 "\n"; next }
	FILENAME == "read.ref" { l[$1] = l[$1] $0 "\n"; next }
	{
		a = "a." $1; b = "b." $1; args = substr($0, length($1 " " $2 " " $3 " ") + 1)
		if ($2 != $3 || x[a] != x[b])
			print "setcap " args ": ours rc=" $2 " " x[a] ", libcap rc=" $3 " " x[b]
		else
			print "pass"
		print g[a] != g[b] ? "getcap differs after setcap " args : "pass"
		ours = o[a] o[b]; lib = l[a] l[b]
		if (ours != lib) {
			gsub(/\n/, " ", ours); gsub(/\n/, " ", lib)
			print "reading after setcap " args ": ours " ours " libcap " lib
		} else
			print "pass"
	}' xattrs getcaps read.ours read.ref cases >verdicts
	[ "$(wc -l <verdicts)" -eq $((3 * n)) ] ||
		fail "only $(wc -l <verdicts) verdicts for $n writes"
	while read -r verdict; do
		[ "$verdict" = pass ] && pass || fail "$verdict"
	done <verdicts
}

v=0
while [ $v -lt 64 ]; do
	compare_write "$v=ep"
	v=$((v + 1))
done
for t in cap_chown=p cap_net_raw=ep cap_net_raw+i cap_perfmon=ep \
	 cap_perfmon,cap_bpf=eip = all=p all=eip all=i cap_sys_admin=ep \
	 'cap_chown=p 41+p' 63=p 'cap_chown,cap_setfcap=ep cap_perfmon=i' \
	 =e 'all=p cap_perfmon-p' CAP_PERFMON=EP; do
	compare_write "$t"
	compare_write -n 1000 "$t"
done
for v in 0 31 32 38 40 41 63; do compare_write "$v+i"; done
compare_write -n 4294967294 cap_perfmon=ep
compare_all

# 3. Raw values.
accepted=0 refused=0
for raw in \
	0x0000000200000000000000000000000000000000 \
	0x0100000200200000000000000000000000000000 \
	0x00000002ffffffffffffffffffffffffffffffff \
	0x0100000300000000000000004000000000000000e8030000 \
	0x0000000300200000000000000000000000000000ffffffff \
	0x01000001002000000000000000 \
	0x010000010020000000000000 \
	0x0200000200200000000000000000000000000000 \
	0x00000002002000000000000000000000000000 \
	0x0000000200200000000000000000000000000000aa \
	0x0000000400200000000000000000000000000000 \
	0x00000002 \
	0x00000003002000000000000000000000000000000000 \
	0x0000000300200000000000000000000000000000e803000000 \
	0x0000000000200000000000000000000000000000; do
	rm -f r; touch r
	if setfattr -n security.capability -v "$raw" r 2>/dev/null; then
		accepted=$((accepted + 1))
		o=$(read_ours r) l=$("$reffilecap" r)
		# libcap 2.66 leaves errno unset for a malformed value; we say EINVAL.
		case $l in "r NULL Success") l="r NULL Invalid argument" ;; esac
		if [ "$o" != "$l" ]; then
			fail "raw $raw: ours [$o], libcap [$l]"
		else
			pass
		fi
		"$ours" -q -v = r; rc=$?
		[ $rc -le 1 ] && pass || { fail "raw $raw: setcap -v crashed ($rc)"; }
	else
		refused=$((refused + 1))
	fi
done
echo "raw values: kernel accepted $accepted, refused $refused"
[ $accepted -ge 4 ] && pass || { fail "the kernel accepted too few raw values"; }
[ $checked -ge 100 ] && pass || { fail "only $checked writes compared"; }
finish "$checked setcap writes byte-identical to libcap 2.66 and read back alike"
