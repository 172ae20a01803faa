#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# perfdoctor answers YES or NO for a session under a seccomp filter, as a
# container runtime's profile sets one, and names every blocker. Each case
# runs a session under filters (tests/tools/scfilter) with chosen
# credentials (setpriv, fullns) and checks that three answers agree:
#  - perfdoctor run inside that session (it probes the filter);
#  - perfdoctor --pid of a sleeping process of that session, from the host
#    (it reads the filters with ptrace and runs them), after which the
#    process is still running, neither stopped nor traced;
#  - the CPU-wide perf probe run in that session (the kernel's answer).
# The cases: podman's default profile for a container without
# CAP_SYS_ADMIN (perf_event_open refused with EPERM) and with the rule the
# runtime adds for it (allowed); ENOSYS; a kill; a trap; SECCOMP_RET_TRACE
# without a tracer; stacked filters (the newest of equal actions wins); a
# container without CAP_PERFMON in its bounding set (two blockers named);
# no_new_privs with a file-capability perf; a user namespace mapping every
# uid to itself (its uid_map looks like the initial one's); a container's
# root, where --pid finds the perf that process would run; an i386 perf,
# judged by its own calling convention. Securebits perfdoctor cannot read
# (uid 0, a perf without file capabilities), and a filter that looks at
# group_fd from the host: UNKNOWN, never YES.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
. "$TESTS_DIR/tools/perf_world.sh"
doctor_bin=$BUILD/progs/perfdoctor
[ -x "$BIN/scfilter" ] || { fail "scfilter is not built"; finish; }
pids=
at_exit 'for p in $pids; do kill "$p" 2>/dev/null; done'
mkdir "$T/nopam"
: >"$T/empty.conf"
# perf as setcap --perf leaves it, runnable by alice (perf_users).
perf=$T/perf
perf_as_setcap_perf "$perf" || fail "cannot make $perf"
# And perf as an image ships it: no file capabilities (root needs none).
plain=$T/perf-plain
cp "$BIN/perfprobe" "$plain"
chmod 0755 "$plain"
alice="--reuid=4001 --regid=4001 --groups=4001,4100"
root="--inh-caps=-all"

# The session of a case: scfilter's options $F, then setpriv's $C.
# inside: perfdoctor run in it; $din its exit, $T/in its report.
inside() {
	# shellcheck disable=SC2086 # option lists
	"$BIN/scfilter" $F setpriv $C sh -c 'exec "$@"' sh env \
		LD_PRELOAD="$NWRAP" NSS_WRAPPER_PASSWD="$T/passwd" \
		NSS_WRAPPER_GROUP="$T/group" ASAN_OPTIONS=verify_asan_link_order=0 \
		${VALGRIND_CMD:-} "$doctor_bin" --pam-dir="$T/nopam" \
		--config="$T/empty.conf" "${P:-$perf}" >"$T/in" 2>&1
	din=$?
}
# host: perfdoctor --pid of a process of it, from here; $dhost, $T/host.
# The process must then still run, neither stopped nor traced.
host() {
	# shellcheck disable=SC2086
	${PREFIX:-} "$BIN/scfilter" $F setpriv $C sleep 120 &
	pid=$!
	pids="$pids $pid"
	i=0
	# Under fullns, the session is its child.
	while [ -n "${PREFIX:-}" ] && [ ! -s "/proc/$pid/task/$pid/children" ] &&
		[ $i -lt 100 ]; do
		sleep 0.05; i=$((i + 1))
	done
	[ -z "${PREFIX:-}" ] || pid=$(tr -d " " <"/proc/$pid/task/$pid/children")
	while [ "$(readlink "/proc/$pid/exe" 2>/dev/null)" != "$(command -v sleep)" ] &&
		[ $i -lt 100 ]; do
		sleep 0.05; i=$((i + 1))
	done
	ours "$doctor_bin" --pam-dir="$T/nopam" --config="$T/empty.conf" \
		--pid="$pid" "${P:-$perf}" >"$T/host" 2>&1
	dhost=$?
	state=$(sed -n 's/^State:\t\(.\).*/\1/p' "/proc/$pid/status" 2>/dev/null)
	tracer=$(sed -n 's/^TracerPid:\t//p' "/proc/$pid/status" 2>/dev/null)
	# Running (or just woken from its sleep), not stopped or traced.
	if { [ "$state" = S ] || [ "$state" = R ]; } && [ "$tracer" = 0 ]; then
		pass
	else
		fail "$label: after --pid, process $pid is in state '$state', traced by '$tracer'"
	fi
	kill "$pid" 2>/dev/null
}
# kernel: the CPU-wide probe run in it; $r 0 when the event opened, else 1.
kernel() {
	# shellcheck disable=SC2086
	${PREFIX:-} "$BIN/scfilter" $F setpriv $C sh -c 'exec "$0"' "${P:-$perf}" >"$T/probe.out" 2>&1
	r=$?
	[ $r -eq 0 ] || r=1
}
# agree LABEL WANT(yes|no) INSIDE-TEXT HOST-TEXT: all three answers are
# WANT, each report holds its text.
agree() {
	label=$1
	case $2 in yes) w=0 ;; no) w=1 ;; esac
	inside
	host
	kernel
	if [ "$din" -ne $w ] || [ "$dhost" -ne $w ] || [ $r -ne $w ]; then
		fail "$label: inside exit $din, --pid exit $dhost, probe $r; want all $w"
		sed 's/^/    in   | /' "$T/in"
		sed 's/^/    host | /' "$T/host"
		sed 's/^/    probe| /' "$T/probe.out"
	elif ! grep -qF -- "$3" "$T/in"; then
		fail "$label: inside, no '$3' in:"; sed 's/^/    | /' "$T/in"
	elif ! grep -qF -- "$4" "$T/host"; then
		fail "$label: --pid, no '$4' in:"; sed 's/^/    | /' "$T/host"
	else
		ok "$label: inside, from the host and in the kernel: $2"
	fi
}
# has FILE TEXT: the report FILE holds TEXT too.
has() {
	grep -qF -- "$2" "$1" && pass || { fail "$label: no '$2' in:"; sed 's/^/    | /' "$1"; }
}

F=-P C=$root
agree "podman's profile without CAP_SYS_ADMIN's rule, root with CAP_PERFMON" no \
	"seccomp filter refuses perf_event_open() whatever its capabilities: EPERM (Operation not permitted) from the filter, not the kernel" \
	"seccomp filter refuses perf_event_open() whatever its capabilities: SECCOMP_RET_ERRNO(1) from filter 1 of 1"
grep -q "Operation not permitted" "$T/probe.out" && pass || fail "the probe: $(cat "$T/probe.out")"
F=-Q
agree "the same profile with the rule" yes "verdict:   YES" "verdict:   YES"
has "$T/in" "the kernel answered every call itself (E2BIG, with its size written back): the filter lets it through"
has "$T/host" "SECCOMP_RET_ALLOW (pid -1, any cpu, flags PERF_FLAG_FD_CLOEXEC): it reaches the kernel"

# A container without CAP_PERFMON (nor CAP_SYS_ADMIN, which would do), its
# perf without file capabilities: the bounding set and the filter, both
# named. (Root's bounding set was judged as a missing file capability.)
F=-P C="$root --bounding-set=-perfmon,-sys_admin" P=$plain
agree "podman's profile, root without CAP_PERFMON or CAP_SYS_ADMIN" no \
	"verdict:   NO: the session's bounding set lacks cap_perfmon, and exec gives root nothing outside it" \
	"verdict:   NO: the session's bounding set lacks cap_perfmon, and exec gives root nothing outside it"
has "$T/in" "also:      NO: the session's seccomp filter refuses perf_event_open()"
has "$T/host" "also:      NO: the session's seccomp filter refuses perf_event_open()"
F=-Q
agree "the rule, root without CAP_PERFMON or CAP_SYS_ADMIN" no \
	"bounding set lacks cap_perfmon" "bounding set lacks cap_perfmon"
P=

# Root needs no file capabilities, but a file whose effective bit is set
# and whose permitted set the bounding set does not cover is refused by
# the kernel, for root too: CAP_SYS_ADMIN alone would do, yet exec fails.
# (This was YES, for root.)
F='' C="$root --bounding-set=-perfmon"
agree "root, no filter, CAP_PERFMON out of the bounding set, an =ep perf" no \
	"verdict:   NO: the session's bounding set lacks cap_perfmon, so the kernel refuses to execute a file that needs it in its effective set" \
	"verdict:   NO: the session's bounding set lacks cap_perfmon, so the kernel refuses to execute a file that needs it in its effective set"
F=-Q
agree "the same under the rule" no "so the kernel refuses to execute" "so the kernel refuses to execute"

F="-e 38" C=$alice
agree "ENOSYS, alice with a perf of hers" no "ENOSYS (Function not implemented) from the filter" \
	"SECCOMP_RET_ERRNO(38)"
F="-e 1 -e 38"
agree "two filters, errno 1 then errno 38: the newest wins" no \
	"ENOSYS (Function not implemented) from the filter" "SECCOMP_RET_ERRNO(38) from filter 2 of 2"
grep -q "errno 38" "$T/probe.out" && pass || fail "the probe under errno 1 then 38: $(cat "$T/probe.out")"
F="-k -a"
agree "a kill below an allow" no "the filter killed the caller" "SECCOMP_RET_KILL_PROCESS from filter 1 of 2"
F=-t
agree "a trap" no "the filter sent SIGSYS instead (SECCOMP_RET_TRAP)" "SECCOMP_RET_TRAP from filter 1 of 1"
F=-T
agree "SECCOMP_RET_TRACE, no tracer" no "ENOSYS (Function not implemented) from the filter" \
	"SECCOMP_RET_TRACE(0) from filter 1 of 1 (pid -1, any cpu, flags PERF_FLAG_FD_CLOEXEC): without a tracer"

# no_new_privs (Kubernetes' allowPrivilegeEscalation: false): the
# file-capability perf gains nothing, whatever the filter.
F="-Q -N" C=$alice
agree "no_new_privs, the rule, a file-capability perf" no \
	"verdict:   NO: the session has no_new_privs set, so exec grants no file capabilities" \
	"verdict:   NO: the session has no_new_privs set, so exec grants no file capabilities"
F="-P -N"
agree "no_new_privs and podman's profile" no "no_new_privs set" "no_new_privs set"
has "$T/in" "also:      NO: the session's seccomp filter refuses perf_event_open()"
has "$T/host" "also:      NO: the session's seccomp filter refuses perf_event_open()"

# A user namespace whose uid_map is the initial one's ("0 0 4294967295"):
# root in there, with CAP_PERFMON, counts for nothing.
PREFIX=$BIN/fullns F=-Q C=$root
label="a user namespace mapping every uid"
# shellcheck disable=SC2086
"$BIN/fullns" "$BIN/scfilter" $F setpriv $C sh -c 'exec "$@"' sh \
	"$doctor_bin" --pam-dir="$T/nopam" --config="$T/empty.conf" "$perf" >"$T/in" 2>&1
din=$?
host
kernel
PREFIX=
if [ "$din" -eq 1 ] && [ "$dhost" -eq 1 ] && [ $r -eq 1 ] &&
	grep -q "the session is in a user namespace" "$T/in" &&
	grep -q "the session is in a user namespace" "$T/host"; then
	ok "$label: inside, from the host and in the kernel: no"
else
	fail "$label: inside exit $din, --pid exit $dhost, probe $r"
	sed 's/^/    | /' "$T/in" "$T/host" "$T/probe.out"
fi

# A container's root: its processes execute its files, so --pid looks the
# binary up in the process's root (named or found on the usual PATH), not
# in perfdoctor's, and its fixes are words for in there (a setcap pasted
# here would grant capabilities to this host's perf). A root holding a sleep, libc (bind-mounted, in a mount
# namespace of its own) and two perfs: /usr/bin/perfc with capabilities,
# /usr/bin/perf without. (Both were looked up on the host.)
croot=$T/croot
mkdir -p "$croot/usr/bin" "$croot/usr/lib" "$croot/usr/lib64"
chmod 755 "$croot" "$croot/usr" "$croot/usr/bin"
ln -s usr/lib "$croot/lib"
ln -s usr/lib64 "$croot/lib64"
cp "$(command -v sleep)" "$croot/usr/bin/sleep"
perf_as_setcap_perf "$croot/usr/bin/perfc" || fail "cannot make $croot/usr/bin/perfc"
cp "$BIN/perfprobe" "$croot/usr/bin/perf"
# in_root CMD...: CMD in that root as alice, under the rule.
in_root() {
	"$BIN/scfilter" -Q unshare -m sh -c 'mount --bind /usr/lib "$0/usr/lib" &&
		{ [ ! -d /usr/lib64 ] || mount --bind /usr/lib64 "$0/usr/lib64"; } &&
		exec chroot --userspec=4001:4001 --groups=4001,4100 "$0" "$@"' "$croot" "$@"
}
in_root /usr/bin/sleep 120 &
sub=$!
pids="$pids $sub"
# The function runs in a subshell: the session is its child, once it has
# executed the sleep in there.
i=0 pid=
while { [ -z "$pid" ] || ! readlink "/proc/$pid/exe" 2>/dev/null | grep -q '/usr/bin/sleep$'; } &&
	[ $i -lt 100 ]; do
	sleep 0.05; i=$((i + 1))
	pid=$(tr -d ' ' <"/proc/$sub/task/$sub/children" 2>/dev/null)
done
pids="$pids $pid"
label="a container's root"
# A sanitizer build's probe needs its runtime and our library, which are
# not in there.
is_sanitized && not_checked "$label: a sanitizer build's probe cannot run in that root"
is_sanitized ||
for bin in /usr/bin/perfc ""; do
	ours "$doctor_bin" --pam-dir="$T/nopam" --config="$T/empty.conf" \
		--pid="$pid" ${bin:+"$bin"} >"$T/host" 2>&1
	dhost=$?
	in_root "${bin:-/usr/bin/perf}" >"$T/probe.out" 2>&1
	r=$?
	[ $r -eq 0 ] || r=1
	if [ "$dhost" -eq $r ] &&
		grep -qF "root:      ${bin:-/usr/bin/perf} is looked up in the root of process $pid" "$T/host"; then
		ok "$label, ${bin:-perf on its PATH}: --pid and the kernel agree: $(grep '^verdict' "$T/host")"
	else
		fail "$label, ${bin:-perf on its PATH}: --pid exit $dhost, probe $r"
		sed 's/^/    | /' "$T/host" "$T/probe.out"
	fi
	# No command to paste here: it would act on this host's files.
	if grep -E '^(fix|suggest): +[^ ]*(setcap|chown|chmod|usermod|groupadd|sed|printf) ' "$T/host" |
		grep -vq 'in the root of process\|run perfdoctor in the root of process'; then
		fail "$label, ${bin:-perf on its PATH}: a command for this host:"
		sed 's/^/    | /' "$T/host"
	else
		pass
	fi
done
# (A sanitizer build ran no case above: $T/host is an earlier case's.)
is_sanitized || {
	grep -qF "fix:       in the root of process $pid, not on this host: setcap --perf-group=perf_users --perf /usr/bin/perf" "$T/host" &&
		pass || { fail "$label: no fix for its perf in there, in words"; sed 's/^/    | /' "$T/host"; }
}
is_sanitized || { [ "$r" -eq 1 ] && [ "$dhost" -eq 1 ] && pass; } ||
	fail "$label: its perf without capabilities was not NO"
# A perf in there whose path holds a quote, $(...) and `...` (the image's
# to name): the command for in there names it exactly and, pasted, runs
# nothing else; the words before it make the whole line no command.
# (Turned into words, which are printed escaped, its quoting's '\'' came
# out as '\134'' and let the $(...) run.)
hname="q'\$(touch INJECTED)'\`touch INJECTED\`;x"
mkdir -p "$croot/opt/$hname"
chmod 755 "$croot/opt" "$croot/opt/$hname"
cp "$BIN/perfprobe" "$croot/opt/$hname/perf"
ln -s "/opt/$hname/perf" "$croot/usr/bin/perfq"
ours "$doctor_bin" --pam-dir="$T/nopam" --config="$T/empty.conf" \
	--pid="$pid" /usr/bin/perfq >"$T/host" 2>&1
lead="fix:       in the root of process $pid, not on this host: "
if pasted_line "$T/host" "$lead" >"$T/cmd"; then
	paste_run "$T/cmd"
	printf 'setcap <--perf-group=perf_users> <--perf> </opt/%s/perf>\n' "$hname" >"$T/want"
	same "$T/want" "$T/pasted" "$label: a hostile path, the command for in there, pasted"
	paste_clean "$label: a hostile path, the command for in there, pasted"
	grep "^$lead" "$T/host" | sed 's/^fix: *//' >"$T/whole"
	paste_run "$T/whole"
	[ ! -s "$T/pasted" ] && [ -z "$(ls -A "$T/paste")" ] && pass ||
		fail "$label: a hostile path, the whole fix: line pasted ran: $(cat "$T/pasted") $(ls -A "$T/paste")"
else
	fail "$label: a hostile path: no fix for in there"; sed 's/^/    | /' "$T/host"
fi
kill "$pid"

# A filter that answers clone() with 0 unrun: every fork() "succeeds" as
# the child, in perfdoctor itself. Its probe (and, for a new login, its
# access check) must not run in its place: that ended perfdoctor without a
# word, with the child's exit status (0, YES, for a login's access).
label="fork() faked by the filter"
for who in "" --user=alice; do
	# (A sanitizer build's leak check clones at exit: not here.)
	timeout -k 5 60 "$BIN/scfilter" -F sh -c 'exec "$@"' sh env LD_PRELOAD="$NWRAP" \
		NSS_WRAPPER_PASSWD="$T/passwd" NSS_WRAPPER_GROUP="$T/group" \
		ASAN_OPTIONS=verify_asan_link_order=0:detect_leaks=0 "$doctor_bin" --pam-dir="$T/nopam" --config="$T/empty.conf" \
		${who:+"$who"} "$perf" >"$T/in" 2>&1
	din=$?
	if [ $din -eq 3 ] && grep -qF "cannot probe it: fork(): Operation not permitted (the filter answers clone() or getpid() in the kernel's place)" "$T/in"; then
		ok "$label${who:+, $who}: UNKNOWN, saying why"
	else
		fail "$label${who:+, $who}: exit $din"; sed 's/^/    | /' "$T/in"
	fi
done

# A filter that refuses PERF_FLAG_FD_CLOEXEC and lets flags 0 through:
# perf, which tries the first and falls back to the second, decides; so
# UNKNOWN inside and from the host (the probe, with flags 0, opens). A
# kill on PERF_FLAG_FD_CLOEXEC, the first call perf makes, ends perf: NO.
C=$alice
for F in -c -C; do
	label="a rule on PERF_FLAG_FD_CLOEXEC ($F)"
	inside
	host
	kernel
	case $F in -c) w=3 t="depends on the flags" ;; -C) w=1 t="refuses perf_event_open()" ;; esac
	if [ "$din" -eq $w ] && [ "$dhost" -eq $w ] && [ $r -eq 0 ] &&
		grep -qF "$t" "$T/in" && grep -qF "$t" "$T/host"; then
		ok "$label: inside and from the host exit $w, the probe with flags 0 opens"
	else
		fail "$label: inside exit $din, --pid exit $dhost, probe $r"
		sed 's/^/    | /' "$T/in" "$T/host"
	fi
done

# An i386 perf calls perf_event_open() as number 336, seen as
# AUDIT_ARCH_I386: a profile that checks the architecture (podman's, as
# libseccomp compiles it) kills it, a filter that checks the number alone
# lets it through. From the host, the filter is run for perf's
# convention, read from its ELF header; inside, perfdoctor (x86_64) cannot
# probe another convention: UNKNOWN. (Both were judged as x86_64.)
if [ -x "$BIN/perfprobe32" ] && "$BIN/perfprobe32" >/dev/null 2>&1; then
	P=$T/perf32 C=$root
	cp "$BIN/perfprobe32" "$P"
	# Capabilities of its own: root's exec rule would do inside, but
	# from the host a yes resting on it is UNKNOWN (securebits unread).
	/usr/sbin/setcap cap_perfmon=ep "$P"
	for F in -Q "-e 1"; do
		label="an i386 perf, $F"
		inside
		host
		kernel
		case $F in -Q) w=1 t="SECCOMP_RET_KILL_PROCESS from filter 1 of 1" ;; *) w=0 t="SECCOMP_RET_ALLOW" ;; esac
		if [ "$dhost" -eq $w ] && [ $r -eq $w ] && [ "$din" -eq 3 ] &&
			grep -qF "run on perf_event_open() (i386, number 336): $t" "$T/host" &&
			grep -qF "perf is a binary for i386, and perfdoctor can probe only its own calling convention" "$T/in"; then
			ok "$label: --pid and the kernel agree ($w), inside unknown"
		else
			fail "$label: --pid exit $dhost, probe $r, inside $din"
			sed 's/^/    | /' "$T/host" "$T/in" "$T/probe.out"
		fi
	done
	P=
else
	not_checked "an i386 perf: no perfprobe32, or this kernel runs no i386 binary"
fi

# A filter that refuses prctl(PR_GET_SECUREBITS): perfdoctor cannot tell
# whether SECBIT_NOROOT takes root's exec rule away, so for uid 0 and a
# perf without file capabilities it answers UNKNOWN, saying why, never
# YES (this kernel, which reads them itself, runs the probe). It was YES:
# securebits were never read.
F=-S C=$root P=$plain
label="securebits unreadable, uid 0, a perf without file capabilities"
inside
kernel
P=
if [ "$din" -eq 3 ] && [ $r -eq 0 ] &&
	grep -qF "verdict:   UNKNOWN: the session is uid 0, and whether exec gives it root's capabilities depends on its securebits, which perfdoctor cannot read: prctl(PR_GET_SECUREBITS): Operation not permitted" "$T/in"; then
	ok "$label: inside unknown (the probe opens)"
else
	fail "$label: inside exit $din, probe $r"; sed 's/^/    | /' "$T/in"
fi

# A filter that looks at group_fd: perf passes leaders' descriptors there,
# which nobody knows beforehand. From the host: unknown, never yes.
F="-g 42" C=$alice
label="a rule on group_fd"
host
kernel
if [ "$dhost" -eq 3 ] && [ $r -eq 0 ] &&
	grep -qF "needs the low word of argument 3 (group_fd), which perf's caller decides" "$T/host"; then
	ok "$label: --pid answers unknown (the probe, with no group, opens)"
else
	fail "$label: --pid exit $dhost, probe $r"; sed 's/^/    | /' "$T/host"
fi
finish
