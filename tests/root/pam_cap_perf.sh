#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# The whole login story on the real kernel, as root: PAM auth and setcred
# through our pam_cap.so, then the process becomes the user (setgroups,
# setgid, setuid) and execs a perf probe that opens a CPU-wide perf event.
#  (a) inheritable grant + a probe carrying cap_perfmon+ei: only members of
#      perf_users get CAP_PERFMON (P' = fP | (pI & fI), and fP is empty);
#  (b) ambient grant with keepcaps+defer, applied after setuid by
#      pam_end(PAM_SUCCESS|PAM_DATA_SILENT): a probe without file caps
#      gets CAP_PERFMON for members only; without defer setuid drops it.
# Users and groups are nss_wrapper entries; nothing in /etc is touched.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
. "$TESTS_DIR/tools/pam_world.sh"
require_pam_driver
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null || echo -1)
if [ "$paranoid" -lt 1 ]; then
	skip "perf_event_paranoid=$paranoid lets anybody open CPU-wide events"
fi
SETCAP=$BUILD/progs/setcap
[ -x "$SETCAP" ] || SETCAP=/usr/sbin/setcap
[ -x "$SETCAP" ] || skip "no setcap to give the probe file capabilities"

cp "$BIN/perfprobe" "$T/perf-ei"
cp "$BIN/perfprobe" "$T/perf-plain"
chmod 755 "$T/perf-ei" "$T/perf-plain"
"$SETCAP" cap_perfmon+ei "$T/perf-ei" || { fail "setcap failed"; finish; }

# Without PAM the file's inheritable bit alone must give a user nothing.
if setpriv --reuid=4002 --regid=4002 --clear-groups "$T/perf-ei" >/dev/null 2>&1; then
	fail "perf-ei works without any grant: the test would prove nothing"; finish
fi
pass

# login USER CONF ARGS OPS PROG EXPECTED-PAM-LINE EXPECTED-PROBE-RC
# The service stands in for login: pam_permit plays the password check.
# With Debian's pam_cap.so installed, every login also runs through it and
# must end the same way (differential test on the real kernel).
login() {
	login_with "$OURS" "$@"
	[ -z "$DEB" ] || login_with "$DEB" "$@"
}

login_with() {
	mod=$1 user=$2 conf=$3 args=$4 ops=$5 prog=$6 want=$7 want_rc=$8
	cases=$((cases + 1))
	printf '%s\n' "$conf" >"$T/c$cases"
	printf 'auth required pam_permit.so\nauth optional %s config=%s %s\n' \
		"$mod" "$T/c$cases" "$args" >"$T/svc/login$cases"
	# shellcheck disable=SC2086 # ops are words
	out=$(pam -s "login$cases" -u "$user" -x "$prog" $ops)
	rc=$?
	pamline=$(printf '%s\n' "$out" | head -n 1)
	if [ "$pamline" != "$want" ] || [ "$rc" -ne "$want_rc" ]; then
		fail "case $cases ($mod): $user with '$conf' ($args), $ops, $(basename "$prog")"
		echo "    want: $want / probe exit $want_rc"
		printf '%s\n' "$out" | sed 's/^/    got:  /'
		echo "    probe exit $rc"; sed 's/^/    log: /' "$T/log" | head -5
		return
	fi
	pass
	# The probe's own view of its capabilities after exec, for the record.
	label=debian; [ "$mod" = "$OURS" ] && label=ours
	printf '%s %s: %s\n' "$label" "$user" "$(printf '%s\n' "$out" | grep -E '^(CapEff|perf)' | tr '\n\t' '  ')"
}

good='auth=SUCCESS setcred=SUCCESS end=SUCCESS'
# (a) inheritable grant, file cap_perfmon+ei.
A='cap_perfmon @perf_users'
login alice "$A" '' 'auth setcred end' "$T/perf-ei" "$good iab=38 keepcaps=0" 0
login carol "$A" '' 'auth setcred end' "$T/perf-ei" "$good iab=38 keepcaps=0" 0
login bob   "$A" '' 'auth setcred end' "$T/perf-ei" "$good iab= keepcaps=0" 1
login zed   "$A" '' 'auth setcred end' "$T/perf-ei" "$good iab= keepcaps=0" 3	# no such user: no login
login alice "$A" '' 'auth setcred end' "$T/perf-plain" "$good iab=38 keepcaps=0" 1
# Dropping the bit from the bounding set does not stop pI & fI (the kernel
# masks only fP with it): an I grant is a grant, whatever B says.
login alice '!cap_perfmon,cap_perfmon @perf_users' '' 'auth setcred end' "$T/perf-ei" "$good iab=!%38 keepcaps=0" 0

# (b) ambient grant: keepcaps and defer, applied after setuid.
B='^cap_perfmon @perf_users'
login alice "$B" 'keepcaps defer' 'auth setcred become end=silent' "$T/perf-plain" "$good iab=^38 keepcaps=1" 0
login bob   "$B" 'keepcaps defer' 'auth setcred become end=silent' "$T/perf-plain" "$good iab= keepcaps=0" 1
login alice "$B" 'keepcaps' 'auth setcred become end=silent' "$T/perf-plain" "$good iab=38 keepcaps=1" 1
login alice "$B" 'keepcaps defer' 'auth setcred become end' "$T/perf-plain" "$good iab= keepcaps=1" 1

echo "$cases logins${DEB:+, half of them through $DEB}"
finish
