# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# Helpers for tests/cli and tests/root suites; source it with
#   . "$TESTS_DIR/lib.sh"
# It knows how the tree was built (SANITIZE, exported by tests/Makefile)
# and whether this is a valgrind pass (VALGRIND=1, see run.sh):
#
#   is_sanitized             true when the library was built with SANITIZE=...
#   skip_if_sanitized WHY    exit 77 with WHY under sanitizers
#   run_ours CMD [ARG...]    run one of our binaries (programs, $BIN tools);
#                            under VALGRIND=1 it runs inside valgrind
#   with_our_lib CMD [ARG...]  run a foreign, uninstrumented binary (say
#                            /usr/sbin/getcap) against our libcap.so.2; under
#                            sanitizers the runtimes are preloaded, as ASan
#                            must come first, and leaks are not checked since
#                            the program's own are not ours to fix

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
	[ "$(id -u)" -eq 0 ] || { echo "skipped: a private /etc needs root"; exit 77; }
	command -v unshare >/dev/null ||
		{ echo "skipped: unshare (util-linux) is not installed"; exit 77; }
	unshare -m true 2>/dev/null ||
		{ echo "skipped: cannot create a mount namespace"; exit 77; }
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
