#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# perfdoctor's verdict agrees with the real kernel: for each set-up, the
# doctor's YES/NO (exit 0/1) must match whether the CPU-wide perf probe
# actually opens its event when run as nobody, and the printed fix must
# turn a NO into a YES when applied.
set -u
doctor=$TOP/progs/perfdoctor probe=$BIN/perfprobe
[ -x "$doctor" ] || { echo "perfdoctor not built"; exit 1; }
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null || echo x)
case $paranoid in
-*|0|x) echo "skipped: perf_event_paranoid is '$paranoid'; CPU-wide events need no capability here"; exit 77 ;;
esac
[ "$(cat /proc/sys/kernel/cap_last_cap)" -ge 38 ] ||
	{ echo "skipped: this kernel predates CAP_PERFMON"; exit 77; }

tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
perf=$tmp/perf
cp "$probe" "$perf"
fails=0
# No pam_cap grant unless a case writes one: the doctor must not read /etc.
conf=$tmp/capability.conf
: >"$conf"

# Through sh: setpriv itself still holds root's capabilities at its exec.
as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups sh -c 'exec "$0" "$@"' "$@"; }

# check LABEL: the doctor's verdict must equal the probe's real outcome.
check() {
	"$doctor" --config="$conf" --user=nobody "$perf" >"$tmp/out" 2>&1; d=$?
	as_nobody "$perf" >/dev/null 2>&1; r=$?
	[ $r -eq 0 ] || r=1	# 126: not executable, 1: event refused
	if [ $d -ne $r ] || [ $d -gt 1 ]; then
		echo "FAIL $1: doctor exit $d, probe exit $r"; cat "$tmp/out"; fails=$((fails + 1))
	else
		echo "ok $1: doctor and kernel agree (exit $d)"
	fi
}
expect() {	# expect TEXT: the last doctor output contains it
	grep -qF -- "$1" "$tmp/out" || { echo "FAIL: no '$1' in:"; cat "$tmp/out"; fails=$((fails + 1)); }
}

check "no capabilities"
expect "verdict:   NO: $perf carries no cap_perfmon"
expect "fix:       setcap cap_perfmon,cap_syslog=ep $perf"

/usr/sbin/setcap cap_perfmon+p "$perf"
check "permitted but not effective"
expect "in permitted but not effective"

# Apply the doctor's own fix line and check that it turns NO into YES.
"$doctor" --config="$conf" --user=nobody "$perf" >"$tmp/out" 2>&1
fix=$(sed -n 's/^fix: *\(setcap .*\)$/\1/p' "$tmp/out" | head -n 1)
[ -n "$fix" ] || { echo "FAIL: no setcap fix printed"; fails=$((fails + 1)); }
set -- $fix
/usr/sbin/setcap "$2" "$3"
check "after the printed fix"
expect "verdict:   YES: nobody can monitor the whole system"
expect "risk:      kernel-read (cap_"

/usr/sbin/setcap cap_sys_admin=ep "$perf"
check "cap_sys_admin instead"
expect "suggest:   perf needs cap_perfmon (Linux 5.8+), not cap_sys_admin"
expect "risk:      root-equivalent"

/usr/sbin/setcap cap_perfmon=ep "$perf"
chmod 0750 "$perf"
check "not executable by nobody"
expect "verdict:   NO: nobody may not execute $perf"
expect "fix:       groupadd perf_users; chgrp perf_users $perf; chmod 0750 $perf"
chmod 0755 "$perf"

# cap_perfmon+ei only helps callers holding cap_perfmon inheritable.
/usr/sbin/setcap cap_perfmon+ei "$perf"
check "inheritable-only file capability"
expect "only to callers holding it in their inheritable set"

# The same file with pam_cap granting cap_perfmon inheritable at login: the
# doctor counts the grant, and so does the kernel for a session holding it.
echo "cap_perfmon nobody" >"$conf"
as_nobody() {
	setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps=+perfmon \
		sh -c 'exec "$0" "$@"' "$@"
}
check "inheritable-only file capability plus pam_cap's grant"
expect "pam_cap:   $conf:1 grants 'cap_perfmon' (user name nobody)"
expect "verdict:   YES"
echo "cap_bogus nobody" >"$conf"
"$doctor" --config="$conf" --user=nobody "$perf" >"$tmp/out" 2>&1
[ $? -eq 1 ] || { echo "FAIL: a bad grant line counted"; fails=$((fails + 1)); }
expect "not valid IAB text, so nothing"

"$doctor" --user=no-such-user-here "$perf" >"$tmp/out" 2>&1
[ $? -eq 2 ] || { echo "FAIL: unknown user should exit 2"; fails=$((fails + 1)); }
expect "perfdoctor: user 'no-such-user-here' is not known"
"$doctor" --pid=abc >"$tmp/out" 2>&1
[ $? -eq 2 ] || { echo "FAIL: bad --pid should exit 2"; fails=$((fails + 1)); }

[ $fails -eq 0 ]
