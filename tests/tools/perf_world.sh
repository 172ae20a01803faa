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
#   perfdoctor_world        the perfdoctor suites' fake root, and the pd_
#                           helpers that run perfdoctor and its fixes in it
#                           (see there; other suites need not call it)
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

nss() { in_nss_world "$@"; }	# lib.sh's, on pam_world's $T/passwd, $T/group

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

# held_session PID: waits, 5 s at most, until PID (a setpriv or setsid
# that execs sleep once it took its credentials) runs sleep: before that
# it still has the credentials it was started with. 1 when it never did.
held_session() {
	_held=0
	while [ "$(readlink "/proc/$1/exe" 2>/dev/null)" != "$(command -v sleep)" ]; do
		_held=$((_held + 1))
		[ $_held -le 100 ] || return 1
		sleep 0.05
	done
}

probe_as() {
	as_user "$1" "$2" "$3" sh -c 'exec "$0"' "$4" >"$T/probe.out" 2>&1
}

# perfdoctor_world: the perfdoctor suites' fake root, after pam_world's
# users, groups and stacks: perf at $PERF ($ROOT/usr/bin/perf), the
# capability.conf at $CONF, the user database in $ROOT/etc (pam_world's
# $T/passwd and $T/group lead there), PAM stacks in $PAMD; $T/bin holds
# what a pasted fix runs: our setcap, and usermod and groupadd acting on
# $ROOT only (--prefix). The pd_ helpers below work in it.
perfdoctor_world() {
	doctor_bin=$BUILD/progs/perfdoctor
	ROOT=$T/root
	PERF=$ROOT/usr/bin/perf
	CONF=$ROOT/etc/security/capability.conf
	PAMD=$T/svc
	mkdir -p "$ROOT/usr/bin" "$ROOT/etc/security" "$T/bin"
	chmod 755 "$ROOT" "$ROOT/usr" "$ROOT/usr/bin" "$ROOT/etc" "$ROOT/etc/security"
	# The user database lives in the fake root; pam_world's names lead there.
	mv "$T/passwd" "$ROOT/etc/passwd"
	mv "$T/group" "$ROOT/etc/group"
	: >"$ROOT/etc/shadow"
	ln -s "$ROOT/etc/passwd" "$T/passwd"
	ln -s "$ROOT/etc/group" "$T/group"
	cp "$ROOT/etc/passwd" "$T/passwd.orig"
	cp "$ROOT/etc/group" "$T/group.orig"
	# What a pasted fix runs: our setcap, and usermod and groupadd on the
	# fake root only.
	ln -s "$BUILD/progs/setcap" "$T/bin/setcap"
	for c in usermod groupadd; do
		printf '#!/bin/sh\nexec /usr/sbin/%s --prefix "%s" "$@"\n' "$c" "$ROOT" >"$T/bin/$c"
		chmod 755 "$T/bin/$c"
	done
	# Never the host's: the shims must be what the fixes find.
	[ "$(PATH="$T/bin:$PATH" command -v usermod)" = "$T/bin/usermod" ] ||
		{ fail "the usermod shim is not first on PATH"; finish; }
}

# pd_world: the database as pam_world made it, no capability.conf, and a
# login stack whose pam_cap reads $CONF.
pd_world() {
	cp "$T/passwd.orig" "$ROOT/etc/passwd"
	cp "$T/group.orig" "$ROOT/etc/group"
	rm -f "$ROOT/etc/passwd-" "$ROOT/etc/group-" "$CONF"
	printf 'auth required pam_permit.so\nauth optional %s config=%s\n' \
		"$OURS" "$CONF" >"$PAMD/login"
}
# pd_perf_file MODE OWNER GROUP [CAPS]: a fresh probe at $PERF.
pd_perf_file() {
	rm -f "$PERF"
	cp "$BIN/perfprobe" "$PERF"
	nss chown "$2:$3" "$PERF"
	chmod "$1" "$PERF"
	[ -z "${4:-}" ] || /usr/sbin/setcap "$4" "$PERF"
}
# perf_as_setcap_perf FILE: a probe at FILE as `setcap --perf` leaves perf:
# group perf_users, 0750, cap_perfmon and cap_syslog in its permitted and
# effective sets.
perf_as_setcap_perf() {
	cp "$BIN/perfprobe" "$1" &&
		chgrp 4100 "$1" &&
		chmod 0750 "$1" &&
		/usr/sbin/setcap cap_perfmon,cap_syslog=ep "$1"
}
# pd_doctor ARGS...: perfdoctor in the world; $d is its exit status.
pd_doctor() {
	ours "$doctor_bin" --pam-dir="$PAMD" --service=login --config="$CONF" \
		"$@" >"$T/doc" 2>&1
	d=$?
}
pd_fixes() {
	sed -n 's/^fix:       //p' "$T/doc"
}
# pd_expect_fixes LABEL LINES: the fix lines are exactly LINES.
pd_expect_fixes() {
	pd_fixes >"$T/fixlines"
	if printf '%s\n' "$2" | cmp -s - "$T/fixlines"; then
		pass
	else
		fail "$1: fix lines (- wanted, + got)"
		printf '%s\n' "$2" | diff -u - "$T/fixlines" | sed '1,2d; s/^/    /'
		sed 's/^/    | /' "$T/doc"
	fi
}
# pd_apply LABEL: runs the fix lines that are commands, as pasted into sh
# (the rest are words for a person, which the case carries out).
pd_apply() {
	pd_fixes | grep -E '^(setcap|usermod|groupadd|chown|chmod|sed|printf) ' >"$T/apply.sh"
	[ -s "$T/apply.sh" ] || { fail "$1: no command among the fixes"; return 1; }
	if ! PATH="$T/bin:$PATH" nss sh -e "$T/apply.sh" >"$T/apply.out" 2>&1; then
		fail "$1: the pasted fixes failed:"
		sed 's/^/    | /' "$T/apply.sh" "$T/apply.out"
		return 1
	fi
}
# pd_now_yes LABEL ARGS...: perfdoctor now answers YES, with no fix.
pd_now_yes() {
	label=$1
	shift
	pd_doctor "$@"
	if [ $d -eq 0 ] && grep -q '^verdict:   YES' "$T/doc" && ! grep -q '^fix:' "$T/doc"; then
		ok "$label: after the fix: $(grep '^verdict' "$T/doc")"
	else
		fail "$label: after the fix, exit $d:"; sed 's/^/    | /' "$T/doc" "$T/apply.sh"
	fi
}
# pd_creds USER: uid gid groups of a new login of USER, from the database.
pd_creds() {
	echo "$(nss id -u -- "$1") $(nss id -g -- "$1") $(nss id -G -- "$1" | tr ' ' ,)"
}
# pd_kernel_yes LABEL USER [FILE]: the probe, run with USER's database
# credentials, opens its event.
pd_kernel_yes() {
	# shellcheck disable=SC2046 # three words
	if probe_as $(pd_creds "$2") "${3:-$PERF}"; then
		pass
	else
		fail "$1: the probe as $2 ($(pd_creds "$2")): $(cat "$T/probe.out")"
	fi
}
# pd_login_yes LABEL USER [FILE]: a real login of USER through $PAMD/login
# (auth, setcred, become the user, pam_end silent: util-linux login),
# then the probe opens its event.
pd_login_yes() {
	if VALGRIND_CMD='' pam -s login -u "$2" -x "${3:-$PERF}" auth setcred \
		become end=silent >"$T/login.out"; then
		pass
	else
		fail "$1: a real login of $2, then the probe:"
		sed 's/^/    | /' "$T/login.out" "$T/log"
	fi
}
# pd_fixed LABEL FIXES ARGS...: perfdoctor ARGS says NO with exactly FIXES;
# applied, they make it say YES.
pd_fixed() {
	label=$1 want=$2
	shift 2
	pd_doctor "$@"
	[ $d -eq 1 ] || { fail "$label: exit $d before the fix, want 1"; sed 's/^/    | /' "$T/doc"; }
	pd_expect_fixes "$label" "$want"
	pd_apply "$label" && pd_now_yes "$label" "$@"
}

