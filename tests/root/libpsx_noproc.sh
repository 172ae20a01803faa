#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# cap_set_proc() through libpsx where /proc cannot list the threads:
# unmounted, a chroot without one, a tmpfs posing as one, the /proc of a
# PID namespace we are not in. A process whose only thread is the caller
# has the call made (the kernel proves it alone), also after threads came
# and went and while one is still on its way out; one with other threads
# is refused (ENOENT) before anything changed, an io_uring worker
# counting as one (with /proc it is left out), and so is one whose
# seccomp filter refuses unshare(2) or answers it with a 0 the kernel
# never gave; a signal handler that starts a thread cannot run between
# the proof and the call. tools/psxnoproc reads every thread's sets back
# with capget(2), never from /proc. The same with libpsx.a and
# -Wl,-wrap,pthread_create. Last, what libcap's own libpsx does there
# (docs/differences.md, row libpsx-no-proc): Debian's 2.66 reports
# success with the threads pthread_create() made unchanged, and 2.75 and
# 2.78, which bracket 2.76, change the caller and then kill the process.
# Run where there is no /proc at all (a container world), it takes that
# as it is for "unmounted" and leaves out the cases that need one.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
[ "$(id -u)" -eq 0 ] || skip "needs root (mount namespaces, chroot, full capability sets)"
for b in psxnoproc psxnoproc-static; do
	[ -x "$BIN/$b" ] || { fail "$BIN/$b is not built"; finish; }
done
mkdir "$T/empty"
have_proc=1 worlds="chroot:$T/empty fake foreign"
if ! [ -r /proc/self/status ]; then
	have_proc=0
	[ -d /proc ] || worlds="chroot:$T/empty"
	echo "note: no /proc here: \"unmounted\" is this world as it is; left out: $(
		[ -d /proc ] || printf 'fake, foreign (nothing to mount over), ')with /proc"
fi

noproc() {	# program world scenario: it must exit 0
	# run_ours, inside timeout (VALGRIND_CMD is a command line: split).
	timeout -k 10 120 ${VALGRIND_CMD:-} "$BIN/$1" "$2" "$3" >"$T/out" 2>&1; rc=$?
	if [ $rc -ne 0 ]; then
		fail "$1 $2 $3: exit $rc"
		sed 's/^/    /' "$T/out"
	else
		ok "$1 $2 $3: $(grep '^cap_set_proc' "$T/out")"
	fi
}

for b in psxnoproc psxnoproc-static; do
	for s in alone joined exiting signal threads eperm fake iouring; do
		if [ $s = signal ] && [ "${VALGRIND:-0}" = 1 ]; then
			not_checked "$b signal left out: valgrind 3.19 has no seccomp(2)"
			continue
		fi
		noproc $b unmounted $s
	done
	for w in $worlds; do
		noproc $b "$w" alone
		noproc $b "$w" threads
	done
	# With /proc, the same threads are all reached, whatever the filter.
	[ $have_proc = 1 ] || continue
	noproc $b proc threads
	noproc $b proc fake
	noproc $b proc iouring
done

# The difference from 2.76 is listed, with this suite as its check.
listed_difference libpsx-no-proc

# ---- libcap's libpsx in the same place ---------------------------------
if is_sanitized || [ "${VALGRIND:-0}" = 1 ]; then
	finish "one thread without /proc: changed; more, or no proof: refused, nothing changed (libcap's libpsx not compared here)"
fi

# Debian's 2.66: the call succeeds, but only the caller changed.
if has_reference 2.66 libcap2; then
	lib=$REF_LIB
	LD_LIBRARY_PATH=$BUILD/libcap:$lib timeout 60 "$BIN/psxnoproc" unmounted alone >"$T/out" 2>&1
	rc=$?
	expect_line "$T/out" "cap_set_proc(empty) = 0 (success)" "2.66, one thread"
	[ $rc -eq 0 ] && pass || fail "2.66, one thread: exit $rc, the caller kept a capability"
	LD_LIBRARY_PATH=$BUILD/libcap:$lib timeout 60 "$BIN/psxnoproc" unmounted threads >"$T/out" 2>&1
	sed 's/^/    /' "$T/out"
	expect_line "$T/out" "cap_set_proc(empty) = 0 (success)" "2.66, threads: success reported"
	# The tool expects a refusal: the threads that kept their sets match.
	if grep -q '(main): eff 0000000000000000 prm 0000000000000000' "$T/out" &&
	   [ "$(grep '(pthread):' "$T/out" | grep -vc differs)" -eq 2 ]; then
		ok "2.66, threads: the caller changed, the pthread_create() threads did not"
	else
		fail "2.66, threads: not the partial change documented in docs/differences.md"
	fi
else
	not_checked "Debian's 2.66 not compared: $reference_why"
fi

# 2.75 and 2.78, on trixie's C library: the caller changes, then SIGKILL.
if upstream_refs; then
	while read -r dir ver; do
		with_upstream_libpsx "$dir" "$BIN/psxnoproc" unmounted alone >"$T/out" 2>&1
		rc=$?
		if [ $rc -eq 137 ] && grep -q '^failed to read /proc/[0-9]*/task - aborting$' "$T/out" &&
		   ! grep -q '^cap_set_proc' "$T/out"; then
			ok "$ver, one thread: the process is killed"
		else
			fail "$ver, one thread: exit $rc, not the kill docs/differences.md describes"
			sed 's/^/    /' "$T/out"
		fi
	done <"$T/refs"
fi

finish "one thread without /proc: changed; more, or no proof: refused, nothing changed; libcap's libpsx as documented"
