#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# cap_launch() with a chroot from a threaded program.
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
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
[ "$(id -u)" -eq 0 ] || skip "needs root (chroot, full capability sets)"
for b in psxlaunch psxlaunch-static psxlaunch-nopsx chroot-target; do
	[ -x "$BIN/$b" ] || { fail "$BIN/$b is not built"; finish; }
done
mkdir "$T/root"
cp "$BIN/chroot-target" "$T/root/target"
: >"$T/root/marker"
mkdir -p "$T/root/proc/self/task"

for b in psxlaunch psxlaunch-static psxlaunch-nopsx; do
	timeout 60 "$BIN/$b" "$T/root" >"$T/out" 2>&1; rc=$?
	sed 's/^/    /' "$T/out"
	if [ $rc -ne 0 ]; then
		fail "$b exited $rc"
	else
		ok "$b"
	fi
done
case $(sed -n 1p "$T/out") in
"libpsx not linked") ;;
*) fail "psxlaunch-nopsx has libpsx linked (test broken?)" ;;
esac

finish "chroot launches work with and without libpsx; failures are ECHILD"
