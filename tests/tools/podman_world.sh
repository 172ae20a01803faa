# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# Sourced by the root suites that run containers with Debian's podman and
# runc (root/perfdoctor_podman.sh), after lib.sh's init: a podman world
# that uses nothing of the host's and leaves nothing behind. Skips (77)
# where podman, runc, conmon, unshare or nsenter is missing, naming the
# packages.
#
# podman keeps to a store of its own in $S (--root, --runroot, --tmpdir,
# its network, containers.conf, storage.conf, registries and signature
# policy all there), run in a private mount namespace whose /var is an
# overlay writing to $S (podman 4.3 writes a blob cache in
# /var/lib/containers whatever --root says) and whose /etc/containers is a
# directory of ours. On every exit, the pods, containers and images are
# removed, and so are the cgroups of the run. On this kind of host (a
# hybrid cgroup layout, root without CAP_SYS_RESOURCE) crun refuses to
# start and the default ulimits cannot be set: runc, no default ulimits
# (and a suite may add --ulimit host). Containers have no network.
#
#   pm ARG...            podman in the world ($T/bin/podman: a PATH that
#                        starts with $T/bin finds it as podman)
#   PODMAN_CONF=$S/etc/bounding.conf pm ...  for one command, the default
#                        capabilities are cap_perfmon alone (what a user
#                        that is not root gets in its bounding set)
#   in_podman_ns CMD...  CMD in podman's mount namespace (a write to /var
#                        lands in $S), in the current directory
#   $cgparent            a cgroup parent for "pm run --cgroup-parent=",
#                        removed at the end
#   podman_image_add FILE [PATH]  FILE into the image's tree at PATH
#                        (default: FILE's own path), with every library it
#                        links at its own path
#   podman_image [IMPORT_OPTION...]  imports the tree as $PODMAN_IMAGE
#                        (also the pods' infra image: give it a CMD)
#   pods_of FILE         the pods "pm play kube" printed in FILE are this
#                        run's: their cgroups are removed at the end
#   podman_left_nothing PIDS  the counted checks that end a suite: see there
[ "$(id -u)" = 0 ] || skip "needs root"
for c in podman runc conmon unshare nsenter; do
	command -v $c >/dev/null ||
		skip "$c is not installed (apt-get install podman runc golang-github-containers-common uidmap; tests/install-deps.sh installs them)"
done
[ -d /etc/containers ] || skip "no /etc/containers (podman's package makes it)"

S=$T/s
PODMAN_IMAGE=localhost/podman-world:1
mkdir -p "$S/root" "$S/run" "$S/tmp" "$S/net" "$S/etc" "$S/var/up" "$S/var/work" \
	"$S/img" "$S/empty" "$T/bin"

# What podman reads: ours only.
cat >"$S/etc/containers.conf" <<EOF
[containers]
default_ulimits = []
netns = "none"
[engine]
infra_image = "$PODMAN_IMAGE"
EOF
# A user that is not root gets the default capabilities in its bounding
# set only (podman gives those of --cap-add as ambient ones too): this
# configuration's default is cap_perfmon alone (PODMAN_CONF, below).
sed 's/^\[containers\]$/&\ndefault_capabilities = ["PERFMON"]/' \
	"$S/etc/containers.conf" >"$S/etc/bounding.conf"
cat >"$S/etc/storage.conf" <<EOF
[storage]
driver = "overlay"
graphroot = "$S/root"
runroot = "$S/run"
EOF
: >"$S/etc/registries.conf"
echo '{"default": [{"type": "insecureAcceptAnything"}]}' >"$S/etc/policy.json"
cgparent=/$(basename "$T")
# What this run's cgroup parent and podman's default one leave: podman
# makes /libpod_parent (pods, conmon) where it is missing.
cg_before=$(ls -d /sys/fs/cgroup/*/libpod_parent /sys/fs/cgroup/libpod_parent 2>/dev/null)

# The private mount namespace every podman command runs in, held by a
# sleeping process; its mounts die with it. The host's PAM stacks and
# capability.conf are hidden there (a program run there reads none).
unshare -m --propagation private sh -c '
	mount -t overlay overlay -o "lowerdir=/var,upperdir=$1/var/up,workdir=$1/var/work" /var &&
	mount --bind "$1/etc" /etc/containers &&
	for d in /etc/pam.d /etc/security; do
		[ ! -d $d ] || mount --bind "$1/empty" $d || exit 1
	done && : >"$1/held" && exec sleep 900' sh "$S" &
holder=$!
at_exit 'kill $holder 2>/dev/null; wait $holder 2>/dev/null'
i=0
while [ ! -e "$S/held" ] && kill -0 $holder 2>/dev/null && [ $i -lt 100 ]; do
	sleep 0.05; i=$((i + 1))
done
[ -e "$S/held" ] || { fail "cannot make the private mount namespace"; finish; }

# podman as the suites run it; a PATH that starts with $T/bin finds it.
cat >"$T/bin/podman" <<EOF
#!/bin/sh
CONTAINERS_CONF=\${PODMAN_CONF:-$S/etc/containers.conf} \\
CONTAINERS_STORAGE_CONF=$S/etc/storage.conf \\
CONTAINERS_REGISTRIES_CONF=$S/etc/registries.conf TMPDIR=$S/tmp \\
exec nsenter -t $holder -m --wd="\$PWD" $(command -v podman) --root "$S/root" \\
	--runroot "$S/run" --tmpdir "$S/tmp" --network-config-dir "$S/net" \\
	--storage-driver overlay --runtime runc --cgroup-manager cgroupfs \\
	--events-backend none "\$@"
EOF
chmod 755 "$T/bin/podman"
pm() { "$T/bin/podman" "$@"; }
in_podman_ns() { nsenter -t $holder -m --wd="$PWD" "$@"; }
netns_before=$(ls /run/netns 2>/dev/null)

# Removes everything podman made; 0 when the store was left empty.
podman_clean() {
	[ -z "${cleaned:-}" ] || return 0
	# A pod's removal waits seconds for its cgroups (whose ended
	# processes this host's init reaps late): the containers go meanwhile.
	pm pod rm -a -f -t 0 >/dev/null 2>&1 &
	pm rm -a -f -t 0 >/dev/null 2>&1
	wait $!
	pm rm -a -f -t 0 >/dev/null 2>&1
	pm rmi -a -f >/dev/null 2>&1
	[ -z "$(pm ps -a -q 2>&1)" ] && [ -z "$(pm pod ps -q 2>&1)" ] &&
		[ -z "$(pm images -a -q 2>&1)" ]
}
# The cgroups podman made for this run, deepest first: those under our
# cgroup parent; those of the pods it played (under /libpod_parent, where
# podman 4.3 removes a pod's cgroup from the hierarchies of controllers
# only, not from name=systemd's or the unified one); and /libpod_parent
# itself where it made that. A cgroup still in use stays, and says so.
: >"$T/pods"
pods_of() {	# the pod ids "podman play kube" printed in FILE
	awk '/^Pod:$/ { p = 1; next } p && /^[0-9a-f]+$/ && length($0) == 64 { print } { p = 0 }' "$1" >>"$T/pods"
}
our_cgroups() {
	ls -d /sys/fs/cgroup/*"$cgparent" /sys/fs/cgroup"$cgparent" 2>/dev/null
	for id in $(cat "$T/pods"); do
		ls -d /sys/fs/cgroup/*/libpod_parent/"$id" /sys/fs/cgroup/libpod_parent/"$id" 2>/dev/null
	done
}
cgroups_clean() {
	# A container podman could not remove dies first.
	for d in /sys/fs/cgroup/pids"$cgparent" /sys/fs/cgroup/unified"$cgparent"; do
		[ -d "$d" ] && find "$d" -name cgroup.procs -exec cat {} + | xargs -r kill -9 2>/dev/null
	done
	for d in $(our_cgroups); do
		find "$d" -depth -type d -exec rmdir {} +
	done
	for d in $(ls -d /sys/fs/cgroup/*/libpod_parent /sys/fs/cgroup/libpod_parent 2>/dev/null); do
		case "$nl$cg_before$nl" in *"$nl$d$nl"*) continue ;; esac
		find "$d" -depth -type d -exec rmdir {} + 2>/dev/null
	done
	[ -z "$(our_cgroups)" ]
}
at_exit_checked 'cgroups_clean'
at_exit_checked 'podman_clean'

# The image: a tree of files, imported.
podman_image_add() {
	for f in "$1" $(ldd "$1" 2>/dev/null | grep -o '/[^ ]*'); do
		mkdir -p "$S/img$(dirname "$f")" && cp -L "$f" "$S/img$f" || return 1
	done
	[ -z "${2:-}" ] || [ "$2" = "$1" ] ||
		{ mkdir -p "$S/img$(dirname "$2")" && mv "$S/img$1" "$S/img$2"; }
}
podman_image() {
	tar --xattrs --xattrs-include=security.capability -C "$S/img" -cf "$S/img.tar" . &&
		pm import -q "$@" "$S/img.tar" "$PODMAN_IMAGE" >/dev/null
}

# podman_left_nothing PIDS: the last checks: podman removes everything it
# made (the store is empty), no mount of the store is left in podman's
# namespace, then none at all once it has gone, none of PIDS (containers'
# and conmon's) nor any process naming the store is alive, no network
# namespace appeared, and every cgroup of the run is removed.
podman_left_nothing() {
	if podman_clean; then pass; else
		fail "podman left: $(pm ps -a -q; pm pod ps -q; pm images -a -q)"
	fi
	cleaned=1
	if grep -e " $S/root" -e " $S/run" "/proc/$holder/mountinfo" >"$T/mounts.left"; then
		fail "mounts left in podman's namespace: $(head -5 "$T/mounts.left")"
	else
		pass
	fi
	kill $holder && wait $holder 2>/dev/null
	grep -F " $T/" /proc/self/mountinfo >"$T/mounts.left" &&
		fail "mounts left: $(head -5 "$T/mounts.left")" || pass
	i=0
	while :; do
		left=
		for p in $1 $holder; do
			alive "$p" && left="$left $p"
		done
		for p in /proc/[0-9]*; do
			grep -qF -- "$S" "$p/cmdline" 2>/dev/null && alive "${p#/proc/}" && left="$left ${p#/proc/}"
		done
		[ -n "$left" ] && [ $i -lt 50 ] || break
		sleep 0.1; i=$((i + 1))
	done
	[ -z "$left" ] && pass || fail "processes left:$left: $(for p in $left; do tr '\0' ' ' <"/proc/$p/cmdline"; echo; done)"
	[ "$(ls /run/netns 2>/dev/null)" = "$netns_before" ] && pass ||
		fail "network namespaces left: $(ls /run/netns)"
	cgroups_clean && pass || fail "cgroups left: $(our_cgroups)"
}
# Alive: a zombie has ended, and init reaps it.
alive() {
	[ "$1" -gt 0 ] 2>/dev/null && [ -e "/proc/$1" ] &&
		! grep -q '^State:.Z' "/proc/$1/status" 2>/dev/null
}
