#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# getcap against libcap 2.66's getcap on files that carry capabilities
# (written by the system setcap and raw by setfattr): every option, rootid
# with -n (above 2^31 too), devices, a parallel walk over a few thousand files, the EOVERFLOW
# error of an unmapped rootid, malformed values where the kernel takes them,
# depth 3000, and -x at a tmpfs mount point in a private mount namespace.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
ours=$BUILD/progs/getcap
[ -x "$ours" ] || { fail "getcap not built"; finish; }
need_reference 2.66
ref=$REF/getcap setcap=$REF/setcap
command -v setfattr >/dev/null || skip "setfattr (attr) needed"


run_in_t() {
	prog=$1 out=$2; shift 2
	(cd "$T/t" && "$prog" "$@" >"$out.o" 2>"$out.e"; echo $? >"$out.rc")
}

# as_libcap (lib.sh) compares sorted output: the walk's order is
# getcap_order.sh's to check.
sorted() { sort -o "$1" "$1"; }
AS_LIBCAP_NORM=sorted

mkdir "$T/t" && cd "$T/t" || exit 1
mkdir -p sub/deeper empty
for f in ep p i eip emptyset all high rootid rootid31 rootid32 rawv2 rawv3 plain sub/a sub/deeper/b; do
	: >"$f"
done
$setcap cap_net_raw=ep ep && $setcap cap_perfmon=p p &&
	$setcap cap_chown+i i && $setcap cap_perfmon,cap_bpf=eip eip &&
	$setcap = emptyset && $setcap all=p all &&
	$setcap "cap_chown=p 62+p" high && $setcap -n 1000 cap_perfmon=p rootid &&
	$setcap -n 2147483648 cap_chown=p rootid31 &&
	$setcap -n 4294967294 cap_chown=p rootid32 &&
	$setcap cap_kill,cap_setfcap=ie sub/a && $setcap -n 1000 cap_sys_admin=p sub/deeper/b ||
	{ fail "system setcap failed"; finish; }
# Raw revision 2 (perfmon=ep, bit 38 in the second word) and a revision 3
# with rootid 0, which the kernel stores as revision 2.
setfattr -n security.capability -v 0x0100000200000000000000004000000000000000 rawv2 &&
	setfattr -n security.capability -v 0x010000030020000000000000000000000000000000000000 rawv3 ||
	{ fail "setfattr refused a valid value"; finish; }
mkfifo fifo; mknod null c 1 3
ln -s ep link-to-ep; ln -s sub link-to-sub

for o in "" -v -n -vn -r -rv -rn -rvn; do
	# shellcheck disable=SC2086
	as_libcap getcap $o ep p i eip emptyset all high rootid rootid31 rootid32 rawv2 rawv3 plain sub fifo null \
		link-to-ep link-to-sub missing sub/deeper/b
	as_libcap getcap $o .
done
# A root id above 2^31 - 1 is printed as libcap prints it, signed.
run_in_t "$ours" "$T/u" -n rootid rootid31 rootid32 rawv2 high emptyset
printf '%s\n' "rootid cap_perfmon=p [rootid=1000]" \
	"rootid31 cap_chown=p [rootid=-2147483648]" "rootid32 cap_chown=p [rootid=-2]" \
	"rawv2 cap_perfmon=ep" "high cap_chown=p 62+p" "emptyset =" | cmp -s - "$T/u.o" && pass ||
	{ fail "exact lines"; cat "$T/u.o"; }

# An unmapped rootid: the kernel's getxattr gives EOVERFLOW in a user
# namespace; the message and the exit status 0 must match.
if unshare -U -r true 2>/dev/null; then
	for o in "" -r; do
		(cd "$T/t" && unshare -U -r "$ref" $o rootid sub >"$T/r.o" 2>"$T/r.e")
		(cd "$T/t" && unshare -U -r "$ours" $o rootid sub >"$T/u.o" 2>"$T/u.e"
		 echo $? >"$T/u.rc")
		for x in o e; do
			sort "$T/r.$x" >"$T/r.$x.s"; sort "$T/u.$x" >"$T/u.$x.s"
		done
		if ! cmp -s "$T/r.e.s" "$T/u.e.s" || ! cmp -s "$T/r.o.s" "$T/u.o.s" ||
		   ! grep -q "(Value too large" "$T/u.e" || [ "$(cat "$T/u.rc")" != 0 ]; then
			fail "EOVERFLOW in a user namespace ($o)"; cat "$T/r.e" "$T/u.e"
		else
			pass
		fi
	done
else
	not_checked "no user namespaces here, EOVERFLOW case not run"
fi

# Malformed values: this kernel refuses them on write (EINVAL); any it
# takes must read as an error on stderr, never as capabilities.
: >bad
for v in 0x01000001002000000000000000 0x0100000200200000000000000000000000000000ff \
	 0x010000020020000000000000000000000000 0x0300000200200000 0x04000002002000000000000000000000000000000; do
	setfattr -n security.capability -v "$v" bad 2>/dev/null || continue
	run_in_t "$ours" "$T/u" bad
	grep -qx "Failed to get capabilities of file 'bad' (.*)" "$T/u.e" && [ ! -s "$T/u.o" ] && pass ||
		fail "malformed $v accepted by the kernel and misread"
	setfattr -x security.capability bad
done

# A few thousand files, 5% with capabilities, read by parallel threads:
# the same lines, each whole (a torn line would not match libcap's).
mkdir many && i=0
while [ $i -lt 40 ]; do
	mkdir "many/d$i" && j=0
	while [ $j -lt 60 ]; do : >"many/d$i/f$j"; j=$((j + 1)); done
	$setcap cap_net_bind_service=ep "many/d$i/f7" cap_perfmon+p "many/d$i/f33" \
		cap_kill=i "many/d$i/f59" || exit 1
	i=$((i + 1))
done
as_libcap getcap -r many
as_libcap getcap -rv many
[ "$(wc -l <"$T/out")" -eq 2441 ] && pass || fail "many: $(wc -l <"$T/out") lines"

# Depth 3000: libcap's getxattr on the full path fails (ENAMETOOLONG); we
# read the capability through the parent's descriptor.
mkdir deep
(cd deep && perl -e 'for (1..3000) { mkdir "d" or die; chdir "d" or die }
	open F, ">f" or die; close F; exec @ARGV' "$setcap" cap_kill=p f) ||
	{ fail "cannot build the deep tree"; finish; }
run_in_t "$ours" "$T/u" -r deep
want="deep$(perl -e 'print "/d" x 3000')/f cap_kill=p"
[ "$(cat "$T/u.o")" = "$want" ] && [ ! -s "$T/u.e" ] && pass || fail "deep tree"
rm -rf deep

# -x / --one-file-system at a tmpfs mount point, in a private mount
# namespace so nothing is left mounted whatever happens.
mkdir -p mnt/under && : >mnt/under/file && $setcap cap_chown=p mnt/under/file
# A binary tree (510 directories) beside the mount point, so that under a
# low descriptor limit the walk opens directories by path and must still
# stop at a mount point.
perl -e 'sub mk { my ($p, $d) = @_; return unless $d;
	for my $c ("a", "b") { mkdir "$p/$c" or die; mk("$p/$c", $d - 1) } }
	mk("mnt", 8)' || { fail "cannot build the binary tree"; finish; }
mkdir -p mnt/a/a/a/a/a/a/a/a/under2 && : >mnt/a/a/a/a/a/a/a/a/under2/g
if unshare -m true 2>/dev/null; then
	(cd "$T/t" && unshare -m sh -c '
		mount --make-rprivate / 2>/dev/null
		mount -t tmpfs none mnt/under || exit 3
		: >mnt/under/inside && '"$setcap"' cap_kill=p mnt/under/inside || exit 3
		'"$ours"' -rv mnt >'"$T"'/all.o 2>&1
		'"$ours"' -rvx mnt >'"$T"'/x.o 2>&1
		'"$ours"' -rv --one-file-system mnt >'"$T"'/x2.o 2>&1
		'"$ref"' -rv mnt >'"$T"'/r.o 2>&1
		mount -t tmpfs none mnt/a/a/a/a/a/a/a/a/under2 || exit 3
		: >mnt/a/a/a/a/a/a/a/a/under2/inside2 || exit 3
		'"$ours"' -rvx mnt >'"$T"'/x3.o 2>&1
		sh -c "ulimit -n 12 && exec '"$ours"' -rvx mnt" >'"$T"'/x4.o 2>&1
		sh -c "ulimit -n 6 && exec taskset -c 0 '"$ours"' -rvx mnt" >'"$T"'/x5.o 2>&1')
	rc=$?
	if [ $rc -eq 3 ]; then
		not_checked "cannot mount tmpfs here, -x not tested"
	else
		sort "$T/all.o" >"$T/all.s"; sort "$T/r.o" >"$T/r.s"
		cmp -s "$T/all.s" "$T/r.s" && pass || fail "-r across a mount point"
		grep -qx "mnt/under/inside cap_kill=p" "$T/all.o" && pass || fail "-r did not cross"
		grep -v '^mnt/[ab]' "$T/x.o" | sort >"$T/x.s"
		printf '%s\n' "mnt (Not a regular file)" "mnt/under (Not a regular file)" |
			cmp -s - "$T/x.s" && pass || { fail "-x"; cat "$T/x.s"; }
		[ "$(grep -c '^mnt/[ab]' "$T/x.o")" -eq 512 ] && pass || fail "-x: binary tree"
		sort "$T/x.o" >"$T/x.s"; sort "$T/x2.o" >"$T/x2.s"
		cmp -s "$T/x.s" "$T/x2.s" && pass || fail "--one-file-system differs from -x"
		sort "$T/x3.o" >"$T/x3.s"; sort "$T/x4.o" >"$T/x4.s"
		grep -q "under2/g\|inside2" "$T/x3.s" && fail "-x entered the second mount" || pass
		expect_line "$T/x3.s" "under2 (Not a regular file)" "-x: under2 missing"
		# One thread (taskset) and 6 descriptors: every directory is
		# opened by path, the mount point included.
		sort "$T/x5.o" >"$T/x5.s"
		for x in x4 x5; do
			cmp -s "$T/x3.s" "$T/$x.s" && pass || { fail "-x under a low ulimit -n ($x)"
				diff "$T/x3.s" "$T/$x.s" | head -5; }
		done
	fi
else
	not_checked "no mount namespaces here, -x not tested"
fi

finish "getcap matches libcap 2.66 on files with capabilities"
