#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# perfdoctor's fixes for what starts a session, least privilege first:
# podman's and docker's flags (--cap-add=PERFMON and the profile
# perfdoctor --seccomp-profile prints, never --privileged, SYS_ADMIN or
# seccomp=unconfined), a Kubernetes securityContext (allowPrivilegeEscalation
# false where perf gets CAP_PERFMON from the container's own sets, true
# where from its file capabilities, which no_new_privs voids) with the
# annotation podman play kube reads, and systemd unit lines for a session
# outside a container. Each case runs perfdoctor in a session made as a
# runtime makes one (a pid namespace of its own is a container; filters
# from tools/scfilter, credentials from setpriv) and compares its verdict
# and its fix:, note: and narrower: lines, byte for byte:
#  - a container whose filter refuses perf_event_open: the profile, the
#    flags and the securityContext, as fixes; with the runtime's rule for
#    the capability (what the profile gives CAP_PERFMON) it answers YES;
#  - a container holding CAP_SYS_ADMIN, or without a filter, answered YES:
#    a note says that is more than perf needs, and the narrower way;
#  - a user's file-capability perf under no_new_privs: true, and no
#    no-new-privileges;
#  - no container: SystemCallFilter=, CapabilityBoundingSet=,
#    AmbientCapabilities= lines, each where it is what blocks;
#  - a container whose /run/.containerenv is a FIFO or a link to a
#    terminal: no hang, no word of it; a name with escapes in it: shown
#    escaped.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
. "$TESTS_DIR/tools/perf_world.sh"
doctor_bin=$BUILD/progs/perfdoctor
[ -x "$BIN/scfilter" ] || { fail "scfilter is not built"; finish; }
unshare -p -f --mount-proc true 2>/dev/null || skip "no pid namespace here (unshare -p)"
mkdir "$T/nopam"
: >"$T/empty.conf"
perf=$T/perf
perf_as_setcap_perf "$perf" || fail "cannot make $perf"
plain=$T/perf-plain
cp "$BIN/perfprobe" "$plain"
chmod 0755 "$plain"
alice="--reuid=4001 --regid=4001 --groups=4001,4100"
root="--inh-caps=-all"

# doctor WANT-EXIT WANT-LINES: perfdoctor in the session ($PREFIX, then
# scfilter's $F, then setpriv's $C; perf $P); its verdict, also:, fix:,
# note: and narrower: lines are WANT-LINES.
doctor() {
	# shellcheck disable=SC2086 # option lists
	${PREFIX:-} "$BIN/scfilter" $F setpriv $C sh -c 'exec "$@"' sh env \
		LD_PRELOAD="$NWRAP" NSS_WRAPPER_PASSWD="$T/passwd" \
		NSS_WRAPPER_GROUP="$T/group" ASAN_OPTIONS=verify_asan_link_order=0 \
		${VALGRIND_CMD:-} "$doctor_bin" --pam-dir="$T/nopam" \
		--config="$T/empty.conf" "${P:-$perf}" >"$T/report" 2>&1
	rc=$?
	grep -E '^(verdict|also|fix|note|narrower): ' "$T/report" |
		grep -v '^note: *kernel.perf_event_paranoid' >"$T/lines"
	if [ "$rc" = "$1" ] && printf '%s\n' "$2" | cmp -s - "$T/lines"; then
		ok "$label"
	else
		fail "$label: exit $rc (want $1), lines (- wanted, + got):"
		printf '%s\n' "$2" | diff -u - "$T/lines" | sed '1,2d; s/^/    /'
		sed 's/^/    report| /' "$T/report"
	fi
}
CONTAINER="unshare -p -f --mount-proc"
PROFILE="perfdoctor --seccomp-profile >perfmon.json   # on the host: podman's and CRI-O's default profile (/usr/share/containers/seccomp.json) with perf_event_open() also allowed to CAP_PERFMON; docker's: --seccomp-profile=BASE, its profiles/seccomp/default.json"
FLAGS="podman or docker run: --cap-add=PERFMON --security-opt seccomp=perfmon.json, not --privileged, --cap-add=SYS_ADMIN or --security-opt seccomp=unconfined"
KUBE_ROOT="Kubernetes, the container's securityContext: {capabilities: {add: [PERFMON]}, seccompProfile: {type: Localhost, localhostProfile: perfmon.json}, allowPrivilegeEscalation: false}, the profile at /var/lib/kubelet/seccomp/perfmon.json on every node; false will do: perf gets CAP_PERFMON from the container's own sets"
PLAY="podman play kube of that pod: its metadata also needs annotations: {seccomp.security.alpha.kubernetes.io/pod: localhost/perfmon.json} (podman 4 reads this annotation, not seccompProfile; the profile in /var/lib/kubelet/seccomp too)"
GENERIC="run perf under a seccomp profile that lets perf_event_open() through (a container's: one that allows it to CAP_PERFMON, rather than seccomp=unconfined or CAP_SYS_ADMIN)"

# A container as podman makes one with --cap-add=PERFMON: root, its
# default profile refusing perf_event_open() without CAP_SYS_ADMIN.
label="a container, its filter refusing perf_event_open"
PREFIX=$CONTAINER F=-P C="$root --bounding-set=-sys_admin"
doctor 1 "verdict:   NO: the session's seccomp filter refuses perf_event_open() whatever its capabilities: EPERM (Operation not permitted) from the filter, not the kernel
fix:       $GENERIC
fix:       $PROFILE
fix:       $FLAGS
fix:       $KUBE_ROOT
fix:       $PLAY"
# With the profile, CAP_PERFMON gets the rule that lets it through.
label="the same container under the profile (the rule for CAP_PERFMON)"
F=-Q
doctor 0 "verdict:   YES: root can monitor the whole system with $perf"

# CAP_SYS_ADMIN, or no filter at all, is what makes it work: said, with
# the narrower way.
NOTE_TAIL="which perf does not need: the narrower way below gives it CAP_PERFMON and lets perf_event_open() through its seccomp filter, and nothing more"
NARROWER="narrower:  $PROFILE
narrower:  $FLAGS
narrower:  $KUBE_ROOT
narrower:  $PLAY"
label="a container holding CAP_SYS_ADMIN"
F=-Q C="$root --bounding-set=-perfmon" P=$plain
doctor 0 "verdict:   YES: root can monitor the whole system with $plain
note:      the container holds CAP_SYS_ADMIN (--cap-add=SYS_ADMIN or --privileged), $NOTE_TAIL
$NARROWER"
label="a container without a seccomp filter"
F= C="$root --bounding-set=-sys_admin"
doctor 0 "verdict:   YES: root can monitor the whole system with $plain
note:      the container runs without a seccomp filter (--security-opt seccomp=unconfined or --privileged), $NOTE_TAIL
$NARROWER"
label="both: --privileged"
F= C=$root
doctor 0 "verdict:   YES: root can monitor the whole system with $plain
note:      the container holds CAP_SYS_ADMIN (--cap-add=SYS_ADMIN or --privileged) and runs without a seccomp filter (--security-opt seccomp=unconfined or --privileged), $NOTE_TAIL
$NARROWER"
P=

# A user's file-capability perf under no_new_privs: the file capabilities
# count only without it.
label="a container user, no_new_privs, a file-capability perf"
F="-Q -N" C="$alice --bounding-set=-sys_admin"
doctor 1 "verdict:   NO: the session has no_new_privs set, so exec grants no file capabilities
fix:       run perf from a session without NoNewPrivileges= (systemd) or no_new_privs
fix:       podman or docker run: --cap-add=PERFMON, not --privileged, --cap-add=SYS_ADMIN or --security-opt seccomp=unconfined, nor --security-opt no-new-privileges (it voids perf's file capabilities)
fix:       Kubernetes, the container's securityContext: {capabilities: {add: [PERFMON]}, allowPrivilegeEscalation: true}; true: perf gets CAP_PERFMON from its file capabilities, which no_new_privs (false) voids"

# The container's /run/.containerenv is its image's or its root's to
# make: a FIFO there is never opened (its open would wait for a writer
# for ever) and a terminal neither; a regular one's name= is shown
# escaped. The session is the one above, without a filter.
cat >"$T/containerenv" <<'EOF'
#!/bin/sh
# containerenv KIND CMD...: CMD with KIND at /run/.containerenv.
mount -t tmpfs none /run || exit 9
case $1 in
fifo) mkfifo /run/.containerenv ;;
tty) ln -s /dev/tty /run/.containerenv ;;
hostile) printf 'engine="podman-4.3.1"\nname=x\033]0;t\007$(touch INJECTED)\n' >/run/.containerenv ;;
esac
shift
exec "$@"
EOF
chmod 0755 "$T/containerenv"
for kind in fifo tty hostile; do
	label="/run/.containerenv: $kind"
	PREFIX="timeout -s KILL 20 unshare -p -f -m --mount-proc --kill-child $T/containerenv $kind"
	F= C="$root --bounding-set=-sys_admin" P=$plain
	doctor 0 "verdict:   YES: root can monitor the whole system with $plain
note:      the container runs without a seccomp filter (--security-opt seccomp=unconfined or --privileged), $NOTE_TAIL
$NARROWER"
	line=$(grep '^container: ' "$T/report")
	case $kind in
	fifo | tty) want="a pid namespace of its own" unwanted=containerenv ;;
	*) want='podman (/run/.containerenv); container x\033]0;t\007$(touch INJECTED) (/run/.containerenv)'
	   unwanted=$(printf '\033') ;;
	esac
	case $line in
	*"$unwanted"*) fail "$label: $line" ;;
	*"$want"*) pass ;;
	*) fail "$label: no '$want' in: $line" ;;
	esac
done
PREFIX= P=

# No container: a systemd service's unit lines, each for what blocks.
PREFIX=
label="no container, a filter refusing it"
F=-P C=$alice
doctor 1 "verdict:   NO: the session's seccomp filter refuses perf_event_open() whatever its capabilities: EPERM (Operation not permitted) from the filter, not the kernel
fix:       $GENERIC
fix:       a systemd service: SystemCallFilter=perf_event_open in its unit's [Service] section, after its other SystemCallFilter= lines (it allows the call, or takes it off their deny list)"
label="no container, no_new_privs and a file-capability perf"
F="-N"
doctor 1 "verdict:   NO: the session has no_new_privs set, so exec grants no file capabilities
fix:       run perf from a session without NoNewPrivileges= (systemd) or no_new_privs
fix:       a systemd service: AmbientCapabilities=CAP_PERFMON in its unit's [Service] section (perf then needs no file capabilities, NoNewPrivileges= or not)"
label="no container, root without CAP_PERFMON or CAP_SYS_ADMIN"
F= C="$root --bounding-set=-perfmon,-sys_admin" P=$plain
doctor 1 "verdict:   NO: the session's bounding set lacks cap_perfmon, and exec gives root nothing outside it
fix:       allow cap_perfmon in the bounding set of that service or container
fix:       a systemd service: its unit's CapabilityBoundingSet=, where it sets one, must hold CAP_PERFMON"
finish
