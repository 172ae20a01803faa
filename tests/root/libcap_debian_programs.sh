#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# Drop-in check: Debian's own capsh and getpcaps (2.66: the system's, or
# the pinned copy's programs on this system's loader), run on our
# libcap.so.2 (LD_LIBRARY_PATH), print exactly what they print on Debian's
# libcap, for several process states: plain, dropped bounding
# bits, an IAB with ambient perfmon, nobody, the modes, securebits,
# chroot, and capsh's own launcher-free helpers.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
# Users and groups by name (nobody, nogroup) from the base accounts only.
private_etc "$@"
[ "$(id -u)" -eq 0 ] || skip "needs root (capsh state changes)"
need_reference 2.66
capsh=$REF_SBIN/capsh getpcaps=$REF_SBIN/getpcaps
# A pinned copy's programs need glibc 2.34 or later (Debian 12's build).
out=$(ref_env "$capsh" --license 2>&1) ||
	skip "Debian 12's capsh ($capsh) does not run on this system's C library (it needs glibc 2.34 or later): $(printf '%s' "$out" | head -n 1)"
lib=$BUILD/libcap
[ -e "$lib/libcap.so.2" ] || { fail "libcap.so.2 is not built"; finish; }
if ldd "$lib/libcap.so.2" | grep -q 'libasan\|libubsan'; then
	skip "libcap is built with sanitizers; uninstrumented Debian binaries cannot load it"
fi
# Prove the loader really picks our library up.
LD_LIBRARY_PATH=$lib ldd "$capsh" | grep -q "$lib/libcap.so.2" ||
	{ fail "capsh does not load $lib/libcap.so.2"; finish; }

# compare CMD...: the same output and exit status on Debian's libcap and ours.
n=0
compare() {
	n=$((n + 1))
	ref_env "$@" >"$T/sys.out" 2>"$T/sys.err"; sys_rc=$?
	LD_LIBRARY_PATH=$lib "$@" >"$T/our.out" 2>"$T/our.err"; our_rc=$?
	# Pids differ between runs; getpcaps echoes them.
	sed -i 's/^[0-9][0-9]*:/PID:/' "$T/sys.out" "$T/our.out"
	if ! cmp -s "$T/sys.out" "$T/our.out" ||
	   ! cmp -s "$T/sys.err" "$T/our.err" || [ $sys_rc -ne $our_rc ]; then
		fail "$* differs (exit system $sys_rc, ours $our_rc)"
		diff "$T/sys.out" "$T/our.out" | head -8
		diff "$T/sys.err" "$T/our.err" | head -8
	else
		pass
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
	compare "$capsh" $state --print
	# shellcheck disable=SC2086
	compare "$capsh" $state -- -c "$gp; $getpcaps --legacy 0; $getpcaps 0"
done
compare "$capsh" --modes
compare "$capsh" --inmode=HYBRID
compare "$capsh" --mode
compare "$capsh" --has-b=cap_sys_admin
compare "$capsh" --drop=cap_sys_admin --has-b=cap_sys_admin
compare "$capsh" "--iab=^cap_perfmon" --has-a=cap_perfmon
compare "$capsh" --has-a=cap_perfmon
compare "$capsh" --supports=cap_perfmon
compare "$capsh" --current
compare "$capsh" --iab=nonsense --print
compare "$getpcaps" 1 0 "$$"
compare "$getpcaps" --iab 1 0

[ "$fails" -eq 0 ] || echo "$fails of $n runs differ"
finish "$n runs of Debian's capsh/getpcaps identical on both libraries"
