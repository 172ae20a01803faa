#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# setcap --perf refuses what the kernel would not honour
# and warns about what is unsafe, each shown on the real kernel:
#  - a "#!" script: with capabilities written by libcap's setcap anyway,
#    running it gives its interpreter (a perfprobe copy) nothing;
#  - a file that is not ELF at all;
#  - a file on a nosuid mount (a private mount namespace with a tmpfs
#    mounted nosuid): there the kernel ignores a perfprobe's capabilities;
#  - a file on a noexec mount: nobody can execute it;
#  - a world-executable binary: accepted with a loud warning naming
#    --perf-group, and indeed bob, in no group, then opens the event.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
. "$TESTS_DIR/tools/perf_world.sh"
setcap=$BUILD/progs/setcap
caps() { /usr/sbin/getcap "$1" | sed 's/^[^ ]* //'; }

# refused FILE WANT-IN-MESSAGE: exit 1, the reason, no capabilities written.
refused() {
	ours "$setcap" --perf "$1" >"$T/out" 2>"$T/err"; rc=$?
	if [ $rc -ne 1 ]; then fail "--perf $1: exit $rc, want 1 ($(cat "$T/out"))"
	elif ! grep -qF -- "$2" "$T/err"; then fail "--perf $1: message: $(cat "$T/err")"
	elif [ -n "$(caps "$1")" ]; then fail "--perf $1: capabilities written: $(caps "$1")"
	else ok "--perf $1: refused: $(cat "$T/err")"; fi
}

# A script whose interpreter is the probe: file capabilities on the script
# would have to reach the interpreter to matter, and the kernel gives it none.
cp "$BIN/perfprobe" "$T/interp"
printf '#!%s\n' "$T/interp" >"$T/script"
chmod 0755 "$T/interp" "$T/script"
refused "$T/script" "is a script (#!$T/interp): the kernel runs its interpreter and ignores the script's file capabilities"
/usr/sbin/setcap cap_perfmon,cap_syslog=ep "$T/script"
probe_as 4002 4002 - "$T/script"; rc=$?
[ $rc -eq 1 ] && pass || fail "a capable script gave its interpreter perf (exit $rc): $(cat "$T/probe.out")"
printf '#!/bin/sh\nexec true\n' >"$T/wrapper"
chmod 0755 "$T/wrapper"
refused "$T/wrapper" "is a script (#!/bin/sh)"

# Neither ELF nor "#!": binfmt_misc's business, or ENOEXEC.
printf 'MZ\220\0 not ELF\n' >"$T/data"
chmod 0755 "$T/data"
refused "$T/data" "is not an ELF executable"

# Mount options are read from the file's own mount, in a private namespace.
unshare -m --propagation private sh -s "$T" "$BIN/perfprobe" "$setcap" "$NWRAP" <<'EOF' >"$T/ns.out" 2>&1
T=$1 probe=$2 setcap=$3 nwrap=$4
rc=0
export LD_PRELOAD="$nwrap" NSS_WRAPPER_PASSWD="$T/passwd" NSS_WRAPPER_GROUP="$T/group" \
	ASAN_OPTIONS=verify_asan_link_order=0
mkdir "$T/nosuid" "$T/noexec"
mount -t tmpfs -o nosuid,mode=0755 none "$T/nosuid" || exit 3
mount -t tmpfs -o noexec,mode=0755 none "$T/noexec" || exit 3
cp "$probe" "$T/nosuid/perf"; cp "$probe" "$T/noexec/perf"
"$setcap" --perf "$T/nosuid/perf" 2>&1; [ $? -eq 1 ] || { echo "FAIL: nosuid accepted"; rc=1; }
"$setcap" --perf "$T/noexec/perf" 2>&1; [ $? -eq 1 ] || { echo "FAIL: noexec accepted"; rc=1; }
[ -z "$(/usr/sbin/getcap "$T/nosuid/perf")" ] || { echo "FAIL: nosuid file got capabilities"; rc=1; }
# What the refusal protects from: with capabilities, the probe still fails.
unset LD_PRELOAD
/usr/sbin/setcap cap_perfmon,cap_syslog=ep "$T/nosuid/perf"
setpriv --reuid=4002 --regid=4002 --clear-groups sh -c 'exec "$0"' "$T/nosuid/perf"
[ $? -eq 1 ] || { echo "FAIL: the kernel honoured capabilities on a nosuid mount"; rc=1; }
cp "$probe" "$T/plain"
/usr/sbin/setcap cap_perfmon,cap_syslog=ep "$T/plain"
setpriv --reuid=4002 --regid=4002 --clear-groups sh -c 'exec "$0"' "$T/plain" ||
	{ echo "FAIL: the same probe off the nosuid mount fails"; rc=1; }
umount "$T/nosuid" "$T/noexec"
exit $rc
EOF
case $? in
0) ok "nosuid and noexec mounts: $(tr '\n' ' ' <"$T/ns.out")" ;;
3) skip "cannot mount a tmpfs in a private mount namespace"; cat "$T/ns.out" ;;
*) fail "mount namespace part:"; cat "$T/ns.out" ;;
esac
grep -q "is on a filesystem mounted nosuid, where the kernel ignores file capabilities; refusing --perf" "$T/ns.out" && pass ||
	fail "no nosuid reason"
grep -q "is on a filesystem mounted noexec: nobody can execute it; refusing --perf" "$T/ns.out" && pass ||
	fail "no noexec reason"

# World-executable: accepted, loudly, and the warning is true.
cp "$BIN/perfprobe" "$T/open"
chmod 0755 "$T/open"
ours "$setcap" --perf "$T/open" >"$T/out" 2>"$T/err" && pass || fail "--perf on a 0755 binary exited $?"
[ "$(cat "$T/out")" = "$T/open: OK" ] && pass || fail "stdout: $(cat "$T/out")"
grep -q "WARNING: $T/open is executable by every user (mode 0755)" "$T/err" && pass ||
	fail "no warning: $(cat "$T/err")"
grep -q "setcap --perf-group=perf_users --perf $T/open" "$T/err" && pass || fail "no --perf-group suggestion"
probe_as 4002 4002 - "$T/open" && pass || fail "bob, in no group, could not use the open binary"
# -q keeps stdout quiet, not the warning.
ours "$setcap" -q --perf "$T/open" >"$T/out" 2>"$T/err"
[ -s "$T/out" ] && fail "-q printed: $(cat "$T/out")" || pass
grep -q WARNING "$T/err" && pass || fail "-q silenced the warning"
# Restricted to a group: no warning.
ours "$setcap" --perf-group=perf_users --perf "$T/open" >"$T/out" 2>"$T/err"
grep -q WARNING "$T/err" && fail "warning for a restricted binary: $(cat "$T/err")" || pass
# Whoever makes a file names it: names reach stdout and stderr escaped,
# never raw, so none can forge a line or drive the terminal.
esc=$(printf '\033')
evil="$T/e
setcap: forged$esc[2J"
printf '#!/bin/sh\n' >"$evil"
ours "$setcap" --perf "$evil" >"$T/out" 2>"$T/err"
grep -q "$esc" "$T/err" "$T/out" && fail "an ESC reached the terminal" || pass
grep -q "^setcap: forged" "$T/err" && fail "a file name forged a line" || pass
grep -qF 'e\012setcap: forged\033[2J is a script' "$T/err" && pass || fail "refusal not escaped: $(cat "$T/err")"
cp "$BIN/perfprobe" "$evil"
chmod 0750 "$evil"
ours "$setcap" --perf "$evil" >"$T/out" 2>"$T/err" && pass || fail "--perf on an oddly named ELF: $(cat "$T/err")"
[ "$(cat "$T/out")" = "$T/e\012setcap: forged\033[2J: OK" ] && pass || fail "OK line not escaped: $(cat "$T/out")"

# perf takes its subcommand from its own name, so a copy named
# perf-test runs "perf test". setcap --perf grants (the file is fine) but
# warns, and so does perfdoctor; perf_test draws no warning. With Debian's
# perf installed, the premise itself is checked: perf-version is "perf version".
cp "$BIN/perfprobe" "$T/perf-test"
cp "$BIN/perfprobe" "$T/perf_test"
chmod 0750 "$T/perf-test" "$T/perf_test"
dispatch="perf runs a file named 'perf-test' as 'perf test' (it takes its subcommand from its own name): name the copy without 'perf-', e.g. 'perf_test'"
ours "$setcap" --perf "$T/perf-test" >"$T/out" 2>"$T/err" && pass || fail "--perf perf-test: exit $?: $(cat "$T/err")"
grep -qxF "setcap: warning: $T/perf-test: $dispatch" "$T/err" && pass || fail "--perf perf-test: no dispatch warning: $(cat "$T/err")"
[ "$(caps "$T/perf-test")" != "" ] && pass || fail "--perf perf-test: nothing granted"
ours "$setcap" --perf "$T/perf_test" >"$T/out" 2>"$T/err" && pass || fail "--perf perf_test: exit $?"
grep -q "as 'perf" "$T/err" && fail "--perf perf_test: warned: $(cat "$T/err")" || pass
ours "$BUILD/progs/perfdoctor" "$T/perf-test" >"$T/doc" 2>&1
grep -qxF "name:      $dispatch" "$T/doc" && pass || { fail "perfdoctor perf-test: no dispatch line:"; sed 's/^/    /' "$T/doc"; }
ours "$BUILD/progs/perfdoctor" "$T/perf_test" >"$T/doc" 2>&1
grep -q '^name:' "$T/doc" && fail "perfdoctor perf_test: dispatch line" || pass
if [ -x /usr/bin/perf ] && head -c 4 /usr/bin/perf | grep -q ELF; then
	cp /usr/bin/perf "$T/perf-version"
	out=$("$T/perf-version" 2>&1)
	case $out in
	"perf version "*) ok "a copy of $(readlink -f /usr/bin/perf) named perf-version runs 'perf version'" ;;
	*) fail "perf-version printed [$out]: the dispatch warning's premise does not hold" ;;
	esac
fi
finish
