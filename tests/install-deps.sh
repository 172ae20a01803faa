#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# Installs what the build and the test suite need, on Debian and derivatives.
# As root it runs apt-get; otherwise it prints the exact command and fails.
#
# Build: gcc make pkg-config, Check (unit tests), PAM headers (pam_cap),
# clang, llvm, bpftool and libbpf-dev (capaudit's eBPF programs: compiled
# for the BPF target, their light skeleton generated; the programs link no
# libbpf, and a build without them leaves counting in the kernel out).
# Tests: the reference libcap 2.66 library, programs and pam_cap to compare
# against, attr (setfattr writes raw xattrs), cwrap's pam/nss wrappers,
# mandoc (man page lint), clang-format (the C layout), valgrind, clang
# and its sanitizer/libFuzzer runtimes (fuzz smoke; only recommended by
# clang), strace (bench),
# python3 (parses the --json output in tests), iputils-ping (capaudit proves
# its least grant on the real ping), debhelper, dpkg-dev and
# lintian (make deb, tests/root/deb_packages.sh), ansible-core (runs the
# collection in contrib/ansible: tests/root/ansible_caps.sh; the "ansible"
# package, thirty times larger, adds only collections we do not use),
# btrfs-progs (capaudit proves a grant for a file in a btrfs subvolume, on
# a loop file: tests/root/capaudit_suggest.sh), openssh-server,
# openssh-client and iproute2 (a real sshd, in a throw-away root on the
# loopback of a network namespace of its own, logs users in through our
# pam_cap: tests/root/pam_cap_sshd.sh, which needs only the programs: it
# uses neither the host's sshd configuration nor its host keys. Debian's
# openssh-server package also makes host keys and starts the host's own
# sshd where the init system lets it, which this script then says),
# podman, runc, golang-github-containers-common (the runtime's default
# seccomp profile, /usr/share/containers/seccomp.json), uidmap,
# slirp4netns and fuse-overlayfs (a real container runtime runs perfdoctor
# and a perf probe in containers: tests/root/perfdoctor_podman.sh, with
# runc, since crun refuses hybrid cgroup layouts; it keeps to a store,
# configuration and mount namespace of its own and uses no registry).
#
# With --build, only what "make" and "make demo" need.
BUILD_PACKAGES="gcc make pkg-config libpam0g-dev clang llvm bpftool libbpf-dev"
PACKAGES="$BUILD_PACKAGES check libsubunit-dev debhelper dpkg-dev lintian
libcap-dev libcap2-bin libpam-cap attr
libpam-wrapper libpamtest0-dev libnss-wrapper
mandoc valgrind clang clang-format libclang-rt-dev strace python3 iputils-ping curl
bindfs fuse3 ansible-core btrfs-progs openssh-server openssh-client iproute2
podman runc golang-github-containers-common uidmap slirp4netns fuse-overlayfs"
[ "${1:-}" = --build ] && PACKAGES=$BUILD_PACKAGES

missing=
if command -v dpkg-query >/dev/null 2>&1; then
	for p in $PACKAGES; do
		status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)
		case "$status" in
		*" installed") ;;
		*) missing="$missing $p" ;;
		esac
	done
else
	echo "install-deps: not a Debian system; make sure these (or your" \
	     "distribution's equivalents) are installed:" $PACKAGES >&2
	exit 0
fi

[ -z "$missing" ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "install-deps: missing packages:$missing" >&2
	echo "install-deps: run as root: apt-get install -y$missing" >&2
	exit 1
fi
echo "install-deps: installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null &&
	apt-get install -y -qq --no-install-recommends $missing >/dev/null ||
	{ echo "install-deps: apt-get install$missing failed" >&2; exit 1; }
case " $missing " in
*" openssh-server "*)
	echo "install-deps: note: openssh-server may have started this host's" \
	     "sshd; the tests need only its program (to stop and disable the" \
	     "service: systemctl disable --now ssh)" >&2 ;;
esac
