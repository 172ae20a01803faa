# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# The one harness of the shell suites (tests/cli, tests/root, and the
# worlds in tests/tools). A suite starts
#
#   #!/bin/sh
#   # SPDX-License-Identifier: ...
#   # what it proves
#   . "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
#   init
#
# and ends with "finish [WHAT PASSED]". run.sh exports TOP, BUILD, BIN and
# TESTS_DIR; run by hand from the tree (sh tests/cli/setcap_args.sh) the
# suite gets the same defaults: the plain build in build/main.
#
# Suite names: <program>_<aspect>.sh, so the tests of a feature are found
# by the program's name. <program> is one of setcap, getcap, getpcaps,
# capsh, capmanifest, perfdoctor, capcheck, pam_cap, libcap, libpsx; or
#   install  the Makefile's install/uninstall and the installed files
#   deb      the Debian packages
#   docs     the man pages and guides (their examples run)
#   progs    one property checked across several programs alike
#   harness  lib.sh and run.sh themselves
# <aspect> names what is checked; "_diff" marks a byte-for-byte comparison
# with Debian's libcap 2.66 tools. Unit suites are tests/unit/check_<x>.c,
# one per libcap/<x>.c (check_common_<x>.c: common/<x>.c).
#
# Set-up
#   init                 set -u; $T, a private temp dir (mode 0700) that
#                        is removed on exit, whatever the exit; INT, TERM
#                        and HUP exit through the same clean-up
#   at_exit CMD          CMD (a shell string, evaluated at exit) runs before
#                        $T goes, newest first: kill a helper process,
#                        unmount, restore a limit
#   at_exit_checked CMD  the same, but CMD must succeed: a clean-up that
#                        puts back a host setting (tracefs_restore) and
#                        fails makes the suite fail, whatever it checked
#   skip WHY             print "skipped: WHY" and exit 77; after a counted
#                        failure it is a failure (exit 1), never a skip
# Checks (each counts one; a failure prints a line naming the case)
#   fail CASE            count a failure: "FAIL: CASE"
#   ok CASE              count a pass: "ok: CASE"
#   check CASE CMD...    CMD must succeed, else fail CASE
#   run CMD...           run CMD with stdin /dev/null; stdout in $T/out,
#                        stderr in $T/err, exit status in $rc; $ran is
#                        the command line, the case for the expect_ below
#   expect_rc RC [CASE]      the last run exited RC
#   expect_out TEXT [CASE]   its stdout is exactly TEXT (no newline added)
#   expect_err TEXT [CASE]   its stderr is exactly TEXT
#   expect RC OUT ERR CMD... run CMD, then all three of the above
#                        (the expect_ and same return 1 on a failure)
#   same FILE1 FILE2 [CASE]  the files are identical; the diff on failure
#   pass                 count a check that passed, silently
#   xattr_hex FILE       FILE's security.capability as getfattr's hex
#                        (0x...), empty when it has none
#   finish [SUMMARY]     print "N checks, M failed" ("M failed" when only
#                        failures were counted) and SUMMARY when none
#                        failed; exits 0 when none failed, else 1
# Pasting (paste_run, paste_clean, at the end of this file): the command
# lines a program prints for a person to paste, run against recorders.
# $nl is a newline. Suites may keep their own counters (cases, rows) for
# their summary lines.
#
# It knows how the tree was built (SANITIZE, exported by tests/Makefile)
# and whether this is a valgrind pass (VALGRIND=1, see run.sh):
#   is_sanitized             true when the library was built with SANITIZE=...
#   skip_if_sanitized WHY    exit 77 with WHY under sanitizers
#   run_ours CMD [ARG...]    run one of our binaries (programs, $BIN tools);
#                            under VALGRIND=1 it runs inside valgrind
#   with_our_lib CMD [ARG...]  run a foreign, uninstrumented binary (say
#                            /usr/sbin/getcap) against our libcap.so.2; under
#                            sanitizers the runtimes are preloaded, as ASan
#                            must come first, and leaks are not checked since
#                            the program's own are not ours to fix
#   private_etc [ARG...]     root suites: re-run in a world of base accounts
#                            only (see below)

[ -n "${LIB_SH_LOADED:-}" ] && return 0
LIB_SH_LOADED=1

TESTS_DIR=${TESTS_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
TOP=${TOP:-$(cd "$TESTS_DIR/.." && pwd)}
BUILD=${BUILD:-$TOP/build/main}
BIN=${BIN:-$BUILD/tests/bin}
export TESTS_DIR TOP BUILD BIN
fails=0 checks=0 rc=0 ran=
nl='
'
# A script a suite runs inside itself (unshare ... sh -s) and that sources
# lib.sh shares the suite's $T when the suite exports LIB_T=$T: its init
# then leaves the removal to the suite.
T=${LIB_T:-}
unset LIB_T	# not the programs' the inner script runs in turn
lib_cleanups=

init() {
	set -u
	[ -z "$T" ] || return 0		# once (worlds call it too), or LIB_T
	T=$(mktemp -d "${TMPDIR:-/tmp}/$(basename "$0" .sh).XXXXXX") ||
		{ echo "init: cannot create a temp dir"; exit 1; }
	trap lib_exit EXIT
	trap 'exit 129' HUP
	trap 'exit 130' INT
	trap 'exit 143' TERM
}

at_exit() {
	lib_cleanups="$1${lib_cleanups:+
$lib_cleanups}"
}

# Runs a clean-up registered with at_exit_checked; notes its failure.
lib_checked() {
	eval "$1" && return 0
	echo "FAIL: clean-up failed: $1"
	lib_cleanup_failed=1
}

lib_exit() {
	lib_rc=$?
	trap - EXIT
	lib_cleanup_failed=
	[ -z "$lib_cleanups" ] || eval "$lib_cleanups"
	# A host setting left changed outweighs whatever the suite found.
	if [ -n "$lib_cleanup_failed" ] && { [ "$lib_rc" -eq 0 ] || [ "$lib_rc" -eq 77 ]; }; then
		lib_rc=1
	fi
	if [ -n "$T" ] && [ -d "$T" ]; then
		chmod -R u+rwx "$T" 2>/dev/null	# a suite's unreadable dirs
		rm -rf "$T"
	fi
	exit $lib_rc
}

at_exit_checked() {
	at_exit "lib_checked '$(printf '%s' "$1" | sed "s/'/'\\\\''/g")'"
}

skip() {
	if [ "$fails" -gt 0 ]; then
		# Checks already failed: the run is a failure, whatever stops
		# it now.
		echo "FAIL: $fails failed before a skip: $*"
		exit 1
	fi
	echo "skipped: $*"
	exit 77
}

fail() {
	checks=$((checks + 1)) fails=$((fails + 1))
	echo "FAIL: $*"
}

ok() {
	checks=$((checks + 1))
	echo "ok: $*"
}

pass() {
	checks=$((checks + 1))
}

check() {
	lib_case=$1; shift
	if "$@"; then checks=$((checks + 1)); else fail "$lib_case"; fi
}

run() {
	ran="$*"
	"$@" >"$T/out" 2>"$T/err" </dev/null
	rc=$?
}

expect_rc() {
	if [ "$rc" = "$1" ]; then checks=$((checks + 1)); return 0; fi
	fail "${2:-$ran}: exit $rc, want $1"
	return 1
}

expect_out() {
	lib_same_text "$1" "$T/out" "${2:-$ran}: stdout"
}

expect_err() {
	lib_same_text "$1" "$T/err" "${2:-$ran}: stderr"
}

lib_same_text() {	# TEXT FILE CASE
	if printf '%s' "$1" | cmp -s - "$2"; then
		checks=$((checks + 1))
		return 0
	fi
	fail "$3 differs (- wanted, + got)"
	printf '%s' "$1" | diff -u - "$2" | sed '1,2d; s/^/    /' | head -n 60
	return 1
}

expect() {
	lib_rc=$1 lib_out=$2 lib_err=$3; shift 3
	run "$@"
	expect_rc "$lib_rc"
	expect_out "$lib_out"
	expect_err "$lib_err"
}

same() {
	if cmp -s "$1" "$2"; then
		checks=$((checks + 1))
		return 0
	fi
	fail "${3:-$1 and $2}: differ (- $1, + $2)"
	diff -u "$1" "$2" | sed 's/^/    /' | head -n 60
	return 1
}

xattr_hex() {
	getfattr -e hex -n security.capability "$1" 2>/dev/null |
		sed -n 's/^security.capability=//p'
}

finish() {
	if [ "$checks" -gt "$fails" ]; then
		echo "$checks checks, $fails failed"
	else	# a suite that counts its failures only
		echo "$fails failed"
	fi
	[ "$fails" -eq 0 ] || exit 1
	[ $# -eq 0 ] || echo "$*"
	exit 0
}

# long_or SHORT LONG: SHORT, or LONG in "make test-long" (TEST_LONG=1):
# how long a race or a fuzz run goes. SHORT must still catch the naive
# code the suite was written against; LONG looks for rarer interleavings.
long_or() {
	if [ "${TEST_LONG:-0}" = 1 ]; then echo "$2"; else echo "$1"; fi
}

is_sanitized() {
	[ -n "${SANITIZE:-}" ]
}

skip_if_sanitized() {
	if is_sanitized; then
		skip "under SANITIZE=$SANITIZE: $*"
	fi
}

run_ours() {
	${VALGRIND_CMD:-} "$@"
}

# The sanitizer runtimes the library links, as LD_PRELOAD wants them.
sanitizer_preload() {
	preload=
	for lib in $(ldd "$BUILD/libcap/libcap.so.2" 2>/dev/null |
		     awk '/lib(asan|ubsan|tsan|lsan)\.so/ {print $3}'); do
		case $lib in
		*asan*) preload="$lib${preload:+:$preload}" ;;	# ASan first
		*) preload="${preload:+$preload:}$lib" ;;
		esac
	done
	echo "$preload"
}

with_our_lib() {
	if is_sanitized; then
		LD_PRELOAD="$(sanitizer_preload)${LD_PRELOAD:+:$LD_PRELOAD}" \
		ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}" \
		LD_LIBRARY_PATH="$BUILD/libcap${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$@"
	else
		LD_LIBRARY_PATH="$BUILD/libcap${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$@"
	fi
}

# own_pid_ns [ARG...]: re-runs the suite ("$0" ARG...) as pid 1 of a new
# pid namespace with a /proc of its own (unshare --pid --fork --mount-proc):
# it sees only the processes it starts, and they all die with it. Call it
# before private_etc. Skips (77) without unshare.
own_pid_ns() {
	if [ -n "${OWN_PID_NS:-}" ]; then
		[ $$ -eq 1 ] || { echo "own_pid_ns: not pid 1 of the new namespace"; exit 1; }
		return 0
	fi
	command -v unshare >/dev/null ||
		{ echo "skipped: unshare (util-linux) is not installed"; exit 77; }
	OWN_PID_NS=1 exec unshare --pid --fork --mount-proc sh "$0" "$@"
}

# pid_ns_cleanup: for at_exit in a suite that called own_pid_ns: kills
# every process of its namespace but pid 1 (the suite itself), so nothing
# it started outlives it.
pid_ns_cleanup() {
	for p in $(ls /proc | grep -E '^[0-9]+$'); do
		[ "$p" -ne 1 ] && kill -9 "$p" 2>/dev/null
	done
}

# private_etc [ARG...]: call it near the top of a root suite that runs
# programs as other users by name (setpriv --reuid=nobody, capsh
# --user=nobody, getent). It re-runs the suite ("$0" ARG...) in a private
# mount namespace where /etc/passwd and /etc/group hold only the base
# system accounts (root, daemon, bin, sys, nobody; their groups, adm and
# nogroup) and /etc/nsswitch.conf reads users and groups from those files
# alone. The host's own users and groups (an admin's alice, a perf_users
# group a machine set up for perf already has, systemd's dynamic users)
# never reach the test, and programs that ignore nss_wrapper (a
# capability-raising exec skips LD_PRELOAD) see the same world. The host's
# files are not changed: the binds exist in the namespace only. Skips (77)
# without root or unshare.
private_etc() {
	if [ -n "${PRIVATE_ETC_NS:-}" ]; then
		private_etc_bind || { echo "private_etc: cannot bind the private /etc files"; exit 1; }
		return 0
	fi
	[ "$(id -u)" -eq 0 ] || skip "a private /etc needs root"
	command -v unshare >/dev/null ||
		skip "unshare (util-linux) is not installed"
	unshare -m true 2>/dev/null ||
		skip "cannot create a mount namespace"
	# The run in the namespace makes its own $T.
	[ -z "$T" ] || { rm -rf "$T"; T=; trap - EXIT; }
	# tracefs_mount refuses to act in the namespace it started in.
	LIB_OUTER_MNT_NS=$(readlink /proc/self/ns/mnt) || skip "no /proc/self/ns/mnt"
	export LIB_OUTER_MNT_NS
	PRIVATE_ETC_NS=1 exec unshare -m --propagation private sh "$0" "$@"
}

private_etc_bind() {
	d=$(mktemp -d) || return 1
	cat >"$d/passwd" <<'PW'
root:x:0:0:root:/root:/bin/sh
daemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin
bin:x:2:2:bin:/bin:/usr/sbin/nologin
sys:x:3:3:sys:/dev:/usr/sbin/nologin
nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin
PW
	cat >"$d/group" <<'GR'
root:x:0:
daemon:x:1:
bin:x:2:
sys:x:3:
adm:x:4:
nogroup:x:65534:
GR
	# The host's other databases (hosts, services) stay as they are.
	{
		grep -vE '^[[:space:]]*(passwd|group|shadow|gshadow|initgroups):' \
			/etc/nsswitch.conf 2>/dev/null
		printf '%s\n' 'passwd: files' 'group: files' 'shadow: files' \
			'gshadow: files'
	} >"$d/nsswitch.conf"
	chmod 755 "$d" && chmod 644 "$d/passwd" "$d/group" "$d/nsswitch.conf" &&
	mount --bind "$d/passwd" /etc/passwd &&
	mount --bind "$d/group" /etc/group || return 1
	if [ -e /etc/nsswitch.conf ]; then	# musl has none: files only
		mount --bind "$d/nsswitch.conf" /etc/nsswitch.conf || return 1
	fi
	# nscd would answer from the host's cache: hide its socket.
	for s in /run/nscd /var/run/nscd; do
		if [ -d "$s" ]; then
			mount -t tmpfs none "$s" || return 1
			break
		fi
	done
	# The binds hold the files open; the scratch names may go now.
	rm -rf "$d"
}

# tracefs_mount [OPTIONS]: makes tracefs mounted on /sys/kernel/tracing
# in this suite's private mount namespace (call private_etc first; it
# refuses to act in the namespace the suite started in), then applies
# OPTIONS (say gid=65534,mode=0750). The host may have tracefs mounted
# there already (systemd mounts it at boot): that mount, copied into our
# namespace, is used as it is, since a second mount of tracefs on the same
# point is refused (EBUSY). tracefs is one superblock for the whole
# kernel: its uid, gid and mode options outlive the mount and show in
# every mount, the host's included. So the options found first are kept
# in TRACEFS_WAS, and tracefs_restore puts them back, checks that they
# are back, and unmounts; register it with at_exit_checked. Returns
# non-zero, with a line saying why, if anything fails.
tracefs_mount() {
	lib_in_private_mnt_ns || return 1
	if ! mountpoint -q /sys/kernel/tracing; then
		mount -t tracefs nodev /sys/kernel/tracing || return 1
	fi
	if [ -z "${TRACEFS_WAS:-}" ]; then
		TRACEFS_WAS=$(lib_tracefs_options) || return 1
	fi
	[ -z "${1:-}" ] || mount -o "remount,$1" /sys/kernel/tracing
}

# tracefs_unmount: no tracefs on /sys/kernel/tracing in this namespace
# (the host's stays mounted in its own). Call tracefs_mount once before,
# so that the options are known to tracefs_restore.
tracefs_unmount() {
	lib_in_private_mnt_ns || return 1
	[ -n "${TRACEFS_WAS:-}" ] || { echo "tracefs_unmount: call tracefs_mount first"; return 1; }
	while mountpoint -q /sys/kernel/tracing; do
		umount /sys/kernel/tracing || return 1
	done
}

lib_in_private_mnt_ns() {
	lib_ns=$(readlink /proc/self/ns/mnt) || return 1
	if [ -z "${LIB_OUTER_MNT_NS:-}" ] || [ "$lib_ns" = "$LIB_OUTER_MNT_NS" ]; then
		echo "tracefs: not in a private mount namespace (call private_etc first)"
		return 1
	fi
}

lib_tracefs_options() {
	stat -c 'uid=%u,gid=%g,mode=%a' /sys/kernel/tracing
}

tracefs_restore() {
	[ -n "${TRACEFS_WAS:-}" ] || return 0	# never mounted or changed
	lib_in_private_mnt_ns || return 1
	if ! mountpoint -q /sys/kernel/tracing; then
		mount -t tracefs nodev /sys/kernel/tracing || return 1
	fi
	mount -o "remount,$TRACEFS_WAS" /sys/kernel/tracing || return 1
	lib_now=$(lib_tracefs_options) || return 1
	if [ "$lib_now" != "$TRACEFS_WAS" ]; then
		echo "tracefs_restore: tracefs has $lib_now, was $TRACEFS_WAS"
		return 1
	fi
	while mountpoint -q /sys/kernel/tracing; do
		umount /sys/kernel/tracing || return 1
	done
}

# paste_run FILE: runs the lines of FILE as a person who pastes them into
# a POSIX shell would (sh, in the directory $T/paste), but with a PATH of
# recorders only: no real command runs. Each command run appends one line
# to $T/pasted: its name, then each argument in <>, as
# "setcap <cap_net_raw=ep> </opt/my tool>". sh's stdout and stderr go to
# $T/paste.out and $T/paste.err. Returns sh's exit status. Suites that
# print fixes with hostile names (";", "$(...)", quotes, spaces) check
# $T/pasted holds exactly the commands the line says and nothing else,
# and paste_clean checks that nothing else happened.
PASTE_COMMANDS="setcap getcap getpcaps capsh capmanifest capaudit perfdoctor capcheck
chmod chown chgrp usermod groupadd gpasswd adduser addgroup useradd mount umount
sysctl touch rm mv cp ln id sh bash dash env sudo su setpriv systemctl apt apt-get
dpkg dpkg-statoverride perf cat tee sed grep printf echo test mkdir"
paste_run() {
	mkdir -p "$T/paste" "$T/paste.bin" || return 1
	: >"$T/pasted"
	for c in $PASTE_COMMANDS; do
		[ -e "$T/paste.bin/$c" ] && continue
		cat >"$T/paste.bin/$c" <<REC
#!/bin/sh
{ printf '%s' "\${0##*/}"; for a in "\$@"; do printf ' <%s>' "\$a"; done; echo; } >>"$T/pasted"
REC
		chmod 755 "$T/paste.bin/$c"
	done
	# The recorders' own sh is the real one, by absolute path.
	sed -i "1s|.*|#!$(command -v sh)|" "$T/paste.bin"/*
	(cd "$T/paste" && PATH="$T/paste.bin" /bin/sh <"$1" >"$T/paste.out" 2>"$T/paste.err")
}

# paste_clean CASE: after paste_run, nothing but the recorders ran: sh
# said nothing on stderr (an unknown command, a syntax error), and no file
# appeared in $T/paste (a redirection or an absolute /usr/bin/touch).
paste_clean() {
	if [ -s "$T/paste.err" ]; then
		fail "$1: the pasted lines made sh complain: $(head -c 300 "$T/paste.err")"
	elif [ -n "$(ls -A "$T/paste")" ]; then
		fail "$1: the pasted lines made files: $(ls -A "$T/paste" | head -5 | tr '\n' ' ')"
	else
		pass
	fi
}
