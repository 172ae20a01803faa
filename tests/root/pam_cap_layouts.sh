#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# pam_cap reads capability.conf where the kernel, not the mode, keeps
# everybody but root from writing it, and nowhere else; shown with real
# logins (bob's "su - alice", through common-auth), whose shell's CapInh
# says what pam_cap granted, and capcheck's reason beside each refusal
# (capcheck run by bob cannot list every mount, and says so).
#
# A Kubernetes ConfigMap: /etc/security is a read-only bind mount of a
# volume whose root is 0777, holding "..data" links to root's 0644 file,
# and the volume's writable mount is in another namespace (the node's):
# granted (pam_cap refused it for the 0777 directory). Refused still:
# another writable mount of the volume in the namespace, inside the
# chroot or outside it, or in another mount namespace a process lives in;
# a read-only mount in a mount namespace that a user namespace below
# root's owns (its root may remount it writable, and does here); an
# overlayfs directory (its layers are written beside it).
#
# A free name in a sticky directory: config= names a file not made yet
# in a sticky directory everybody may write (1777); alice moves root's
# file, whose lines she chose, from her own directory to that name (a
# rename asks nothing of the file): refused (pam_cap granted what she
# wrote: a file of root's with one name in a sticky directory was read).
#
# A Nix store: the file is root's 0444, in a root-owned sticky directory
# (1775, group nixbld), with a second name that store optimisation gave
# it. Its group may put a file of root's there under a free name, so it
# is refused (pam_cap read it), and so it is while NixOS's read-only
# bind of the store over itself leaves the store's file system writable
# below; granted once no mount lets anyone write the store (its file
# system read-only). Refused still: a sticky store that is not root's, a
# store its group may write without the sticky bit, and bob's own
# symbolic link in the sticky store.
#
# Where: a throw-away root, as in docs_logins.sh: an overlay over / in a
# private mount namespace, chrooted into; users alice, bob and nixbld1
# with empty passwords; su's stack with our pam_cap.so. The host's /etc
# and binaries are never written.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init

ma=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || echo x86_64-linux-gnu)
GRANT=0000004000000000		# cap_perfmon (38), inheritable
NONE=0000000000000000

inside() {
	W=$T/w m=$T/w/m
	mkdir -p "$W" && mount -t tmpfs -o mode=0755 tmpfs "$W" &&
	mkdir "$W/u" "$W/wk" "$m" &&
	mount -t overlay overlay -o "lowerdir=/,upperdir=$W/u,workdir=$W/wk" "$m" ||
		{ fail "cannot mount an overlay over /"; finish; }
	for d in proc sys dev; do mount --rbind "/$d" "$m/$d" || { fail "bind /$d"; finish; }; done
	[ -d "$m/run/nscd" ] && mount -t tmpfs none "$m/run/nscd"

	login_world "$m" &&
		echo 'nixbld1:x:30001:30000:nix build user:/var/empty:/usr/sbin/nologin' >>"$m/etc/passwd" &&
		echo 'nixbld:x:30000:nixbld1' >>"$m/etc/group" &&
		echo 'nixbld1:!:19000:0:99999:7:::' >>"$m/etc/shadow" ||
		{ fail "cannot write the world's users and PAM stacks"; finish; }
	mkdir -p "$m/etc/security" "$m/nix" "$m/srv/cm" &&
	install -m 0644 "$BUILD/pam_cap/pam_cap.so" "$m/usr/lib/$ma/security/pam_cap.so" ||
		{ fail "cannot build the world"; finish; }
	conf=/etc/security/capability.conf
	rm -f "$m$conf"

	# login LABEL WANT [NSENTER-ARGS]: bob's "su - alice" in the world
	# (joining another mount namespace first when told), alice's shell
	# printing its CapInh; then capcheck's verdict on the file, in the
	# same place, into $T/cc.
	show='grep CapInh /proc/$$/status'
	login() {
		label=$1 want=$2
		shift 2
		timeout 30 "$@" chroot "$m" /usr/bin/env -i LANG=C TERM=dumb \
			PATH=/usr/sbin:/usr/bin:/sbin:/bin \
			su bob -c "su - alice -c '$show'" </dev/null >"$T/out" 2>&1
		if grep -Eq "^CapInh:[[:space:]]+$want\$" "$T/out"; then
			ok "$label: CapInh $want"
		else
			fail "$label: want CapInh $want from alice's shell, got:"
			sed 's/^/    /' "$T/out" | tail -n 8
		fi
		timeout 30 "$@" chroot "$m" "$BUILD/progs/capcheck" \
			--config "$conf" >"$T/cc" 2>&1
	}
	# refused_for WHY: capcheck said pam_cap refuses the file for WHY.
	refused_for() {
		if grep -qF "capcheck: $conf: not root's alone: $1: pam_cap grants nothing from it" "$T/cc"; then
			ok "$label: capcheck names the reason"
		else
			fail "$label: capcheck should refuse it for: $1; said:"
			sed 's/^/    /' "$T/cc"
		fi
	}
	read_by_capcheck() {
		if grep -q "not root's alone" "$T/cc"; then
			fail "$label: capcheck refuses what pam_cap read:"
			sed 's/^/    /' "$T/cc"
		else
			ok "$label: capcheck reads it too"
		fi
	}

	# --- A ConfigMap ---
	# volume DIR: the volume's layout in DIR, as the kubelet writes it
	# (a script: the namespace holder below runs it too).
	cat >"$T/volume.sh" <<'EOF'
set -e
chmod 0777 "$1"
mkdir -m 0755 "$1/..2026_12_05_10_00_00.1"
printf 'cap_perfmon alice\nnone *\n' >"$1/..2026_12_05_10_00_00.1/capability.conf"
chmod 0644 "$1/..2026_12_05_10_00_00.1/capability.conf"
ln -s ..2026_12_05_10_00_00.1 "$1/..data"
ln -s ..data/capability.conf "$1/capability.conf"
EOF
	volume() {
		sh "$T/volume.sh" "$1" || { fail "cannot lay out the volume in $1"; finish; }
	}
	# configmap: the volume (a tmpfs) bound read-only on /etc/security,
	# its writable mount at $W/node (outside the chroot) until unmounted.
	configmap() {
		mkdir -p "$W/node" &&
		mount -t tmpfs -o mode=0777 configmap-vol "$W/node" && volume "$W/node" &&
		mount --bind "$W/node" "$m/etc/security" &&
		mount -o remount,bind,ro "$m/etc/security" ||
			{ fail "cannot mount the ConfigMap"; finish; }
	}
	unmount_configmap() {
		umount "$m/etc/security"
		mountpoint -q "$W/node" && umount "$W/node"
		mountpoint -q "$m/srv/cm" && umount "$m/srv/cm"
	}

	# userns_case: the ConfigMap in a mount namespace of a user namespace
	# below root's, which a holder process keeps; su joins it.
	userns_case() {
		mkfifo "$T/held" "$T/go"
		# The holder answers "held" or "failed", then waits for "go".
		# shellcheck disable=SC2016 # expanded by the inner shell
		unshare -r -m --propagation unchanged sh -c '
			if mkdir -p "$1" && mount -t tmpfs -o mode=0777 userns-vol "$1" &&
				sh "$2" "$1" && mount --bind "$1" "$3/etc/security" &&
				mount -o remount,bind,ro "$3/etc/security" && umount "$1"; then
				echo held >"$4"
			else
				echo failed >"$4"
			fi
			read -r go <"$5"' \
			sh "$W/uvol" "$T/volume.sh" "$m" "$T/held" "$T/go" &
		holder=$!
		read -r held <"$T/held"
		[ "$held" = held ] && pass || fail "cannot make the ConfigMap in a user namespace's mount namespace"
		login "ConfigMap, read-only in a user namespace's mount namespace" "$NONE" \
			nsenter -t "$holder" -m
		refused_for "directory /etc/security on its way: everybody may write it; another file could be put in its place; its mount is read-only, but this mount namespace belongs to a user namespace below this one, whose root may change its mounts"
		# ... which that root may (the refusal is no caution for its own sake)
		if nsenter -t "$holder" -U -m --preserve-credentials sh -c \
			"mount -o remount,bind,rw '$m/etc/security' && touch '$m/etc/security/rewritten'" 2>"$T/err"; then
			ok "that namespace's root remounts the ConfigMap writable"
		else
			fail "that namespace's root could not remount it: $(cat "$T/err")"
		fi
		echo go >"$T/go"
		wait "$holder"
	}

	configmap
	umount "$W/node"	# the node's writable mount is not the container's
	login "ConfigMap, read-only, its writable mount elsewhere" "$GRANT"
	read_by_capcheck
	timeout 30 chroot "$m" /usr/bin/env -i PATH=/usr/bin:/bin \
		su bob -c 'touch /etc/security/x' </dev/null >"$T/out" 2>&1
	if grep -q 'Read-only file system' "$T/out"; then
		ok "bob cannot write the ConfigMap directory (0777)"
	else
		fail "bob's write to the ConfigMap directory: $(cat "$T/out")"
	fi
	# A container started while the mounts are searched: made after the
	# namespaces were listed, its process holds mounts that the search
	# never judged, as it would hold a mount unmounted lazily. capcheck
	# searches as pam_cap does (the same code); strace holds its look at
	# what processes hold (the second opening of /proc) for 0.8 s, and
	# the container starts while it is held. The search is
	# made again, where the container is listed, and passes: before, it
	# refused, as su's pam_cap did in CI ("Failure setting user
	# credentials"), now and then, on a host starting containers. (Only
	# openat stops capcheck, by seccomp: traced whole, as the set-user-ID
	# su must be, its searches outran their 3 s on a loaded host.)
	# The container must start inside the held opening: on a loaded
	# machine the watcher may see a brief stop as the held one, or miss
	# the window, and the container then starts before the first search
	# or after the last. Such an attempt proves nothing either way and is
	# made again (three at most); a refusal is never retried, and a
	# capcheck that does not search again fails all three.
	label="ConfigMap, a container started while capcheck searched"
	attempt=1
	while :; do
		: >"$T/st"
		timeout 60 strace -f --seccomp-bpf -qq -o "$T/st" -P /proc -e trace=openat \
			-e inject=openat:delay_enter=800000:when=2 \
			chroot "$m" "$BUILD/progs/capcheck" --config "$conf" >"$T/cc" 2>&1 &
		traced=$!
		# Held: capcheck in a tracing stop that lasts (every openat
		# stops it for a moment). Not strace's log, which it may write
		# late. The process is found once; its status is then read
		# every 10 ms, and the stop must be seen three times in 100 ms.
		i=0 held= p=
		while [ -z "$p" ] && [ $i -lt 500 ]; do
			# (timeout's and strace's command lines name it too)
			for c in $(pgrep -x capcheck); do
				case $(tr '\0' ' ' </proc/"$c"/cmdline 2>/dev/null) in
				"$BUILD/progs/capcheck --config "*) p=$c ;;
				esac
			done
			[ -n "$p" ] || sleep 0.01
			i=$((i + 1))
		done
		i=0 seen=0
		while [ -n "$p" ] && [ -z "$held" ] && [ $i -lt 1000 ] && [ -d /proc/"$p" ]; do
			if grep -q '^State:.*tracing stop' /proc/"$p"/status 2>/dev/null; then
				seen=$((seen + 1))
				[ $seen -lt 3 ] || held=$p
				sleep 0.05
			else
				seen=0
				sleep 0.01
			fi
			i=$((i + 1))
		done
		unshare -m --propagation private sh -c 'cd / && exec sleep 8' &
		container=$!
		wait "$traced"
		opened=$(grep -c '"/proc"' "$T/st")
		kill "$container" 2>/dev/null
		wait "$container" 2>/dev/null
		if grep -q "not root's alone" "$T/cc"; then
			fail "$label: capcheck refused it:"
			sed 's/^/    /' "$T/cc"
		elif [ "$opened" -ge 4 ]; then
			ok "$label: capcheck reads it"
		elif [ $attempt -lt 3 ]; then
			attempt=$((attempt + 1))
			continue
		else
			fail "$label: want the search made again (4 openings of /proc or more), got $opened in each of 3 attempts:"
			sed 's/^/    /' "$T/cc"
		fi
		break
	done
	# Listing every mount takes root: bob's capcheck cannot tell, and
	# says so rather than answer yes.
	timeout 30 chroot "$m" /usr/bin/env -i PATH=/usr/bin:/bin \
		su bob -c "$BUILD/progs/capcheck --config $conf" </dev/null >"$T/cc" 2>&1
	label="capcheck run by bob"
	refused_for "directory /etc/security on its way: everybody may write it; another file could be put in its place; its mount is read-only, but only root may read what mounts every process sees"
	# A writable bind mount of the same directory in the namespace.
	mount --bind "$m/etc/security" "$m/srv/cm" && mount -o remount,bind,rw "$m/srv/cm" && pass ||
		fail "cannot bind the ConfigMap writable"
	login "ConfigMap, and a writable mount of it at /srv/cm" "$NONE"
	refused_for "directory /etc/security on its way: everybody may write it; another file could be put in its place; its mount is read-only, but the writable mount on /srv/cm reaches it too"
	unmount_configmap

	# The volume's writable mount in another mount namespace, which a
	# process lives in (this shell): su runs where it is gone, as a login
	# service made read-only by systemd's ProtectSystem= runs beside
	# users who may write "/".
	configmap
	printf '%s\n' 'umount "$1" && shift && exec "$@"' >"$T/without.sh"
	login "ConfigMap, writable in another process's mount namespace" "$NONE" \
		unshare -m --propagation private sh "$T/without.sh" "$W/node"
	# (the process named is this shell, or timeout, which it started)
	sed 's/that process [0-9]* sees/that process N sees/' "$T/cc" >"$T/cc2" && mv "$T/cc2" "$T/cc"
	sed 's/in mount namespace mnt:\[[0-9]*\]/in mount namespace mnt:[N]/' "$T/cc" >"$T/cc2" && mv "$T/cc2" "$T/cc"
	refused_for "directory /etc/security on its way: everybody may write it; another file could be put in its place; its mount is read-only, but the writable mount on $W/node in mount namespace mnt:[N] reaches it too"
	unmount_configmap

	# The volume's writable mount outside the chroot: a user outside it
	# writes through it (mountinfo, which shows what is under the root
	# alone, would not say).
	configmap
	login "ConfigMap, its writable mount outside the chroot" "$NONE"
	refused_for "directory /etc/security on its way: everybody may write it; another file could be put in its place; its mount is read-only, but a writable mount outside this root (of / in its file system) reaches it too"
	unmount_configmap

	# Bob holds a way to the volume's writable mount after it is gone
	# from every namespace a process lives in, and writes through it:
	# a descriptor of his directory on it, unmounted lazily; his own
	# mount namespace (of his user namespace), made while the mount was
	# there and kept by a descriptor alone; his own chrooted process in
	# such a namespace, whose mountinfo shows nothing above its root but
	# whose /proc/PID/root/.. leads there. The kernel says nothing of
	# any of them in the namespace su runs in.
	chmod 755 "$T" "$W"
	bob_holds() {	# CASE: bob's holder, $T/bh/held once it holds
		rm -rf "$T/bh" && mkdir -m 777 "$T/bh" && mkfifo -m 666 "$T/bh/go" && pass ||
			{ fail "cannot make bob's fifo"; return 1; }
		setpriv --reuid=4702 --regid=4702 --clear-groups sh "$T/bob_$1.sh" "$W" "$T/bh" &
		bob=$!
		at_exit "kill $bob 2>/dev/null"
		i=0
		while [ ! -s "$T/bh/held" ] && [ $i -lt 300 ]; do sleep 0.02; i=$((i + 1)); done
		[ "$(cat "$T/bh/held" 2>/dev/null)" = held ] && pass ||
			{ fail "bob's holder ($1) did not get hold"; return 1; }
	}
	bob_writes() {	# CASE: let bob write; he must have
		echo go >"$T/bh/go"
		wait "$bob"
		if [ -e "$m/etc/security/by-bob" ]; then
			ok "$1: bob wrote in the ConfigMap directory"
		else
			fail "$1: bob could not write in the ConfigMap directory (test setup)"
		fi
	}
	cat >"$T/bob_fd.sh" <<'EOF'
exec 3<"$1/node" || exit 1
echo held >"$2/held"
read -r go <"$2/go"
touch /proc/self/fd/3/by-bob
EOF
	cat >"$T/bob_ns.sh" <<'EOF'
unshare -r -m --propagation unchanged sleep 60 &
c=$!
i=0
while [ "$(readlink /proc/$c/ns/mnt)" = "$(readlink /proc/self/ns/mnt)" ] && [ $i -lt 300 ]; do
	sleep 0.01; i=$((i + 1))
done
exec 3</proc/$c/ns/user 4</proc/$c/ns/mnt || exit 1
kill $c
echo held >"$2/held"
read -r go <"$2/go"
nsenter --preserve-credentials --user=/proc/self/fd/3 --mount=/proc/self/fd/4 touch "$1/node/by-bob"
EOF
	cat >"$T/bob_chroot.sh" <<'EOF'
J=$2/jail
mkdir -p "$J/usr" && ln -s usr/bin "$J/bin" && ln -s usr/lib "$J/lib" && ln -s usr/lib64 "$J/lib64" || exit 1
unshare -r -m --propagation unchanged sh -c 'mount --rbind /usr "$0/usr" && exec chroot "$0" /bin/sleep 60' "$J" &
c=$!
i=0
while [ "$(readlink /proc/$c/root)" != "$J" ] && [ $i -lt 300 ]; do sleep 0.01; i=$((i + 1)); done
echo held >"$2/held"
read -r go <"$2/go"
touch "/proc/$c/root/../../${1##*/}/node/by-bob"
kill $c
EOF
	# (the process and namespace named are bob's, other each run)
	pid_n() {
		sed 's/process [0-9]* holds/process N holds/; s/mnt:\[[0-9]*\]/mnt:[N]/' "$T/cc" >"$T/cc2" &&
			mv "$T/cc2" "$T/cc"
	}
	configmap
	if bob_holds fd; then
		umount -l "$W/node"
		login "ConfigMap, its writable mount unmounted lazily, bob's directory on it held" "$NONE"
		pid_n
		refused_for "directory /etc/security on its way: everybody may write it; another file could be put in its place; its mount is read-only, but process N holds a directory on a mount that no mount namespace shows (one unmounted lazily?), by which a write may reach it"
		bob_writes "a directory held on a lazily unmounted mount"
	fi
	unmount_configmap
	if unshare -r true 2>/dev/null; then
		configmap
		if bob_holds ns; then
			umount "$W/node"
			login "ConfigMap, writable in bob's mount namespace that a descriptor alone keeps" "$NONE"
			pid_n
			refused_for "directory /etc/security on its way: everybody may write it; another file could be put in its place; its mount is read-only, but the writable mount on $W/node in mount namespace mnt:[N] reaches it too"
			bob_writes "his mount namespace, entered again"
		fi
		unmount_configmap
		configmap
		if bob_holds chroot; then
			umount "$W/node"
			login "ConfigMap, writable above the root of bob's chrooted process" "$NONE"
			pid_n
			refused_for "directory /etc/security on its way: everybody may write it; another file could be put in its place; its mount is read-only, but the writable mount on $W/node in mount namespace mnt:[N] reaches it too"
			bob_writes "/proc/PID/root/.. of his chrooted process"
		fi
		unmount_configmap
	else
		not_checked "no user namespaces here: bob's own namespaces not tried"
	fi

	# The same read-only mount, made in a mount namespace that a user
	# namespace below root's owns: its root may make it writable again.
	if unshare -r true 2>/dev/null; then
		userns_case
	else
		not_checked "no user namespaces here: that case not run"
	fi

	# A read-only bind of an overlayfs directory (0777, as its upper
	# layer's root is): what its layers hold may change beneath it,
	# whatever its mounts say.
	mkdir -p "$W/ol" "$W/ou" "$W/ow" "$W/ovl" && volume "$W/ol" && chmod 0777 "$W/ou" &&
	mount -t overlay ovl -o "lowerdir=$W/ol,upperdir=$W/ou,workdir=$W/ow" "$W/ovl" &&
	mount --bind "$W/ovl" "$m/etc/security" && mount -o remount,bind,ro "$m/etc/security" &&
	umount "$W/ovl" && pass || fail "cannot mount the overlay ConfigMap"
	login "ConfigMap on overlayfs, read-only" "$NONE"
	refused_for "directory /etc/security on its way: everybody may write it; another file could be put in its place; its mount is read-only, but its file system (type 0x794c7630) may be written by another way than its mounts"
	umount "$m/etc/security"

	# --- A free name in a sticky directory ---
	# config= names a file not made yet in a sticky directory everybody
	# may write. Root's file whose lines alice chose lies in her own
	# directory (root ran a tool writing there), and she moves it in:
	# rename(2) asks nothing of a file it moves, only of the two
	# directories. Root's, with one name, in a sticky directory, it was
	# read, and granted what she wrote.
	mkdir -m 1777 "$m/srv/drop" &&
	printf 'cap_perfmon alice\nnone *\n' >"$m/home/alice/out" && chmod 0644 "$m/home/alice/out" &&
	cp "$m/etc/pam.d/common-auth" "$T/common-auth" &&
	sed -i 's|pam_cap\.so$|pam_cap.so config=/srv/drop/capability.conf|' "$m/etc/pam.d/common-auth" &&
	grep -q 'config=/srv/drop/capability.conf' "$m/etc/pam.d/common-auth" ||
		{ fail "cannot lay out the sticky directory"; finish; }
	if chroot "$m" setpriv --reuid=4701 --regid=4701 --clear-groups \
		mv /home/alice/out /srv/drop/capability.conf 2>"$T/err" &&
		[ "$(stat -c '%u %h' "$m/srv/drop/capability.conf")" = "0 1" ]; then
		ok "alice moved root's file into the sticky directory"
	else
		fail "alice could not move root's file (test setup): $(cat "$T/err")"
	fi
	conf=/srv/drop/capability.conf
	login "root's file alice moved to the free name config= gives, in a sticky directory" "$NONE"
	refused_for "directory /srv/drop holds it: everybody may write it, and the sticky bit does not stop them putting a file there under a free name"
	cp "$T/common-auth" "$m/etc/pam.d/common-auth"
	conf=/etc/security/capability.conf

	# --- A Nix store ---
	# Root's 0444 file in a root-owned sticky directory (1775, group
	# nixbld), with a second name store optimisation gave it; the
	# configured name a link to it, as NixOS's /etc links are.
	mount -t tmpfs -o mode=0755 nix "$m/nix" && mkdir -p "$m/nix/store/.links" &&
	chown 0:30000 "$m/nix/store" && chmod 1775 "$m/nix/store" &&
	f=/nix/store/0abc-capability.conf &&
	printf 'cap_perfmon alice\nnone *\n' >"$m$f" && chmod 0444 "$m$f" &&
	ln "$m$f" "$m/nix/store/.links/1xyz" &&
	ln -s "$f" "$m$conf" || { fail "cannot lay out the store"; finish; }
	[ "$(stat -c %h "$m$f")" = 2 ] && pass || fail "the store file has $(stat -c %h "$m$f") names"
	# nixbld may put any file of root's there under a free name (one
	# garbage collection removed, or the configured one before it is made)
	login "Nix store its group may write (1775)" "$NONE"
	refused_for "directory /nix/store holds it: its group 30000 may write it, and the sticky bit does not stop them putting a file there under a free name"
	# NixOS's read-only store (boot.readOnlyNixStore): the store bound
	# read-only over itself, on a file system still mounted writable (at
	# /, here at /nix), through which a write reaches it.
	mount --bind "$m/nix/store" "$m/nix/store" && mount -o remount,ro,bind "$m/nix/store" && pass ||
		fail "cannot bind the store read-only"
	login "Nix store bound read-only over itself, its file system writable at /nix" "$NONE"
	refused_for "directory /nix/store holds it: its group 30000 may write it, and the sticky bit does not stop them putting a file there under a free name; its mount is read-only, but the writable mount on /nix reaches it too"
	# The store's file system read-only wherever it is mounted: sealed.
	mount -o remount,ro "$m/nix" && pass || fail "cannot make the store's file system read-only"
	login "Nix store on a file system no mount lets anyone write" "$GRANT"
	read_by_capcheck
	umount "$m/nix/store" && mount -o remount,rw "$m/nix" && pass ||
		fail "cannot make the store writable again"
	# A sticky store another user owns: he may rename anything in it.
	chown 30001 "$m/nix/store"
	login "sticky store owned by nixbld1" "$NONE"
	refused_for "directory /nix/store on its way: uid 30001 owns it; another file could be put in its place"
	chown 0 "$m/nix/store"
	# Group-writable without the sticky bit: nixbld may replace the name.
	chmod 0775 "$m/nix/store"
	login "store its group may write, not sticky" "$NONE"
	refused_for "directory /nix/store on its way: its group 30000 may write it; another file could be put in its place"
	chmod 1775 "$m/nix/store"
	# bob's own symbolic link in a sticky world-writable directory: he
	# may point it anywhere.
	chmod 1777 "$m/nix/store" && ln -s "$f" "$m/nix/store/bobs" &&
	chown -h 4702:4702 "$m/nix/store/bobs" && ln -sfn /nix/store/bobs "$m$conf" && pass ||
		fail "cannot make bob's link"
	login "bob's symbolic link in the sticky store" "$NONE"
	refused_for "symbolic link /nix/store/bobs on its way: uid 4702 owns it, and may point it at another file"

	umount -R "$m" 2>/dev/null || umount -R -l "$m"
	umount "$W"
	finish "ConfigMap and Nix store layouts granted; each attack on them refused"
}

if [ "${1:-}" = --inside ]; then
	inside
	exit $?
fi

[ "$(id -u)" -eq 0 ] || skip "needs root (mount namespace, overlay, chroot)"
skip_if_sanitized "the logins run the plain build's pam_cap.so"
for tool in unshare nsenter chroot su timeout mountpoint strace; do
	command -v "$tool" >/dev/null 2>&1 || skip "$tool not found"
done
grep -qw overlay /proc/filesystems || modprobe overlay 2>/dev/null ||
	skip "the kernel has no overlay filesystem"
[ -f "$BUILD/pam_cap/pam_cap.so" ] || skip "pam_cap.so is not built yet"
[ -x "$BUILD/progs/capcheck" ] || skip "capcheck is not built yet"
[ -d "/usr/lib/$ma/security" ] || skip "no PAM module directory /usr/lib/$ma/security"

LIB_T=$T LIB_COUNTS=$T/inside.counts unshare -m --propagation private sh "$0" --inside && pass ||
	fail "in the throw-away root (above)"
add_counts "$T/inside.counts"
finish
