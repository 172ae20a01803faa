#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# The suite must pass on a host already set up for perf, and leave it as
# it was. In a private mount namespace (unshare -m) this suite makes the
# host look like one an administrator has set up: a perf_users group and
# a user alice in it (copies of /etc/passwd and /etc/group bound over the
# real ones), "cap_perfmon @perf_users" in capability.conf, tracefs
# mounted on /sys/kernel/tracing as systemd mounts it at boot (root's,
# mode 0700, set under the machine-wide tracefs lock), and a
# /usr/bin/perf that carries cap_perfmon,cap_syslog=ep (an overlay over
# /usr/bin: the host's own perf, or a stand-in where there is none). It
# checks from the inside that each preset is in effect, then runs there
# the suites tests/suites.conf tags "hostpreset": those that read users,
# groups, PAM, capability.conf, tracefs or /usr/bin/perf. Any of them
# failing fails this suite. Outside, before and after, it compares the
# host's /etc files, its /usr/bin/perf (content, mode and capabilities)
# and its tracefs mount: the host must not change.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
[ "$(id -u)" -eq 0 ] || skip "needs root (mount namespace, bind mounts)"

# host_state: what the preset must never change on the host.
host_state() {
	for f in /etc/passwd /etc/group /etc/security/capability.conf /usr/bin/perf; do
		if [ -e "$f" ]; then
			echo "$f $(stat -c '%u:%g %a %s' "$f") $(sha256sum <"$f" | cut -c1-64)"
			getfattr -h -n security.capability -e hex "$f" 2>/dev/null | grep '^security' || echo "$f no capabilities"
		else
			echo "$f absent"
		fi
	done
	grep ' /sys/kernel/tracing ' /proc/self/mountinfo | cut -d' ' -f4-6,9- || echo "tracefs not mounted"
	[ -d /sys/kernel/tracing ] && stat -c 'tracing %u:%g %a' /sys/kernel/tracing
}

SUITES=$(sed -n 's/^hostpreset:[[:space:]]*//p' "${TESTS_DIR:-$(dirname "$0")/..}/suites.conf" | tr -s ' \t' '\n\n')
if [ -z "${HOST_PRESET_NS:-}" ]; then
	command -v unshare >/dev/null || skip "unshare (util-linux) is not installed"
	unshare -m true 2>/dev/null || skip "cannot create a mount namespace"
	[ -n "$SUITES" ] || { echo "FAIL: tests/suites.conf tags no suite hostpreset"; exit 1; }
	before=$(host_state)
	# tracefs_mount refuses to act in the namespace it started in.
	LIB_OUTER_MNT_NS=$(readlink /proc/self/ns/mnt) || skip "no /proc/self/ns/mnt"
	export LIB_OUTER_MNT_NS
	# Private propagation: the mounts below never reach the host.
	HOST_PRESET_NS=1 unshare -m --propagation private sh "$0" "$@"
	rc=$?
	after=$(host_state)
	if [ "$before" != "$after" ]; then
		echo "FAIL: the host changed:"
		printf '%s\n' "$before" >/tmp/host_preset.before.$$
		printf '%s\n' "$after" | diff /tmp/host_preset.before.$$ - | sed 's/^/    /'
		rm -f /tmp/host_preset.before.$$
		exit 1
	fi
	echo "the host's /etc files, /usr/bin/perf and tracefs mount are as before"
	exit $rc
fi

init	# in the namespace: the outer run made no $T
chmod 755 "$T"

# free ID FILE: the first id from ID on that FILE (passwd or group) lacks.
free() {
	i=$1
	while awk -F: -v i="$i" '$3 == i { found = 1 } END { exit !found }' "$2"; do
		i=$((i + 1))
	done
	echo "$i"
}
cp /etc/passwd "$T/passwd" && cp /etc/group "$T/group" || exit 1
# The ids the suites' private worlds use for alice and perf_users, when
# free, so that a suite mixing the host's database with its own is caught.
grep -q '^perf_users:' "$T/group" || {
	gid=$(free 4100 "$T/group")
	echo "perf_users:x:$gid:alice" >>"$T/group"
}
grep -q '^alice:' "$T/passwd" || {
	uid=$(free 4001 "$T/passwd")
	agid=$(awk -F: '$1 == "alice" { print $3 }' "$T/group")
	if [ -z "$agid" ]; then
		agid=$(free 4001 "$T/group")
		echo "alice:x:$agid:" >>"$T/group"
	fi
	echo "alice:x:$uid:$agid:preset alice:/nonexistent:/bin/sh" >>"$T/passwd"
}
chmod 644 "$T/passwd" "$T/group"
if ! mount --bind "$T/passwd" /etc/passwd || ! mount --bind "$T/group" /etc/group; then
	fail "cannot bind the preset passwd and group files"; finish
fi
# capability.conf as the guide leaves it: the grant before Debian's
# "none *". Only when the host has the file (a bind needs a target).
conf=/etc/security/capability.conf
if [ -f "$conf" ]; then
	{ echo "cap_perfmon @perf_users"; cat "$conf"; } >"$T/capability.conf"
	chmod 644 "$T/capability.conf"
	mount --bind "$T/capability.conf" "$conf" ||
		{ fail "cannot bind the preset $conf"; finish; }
fi
# tracefs, as systemd mounts it at boot: root's, mode 0700. Its options
# belong to the one superblock of the machine, so they are set under the
# machine-wide lock, which the suites run below rely on (they inherit
# LIB_TRACEFS_LOCKED), and put back, checked, at the end.
at_exit_checked tracefs_restore
tracefs_as_systemd || { fail "cannot mount tracefs as systemd does"; finish; }
# /usr/bin/perf with file capabilities, in an overlay over /usr/bin whose
# writes land in $T: the host's perf (a copy up), or a stand-in.
mkdir "$T/usrbin" "$T/usrbin.work" &&
	mount -t overlay overlay -o "lowerdir=/usr/bin,upperdir=$T/usrbin,workdir=$T/usrbin.work" /usr/bin ||
	{ fail "cannot put an overlay over /usr/bin"; finish; }
[ -e /usr/bin/perf ] || cp /bin/true /usr/bin/perf
setcap cap_perfmon,cap_syslog=ep /usr/bin/perf || { fail "cannot set capabilities on the preset perf"; finish; }
# The presets are in effect, or this run proves nothing.
[ "$(getent group perf_users | cut -d: -f1)" = perf_users ] && pass || fail "preset: no perf_users group"
[ "$(getent passwd alice | cut -d: -f1)" = alice ] && pass || fail "preset: no alice"
[ ! -f "$conf" ] || grep -qx 'cap_perfmon @perf_users' "$conf" && pass || fail "preset: capability.conf lacks the grant"
[ -e /sys/kernel/tracing/trace ] && pass || fail "preset: tracefs is not mounted"
[ "$(stat -c '%u:%g %a' /sys/kernel/tracing)" = "0:0 700" ] && pass ||
	fail "preset: tracefs is not root's 0700: $(stat -c '%u:%g %a' /sys/kernel/tracing)"
case $(getcap /usr/bin/perf) in
*cap_perfmon*) ;;
*) fail "preset: /usr/bin/perf has no capabilities: $(getcap /usr/bin/perf)" ;;
esac
echo "preset: $(grep '^perf_users:' /etc/group), $(grep '^alice:' /etc/passwd), tracefs on /sys/kernel/tracing, $(getcap /usr/bin/perf)"

# The inner run's logs and verdicts stay out of the outer run's.
mkdir "$T/logs"
check "the suites above on the preset host" \
	env LOGDIR="$T/logs" TEST_SUMMARY='' TESTS="$SUITES" sh "$TESTS_DIR/run.sh"
finish
