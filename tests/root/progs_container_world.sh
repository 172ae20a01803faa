#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# The suite must pass where containers run it, and leave the host as it
# was. In a private mount namespace this suite builds a world the way a
# container runtime does and enters it with pivot_root:
#   - / is an overlay whose lower layer is the host's root (on its disk)
#     and whose upper layer is a tmpfs: a container root whose layers sit
#     on two file systems, with what that changes (the st_dev stat()
#     gives is the overlay's, not the device /proc/PID/maps names; a
#     write copies the file up);
#   - /etc/security is a read-only bind of a Kubernetes ConfigMap-style
#     volume: a directory of mode 0777 holding "..data" pointing at a
#     timestamped directory of root's 0644 files (the host's own, copied,
#     capability.conf with a grant for perf_users first), and one symbolic
#     link per file through "..data"; a real su login there gets the grant;
#   - tracefs is root's, mode 0700, as systemd mounts it at boot (set
#     under the machine-wide tracefs lock, and put back at the end);
#   - /proc, /sys and /dev are bound in, as a runtime does, and the
#     suites tagged "container-noproc" (libpsx's) run again with /proc
#     unmounted, as a runtime that mounts none leaves it.
# It checks from the inside that each of these holds, then runs there the
# suites tests/suites.conf tags "container". Any of them failing fails this
# suite. Outside, before and after, it compares what it must not change:
# the host's /etc/security, its tracefs, and its mount table (none of the
# world's mounts there).
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
[ "$(id -u)" -eq 0 ] || skip "needs root (mount namespace, overlay, pivot_root)"

SUITES=$(sed -n 's/^container:[[:space:]]*//p' "$TESTS_DIR/suites.conf" | tr -s ' \t' '\n\n')
NOPROC=$(sed -n 's/^container-noproc:[[:space:]]*//p' "$TESTS_DIR/suites.conf" | tr -s ' \t' '\n\n')
# The ConfigMap's data directory, as the kubelet names it.
STAMP=..2026_12_05_00_00_00.000000001

# host_state: what the world must never change on the host.
host_state() {
	for f in /etc/security/*; do
		[ -f "$f" ] && echo "$f $(stat -c '%u:%g %a %s' "$f") $(sha256sum <"$f" | cut -c1-64)"
	done
	grep ' /sys/kernel/tracing ' /proc/self/mountinfo | cut -d' ' -f4-6,9- || echo "tracefs not mounted"
	[ -d /sys/kernel/tracing ] && stat -c 'tracing %u:%g %a' /sys/kernel/tracing
	# The world's mounts (all under $T) never reach the host's table.
	grep -F "${T:-/nonexistent}" /proc/self/mountinfo || echo "no mount of the world's"
}

# grant_in FILE: the ConfigMap's capability.conf, as an administrator
# would ship it: perf_users' grant first, then the host's lines (Debian's
# end with "none *"), or that line alone.
grant_in() {
	{ echo "cap_perfmon @perf_users"; cat "$1" 2>/dev/null || echo "none *"; } >"$1.new" &&
		mv "$1.new" "$1" && chmod 0644 "$1"
}

case ${CONTAINER_WORLD:-} in
'')
	command -v unshare >/dev/null || skip "unshare (util-linux) is not installed"
	command -v pivot_root >/dev/null || skip "pivot_root (util-linux) is not installed"
	unshare -m true 2>/dev/null || skip "cannot create a mount namespace"
	[ -n "$SUITES" ] || { echo "FAIL: tests/suites.conf tags no suite container"; exit 1; }
	init
	chmod 755 "$T"
	before=$(host_state)
	# tracefs_mount refuses to act in the namespace it started in.
	LIB_OUTER_MNT_NS=$(readlink /proc/self/ns/mnt) || skip "no /proc/self/ns/mnt"
	export LIB_OUTER_MNT_NS
	# Private propagation: nothing mounted below reaches the host, and
	# every mount goes with the namespace before $T is removed here.
	mkdir "$T/counts"
	if LIB_T=$T LIB_COUNTS=$T/counts/inside CONTAINER_WORLD=build \
		unshare -m --propagation private sh "$0"; then
		ok "the container world's suites"
	else
		fail "in the container world (above)"
	fi
	add_counts "$T/counts/inside"
	after=$(host_state)
	if [ "$before" != "$after" ]; then
		fail "the host changed:"
		printf '%s\n' "$before" >"$T/before"
		printf '%s\n' "$after" | diff "$T/before" - | sed 's/^/    /'
	else
		pass
	fi
	finish "the suites tagged container passed in a container-like world; the host is as before"
	;;
build)
	init	# $T is the outer run's (LIB_T): it removes it, mounts gone
	m=$T/root
	mkdir "$T/layers" "$T/cm" "$m" || exit 1
	# The upper layer on a tmpfs, the lower the host's root: two file
	# systems, the layout that broke capaudit's identity check.
	mount -t tmpfs -o mode=0755 tmpfs "$T/layers" &&
		mkdir "$T/layers/upper" "$T/layers/work" &&
		mount -t overlay overlay \
			-o "lowerdir=/,upperdir=$T/layers/upper,workdir=$T/layers/work" "$m" ||
		{ echo "FAIL: cannot mount an overlay over /"; exit 1; }
	for d in proc sys dev; do
		mount --rbind "/$d" "$m/$d" || { echo "FAIL: cannot bind /$d"; exit 1; }
	done
	# The machine-wide tracefs lock must be the host's file, not a copy
	# in the upper layer.
	mkdir -p /run/lock "$m/run/lock" && mount --bind /run/lock "$m/run/lock" ||
		{ echo "FAIL: cannot bind /run/lock"; exit 1; }
	# Where the run inside says what it checked, for the outer run to count.
	mkdir "$m/run/lib-counts" && mount --bind "${lib_counts%/*}" "$m/run/lib-counts" ||
		{ echo "FAIL: cannot bind the directory of the counts"; exit 1; }
	# The ConfigMap volume: its own tmpfs (as the kubelet's is on the
	# node, out of the container's reach), root 0777 (as such volumes'
	# roots are), root's 0644 files behind ..data, bound read-only.
	mount -t tmpfs -o mode=0777 tmpfs "$T/cm" &&
		mkdir -m 0755 "$T/cm/$STAMP" &&
		cp -a /etc/security/. "$T/cm/$STAMP/" &&
		chown -R 0:0 "$T/cm/$STAMP" &&
		find "$T/cm/$STAMP" -type f -exec chmod 0644 {} + &&
		grant_in "$T/cm/$STAMP/capability.conf" &&
		ln -s "$STAMP" "$T/cm/..data" ||
		{ echo "FAIL: cannot make the ConfigMap volume"; exit 1; }
	for e in "$T/cm/$STAMP"/* "$T/cm/$STAMP"/.[!.]*; do
		[ -e "$e" ] || [ -L "$e" ] || continue
		ln -s "..data/${e##*/}" "$T/cm/${e##*/}" || exit 1
	done
	mount --bind "$T/cm" "$m/etc/security" &&
		mount -o remount,bind,ro "$m/etc/security" ||
		{ echo "FAIL: cannot bind the ConfigMap read-only"; exit 1; }
	# Into the world as a runtime enters a container: pivot_root(2), the
	# old root detached, not chroot(2) (the kernel refuses a chrooted
	# process a new user namespace, which suites make: unshare -Urn).
	# The run inside has its own $T in the world's /tmp.
	cd "$m" && mkdir -p .oldroot && pivot_root . .oldroot && cd / &&
		umount -l /.oldroot && rmdir /.oldroot ||
		{ echo "FAIL: cannot pivot_root into the world"; exit 1; }
	exec /usr/bin/env CONTAINER_WORLD=inside LIB_COUNTS="/run/lib-counts/${lib_counts##*/}" \
		sh "$TESTS_DIR/root/progs_container_world.sh"
	;;
inside)
	init
	chmod 755 "$T"
	# The world is what it claims, or this run proves nothing.
	[ "$(stat -f -c %T /)" = overlayfs ] && pass || fail "world: / is $(stat -f -c %T /), not an overlay"
	upper=$(grep ' - overlay ' /proc/self/mountinfo | awk '$5 == "/"' | tr ' ,' '\n\n' |
		sed -n 's/^upperdir=//p' | tail -n 1)
	[ -n "$upper" ] && pass || fail "world: no overlay with an upper layer on / in the mount table"
	# What broke capaudit's identity check: the device stat() gives a
	# running program's file is not the one its mapping names.
	sleep 30 &
	sl=$! mapdev= i=0
	# Until the child has run sleep (a loaded machine is slow to exec).
	while [ -z "$mapdev" ] && [ $i -lt 100 ]; do
		mapdev=$(awk '$6 ~ /\/sleep$/ { print $4; exit }' "/proc/$sl/maps")
		[ -n "$mapdev" ] || sleep 0.1
		i=$((i + 1))
	done
	kill "$sl" 2>/dev/null
	statdev=$(stat -L -c '%Hd:%Ld' "$(command -v sleep)")
	[ -n "$mapdev" ] && [ "$((0x${mapdev%%:*})):$((0x${mapdev#*:}))" != "$statdev" ] && pass ||
		fail "world: stat() and /proc/PID/maps agree on sleep's device ($statdev, $mapdev): not the overlay that broke it"
	if touch /etc/security/.probe 2>"$T/err"; then
		fail "world: /etc/security is writable"
	else
		grep -q 'Read-only file system' "$T/err" && pass || fail "world: /etc/security: $(cat "$T/err")"
	fi
	[ -L /etc/security/..data ] && [ "$(stat -c '%a' /etc/security/)" = 777 ] && pass ||
		fail "world: /etc/security is not a ConfigMap-style volume"
	[ ! -e /etc/security/capability.conf ] || [ -L /etc/security/capability.conf ] && pass ||
		fail "world: capability.conf is not a link through ..data"
	at_exit_checked tracefs_restore
	tracefs_as_systemd && pass || fail "world: cannot make tracefs root's 0700"
	[ "$(stat -c '%u:%g %a' /sys/kernel/tracing)" = "0:0 700" ] && pass ||
		fail "world: tracefs is not root's 0700"
	[ "$fails" -eq 0 ] || finish
	echo "world: / on an overlay (upper $upper), /etc/security a read-only ConfigMap-style volume, tracefs root's 0700"
	# The inner run's logs and verdicts stay out of the outer run's. Its
	# suites keep the world's /tmp (RUN_SH_DISK_TMP): their files must
	# be on the overlay, not on a tmpfs of their own.
	mkdir "$T/logs"
	check "the suites above in the container world" \
		env LOGDIR="$T/logs" TEST_SUMMARY='' TESTS="$SUITES" RUN_SH_DISK_TMP=1 \
		sh "$TESTS_DIR/run.sh"
	# A real login there: bob's "su - alice" through a PAM stack ending
	# with our pam_cap.so, which reads the ConfigMap's capability.conf
	# through its ..data links on the read-only mount; alice, in
	# perf_users, gets cap_perfmon inheritable. Last: it rewrites the
	# world's users and PAM stacks, which the suites above read.
	ma=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || echo x86_64-linux-gnu)
	if is_sanitized; then
		not_checked "the login is left out under ASan (su loads the plain build's pam_cap.so)"
	elif login_world /; then
		# nscd would answer from the host's cache.
		[ ! -d /run/nscd ] || mount -t tmpfs none /run/nscd
		install -m 0644 "$BUILD/pam_cap/pam_cap.so" "/usr/lib/$ma/security/pam_cap.so" && pass ||
			fail "world: cannot install our pam_cap.so"
		# (under the lock of the suites that hold lazily unmounted
		# mounts, which no seal outlives: tests/suites.conf, mountlock)
		flock -w 600 "$LIB_MOUNTS_LOCK" \
			timeout 30 env -i LANG=C PATH=/usr/sbin:/usr/bin:/sbin:/bin \
			su bob -c "su - alice -c 'grep CapInh /proc/\$\$/status'" </dev/null >"$T/login" 2>&1
		if grep -Eq '^CapInh:[[:space:]]+0000004000000000$' "$T/login"; then
			ok "world: su - alice gets cap_perfmon from the read-only ConfigMap"
		else
			fail "world: su - alice, want CapInh 0000004000000000 from the ConfigMap's grant, got:"
			sed 's/^/    /' "$T/login" | tail -n 8
			"$BUILD/progs/capcheck" --config /etc/security/capability.conf 2>&1 | sed 's/^/    capcheck: /'
		fi
	else
		fail "world: cannot write the world's users and PAM stacks"
	fi
	# The suites for a world without /proc (a runtime that mounts none,
	# bubblewrap without --proc): in a namespace of their own with /proc
	# gone, each run by itself (run.sh reads /proc).
	for s in $NOPROC; do
		if flock -w 600 "$LIB_MOUNTS_LOCK" \
			unshare -m --propagation private sh -c \
			'umount -l /proc && [ ! -e /proc/self ] && exec sh "$1"' - "$TESTS_DIR/$s" \
			>"$T/noproc.log" 2>&1; then
			ok "$s without /proc: $(tail -n 1 "$T/noproc.log")"
		else
			fail "$s without /proc:"
			sed 's/^/    /' "$T/noproc.log" | tail -n 40
		fi
	done
	finish
	;;
esac
