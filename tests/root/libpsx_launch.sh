#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# cap_launch() with a chroot from a threaded program (issue 13, item 2).
# The launcher's child is single threaded between fork and exec: its steps
# use the plain system calls, never libpsx's broadcast, which cannot list
# the threads from inside the chroot: it refused to clear E there (the
# child exec'd with CAP_SYS_CHROOT still raised), and libcap's kills the
# process. psxlaunch (tests/tools) keeps three threads alive, launches a
# static program into a temporary chroot whose proc/self/task it watches
# with inotify (the child must never open it), launches a missing one and
# a missing chroot (both -1 with ECHILD, as libcap reports every failure
# in the child), then checks its own cap_set_proc() still reaches every
# thread. Three builds: libpsx.so, libpsx.a with -Wl,-wrap,pthread_create,
# and no libpsx.
set -u
[ "$(id -u)" -eq 0 ] || { echo "skipped: needs root (chroot, full capability sets)"; exit 77; }
for b in psxlaunch psxlaunch-static psxlaunch-nopsx chroot-target; do
	[ -x "$BIN/$b" ] || { echo "$BIN/$b is not built"; exit 1; }
done
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/root"
cp "$BIN/chroot-target" "$tmp/root/target"
: >"$tmp/root/marker"
mkdir -p "$tmp/root/proc/self/task"
bad=0

for b in psxlaunch psxlaunch-static psxlaunch-nopsx; do
	timeout 60 "$BIN/$b" "$tmp/root" >"$tmp/out" 2>&1; rc=$?
	sed 's/^/    /' "$tmp/out"
	if [ $rc -ne 0 ]; then
		echo "FAIL: $b exited $rc"; bad=$((bad + 1))
	else
		echo "ok: $b"
	fi
done
case $(sed -n 1p "$tmp/out") in
"libpsx not linked") ;;
*) echo "FAIL: psxlaunch-nopsx has libpsx linked (test broken?)"; bad=$((bad + 1)) ;;
esac

[ $bad -eq 0 ] && echo "chroot launches work with and without libpsx; failures are ECHILD"
[ $bad -eq 0 ]
