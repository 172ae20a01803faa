#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# Drop-in check: Debian's own /usr/sbin/capsh and /usr/sbin/getpcaps, run
# on our libcap.so.2 (LD_LIBRARY_PATH), print exactly what they print on
# the system libcap, for several process states: plain, dropped bounding
# bits, an IAB with ambient perfmon, nobody, the modes, securebits,
# chroot, and capsh's own launcher-free helpers.
set -u
. "$TESTS_DIR/lib.sh"
# Users and groups by name (nobody, nogroup) from the base accounts only.
private_etc "$@"
[ "$(id -u)" -eq 0 ] || { echo "skipped: needs root (capsh state changes)"; exit 77; }
capsh=/usr/sbin/capsh getpcaps=/usr/sbin/getpcaps
if [ ! -x "$capsh" ] || [ ! -x "$getpcaps" ]; then
	echo "skipped: Debian's capsh/getpcaps (libcap2-bin) are not installed"; exit 77
fi
lib=$BUILD/libcap
[ -e "$lib/libcap.so.2" ] || { echo "libcap.so.2 is not built"; exit 1; }
if ldd "$lib/libcap.so.2" | grep -q 'libasan\|libubsan'; then
	echo "skipped: libcap is built with sanitizers; uninstrumented Debian binaries cannot load it"; exit 77
fi
# Prove the loader really picks our library up.
LD_LIBRARY_PATH=$lib ldd "$capsh" | grep -q "$lib/libcap.so.2" ||
	{ echo "capsh does not load $lib/libcap.so.2"; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

n=0 bad=0
check() {
	n=$((n + 1))
	"$@" >"$tmp/sys.out" 2>"$tmp/sys.err"; sys_rc=$?
	LD_LIBRARY_PATH=$lib "$@" >"$tmp/our.out" 2>"$tmp/our.err"; our_rc=$?
	# Pids differ between runs; getpcaps echoes them.
	sed -i 's/^[0-9][0-9]*:/PID:/' "$tmp/sys.out" "$tmp/our.out"
	if ! cmp -s "$tmp/sys.out" "$tmp/our.out" ||
	   ! cmp -s "$tmp/sys.err" "$tmp/our.err" || [ $sys_rc -ne $our_rc ]; then
		bad=$((bad + 1))
		echo "DIFFERS: $* (exit system $sys_rc, ours $our_rc)"
		diff "$tmp/sys.out" "$tmp/our.out" | head -8
		diff "$tmp/sys.err" "$tmp/our.err" | head -8
	fi
}

gp="$getpcaps --iab --verbose 0"
for state in "" --drop=cap_sys_admin "--iab=!cap_sys_admin,^cap_perfmon" \
	     "--inh=cap_perfmon --addamb=cap_perfmon" --user=nobody \
	     --mode=NOPRIV --mode=PURE1E_INIT --mode=PURE1E --mode=HYBRID \
	     "--keep=1 --uid=65534" "--secbits=0x2f" --secbits=0xef --secbits=0xff "--caps=cap_kill+eip" \
	     "--inh=cap_kill,cap_bpf" "--chroot=/" "--groups=4,24 --gid=65534" \
	     "--iab=cap_bpf --noamb" --delamb=cap_kill; do
	# shellcheck disable=SC2086
	check "$capsh" $state --print
	# shellcheck disable=SC2086
	check "$capsh" $state -- -c "$gp; $getpcaps --legacy 0; $getpcaps 0"
done
check "$capsh" --modes
check "$capsh" --inmode=HYBRID
check "$capsh" --mode
check "$capsh" --has-b=cap_sys_admin
check "$capsh" --drop=cap_sys_admin --has-b=cap_sys_admin
check "$capsh" "--iab=^cap_perfmon" --has-a=cap_perfmon
check "$capsh" --has-a=cap_perfmon
check "$capsh" --supports=cap_perfmon
check "$capsh" --current
check "$capsh" --iab=nonsense --print
check "$getpcaps" 1 0 "$$"
check "$getpcaps" --iab 1 0

[ "$bad" -eq 0 ] || { echo "$bad of $n runs differ"; exit 1; }
echo "$n runs of Debian's capsh/getpcaps identical on both libraries"
