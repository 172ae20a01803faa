#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# perfdoctor's verdict for a new login that depends on
# pam_cap agrees with a real login through the same PAM stack. For each
# stack and capability.conf, "perfdoctor --user=alice" (a new login of
# alice through --service, read from --pam-dir) must answer YES exactly
# when pamcase, running that very stack through libpam (pam_wrapper) and
# becoming alice like a login program, then execs a perf probe that opens
# its CPU-wide event; NO exactly when it does not; UNKNOWN only where the
# outcome depends on what perfdoctor cannot know, which the test shows by
# running both outcomes. Login orders: "login" (auth, setcred, switch to
# the user, pam_end(PAM_SUCCESS|PAM_DATA_SILENT): util-linux login and
# su) and "sshd" (auth, setcred, switch, and a pam_end without
# PAM_DATA_SILENT: OpenSSH ends PAM in another process; emulated here,
# no real sshd runs). A FIFO for a stack's file is refused, no hang.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
. "$TESTS_DIR/tools/perf_world.sh"
require_pam_driver
doctor_bin=$BUILD/progs/perfdoctor

cp "$BIN/perfprobe" "$T/perf-ei"
cp "$BIN/perfprobe" "$T/perf-ep"
cp "$BIN/perfprobe" "$T/perf-plain"
chmod 0755 "$T/perf-ei" "$T/perf-ep" "$T/perf-plain"
/usr/sbin/setcap cap_perfmon+ei "$T/perf-ei"
/usr/sbin/setcap cap_perfmon=ep "$T/perf-ep"
conf=$T/capability.conf
printf 'auth required pam_permit.so\nauth optional %s config=%s\n' "$OURS" "$conf" >"$T/svc/common-cap"
printf 'auth required pam_permit.so\n' >"$T/svc/common-nocap"

# doctor SERVICE PROG: perfdoctor for a new login of alice; $d its exit.
doctor() {
	ours "$doctor_bin" --user=alice --pam-dir="$T/svc" \
		--service="$1" --config="$T/unused.conf" "$2" >"$T/doc" 2>&1
	d=$?
}
# login SERVICE PROG ORDER: alice's login through SERVICE, then PROG; $r
# is 0 when the probe opened its event.
login() {
	case $3 in
	login) set -- "$1" "$2" auth setcred become end=silent ;;
	sshd) set -- "$1" "$2" auth setcred become ;;
	esac
	svc=$1 prog=$2
	shift 2
	# Never under valgrind: it loads the probe itself, and file
	# capabilities apply only to an execve() by the kernel.
	VALGRIND_CMD='' pam -s "$svc" -u alice -x "$prog" "$@" >"$T/login.out"
	r=$?
	[ $r -eq 0 ] || r=1	# 1: the event was refused; 3: exec itself failed
}
# check LABEL WANT SERVICE PROG ORDER [GREP]: the doctor says WANT (yes,
# no) for that login, and the login agrees.
agree() {
	label=$1 want=$2 svc=$3 prog=$4 order=$5 text=${6:-}
	doctor "$svc" "$prog"
	login "$svc" "$prog" "$order"
	case $want in yes) wd=0 wr=0 ;; no) wd=1 wr=1 ;; esac
	if [ $d -ne $wd ] || [ $r -ne $wr ]; then
		fail "$label: doctor exit $d (want $wd), $order login's probe exit $r (want $wr)"
		sed 's/^/    /' "$T/doc" "$T/login.out"
	elif [ -n "$text" ] && ! grep -qF -- "$text" "$T/doc"; then
		fail "$label: no '$text' in:"; sed 's/^/    /' "$T/doc"
	else
		ok "$label: doctor and a real login agree: $want"
	fi
}
# unknown LABEL SERVICE PROG TEXT ORDER-THAT-WORKS ORDER-THAT-FAILS: the
# doctor says UNKNOWN (exit 3) with TEXT, and indeed one login order
# gets perf and the other does not.
unknown() {
	label=$1 svc=$2 prog=$3 text=$4
	doctor "$svc" "$prog"
	[ $d -eq 3 ] && pass || { fail "$label: doctor exit $d, want 3 (unknown)"; sed 's/^/    /' "$T/doc"; return; }
	grep -qF -- "$text" "$T/doc" && pass || { fail "$label: no '$text' in:"; sed 's/^/    /' "$T/doc"; return; }
	ok "$label: unknown: $(grep '^verdict' "$T/doc")"
}
# stack NAME LINES...: a service file.
stack() {
	name=$1
	shift
	printf '%s\n' "$@" >"$T/svc/$name"
}

# (a) inheritable grant, cap_perfmon+ei perf.
echo 'cap_perfmon alice' >"$conf"
stack login "@include $T/svc/common-cap"
agree "inheritable grant, pam_cap via @include" yes login "$T/perf-ei" login \
	"pam_cap at $T/svc/common-cap:2"
# With cap_perfmon=ei only users bringing it inheritable get it (the PAM
# grant): no "every user may run it" line, whose setcap --perf would
# replace the grant with a group (it was printed here).
if grep -q '^suggest:' "$T/doc"; then
	fail "a PAM deployment got a suggestion:"; grep '^suggest:' "$T/doc" | sed 's/^/    /'
else
	pass
fi
stack login "auth include $T/svc/common-cap"
agree "inheritable grant, pam_cap via include" yes login "$T/perf-ei" login
stack login "auth substack $T/svc/common-cap"
agree "inheritable grant, pam_cap via substack" yes login "$T/perf-ei" login
stack login "@include $T/svc/common-nocap"
agree "pam_cap not in the stack" no login "$T/perf-ei" login \
	"no pam_cap in its auth stack, so capability.conf is not read"
stack login "auth optional /nonexistent/pam_cap.so config=$conf"
agree "pam_cap named but not installed" no login "$T/perf-ei" login \
	"/nonexistent/pam_cap.so is not installed"
stack sshd "@include $T/svc/common-cap"
agree "inheritable grant through sshd (setcred before the switch)" yes sshd "$T/perf-ei" sshd
# A jump that skips pam_cap when the module before it succeeds.
stack login "auth [success=1 default=ignore] pam_permit.so" "@include $T/svc/common-cap"
agree "jump over pam_permit only" yes login "$T/perf-ei" login
# may_skip LABEL CONTROL TEXT: with "auth CONTROL MODULE" before pam_cap,
# the doctor says UNKNOWN with TEXT, and rightly: pam_cap is skipped when
# MODULE is pam_permit.so (the probe fails), not when it is pam_deny.so.
may_skip() {
	stack login "auth $2 pam_permit.so" "@include $T/svc/common-cap"
	unknown "$1" login "$T/perf-ei" "$3"
	login login "$T/perf-ei" login
	[ $r -eq 1 ] && pass || fail "$1, pam_permit.so: probe exit $r, want 1"
	stack login "auth $2 pam_deny.so" "@include $T/svc/common-cap"
	login login "$T/perf-ei" login
	[ $r -eq 0 ] && pass || fail "$1, pam_deny.so: probe exit $r, want 0"
}
may_skip "a jump that may skip pam_cap" "[success=2 default=ignore]" \
	"may jump over it before pam_cap runs"
may_skip "a sufficient module before pam_cap" sufficient \
	"may end the stack before pam_cap runs"
# A sufficient module inside a substack ends only the substack.
stack login "auth substack $T/svc/common-suff" "@include $T/svc/common-cap"
printf 'auth sufficient pam_permit.so\n' >"$T/svc/common-suff"
agree "sufficient inside an earlier substack" yes login "$T/perf-ei" login

# (b) what the grant itself does.
stack login "@include $T/svc/common-cap"
echo 'cap_bogus alice' >"$conf"
agree "grant text that is not IAB" no login "$T/perf-ei" login "not valid IAB text, so nothing"
echo '!cap_perfmon alice' >"$conf"
agree "a bounding drop against a +ep perf" no login "$T/perf-ep" login \
	"bounding set lacks cap_perfmon"
echo 'cap_perfmon alice' >"$conf"
chmod o+w "$conf"
agree "a world-writable capability.conf" no login "$T/perf-ei" login "pam_cap stops here"
chmod o-w "$conf"
# A line pam_cap cannot use ends its decision: the broader line after it
# never grants (pam_cap fails closed there), and perfdoctor must not say
# it does.
printf 'none alice\000\ncap_perfmon *\n' >"$conf"
agree "an unusable line before a broader one" no login "$T/perf-ei" login \
	"pam_cap stops here (NUL byte in line): grants nothing, not even default="
# Debian's capability.conf ends with "none *": a grant appended below it
# is never reached (the first matching line wins). perfdoctor and capcheck
# must say so, and say to move it above; a real login agrees, before and
# after the move.
printf '# as Debian ships it\nnone  *\ncap_perfmon @perf_users\n' >"$conf"
agree "a grant below 'none *'" no login "$T/perf-ei" login \
	"fix:       sed -i -e '2i cap_perfmon @perf_users' -e 3d $conf   # moves line 3 ('cap_perfmon @perf_users') above line 2: the '*' on line 2 matches everybody first"
ours "$BUILD/progs/capcheck" -c "$conf" alice >"$T/cc" 2>&1
grep -qF "never reached: line 3 ('cap_perfmon', group @perf_users) is meant for alice, but the '*' on line 2 matches first: move line 3 above line 2" "$T/cc" && pass ||
	{ fail "capcheck on a grant below 'none *':"; sed 's/^/    /' "$T/cc"; }
printf '# as Debian ships it\nnone  *\n' >"$conf"
agree "no grant, a 'none *' line" no login "$T/perf-ei" login \
	"fix:       sed -i '2i cap_perfmon alice' $conf   # above line 2: its '*' matches everybody first"
printf 'cap_perfmon @perf_users\n# as Debian ships it\nnone  *\n' >"$conf"
agree "the grant moved above 'none *'" yes login "$T/perf-ei" login
ours "$BUILD/progs/capcheck" -c "$conf" alice >"$T/cc" 2>&1 && pass ||
	{ fail "capcheck on the moved grant: exit $?"; sed 's/^/    /' "$T/cc"; }
# An ambient grant below it, perf without file capabilities.
printf 'none  *\n^cap_perfmon @perf_users\n' >"$conf"
stack login "@include $T/svc/common-amb-early"
printf 'auth required pam_permit.so\nauth optional %s config=%s keepcaps defer\n' \
	"$OURS" "$conf" >"$T/svc/common-amb-early"
agree "an ambient grant below 'none *'" no login "$T/perf-plain" login \
	"fix:       sed -i -e '1i ^cap_perfmon @perf_users' -e 2d $conf   # moves line 2 ('^cap_perfmon @perf_users') above line 1"
printf '^cap_perfmon @perf_users\nnone  *\n' >"$conf"
agree "the ambient grant moved above 'none *'" yes login "$T/perf-plain" login
stack login "@include $T/svc/common-cap"
echo 'none bob' >"$conf"
printf 'auth required pam_permit.so\nauth optional %s config=%s default=cap_perfmon\n' \
	"$OURS" "$conf" >"$T/svc/login"
agree "default= when no line matches" yes login "$T/perf-ei" login "so default='cap_perfmon' applies"
# No capability.conf at all: pam_cap applies default= (as libcap does).
mv "$conf" "$conf.away"
agree "default= with no capability.conf" yes login "$T/perf-ei" login \
	"does not exist, so no line matches alice, so default='cap_perfmon' applies"
mv "$conf.away" "$conf"

# (c) ambient grant, perf without file capabilities.
echo '^cap_perfmon alice' >"$conf"
printf 'auth required pam_permit.so\nauth optional %s config=%s keepcaps defer\n' \
	"$OURS" "$conf" >"$T/svc/common-amb"
stack login "@include $T/svc/common-amb"
agree "ambient grant, keepcaps defer, login" yes login "$T/perf-plain" login
stack sshd "@include $T/svc/common-amb"
agree "ambient grant through sshd" no sshd "$T/perf-plain" sshd \
	"OpenSSH never calls pam_end() in the session"
stack login "@include $T/svc/common-cap"
agree "ambient grant without keepcaps defer" no login "$T/perf-plain" login \
	"the kernel clears the ambient set when login switches from root to the user"
stack xdm "@include $T/svc/common-amb"
unknown "ambient grant through an unknown program" xdm "$T/perf-plain" \
	"is not known to perfdoctor"
login xdm "$T/perf-plain" login
[ $r -eq 0 ] && pass || fail "xdm, login order: probe exit $r, want 0"
login xdm "$T/perf-plain" sshd
[ $r -eq 1 ] && pass || fail "xdm, sshd order: probe exit $r, want 1"
# A session that began before capability.conf granted it: NO for the
# session (the probe run with its credentials fails), "log in again", and
# the new login through the same stack indeed works.
stack login "@include $T/svc/common-cap"
echo 'cap_perfmon alice' >"$conf"
setpriv --reuid=4001 --regid=4001 --groups=4001,4100 sleep 120 &
old=$!
at_exit 'kill $old 2>/dev/null'
held_session "$old" || fail "the old session never started"
ours "$doctor_bin" --pid="$old" --pam-dir="$T/svc" --service=login \
	--config="$T/unused.conf" "$T/perf-ei" >"$T/doc" 2>&1
d=$?
probe_as 4001 4001 4001,4100 "$T/perf-ei"; pr=$?
login login "$T/perf-ei" login
if [ $d -eq 1 ] && [ $pr -eq 1 ] && [ $r -eq 0 ] &&
	grep -q "a new login of alice would pass" "$T/doc"; then
	ok "an old session: NO and log in again, and a new login works"
else
	fail "old session: doctor exit $d, probe exit $pr, new login $r"; sed 's/^/    /' "$T/doc"
fi
kill $old

# A session holding the ambient grant whose real uid is another than its
# effective one (alice's): by the rule of Linux 6.15 and before (uname(2)
# made to say 2.6), exec clears its ambient set for those ids alone, and
# by this kernel's it does not, so on such a release the verdict is
# UNKNOWN (the release may carry either rule). A new
# login would pass, but not because the databases changed, as perfdoctor
# said, telling to log in again in place of every other fix; the reason
# and the fix are the session's ids.
if setarch "$(uname -m)" --uname-2.6 true 2>/dev/null; then
	stack login "@include $T/svc/common-amb"
	echo '^cap_perfmon alice' >"$conf"
	setpriv --ruid=4002 --euid=4001 --regid=4001 --groups=4001,4100 \
		--inh-caps=+perfmon --ambient-caps=+perfmon sleep 120 &
	mixed=$!
	# shellcheck disable=SC2016 # at_exit expands it when the suite ends
	at_exit 'kill $mixed 2>/dev/null'
	held_session "$mixed" || fail "the session of mixed ids never started"
	# shellcheck disable=SC2086 # VALGRIND_CMD: a command line
	setarch "$(uname -m)" --uname-2.6 env LD_PRELOAD="$NWRAP" \
		NSS_WRAPPER_PASSWD="$T/passwd" NSS_WRAPPER_GROUP="$T/group" \
		ASAN_OPTIONS=verify_asan_link_order=0 ${VALGRIND_CMD:-} "$doctor_bin" \
		--pid="$mixed" --pam-dir="$T/svc" --service=login \
		--config="$T/unused.conf" "$T/perf-plain" >"$T/doc" 2>&1
	d=$?
	kill $mixed
	if [ $d -eq 3 ] && ! grep -q "log in again" "$T/doc" &&
		grep -qx "fix:       run perf from a session whose real and effective ids are the same" "$T/doc"; then
		ok "mixed ids with the ambient grant, as on Linux 6.15 and before: UNKNOWN for the ids, not log in again"
	else
		fail "mixed ids, as on Linux 6.15 and before: doctor exit $d, want 3, the ids' fix, no log in again"
		sed 's/^/    /' "$T/doc"
	fi
else
	not_checked "setarch --uname-2.6 is refused here; the rule of Linux 6.15 and before not checked"
fi

# Typos a stack keeps quiet about (a Debian administrator's trial): pam_cap
# ignores an argument it does not know ("keepcap": then defer without
# keepcaps, and the grant never arrives), and libpam skips a module it
# cannot load ("pam_capp.so"). perfdoctor names both; the logins agree.
echo '^cap_perfmon alice' >"$conf"
printf 'auth required pam_permit.so\nauth optional %s config=%s keepcap defer\n' \
	"$OURS" "$conf" >"$T/svc/common-typo"
stack login "@include $T/svc/common-typo"
agree "an argument pam_cap does not know" no login "$T/perf-plain" login \
	"warning:   $T/svc/common-typo:2: pam_cap ignores the argument 'keepcap' (did you mean 'keepcaps'?)"
printf 'auth required pam_permit.so\nauth optional pam_capp.so config=%s\n' \
	"$conf" >"$T/svc/common-typo"
echo 'cap_perfmon alice' >"$conf"
agree "a module name one letter off" no login "$T/perf-ei" login \
	"warning:   $T/svc/common-typo:2: module 'pam_capp.so' is not installed: did you mean 'pam_cap.so'?"

# A relative config= is refused by pam_cap (it would be read from the
# caller's working directory); perfdoctor, run where that name does lead
# to a file granting the user perf, must not answer from it. Empty too.
echo 'cap_perfmon alice' >"$conf"
here=$(pwd)
cd "$(dirname "$conf")" && pass || fail "cd to the capability.conf's directory"
for rel in "$(basename "$conf")" "./$(basename "$conf")" ""; do
	printf 'auth required pam_permit.so\nauth optional %s config=%s\n' \
		"$OURS" "$rel" >"$T/svc/common-rel"
	stack login "@include $T/svc/common-rel"
	agree "config='$rel', a relative path" no login "$T/perf-ei" login \
		"pam_cap's config= is not an absolute path, so pam_cap grants nothing"
done
cd "$here" && pass || fail "cd back"

# A FIFO for a service's file, or for a file an include names, is never
# opened for reading (its open would wait for a writer for ever, as
# libpam's does): the stack cannot be read, and the report says why.
mkfifo "$T/svc/fifo" "$T/svc/common-fifo"
stack login "@include $T/svc/common-fifo"
echo 'cap_perfmon alice' >"$conf"
for svc in fifo login; do
	# shellcheck disable=SC2086 # VALGRIND_CMD is a command line
	nss timeout -s KILL 20 ${VALGRIND_CMD:-} "$doctor_bin" --user=alice --pam-dir="$T/svc" --service="$svc" \
		--config="$conf" "$T/perf-ei" >"$T/doc" 2>&1
	d=$?
	file=$T/svc/fifo
	[ "$svc" = fifo ] || file=$T/svc/common-fifo
	[ $d -eq 3 ] && grep -qF "$file: not a regular file" "$T/doc" && pass ||
		{ fail "a FIFO for $file: exit $d (137: killed after 20 s), want 3 and why"; sed 's/^/    /' "$T/doc"; }
done

# Several services: the answer is theirs only if they all agree.
echo '^cap_perfmon alice' >"$conf"
stack login "@include $T/svc/common-amb"
doctor login,sshd "$T/perf-plain"
[ $d -eq 3 ] && grep -qF "it depends on how the user logs in: login yes; sshd no" "$T/doc" && pass ||
	{ fail "login,sshd: exit $d"; sed 's/^/    /' "$T/doc"; }
finish
