#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# docs/deployment.md's table of which logins apply a pam_cap grant, and
# README.Debian's advice on checking one from root, run with the real su,
# runuser and login: from a root shell, "su - alice", "su alice" and
# "runuser -l alice" never reach pam_cap (pam_rootok ends the auth stack
# first; runuser has no other auth module), so alice's shell shows "=";
# "su - alice" typed by another, ordinary user and "login -f alice" typed
# by root on a terminal do, and show "cap_perfmon=i". (README.Debian once
# sent people to "su - alice" from root to see their grant.)
#
# Where: a throw-away root, an overlay over / (writes go to a tmpfs) in a
# private mount namespace, chrooted into: users alice (in perf_users) and
# bob with empty passwords; PAM's su, runuser, runuser-l and login as
# Debian ships them, reduced to the lines that decide; common-auth as
# pam-auth-update writes it with libpam-cap's profile; the capability.conf
# debian/ ships, with the grant put above its "none *" as the guides say;
# our pam_cap.so and getpcaps. The host's /etc and binaries are never
# written.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init

ma=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || echo x86_64-linux-gnu)

inside() {
	W=$T/w m=$T/w/m
	mkdir -p "$W" && mount -t tmpfs -o mode=0755 tmpfs "$W" &&
	mkdir "$W/u" "$W/wk" "$m" &&
	mount -t overlay overlay -o "lowerdir=/,upperdir=$W/u,workdir=$W/wk" "$m" ||
		{ fail "cannot mount an overlay over /"; finish; }
	for d in proc sys dev; do mount --rbind "/$d" "$m/$d" || { fail "bind /$d"; finish; }; done
	# nscd would answer from the host's cache.
	[ -d "$m/run/nscd" ] && mount -t tmpfs none "$m/run/nscd"

	login_world "$m" || { fail "cannot write the world's users and PAM stacks"; finish; }

	conf=$m/etc/security/capability.conf
	mkdir -p "$m/etc/security" &&
	install -m 0644 "$TOP/debian/capability.conf" "$conf" &&
	sed -i '1i cap_perfmon @perf_users' "$conf" &&
	install -m 0644 "$BUILD/pam_cap/pam_cap.so" "$m/usr/lib/$ma/security/pam_cap.so" &&
	install -m 0755 "$BUILD/progs/getpcaps" "$m/usr/sbin/getpcaps" ||
		{ fail "cannot build the world"; finish; }

	# run WHO COMMAND...: COMMAND in the world, from a shell of WHO,
	# alice's shell printing getpcaps $$.
	show='/usr/sbin/getpcaps $$'
	world() {
		timeout 30 chroot "$m" /usr/bin/env -i LANG=C TERM=dumb \
			PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "$@" </dev/null
	}
	# expect LABEL SETS: alice's shell printed "PID: SETS".
	expect() {
		if grep -Eq "^[0-9]+: $2\$" "$T/out"; then
			ok "$1: $2"
		else
			fail "$1: want '$2' from alice's shell, got:"
			sed 's/^/    /' "$T/out" | tail -n 8
		fi
	}

	world su - alice -c "$show" >"$T/out" 2>&1
	expect "root's su - alice (pam_rootok ends the auth stack)" =
	world su alice -c "$show" >"$T/out" 2>&1
	expect "root's su alice" =
	world runuser -l alice -c "$show" >"$T/out" 2>&1
	expect "root's runuser -l alice (no auth module but pam_rootok)" =
	world su bob -c "su - alice -c '$show'" >"$T/out" 2>&1
	expect "bob's su - alice (through common-auth)" cap_perfmon=i
	# login wants a terminal: script gives it one; alice's shell reads
	# its commands from it.
	printf '%s\nexit\n' "$show" |
		timeout 30 chroot "$m" /usr/bin/env -i LANG=C TERM=dumb \
			PATH=/usr/sbin:/usr/bin:/sbin:/bin \
			script -qec 'login -f alice' /dev/null 2>&1 | tr -d '\r' |
		sed 's/^\$ //' >"$T/out"
	expect "root's login -f alice on a terminal" cap_perfmon=i

	umount -R "$m" 2>/dev/null || umount -R -l "$m"
	umount "$W"
	finish "su and runuser from root show no grant; another user's su and root's login -f do"
}

if [ "${1:-}" = --inside ]; then
	inside
	exit $?
fi

[ "$(id -u)" -eq 0 ] || skip "needs root (mount namespace, overlay, chroot)"
skip_if_sanitized "the logins run the plain build's pam_cap.so"
for tool in unshare chroot su runuser login script timeout; do
	command -v "$tool" >/dev/null 2>&1 || skip "$tool not found"
done
grep -qw overlay /proc/filesystems || modprobe overlay 2>/dev/null ||
	skip "the kernel has no overlay filesystem"
[ -f "$BUILD/pam_cap/pam_cap.so" ] || skip "pam_cap.so is not built yet"
[ -x "$BUILD/progs/getpcaps" ] || skip "getpcaps is not built yet"
[ -d "/usr/lib/$ma/security" ] || skip "no PAM module directory /usr/lib/$ma/security"

LIB_T=$T LIB_COUNTS=$T/inside.counts unshare -m --propagation private sh "$0" --inside && pass ||
	fail "in the throw-away root (above)"
add_counts "$T/inside.counts"
finish
