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
#   expect [--case=NAME] RC OUT ERR CMD...  run CMD; its exit status,
#                        stdout and stderr must be RC, OUT and ERR exactly:
#                        one failure naming the case (NAME, else the
#                        command) and showing each difference (the
#                        expect_ and same return 1 on a failure)
#   expect_lines [--case=NAME] RC OUT ERR CMD...  the same, with OUT and
#                        ERR as lines: a newline is added to each that is
#                        not empty, so "$E1$nl$E2" is two lines and "" is
#                        no output
#   same FILE1 FILE2 [CASE]  the files are identical; the diff on failure
#   expect_line FILE TEXT [CASE]  a line of FILE holds TEXT (a fixed
#                        string); FILE is shown (cat -v) on failure
#   pass                 count a check that passed, silently
#   not_checked WHAT     a part of the suite this host cannot check (WHAT
#                        says which and why: "perf stat: perf is not
#                        installed"): counted apart, never as a pass, and
#                        named in finish's line. Where the whole suite can
#                        check nothing, skip instead
#   xattr_hex FILE       FILE's security.capability as getfattr's hex
#                        (0x...), empty when it has none
#   acl_user_hex UID PERM  a POSIX access ACL as setfattr takes it (0x...,
#                        for system.posix_acl_access): user::rwx,
#                        user:UID:PERM (an octal digit), group::r-x,
#                        mask::rwx, other::r-x (no setfacl needed)
#   finish [SUMMARY]     print "N checks, M failed" (then ", K not checked:
#                        WHAT; WHAT" when parts were not checked) and
#                        SUMMARY when none failed; exits 0 when none
#                        failed, else 1. A suite that reaches it having
#                        counted no check at all fails ("ran no check"):
#                        a loop over nothing is not a pass. Every case a
#                        suite decides is counted, passed or failed
#                        (pass, ok, check, the expect_ helpers), and
#                        run.sh fails a suite that exits 0 without this
#                        line and N > 0
# A suite that runs again inside itself (sh "$0" --inside in a private
# mount namespace, $T shared through LIB_T) counts that run's checks as
# its own, so that its finish line, the one run.sh reads, says all it did:
#   LIB_COUNTS=FILE      given to the inner run: its finish writes there
#                        how many checks passed and what it could not check
#   add_counts FILE      in the outer run, after the inner one: adds them
#                        to this run's counts; a FILE never written (the
#                        inner run stopped before its finish) is a failure
# Pasting (paste_run, paste_clean, hostile_names, at the end of this
# file): the command lines a program prints for a person to paste, run
# against recorders, for the one list of hostile names; pasted_line and
# paste_for_real take such a line from a program's output and run it for
# real, in the situation that printed it.
# $nl is a newline. Suites may keep their own counters (cases, rows) for
# their summary lines.
#
# It knows how the tree was built (SANITIZE, exported by tests/Makefile)
# and whether this is a valgrind pass (VALGRIND=1, see run.sh):
#   is_sanitized             true when the library was built with SANITIZE=...
#   skip_if_sanitized WHY    exit 77 with WHY under sanitizers
#   no_leak_check CMD [ARG...]  run CMD (in the foreground), under
#                            sanitizers without LeakSanitizer: for a process
#                            run under strace, which LSan cannot stop (it
#                            uses ptrace itself)
#   run_ours CMD [ARG...]    run one of our binaries (programs, $BIN tools);
#                            under VALGRIND=1 it runs inside valgrind
#   with_our_lib CMD [ARG...]  run a foreign, uninstrumented binary (say
#                            /usr/sbin/getcap) against our libcap.so.2; under
#                            sanitizers the runtimes are preloaded, as ASan
#                            must come first, and leaks are not checked since
#                            the program's own are not ours to fix
#   private_etc [ARG...]     root suites: re-run in a world of base accounts
#                            only (see below)
#   as_nobody CMD [ARG...]   run CMD as nobody: uid nobody, gid nobody's
#                            group, no supplementary groups, no capabilities
#                            (root suites; see its comment for why a shell)
#   as_nobody_bg CMD [ARG...]  the same in the background; $nobody_pid is
#                            CMD's pid (as_nobody ... & would give the pid
#                            of a subshell of the suite's, still root)
#   cwrap_lib NAME           the path of cwrap's NAME (libnss_wrapper.so,
#                            libpam_wrapper.so); fails when not installed
#   need_nss_wrapper         $NSS_WRAPPER_LIB, or skip (77) without it
#   in_nss_world CMD [ARG...]  CMD with users and groups from $T/passwd and
#                            $T/group only (nss_wrapper preloaded; ASan
#                            told that it is not first)
#
# Comparing with Debian 12's libcap 2.66 (the reference: its setcap,
# getcap, getpcaps, capsh, libcap.so.2, libpsx.so.2, headers and
# pam_cap.so), the "_diff" suites. The system's own packages where it has
# them at that version; elsewhere (or with LIBCAP_REF_PINNED=1) the same
# packages pinned by SHA-256, which tests/tools/libcap_ref.sh fetches once
# into a cache outside the tree ("make test-refs"; make test does it) and
# runs through trixie's loader:
#   need_reference VERSION [PACKAGE...]  skip (77) unless the reference
#                            can be had: the system's libcap packages
#                            (libcap2 libcap2-bin unless named) are
#                            upstream VERSION, or VERSION is pinned and
#                            its copy is cached or can be fetched. The
#                            reason names what the system has, why the
#                            copy cannot be had and how to get it. Every
#                            suite that runs the reference calls it (or
#                            has_reference) first, then names its files
#                            only through the variables below.
#   has_reference VERSION [PACKAGE...]  the same test, for a suite whose
#                            comparison is one part of it: false, the
#                            reason in $reference_why, when it must be
#                            left out (count it: not_checked "...")
#   REF                      the reference programs' directory: /usr/sbin,
#                            or the pinned copy's wrappers (each started
#                            by its path sees that path as argv[0], as
#                            /usr/sbin/PROG does)
#   REF_LIB                  the directory of its libcap.so.2, libpsx.so.2
#                            and security/pam_cap.so
#   REF_ROOT                 the root of its packages' other files
#                            ($REF_ROOT/usr/include/sys/capability.h):
#                            empty for the system's
#   REF_SBIN                 its real programs (ELF files, not wrappers),
#                            for a suite that runs them on our library
#   REF_PINNED               1 for the pinned copy, else 0
#   ref_env CMD [ARG...]     CMD with the reference's libraries first in
#                            the loader's path where they are not the
#                            system's (a program of Debian's, or one
#                            built against the reference)
#   ref_tool NAME            the path of tests/tools/NAME.c built against
#                            the reference: $BIN/ref-NAME (tests/Makefile)
#                            for the system's, built into $T for the
#                            pinned copy; fails, saying why, when it
#                            cannot be had
#   as_libcap [--case=NAME] PROG ARG...  run the reference PROG and ours
#                            with the same arguments in the current
#                            directory; theirs lands in $T/ref.out,
#                            $T/ref.err, $ref_rc, ours as run leaves it.
#                            Exit status, stdout and stderr must be the
#                            same: one failure naming the case (NAME, else
#                            PROG ARG..., long arguments by their length)
#                            with the differences. AS_LIBCAP_NORM=CMD
#                            first edits each of the four files in place,
#                            as "CMD FILE ref|ours out|err" (sort it, drop
#                            the lines a row of docs/differences.md lets
#                            differ); the programs' own paths are already
#                            written as PROG in both.
# Upstream's libpsx (libcap 2.75 and 2.78, which bracket 2.76), from the
# packages tests/tools/libcap_ref.sh fetches:
#   upstream_refs            0 with $T/refs holding "DIR VERSION" lines
#                            when they can be had; 1 after a not_checked
#                            (the archive cannot be reached) or a counted
#                            failure
#   listed_difference ID     docs/differences.md has the row ID, with this
#                            suite among those that check it (one check)
#   with_upstream_libpsx DIR CMD [ARG...]  run one of our programs with our
#                            libcap.so.2 and the libpsx.so.2 in DIR, on the
#                            C library the packages were built for, under
#                            timeout(1): killed after 60 s (its child is
#                            the program)

[ -n "${LIB_SH_LOADED:-}" ] && return 0
LIB_SH_LOADED=1

TESTS_DIR=${TESTS_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
TOP=${TOP:-$(cd "$TESTS_DIR/.." && pwd)}
BUILD=${BUILD:-$TOP/build/main}
BIN=${BIN:-$BUILD/tests/bin}
export TESTS_DIR TOP BUILD BIN
fails=0 checks=0 rc=0 ran= lib_skipped=0 lib_skipped_why=
nl='
'
# A script a suite runs inside itself (unshare ... sh -s) and that sources
# lib.sh shares the suite's $T when the suite exports LIB_T=$T: its init
# then leaves the removal to the suite.
T=${LIB_T:-}
unset LIB_T	# not the programs' the inner script runs in turn
lib_counts=${LIB_COUNTS:-}
unset LIB_COUNTS
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

# $lib_skipped_why: what not_checked was told, one line each.
not_checked() {
	lib_skipped=$((lib_skipped + 1))
	lib_skipped_why="${lib_skipped_why:+$lib_skipped_why$nl}$*"
	echo "not checked: $*"
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
	lib_case=
	case $1 in
	--case=*) lib_case=${1#--case=}; shift ;;
	esac
	lib_rc=$1 lib_out=$2 lib_err=$3; shift 3
	[ -n "$lib_case" ] || lib_case=$(lib_case_of "$@")
	run "$@"
	printf '%s' "$lib_out" >"$T/.lib_want.out"
	printf '%s' "$lib_err" >"$T/.lib_want.err"
	lib_compare "$lib_case" "$lib_rc" "$T/.lib_want" "$rc" "$T"
}

expect_lines() {
	lib_case=
	case $1 in
	--case=*) lib_case=$1; shift ;;
	esac
	lib_rc=$1 lib_out=$2 lib_err=$3; shift 3
	expect ${lib_case:+"$lib_case"} "$lib_rc" "${lib_out:+$lib_out$nl}" \
		"${lib_err:+$lib_err$nl}" "$@"
}

# lib_case_of CMD...: the command line as a case name: our programs by
# their name, an argument longer than 80 bytes by its length, without a
# run_ours in front.
lib_case_of() {
	lib_case=
	[ "$1" != run_ours ] || shift
	for lib_a in "$@"; do
		case $lib_a in
		"$BUILD"/progs/*) lib_a=${lib_a##*/} ;;
		esac
		[ ${#lib_a} -le 80 ] || lib_a="<${#lib_a} bytes>"
		lib_case="${lib_case:+$lib_case }$lib_a"
	done
	printf '%s' "$lib_case"
}

# lib_compare CASE WANT_RC WANT GOT_RC GOT [WANTED GOT]: WANT.out and
# WANT.err against GOT/out and GOT/err (or GOT.out, GOT.err when GOT is
# not a directory), and the exit statuses: one pass, or one failure with
# every difference, the sides called WANTED and GOT (wanted, got).
lib_compare() {
	lib_why=
	lib_w=${6:-wanted} lib_g=${7:-got}
	[ "$2" = "$4" ] || lib_why="exit $4, $lib_w $2"
	if [ -d "$5" ]; then lib_got=$5/; else lib_got=$5.; fi
	for lib_s in out err; do
		cmp -s "$3.$lib_s" "$lib_got$lib_s" ||
			lib_why="${lib_why:+$lib_why; }std$lib_s differs"
	done
	if [ -z "$lib_why" ]; then
		checks=$((checks + 1))
		return 0
	fi
	fail "$1: $lib_why (- $lib_w, + $lib_g)"
	for lib_s in out err; do
		cmp -s "$3.$lib_s" "$lib_got$lib_s" && continue
		echo "    std$lib_s:"
		# Control characters shown, not sent to a terminal; long
		# lines (a 128 KiB argument echoed) cut.
		diff -u "$3.$lib_s" "$lib_got$lib_s" | sed '1,2d; s/^/    /' |
			head -n 60 | cat -v | cut -c 1-300
	done
	return 1
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

expect_line() {
	if grep -qF -- "$2" "$1"; then
		checks=$((checks + 1))
		return 0
	fi
	fail "${3:-$1}: no line with: $2"
	cat -v "$1" | sed 's/^/    /' | head -n 60
	return 1
}

xattr_hex() {
	getfattr -e hex -n security.capability "$1" 2>/dev/null |
		sed -n 's/^security.capability=//p'
}

acl_user_hex() {
	printf '0x02000000''01000700ffffffff''0200%02x00%02x%02x%02x%02x''04000500ffffffff''10000700ffffffff''20000500ffffffff' \
		"$2" $(($1 & 255)) $(($1 >> 8 & 255)) $(($1 >> 16 & 255)) $(($1 >> 24 & 255))
}

finish() {
	if [ -n "$lib_counts" ]; then
		{ echo $((checks - fails)); printf '%s\n' "$lib_skipped_why"; } >"$lib_counts"
	fi
	if [ "$lib_skipped" -eq 0 ]; then
		echo "$checks checks, $fails failed"
	else
		echo "$checks checks, $fails failed, $lib_skipped not checked: $(printf '%s\n' "$lib_skipped_why" |
			sed -n '1h; 1!H; ${x; s/\n/; /g; p;}')"
	fi
	[ "$fails" -eq 0 ] || exit 1
	if [ "$checks" -eq 0 ]; then
		echo "FAIL: ran no check: a suite that checked nothing has not passed"
		exit 1
	fi
	[ $# -eq 0 ] || echo "$*"
	exit 0
}

add_counts() {
	if [ ! -s "$1" ]; then
		fail "the run inside did not say what it checked (no $1)"
		return 1
	fi
	checks=$((checks + $(sed -n 1p "$1")))
	sed 1d "$1" >"$1.left"
	while IFS= read -r lib_l; do
		[ -z "$lib_l" ] || not_checked "$lib_l"
	done <"$1.left"
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

# LeakSanitizer stops a process's threads with ptrace(2) to scan them at
# exit, which it cannot do in a process already traced (it dies with "has
# encountered a fatal error"). Every other check of ASan and UBSan runs.
no_leak_check() {
	if is_sanitized; then
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" "$@"
	else
		"$@"
	fi
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

# overlay_layers DIR, then overlay_mount DIR: an overlay on DIR/ovl whose
# layers sit on two file systems, as a container's root often does: its
# lower layer DIR/lower on the disk $T is on (or, where that is an overlay
# itself, a container's root, on a tmpfs: an overlay whose lower layer is
# an overlay is another case, where the kernel names a mapped file inside
# a layer of its own), its upper on a tmpfs. Fill DIR/lower between the
# two. Call it in a private mount namespace (private_etc); the unmounts
# are registered. Non-zero after a line saying why.
overlay_layers() {
	mkdir "$1/lower" "$1/layers" "$1/ovl" && chmod 755 "$1/lower" "$1/ovl" || return 1
	if [ "$(stat -f -c %T "$1")" = overlayfs ]; then
		echo "note: $1 is on overlayfs: the overlay's lower layer is a tmpfs"
		mount -t tmpfs -o mode=0755 tmpfs "$1/lower" ||
			{ echo "overlay_layers: cannot mount a tmpfs for the lower layer"; return 1; }
		at_exit_checked "umount '$1/lower'"
	fi
	mount -t tmpfs -o mode=0755 tmpfs "$1/layers" ||
		{ echo "overlay_layers: cannot mount a tmpfs for the upper layer"; return 1; }
	at_exit_checked "umount '$1/layers'"
	mkdir "$1/layers/up" "$1/layers/work"
}
overlay_mount() {
	mount -t overlay overlay \
		-o "lowerdir=$1/lower,upperdir=$1/layers/up,workdir=$1/layers/work" "$1/ovl" ||
		{ echo "overlay_mount: cannot mount an overlay on $1/ovl"; return 1; }
	at_exit_checked "umount '$1/ovl'"
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

# as_nobody CMD [ARG...]: CMD runs as nobody (its uid, its primary group,
# no supplementary groups). Through a shell that setpriv starts as nobody:
# setpriv's own execve still runs with root's capabilities, so a file's
# mode and ACL would not be checked for CMD itself; the shell's exec of
# CMD is nobody's own, with no capability left. Root suites; call
# private_etc first where the host's nobody must not matter.
as_nobody() {
	setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups \
		sh -c 'exec "$@"' - "$@"
}

as_nobody_bg() {
	setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups \
		sh -c 'exec "$@"' - "$@" &
	nobody_pid=$!
}

cwrap_lib() {
	for lib_d in /usr/lib/*-linux-gnu /usr/lib64 /usr/lib /lib/*-linux-gnu; do
		[ -e "$lib_d/$1" ] && { echo "$lib_d/$1"; return 0; }
	done
	return 1
}

need_nss_wrapper() {
	NSS_WRAPPER_LIB=$(cwrap_lib libnss_wrapper.so) ||
		skip "cwrap's nss_wrapper (libnss-wrapper) is not installed"
}

in_nss_world() {
	env LD_PRELOAD="$NSS_WRAPPER_LIB" NSS_WRAPPER_PASSWD="$T/passwd" \
		NSS_WRAPPER_GROUP="$T/group" \
		ASAN_OPTIONS="${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}verify_asan_link_order=0" \
		"$@"
}

# The reference: see the header. Until has_reference decides, the system's.
REF=${REF:-/usr/sbin} REF_ROOT='' REF_SBIN=/usr/sbin REF_PINNED=0 REF_LIB=''

# need_reference VERSION [PACKAGE...]: see the header. The version is the
# upstream part of what dpkg-query reports (1:2.66-4+deb12u3 is 2.66);
# without dpkg-query, the one in the system library's file name
# (libcap.so.2.66). A test fakes another by a dpkg-query earlier in PATH.
need_reference() {
	has_reference "$@" || skip "$reference_why"
}

has_reference() {
	lib_need=$1; shift
	[ $# -gt 0 ] || set -- libcap2 libcap2-bin
	reference_why=
	if lib_system_reference "$lib_need" "$@"; then
		REF=/usr/sbin REF_ROOT='' REF_SBIN=/usr/sbin REF_PINNED=0
		REF_LIB=$(lib_system_libdir)
		return 0
	fi
	lib_pinned_reference "$lib_need"
}

# lib_system_reference VERSION PACKAGE...: the system has every PACKAGE at
# VERSION; else false, with what it has in $lib_sys_why.
lib_system_reference() {
	lib_need=$1; shift
	if [ "${LIBCAP_REF_PINNED:-0}" = 1 ]; then
		lib_sys_why="LIBCAP_REF_PINNED=1 leaves the system's packages out"
		return 1
	fi
	for lib_pkg in "$@"; do
		lib_found=$(lib_reference_version "$lib_pkg")
		[ "$lib_found" = "$lib_need" ] && continue
		if [ -z "$lib_found" ]; then
			lib_sys_why="$lib_pkg is not installed"
		else
			lib_sys_why="the system has $lib_pkg $lib_found"
		fi
		return 1
	done
}

# lib_system_libdir: the directory of the system's libcap.so.2.
lib_system_libdir() {
	for lib_d in /lib/*-linux-gnu /usr/lib/*-linux-gnu /lib64 /usr/lib64; do
		[ -e "$lib_d/libcap.so.2" ] && { echo "$lib_d"; return 0; }
	done
}

# lib_pinned_reference VERSION: the reference variables on the pinned copy
# of VERSION (fetched once per suite at most); false with $reference_why
# when there is none. A copy that fails its pin is a failure, not a skip.
lib_pinned_reference() {
	lib_why_pre="needs Debian's libcap $1 as its reference; $lib_sys_why"
	if [ "$1" != 2.66 ]; then
		reference_why="$lib_why_pre (and no copy of $1 is pinned)"
		return 1
	fi
	if [ -z "${lib_pinned_dir:-}" ]; then
		lib_out=$(sh "$TESTS_DIR/tools/libcap_ref.sh" "$1" 2>"$T/libcap_ref.err")
		case $? in
		0) lib_pinned_dir=${lib_out% *} ;;
		77)	reference_why="$lib_why_pre, and its pinned copy cannot be had: $(cat "$T/libcap_ref.err")"
			return 1 ;;
		*)	fail "tests/tools/libcap_ref.sh $1: $(cat "$T/libcap_ref.err")"
			reference_why="the pinned copy of libcap $1 failed (above)"
			return 1 ;;
		esac
	fi
	REF=$lib_pinned_dir/bin REF_ROOT=$lib_pinned_dir REF_SBIN=$lib_pinned_dir/sbin
	REF_LIB=$lib_pinned_dir/lib/x86_64-linux-gnu REF_PINNED=1
}

ref_env() {
	if [ "$REF_PINNED" = 1 ]; then
		LD_LIBRARY_PATH=$REF_LIB${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} "$@"
	else
		"$@"
	fi
}

ref_tool() {
	if [ "$REF_PINNED" != 1 ]; then
		[ -x "$BIN/ref-$1" ] && { echo "$BIN/ref-$1"; return 0; }
		echo "$BIN/ref-$1 is not built (tests/Makefile builds it where the system has libcap-dev)" >&2
		return 1
	fi
	[ -x "$T/ref-$1" ] && { echo "$T/ref-$1"; return 0; }
	# As tests/Makefile's ref-% rule, on the pinned header and library.
	lib_defs=
	[ "$1" = capprobe ] && lib_defs=-DPROBE_IAB
	# shellcheck disable=SC2086 # $lib_defs: no or one word
	${CC:-cc} -O2 -g -std=gnu11 -Wall $lib_defs -I"$REF_ROOT/usr/include" \
		-o "$T/ref-$1" "$TESTS_DIR/tools/$1.c" "$REF_LIB/libcap.so.2" \
		-Wl,--disable-new-dtags,-rpath,"$REF_LIB" >"$T/ref-$1.log" 2>&1 || {
		echo "cannot build tests/tools/$1.c on the pinned libcap $REF_ROOT: $(cat "$T/ref-$1.log")" >&2
		return 1
	}
	echo "$T/ref-$1"
}

# lib_reference_version PACKAGE: its upstream version, nothing when it
# is not installed.
lib_reference_version() {
	if command -v dpkg-query >/dev/null 2>&1; then
		lib_v=$(dpkg-query -W -f='${db:Status-Abbrev} ${Version}\n' "$1" 2>/dev/null |
			awk '$1 == "ii" { print $NF; exit }')
		lib_v=${lib_v#*:}			# the epoch
		[ "${lib_v%-*}" = "$lib_v" ] || lib_v=${lib_v%-*}	# the revision
		printf '%s' "$lib_v"
		return 0
	fi
	for lib_l in /lib/*/libcap.so.2 /usr/lib/*/libcap.so.2 /lib64/libcap.so.2 \
		     /usr/lib64/libcap.so.2; do
		[ -e "$lib_l" ] || continue
		lib_l=$(readlink -f "$lib_l")
		case ${lib_l##*/} in
		libcap.so.2.*) printf '%s' "${lib_l##*/libcap.so.}" ;;
		esac
		return 0
	done
}

upstream_refs() {
	sh "$TESTS_DIR/tools/libcap_ref.sh" >"$T/refs" 2>"$T/refs.err"
	case $? in
	0) return 0 ;;
	77) not_checked "2.75 and 2.78 not compared: $(cat "$T/refs.err")" ;;
	*) fail "tests/tools/libcap_ref.sh: $(cat "$T/refs.err")" ;;
	esac
	return 1
}

listed_difference() {
	lib_suite=$(basename "$0" .sh)
	if grep -q "^| \`$1\` | .* | \(.*, \)\{0,1\}$lib_suite\(, .*\)\{0,1\} |\$" \
		"$TOP/docs/differences.md"; then
		ok "docs/differences.md lists $1"
	else
		fail "docs/differences.md has no row $1 checked by $lib_suite"
	fi
}

with_upstream_libpsx() {
	lib_libc=$(dirname "$1")/libc/usr/lib/x86_64-linux-gnu
	lib_dir=$1; shift
	timeout -k 10 60 "$lib_libc/ld-linux-x86-64.so.2" --library-path \
		"$BUILD/libcap:$lib_dir/usr/lib/x86_64-linux-gnu:$lib_libc" "$@"
}

as_libcap() {
	lib_case=
	case $1 in
	--case=*) lib_case=${1#--case=}; shift ;;
	esac
	lib_prog=$1; shift
	[ -n "$lib_case" ] || lib_case=$(lib_case_of "$lib_prog" "$@")
	"$REF/$lib_prog" "$@" >"$T/ref.out" 2>"$T/ref.err" </dev/null
	ref_rc=$?
	run run_ours "$BUILD/progs/$lib_prog" "$@"
	for lib_f in "$T/ref.out" "$T/ref.err" "$T/out" "$T/err"; do
		sed -i "s|$REF/$lib_prog|$lib_prog|g; s|$BUILD/progs/$lib_prog|$lib_prog|g" "$lib_f"
	done
	if [ -n "${AS_LIBCAP_NORM:-}" ]; then
		$AS_LIBCAP_NORM "$T/ref.out" ref out && $AS_LIBCAP_NORM "$T/ref.err" ref err &&
		$AS_LIBCAP_NORM "$T/out" ours out && $AS_LIBCAP_NORM "$T/err" ours err ||
			{ fail "$lib_case: AS_LIBCAP_NORM ($AS_LIBCAP_NORM) failed"; return 1; }
	fi
	lib_compare "$lib_case" "$ref_rc" "$T/ref" "$rc" "$T" "libcap's" ours
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
#
# Because those options are the machine's, not the namespace's, the first
# call also takes a lock that every checkout on the machine shares
# (lib_tracefs_lock), held until the suite exits, after tracefs_restore:
# two suites (two runs, two checkouts) never see each other's options,
# and no suite's verdict depends on what ran before it.
tracefs_mount() {
	lib_in_private_mnt_ns || return 1
	lib_tracefs_lock || return 1
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

# tracefs_as_systemd: tracefs as systemd mounts it at boot, root's with
# mode 0700 (the kernel's defaults), whatever it was before; under the
# lock, put back by tracefs_restore.
tracefs_as_systemd() {
	tracefs_mount uid=0,gid=0,mode=0700 || return 1
	[ "$(lib_tracefs_options)" = uid=0,gid=0,mode=700 ] || {
		echo "tracefs_as_systemd: tracefs has $(lib_tracefs_options)"
		return 1
	}
}

# The lock: an exclusive flock(2) on a file in /run/lock (shared by every
# mount namespace and by the suites' private /tmp), on descriptor 7, which
# the suite's shell keeps open until it exits. A suite started under a
# holder (progs_host_preset.sh runs suites inside its own world) finds
# LIB_TRACEFS_LOCKED set and relies on its holder's lock: taking it again
# would wait for ever.
LIB_TRACEFS_LOCK=${LIB_TRACEFS_LOCK:-/run/lock/libcap-perfmon-tracefs.lock}
# The lock of tests/suites.conf's "mountlock" suites (run.sh takes it for
# them; a suite takes it around a check of its own that wants a seal).
LIB_MOUNTS_LOCK=${LIB_MOUNTS_LOCK:-/run/lock/libcap-perfmon-mounts.lock}
lib_tracefs_lock() {
	[ -z "${LIB_TRACEFS_LOCKED:-}" ] || return 0
	command -v flock >/dev/null || { echo "tracefs: flock (util-linux) is missing"; return 1; }
	mkdir -p "${LIB_TRACEFS_LOCK%/*}" && exec 7>>"$LIB_TRACEFS_LOCK" ||
		{ echo "tracefs: cannot open the lock $LIB_TRACEFS_LOCK"; return 1; }
	# Another checkout's suite may hold it for a minute or two.
	flock -w 600 7 || { echo "tracefs: $LIB_TRACEFS_LOCK still held after 600 s"; return 1; }
	LIB_TRACEFS_LOCKED=$$
	export LIB_TRACEFS_LOCKED
}

# without_locks CMD...: runs CMD (a daemon that stays behind, bindfs) with
# descriptors 3 to 9 closed. A suite holds its locks there (tracefs's on
# 7, run.sh's "mountlock" flock on 3): a daemon left running after its
# suite (one killed by its time-out) would hold them on, and every later
# suite on the machine that wants one would wait its 600 s, then fail.
without_locks() {
	"$@" 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&-
}

# login_world ROOT: a user database and PAM stacks for real logins (su,
# runuser, login) in a throw-away world whose root is ROOT (an overlay
# over /, say): root, nobody, alice (uid 4701, in perf_users, gid 4800)
# and bob (4702), with empty passwords and homes; files-only NSS; Debian's
# su, su-l, runuser, runuser-l and login stacks reduced to the lines that
# decide, common-auth ending with "auth optional pam_cap.so" (the module
# the suite puts in ROOT's PAM directory); "other" denies. Suites append
# their own users and groups.
login_world() {
	lib_m=$1
	printf '%s\n' 'root:x:0:0:root:/root:/bin/sh' \
		'nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin' \
		'alice:x:4701:4701:login test user:/home/alice:/bin/sh' \
		'bob:x:4702:4702:login test user:/home/bob:/bin/sh' >"$lib_m/etc/passwd" &&
	printf '%s\n' 'root:x:0:' 'shadow:x:42:' 'utmp:x:43:' 'tty:x:5:' 'nogroup:x:65534:' \
		'alice:x:4701:' 'bob:x:4702:' 'perf_users:x:4800:alice' >"$lib_m/etc/group" &&
	printf '%s\n' 'root:*:19000:0:99999:7:::' 'nobody:*:19000:0:99999:7:::' \
		'alice::19000:0:99999:7:::' 'bob::19000:0:99999:7:::' >"$lib_m/etc/shadow" &&
	chmod 0640 "$lib_m/etc/shadow" && chown 0:42 "$lib_m/etc/shadow" &&
	printf 'passwd: files\ngroup: files\nshadow: files\n' >"$lib_m/etc/nsswitch.conf" &&
	mkdir -p "$lib_m/home/alice" "$lib_m/home/bob" "$lib_m/etc/pam.d" &&
	chown 4701:4701 "$lib_m/home/alice" && chown 4702:4702 "$lib_m/home/bob" || return 1
	lib_p=$lib_m/etc/pam.d
	printf '%s\n' 'auth [success=1 default=ignore] pam_unix.so nullok' \
		'auth requisite pam_deny.so' 'auth required pam_permit.so' \
		'auth optional pam_cap.so' >"$lib_p/common-auth"
	echo 'account required pam_unix.so' >"$lib_p/common-account"
	echo 'session required pam_unix.so' >"$lib_p/common-session"
	printf '%s\n' 'auth sufficient pam_rootok.so' '@include common-auth' \
		'@include common-account' '@include common-session' >"$lib_p/su"
	cp "$lib_p/su" "$lib_p/su-l"
	printf '%s\n' 'auth sufficient pam_rootok.so' \
		'session required pam_unix.so' >"$lib_p/runuser"
	printf '%s\n' 'auth include runuser' 'session include runuser' >"$lib_p/runuser-l"
	printf '%s\n' '@include common-auth' '@include common-account' \
		'@include common-session' >"$lib_p/login"
	echo 'auth required pam_deny.so' >"$lib_p/other"
}

# strace_hold USECONDS CALLS CMD...: CMD in the background under strace,
# each of the system calls CALLS (strace's -e trace= list) held that many
# microseconds on its way in; its stdout in $T/out, its stderr in $T/err,
# strace's pid in $tracer (wait for it: CMD's status). Returns once one of
# its processes is held there, with that one's pid in $held, or 1 (held
# empty) when none is within 8 s: the moment a race test acts in.
strace_hold() {
	lib_us=$1 lib_calls=$2
	shift 2
	set -- strace -f -qq -o /dev/null -e trace="$lib_calls" \
		-e inject="$lib_calls":delay_enter="$lib_us" "$@"
	# (not no_leak_check: a function in the background is a subshell,
	# and $tracer must be strace itself)
	! is_sanitized || set -- env "ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" "$@"
	"$@" >"$T/out" 2>"$T/err" &
	tracer=$!
	at_exit "kill $tracer 2>/dev/null"
	lib_i=0 held=
	while [ $lib_i -lt 800 ] && [ -z "$held" ]; do
		# strace stops the command at every call it makes, for a
		# moment: only a stop that lasts is the call held.
		for lib_p in $(pgrep -P $tracer); do
			grep -q '^State:.*tracing stop' /proc/$lib_p/status 2>/dev/null &&
				sleep 0.05 &&
				grep -q '^State:.*tracing stop' /proc/$lib_p/status 2>/dev/null &&
				held=$lib_p
		done
		[ -n "$held" ] || sleep 0.01
		lib_i=$((lib_i + 1))
	done
	[ -n "$held" ]
}

# tmpfs_dir DIR...: each DIR (made if missing) a tmpfs of its own, mode
# 0755, in the suite's private mount namespace (call private_etc first),
# unmounted at exit before $T is removed. For suites that count the
# kernel's checks per operation: on an overlay (a container's root) one
# chown(2) is checked once in each layer it goes through, so a count that
# is a fact on the host is another there; on a tmpfs it is the same
# everywhere.
tmpfs_dir() {
	lib_in_private_mnt_ns || return 1
	for lib_d in "$@"; do
		mkdir -p "$lib_d" && mount -t tmpfs -o mode=0755 tmpfs "$lib_d" || return 1
		at_exit "umount '$(printf '%s' "$lib_d" | sed "s/'/'\\\\''/g")'"
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
dpkg dpkg-statoverride perf cat tee sed grep printf echo test mkdir podman docker"
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

# hostile_names FILE: the names a printed command must carry through a
# shell as they are, one a line (read them back with "while IFS= read -r
# name"): a command ended and one started (";", "|", "&&", "#"), command
# substitutions ($(...), `...`), quotes alone and inside, a blank, a
# backslash, a tilde before a user's name, a glob, history ("!!"), a
# multibyte character. The paste suites (setcap_paste, getcap_paste) all
# take this list; a name a terminal would not show as it is (an escape,
# a newline, a byte that is no UTF-8) gets no command at all, and the
# suites try those apart.
hostile_names() {
	cat >"$1" <<'NAMES'
a;touch${IFS}INJECTED;#
$(touch INJECTED)
`touch INJECTED`
it's
'
two words
back\slash
"dq" && touch INJECTED
a|touch INJECTED>x
~root
~x
*
!!
caf€
NAMES
}

# terminal_safe FILE: status 0 when FILE holds only what escape_fputs()
# (common/escape.h) lets through: printable ASCII, newlines, and well-formed
# UTF-8 that is neither a C1 control, a line or paragraph separator, nor a
# bidirectional control. Our messages escape everything else as \ooo, so a
# name that happens to be valid UTF-8 is shown as it is.
terminal_safe() {
	perl -e '
		local $/; my $t = <STDIN>; utf8::decode($t) or exit 1;
		exit($t =~ /[^\n\x20-\x7e\x{a0}-\x{10ffff}]|[\x{61c}\x{200e}\x{200f}\x{2028}-\x{202e}\x{2066}-\x{2069}\x{d800}-\x{dfff}]/ ? 1 : 0);
	' <"$1"
}

# pasted_line FILE PREFIX: what follows PREFIX on the last line of FILE
# that starts with it (a command a program printed for a person to paste),
# on stdout; status 1 when no line does.
pasted_line() {
	awk -v p="$2" 'index($0, p) == 1 { l = substr($0, length(p) + 1); n++ }
		END { if (!n) exit 1; print l }' "$1"
}

# paste_for_real FILE PREFIX: runs that command for real, as a person who
# pasted it into a POSIX shell would (sh -c, in the current directory),
# with our programs first on PATH; through run ($rc, $T/out, $T/err). A
# printed repair must work when followed: suites run it in the situation
# that printed it (throw-away roots and temporary trees only). Without
# such a line, rc is 127 and $T/err says so.
paste_for_real() {
	if lib_line=$(pasted_line "$1" "$2"); then
		ran="pasted: $lib_line"
		PATH="$BUILD/progs:$PATH" sh -c "$lib_line" >"$T/out" 2>"$T/err" </dev/null
		rc=$?
	else
		ran="pasted from $1"
		echo "no line starts with '$2'" >"$T/err"; : >"$T/out"
		rc=127
	fi
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

# throwaway_root DIR: a throw-away root for real logins (su, login, sshd),
# in a private mount namespace whose mounts die with it (a run inside the
# suite, under LIB_T, whose $T the outer run removes: rm -rf would follow
# these mounts): a tmpfs on DIR holding an overlay over / on DIR/m (its
# writes go to the tmpfs), with /proc, /sys and /dev bound in and nscd's
# socket hidden (nscd would answer from the host's cache). Fill DIR/m
# (login_world), then chroot into it. The host's files are never
# written. Non-zero after a line saying why.
throwaway_root() {
	mkdir -p "$1" && mount -t tmpfs -o mode=0755 tmpfs "$1" &&
		mkdir "$1/u" "$1/wk" "$1/m" &&
		mount -t overlay overlay -o "lowerdir=/,upperdir=$1/u,workdir=$1/wk" "$1/m" ||
		{ echo "throwaway_root: cannot mount an overlay over / on $1/m"; return 1; }
	for lib_d in proc sys dev; do
		mount --rbind "/$lib_d" "$1/m/$lib_d" ||
			{ echo "throwaway_root: cannot bind /$lib_d into $1/m"; return 1; }
	done
	[ ! -d "$1/m/run/nscd" ] || mount -t tmpfs none "$1/m/run/nscd"
}
