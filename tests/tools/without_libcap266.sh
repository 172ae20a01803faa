#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# Runs suites on this machine made into a host without Debian's libcap
# 2.66, to show that the differential suites compare with the pinned copy
# (tests/tools/libcap_ref.sh) and touch nothing of the system's: in a
# private mount namespace, dpkg purges libcap2, libcap2-bin, libcap-dev
# and libpam-cap in a chroot into an overlay over / (every write lands on
# a tmpfs and vanishes with it), our libcap.so.2 and libpsx.so.2 stand in
# for the system's there (as another distribution's libcap would: ping and
# systemd's libraries load it), and the overlay's /usr, /etc and
# /var/lib/dpkg are bound over the real ones (/bin, /sbin and /lib lead
# into /usr). The suites then run in that namespace, not in a chroot, so
# that user namespaces still work. Nothing of the host changes. Root
# only; build first (make, make -C tests all).
#
#   sh tests/tools/without_libcap266.sh [-n] SUITE...
#
# SUITEs as run.sh's TESTS names them (cli/getcap_diff.sh root/setcap_diff.sh);
# one plain pass. -n: the archive cannot be reached either (LIBCAP_REF_MIRROR
# names a closed port on the loopback), so the pinned copy must come from
# the cache. Prints run.sh's report; exits with its status.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
offline=
[ "${1:-}" = -n ] && { offline=1; shift; }
[ $# -gt 0 ] || { echo "usage: $0 [-n] SUITE..." >&2; exit 2; }
[ "$(id -u)" -eq 0 ] || { echo "without_libcap266: needs root (mount namespace, chroot)" >&2; exit 77; }
build=${BUILD:-$top/build/main}
for f in "$build/libcap/libcap.so.2" "$build/psx/libpsx.so.2"; do
	[ -e "$f" ] || { echo "without_libcap266: $f is not built" >&2; exit 1; }
done

# The world, built inside the namespace by a second instance of this file.
if [ -z "${WITHOUT_LIBCAP266_INSIDE:-}" ]; then
	WITHOUT_LIBCAP266_INSIDE=1 offline=$offline build=$build \
		exec unshare -m --propagation private sh "$0" "$@"
fi

w=$(mktemp -d) || exit 1
m=$w/merged
mount -t tmpfs -o mode=0755 tmpfs "$w" &&
	mkdir "$w/upper" "$w/work" "$m" &&
	mount -t overlay overlay -o "lowerdir=/,upperdir=$w/upper,workdir=$w/work" "$m" ||
	{ echo "without_libcap266: cannot mount an overlay over /" >&2; exit 1; }
for d in proc sys dev; do
	mount --rbind "/$d" "$m/$d" || { echo "without_libcap266: cannot bind /$d" >&2; exit 1; }
done
[ -L /lib ] && [ -L /sbin ] ||
	{ echo "without_libcap266: needs a merged /usr (/lib and /sbin links into /usr)" >&2; exit 1; }
# man-db's trigger would re-index every manual page.
rm -f "$m/var/lib/man-db/auto-update"
inroot() {
	chroot "$m" /usr/bin/env -i LANG=C DEBIAN_FRONTEND=noninteractive \
		PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root "$@"
}
inroot dpkg --purge --force-depends libcap2-bin libcap-dev libpam-cap libcap2 \
	>"$w/dpkg.log" 2>&1 || { cat "$w/dpkg.log" >&2; exit 1; }
lib=$m/usr/lib/x86_64-linux-gnu
cp "$build/libcap/libcap.so.2" "$build/psx/libpsx.so.2" "$lib/" || exit 1
for p in libcap2 libcap2-bin libcap-dev libpam-cap; do
	case $(inroot dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null) in
	ii*) echo "without_libcap266: $p is still installed" >&2; exit 1 ;;
	esac
done
for f in usr/sbin/setcap usr/sbin/getcap usr/sbin/getpcaps usr/sbin/capsh \
	 usr/include/sys/capability.h usr/lib/x86_64-linux-gnu/security/pam_cap.so \
	 usr/lib/x86_64-linux-gnu/libcap2; do
	[ ! -e "$m/$f" ] || { echo "without_libcap266: /$f is still there" >&2; exit 1; }
done
for d in /usr /etc /var/lib/dpkg; do
	mount --bind "$m$d" "$d" || { echo "without_libcap266: cannot bind $m$d over $d" >&2; exit 1; }
done
echo "without_libcap266: libcap2, libcap2-bin, libcap-dev, libpam-cap purged;" \
	"our libcap.so.2 stands in for the system's"
mirror=${LIBCAP_REF_MIRROR:-}
[ -n "$offline" ] && mirror=http://127.0.0.1:9/debian &&
	echo "without_libcap266: the archive is unreachable ($mirror)"
# run.sh as a developer would start it, in the tree as it is.
cd "$top" || exit 1
env TESTS="$*" PASSES=plain BUILD="$build" JOBS="${JOBS:-2}" \
	${mirror:+LIBCAP_REF_MIRROR=$mirror} sh tests/run.sh
