#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# libcap's state changes through libpsx in a process with io_uring's
# worker threads alive (iou-wrk-*, iou-sqp-*: made by the kernel, listed
# in /proc/self/task, every signal blocked, never running the program's
# code). libpsx leaves them out: cap_setuid() and cap_set_proc() succeed
# at once (before, they failed with EDEADLK after 2 s) and every ordinary
# thread changes (read back with capget(2) by thread id). What the
# workers run is decided by the credentials of the request, not theirs:
# an io-wq open of a root-only file submitted after CAP_DAC_OVERRIDE was
# dropped is refused, although the worker that runs it still holds the
# capability itself. As psx_syscall(3) says, a ring with an SQPOLL thread
# set up before the drop, a personality registered before it, and a
# request submitted before it keep the old credentials. io_uring threads
# started by the broadcast call itself (io_uring_setup of an SQPOLL ring
# through psx_syscall3(), in every thread), which libpsx meets only after
# its check, are left out too, never signalled. tools/psxiouring does all of it, linked with
# libpsx.so and again with libpsx.a and -Wl,-wrap,pthread_create.
# Last, what libcap's own libpsx does there (docs/differences.md, row
# libpsx-io-uring): 2.75 and 2.78, which bracket 2.76, signal the
# workers, which never take the signal, and wait for ever.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
[ "$(id -u)" -eq 0 ] || skip "needs root (setuid, full capability sets)"
case $(cat /proc/sys/kernel/io_uring_disabled 2>/dev/null || echo 0) in
0|1) ;;	# root, with CAP_SYS_ADMIN, may use it at 1
*) skip "io_uring is disabled here (kernel.io_uring_disabled=2)" ;;
esac
for b in psxiouring psxiouring-static; do
	[ -x "$BIN/$b" ] || { fail "$BIN/$b is not built"; finish; }
done
# Only root may read it; uid 65534 may reach it (CAP_DAC_OVERRIDE then
# decides the file itself, not the way to it).
chmod 711 "$T"
install -m 600 /dev/null "$T/secret"

for b in psxiouring psxiouring-static; do
	# VALGRIND_CMD is a command line: split into words on purpose.
	timeout -k 10 120 ${VALGRIND_CMD:-} "$BIN/$b" "$T/secret" >"$T/out" 2>&1
	rc=$?
	sed -n 's/^ok: /'"$b"': /p; s/^FAIL: /FAIL: '"$b"': /p' "$T/out" >"$T/lines"
	while IFS= read -r line; do
		case $line in
		FAIL:*) fail "${line#FAIL: }" ;;
		*) ok "$line" ;;
		esac
	done <"$T/lines"
	if [ $rc -ne 0 ] || ! grep -qx '0 check(s) failed' "$T/out"; then
		fail "$b: exit $rc"
		sed 's/^/    /' "$T/out"
	else
		pass
	fi
done

# The difference from 2.76 is listed, with this suite as its check.
listed_difference libpsx-io-uring

# ---- libcap's libpsx in the same place ---------------------------------
if is_sanitized || [ "${VALGRIND:-0}" = 1 ]; then
	finish "io_uring's workers left out: every ordinary thread changed at once; requests keep the credentials they were submitted with (libcap's libpsx not compared here)"
fi

# 2.75 and 2.78: once the program has its worker and makes its first
# call, it must still be waiting half a second later, some five hundred
# times what the call takes here. It is killed by the pid it printed;
# should it never print one, timeout(1) is asked to end it (TERM, which
# timeout passes on: killing timeout would leave the program spinning).
if upstream_refs; then
	while read -r dir ver; do
		with_upstream_libpsx "$dir" "$BIN/psxiouring" "$T/secret" >"$T/out" 2>&1 &
		job=$!
		i=0
		while [ $i -lt 100 ] && ! grep -q '^io_uring threads: ' "$T/out"; do
			sleep 0.1
			i=$((i + 1))
		done
		sleep 0.5
		pid=$(sed -n 's/^pid \([0-9][0-9]*\)$/\1/p' "$T/out")
		pending=
		for task in ${pid:+/proc/$pid/task/*}; do
			case $(cat "$task/comm" 2>/dev/null) in
			iou-*) ;;
			*) continue ;;
			esac
			# Signal 33 is bit 32 of SigPnd: the worker never takes it.
			mask=$(sed -n 's/^SigPnd:[[:space:]]*//p' "$task/status")
			[ -n "$mask" ] && [ $((0x$mask >> 32 & 1)) -eq 1 ] &&
				pending="$pending ${task##*/}"
		done
		alive=
		if [ -n "$pid" ]; then
			kill -0 "$pid" 2>/dev/null && alive=yes
			kill -KILL "$pid" 2>/dev/null
		else
			for t in $(pgrep -P "$job"); do kill -TERM "$t"; done
		fi
		wait "$job" 2>/dev/null
		if [ "$alive" = yes ] && [ -n "$pending" ] &&
		   grep -q '^io_uring threads: [1-9]' "$T/out" &&
		   ! grep -q '^ok: cap_setuid' "$T/out"; then
			ok "$ver: signal 33 left pending on io_uring's worker(s)$pending, cap_setuid() still waiting after 0.5 s"
		else
			fail "$ver: not the endless wait docs/differences.md describes (alive: ${alive:-no}, signal pending on:${pending:- none})"
			sed 's/^/    /' "$T/out"
		fi
	done <"$T/refs"
fi

finish "io_uring's workers left out: every ordinary thread changed at once; requests keep the credentials they were submitted with; libcap's libpsx as documented"
