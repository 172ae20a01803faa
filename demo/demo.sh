#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# The main job, shown end to end ("make demo"): a CPU-wide perf probe is
# refused to an ordinary user, our setcap grants exactly cap_perfmon, getcap
# shows the audit line, and the same user can now probe. Needs root (to
# write the file capability and to become "nobody"); cleans up after itself.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$top/build/main}
setcap=$BUILD/progs/setcap
probe_src=$BUILD/tests/bin/perfprobe

die() { echo "demo: $*" >&2; exit 1; }

if [ "$(id -u)" -ne 0 ]; then
	die "needs root: granting a file capability needs CAP_SETFCAP, and
demo: running the probe as the user 'nobody' needs setuid. Run: sudo make demo"
fi
[ -x "$setcap" ] && [ -x "$probe_src" ] || die "build first (make demo does)"
command -v setpriv >/dev/null || die "needs setpriv (util-linux)"
id nobody >/dev/null 2>&1 || die "needs the user 'nobody'"
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null) ||
	die "this kernel has no perf events (/proc/sys/kernel/perf_event_paranoid)"
[ "$paranoid" -ge 1 ] ||
	die "perf_event_paranoid is $paranoid: everyone may already probe, nothing to show (needs >= 1)"
[ "$(cat /proc/sys/kernel/cap_last_cap)" -ge 38 ] ||
	die "this kernel predates CAP_PERFMON (Linux 5.8)"
if [ -x "$BUILD/progs/getcap" ]; then
	getcap=$BUILD/progs/getcap which="our progs/getcap"
elif [ -x /usr/sbin/getcap ]; then
	getcap=/usr/sbin/getcap which="the system's /usr/sbin/getcap (ours is not built yet)"
else
	getcap= which=
fi

dir=$(mktemp -d) || die "mktemp failed"
trap 'rm -rf "$dir"' EXIT INT TERM
chmod 755 "$dir"
cp "$probe_src" "$dir/perfprobe" && chmod 755 "$dir/perfprobe"
as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }

echo "== 1. perf_event_paranoid=$paranoid; as nobody, a CPU-wide perf event is refused:"
echo "\$ setpriv --reuid=nobody ... $dir/perfprobe"
if as_nobody "$dir/perfprobe"; then
	die "nobody could already open the perf event: nothing to demonstrate"
fi
echo
echo "== 2. grant exactly CAP_PERFMON with our setcap:"
echo "\$ progs/setcap cap_perfmon=ep $dir/perfprobe"
"$setcap" cap_perfmon=ep "$dir/perfprobe" || die "our setcap failed"
echo
if [ -n "$getcap" ]; then
	echo "== 3. audit it with $which:"
	echo "\$ getcap $dir/perfprobe"
	"$getcap" "$dir/perfprobe" || die "getcap failed"
else
	echo "== 3. (no getcap available to audit with; the xattr bytes instead:)"
	getfattr --absolute-names -e hex -n security.capability "$dir/perfprobe"
fi
echo
echo "== 4. the same user, the same probe: now allowed, with only cap_perfmon effective:"
echo "\$ setpriv --reuid=nobody ... $dir/perfprobe -c"
as_nobody "$dir/perfprobe" -c || die "the probe still failed after setcap"
echo
echo "demo: done; removed $dir"
