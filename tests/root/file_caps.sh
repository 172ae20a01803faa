#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# File capabilities on the real kernel, both ways against libcap 2.66:
#  1. our setcap and /usr/sbin/setcap write identical xattr bytes for every
#     capability (0..63, named and numbered) and a set of mixed texts, with
#     and without -n; /usr/sbin/getcap reads ours as it reads its own;
#  2. what /usr/sbin/setcap writes, our library reads (tools/filecap) the
#     same as libcap does (ref-filecap), and our setcap -v calls it OK;
#  3. raw values written with setfattr: those the kernel takes are read
#     alike by both libraries; those it refuses are listed (their decoding
#     is covered by unit/check_file's codec tests).
set -u
ours=$BUILD/progs/setcap ref=/usr/sbin/setcap
[ -x "$ref" ] && [ -x /usr/sbin/getcap ] ||
	{ echo "skipped: libcap2-bin (/usr/sbin/setcap, getcap) is not installed"; exit 77; }
command -v setfattr >/dev/null ||
	{ echo "skipped: setfattr (attr) is not installed"; exit 77; }
[ -x "$BIN/ref-filecap" ] ||
	{ echo "skipped: libcap-dev is not installed (no ref-filecap)"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fail=0 checked=0

hex() { getfattr -e hex -n security.capability "$1" 2>/dev/null | sed -n 's/^security.capability=//p'; }

compare_write() {	# compare_write <setcap args...>: same bytes, same getcap
	rm -f a b; touch a b
	# "=e" (the effective flag and nothing to raise) is refused by 2.76
	# and by us unless -f, which writes what 2.66 writes without it:
	# compare those bytes (setcap_effective.sh checks the refusal).
	force=
	case " $* " in *" =e "*) force=-f ;; esac
	"$ours" $force "$@" a >out.a 2>err.a; rca=$?
	"$ref" "$@" b >out.b 2>err.b; rcb=$?
	checked=$((checked + 1))
	if [ "$rca" != "$rcb" ] || [ "$(hex a)" != "$(hex b)" ]; then
		echo "setcap $*: ours rc=$rca $(hex a), libcap rc=$rcb $(hex b)"
		fail=1
	fi
	if [ "$(/usr/sbin/getcap -n a | sed 's/^a //')" != \
	     "$(/usr/sbin/getcap -n b | sed 's/^b //')" ]; then
		echo "getcap differs after setcap $*"; fail=1
	fi
	# Read back both ways: our library and libcap agree on both files.
	if [ "$("$BIN/filecap" a b)" != "$("$BIN/ref-filecap" a b)" ]; then
		echo "reading after setcap $*: ours $("$BIN/filecap" a b | tr '\n' ' ')" \
		     "libcap $("$BIN/ref-filecap" a b | tr '\n' ' ')"; fail=1
	fi
	# What libcap wrote, our setcap verifies.
	# ("=e" is the exception: the flag alone reads back as "=", in both.)
	case " $* " in *" =e "*) return ;; esac
	if [ "$rcb" = 0 ] && ! "$ours" -q -v "$@" b; then
		echo "our setcap -v $* rejects what libcap wrote"; fail=1
	fi
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
		o=$("$BIN/filecap" r) l=$("$BIN/ref-filecap" r)
		# libcap 2.66 leaves errno unset for a malformed value; we say EINVAL.
		case $l in "r NULL Success") l="r NULL Invalid argument" ;; esac
		if [ "$o" != "$l" ]; then
			echo "raw $raw: ours [$o], libcap [$l]"; fail=1
		fi
		"$ours" -q -v = r; rc=$?
		[ $rc -le 1 ] || { echo "raw $raw: setcap -v crashed ($rc)"; fail=1; }
	else
		refused=$((refused + 1))
	fi
done
echo "raw values: kernel accepted $accepted, refused $refused"
[ $accepted -ge 4 ] || { echo "the kernel accepted too few raw values"; fail=1; }
[ $checked -ge 100 ] || { echo "only $checked writes compared"; fail=1; }
[ $fail -eq 0 ] || exit 1
echo "$checked setcap writes byte-identical to libcap 2.66 and read back alike"
