# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# Sourced (not run) by the pam_cap suites: a private world of users, groups and PAM
# services through cwrap's nss_wrapper and pam_wrapper, and pam() to drive
# pamcase in it. Nothing in /etc is read or written. Uses lib.sh's $T
# (init), sets $OURS (our module) and $DEB (Debian's pam_cap.so 2.66, the
# system's or the pinned copy's, or empty); t() runs one case through our
# module (and Debian's for "both" cases).
. "$TESTS_DIR/lib.sh"
init

PWRAP=$(cwrap_lib libpam_wrapper.so) ||
	skip "cwrap's pam_wrapper (libpam-wrapper) is not installed"
need_nss_wrapper
NWRAP=$NSS_WRAPPER_LIB
OURS=$BUILD/pam_cap/pam_cap.so
[ -f "$OURS" ] || { echo "pam_cap.so has not been built"; exit 1; }
# The "both" cases expect 2.66's module: another version is left out. A
# pinned copy's module loads the pinned libcap.so.2 beside it ($DEB_LIBS).
DEB= DEB_LIBS=
if has_reference 2.66 libpam-cap; then
	DEB=$REF_LIB/security/pam_cap.so
	[ "$REF_PINNED" = 1 ] && DEB_LIBS=$REF_LIB
	[ -f "$DEB" ] || { fail "Debian's pam_cap.so is not at $DEB"; DEB=; }
else
	echo "note: Debian's pam_cap.so not compared: $reference_why"
fi
# The valgrind pass checks our module's memory; Debian's behaviour was
# compared in the plain pass, and under valgrind it doubled the time.
if [ "${VALGRIND:-0}" = 1 ] && [ -n "$DEB" ]; then
	echo "valgrind pass: Debian's pam_cap.so is compared in the plain pass only"
	DEB=
fi

chmod 755 "$T"
mkdir "$T/svc"
# alice: perf_users as a supplementary group; carol: as her primary group;
# bob: in devs only; dave: both bob's group and perf_users.
cat >"$T/passwd" <<'PW'
root:x:0:0:root:/root:/bin/sh
daemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin
bin:x:2:2:bin:/bin:/usr/sbin/nologin
alice:x:4001:4001:Alice:/tmp:/bin/sh
bob:x:4002:4002:Bob:/tmp:/bin/sh
carol:x:4003:4100:Carol:/tmp:/bin/sh
dave:x:4004:4004:Dave:/tmp:/bin/sh
nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin
PW
cat >"$T/group" <<'GR'
root:x:0:
daemon:x:1:
bin:x:2:
alice:x:4001:
bob:x:4002:
dave:x:4004:
perf_users:x:4100:alice,dave
devs:x:4200:bob,dave
nogroup:x:65534:
GR
echo 'auth required pam_permit.so' >"$T/svc/pamcase"
echo 'auth required pam_deny.so' >"$T/svc/other"

# The kernel refuses cap_iab_set_proc() without CAP_SETPCAP: as another
# user, run in a user namespace where we hold every capability.
NS=
if [ "$(id -u)" -ne 0 ]; then
	if unshare -Ur true 2>/dev/null; then
		NS="unshare -Ur"
	else
		echo "skipped: needs root or unprivileged user namespaces"; exit 77
	fi
fi

# pam PAMCASE-ARGS...: pamcase in the wrapped world (stderr kept in $T/log).
# pam_wrapper (1.1.4 here) always dlopen()s libpam with RTLD_DEEPBIND,
# which ASan refuses outright: a pamcase built with it gets
# tools/preload/no_deepbind.c preloaded after pam_wrapper, which takes the
# flag away (as later versions do themselves with
# PAM_WRAPPER_DISABLE_DEEPBIND). Suites that drive PAM call this first.
PAM_NODEEP=
require_pam_driver() {
	nm -D "$BIN/pamcase" 2>/dev/null | grep -q __asan_init || return 0
	PAM_NODEEP=$BIN/libno_deepbind.so
	[ -f "$PAM_NODEEP" ] || { echo "FAIL: $PAM_NODEEP is not built"; exit 1; }
}

# pam_wrapper must not dlopen libpam with RTLD_DEEPBIND where the version
# supports turning it off, and ASan must tolerate the preloads coming first.
# REAL_NSS=1 leaves nss_wrapper out: users and groups then come from libc's
# own backends (a suite that sets it provides them in a mount namespace).
# PAM_PRELOAD_MORE: libraries preloaded after those.
pam() {
	if [ -n "${VALGRIND_CMD:-}" ] && pam_servable "$@"; then
		pam_served "$@"
		return
	fi
	pam_direct "$@"
}

pam_direct() {
	if [ "${REAL_NSS:-0}" = 1 ]; then
		nss= preload="$PWRAP${PAM_NODEEP:+ $PAM_NODEEP}"
	else
		nss="NSS_WRAPPER_PASSWD=$T/passwd NSS_WRAPPER_GROUP=$T/group"
		preload="$PWRAP${PAM_NODEEP:+ $PAM_NODEEP} $NWRAP"
	fi
	# shellcheck disable=SC2086 # $nss: no or two assignments, $T has no blanks
	env PAM_WRAPPER=1 PAM_WRAPPER_SERVICE_DIR="$T/svc" \
		PAM_WRAPPER_DISABLE_DEEPBIND=1 \
		ASAN_OPTIONS="${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}verify_asan_link_order=0" \
		PAM_WRAPPER_DEBUGLEVEL="${PWDEBUG:-0}" $nss \
		${pam_libs:+LD_LIBRARY_PATH="$pam_libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"} \
		LD_PRELOAD="$preload${PAM_PRELOAD_MORE:+ $PAM_PRELOAD_MORE}" \
		$NS ${VALGRIND_CMD:-} "$BIN/pamcase" "$@" 2>"${PAM_ERR:-$T/log}"
}

# Under valgrind, starting valgrind costs ten times a case: direct-call
# cases (-m) and stack cases (-s, their service file copied by the child
# where pam_wrapper put the others: pamcase.c) go to one pamcase -S,
# started under valgrind with the environment pam() gives, which forks a
# child for each. The child's report still fails the suite (run.sh reads
# every valgrind log). Cases with another environment or a byte the
# request cannot carry run as before.
pcs_pid= pcs_env=
pam_servable() {
	[ -n "$pcs_pid" ] && { [ "$1" = -m ] || [ "$1" = -s ]; } && [ -z "$NS" ] &&
		[ ! -e "$T/pcs.dead" ] || return 1
	[ "$pcs_env" = "${REAL_NSS:-0}/${PWDEBUG:-0}/${PAM_PRELOAD_MORE:-}" ] || return 1
	for a in "$@"; do
		case $a in *"$(printf '\037')"*|*"
"*) return 1 ;; esac
	done
}

# pam_server_start: in the suite's own shell (t() calls it; pam() runs in
# command substitutions, whose subshells could not keep the server).
pam_server_start() {
	[ -n "${VALGRIND_CMD:-}" ] && [ -z "$pcs_pid" ] || return 0
	rm -f "$T/pcs.req" "$T/pcs.rep"
	mkfifo "$T/pcs.req" "$T/pcs.rep" || return 0
	# The server runs one case of our module itself first (pamcase.c:
	# PAMCASE_WARM), so that valgrind translates the code every case runs
	# once, not once a case.
	printf 'cap_perfmon @perf_users\n' >"$T/pcs.conf"
	(PAM_ERR=$T/pcs.log PAMCASE_WARM=$OURS PAMCASE_WARM_USER=alice \
		PAMCASE_WARM_ARG=config=$T/pcs.conf
	 export PAMCASE_WARM PAMCASE_WARM_USER PAMCASE_WARM_ARG
	 pam_direct -S "$T/pcs" </dev/null >/dev/null) &
	pcs_pid=$! pcs_env="${REAL_NSS:-0}/${PWDEBUG:-0}/${PAM_PRELOAD_MORE:-}"
	at_exit pam_server_stop
}

pam_server_stop() {
	[ -n "$pcs_pid" ] || return 0
	# An empty request ends the server, whose valgrind then checks its
	# own leaks: wait for that before run.sh reads the logs.
	[ ! -e "$T/pcs.dead" ] && timeout 60 sh -c ': >"$0"' "$T/pcs.req" ||
		kill "$pcs_pid" 2>/dev/null
	wait "$pcs_pid" 2>/dev/null
	pcs_pid=
}

# A server that died or hangs must not hang the suite: each exchange has
# 200 s (a 100,000-line config takes a minute under valgrind on a busy
# machine), and after one that fails every case runs directly.
pam_served() {
	if pcs_rc=$(timeout 200 sh -c 'printf "%s\037" "$@" >"$0.req" &&
		read -r rc <"$0.rep" && echo "$rc"' "$T/pcs" "$T/pcs.out" "$T/log" "$@"); then
		cat "$T/pcs.out"
		return "$pcs_rc"
	fi
	: >"$T/pcs.dead"
	echo "pamcase -S did not answer: $(cat "$T/pcs.log")" >"$T/log"
	return 3
}

cases=0 diffed=0

# t KIND CONFIG ARGS USER OPS EXPECTED [PRESET]
#   CONFIG  file text (printf %b), or @PATH to use PATH as it is
#   ARGS    module arguments; config=<the file> is added unless given
#   USER    the PAM user; "-" for none, "" for the empty name
#   OPS     pamcase ops; a leading "stack" runs them through libpam and
#           a service "auth optional <module> ARGS" instead of direct calls
#   PRESET  pamcase -I/-M options applied before the ops
t() {
	kind=$1 conf=$2 args=$3 user=$4 ops=$5 want=$6 preset=${7:-}
	cases=$((cases + 1))
	pam_server_start
	case $conf in
	@*) path=${conf#@} ;;
	*) path=$T/c$cases; printf '%b' "$conf" >"$path" ;;
	esac
	case " $args " in
	*" config="*) margs=$args ;;
	*) margs="config=$path $args" ;;
	esac
	check_one "$OURS" "ours"
	if [ "$kind" = both ] && [ -n "$DEB" ]; then
		check_one "$DEB" "Debian's pam_cap"
		diffed=$((diffed + 1))
	fi
}

# run_one MODULE: prints pamcase's line for the current case.
run_one() {
	mod=$1 stack=0 o=$ops pam_libs=
	[ "$mod" = "$DEB" ] && pam_libs=$DEB_LIBS
	case $o in stack\ *) stack=1 o=${o#stack } ;; esac
	if [ "$user" = - ]; then set --; else set -- -u "$user"; fi
	# shellcheck disable=SC2086 # word splitting of options is intended
	if [ $stack = 1 ]; then
		echo "auth optional $mod $margs" >"$T/svc/s$cases"
		pam -s "s$cases" "$@" $preset $o
	else
		for a in $margs; do set -- "$@" -a "$a"; done
		pam -m "$mod" "$@" $preset $o
	fi
}

check_one() {
	got=$(run_one "$1")
	if [ "$got" = "$want" ]; then
		pass
	else
		fail "case $cases ($2): config '$conf' args '$args' user '$user' ops '$ops'"
		echo "    want: $want"
		echo "    got:  $got"
		sed 's/^/    log: /' "$T/log" | head -5
	fi
}

# logged PATTERN / not_logged PATTERN: about the last run's log ($T/log;
# with PWDEBUG=2, pam_syslog() messages show as "SYSLOG(prio): ...").
logged() {
	grep -qF -- "$1" "$T/log" && { pass; return; }
	fail "after case $cases: log lacks '$1'"; sed 's/^/    log: /' "$T/log"
}
not_logged() {
	grep -qF -- "$1" "$T/log" || { pass; return; }
	fail "after case $cases: log has '$1'"; sed 's/^/    log: /' "$T/log"
}

# deb EXPECTED: Debian's module on the case an "ours" t just ran, where it
# differs from ours by design (shown, and checked, for comparison).
deb() {
	[ -n "$DEB" ] || return 0
	want=$1
	check_one "$DEB" "Debian's pam_cap (known difference)"
}
