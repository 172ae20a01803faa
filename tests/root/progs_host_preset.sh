#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# The suite must pass on a machine already set up for perf (issue 14,
# item 7): one where a perf_users group, a user alice in it, and a
# "cap_perfmon @perf_users" line in capability.conf already exist. This
# suite re-runs itself in a private mount namespace (unshare -m), binds
# copies of /etc/passwd, /etc/group and /etc/security/capability.conf
# with those entries over the real ones (the host's files are never
# written), and runs there the suites that read users, groups, PAM or
# capability.conf. Any of them failing there fails this suite.
#
# Only those suites, not the whole root tier (which takes minutes), to keep
# CI short; this list takes about 40 s. They are the ones that name alice,
# bob, perf_users or nobody (tools/pam_world.sh and perf_world.sh's
# nss_wrapper worlds, setpriv --reuid, capsh --user), parse capability.conf
# (capcheck, perfdoctor, pam_cap) or drive PAM (pam_wrapper). Left out as
# too slow for what they add: the root suites that use users only through
# lib.sh's private_etc, which hides the host's users and groups whatever
# they are (capmanifest_race, capsh_diff, libcap_debian_programs, getcap_*,
# setcap_diff, setcap_ours: 5 to 40 s each), and cli/getcap_diff.sh and
# getpcaps_diff.sh, which now name no user at all. A suite added later
# that reads users, groups, PAM or capability.conf belongs in this list.
SUITES="
cli/capcheck_verdicts.sh
cli/pam_cap.sh
cli/pam_cap_broken.sh
cli/pam_cap_refused.sh
cli/pam_cap_safety.sh
root/capmanifest_owner.sh
root/capsh_ambient.sh
root/capsh_priv.sh
root/docs_guide_perf.sh
root/pam_cap_nss_files.sh
root/pam_cap_perf.sh
root/perfdoctor_verdicts.sh
root/perfdoctor_pam.sh
root/perfdoctor_session.sh
root/libcap_proc_privileged.sh
root/setcap_perf_group.sh
root/setcap_perf_preset.sh
root/setcap_perf_target.sh
root/setcap_perfmon.sh
"
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
[ "$(id -u)" -eq 0 ] || skip "needs root (mount namespace, bind mounts)"

if [ -z "${HOST_PRESET_NS:-}" ]; then
	command -v unshare >/dev/null || skip "unshare (util-linux) is not installed"
	unshare -m true 2>/dev/null || skip "cannot create a mount namespace"
	# Private propagation: the bind mounts below never reach the host.
	HOST_PRESET_NS=1 exec unshare -m --propagation private sh "$0" "$@"
fi

init	# in the namespace: the run that exec'd us made no $T
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
echo "preset: $(grep '^perf_users:' /etc/group), $(grep '^alice:' /etc/passwd)"

# The inner run's logs and verdicts stay out of the outer run's.
mkdir "$T/logs"
check "the suites above on the preset host" \
	env LOGDIR="$T/logs" TEST_SUMMARY='' TESTS="$SUITES" sh "$TESTS_DIR/run.sh"
finish
