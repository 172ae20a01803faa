# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# Sourced by the root suites of setcap --perf and perfdoctor: pam_world.sh's
# private users and groups (alice 4001 and dave 4004 in perf_users 4100,
# bob 4002 not; nobody 65534), plus
#   nss CMD...              CMD reading those users and groups (nss_wrapper)
#   ours PROG ARGS...       one of our programs so, under valgrind when
#                           VALGRIND=1 (lib.sh's run_ours, inside nss)
#   as_user UID GID GROUPS CMD...  CMD with exactly these credentials (GROUPS:
#                           comma-separated gids, or "-" for none) and no
#                           capabilities: through sh, since setpriv itself
#                           still holds root's at its own exec
#   probe_as UID GID GROUPS FILE  runs FILE (a perfprobe copy) so; exit 0
#                           when the CPU-wide event opened, 126 when it
#                           could not even be executed, 1 otherwise
# (fail and ok are lib.sh's.)
# Needs root, a kernel with CAP_PERFMON and perf_event_paranoid >= 1 (else
# the probe needs no capability and proves nothing): skips otherwise.
. "$TESTS_DIR/tools/pam_world.sh"
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null || echo x)
case $paranoid in
-*|0|x) echo "skipped: perf_event_paranoid is '$paranoid'; CPU-wide events need no capability here"; exit 77 ;;
esac
[ "$(cat /proc/sys/kernel/cap_last_cap)" -ge 38 ] ||
	{ echo "skipped: this kernel predates CAP_PERFMON"; exit 77; }
command -v setpriv >/dev/null || { echo "skipped: no setpriv (util-linux)"; exit 77; }
[ -x "$BIN/perfprobe" ] || { echo "perfprobe is not built"; exit 1; }

nss() {
	env LD_PRELOAD="$NWRAP" NSS_WRAPPER_PASSWD="$T/passwd" \
		NSS_WRAPPER_GROUP="$T/group" \
		ASAN_OPTIONS="${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}verify_asan_link_order=0" \
		"$@"
}

ours() {
	# shellcheck disable=SC2086 # VALGRIND_CMD is a command line
	nss ${VALGRIND_CMD:-} "$@"
}

as_user() {
	u=$1 g=$2 gs=$3
	shift 3
	if [ "$gs" = - ]; then set -- --clear-groups "$@"; else set -- --groups="$gs" "$@"; fi
	setpriv --reuid="$u" --regid="$g" "$@"
}

probe_as() {
	as_user "$1" "$2" "$3" sh -c 'exec "$0"' "$4" >"$T/probe.out" 2>&1
}

