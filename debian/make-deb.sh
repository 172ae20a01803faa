#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# "make deb": builds the binary packages from a clean copy of the tree in
# OUT/libcap2, so that neither the working tree's objects nor the parent
# directory are touched; the .debs, .changes and .buildinfo land in OUT.
# The build is skipped when the sources that go into the packages are the
# same as for the .debs already in OUT (their checksums are in OUT/.sources).
#
# lintian's verdict is kept beside them (OUT/lintian.txt).
#
# Usage: sh debian/make-deb.sh [OUT]      (OUT defaults to build/deb)
#        sh debian/make-deb.sh --lintian [OUT]   lintian alone, on OUT's packages
# MAKE_DEB_LINTIAN=later leaves a missing lintian.txt to the caller, who
# runs --lintian beside other work (tests/root/deb_packages.sh does).
set -eu
lintian_only=
if [ "${1:-}" = --lintian ]; then lintian_only=1; shift; fi
top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$top/build/deb}
mkdir -p "$out"
out=$(cd "$out" && pwd)

# lintian reads every .deb and takes a minute; its verdict is kept with the
# packages (lintian.txt, written whole or not at all) so that callers need
# not run it again. It leaves caches (mldbm-elf-*) in TMPDIR: a directory
# of its own, removed.
run_lintian() {
	command -v lintian >/dev/null 2>&1 || return 0
	lt=$(mktemp -d "${TMPDIR:-/tmp}/make-deb-lintian.XXXXXX")
	TMPDIR=$lt lintian --tag-display-limit 0 "$out"/libcap2_*_"$arch".changes \
		>"$out/lintian.txt.new" 2>&1 || true
	mv "$out/lintian.txt.new" "$out/lintian.txt"
	rm -rf "$lt"
}
arch=$(dpkg-architecture -qDEB_HOST_ARCH)
if [ -n "$lintian_only" ]; then
	run_lintian
	exit 0
fi

for tool in dpkg-buildpackage dh; do
	command -v "$tool" >/dev/null 2>&1 || {
		echo "make-deb: $tool not found: apt-get install debhelper dpkg-dev" >&2
		exit 1
	}
done

# What the packages are made of; tests/, bench/, demo/ are not shipped.
cd "$top"
list_sources() {
	if git rev-parse --git-dir >/dev/null 2>&1; then
		git ls-files -co --exclude-standard -- Makefile Make.Rules LICENSE* README.md \
			libcap psx private common progs pam_cap man include docs debian
	else
		find Makefile Make.Rules LICENSE* README.md libcap psx private common progs pam_cap \
			man include docs debian -type f ! -name '*.o' ! -name '*.a' \
			! -name '*.so*' ! -name '*.install' ! -name '*.pc'
	fi | LC_ALL=C sort
}
# The files that exist (a deleted one may still be in git's index), one
# sha256sum for them all.
existing() {
	list_sources | while IFS= read -r f; do [ ! -f "$f" ] || printf '%s\n' "$f"; done
}
sums=$(existing | xargs -r -d '\n' sha256sum)

version=$(dpkg-parsechangelog -l debian/changelog -S Version | sed 's/^[0-9]*://')
debs=
for p in libcap2 libcap2-bin libpam-cap libcap-dev; do
	debs="$debs $out/${p}_${version}_${arch}.deb"
done
fresh=yes
for d in $debs; do [ -f "$d" ] || fresh=; done
if [ -n "$fresh" ] && [ "$sums" = "$(cat "$out/.sources" 2>/dev/null)" ]; then
	[ -f "$out/lintian.txt" ] || [ "${MAKE_DEB_LINTIAN:-}" = later ] || run_lintian
	echo "make-deb: packages in $out are up to date"
	exit 0
fi

rm -rf "$out/libcap2" "$out/.sources" "$out"/lintian.txt* "$out"/*.deb \
	"$out"/*.changes "$out"/*.buildinfo
mkdir "$out/libcap2"
existing | xargs -r -d '\n' cp -p --parents -t "$out/libcap2"
chmod +x "$out/libcap2/debian/rules"
(cd "$out/libcap2" && dpkg-buildpackage -b -us -uc -j2) >"$out/build.log" 2>&1 || {
	tail -30 "$out/build.log" >&2
	echo "make-deb: dpkg-buildpackage failed; full log in $out/build.log" >&2
	exit 1
}
rm -rf "$out/libcap2"
[ "${MAKE_DEB_LINTIAN:-}" = later ] || run_lintian
echo "$sums" >"$out/.sources"
echo "make-deb: built in $out:"
for d in $debs; do echo "  $(basename "$d")"; done
