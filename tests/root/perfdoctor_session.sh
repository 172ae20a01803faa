#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# perfdoctor judges the session that would run perf from
# its real credentials and capability state, never from the group database
# alone. Each case runs a session with chosen credentials (setpriv, unshare)
# and compares perfdoctor's verdict, for that session (--pid) or run from
# it (no --pid), with the CPU-wide probe run with exactly those credentials:
#  - alice is in perf_users in the (nss_wrapper) database, but the session
#    lacks the group: NO, "log in again", and the probe cannot run;
#  - the same with the group: YES, and the probe opens its event;
#  - no_new_privs, a bounding set without cap_perfmon, a user namespace:
#    NO, and the probe fails;
#  - inheritable (with a +ei perf) or ambient cap_perfmon: YES, probe works;
#  - uid 0 under SECBIT_NOROOT, perf without file capabilities: NO inside,
#    UNKNOWN from the host (which cannot read its securebits), also for
#    uid 0 without it (YES inside); ambient cap_perfmon: YES both ways;
#  - a real uid of 0 alone, ambient cap_perfmon, a perf with file
#    capabilities (which clear the ambient set): NO;
#  - the same, perfdoctor unable to read file capabilities (a seccomp
#    filter fails its getxattr with EIO; the kernel's read at exec is no
#    system call): UNKNOWN naming why, never YES from the ambient set; a
#    plain perf the same, where the ambient set is all that is left;
#  - alice with ambient cap_perfmon and a perf she may execute but not
#    read (0711) that carries file capabilities: perfdoctor cannot tell
#    an ELF binary (its capabilities clear the ambient set) from a script:
#    UNKNOWN, where the probe fails;
#  - uid 0 without CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH in its
#    effective set, ambient cap_perfmon, a perf of another owner's alone
#    (0700): NO, it may not execute it, as the kernel refuses the probe;
#  - a missing process, or --user naming someone else: exit 2.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
. "$TESTS_DIR/tools/perf_world.sh"
doctor_bin=$BUILD/progs/perfdoctor
pids=
at_exit 'for p in $pids; do kill "$p" 2>/dev/null; done'
mkdir "$T/nopam"
: >"$T/empty.conf"
perf=$T/perf
perf_as_setcap_perf "$perf" || fail "cannot make $perf"

doctor() {	# [ARGS...]: perfdoctor in the private world; $d its exit
	ours "$doctor_bin" --pam-dir="$T/nopam" --config="$T/empty.conf" \
		"$@" >"$T/doc" 2>&1
	d=$?
}
# session SETPRIV-OPTIONS...: a sleeping process with those credentials;
# $pid is it. (setpriv runs as a simple command, so $! is the sleep.)
session() {
	setpriv "$@" sleep 120 &
	pid=$!
	pids="$pids $pid"
	# Wait until setpriv has exec()ed sleep with the new credentials.
	i=0
	while [ "$(readlink "/proc/$pid/exe" 2>/dev/null)" != "$(command -v sleep)" ] &&
		[ $i -lt 100 ]; do
		sleep 0.05; i=$((i + 1))
	done
}
# agree LABEL WANT(yes|no) TEXT PROBE-SETPRIV-OPTIONS... -- FILE: the last
# doctor run said WANT with TEXT, and the probe run so agrees.
agree() {
	label=$1 want=$2 text=$3
	shift 3
	setpriv "$@" sh -c 'exec "$0"' "$file" >"$T/probe.out" 2>&1; r=$?
	[ $r -eq 0 ] || r=1
	case $want in yes) w=0 ;; no) w=1 ;; esac
	if [ $d -ne $w ] || [ $r -ne $w ]; then
		fail "$label: doctor exit $d, probe exit $r, want both $w"
		sed 's/^/    /' "$T/doc" "$T/probe.out"
	elif ! grep -qF -- "$text" "$T/doc"; then
		fail "$label: no '$text' in:"; sed 's/^/    /' "$T/doc"
	else
		ok "$label: doctor and kernel agree: $(grep '^verdict' "$T/doc")"
	fi
}
file=$perf
stale="--reuid=4001 --regid=4001 --groups=4001"
fresh="--reuid=4001 --regid=4001 --groups=4001,4100"

# Run from the session itself (as alice, no --pid).
# shellcheck disable=SC2086 # option lists
setpriv $stale sh -c 'exec "$@"' sh env LD_PRELOAD="$NWRAP" \
	NSS_WRAPPER_PASSWD="$T/passwd" NSS_WRAPPER_GROUP="$T/group" \
	ASAN_OPTIONS=verify_asan_link_order=0 ${VALGRIND_CMD:-} "$doctor_bin" --pam-dir="$T/nopam" --config="$T/empty.conf" "$perf" >"$T/doc" 2>&1
d=$?
# shellcheck disable=SC2086
agree "alice's own session without perf_users" no \
	"may not execute $perf; a new login of alice would be allowed to execute it" $stale
expect_line "$T/doc" "fix:       log in again" "no 'log in again' fix"
# shellcheck disable=SC2086
setpriv $fresh sh -c 'exec "$@"' sh env LD_PRELOAD="$NWRAP" \
	NSS_WRAPPER_PASSWD="$T/passwd" NSS_WRAPPER_GROUP="$T/group" \
	ASAN_OPTIONS=verify_asan_link_order=0 ${VALGRIND_CMD:-} "$doctor_bin" --pam-dir="$T/nopam" --config="$T/empty.conf" "$perf" >"$T/doc" 2>&1
d=$?
# shellcheck disable=SC2086
agree "alice's own session with perf_users" yes "verdict:   YES: alice can monitor" $fresh

# The same sessions judged from outside, by root, with --pid.
# shellcheck disable=SC2086
session $stale
doctor --pid="$pid" "$perf"
# shellcheck disable=SC2086
agree "--pid: session without perf_users" no "a new login of alice would be allowed to execute it" $stale
# shellcheck disable=SC2086
session $fresh
doctor --pid="$pid" "$perf"
# shellcheck disable=SC2086
agree "--pid: session with perf_users" yes "verdict:   YES" $fresh
doctor --pid="$pid" --user=bob "$perf"
[ $d -eq 2 ] && grep -q "process $pid runs as alice, not bob" "$T/doc" && pass ||
	{ fail "--pid of alice's with --user=bob: exit $d"; sed 's/^/    /' "$T/doc"; }

# shellcheck disable=SC2086
session $fresh --no-new-privs
doctor --pid="$pid" "$perf"
# shellcheck disable=SC2086
agree "--pid: no_new_privs" no "no_new_privs set" $fresh --no-new-privs

# shellcheck disable=SC2086
session $fresh --bounding-set=-perfmon
doctor --pid="$pid" "$perf"
# shellcheck disable=SC2086
agree "--pid: bounding set without cap_perfmon" no "bounding set lacks cap_perfmon" \
	$fresh --bounding-set=-perfmon

# perf carries cap_syslog too (setcap --perf): a bounding set without it
# makes the kernel refuse the exec itself (EPERM: a permitted bit the file
# forces is missing), though cap_perfmon is there. It was answered YES.
# shellcheck disable=SC2086
session $fresh --bounding-set=-syslog
doctor --pid="$pid" "$perf"
# shellcheck disable=SC2086
agree "--pid: bounding set without cap_syslog" no \
	"bounding set lacks cap_syslog, so the kernel refuses to execute a file that needs it in its effective set" \
	$fresh --bounding-set=-syslog
grep -qxF "at exec:   none" "$T/doc" && pass || fail "--pid, no cap_syslog: at exec: $(grep '^at exec' "$T/doc")"

# A user namespace: root in there, nobody to perf_event_open() outside.
unshare --user --map-root-user sleep 120 &
pid=$!
pids="$pids $pid"
i=0
while [ "$(readlink "/proc/$pid/exe" 2>/dev/null)" != "$(command -v sleep)" ] && [ $i -lt 100 ]; do
	sleep 0.05; i=$((i + 1))
done
doctor --pid="$pid" "$perf"
unshare --user --map-root-user "$perf" >"$T/probe.out" 2>&1; r=$?
if [ $d -eq 1 ] && [ $r -ne 0 ] && grep -q "the session is in a user namespace" "$T/doc"; then
	ok "--pid: a user namespace: doctor and kernel agree: NO"
else
	fail "user namespace: doctor exit $d, probe exit $r"; sed 's/^/    /' "$T/doc" "$T/probe.out"
fi

# Capabilities the session carries: inheritable with a +ei perf, ambient
# with a perf that has none.
file=$T/perf-ei
cp "$BIN/perfprobe" "$file"
/usr/sbin/setcap cap_perfmon+ei "$file"
# shellcheck disable=SC2086
session $fresh --inh-caps=+perfmon
doctor --pid="$pid" "$file"
# shellcheck disable=SC2086
agree "--pid: inheritable cap_perfmon, +ei perf" yes "inheritable cap_perfmon" $fresh --inh-caps=+perfmon
# shellcheck disable=SC2086
session $fresh
doctor --pid="$pid" "$file"
# shellcheck disable=SC2086
agree "--pid: no inheritable cap_perfmon, +ei perf" no "only to callers holding it" $fresh
file=$T/perf-plain
cp "$BIN/perfprobe" "$file"
# shellcheck disable=SC2086
session $fresh --inh-caps=+perfmon --ambient-caps=+perfmon
doctor --pid="$pid" "$file"
# shellcheck disable=SC2086
agree "--pid: ambient cap_perfmon, perf without file capabilities" yes "ambient cap_perfmon" \
	$fresh --inh-caps=+perfmon --ambient-caps=+perfmon

# Root's exec rule (no file capabilities needed) is off under
# SECBIT_NOROOT (systemd's SecureBits=noroot). Inside, perfdoctor reads
# its securebits: NO with the bit, YES without, as the probe says. From
# the host, nobody can read another process's securebits: a yes that needs
# root's rule is UNKNOWN, saying why, whichever way the bit is (each was
# YES); a yes the ambient set gives (the rule not needed) stays YES.
noroot="--securebits=+noroot"
# inside_root LABEL WANT TEXT SETPRIV-OPTIONS...: perfdoctor run in that
# uid-0 session, agreeing with the probe run there.
inside_root() {
	label=$1 want=$2 text=$3
	shift 3
	# shellcheck disable=SC2086 # VALGRIND_CMD: a command line
	setpriv "$@" sh -c 'exec "$@"' sh env LD_PRELOAD="$NWRAP" \
		NSS_WRAPPER_PASSWD="$T/passwd" NSS_WRAPPER_GROUP="$T/group" \
		ASAN_OPTIONS=verify_asan_link_order=0 ${VALGRIND_CMD:-} "$doctor_bin" --pam-dir="$T/nopam" \
		--config="$T/empty.conf" "$file" >"$T/doc" 2>&1
	d=$?
	agree "$label" "$want" "$text" "$@"
}
unknown_from_host() {	# LABEL: the last --pid run said UNKNOWN, and why
	if [ $d -eq 3 ] && grep -qF "verdict:   UNKNOWN: process $pid is uid 0, and whether exec gives it root's capabilities depends on its securebits" "$T/doc"; then
		ok "$1: $(grep '^verdict' "$T/doc" | cut -c1-60)..."
	else
		fail "$1: exit $d, want 3 and the securebits reason:"; sed 's/^/    /' "$T/doc"
	fi
}
file=$T/perf-plain
# shellcheck disable=SC2086 # option lists
inside_root "uid 0 under SECBIT_NOROOT, a perf without file capabilities" no \
	"verdict:   NO: the session's securebits hold SECBIT_NOROOT, so exec gives uid 0 none of root's capabilities" \
	$noroot
expect_line "$T/doc" "           securebits: SECBIT_NOROOT set, root's exec rule is off" \
	"no securebits line"
# shellcheck disable=SC2086 # option lists
session $noroot
doctor --pid="$pid" "$file"
unknown_from_host "--pid: uid 0 under SECBIT_NOROOT, a perf without file capabilities"
inside_root "uid 0 without SECBIT_NOROOT, a perf without file capabilities" yes \
	"verdict:   YES" --inh-caps=-all
expect_line "$T/doc" "           securebits: SECBIT_NOROOT clear" "no securebits line"
session --inh-caps=-all
doctor --pid="$pid" "$file"
unknown_from_host "--pid: uid 0 without SECBIT_NOROOT, a perf without file capabilities"
# shellcheck disable=SC2086 # option lists
inside_root "uid 0 under SECBIT_NOROOT, ambient cap_perfmon" yes "verdict:   YES" \
	$noroot --inh-caps=+perfmon --ambient-caps=+perfmon
# shellcheck disable=SC2086 # option lists
session $noroot --inh-caps=+perfmon --ambient-caps=+perfmon
doctor --pid="$pid" "$file"
# shellcheck disable=SC2086 # option lists
agree "--pid: uid 0 under SECBIT_NOROOT, ambient cap_perfmon" yes "verdict:   YES" \
	$noroot --inh-caps=+perfmon --ambient-caps=+perfmon

# File capabilities clear the ambient set, root's too: a real uid of 0
# with another effective uid keeps nothing of it at exec of a perf that
# has some (fE clear), so cap_perfmon in it is no help. (It was YES, the
# ambient set counted.) The probe is executed by setpriv itself: a shell
# would set its effective uid back to the real one.
file=$T/perf-i
cp "$BIN/perfprobe" "$file"
/usr/sbin/setcap cap_syslog+i "$file"
ruid0="--euid=4001 --inh-caps=+perfmon --ambient-caps=+perfmon"
# shellcheck disable=SC2086 # option lists
session $ruid0
doctor --pid="$pid" "$file"
# shellcheck disable=SC2086
setpriv $ruid0 "$file" >"$T/probe.out" 2>&1; r=$?
if [ $d -eq 1 ] && [ $r -ne 0 ] &&
	grep -qF "the file capabilities of the binary clear the ambient set" "$T/doc"; then
	ok "--pid: real uid 0 alone, ambient cap_perfmon, a perf with file capabilities: NO, as the probe"
else
	fail "real uid 0 alone, ambient cap_perfmon, file capabilities: doctor exit $d, probe exit $r"
	sed 's/^/    /' "$T/doc" "$T/probe.out"
fi

# The same session and perf, perfdoctor unable to read any file's
# capabilities (getxattr fails with EIO): whether exec keeps the ambient
# set is unknown, and so is the answer. (It was YES: a perf whose
# capabilities could not be read counted as one without any.) A perf
# without file capabilities, where the ambient set would give the yes,
# is as unknown from here.
unread() {	# LABEL: the last doctor run said UNKNOWN, naming the read
	if [ $d -eq 3 ] && grep -qF "verdict:   UNKNOWN: perfdoctor cannot read the file capabilities of $file (security.capability: Input/output error)" "$T/doc" &&
		grep -qF "file caps: unknown: cannot read its security.capability: Input/output error" "$T/doc"; then
		ok "$1: $(grep '^verdict' "$T/doc" | cut -c1-70)..."
	else
		fail "$1: exit $d, want 3 and the unread capabilities named:"; sed 's/^/    /' "$T/doc"
	fi
}
doctor_eio() {	# [ARGS...]: doctor, every getxattr() of it failing (EIO)
	# shellcheck disable=SC2086 # VALGRIND_CMD is a command line
	nss "$BIN/scfilter" -X 5 ${VALGRIND_CMD:-} "$doctor_bin" \
		--pam-dir="$T/nopam" --config="$T/empty.conf" "$@" >"$T/doc" 2>&1
	d=$?
}
# shellcheck disable=SC2086 # option lists
session $ruid0
doctor_eio --pid="$pid" "$file"
unread "--pid: real uid 0 alone, ambient cap_perfmon, file capabilities unreadable"
file=$T/perf-plain
doctor_eio --pid="$pid" "$file"
unread "--pid: real uid 0 alone, ambient cap_perfmon, a plain perf's capabilities unreadable"

# A perf alice may execute but not read, with file capabilities: as an
# ELF binary they clear her ambient set, as a script they would not
# count, and perfdoctor, run as her, cannot read it to tell. (It was YES,
# the file judged as a script.)
file=$T/perf-noread
cp "$BIN/perfprobe" "$file"
chmod 0711 "$file"
/usr/sbin/setcap cap_syslog+i "$file"
amb="$fresh --inh-caps=+perfmon --ambient-caps=+perfmon"
# shellcheck disable=SC2086 # option lists, VALGRIND_CMD a command line
setpriv $amb sh -c 'exec "$@"' sh env LD_PRELOAD="$NWRAP" \
	NSS_WRAPPER_PASSWD="$T/passwd" NSS_WRAPPER_GROUP="$T/group" \
	ASAN_OPTIONS=verify_asan_link_order=0 ${VALGRIND_CMD:-} "$doctor_bin" --pam-dir="$T/nopam" \
	--config="$T/empty.conf" "$file" >"$T/doc" 2>&1
d=$?
# shellcheck disable=SC2086
setpriv $amb sh -c 'exec "$0"' "$file" >"$T/probe.out" 2>&1; r=$?
if [ $d -eq 3 ] && [ $r -ne 0 ] &&
	grep -qF "verdict:   UNKNOWN: perfdoctor cannot read $file to tell an ELF binary from a script (Permission denied)" "$T/doc"; then
	ok "alice's own session, ambient cap_perfmon, an unreadable perf with file capabilities: UNKNOWN; the probe fails"
else
	fail "ambient cap_perfmon, unreadable perf with file capabilities: doctor exit $d, probe exit $r"
	sed 's/^/    /' "$T/doc" "$T/probe.out"
fi

# Whether the session may execute the binary is asked with its own
# effective capabilities, not perfdoctor's: uid 0 without the DAC
# overrides may not execute a file another uid keeps to itself. (It was
# YES, the check keeping all of perfdoctor's capabilities.) The probe
# is executed by a shell: setpriv itself still holds the overrides in its
# effective set when it executes, as sleep, exec'd, does not.
file=$T/perf-nobody
cp "$BIN/perfprobe" "$file"
chown 65534 "$file"
chmod 0700 "$file"
nodac="--inh-caps=-all,+perfmon --ambient-caps=+perfmon --bounding-set=-dac_override,-dac_read_search"
# shellcheck disable=SC2086 # option lists
session $nodac
doctor --pid="$pid" "$file"
# shellcheck disable=SC2086
setpriv $nodac sh -c 'exec "$0"' "$file" >"$T/probe.out" 2>&1; r=$?
if [ $d -eq 1 ] && [ $r -ne 0 ] && grep -qF "Permission denied" "$T/probe.out" &&
	grep -qF "verdict:   NO: root may not execute $file" "$T/doc"; then
	ok "--pid: uid 0 without the DAC overrides, another owner's 0700 perf: NO, as the probe"
else
	fail "uid 0 without the DAC overrides, 0700 perf of uid 65534: doctor exit $d, probe exit $r"
	sed 's/^/    /' "$T/doc" "$T/probe.out"
fi

# A process that does not exist is an error, not a verdict.
doctor --pid=999999 "$perf"
[ $d -eq 2 ] && grep -q "perfdoctor: process 999999: no such process" "$T/doc" && pass ||
	{ fail "--pid=999999: exit $d"; sed 's/^/    /' "$T/doc"; }
finish
