#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# perfdoctor's verdict agrees with the real kernel, binary by binary: for
# each set-up, the doctor's YES/NO (exit 0/1) for a new login of alice or
# bob (users and groups from nss_wrapper, see perf_world.sh; no PAM grant)
# must match whether the CPU-wide perf probe opens its event when run with
# exactly that login's credentials (uid, gid, the groups the database
# gives), and the printed fix must turn a NO into a YES when applied.
# Scripts, nosuid mounts and namespaced file capabilities get NO (exec
# grants them nothing), the fix for a 0755 perf restricts it to a group,
# ACLs count as the kernel counts them, a missing process is an error, and
# names are escaped. Set-user-ID and set-group-ID binaries are judged as
# the kernel runs them: root's rule for a root owner, none of root's
# effective capabilities for another, and the ambient set cleared when
# exec takes the ids for changed, by the rule of the kernel's release
# (uname(2) made to say 2.6 or 6.16 for the others), with the cause
# named: a bit, or the session's own ids; no_new_privs is named when it is what
# takes the bit away; a script whose interpreter has set-id bits or file
# capabilities, and a traced session's gain at exec, are UNKNOWN; the
# root-equivalent risk line is for the host's root, saying what it gives.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
. "$TESTS_DIR/tools/perf_world.sh"
doctor_bin=$BUILD/progs/perfdoctor
perf=$T/perf
cp "$BIN/perfprobe" "$perf"
chmod 0755 "$perf"
# No pam_cap anywhere: an empty PAM directory and configuration.
mkdir "$T/nopam"
: >"$T/empty.conf"
# Our setcap, for the printed fix lines.
mkdir "$T/bin"
ln -s "$BUILD/progs/setcap" "$T/bin/setcap"

# creds USER: the uid, gid and database groups of a new login of USER.
creds() {
	case $1 in
	alice) echo "4001 4001 4001,4100" ;;
	bob) echo "4002 4002 4002,4200" ;;
	esac
}
doctor() {	# USER [FILE]
	ours "$doctor_bin" --user="$1" --pam-dir="$T/nopam" \
		--config="$T/empty.conf" "${2:-$perf}" >"$T/doc" 2>&1
	d=$?
}
# agree LABEL USER [FILE]: the doctor's verdict equals the probe's outcome.
agree() {
	label=$1 user=$2 file=${3:-$perf}
	doctor "$user" "$file"
	# shellcheck disable=SC2046 # three words
	probe_as $(creds "$user") "$file"; r=$?
	[ $r -eq 0 ] || r=1	# 126: not executable, 1: event refused
	if [ $d -ne $r ] || [ $d -gt 1 ]; then
		fail "$label: doctor exit $d, probe exit $r"; sed 's/^/    /' "$T/doc"
	else
		ok "$label ($user): doctor and kernel agree: $(grep '^verdict' "$T/doc")"
	fi
}
doc_has() {	# TEXT: the last doctor output contains it
	grep -qF -- "$1" "$T/doc" && pass || { fail "no '$1' in:"; sed 's/^/    /' "$T/doc"; }
}
doc_lacks() {	# TEXT: and does not
	grep -qF -- "$1" "$T/doc" && { fail "'$1' in:"; sed 's/^/    /' "$T/doc"; }
}

agree "no capabilities" alice
doc_has "verdict:   NO: $perf carries no cap_perfmon"
# The fix for a 0755 perf restricts it to a group; never a bare =ep.
doc_has "fix:       setcap --perf-group=perf_users --perf $perf"
doc_lacks "setcap cap_perfmon,cap_syslog=ep $perf"

/usr/sbin/setcap cap_perfmon+p "$perf"
agree "permitted but not effective" alice
doc_has "in permitted but not effective"

# Apply the doctor's own setcap fix, with our setcap and the private world.
doctor alice
fix=$(sed -n 's/^fix: *\(setcap .*\)$/\1/p' "$T/doc" | head -n 1)
[ -n "$fix" ] && pass || fail "no setcap fix printed"
PATH="$T/bin:$PATH" nss sh -c "$fix" >/dev/null 2>&1 && pass || fail "the fix '$fix' failed"
agree "after the printed fix" alice
doc_has "verdict:   YES: alice can monitor the whole system with $perf"
# "at exec:" says what the kernel grants: setcap --perf gives cap_syslog
# too (it once said cap_perfmon only). The probe's effective set agrees.
as_user 4001 4001 4001,4100 sh -c 'exec "$0" -c' "$perf" >"$T/probe.out" 2>&1
eff=$(sed -n 's/^CapEff:[[:space:]]*//p' "$T/probe.out")
names=$(run_ours "$BUILD/progs/capsh" --decode="$eff" | sed 's/^[^=]*=//')
doc_has "at exec:   $names"
[ "$names" = "cap_syslog,cap_perfmon" ] && pass || fail "the probe's effective set: '$names' ($eff)"
doc_has "risk:      kernel-read (cap_"
agree "after the printed fix, not in the group" bob
doc_has "verdict:   NO: bob may not execute $perf"
doc_has "fix:       usermod -aG perf_users bob   # then log in again"

chgrp root "$perf"
chmod 0755 "$perf"
/usr/sbin/setcap cap_sys_admin=ep "$perf"
agree "cap_sys_admin instead" alice
doc_has "suggest:   perf needs cap_perfmon (Linux 5.8+), not cap_sys_admin: setcap --perf-group=perf_users --perf"
doc_has "suggest:   every user may run it with these capabilities; restrict it to a group: setcap --perf-group=perf_users --perf $perf"
doc_has "risk:      root-equivalent"

# Namespaced file capabilities (rootid 1000) are ignored by exec in the
# initial user namespace: the probe gets nothing, the doctor says why.
"$BUILD/progs/setcap" -n 1000 cap_perfmon=ep "$perf"
agree "namespaced file capabilities" alice
doc_has "file caps: cap_perfmon=ep [rootid=1000]"
doc_has "verdict:   NO: the file capabilities of $perf are for the user namespace whose root is uid 1000 (rootid): the kernel ignores them outside it"
doc_has "fix:       setcap --perf-group=perf_users --perf $perf"
doc_lacks "every user may run it"

/usr/sbin/setcap cap_perfmon=ep "$perf"
chmod 0750 "$perf"
agree "not executable by others" alice
doc_has "verdict:   NO: alice may not execute $perf"
# Never "chgrp" after setcap: it would drop the capabilities.
doc_has "fix:       setcap --perf-group=perf_users --perf $perf"
doc_lacks "chgrp"

# POSIX ACLs count as the kernel counts them (the mode bits alone said the
# opposite both times): u:bob:r-x lets bob in, u:alice:--- keeps alice out.
chgrp perf_users "$perf" 2>/dev/null || chgrp 4100 "$perf"
/usr/sbin/setcap cap_perfmon=ep "$perf"
if setfattr -n system.posix_acl_access -v \
	0x0200000001000700ffffffff02000500a20f000004000500ffffffff10000500ffffffff20000000ffffffff "$perf"; then
	agree "ACL lets bob execute a 0750 file" bob
	doc_has "verdict:   YES"
	setfattr -x system.posix_acl_access "$perf"
	chmod 0755 "$perf"
	setfattr -n system.posix_acl_access -v \
		0x0200000001000700ffffffff02000000a10f000004000500ffffffff10000500ffffffff20000500ffffffff "$perf"
	agree "ACL keeps alice out of a 0755 file" alice
	doc_has "verdict:   NO: alice may not execute $perf"
	setfattr -x system.posix_acl_access "$perf"
else
	not_checked "no POSIX ACLs on $T's filesystem; ACL cases not run"
fi

# cap_perfmon+ei only helps callers holding cap_perfmon inheritable.
chmod 0755 "$perf"
/usr/sbin/setcap cap_perfmon+ei "$perf"
agree "inheritable-only file capability" alice
doc_has "only to callers holding it in their inheritable set"

# A script carrying capabilities: its interpreter (a probe) gets none.
cp "$BIN/perfprobe" "$T/interp"
chmod 0755 "$T/interp"
printf '#!%s\n' "$T/interp" >"$T/script"
chmod 0755 "$T/script"
/usr/sbin/setcap cap_perfmon,cap_syslog=ep "$T/script"
agree "a script with file capabilities" alice "$T/script"
doc_has "verdict:   NO: $T/script is a script (#!$T/interp): the kernel runs its interpreter and ignores the script's file capabilities"

# Set-user-ID root: exec makes alice uid 0 and root's rule gives her
# every capability, unless the file also carries capabilities, which
# then alone decide for a caller whose real uid is not 0 (the kernel's
# "set-user-ID and file capabilities mixed"). Owned by another user, the
# bit gives nothing.
# The probe without sanitizers (tests/Makefile says why).
suid=$T/suid
cp "$BIN/perfprobe-static" "$suid"
chmod 4755 "$suid"
agree "set-user-ID root, no file capabilities" alice "$suid"
doc_has "verdict:   YES: alice can monitor the whole system with $suid"
doc_has "risk:      root-equivalent (set-user-ID root: whoever may execute it runs it as uid 0"
/usr/sbin/setcap cap_syslog=ep "$suid"
chmod 4755 "$suid"
agree "set-user-ID root with cap_syslog=ep" alice "$suid"
doc_has "verdict:   NO: $suid carries no cap_perfmon"
# Not every capability of root then (it said so): the file's.
doc_has "risk:      root-equivalent (set-user-ID root: whoever may execute it runs it as uid 0, the owner of root's files, with the file's capabilities"
/usr/sbin/setcap cap_perfmon,cap_syslog=ep "$suid"
chmod 4755 "$suid"
agree "set-user-ID root with the preset" alice "$suid"
/usr/sbin/setcap -r "$suid"
chown 4002:4002 "$suid"
chmod 4755 "$suid"
agree "set-user-ID bob" alice "$suid"
doc_lacks "risk:      root-equivalent"
# alice's own perfdoctor may not read a 4711 file: ELF (the bit counts)
# or script (it does not) is unknown, and so is the verdict.
chown 0:0 "$suid"
chmod 4711 "$suid"
# shellcheck disable=SC2046 # three words
as_user $(creds alice) env LD_PRELOAD="$NWRAP" NSS_WRAPPER_PASSWD="$T/passwd" \
	NSS_WRAPPER_GROUP="$T/group" ASAN_OPTIONS=verify_asan_link_order=0 \
	${VALGRIND_CMD:-} "$doctor_bin" --pam-dir="$T/nopam" --config="$T/empty.conf" \
	"$suid" >"$T/doc" 2>&1
d=$?
[ $d -eq 3 ] && pass || { fail "unreadable set-user-ID root file: exit $d, want 3 (unknown)"; sed 's/^/    /' "$T/doc"; }
doc_has "verdict:   UNKNOWN: perfdoctor cannot read $suid to tell an ELF binary, whose set-user-ID bit makes exec run it as uid 0"
# shellcheck disable=SC2046 # three words
probe_as $(creds alice) "$suid" && pass || fail "the 4711 set-user-ID root probe failed for alice"

# A set-user-ID or set-group-ID exec that changes the effective uid or
# gid clears the ambient set, and a bit naming another uid than 0 takes
# root's raise into the effective set away, even from root: each session
# below runs perfdoctor (no --user: it judges itself) and the probe with
# the same credentials. (Each was YES where the kernel says NO.)
# in_session LABEL DOCTOR-EXIT(0 yes, 1 no, 3 unknown) PROBE-EXIT(0 opens,
#	1 fails) TEXT FILE SETPRIV-OPTIONS...
# setpriv executes both itself: a shell would set an effective uid other
# than the real one back to the real one. Such a session is not
# dumpable, and LeakSanitizer (which must ptrace it) fails in it unless
# its effective uid is 0: perfdoctor judges it from here, by --pid of a
# sleep in it.
in_session() {
	label=$1 want=$2 pwant=$3 text=$4 file=$5
	shift 5
	how=inside
	case " $* " in
	*" --euid=0 "*) ;;
	*" --ruid="* | *" --euid="*) how=pid ;;
	esac
	case $how in
	pid)
		setpriv "$@" sleep 60 &
		spid=$!
		held_session "$spid" || { fail "$label: the session never started"; kill "$spid"; return; }
		ours "$doctor_bin" --pid="$spid" --pam-dir="$T/nopam" \
			--config="$T/empty.conf" "$file" >"$T/doc" 2>&1
		d=$?
		kill "$spid"; wait "$spid" 2>/dev/null ;;
	inside)
		# shellcheck disable=SC2086 # VALGRIND_CMD: a command line
		setpriv "$@" env LD_PRELOAD="$NWRAP" \
			NSS_WRAPPER_PASSWD="$T/passwd" NSS_WRAPPER_GROUP="$T/group" \
			ASAN_OPTIONS=verify_asan_link_order=0 ${VALGRIND_CMD:-} "$doctor_bin" \
			--pam-dir="$T/nopam" --config="$T/empty.conf" "$file" >"$T/doc" 2>&1
		d=$? ;;
	esac
	setpriv "$@" "$file" >"$T/probe.out" 2>&1; r=$?
	[ $r -eq 0 ] || r=1
	if [ $d -ne "$want" ] || [ $r -ne "$pwant" ]; then
		fail "$label: doctor exit $d, probe exit $r, want $want and $pwant"
		sed 's/^/    /' "$T/doc" "$T/probe.out"
	elif ! grep -qF -- "$text" "$T/doc"; then
		fail "$label: no '$text' in:"; sed 's/^/    /' "$T/doc"
	else
		ok "$label: doctor and kernel agree: $(grep '^verdict' "$T/doc" | cut -c1-90)"
	fi
}
amb="--inh-caps=+perfmon,+syslog --ambient-caps=+perfmon,+syslog"
alice_s="--reuid=4001 --regid=4001 --groups=4001,4100"
ids=$T/ids
cp "$BIN/perfprobe-static" "$ids"
chown 4002:4002 "$ids"
chmod 4755 "$ids"
# shellcheck disable=SC2086 # option lists
in_session "alice, ambient cap_perfmon, set-user-ID bob" 1 1 \
	"verdict:   NO: $ids is set-user-ID to uid 4002: exec changes the effective uid, which clears the ambient set" \
	"$ids" $alice_s $amb
# shellcheck disable=SC2086
in_session "root, set-user-ID bob" 1 1 \
	"verdict:   NO: $ids is set-user-ID to uid 4002, which exec makes the effective uid" \
	"$ids" --reuid=0 --regid=0 --clear-groups
# shellcheck disable=SC2086
in_session "real uid 0 alone, ambient cap_perfmon, set-user-ID bob" 1 1 \
	"and the change of effective uid clears the ambient set" \
	"$ids" --ruid=0 --euid=4001 --regid=4001 --clear-groups $amb
chmod 4711 "$ids"
# shellcheck disable=SC2086
in_session "alice, ambient cap_perfmon, unreadable set-user-ID bob" 3 1 \
	"verdict:   UNKNOWN: perfdoctor cannot read $ids to tell an ELF binary, whose set-user-ID or set-group-ID bit exec applies, from a script" \
	"$ids" $alice_s $amb
chown 0:0 "$ids"
chmod 4755 "$ids"
# shellcheck disable=SC2086
in_session "alice under SECBIT_NOROOT, ambient cap_perfmon, set-user-ID root" 1 1 \
	"verdict:   NO: $ids is set-user-ID to uid 0: exec changes the effective uid, which clears the ambient set" \
	"$ids" $alice_s $amb --securebits=+noroot
chown 0:4200 "$ids"
chmod 2755 "$ids"
# shellcheck disable=SC2086
in_session "alice, ambient cap_perfmon, set-group-ID bob's group" 1 1 \
	"verdict:   NO: $ids is set-group-ID to gid 4200, a group alice is not in" \
	"$ids" $alice_s $amb
# shellcheck disable=SC2086
in_session "alice in the group, ambient cap_perfmon, set-group-ID" 0 0 \
	"verdict:   YES" "$ids" --reuid=4001 --regid=4001 --groups=4001,4200 $amb

# Which ids exec compares to tell a change (and clear the ambient set)
# was rewritten in 2025: this kernel compares the effective ones and the
# caller's groups (the case above, and a session of mixed real and
# effective uids, below, where the kernel keeps the ambient set). Linux
# 6.15 and before compared the real ones; perfdoctor on such a kernel,
# shown here by the 2.6 release setarch --uname-2.6 makes uname(2) say,
# must judge by that rule, and name the cause that rule sees.
plainprobe=$T/plainprobe
cp "$BIN/perfprobe-static" "$plainprobe"
# shellcheck disable=SC2086
in_session "mixed real and effective uids, ambient cap_perfmon" 0 0 \
	"verdict:   YES" "$plainprobe" --ruid=4001 --euid=4002 --regid=4001 --clear-groups $amb
# A set-user-ID bit naming the session's real uid, in a session whose
# effective uid is another, changes the effective uid: this kernel
# clears the ambient set (the rule of 6.15 and before would not, below).
suid_alice=$T/suid-alice
cp "$BIN/perfprobe-static" "$suid_alice"
chown 4001:4001 "$suid_alice"
chmod 4755 "$suid_alice"
# shellcheck disable=SC2086
in_session "mixed ids, ambient cap_perfmon, set-user-ID to the real uid" 1 1 \
	"verdict:   NO: $suid_alice is set-user-ID to uid 4001: exec changes the effective uid" \
	"$suid_alice" --ruid=4001 --euid=4002 --rgid=4001 --egid=4003 --clear-groups $amb
# shellcheck disable=SC2086
in_session "real uid 0 alone, ambient cap_perfmon" 0 0 \
	"verdict:   YES" "$plainprobe" --ruid=0 --euid=4001 --regid=4001 --clear-groups $amb
# as_release RELEASE WANT LABEL TEXT FILE SETPRIV-OPTIONS...: perfdoctor,
# asked about a session made so (--pid) while uname(2) says RELEASE
# (2.6: setarch --uname-2.6, else tools/preload/uname_release.c), exits
# WANT and says TEXT.
as_release() {
	release=$1 want=$2 label=$3 text=$4 file=$5
	shift 5
	setpriv "$@" sleep 60 &
	spid=$!
	held_session "$spid" || { fail "$label: the session never started"; kill "$spid"; return; }
	if [ "$release" = 2.6 ]; then
		set -- setarch "$(uname -m)" --uname-2.6 env LD_PRELOAD="$NWRAP"
	else
		set -- env LD_PRELOAD="$NWRAP:$BIN/libuname_release.so" UNAME_RELEASE="$release"
	fi
	# shellcheck disable=SC2086 # VALGRIND_CMD: a command line
	"$@" NSS_WRAPPER_PASSWD="$T/passwd" NSS_WRAPPER_GROUP="$T/group" \
		ASAN_OPTIONS=verify_asan_link_order=0 ${VALGRIND_CMD:-} "$doctor_bin" \
		--pid="$spid" --pam-dir="$T/nopam" --config="$T/empty.conf" "$file" >"$T/doc" 2>&1
	d=$?
	kill "$spid"; wait "$spid" 2>/dev/null
	if [ $d -ne "$want" ] || ! grep -qF -- "$text" "$T/doc"; then
		fail "$label, as on Linux $release: exit $d, want $want and '$text'"
		sed 's/^/    /' "$T/doc"
	else
		ok "$label, as on Linux $release: $(grep '^verdict' "$T/doc" | cut -c1-90)"
	fi
}
# old_kernel LABEL TEXT FILE SETPRIV-OPTIONS...: perfdoctor under a
# release before 6.18, for a session made so where the rule of 6.15 and
# before says no and this kernel's yes: it judges both ways (a vendor
# may have carried the new rule back), so UNKNOWN, with TEXT, the old
# rule's reason, as "the one way", and its fix.
old_kernel() {
	as_release 2.6 3 "$@"
}
if setarch "$(uname -m)" --uname-2.6 true 2>/dev/null; then
	# shellcheck disable=SC2086
	old_kernel "alice in the group, ambient cap_perfmon, set-group-ID" \
		"the one way: $ids is set-group-ID to gid 4200, not alice's real gid: exec on Linux 6.15 and before" \
		"$ids" --reuid=4001 --regid=4001 --groups=4001,4200 $amb
	# shellcheck disable=SC2086
	old_kernel "mixed real and effective uids, ambient cap_perfmon" \
		"the one way: the session's effective uid or gid differs from its real one, which exec on Linux 6.15 and before" \
		"$plainprobe" --ruid=4001 --euid=4002 --regid=4001 --clear-groups $amb
	# Both rules say no (the old one for the session's mixed gids, which
	# no chmod removes, this kernel's for the bit): NO, by this kernel's
	# reason, and the session's ids among the fixes.
	# shellcheck disable=SC2086
	as_release 2.6 1 "mixed ids, ambient cap_perfmon, set-user-ID to the real uid" \
		"verdict:   NO: $suid_alice is set-user-ID to uid 4001: exec changes the effective uid" \
		"$suid_alice" --ruid=4001 --euid=4002 --rgid=4001 --egid=4003 --clear-groups $amb
	# The same bit with only the uids mixed: the ids after exec are the
	# real ones, which the old rule takes for no change (a yes), this
	# kernel's for one (a no): UNKNOWN, never the old rule's yes.
	# shellcheck disable=SC2086
	as_release 2.6 3 "mixed uids, ambient cap_perfmon, set-user-ID to the real uid" \
		"the one way: $suid_alice is set-user-ID to uid 4001" "$suid_alice" \
		--ruid=4001 --euid=4002 --regid=4001 --clear-groups $amb
	# Real uid 0 alone: the ambient set goes for the mixed ids, not for a
	# set-group-ID bit the binary does not have (it said so).
	# shellcheck disable=SC2086
	old_kernel "real uid 0 alone, ambient cap_perfmon" \
		"and exec on Linux 6.15 and before clears the ambient set of a session whose effective ids differ from its real ones" \
		"$plainprobe" --ruid=0 --euid=4001 --regid=4001 --clear-groups $amb
else
	not_checked "setarch --uname-2.6 is refused here; the rule of Linux 6.15 and before not checked"
fi
# 6.16 and 6.17 as any release before 6.18: judged both ways, and where the ways differ, UNKNOWN,
# with what holds perf back the way that says no, and its fix (there was
# none when the other way said yes).
# shellcheck disable=SC2086
as_release 6.16.3 3 "mixed real and effective uids, ambient cap_perfmon" \
	"verdict:   UNKNOWN: on Linux 6.16, perfdoctor does not know whether exec tells a change of ids by the effective ids and the caller's groups (Linux 6.18) or by the real ids (6.15 and before, unless the change was carried back), which decides whether it clears the ambient set; the one way: the session's effective uid or gid differs from its real one" \
	"$plainprobe" --ruid=4001 --euid=4002 --regid=4001 --clear-groups $amb
doc_has "fix:       run perf from a session whose real and effective ids are the same"
# shellcheck disable=SC2086
as_release 6.17.0 3 "mixed uids, ambient cap_perfmon, set-user-ID to the real uid" \
	"verdict:   UNKNOWN: on Linux 6.17, perfdoctor does not know whether exec tells a change of ids by the effective ids and the caller's groups (Linux 6.18) or by the real ids (6.15 and before, unless the change was carried back), which decides whether it clears the ambient set; the one way: $suid_alice is set-user-ID to uid 4001" \
	"$suid_alice" --ruid=4001 --euid=4002 --regid=4001 --clear-groups $amb
doc_has "fix:       take the set-user-ID and set-group-ID bits away (chmod ug-s)"

# A process that called setfsgid(2) (exec sets the filesystem gid back
# to the effective one, so only --pid shows one): this kernel checks the
# new effective gid against the filesystem gid and the groups, and an
# effective gid outside them is a change of ids at any exec, which
# clears the ambient set. The reason is that, not a rule of kernels
# before 6.16 (it said so); with the filesystem gid equal to the
# effective one, the same session keeps it.
# fsgid_session LABEL WANT PWANT TEXT FILE FSGID SETPRIV-OPTIONS...
fsgid_session() {
	label=$1 want=$2 pwant=$3 text=$4 file=$5 fsg=$6
	shift 6
	# (the last call's "ready" must not be taken for this one's)
	rm -f "$T/fsgid.out"
	setpriv "$@" "$BIN/fsgid" "$fsg" - >"$T/fsgid.out" 2>&1 &
	spid=$!
	i=0
	while ! grep -qx ready "$T/fsgid.out" 2>/dev/null && [ $i -lt 100 ]; do
		sleep 0.05; i=$((i + 1))
	done
	ours "$doctor_bin" --pid="$spid" --pam-dir="$T/nopam" \
		--config="$T/empty.conf" "$file" >"$T/doc" 2>&1
	d=$?
	kill "$spid"; wait "$spid" 2>/dev/null
	setpriv "$@" "$BIN/fsgid" "$fsg" "$file" >"$T/probe.out" 2>&1; r=$?
	[ $r -eq 0 ] || r=1
	if [ $d -ne "$want" ] || [ $r -ne "$pwant" ]; then
		fail "$label: doctor exit $d, probe exit $r, want $want and $pwant"
		sed 's/^/    /' "$T/fsgid.out" "$T/doc" "$T/probe.out"
	elif ! grep -qF -- "$text" "$T/doc"; then
		fail "$label: no '$text' in:"; sed 's/^/    /' "$T/doc"
	else
		ok "$label: doctor and kernel agree: $(grep '^verdict' "$T/doc" | cut -c1-90)"
	fi
}
# shellcheck disable=SC2086
fsgid_session "effective gid outside the filesystem gid and groups, ambient cap_perfmon" 1 1 \
	"verdict:   NO: the session's effective gid 4002 is neither its filesystem gid (4001) nor one of its groups" \
	"$plainprobe" 4001 --reuid=4001 --rgid=4001 --egid=4002 --clear-groups $amb
doc_has "fix:       run perf from a process whose filesystem gid is its effective gid"
# shellcheck disable=SC2086
fsgid_session "filesystem gid the effective one, ambient cap_perfmon" 0 0 \
	"verdict:   YES" "$plainprobe" 4002 --reuid=4001 --rgid=4001 --egid=4002 --clear-groups $amb

# no_new_privs: exec ignores the bit, which is the reason (it said only
# that the file carries no cap_perfmon, and suggested file capabilities,
# which no_new_privs keeps from counting too).
chown 0:0 "$ids"
chmod 4755 "$ids"
# shellcheck disable=SC2086
in_session "alice under no_new_privs, set-user-ID root" 1 1 \
	"verdict:   NO: the session has no_new_privs set, so exec ignores the set-user-ID and set-group-ID bits of $ids" \
	"$ids" $alice_s --no-new-privs
doc_has "fix:       run perf from a session without NoNewPrivileges= (systemd) or no_new_privs"

# A script's interpreter set-user-ID root: exec applies the interpreter's
# bit, not the script's, and the probe opens its event. perfdoctor does
# not judge the interpreter in the script's place, but no longer says NO.
chown 0:0 "$ids"
chmod 4755 "$ids"
printf '#!%s\n' "$ids" >"$T/suid-script"
chmod 0755 "$T/suid-script"
# shellcheck disable=SC2086
in_session "alice, a script whose interpreter is set-user-ID root" 3 0 \
	"verdict:   UNKNOWN: $T/suid-script is a script whose interpreter $ids has set-user-ID or set-group-ID bits or file capabilities" \
	"$T/suid-script" $alice_s
# The same with an interpreter carrying cap_perfmon,cap_syslog=ep, for
# uid 0 under SECBIT_NOROOT (where set-user-ID root would give nothing,
# the interpreter's file capabilities give what perf needs): it was NO.
cp "$BIN/perfprobe-static" "$T/fcaps-interp"
/usr/sbin/setcap cap_perfmon,cap_syslog=ep "$T/fcaps-interp"
printf '#!%s\n' "$T/fcaps-interp" >"$T/fcaps-script"
chmod 0755 "$T/fcaps-script"
in_session "uid 0 under SECBIT_NOROOT, a script whose interpreter has file capabilities" 3 0 \
	"verdict:   UNKNOWN: $T/fcaps-script is a script whose interpreter $T/fcaps-interp has" \
	"$T/fcaps-script" --securebits=+noroot

# An effective uid of 0 alone, a perf with file capabilities lacking
# cap_perfmon: exec gives only the file's (set-user-ID and file
# capabilities mixed), which no new login of root would change, though
# perfdoctor said one would pass and told to log in again.
cp "$BIN/perfprobe-static" "$T/syslog"
/usr/sbin/setcap cap_syslog=ep "$T/syslog"
# shellcheck disable=SC2086
in_session "effective uid 0 alone, cap_syslog=ep" 1 1 \
	"verdict:   NO: $T/syslog carries no cap_perfmon" \
	"$T/syslog" --ruid=4001 --euid=0 --regid=4001 --groups=4001,4100
doc_lacks "log in again"

# In a user namespace of alice's (her uid its 0), her own set-user-ID
# file shows as root's: no root-equivalent risk line for it (there was
# one), and NO as the kernel says.
cp "$BIN/perfprobe-static" "$T/hers"
chown 4001:4001 "$T/hers"
chmod 4755 "$T/hers"
# shellcheck disable=SC2086
if setpriv $alice_s unshare -Ur true 2>/dev/null; then
	# shellcheck disable=SC2086
	in_session "alice in her user namespace, her set-user-ID file" 1 1 \
		"verdict:   NO: the session is in a user namespace" \
		"$T/hers" $alice_s unshare -Ur
	doc_lacks "risk:      root-equivalent"
else
	not_checked "no user namespaces for alice: her set-user-ID file's case not run"
fi

# A traced session (alice's strace, without CAP_SYS_PTRACE): exec keeps
# neither what file capabilities add nor a set-user-ID root bit's gain,
# and the probe fails; whether a tracer held CAP_SYS_PTRACE when it
# attached is not to be seen: UNKNOWN (it was YES for both). Capabilities
# the session holds already (ambient) still count: YES.
# traced LABEL DOCTOR-EXIT PROBE-EXIT FILE SETPRIV-OPTIONS...
traced() {
	label=$1 want=$2 pwant=$3 file=$4
	shift 4
	# shellcheck disable=SC2016 # the inner shell expands them
	setpriv "$@" strace -f -qq -o /dev/null sh -c '
		env LD_PRELOAD="$1" NSS_WRAPPER_PASSWD="$2" NSS_WRAPPER_GROUP="$3" \
			ASAN_OPTIONS=verify_asan_link_order=0:detect_leaks=0 $4 "$5" \
			--pam-dir="$6" --config="$7" "$8"
		echo "doctor $?" >&2
		"$8" >/dev/null 2>&1
		echo "probe $?" >&2' sh "$NWRAP" "$T/passwd" "$T/group" "${VALGRIND_CMD:-}" \
		"$doctor_bin" "$T/nopam" "$T/empty.conf" "$file" >"$T/doc" 2>"$T/traced.out"
	[ "$pwant" -eq 0 ] && pw="probe 0" || pw="probe [1-9]"
	if grep -qx "doctor $want" "$T/traced.out" && grep -qx "$pw" "$T/traced.out"; then
		ok "$label: doctor and kernel agree: $(grep '^verdict' "$T/doc" | cut -c1-90)"
	else
		fail "$label: want doctor $want, probe $pwant:"
		sed 's/^/    /' "$T/traced.out" "$T/doc"
	fi
}
if command -v strace >/dev/null; then
	chown 0:0 "$ids"
	chmod 4755 "$ids"
	# shellcheck disable=SC2086
	traced "alice traced, set-user-ID root" 3 1 "$ids" $alice_s
	doc_has "verdict:   UNKNOWN: the session is traced by process"
	cp "$BIN/perfprobe-static" "$T/fcaps"
	/usr/sbin/setcap cap_perfmon,cap_syslog=ep "$T/fcaps"
	# shellcheck disable=SC2086
	traced "alice traced, file capabilities" 3 1 "$T/fcaps" $alice_s
	cp "$BIN/perfprobe-static" "$T/plain"
	# shellcheck disable=SC2086
	traced "alice traced, ambient cap_perfmon" 0 0 "$T/plain" $alice_s $amb
else
	not_checked "no strace: the traced session's cases not run"
fi

# A nosuid mount, in a private mount namespace: doctor and probe both there.
unshare -m --propagation private sh -s "$T" "$BIN/perfprobe" "$doctor_bin" "$NWRAP" <<'EOF' >"$T/ns.out" 2>&1
T=$1 probe=$2 doctor=$3 nwrap=$4
mkdir "$T/nosuid"
mount -t tmpfs -o nosuid,mode=0755 none "$T/nosuid" || exit 3
cp "$probe" "$T/nosuid/perf"
/usr/sbin/setcap cap_perfmon,cap_syslog=ep "$T/nosuid/perf"
cp "$probe-static" "$T/nosuid/suid"
chmod 4755 "$T/nosuid/suid"
LD_PRELOAD="$nwrap" NSS_WRAPPER_PASSWD="$T/passwd" NSS_WRAPPER_GROUP="$T/group" \
	ASAN_OPTIONS=verify_asan_link_order=0 "$doctor" --user=alice --pam-dir="$T/nopam" --config="$T/empty.conf" "$T/nosuid/perf"
echo "doctor exit $?"
setpriv --reuid=4001 --regid=4001 --groups=4001,4100 sh -c 'exec "$0"' "$T/nosuid/perf"
echo "probe exit $?"
LD_PRELOAD="$nwrap" NSS_WRAPPER_PASSWD="$T/passwd" NSS_WRAPPER_GROUP="$T/group" \
	ASAN_OPTIONS=verify_asan_link_order=0 "$doctor" --user=alice --pam-dir="$T/nopam" --config="$T/empty.conf" "$T/nosuid/suid"
echo "suid doctor exit $?"
setpriv --reuid=4001 --regid=4001 --groups=4001,4100 sh -c 'exec "$0"' "$T/nosuid/suid"
echo "suid probe exit $?"
umount "$T/nosuid"
EOF
case $? in
3) not_checked "cannot mount a tmpfs in a mount namespace; nosuid case not run" ;;
*) if grep -q "^doctor exit 1" "$T/ns.out" && grep -q "^probe exit 1" "$T/ns.out" &&
	grep -q "verdict:   NO: $T/nosuid/perf is on a filesystem mounted nosuid, where the kernel ignores file capabilities" "$T/ns.out"; then
	ok "nosuid mount: doctor and kernel agree: NO"
   else
	fail "nosuid mount:"; sed 's/^/    /' "$T/ns.out"
   fi
   if grep -q "^suid doctor exit 1" "$T/ns.out" && grep -q "^suid probe exit 1" "$T/ns.out"; then
	ok "set-user-ID root on a nosuid mount: doctor and kernel agree: NO"
   else
	fail "set-user-ID root on a nosuid mount:"; sed 's/^/    /' "$T/ns.out"
   fi ;;
esac

# Errors: unknown user, bad or missing process.
ours "$doctor_bin" --user=no-such-user-here --pam-dir="$T/nopam" \
	--config="$T/empty.conf" "$perf" >"$T/doc" 2>&1
[ $? -eq 2 ] && pass || fail "unknown user should exit 2"
doc_has "perfdoctor: user 'no-such-user-here' is not known"
run_ours "$doctor_bin" --pid=abc >"$T/doc" 2>&1
[ $? -eq 2 ] && pass || fail "bad --pid should exit 2"
run_ours "$doctor_bin" --pid=999999 --pam-dir="$T/nopam" --config="$T/empty.conf" "$perf" >"$T/doc" 2>&1; d=$?
[ $d -eq 2 ] && pass || { fail "--pid of a missing process: exit $d, want 2"; sed 's/^/    /' "$T/doc"; }
doc_has "perfdoctor: process 999999: no such process"

# Anyone may name a file: a name cannot forge a line or reach the
# terminal raw.
evil="$T/x
verdict:   YES: forged$(printf '\033')[2J"
cp "$BIN/perfprobe" "$evil"
doctor alice "$evil"
grep -q "^verdict:   YES: forged" "$T/doc" && fail "a file name forged a verdict line" || pass
grep -q "$(printf '\033')" "$T/doc" && fail "an ESC reached the output" || pass
doc_has 'x\012verdict:   YES: forged\033[2J'
finish
