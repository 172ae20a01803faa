#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# docs/deployment.md's ssh row, with a real sshd (Debian's openssh-server):
# OpenSSH calls pam_setcred() in its process for the user, before that
# process switches to the user and starts the session's shell, so pam_cap's
# inheritable grant reaches the session, and nothing more. alice (in
# perf_users by its member list) and bob (not in it) log in by public key,
# by password and by keyboard-interactive (PAM's own conversation); in each
# session a command prints its shell's Cap* lines and those of its parent
# (sshd's process for the user), and runs a perf probe (a CPU-wide
# perf_event_open()) carrying cap_perfmon=ei, and a copy carrying nothing.
# alice's session holds exactly cap_perfmon inheritable and the probe with
# the file's inheritable bit opens the event; bob's holds nothing and his
# probe is refused (perf_event_paranoid >= 1); the plain probe is refused
# to both; no permitted, effective or ambient set holds anything, the
# bounding set is sshd's, and sshd's log says the method each login used.
# Then, by public key: without the grant line in capability.conf alice
# gets nothing (the grant came from the file); "^cap_perfmon @perf_users"
# (an ambient grant) gives the ssh session the inheritable part only; and
# "keepcaps defer" in sshd's stack gives the session nothing while sshd's
# process for the user keeps root's permitted set under alice's id, as
# docs/deployment.md warns.
#
# Where: a throw-away root as in docs_logins.sh (an overlay over / in a
# private mount namespace, chrooted into), in a network namespace of its
# own (sshd listens on its private 127.0.0.1) and a PID namespace of its
# own (sshd and every session die with it; checked): login_world's users
# with passwords in the world's shadow, a "sshd" privilege separation
# user, sshd's PAM stack reduced to Debian's includes, Debian's
# capability.conf with the grant above its "none *", our pam_cap.so (on
# our libcap.so.2; checked) in the world's module directory; sshd's
# configuration, host key (sshd -f, no pid file), the client's key,
# known_hosts and askpass in /sshtest of the world. The host's /etc is
# never written (/etc/ssh, /etc/pam.d and /etc/security are checked), nor
# are its sshd configuration and host keys used.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init

ma=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || echo x86_64-linux-gnu)
PORT=2022
GRANT=0000004000000000		# cap_perfmon (38)
NONE=0000000000000000

inside() {
	readlink /proc/self/ns/pid >"$T/pidns"
	ip link set lo up || { fail "cannot bring up the loopback of the network namespace"; finish; }
	W=$T/w m=$T/w/m
	throwaway_root "$W" || { fail "cannot make the throw-away root"; finish; }
	# pam_cap.so finds our libcap.so.2 by its RUNPATH, $BUILD/libcap:
	# there in the world too, wherever the build tree is mounted.
	mkdir -p "$m$BUILD" && mount --bind "$BUILD" "$m$BUILD" ||
		{ fail "cannot bind $BUILD into the world"; finish; }

	login_world "$m" || { fail "cannot write the world's users and PAM stacks"; finish; }
	# Passwords for the password and keyboard-interactive logins (sshd
	# refuses empty ones), hashed by the C library's crypt().
	for u in alice bob; do
		h=$(perl -e 'print crypt($ARGV[0], "\$6\$sshdtest\$")' "$u-pw") &&
			sed -i "s|^$u::|$u:$h:|" "$m/etc/shadow" || { fail "cannot set $u's password"; finish; }
	done
	echo 'sshd:x:4799:65534:sshd privilege separation:/run/sshd:/usr/sbin/nologin' >>"$m/etc/passwd"
	printf '%s\n' '@include common-auth' '@include common-account' \
		'@include common-session' >"$m/etc/pam.d/sshd"
	S=$m/sshtest
	mkdir -p "$m/run/sshd" "$S/keys" "$S/client" "$m/etc/security" &&
	chmod 0755 "$m/run/sshd" "$S" "$S/keys" &&
	install -m 0644 "$TOP/debian/capability.conf" "$S/capability.conf.debian" &&
	{ echo 'cap_perfmon @perf_users'; cat "$S/capability.conf.debian"; } >"$S/capability.conf.grant" &&
	install -m 0644 "$S/capability.conf.grant" "$m/etc/security/capability.conf" &&
	install -m 0644 "$BUILD/pam_cap/pam_cap.so" "$m/usr/lib/$ma/security/pam_cap.so" ||
		{ fail "cannot build the world"; finish; }
	# The module sshd loads is ours, on our libcap.so.2.
	if chroot "$m" ldd "/usr/lib/$ma/security/pam_cap.so" 2>&1 |
		grep -q "libcap.so.2 => $BUILD/libcap/libcap.so.2 " &&
		cmp -s "$BUILD/pam_cap/pam_cap.so" "$m/usr/lib/$ma/security/pam_cap.so"; then
		pass
	else
		fail "the world's pam_cap.so is not ours on our libcap.so.2:"
		chroot "$m" ldd "/usr/lib/$ma/security/pam_cap.so" 2>&1 | sed 's/^/    /'
	fi

	ssh-keygen -q -t ed25519 -N '' -C sshd-test -f "$S/host_key" &&
	ssh-keygen -q -t ed25519 -N '' -C client-test -f "$S/client/id" &&
	install -m 0644 "$S/client/id.pub" "$S/keys/alice" &&
	install -m 0644 "$S/client/id.pub" "$S/keys/bob" &&
	echo "[127.0.0.1]:$PORT $(cut -d' ' -f1,2 "$S/host_key.pub")" >"$S/client/known_hosts" ||
		{ fail "cannot make the keys"; finish; }
	# ssh asks for a password (and answers PAM's "Password:" prompt) here.
	printf '#!/bin/sh\necho "$PW"\n' >"$S/askpass" &&
	chmod 0755 "$S/askpass" &&
	cp "$BIN/perfprobe" "$S/perf-ei" && cp "$BIN/perfprobe" "$S/perf-plain" &&
	chmod 0755 "$S/perf-ei" "$S/perf-plain" &&
	"$BUILD/progs/setcap" cap_perfmon=ei "$S/perf-ei" ||
		{ fail "cannot make the probes"; finish; }

	cat >"$S/sshd_config" <<EOF
Port $PORT
ListenAddress 127.0.0.1
HostKey /sshtest/host_key
PidFile none
UsePAM yes
PubkeyAuthentication yes
AuthorizedKeysFile /sshtest/keys/%u
PasswordAuthentication yes
KbdInteractiveAuthentication yes
PermitEmptyPasswords no
PermitRootLogin no
AllowUsers alice bob
StrictModes yes
UseDNS no
PrintMotd no
PrintLastLog no
PermitTTY no
X11Forwarding no
AllowTcpForwarding no
AllowAgentForwarding no
LogLevel INFO
EOF
	: >"$T/sshd.log"
	chroot "$m" /usr/sbin/sshd -D -e -f /sshtest/sshd_config 2>>"$T/sshd.log" </dev/null &
	sshd_pid=$!
	# This run has no lib.sh exit trap (the outer run's removes $T):
	# sshd goes on every way out of it, and were this shell killed, the
	# end of the PID namespace takes sshd and its sessions with it.
	trap 'kill $sshd_pid 2>/dev/null && wait $sshd_pid' EXIT
	trap 'exit 129' HUP
	trap 'exit 130' INT
	trap 'exit 143' TERM
	i=0
	until grep -q "Server listening on 127.0.0.1 port $PORT" "$T/sshd.log"; do
		i=$((i + 1))
		if [ $i -gt 200 ] || ! kill -0 $sshd_pid 2>/dev/null; then
			fail "sshd did not start listening:"
			sed 's/^/    /' "$T/sshd.log"
			finish
		fi
		sleep 0.05
	done

	[ -n "$SSHD_PROBE" ] || not_checked "the perf probe in each session: perf_event_paranoid=$paranoid lets anybody open CPU-wide events"
	bnd=$(sed -n 's/^CapBnd:[[:space:]]*//p' /proc/self/status)
	# What the session prints: its shell's sets, its parent's (sshd's
	# process for the user) prefixed "parent ", and both probes' exits.
	show='grep "^Cap" /proc/$$/status; grep -E "^(Name|Cap)" /proc/$PPID/status | sed "s/^/parent /"; /sshtest/perf-ei; echo "ei=$?"; /sshtest/perf-plain; echo "plain=$?"'
	logins=0 parent_prm=$NONE
	for method in publickey password keyboard-interactive; do
		ssh_login "$method" alice "$GRANT" 0
		ssh_login "$method" bob "$NONE" 1
	done

	# The member's grant came from the line: without it, nothing.
	install -m 0644 "$S/capability.conf.debian" "$m/etc/security/capability.conf"
	ssh_login publickey alice "$NONE" 1 "without the grant line"
	# An ambient grant, with "keepcaps" kept out of sshd's stack as
	# docs/deployment.md says: OpenSSH applies the tuple before switching
	# user, which clears the ambient set, so the session gets the
	# inheritable part only.
	{ echo '^cap_perfmon @perf_users'; cat "$S/capability.conf.debian"; } >"$m/etc/security/capability.conf"
	ssh_login publickey alice "$GRANT" 0 "^cap_perfmon: no ambient set"
	# "keepcaps defer" reaching sshd's stack (through common-auth): the
	# deferred tuple is never applied in the session (OpenSSH ends PAM
	# in another process), and sshd's process for the user, which sets
	# keep-capabilities and never execs, keeps root's permitted set as
	# alice for the whole session: the hazard docs/deployment.md warns of.
	sed -i 's/^auth optional pam_cap.so$/& keepcaps defer/' "$m/etc/pam.d/common-auth"
	grep -qx 'auth optional pam_cap.so keepcaps defer' "$m/etc/pam.d/common-auth" ||
		fail "common-auth has no pam_cap line to give 'keepcaps defer'"
	parent_prm=$(sed -n 's/^CapPrm:[[:space:]]*//p' /proc/self/status)
	ssh_login publickey alice "$NONE" 1 "^cap_perfmon, keepcaps defer in sshd's stack"
	parent_prm=$NONE

	kill $sshd_pid && wait $sshd_pid
	trap - EXIT
	# Nothing of sshd's is left in the PID namespace (whose /proc this
	# is): the last session's sshd may still be ending PAM for a moment.
	i=0
	while left=$(grep -lx sshd /proc/[0-9]*/comm 2>/dev/null) && [ $i -lt 100 ]; do
		i=$((i + 1))
		sleep 0.05
	done
	[ -z "$left" ] && pass || fail "sshd processes left 5 s after sshd was killed: $left"
	umount -R "$m" 2>/dev/null || umount -R -l "$m"
	umount "$W"
	finish "$logins ssh logins through our pam_cap: the member's session holds cap_perfmon inheritable and nothing more, the non-member's nothing"
}

# ssh_login METHOD USER INH EI_RC [NOTE]: USER logs in by METHOD and runs
# $show; its session's inheritable set must be INH, its other sets empty
# but the bounding set (sshd's), its parent's likewise but for the
# permitted set, $parent_prm; the probe with cap_perfmon=ei must exit
# EI_RC, the plain one 1, and sshd's log must say USER was accepted by
# METHOD.
ssh_login() {
	method=$1 user=$2 inh=$3 ei=$4 note=${5:-}
	label="$user by $method${note:+ ($note)}"
	logins=$((logins + 1))
	case $method in
	publickey) opts="-o BatchMode=yes -o IdentitiesOnly=yes -i /sshtest/client/id" accepted=publickey ;;
	password) opts="-o PubkeyAuthentication=no -o NumberOfPasswordPrompts=1" accepted=password ;;
	*) opts="-o PubkeyAuthentication=no -o NumberOfPasswordPrompts=1" accepted=keyboard-interactive/pam ;;
	esac
	before=$(wc -l <"$T/sshd.log")
	# curve25519 alone: the default hybrid key exchange (sntrup761) would
	# double the suite's CPU time and prove nothing more here.
	# shellcheck disable=SC2086 # opts are words
	timeout 30 chroot "$m" /usr/bin/env -i LANG=C HOME=/sshtest/client \
		PATH=/usr/sbin:/usr/bin:/sbin:/bin SSH_ASKPASS=/sshtest/askpass \
		SSH_ASKPASS_REQUIRE=force PW="$user-pw" \
		ssh -F /dev/null -p $PORT -o IdentityAgent=none \
		-o UserKnownHostsFile=/sshtest/client/known_hosts \
		-o GlobalKnownHostsFile=/dev/null -o StrictHostKeyChecking=yes \
		-o ConnectTimeout=10 -o LogLevel=ERROR -o KexAlgorithms=curve25519-sha256 \
		-o PreferredAuthentications=$method $opts \
		"$user@127.0.0.1" "$show" </dev/null >"$T/out" 2>"$T/err"
	ssh_rc=$?
	bad=
	sets() {	# sets PREFIX SET WANT
		got=$(sed -n "s/^$1$2:[[:space:]]*//p" "$T/out")
		[ "$got" = "$3" ] || bad="$bad${bad:+; }$1$2 $got, want $3"
	}
	for p in '' 'parent '; do
		sets "$p" CapInh "$inh"
		if [ -n "$p" ]; then sets "$p" CapPrm "$parent_prm"; else sets "$p" CapPrm "$NONE"; fi
		sets "$p" CapEff "$NONE"
		sets "$p" CapAmb "$NONE"
		sets "$p" CapBnd "$bnd"
	done
	grep -qx 'parent Name:[[:space:]]*sshd' "$T/out" ||
		bad="$bad${bad:+; }the session's parent is not sshd"
	if [ -n "$SSHD_PROBE" ]; then
		grep -qx "ei=$ei" "$T/out" || bad="$bad${bad:+; }the cap_perfmon=ei probe did not exit $ei"
		grep -qx 'plain=1' "$T/out" || bad="$bad${bad:+; }the plain probe did not exit 1"
	fi
	sed -n "$((before + 1)),\$p" "$T/sshd.log" >"$T/sshd.new"
	grep -q "Accepted $accepted for $user from 127.0.0.1 " "$T/sshd.new" ||
		bad="$bad${bad:+; }sshd's log has no 'Accepted $accepted for $user'"
	if [ "$ssh_rc" -eq 0 ] && [ -z "$bad" ]; then
		ok "$label: CapInh $inh${SSHD_PROBE:+, probe exit $ei}"
	else
		fail "$label: ssh exit $ssh_rc; $bad"
		sed 's/^/    out: /' "$T/out"; sed 's/^/    err: /' "$T/err"
		sed 's/^/    sshd: /' "$T/sshd.new" | tail -n 8
	fi
}

if [ "${1:-}" = --inside ]; then
	inside
	exit $?
fi

[ "$(id -u)" -eq 0 ] || skip "needs root (namespaces, overlay, chroot, sshd)"
skip_if_sanitized "sshd, a plain program, loads the plain build's pam_cap.so"
[ -x /usr/sbin/sshd ] || skip "sshd not found: install openssh-server"
command -v ssh >/dev/null 2>&1 && command -v ssh-keygen >/dev/null 2>&1 ||
	skip "ssh or ssh-keygen not found: install openssh-client"
for tool in unshare chroot ip perl timeout; do
	command -v "$tool" >/dev/null 2>&1 || skip "$tool not found"
done
grep -qw overlay /proc/filesystems || modprobe overlay 2>/dev/null ||
	skip "the kernel has no overlay filesystem"
[ -f "$BUILD/pam_cap/pam_cap.so" ] || skip "pam_cap.so is not built yet"
[ -x "$BUILD/progs/setcap" ] || skip "setcap is not built yet"
[ -x "$BIN/perfprobe" ] || skip "the perf probe is not built yet (make -C tests all)"
[ -d "/usr/lib/$ma/security" ] || skip "no PAM module directory /usr/lib/$ma/security"
# The probe proves the grant only where the kernel refuses CPU-wide
# events to those without CAP_PERFMON.
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null || echo -1)
SSHD_PROBE=
[ "$paranoid" -ge 1 ] && SSHD_PROBE=1
export SSHD_PROBE paranoid

host_state() {
	ls -la --time-style=full-iso /etc/ssh /etc/pam.d /etc/security 2>&1 | sha256sum
}
before=$(host_state)
LIB_T=$T LIB_COUNTS=$T/inside.counts unshare -m -n -p -f --kill-child --mount-proc \
	--propagation private sh "$0" --inside && pass ||
	fail "in the throw-away root (above)"
add_counts "$T/inside.counts"
# The PID namespace died with its first process, and took every sshd
# and session with it.
ns=$(cat "$T/pidns" 2>/dev/null)
left=
for p in /proc/[0-9]*; do
	[ "$(readlink "$p/ns/pid" 2>/dev/null)" = "$ns" ] && left="$left ${p#/proc/}"
done
[ -n "$ns" ] && [ -z "$left" ] && pass || fail "processes of the test's PID namespace ($ns) left:$left"
[ "$(host_state)" = "$before" ] && pass || fail "the host's /etc/ssh, /etc/pam.d or /etc/security changed"
finish
