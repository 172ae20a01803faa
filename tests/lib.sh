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
#   skip WHY             print "skipped: WHY" and exit 77
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

lib_exit() {
	lib_rc=$?
	trap - EXIT
	[ -z "$lib_cleanups" ] || eval "$lib_cleanups"
	if [ -n "$T" ] && [ -d "$T" ]; then
		chmod -R u+rwx "$T" 2>/dev/null	# a suite's unreadable dirs
		rm -rf "$T"
	fi
	exit $lib_rc
}

skip() {
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

is_sanitized() {
	[ -n "${SANITIZE:-}" ]
}

skip_if_sanitized() {
	if is_sanitized; then
		echo "skipped under SANITIZE=$SANITIZE: $*"
		exit 77
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

# tracefs_mount [OPTIONS]: mounts tracefs on /sys/kernel/tracing in this
# suite's private mount namespace (call private_etc, or unshare -m, first),
# then applies OPTIONS (say gid=65534,mode=0750). tracefs is one superblock
# for the whole kernel: its uid, gid and mode options outlive the mount and
# show in every later mount, the host's included. So the options found are
# kept in TRACEFS_WAS, and tracefs_restore puts them back and unmounts;
# call it from the suite's EXIT trap. Returns non-zero if the mount fails.
tracefs_mount() {
	mount -t tracefs nodev /sys/kernel/tracing || return 1
	if [ -z "${TRACEFS_WAS:-}" ]; then
		TRACEFS_WAS=$(stat -c 'uid=%u,gid=%g,mode=%a' /sys/kernel/tracing) || return 1
	fi
	[ -z "${1:-}" ] || mount -o "remount,$1" /sys/kernel/tracing
}

tracefs_restore() {
	if [ -n "${TRACEFS_WAS:-}" ] && mountpoint -q /sys/kernel/tracing; then
		mount -o "remount,$TRACEFS_WAS" /sys/kernel/tracing
	elif [ -n "${TRACEFS_WAS:-}" ]; then
		mount -t tracefs -o "$TRACEFS_WAS" nodev /sys/kernel/tracing
	fi
	while mountpoint -q /sys/kernel/tracing; do
		umount /sys/kernel/tracing || return 1
	done
}
