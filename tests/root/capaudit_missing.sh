#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# capaudit says exactly what is missing and exits 1, on the real kernel:
# no tracefs mounted (for nobody; root mounts one in a private namespace of
# its own and leaves ours untouched), tracefs readable by root only, and
# perf_event_paranoid without CAP_PERFMON; the verdict matches the
# kernel's with any of the capabilities and in a user namespace. A
# capaudit with file capabilities ignores CAPAUDIT_SYSROOT (a fake /sys is
# for tests only) and refuses --iab and --user, also when its caller is
# uid 0 under SECBIT_NOROOT (no AT_SECURE there; the caller held nothing).
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
# nobody by name, and a private mount namespace in which to unmount and
# mount tracefs without touching the host's.
private_etc "$@"
init
CA=$BUILD/progs/capaudit S=$BUILD/progs/setcap
[ -x "$CA" ] && [ -x "$S" ] || { fail "capaudit or setcap not built"; finish; }
tfs=/sys/kernel/tracing
[ -d "$tfs" ] || skip "no $tfs (a kernel without tracing)"
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null) ||
	skip "no perf events in this kernel"
at_exit_checked tracefs_restore
chmod 755 "$T"
cp "$CA" "$T/capaudit" && chmod 755 "$T/capaudit"
# uid 0 with root's privileges turned off and no capability at all.
noroot="setpriv --securebits=+noroot,+noroot_locked --inh-caps=-all --ambient-caps=-all"
"$S" cap_perfmon=ep "$T/capaudit" || { fail "our setcap cap_perfmon=ep"; finish; }
# This namespace only: whatever the host has mounted there goes away here
# (its options noted first, to be put back).
tracefs_mount || { fail "mount tracefs"; finish; }
tracefs_unmount || { fail "umount $tfs"; finish; }
if mountpoint -q /sys/kernel/debug; then umount -l /sys/kernel/debug || { fail "umount debugfs"; finish; }; fi

# 1. No tracefs, nobody with cap_perfmon: it cannot mount one; it says so
#    and does not run the command.
as_nobody "$T/capaudit" -- touch "$T/ran" >"$T/out" 2>"$T/err"
rc=$?
cat "$T/err"
[ "$rc" -eq 1 ] || fail "exit $rc without tracefs, expected 1"
[ ! -e "$T/ran" ] || fail "the command ran although nothing could be traced"
[ ! -s "$T/out" ] || fail "stdout: $(cat "$T/out")"
grep -qx "capaudit: tracefs is not mounted at $tfs (mount -t tracefs nodev $tfs, or run capaudit as root: it mounts one in a private mount namespace)" "$T/err" ||
	fail "no 'tracefs is not mounted' line"
grep -q "^capaudit: no kprobe to fall back on: no kprobe PMU" "$T/err" ||
	[ -e /sys/bus/event_source/devices/kprobe ] || fail "no kprobe line"
grep -q "perf_event_paranoid" "$T/err" && fail "cap_perfmon was there, yet paranoid is blamed"

# 2. Root mounts tracefs in a private namespace of a child of its own:
#    it works, and our mount table is as it was.
before=$(grep -c tracefs /proc/self/mountinfo)
"$CA" --check >"$T/out" 2>&1 || { cat "$T/out"; fail "root --check without tracefs"; }
cat "$T/out"
if grep -q "tracepoint capability:cap_capable" "$T/out"; then
	expect_line "$T/out" "(mounted in a private mount namespace)" "does not say it mounted tracefs"
fi
"$CA" -- true >"$T/out" 2>&1 || { cat "$T/out"; fail "root run without tracefs"; }
[ "$(grep -c tracefs /proc/self/mountinfo)" -eq "$before" ] || fail "tracefs left mounted"
mountpoint -q "$tfs" && fail "$tfs mounted in our namespace"

# 2b. A copy holding cap_sys_admin too, run by nobody, where no tracefs
#     is mounted: it mounts one in a private namespace, which is as
#     root's as every mount of it (the options are the one superblock's);
#     it says tracefs is root's and how to share it, not that none is
#     mounted.
tracefs_mount uid=0,gid=0,mode=0700 && tracefs_unmount || { fail "tracefs root's 0700, unmounted"; finish; }
cp "$CA" "$T/capaudit_admin" && chmod 755 "$T/capaudit_admin"
"$S" cap_perfmon,cap_bpf,cap_sys_admin=ep "$T/capaudit_admin" || { fail "setcap on the admin copy"; finish; }
as_nobody "$T/capaudit_admin" --check >"$T/out" 2>"$T/err" && fail "the admin copy read a tracefs root's 0700"
grep -qxF "capaudit: $tfs: Permission denied (tracefs is root's; let a group read it: mount -o remount,gid=GROUP,mode=0750 $tfs, and at boot: \"tracefs $tfs tracefs gid=GROUP,mode=0750 0 0\" in /etc/fstab)" "$T/err" ||
	fail "the admin copy, no tracefs mounted: no 'tracefs is root's' line: $(cat "$T/err")"
grep -q "not mounted" "$T/err" && fail "the admin copy says tracefs is not mounted, though it mounted one"
mountpoint -q "$tfs" && fail "$tfs mounted in our namespace"

# 3. tracefs as the kernel mounts it by default: the id is root's to read.
tracefs_mount uid=0,gid=0,mode=0700 || { fail "mount tracefs"; finish; }
if [ -e "$tfs/events/capability/cap_capable" ]; then
	as_nobody "$T/capaudit" --check >"$T/out" 2>"$T/err" && fail "nobody read root's tracefs"
	cat "$T/err"
	grep -qxF "capaudit: $tfs: Permission denied (tracefs is root's; let a group read it: mount -o remount,gid=GROUP,mode=0750 $tfs, and at boot: \"tracefs $tfs tracefs gid=GROUP,mode=0750 0 0\" in /etc/fstab)" "$T/err" ||
		fail "no permission line for root's tracefs"
	# The fix it names, as written: the group it names may read the id.
	mount -o "remount,gid=65534,mode=0750" "$tfs" &&
		as_nobody cat "$tfs/events/capability/cap_capable/id" >/dev/null ||
		fail "the remount the message names does not let the group read the id"
	mount -o remount,uid=0,gid=0,mode=0700 "$tfs"
fi
umount "$tfs"

# 4. Readable tracefs, but capaudit without cap_perfmon at paranoid >= 0.
tracefs_mount gid=65534,mode=0750 || { fail "mount tracefs gid=nogroup"; finish; }
if [ "$paranoid" -ge 0 ]; then
	as_nobody "$CA" -- touch "$T/ran" >"$T/out" 2>"$T/err"
	rc=$?
	cat "$T/err"
	[ "$rc" -eq 1 ] || fail "exit $rc without CAP_PERFMON, expected 1"
	[ ! -e "$T/ran" ] || fail "the command ran although nothing could be traced"
	grep -q "^capaudit: perf_event_paranoid is $paranoid and capaudit's effective set lacks CAP_PERFMON: " "$T/err" ||
		fail "no perf_event_paranoid line"
	[ "$(wc -l <"$T/err")" -eq 1 ] || fail "more than the one missing thing named"
fi

# 5. The verdict of --check is the kernel's, whatever capabilities root
#    keeps (a bounding set without them leaves exec without them) and in
#    a user namespace, where full capabilities do not count for perf:
#    a probe opening the same raw tracepoint event says what the kernel
#    does, and --check must agree, one way or the other.
id=$tfs/events/capability/cap_capable/id
if [ "$paranoid" -ge 0 ] && [ -r "$id" ]; then
	cat >"$T/probe.py" <<'PROBE'
import ctypes, os, struct, sys
# struct perf_event_attr, version 0 (64 bytes): a tracepoint with raw
# samples, the check capaudit needs the kernel to pass (perf_allow_tracepoint)
attr = struct.pack('=IIQQQQQIIQ', 2, 64, int(open(sys.argv[1]).read()), 1,
                   1 << 10, 0, 1 | (1 << 1), 0, 0, 0)
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
nr = {'x86_64': 298, 'aarch64': 241, 'riscv64': 241, 'ppc64le': 319,
      's390x': 331, 'i686': 336}[os.uname().machine]
fd = libc.syscall(nr, ctypes.c_char_p(attr), 0, -1, -1, 8)
sys.exit(0 if fd >= 0 else 1)
PROBE
	for ns in "" "unshare -U -r"; do
		for keep in all perfmon sys_admin none; do
			case $keep in
			all) bset="" ;;
			none) bset="--bounding-set=-all" ;;
			*) bset="--bounding-set=-all,+$keep" ;;
			esac
			set -- $ns setpriv --inh-caps=-all $bset
			"$@" python3 "$T/probe.py" "$id"
			kernel=$?
			"$@" "$CA" --check >"$T/out" 2>&1
			verdict=$?
			echo "${ns:-initial userns} keeping $keep: kernel $kernel, --check $verdict"
			case $kernel$verdict in
			00|11) ;;
			01) fail "${ns:-initial userns}, $keep: the kernel opens the event, --check refuses: $(cat "$T/out")" ;;
			*) fail "${ns:-initial userns}, $keep: --check says enough, the kernel refuses: $(cat "$T/out")" ;;
			esac
		done
	done
	unshare -U -r "$CA" --check >"$T/out" 2>&1
	grep -qx "capaudit: perf_event_paranoid is $paranoid and capaudit runs in a user namespace other than the initial one: capabilities held there do not count for perf events (run capaudit in the initial user namespace, or set perf_event_paranoid -1)" "$T/out" ||
		fail "no user namespace line: $(cat "$T/out")"
fi

# 6. A capaudit with file capabilities ignores CAPAUDIT_SYSROOT.
if [ -e "$tfs/events/capability/cap_capable" ]; then
	mkdir -p "$T/fake/proc/sys/kernel"
	echo 5.4.0 >"$T/fake/proc/sys/kernel/osrelease"
	CAPAUDIT_SYSROOT=$T/fake as_nobody "$T/capaudit" --check >"$T/out" 2>&1 ||
		{ cat "$T/out"; fail "CAPAUDIT_SYSROOT was honoured with file capabilities"; }
	grep -qx "capaudit: would use tracepoint capability:cap_capable (id [0-9]*) from $tfs" "$T/out" ||
		fail "--check: $(cat "$T/out")"
	# uid 0 with root's privileges off (SECBIT_NOROOT) and no capability
	# gains the file's at the exec without AT_SECURE: the copy still holds
	# privileges its caller does not, and a fake /sys (here one with a
	# kprobe PMU of another type) is still not its to read.
	mkdir -p "$T/fake/sys/bus/event_source/devices/kprobe/format"
	echo 9 >"$T/fake/sys/bus/event_source/devices/kprobe/type"
	echo config:0 >"$T/fake/sys/bus/event_source/devices/kprobe/format/retprobe"
	CAPAUDIT_SYSROOT=$T/fake $noroot "$T/capaudit" --check >"$T/out" 2>&1 ||
		{ cat "$T/out"; fail "uid 0 under SECBIT_NOROOT: --check failed"; }
	grep -qx "capaudit: would use tracepoint capability:cap_capable (id [0-9]*) from $tfs" "$T/out" ||
		fail "uid 0 under SECBIT_NOROOT: CAPAUDIT_SYSROOT was honoured with file capabilities: $(cat "$T/out")"
fi

# 7. The same copy, run by uid 0 under SECBIT_NOROOT holding nothing:
#    --iab and --user would pass the file's cap_perfmon on to the command
#    (it was ambient in the command, for every program it runs); refused.
for opt in "--iab=^cap_perfmon" "--user=root"; do
	$noroot "$T/capaudit" "$opt" --output=/dev/null -- sh -c 'grep "^CapAmb:" /proc/self/status' \
		>"$T/out" 2>"$T/err"
	rc=$?
	[ "$rc" -eq 2 ] && [ ! -s "$T/out" ] && grep -qx "capaudit: --iab and --user are refused when capaudit runs with file capabilities (they would pass its own privilege to the command); run it as root for them" "$T/err" &&
		pass || fail "uid 0 under SECBIT_NOROOT, $opt: exit $rc, $(cat "$T/out" "$T/err")"
done
finish "capaudit: what is missing is named, and nothing is left mounted"
