#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# No process of a capaudit --suggest trial outlives capaudit, whatever
# ends capaudit, and nothing a trial mounted or bound stays anywhere.
# A trial runs the command as nobody from a copy carrying the
# capabilities under test; capaudit ended what a trial left behind
# itself, as the subreaper, so when capaudit alone was SIGKILLed (the OOM
# killer, an administrator's kill -9) the trial's command and its daemon
# ran on with the grant, reparented to init, with no time limit:
#   1. mid-trial: the command and the daemon it started hold
#      cap_net_bind_service; capaudit alone (not its process group) is
#      SIGKILLed; within a second no process of the trial remains, no
#      mount namespace holds the trial's bind, and no directory of the
#      trial's is left in TMPDIR;
#   2. at the start: the trial's launched child is held (a fanotify
#      permission event) while it copies the command's file, before the
#      trial's command exists; capaudit alone is SIGKILLed, the read
#      released; the set-up must not go on to run the command with its
#      grant (its empty directory in TMPDIR may stay: it was in use);
#   3. a TMPDIR others may change (0777, not sticky): the launched child
#      mounts, fills and unmounts the trial's directory by its path, so
#      another user who swapped it for a link to a directory of his
#      between those steps got the copy carrying the grant written
#      there, his to run after capaudit; the trials now refuse such a
#      TMPDIR and say why (the grant was proven before);
#   4. a zombie of a trial that a process of nobody's outside it traces
#      (PTRACE_SEIZE: no capability needed over one's own user's) and
#      never waits for: the trial's init, killed at --trial-timeout,
#      waits for it, and capaudit waited for the init for as long as
#      that process liked; now capaudit gives up after a while, says
#      so, and the grant is unproven.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
# nobody by name from the base accounts only.
private_etc "$@"
init
CA=$BUILD/progs/capaudit hostile=$BIN/capaudit_hostile ping=$BIN/capaudit_ping
fanhold=$BIN/capaudit_fanhold
[ -x "$CA" ] && [ -x "$hostile" ] && [ -x "$ping" ] && [ -x "$fanhold" ] ||
	{ fail "capaudit, capaudit_hostile, capaudit_ping or capaudit_fanhold not built"; finish; }
for c in unshare pgrep; do
	command -v "$c" >/dev/null || skip "$c is not installed"
done
"$CA" --check >"$T/out" 2>&1 || skip "capaudit cannot trace here: $(cat "$T/out")"
chmod 755 "$T"
mkdir "$T/bin" "$T/tmp" && chmod 755 "$T/bin"
cp "$hostile" "$T/bin/hold" && chmod 755 "$T/bin/hold"

# trial_procs MARK: the processes whose command line names MARK (the
# trial's command, its daemon, capaudit and its own children), one per
# line with its real uid and effective capabilities.
trial_procs() {
	for p in $(pgrep -f -- "$1"); do
		st=$(sed -n -e 's/^Uid:[[:space:]]*\([0-9]*\).*/uid=\1/p' \
			-e 's/^CapEff:[[:space:]]*/CapEff=/p' "/proc/$p/status" 2>/dev/null)
		[ -n "$st" ] && echo "$p" $st "$(tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null)"
	done
}
# granted MARK: the trial's command (nobody's) holds a capability.
granted() {
	trial_procs "$1" | grep ' uid=65534 ' | grep -qv 'CapEff=0000000000000000'
}
# bound_anywhere: the mount namespaces that still show a mount on $T/bin.
bound_anywhere() {
	grep -l -F " $T/bin/" /proc/[0-9]*/mountinfo 2>/dev/null
}
# gone MARK CASE: within a second nothing of MARK's runs, and no mount
# namespace holds the trial's bind.
gone() {
	n=0
	while [ -n "$(trial_procs "$1")" ] && [ "$n" -lt 10 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	left=$(trial_procs "$1") bound=$(bound_anywhere)
	if [ -n "$left" ]; then
		fail "$2: processes of the trial outlived capaudit:"
		printf '%s\n' "$left" | sed 's/^/    /'
	else
		pass
	fi
	if [ -n "$bound" ]; then
		fail "$2: the trial's bind is still mounted, in:" $bound
	else
		pass
	fi
	[ -z "$left" ] || pkill -KILL -f -- "$1"
}
# start MARK: capaudit --suggest (its pid in $ca) as nobody on hold MARK,
# in a network namespace of its own where port 80 is free (unshare and
# sh exec into capaudit: $! is capaudit's pid), its TMPDIR $T/tmp.
start() {
	TMPDIR=$T/tmp unshare -n sh -c '"$0" --lo-up && exec "$@"' "$ping" \
		"$CA" --suggest --user=nobody --output="$T/rep" -- "$T/bin/hold" --hold "$1" \
		>"$T/ca.out" 2>&1 &
	ca=$!
}

# 1. Mid-trial: the trial with every candidate runs, and holds the grant.
m1=$T/mark-mid-trial
start "$m1"
n=0
while ! granted "$m1" && [ "$n" -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
if granted "$m1"; then
	[ "$(trial_procs "$m1" | grep -c ' uid=65534 ')" -ge 2 ] && pass ||
		fail "mid-trial: the trial's command and its daemon are not both seen"
	kill -KILL "$ca"
	wait "$ca" 2>/dev/null
	gone "$m1" "mid-trial"
	left=$(ls -A "$T/tmp")
	[ -z "$left" ] && pass || fail "mid-trial: left in TMPDIR: $left"
else
	fail "mid-trial: no trial process ever held the grant ($(cat "$T/ca.out"))"
	kill -KILL "$ca" 2>/dev/null
	wait "$ca" 2>/dev/null
fi

# 2. At the start: the second trial (the first with the grant) is held in
#    its set-up, before its command exists.
m2=$T/mark-set-up
rm -f "$T/release"
"$fanhold" "$T/bin/hold" 2 "$T/release" >"$T/fan.out" 2>&1 &
fh=$!
at_exit "kill $fh 2>/dev/null"
n=0
while ! grep -qx ready "$T/fan.out" && kill -0 "$fh" 2>/dev/null && [ "$n" -lt 100 ]; do
	sleep 0.05
	n=$((n + 1))
done
if grep -qx ready "$T/fan.out"; then
	start "$m2"
	n=0
	while ! grep -q '^held ' "$T/fan.out" && [ "$n" -lt 200 ]; do sleep 0.05; n=$((n + 1)); done
	if grep -q '^held ' "$T/fan.out"; then
		kill -KILL "$ca"
		wait "$ca" 2>/dev/null
		: >"$T/release"
		wait "$fh"
		# Released, a set-up that went on would run the command now.
		sleep 0.5
		gone "$m2" "at the start"
	else
		fail "at the start: no trial's set-up was held ($(cat "$T/fan.out" "$T/ca.out"))"
		: >"$T/release"
		kill -KILL "$ca" 2>/dev/null
		wait "$ca" 2>/dev/null
	fi
else
	fail "at the start: cannot watch $T/bin/hold with fanotify: $(cat "$T/fan.out")"
fi
# 3. A TMPDIR others may change: no trial, and the reason said.
mkdir "$T/open" && chmod 777 "$T/open"
TMPDIR=$T/open unshare -n sh -c '"$0" --lo-up && exec "$@"' "$ping" \
	"$CA" --suggest --user=nobody --output="$T/rep" -- "$T/bin/hold" --proc-self \
	>"$T/ca.out" 2>&1
expect_line "$T/rep" "# capaudit --suggest: NOT PROVEN (a directory for the trial's copies: $T/open/capaudit.XXXXXX is in a directory others than root may change: another user could swap it during a trial)" \
	"open TMPDIR: refused"
left=$(ls -A "$T/open")
[ -z "$left" ] && pass || fail "open TMPDIR: left in it: $left"
# 4. A trial's zombie kept by a tracer outside: capaudit ends anyway. The
# tracer must seize the trial's child before the trial's time is up: 2 s,
# and 6 s in a sanitizer build, where the tracer, a copy of
# capaudit_hostile, starts several times slower (3 s were too short
# once, on a loaded machine: the child was gone, PTRACE_SEIZE said
# ESRCH). The trial ends when the tracer has seized it, not at its time.
m4=$T/mark-traced
tt=2
! is_sanitized || tt=6
TMPDIR=$T/tmp unshare -n sh -c '"$0" --lo-up && exec "$@"' "$ping" \
	"$CA" --suggest --user=nobody --trial-timeout=$tt --output="$T/rep" -- \
	"$T/bin/hold" --plain "$m4" "$T/go" >"$T/ca.out" 2>&1 &
ca=$!
plain=
n=0
while [ -z "$plain" ] && [ "$n" -lt 100 ]; do
	for p in $(pgrep -f -- "$m4"); do
		# The trial's child: in a PID namespace of its own, no capability.
		grep -q '^NSpid:[[:space:]]*[0-9]*[[:space:]][0-9]' "/proc/$p/status" 2>/dev/null &&
			grep -q '^CapEff:[[:space:]]*0000000000000000' "/proc/$p/status" && plain=$p
	done
	[ -n "$plain" ] || sleep 0.05
	n=$((n + 1))
done
if [ -n "$plain" ]; then
	: >"$T/seize.out"
	setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups \
		"$T/bin/hold" --seize "$plain" >"$T/seize.out" 2>&1 &
	seizer=$!
	at_exit "kill $seizer 2>/dev/null"
	n=0
	while ! grep -qx seized "$T/seize.out" && [ "$n" -lt 100 ]; do sleep 0.05; n=$((n + 1)); done
	grep -qx seized "$T/seize.out" && pass || fail "traced: no tracer: $(cat "$T/seize.out")"
	: >"$T/go"
	n=0
	while kill -0 "$ca" 2>/dev/null && [ "$n" -lt 150 ]; do sleep 0.1; n=$((n + 1)); done
	if kill -0 "$ca" 2>/dev/null; then
		fail "traced: capaudit still waits 15 s after the trial ended"
		kill -KILL "$ca"
	else
		expect_line "$T/rep" "NOT PROVEN (run 2 left processes running that capaudit could not end)" \
			"traced: unproven"
	fi
	wait "$ca" 2>/dev/null
	kill "$seizer" 2>/dev/null
else
	fail "traced: no trial's child seen ($(cat "$T/ca.out"))"
	kill -KILL "$ca" 2>/dev/null
	wait "$ca" 2>/dev/null
fi
finish "no trial process outlives capaudit, killed mid-trial or as a trial starts; nothing stays bound; an open TMPDIR is refused; a traced zombie holds capaudit no longer"
