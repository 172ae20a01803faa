#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# The upstream reference programs: Debian's libcap2 and libcap2-bin from
# trixie (2.75) and sid (2.78), which bracket the 2.76 we replace (Debian
# never packaged 2.76), with trixie's libc6 to run them on this older
# glibc. Downloads each .deb once into a cache, checks it against the
# archive's Packages index (itself checked against the suite's InRelease,
# whose signature gpgv checks with debian-archive-keyring when both are
# there), unpacks it, and writes for each version a bin/ of wrapper
# scripts (setcap, getcap, getpcaps, capsh) that run the upstream program
# through trixie's dynamic loader, named by its own name as argv[0], so
# that "capsh ==" finds the same wrapper in PATH.
#
#   sh tests/tools/libcap_ref.sh [CACHE]
#
# CACHE defaults to $LIBCAP_REF_CACHE, else build/libcap-ref in the tree.
# On success prints two lines, "OLD_DIR OLD_VERSION" and "NEW_DIR
# NEW_VERSION" (DIR/bin holds the wrappers), and exits 0. Exits 77 with the
# reason on stderr when the archive cannot be reached or no longer has a
# version on each side of 2.76; 1 when a download does not match the
# index (never used). A warm cache is used without the network.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cache=${1:-${LIBCAP_REF_CACHE:-$top/build/libcap-ref}}
mirror=${LIBCAP_REF_MIRROR:-http://deb.debian.org/debian}
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
# The programs' directory in an unpacked libcap2-bin, and the libraries'.
lib=usr/lib/x86_64-linux-gnu

die() { echo "libcap_ref: $*" >&2; exit 1; }
unreachable() { echo "libcap_ref: $*" >&2; exit 77; }

[ "$(uname -m)" = x86_64 ] || unreachable "the reference packages are amd64; this is $(uname -m)"
for t in curl xz dpkg-deb sha256sum flock; do
	command -v $t >/dev/null || unreachable "$t is not installed"
done
mkdir -p "$cache" || die "cannot make $cache"
cache=$(cd "$cache" && pwd)

# One fetcher at a time (the plain and sanitizer passes run side by side);
# the lock is released when this shell exits.
exec 9>"$cache/.lock" || die "cannot lock $cache"
flock 9

if [ -s "$cache/ready" ]; then
	cat "$cache/ready"
	exit 0
fi

tmp=$(mktemp -d "$cache/.work.XXXXXX") || die "mktemp"
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

# fetch URL FILE: 77 when the archive cannot be reached.
fetch() {
	curl -fsS --retry 2 --connect-timeout 15 --max-time 300 -o "$2" "$1" ||
		unreachable "cannot download $1"
}

# index SUITE: $tmp/SUITE.packages, the suite's Packages index, checked
# against its InRelease (signature checked where gpgv and the keyring are).
index() {
	fetch "$mirror/dists/$1/InRelease" "$tmp/$1.InRelease"
	if command -v gpgv >/dev/null && [ -r "$keyring" ]; then
		gpgv --keyring "$keyring" "$tmp/$1.InRelease" 2>"$tmp/gpgv" ||
			die "$1/InRelease: bad signature: $(cat "$tmp/gpgv")"
	else
		echo "libcap_ref: note: no gpgv or $keyring: $1/InRelease unsigned-checked" >&2
	fi
	want=$(awk '/^SHA256:/ { s = 1; next } /^[^ ]/ { s = 0 }
		s && $3 == "main/binary-amd64/Packages.xz" { print $1; exit }' \
		"$tmp/$1.InRelease")
	[ -n "$want" ] || die "$1/InRelease lists no main/binary-amd64/Packages.xz"
	fetch "$mirror/dists/$1/main/binary-amd64/Packages.xz" "$tmp/$1.xz"
	got=$(sha256sum <"$tmp/$1.xz" | cut -d' ' -f1)
	[ "$got" = "$want" ] || die "$1 Packages.xz: sha256 $got, InRelease says $want"
	xz -dc "$tmp/$1.xz" >"$tmp/$1.packages" || die "$1 Packages.xz: cannot unpack"
	rm -f "$tmp/$1.xz"
}

# field SUITE PACKAGE FIELD: one field of PACKAGE's stanza in SUITE.
field() {
	awk -v p="$2" -v f="$3" 'BEGIN { RS = ""; FS = "\n" }
		$1 == "Package: " p {
			for (i = 1; i <= NF; i++)
				if (index($i, f ": ") == 1) { print substr($i, length(f) + 3); exit }
		}' "$tmp/$1.packages"
}

# deb SUITE PACKAGE DIR: download PACKAGE from SUITE, check its SHA256
# against the index, unpack it into DIR.
deb() {
	file=$(field "$1" "$2" Filename) sum=$(field "$1" "$2" SHA256)
	[ -n "$file" ] && [ -n "$sum" ] || unreachable "$1 has no package $2"
	fetch "$mirror/$file" "$tmp/p.deb"
	got=$(sha256sum <"$tmp/p.deb" | cut -d' ' -f1)
	[ "$got" = "$sum" ] || die "$file: sha256 $got, the $1 index says $sum"
	dpkg-deb -x "$tmp/p.deb" "$3" || die "$file: cannot unpack"
	rm -f "$tmp/p.deb"
}

# upstream SUITE: libcap's upstream version in SUITE ("2.75").
upstream() {
	field "$1" libcap2 Version | sed 's/^[0-9]*://; s/-[^-]*$//'
}

# newer A B: A > B as dotted versions.
newer() {
	[ "$1" != "$2" ] &&
		[ "$(printf '%s\n%s\n' "$1" "$2" | sort -V | tail -n 1)" = "$1" ]
}

index trixie
index sid
old=$(upstream trixie) new=$(upstream sid)
# The pair must bracket 2.76: where both agree, 2.76 does the same.
{ newer 2.76 "$old" || [ "$old" = 2.76 ]; } ||
	unreachable "trixie's libcap is $old, not at most 2.76"
{ newer "$new" 2.76 || [ "$new" = 2.76 ]; } ||
	unreachable "sid's libcap is $new, not at least 2.76"

mkdir "$tmp/libc" "$tmp/$old" "$tmp/$new" || die mkdir
deb trixie libc6 "$tmp/libc"
deb trixie libcap2 "$tmp/$old"
deb trixie libcap2-bin "$tmp/$old"
deb sid libcap2 "$tmp/$new"
deb sid libcap2-bin "$tmp/$new"

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
mv "$cache/ready.new" "$cache/ready"
cat "$cache/ready"
