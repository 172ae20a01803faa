#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# The upstream reference programs: Debian's libcap2 and libcap2-bin from
# trixie (2.75) and sid (2.78), which bracket the 2.76 we replace (Debian
# never packaged 2.76), with trixie's libc6 to run them on this older
# glibc. Downloads each pinned .deb once into a cache, checks it against
# the SHA-256 pinned below, unpacks it, and writes for each version a bin/
# of wrapper scripts (setcap, getcap, getpcaps, capsh) that run the
# upstream program through trixie's dynamic loader, named by its own name
# as argv[0], so that "capsh ==" finds the same wrapper in PATH; and DIR/run,
# "run PROGRAM ARG...", which runs any program of ours (a test tool linked
# with -lcap) on that version's libcap.so.2 and trixie's libc.
#
#   sh tests/tools/libcap_ref.sh [CACHE]
#
# CACHE defaults to $LIBCAP_REF_CACHE, else build/libcap-ref in the tree.
# On success prints two lines, "OLD_DIR OLD_VERSION" and "NEW_DIR
# NEW_VERSION" (DIR/bin holds the wrappers), and exits 0. Exits 77 with the
# reason on stderr when the archive cannot be reached or no longer holds a
# pinned package; 1 when a download does not match its pin. A warm cache
# is used without the network.
#
# Why pinned: the differential's verdict must change only when our code
# does, not when Debian uploads a new build to sid. The pins were taken
# from the archive's Packages indices, themselves checked against the
# suites' InRelease files with gpgv and debian-archive-keyring. To renew
# them when the archive drops a pinned file: fetch
# dists/{trixie,sid}/InRelease, check them with gpgv, fetch and check
# main/binary-amd64/Packages.xz against them, and copy each package's
# Filename and SHA256 here; then rerun tests/cli/progs_upstream_diff.sh.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cache=${1:-${LIBCAP_REF_CACHE:-$top/build/libcap-ref}}
mirror=${LIBCAP_REF_MIRROR:-http://deb.debian.org/debian}
# The programs' directory in an unpacked libcap2-bin, and the libraries'.
lib=usr/lib/x86_64-linux-gnu

die() { echo "libcap_ref: $*" >&2; exit 1; }
unreachable() { echo "libcap_ref: $*" >&2; exit 77; }

[ "$(uname -m)" = x86_64 ] || unreachable "the reference packages are amd64; this is $(uname -m)"
for t in curl dpkg-deb sha256sum flock; do
	command -v $t >/dev/null || unreachable "$t is not installed"
done
# The pinned packages: version, pool file, SHA-256.
old=2.75 new=2.78
pin_libc=pool/main/g/glibc/libc6_2.41-12+deb13u5_amd64.deb
sum_libc=b59b0625cd1a791375d40dab23a4d5d3d0641e3d0a773501becdc3725b7f99cf
pin_old_lib=pool/main/libc/libcap2/libcap2_2.75-10+deb13u1+b3_amd64.deb
sum_old_lib=89fc4d34fc7a28ad6f0fcd0c561ab253b9dedf6f77f5a000b47c276c8295bf67
pin_old_bin=pool/main/libc/libcap2/libcap2-bin_2.75-10+deb13u1+b3_amd64.deb
sum_old_bin=6404b8ee315ce3eb8e273981650e419ff0e91aed5213d4975a6895f98944ea80
pin_new_lib=pool/main/libc/libcap2/libcap2_2.78-1+b1_amd64.deb
sum_new_lib=ded957f0dd933e80a3cbbc3a920cb66a3d683f7e2ba2ddd77008f9f02744dcd9
pin_new_bin=pool/main/libc/libcap2/libcap2-bin_2.78-1+b1_amd64.deb
sum_new_bin=e5b6828c65a9f5b4380c5caaa61487386718040770f05ae8c24a2f1c48d48490

mkdir -p "$cache" || die "cannot make $cache"
cache=$(cd "$cache" && pwd)

# One fetcher at a time (the plain and sanitizer passes run side by side);
# the lock is released when this shell exits.
exec 9>"$cache/.lock" || die "cannot lock $cache"
flock 9

# A cache filled from other pins, or laid out by an older version of this
# script (the last word), is filled again.
pins="$sum_libc $sum_old_lib $sum_old_bin $sum_new_lib $sum_new_bin layout-2"
if [ -s "$cache/ready" ] && [ "$(cat "$cache/pins" 2>/dev/null)" = "$pins" ]; then
	cat "$cache/ready"
	exit 0
fi
rm -f "$cache/ready"

tmp=$(mktemp -d "$cache/.work.XXXXXX") || die "mktemp"
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

# deb FILE SHA256 DIR: download the pool FILE, check it against its pin,
# unpack it into DIR.
deb() {
	curl -fsS --retry 2 --connect-timeout 15 --max-time 300 \
		-o "$tmp/p.deb" "$mirror/$1" ||
		unreachable "cannot download $mirror/$1 (gone from the archive? renew the pins in tests/tools/libcap_ref.sh)"
	got=$(sha256sum <"$tmp/p.deb" | cut -d' ' -f1)
	[ "$got" = "$2" ] || die "$1: sha256 $got, pinned $2"
	dpkg-deb -x "$tmp/p.deb" "$3" || die "$1: cannot unpack"
	rm -f "$tmp/p.deb"
}

mkdir "$tmp/libc" "$tmp/$old" "$tmp/$new" || die mkdir
deb $pin_libc $sum_libc "$tmp/libc"
deb $pin_old_lib $sum_old_lib "$tmp/$old"
deb $pin_old_bin $sum_old_bin "$tmp/$old"
deb $pin_new_lib $sum_new_lib "$tmp/$new"
deb $pin_new_bin $sum_new_bin "$tmp/$new"

for v in "$old" "$new"; do
	mkdir "$tmp/$v/bin" || die mkdir
	for p in setcap getcap getpcaps capsh; do
		[ -x "$tmp/$v/usr/sbin/$p" ] || die "libcap2-bin $v has no usr/sbin/$p"
		# Paths as they will be after the rename below.
		cat >"$tmp/$v/bin/$p" <<EOF
#!/bin/sh
# libcap $v's $p on trixie's libc (written by tests/tools/libcap_ref.sh).
exec "$cache/libc/$lib/ld-linux-x86-64.so.2" \\
	--library-path "$cache/$v/$lib:$cache/libc/$lib" \\
	--argv0 $p "$cache/$v/usr/sbin/$p" "\$@"
EOF
		chmod 755 "$tmp/$v/bin/$p"
	done
	cat >"$tmp/$v/run" <<EOF
#!/bin/sh
# Runs "\$@" on libcap $v's libraries and trixie's libc (written by
# tests/tools/libcap_ref.sh).
exec "$cache/libc/$lib/ld-linux-x86-64.so.2" \\
	--library-path "$cache/$v/$lib:$cache/libc/$lib" "\$@"
EOF
	chmod 755 "$tmp/$v/run"
done
# Wrappers name the final paths: move everything into place, then ready.
rm -rf "$cache/libc" "$cache/$old" "$cache/$new"
mv "$tmp/libc" "$tmp/$old" "$tmp/$new" "$cache/" || die "cannot fill $cache"
for v in "$old" "$new"; do
	# A proof that it runs here, before the cache says ready.
	out=$("$cache/$v/bin/capsh" --license 2>&1) ||
		die "libcap $v's capsh does not run: $out"
done
printf '%s %s\n%s %s\n' "$cache/$old" "$old" "$cache/$new" "$new" >"$cache/ready.new"
echo "$pins" >"$cache/pins"
mv "$cache/ready.new" "$cache/ready"
cat "$cache/ready"
