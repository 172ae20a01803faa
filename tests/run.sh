#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# Runs every tier of the suite and prints one verdict line per suite, then
# "suites: N passed, N failed, N skipped". A suite exits 0 (pass), 77 (skip,
# with its reason on its output) or anything else (fail). Skips never count
# as passes. A suite that exits 0 must also show that it checked something,
# else it fails ("ran no check"): a shell suite ends with lib.sh's
# "N checks, 0 failed" line, N > 0 (its ", K not checked: WHAT" part, the
# parts this host could not check, is shown with its verdict and counted
# on the "suites:" line); a unit suite prints Check's "100%: Checks: N",
# N > 0. The root tier runs when we are root and is skipped otherwise.
#
#   TESTS="unit/check_text cli/libcap_text_diff.sh" sh run.sh   runs only those
#                          (building first what they need, as below)
#   TIERS="unit cli" sh run.sh   runs only those tiers (default: unit cli root)
#   VALGRIND=1 sh run.sh   runs unit suites under valgrind memcheck (Check in
#                          no-fork mode) and exports VALGRIND_CMD, which
#                          suites put before our tools via run_ours; without
#                          TESTS, only the shell suites suites.conf lists
#                          under "valgrind"
#   JOBS=N sh run.sh       runs up to N suites at a time (default: three
#                          times the number of CPUs; JOBS=1 runs them one
#                          by one)
#   SUITE_TIMEOUT=S sh run.sh  fails a suite still running after S seconds
#                          (default 300: the slowest suite takes a
#                          minute on a loaded two-core machine)
#   PASSES="plain sanitize valgrind" sh run.sh   what "make test" runs:
#       plain     the build the environment names (BUILD, SANITIZE,
#                 VALGRIND), as without PASSES
#       sanitize  builds the tree with SANITIZE=$EXTRA_SANITIZE (default
#                 address,undefined) in build/<sanitizers>, in the
#                 background while other suites run, then runs the unit and
#                 cli tiers there, and the root suites tests/suites.conf
#                 lists under "sanitize" (those that drive the programs
#                 only root tests reach; the rest of the root tier is left
#                 to the plain pass)
#       valgrind  the plain build's unit tier and the cli suites
#                 tests/suites.conf lists under "valgrind" (the libraries'),
#                 under valgrind; any "==PID==" report in a valgrind log
#                 fails the suite, whatever its own checks said
#     All passes share one pool of JOBS; each prints its verdicts and its
#     "suites:" line in turn, and appends "passed failed skipped" to
#     $TEST_SUMMARY when that is set. TESTS and TIERS apply to every pass.
#
# Suites run in parallel, each with its log in the pass's logs/ directory
# ($BIN/logs, the valgrind pass's in $BIN/logs/valgrind); verdicts are
# printed in the order of the list, each as soon as those before it are in.
# tests/suites.conf names the suites that must run alone, those that must
# not overlap one another, and those a pass need not start (see there).
#
# Suites get TOP, BUILD (where the programs and libraries were built:
# $BUILD/progs/setcap, $BUILD/libcap/libcap.so.2), BIN and TESTS_DIR, plus SANITIZE (exported by
# tests/Makefile: non-empty when the tree was built with sanitizers) and
# VALGRIND. Shell suites source lib.sh for is_sanitized, skip_if_sanitized,
# run_ours and with_our_lib: a foreign, uninstrumented binary (a Debian
# program) loading our ASan-built library needs the sanitizer runtimes
# preloaded, which with_our_lib does. A suite's standard input is
# /dev/null, and it inherits no descriptor but 0, 1 and 2 from the runner.
# Run as root, each suite has a /tmp of its own, a new tmpfs in a mount
# namespace of its own (but those tests/suites.conf lists under "disktmp",
# and all with RUN_SH_DISK_TMP=1, which keep the machine's /tmp).
cd "$(dirname "$0")" || exit 1
TESTS_DIR=$(pwd)
TOP=$(cd .. && pwd)
export TESTS_DIR TOP
CONF=$TESTS_DIR/suites.conf
cpus=$(getconf _NPROCESSORS_ONLN 2>/dev/null) || cpus=1
# Three a CPU: many suites spend much of their time waiting (on a server
# serving until its timeout, a tracer, a container runtime, a sleep of a
# race), and with two a CPU the CPUs idled while they did. Measured on 2
# CPUs, idle, whole runs from a clean clone: 4 jobs 263 s, 6 jobs 246 s,
# the same CPU time (478 and 471 s).
JOBS=${JOBS:-$((3 * cpus))}
[ "$JOBS" -ge 1 ] 2>/dev/null || { echo "run.sh: JOBS=$JOBS: want a number >= 1" >&2; exit 2; }
# A child given an argument containing "vg-untraced-foreign" is not traced:
# a test marks so a foreign program it runs for comparison or read-back
# (a shell, sha256sum), never one of ours nor one loading our libraries;
# memcheck there would check that program's memory, at tens of times its
# cost (tests/unit/check_run.h: UNTRACED_FOREIGN).
# --read-inline-info=no: most of a valgrind pass is valgrind starting our
# small programs, and reading the inlining tables of their debug info (and
# libc6-dbg's) is a seventh of each start. Errors are found all the same;
# a report's frames name the function an inlined one was expanded into,
# with the file and line of the inlined code.
VALGRIND_ARGS="-q --vgdb=no --suppressions=$TOP/tests/valgrind.supp --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect --show-leak-kinds=definite,indirect --read-inline-info=no --trace-children=yes --trace-children-skip-by-arg=*vg-untraced-foreign*"
# Our builds (the sanitizer pass's) run with -j of their own: make does not
# hand its job server to this script, so drop it from MAKEFLAGS (keeping
# the variables given to make, such as CC=clang).
MAKEFLAGS=$(printf ' %s \n' "${MAKEFLAGS:-}" |
	sed -e 's/ --jobserver-[a-z]*=[^ ]*//g' -e 's/ -j[0-9]*//g' -e 's/^ *//' -e 's/ *$//')
export MAKEFLAGS

# The caller's sanitizer options, to which each suite's log_path is added.
san_asan=${ASAN_OPTIONS:-} san_ubsan=${UBSAN_OPTIONS:-}

# --- tests/suites.conf ----------------------------------------------------
conf() {	# KEY: every suite the lines "KEY: ..." name
	sed -n "s/^$1:[[:space:]]*//p" "$CONF" | tr -s ' \t\n' '   '
}
alone=$(conf alone) valgrind=$(conf valgrind) once=$(conf once) first=$(conf first)
sanitize_root=$(conf sanitize)
privatetmp=$(conf privatetmp) mountlock=$(conf mountlock) disktmp=$(conf disktmp)
# The lock the "mountlock" suites run under, machine-wide (every checkout
# and the container world's run, which binds /run/lock, share it).
LIB_MOUNTS_LOCK=${LIB_MOUNTS_LOCK:-/run/lock/libcap-perfmon-mounts.lock}
export LIB_MOUNTS_LOCK
can_unshare= can_tmpfs=
[ "$(id -u)" -eq 0 ] && unshare -m --propagation private true 2>/dev/null && can_unshare=1
# (a tmpfs mounted over /tmp in a namespace of its own, to see that it can)
[ -n "$can_unshare" ] && unshare -m --propagation private \
	sh -c 'mount -t tmpfs -o mode=1777 tmpfs /tmp' 2>/dev/null && can_tmpfs=1
chains=$(sed -n 's/^chain \([A-Za-z0-9_-]*\):.*/\1/p' "$CONF" | sort -u | tr '\n' ' ')
for c in $chains; do
	eval "chain_$c=\" \$(conf \"chain $c\") \""
done
listed() {	# SUITE WORDS: true when SUITE is one of WORDS
	case " $2 " in *" $1 "*) return 0 ;; esac
	return 1
}
chain_of() {	# SUITE: the chain naming it, if any
	for c in $chains; do
		eval "l=\$chain_$c"
		listed "$1" "$l" && { echo "$c"; return; }
	done
}
# A name in suites.conf that is no suite (renamed, say) would silently lose
# its rule: that is a failure of the run.
stale=
for s in $alone $valgrind $once $first $sanitize_root $privatetmp $mountlock $disktmp $(conf hostpreset) $(conf container) $(conf container-noproc) $(for c in $chains; do eval "echo \$chain_$c"; done); do
	case $s in
	unit/*) [ -f "$s.c" ] ;;
	*) [ -f "$s" ] ;;
	esac || listed "$s" "$stale" || stale="$stale $s"
done

# --- the passes -----------------------------------------------------------
# Each pass p has: name, build (BUILD), san (SANITIZE), vg (VALGRIND),
# tiers, logs, head (its header line), and ready (1 once its build exists).
np=0
add_pass() {	# NAME BUILD SANITIZE VALGRIND TIERS LOGS HEADER [SUITES]
	np=$((np + 1))
	eval "p${np}_name=\$1 p${np}_build=\$2 p${np}_san=\$3 p${np}_vg=\$4 p${np}_tiers=\$5 p${np}_logs=\$6 p${np}_head=\$7 p${np}_also=\${8:-} p${np}_ready=1 p${np}_note="
}
BUILD=${BUILD:-$TOP/build/main}
plain_logs=${LOGDIR:-$BUILD/tests/bin/logs}

# The suites need the tree and the test programs (unit suites, probes)
# built for BUILD: "make" alone, or "make demo", builds no test program,
# and a suite would fail for want of one. So the first run.sh builds them,
# quietly, unless its caller did ("make test") or it runs inside a suite
# (progs_host_preset.sh), which must not rebuild under the running ones.
if [ -z "${RUN_SH_BUILT:-}" ]; then
	build_log=$(mktemp "${TMPDIR:-/tmp}/run-build.XXXXXX") || exit 1
	if ! { make -s -j"$cpus" -C "$TOP" all BUILD="$BUILD" SANITIZE="${SANITIZE:-}" &&
	       make -s -j"$cpus" -C "$TOP/tests" all BUILD="$BUILD" SANITIZE="${SANITIZE:-}"; } \
	       >"$build_log" 2>&1 </dev/null; then
		echo "run.sh: building $BUILD (make all, make -C tests all) failed:" >&2
		tail -n 40 "$build_log" >&2
		rm -f "$build_log"
		exit 1
	fi
	rm -f "$build_log"
fi
RUN_SH_BUILT=1
export RUN_SH_BUILT
# TIERS narrows the extra passes too, but never to the root tier: of that,
# the sanitizer pass runs the suites suites.conf lists under "sanitize".
extra_tiers= extra_root=
for t in ${TIERS:-unit cli root}; do
	case $t in
	unit|cli) extra_tiers="$extra_tiers $t" ;;
	root) extra_root=$sanitize_root ;;
	esac
done
for pass in ${PASSES:-plain}; do
	case $pass in
	plain)
		add_pass plain "$BUILD" "${SANITIZE:-}" "${VALGRIND:-0}" \
			"${TIERS:-unit cli root}" "$plain_logs" "" ;;
	sanitize)
		san=${EXTRA_SANITIZE:-address,undefined}
		b=$TOP/build/$(echo "$san" | tr , -)
		add_pass sanitize "$b" "$san" 0 "$extra_tiers" "$b/tests/bin/logs" \
			"== sanitizer pass (SANITIZE=$san)" "$extra_root"
		eval "p${np}_ready=0" ;;
	valgrind)
		add_pass valgrind "$BUILD" "" 1 "$extra_tiers" "$plain_logs/valgrind" \
			"== valgrind pass"
		if ! command -v valgrind >/dev/null 2>&1; then
			eval "p${np}_tiers= p${np}_head='== valgrind pass skipped: valgrind is not installed' p${np}_note=none"
		fi ;;
	*)
		echo "run.sh: PASSES: unknown pass '$pass' (plain, sanitize, valgrind)" >&2
		exit 2 ;;
	esac
done

# The passes are this run's: a suite that runs run.sh again
# (root/progs_host_preset.sh) wants its plain pass only, not every pass of
# "make test" nested in the plain one (a sanitizer build racing ours).
unset PASSES

# --- the entries: one per suite and pass, in the order they are printed ---
ne=0
first_pass=1
for p in $(seq 1 $np); do
	eval "tiers=\$p${p}_tiers vg=\$p${p}_vg logs=\$p${p}_logs also=\$p${p}_also"
	suites=
	eval "name=\$p${p}_name"
	if [ -n "${TESTS:-}" ] && [ "$name" = plain ]; then
		suites=$TESTS
	elif [ -n "${TESTS:-}" ]; then
		for s in $TESTS; do
			{ listed "${s%%/*}" "$tiers" || listed "$s" "$also"; } &&
				suites="$suites $s"
		done
	else
		for tier in $tiers; do
			case $tier in
			unit)
				for f in unit/check_*.c; do
					[ -e "$f" ] && suites="$suites unit/$(basename "$f" .c)"
				done ;;
			*)
				for f in "$tier"/*.sh; do
					[ -e "$f" ] && suites="$suites $f"
				done ;;
			esac
		done
		suites="$suites $also"
	fi
	eval "p${p}_first=$((ne + 1))"
	for s in $suites; do
		ne=$((ne + 1))
		eval "e${ne}_pass=$p e${ne}_suite=\$s e${ne}_rc= e${ne}_why="
		if [ "$vg" = 1 ] && [ -z "${TESTS:-}" ] && [ "${TEST_LONG:-0}" != 1 ] &&
		   [ "${s%%/*}" != unit ] &&
		   ! listed "$s" "$valgrind"; then
			eval "e${ne}_why='programs are checked under ASan+UBSan; valgrind runs the unit tier and the libraries suites (tests/suites.conf: valgrind)'"
		elif [ "$p" -ne "$first_pass" ] && listed "$s" "$once"; then
			eval "e${ne}_why='the same run in every pass; run in the first (tests/suites.conf: once)'"
		fi
	done
	eval "p${p}_last=$ne"
done

# --- the jobs: what the pool starts ---------------------------------------
# A job is a build (the sanitizer pass's), one suite, or a chain of suites
# run one after the other. Each has: kind (build, suite, alone), pass,
# entries, weight (the pool's slots it takes: a build runs make -j$cpus).
nj=0
add_job() {	# KIND PASS ENTRIES
	nj=$((nj + 1))
	w=1; [ "$1" = build ] && w=$((cpus < JOBS ? cpus : JOBS))
	eval "j${nj}_kind=\$1 j${nj}_pass=\$2 j${nj}_entries=\$3 j${nj}_w=$w j${nj}_pid="
}
queue_alone= queue_build= queue_first= queue_rest=
for p in $(seq 1 $np); do
	eval "ready=\$p${p}_ready"
	[ "$ready" = 1 ] || { add_job build "$p" ""; queue_build="$queue_build $nj"; }
done
for k in $(seq 1 $ne); do
	eval "s=\$e${k}_suite p=\$e${k}_pass why=\$e${k}_why"
	[ -z "$why" ] || continue
	c=$(chain_of "$s")
	if [ -n "$c" ]; then
		eval "j=\${chainjob_${c}_$p-}"
		if [ -n "$j" ]; then
			eval "j${j}_entries=\"\$j${j}_entries $k\""
			continue
		fi
		add_job suite "$p" "$k"
		eval "chainjob_${c}_$p=$nj"
	elif listed "$s" "$alone"; then
		add_job alone "$p" "$k"
		queue_alone="$queue_alone $nj"
		continue
	else
		add_job suite "$p" "$k"
	fi
	if listed "$s" "$first"; then
		rank=0
		for f in $first; do
			rank=$((rank + 1))
			[ "$f" = "$s" ] && break
		done
		queue_first="$queue_first $rank:$nj"
	else
		queue_rest="$queue_rest $nj"
	fi
done
# The order in which free slots are filled: the suites that must run alone
# while nothing else does (at the start), builds, the slowest suites (in
# the order suites.conf gives, every pass's together), then the rest.
queue_first=$(for x in $queue_first; do echo "$x"; done | sort -s -t: -k1,1n | sed 's/.*://')
queue=$(echo $queue_alone $queue_build $queue_first $queue_rest)

# --- running --------------------------------------------------------------
work=$(mktemp -d "${TMPDIR:-/tmp}/run-tests.XXXXXX") || exit 1
mkfifo "$work/done" || exit 1
# Jobs report on this FIFO when they end; held open both ways, reading
# it waits for the next one.
exec 9<>"$work/done"
for p in $(seq 1 $np); do
	eval "mkdir -p \"\$p${p}_logs\""
done
running= nrunning=0 wrunning=0 alone_running=
# kill_tree PID: ends PID and every process below it, the deepest first
# (a suite's own children would outlive it).
kill_tree() {
	kill -STOP "$1" 2>/dev/null
	for c in $(ps -o pid= --ppid "$1" 2>/dev/null); do
		kill_tree "$c"
	done
	kill -TERM "$1" 2>/dev/null
	kill -CONT "$1" 2>/dev/null
}
abort() {
	trap - INT TERM
	for j in $running; do
		eval "kill_tree \$j${j}_pid"
	done
	rm -rf "$work"
	exit 130
}
trap abort INT TERM

# pass_env P: the environment of pass P's suites (in a job's subshell).
pass_env() {
	eval "BUILD=\$p${1}_build SANITIZE=\$p${1}_san VALGRIND=\$p${1}_vg LOGS=\$p${1}_logs"
	BIN=$BUILD/tests/bin
	export BUILD BIN SANITIZE VALGRIND
	if [ "$VALGRIND" = 1 ]; then
		# Check forks per test; trace children and fail on any leak or error.
		VALGRIND_CMD="valgrind $VALGRIND_ARGS" CK_FORK=no
		export VALGRIND_CMD CK_FORK
	else
		unset VALGRIND_CMD CK_FORK
	fi
}

# In a new mount namespace: an empty directory ($1; a new tmpfs there
# when $2 is not empty) bound over /tmp, with the tree, the build,
# $TMPDIR and the directory $3 (a suite given by its path, say in
# harness_rules.sh's $T) bound back in where they are under /tmp; then
# runs the other arguments.
PRIVATE_TMP='p=$1 fs=$2 own=$3; shift 3; keep=
[ -z "$fs" ] || mount -t tmpfs -o mode=1777 tmpfs "$p" || exit 1
for d in "$TOP" "$BUILD" "${TMPDIR:-}" "$own"; do
	case $d in /tmp/?*) ;; *) continue ;; esac
	for k in $keep; do case $d/ in "$k"/*) continue 2 ;; esac; done
	keep="$keep $d"
done
for d in $keep; do mkdir -p "$p/${d#/tmp/}" || exit 1; done
for d in $keep; do mount --bind "$d" "$p/${d#/tmp/}" || exit 1; done
mount --rbind "$p" /tmp || exit 1
exec "$@"'

# cpu_children FILE: the CPU seconds (user + system) of the children this
# shell has waited for, as the "times" builtin wrote them to FILE ("times
# >FILE" must run in this shell: in a command substitution's subshell the
# children's times start at zero).
cpu_children() {
	awk 'NR == 2 {
		t = 0
		for (i = 1; i <= 2; i++) {
			split($i, f, "m"); sub(/s$/, "", f[2]); t += f[1] * 60 + f[2]
		}
		printf "%.1f\n", t
	}' "$1"
}

# What run.sh does for every suite is done with the shell's builtins (no
# date, awk, tr, grep a suite: with 400 entries, those processes cost
# seconds of CPU in a run, and every suite waited for them to start).
#
# times_us FIGURE: sets us to the microseconds of one figure "times"
# prints ("1m2.345000s": dash gives six decimals, bash three).
times_us() {
	tu_m=${1%%m*} tu_s=${1#*m}
	tu_s=${tu_s%s}
	tu_i=${tu_s%.*} tu_f=${tu_s#*.}000000
	tu_f=${tu_f%"${tu_f#??????}"}
	tu_f=${tu_f#"${tu_f%%[!0]*}"}	# no leading zero: not octal
	us=$(((tu_m * 60 + tu_i) * 1000000 + ${tu_f:-0}))
}
# children_us FILE: sets cpu_us to the CPU microseconds (user + system)
# of the children this shell has waited for, as "times >FILE" wrote them.
children_us() {
	{ read -r _ _ && read -r cu_u cu_s; } <"$1" || { cpu_us=0; return; }
	times_us "$cu_u"
	cpu_us=$us
	times_us "$cu_s"
	cpu_us=$((cpu_us + us))
}
# tenths_of US: sets tenths to US in tenths of a second, rounded.
tenths_of() {
	tenths=$((($1 + 50000) / 100000))
}
# as_seconds TENTHS: sets secs_text to TENTHS as seconds with one decimal.
as_seconds() {
	secs_text=$(($1 / 10)).$(($1 % 10))
}
# now_s: sets now to a clock's whole seconds (for differences): the
# kernel's uptime where /proc is, else date(1).
if read -r now _ </proc/uptime 2>/dev/null; then
	now_s() { read -r now _ </proc/uptime; now=${now%.*}; }
else
	now_s() { now=$(date +%s); }
fi
# log_of SUITE: sets log_name to the suite's log's name, its every "/"
# an "_" (cli_getcap_args.sh.log).
log_of() {
	lo_in=$1 log_name=
	while :; do
		case $lo_in in
		*/*) log_name=$log_name${lo_in%%/*}_ lo_in=${lo_in#*/} ;;
		*) break ;;
		esac
	done
	log_name=$log_name$lo_in.log
}

# run_entry K (in a job's subshell): runs one suite, writes "rc seconds
# cpu-seconds" (the suite's processes' CPU time, whatever else ran beside).
# Every suite runs under timeout(1) with SUITE_TIMEOUT seconds (default
# 300): a hung suite (a broadcast that never returns, a lost child) is a
# failure with its log, never a run that waits for ever. timeout signals
# the suite's whole process group, then kills it 10 s later.
SUITE_TIMEOUT=${SUITE_TIMEOUT:-300}
# vg_reports DIR: the "==PID==" lines of the valgrind logs in DIR, less
# valgrind 3.19's three-line warning about ioctls it has no wrapper for
# that take no memory and so hide no error: ioctl_ns(2)'s NS_GET_USERNS
# (0xb701) and pidfd's PIDFD_GET_MNT_NAMESPACE and PIDFD_GET_USER_NAMESPACE
# (0xff03, 0xff09), with which the capability.conf trust check asks who
# owns the mount namespace (common/mountlist.c).
vg_reports() {
	# (every log at once: one grep and one awk, however many processes
	# valgrind followed; a warning's lines are consecutive in its file)
	set -- "$1"/*
	[ -f "$1" ] || return 0
	grep -hE '^==[0-9]+== ' "$@" | awk '
		/ Warning: noted but unhandled ioctl 0x(b701|ff03|ff09) with no size\/direction hints\.$/ {
			skip = 2; next
		}
		skip > 0 && / (This could cause spurious value errors to appear\.|See README_MISSING_SYSCALL_OR_IOCTL for guidance on writing a proper wrapper\.)$/ {
			skip--; next
		}
		{ skip = 0; print }'
}

# counted SUITE LOG: the line of LOG that says what SUITE, which exited 0,
# checked: the last "N checks, 0 failed[, K not checked: WHAT]" (shell) or
# "100%: Checks: N, ..." (unit), on stdout; status 1 when there is none or
# N is 0. A suite whose loop ran over nothing, or whose every case was
# left out, has proved nothing and must not pass.
counted() {
	case $1 in
	unit/*) cnt_re='^100%: Checks: [0-9]+, ' ;;
	*) cnt_re='^[0-9]+ checks, 0 failed(, [0-9]+ not checked: .*)?$' ;;
	esac
	# (one process: the last line that matches, or an empty one)
	cnt_line=$(sed -nE "/$cnt_re/h; \${x;p;}" "$2" 2>/dev/null)
	case $cnt_line in
	''|0\ *|'100%: Checks: 0,'*) return 1 ;;
	esac
	printf '%s\n' "$cnt_line"
}

run_entry() {
	ek=$1
	eval "s=\$e${ek}_suite"
	log_of "$s"
	log=$LOGS/$log_name
	now_s
	started=$now
	times >"$work/times.$ek"
	children_us "$work/times.$ek"
	cpu0=$cpu_us
	ptmp= ptmpfs=
	vgdir=
	if [ -n "${VALGRIND_CMD:-}" ]; then
		# Each valgrind process (forked children too: %p) writes to a
		# file of its own, and any report fails the suite, whatever
		# the suite did with the exit status or stderr it saw.
		vgdir=$log.vg
		rm -rf "$vgdir" && mkdir -p "$vgdir" && chmod 1777 "$vgdir"
		VALGRIND_CMD="valgrind $VALGRIND_ARGS --log-file=$vgdir/%p.log"
		export VALGRIND_CMD
	fi
	sandir=
	if [ -n "${SANITIZE:-}" ]; then
		# The same for the sanitizers: a leak report at exit (exit 23)
		# or an error in a process whose status the suite ignores.
		sandir=$log.san
		rm -rf "$sandir" && mkdir -p "$sandir" && chmod 1777 "$sandir"
		ASAN_OPTIONS="${san_asan}${san_asan:+:}log_path=$sandir/asan"
		UBSAN_OPTIONS="${san_ubsan}${san_ubsan:+:}log_path=$sandir/ubsan"
		export ASAN_OPTIONS UBSAN_OPTIONS
	fi
	case $s in
	unit/*)
		# VALGRIND_CMD is a command line: split into words on purpose.
		# shellcheck disable=SC2086
		set -- ${VALGRIND_CMD:-} "$BIN/$(basename "$s")" ;;
	*)
		set -- sh "$s" ;;
	esac
	case $s in
	root/*)
		[ "$(id -u)" -eq 0 ] || set -- sh -c 'echo "root tier needs root"; exit 77' ;;
	esac
	# A /tmp of its own (when we are root): a new tmpfs. A suite's files
	# there cost a fraction of what the root file system charges for
	# creating, renaming and removing them (a third of a suite's CPU was
	# the kernel's, much of it that); and a suite meets no other's files.
	# The disktmp suites, and every suite of a run with RUN_SH_DISK_TMP
	# set (a world whose suites must write on its root, as
	# progs_container_world.sh's), keep /tmp; those of them that are
	# privatetmp get an empty directory of /tmp's bound over it.
	if [ -n "$can_tmpfs" ] && [ -z "${RUN_SH_DISK_TMP:-}" ] && ! listed "$s" "$disktmp"; then
		ptmp=$work/tmp.$ek ptmpfs=1
		mkdir "$ptmp"
	elif [ -n "$can_unshare" ] && [ "${s%%/*}" != unit ] && listed "$s" "$privatetmp"; then
		ptmp=$(mktemp -d "/tmp/run-tmp.XXXXXX") ptmpfs=
		chmod 1777 "$ptmp"
	fi
	case $s in /*) sdir=${s%/*} ;; *) sdir= ;; esac
	[ -z "$ptmp" ] || set -- unshare -m --propagation private sh -c "$PRIVATE_TMP" sh "$ptmp" "$ptmpfs" "$sdir" "$@"
	if listed "$s" "$mountlock" && mkdir -p "${LIB_MOUNTS_LOCK%/*}"; then
		set -- flock -w "$SUITE_TIMEOUT" "$LIB_MOUNTS_LOCK" "$@"
	fi
	timeout -k 10 "$SUITE_TIMEOUT" "$@" >"$log" 2>&1 </dev/null 9>&- &
	child=$!
	wait $child
	rc=$?
	if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
		echo "run.sh: timed out after $SUITE_TIMEOUT s (exit $rc)" >>"$log"
	fi
	# Errors and leaks are the "==PID==" lines; "--PID--" lines are
	# valgrind's own warnings (a system call it does not know, which our
	# code then sees fail with ENOSYS and handles).
	if [ -n "$vgdir" ]; then
		if [ -n "$(vg_reports "$vgdir")" ]; then
			echo "run.sh: valgrind reported errors (files in $vgdir):" >>"$log"
			vg_reports "$vgdir" | head -n 200 >>"$log"
			rc=1
		else
			rm -rf "$vgdir"
		fi
	fi
	if [ -n "$sandir" ]; then
		set -- "$sandir"/*	# (only the sanitizers' reports are made there)
		if [ -e "$1" ]; then
			echo "run.sh: a sanitizer reported errors (files in $sandir):" >>"$log"
			find "$sandir" -type f -exec cat {} + | head -n 200 >>"$log"
			rc=1
		else
			rm -rf "$sandir"
		fi
	fi
	# What it checked, for print_ready's line.
	if [ "$rc" -eq 0 ] && ! counted "$s" "$log" >"$work/cnt.$ek"; then
		echo "run.sh: ran no check: exit 0 without a count of checks above zero (lib.sh's finish: \"N checks, 0 failed\"; Check's \"100%: Checks: N\")" >>"$log"
		rc=nocheck
	fi
	# (a tmpfs's mount point is empty here: $work goes at the end)
	[ -z "${ptmp:-}" ] || [ -n "$ptmpfs" ] || rm -rf "$ptmp"
	times >"$work/times.$ek"
	children_us "$work/times.$ek"
	tenths_of $((cpu_us - cpu0))
	now_s
	echo "$rc $((now - started)) $tenths" >"$work/res.$ek"
}

# run_build P (in a job's subshell): builds pass P's tree and the test
# programs its suites use (tests/Makefile: sanitize-pass, the only pass with
# a build of its own).
run_build() {
	log=$LOGS/build.log
	{ make -s -j"$cpus" -C "$TOP" all SANITIZE="$SANITIZE" BUILD="$BUILD" &&
	  make -s -j"$cpus" -C "$TOP/tests" sanitize-pass SANITIZE="$SANITIZE" BUILD="$BUILD"
	} >"$log" 2>&1 </dev/null 9>&- &
	child=$!
	wait $child
	echo "$? 0" >"$work/build.$1"
}

start_job() {
	eval "kind=\$j${1}_kind p=\$j${1}_pass ents=\$j${1}_entries w=\$j${1}_w"
	(
		child=
		trap '[ -n "$child" ] && kill -TERM $child 2>/dev/null; exit 143' TERM
		pass_env "$p"
		if [ "$kind" = build ]; then
			run_build "$p"
		else
			for k in $ents; do run_entry "$k"; done
		fi
		echo "$1" >&9
	) &
	eval "j${1}_pid=$!"
	running="$running $1" nrunning=$((nrunning + 1)) wrunning=$((wrunning + w))
	[ "$kind" = alone ] && alone_running=1
}

# Fills free slots from the queue, in its order, with jobs that may start.
fill() {
	left=
	for j in $queue; do
		eval "kind=\$j${j}_kind p=\$j${j}_pass"
		ready=1
		[ "$kind" = build ] || eval "ready=\$p${p}_ready"
		if [ -n "$alone_running" ] || [ "$wrunning" -ge "$JOBS" ] || [ "$ready" != 1 ] ||
		   { [ "$kind" = alone ] && [ "$nrunning" -gt 0 ]; }; then
			left="$left $j"
		else
			start_job "$j"
		fi
	done
	queue=$left
}

finish_job() {
	eval "kind=\$j${1}_kind p=\$j${1}_pass ents=\$j${1}_entries w=\$j${1}_w pid=\$j${1}_pid"
	wait "$pid" 2>/dev/null
	left=
	for j in $running; do [ "$j" = "$1" ] || left="$left $j"; done
	running=$left nrunning=$((nrunning - 1)) wrunning=$((wrunning - w))
	[ "$kind" = alone ] && alone_running=
	if [ "$kind" = build ]; then
		read -r rc _ <"$work/build.$p" 2>/dev/null || rc=1
		if [ "$rc" -eq 0 ]; then
			eval "p${p}_ready=1"
		else
			# The pass's suites cannot run: drop their jobs.
			eval "p${p}_ready=failed p${p}_note=\"build failed (exit $rc)\""
			left=
			for j in $queue; do
				eval "jp=\$j${j}_pass"
				[ "$jp" = "$p" ] || left="$left $j"
			done
			queue=$left
			eval "f=\$p${p}_first l=\$p${p}_last"
			for k in $(seq "$f" "$l"); do
				eval "[ -n \"\$e${k}_rc\" ] || e${k}_rc=none"
			done
		fi
		return
	fi
	for k in $ents; do
		read -r rc secs cpu <"$work/res.$k" 2>/dev/null || { rc=1 secs=0 cpu=0; }
		eval "e${k}_rc=$rc e${k}_secs=$secs e${k}_cpu=$cpu"
	done
}

# --- printing, in the order of the entries --------------------------------
cur_p=1 cur_k= total_secs=0 total_cpu=0
for k in $(seq 1 $ne); do	# the suites no pass starts are done already
	eval "why=\$e${k}_why"
	[ -z "$why" ] || eval "e${k}_rc=77 e${k}_secs=0 e${k}_cpu=0"
done

print_ready() {
	while [ "$cur_p" -le "$np" ]; do
		p=$cur_p
		if [ -z "$cur_k" ]; then
			eval "head=\$p${p}_head cur_k=\$p${p}_first"
			[ -z "$head" ] || echo "$head"
			npass=0 nfail=0 nskip=0 nparts=0
			if [ "$p" -eq 1 ] && [ -n "$stale" ]; then
				nfail=1
				echo "FAIL: tests/suites.conf names suites that do not exist:$stale"
			fi
		fi
		eval "last=\$p${p}_last"
		while [ "$cur_k" -le "$last" ]; do
			eval "rc=\$e${cur_k}_rc secs=\$e${cur_k}_secs cpu=\$e${cur_k}_cpu s=\$e${cur_k}_suite why=\$e${cur_k}_why"
			[ -n "$rc" ] || return 0
			eval "logs=\$p${p}_logs"
			log_of "$s"
			log=$logs/$log_name
			if [ -n "$why" ]; then
				echo "skipped by run.sh: $why" >"$log"
			fi
			total_secs=$((total_secs + ${secs:-0}))
			total_cpu=$((total_cpu + ${cpu:-0}))
			as_seconds "${cpu:-0}"
			cpu=$secs_text
			eval "pname=\$p${p}_name"
			echo "$cpu ${secs:-0} $pname $s" >>"$work/table"
			case $rc in
			none) ;;
			0)
				npass=$((npass + 1))
				# The parts it could not check here, named.
				parts=
				read -r cnt_line <"$work/cnt.$cur_k" 2>/dev/null || cnt_line=
				case $cnt_line in
				[0-9]*' checks, 0 failed, '[0-9]*' not checked: '*)
					parts=${cnt_line#* checks, 0 failed, } ;;
				esac
				[ -z "$parts" ] || nparts=$((nparts + ${parts%% *}))
				echo "PASS: $s ($secs s, CPU $cpu s${parts:+; $parts})" ;;
			nocheck) nfail=$((nfail + 1)); echo "FAIL: $s (exit 0 but ran no check; $secs s, CPU $cpu s)"; sed 's/^/    /' "$log" | tail -n 40 ;;
			77) nskip=$((nskip + 1)); echo "SKIP: $s ($(tail -n 1 "$log"); $secs s, CPU $cpu s)" ;;
			*) nfail=$((nfail + 1)); echo "FAIL: $s (exit $rc; $secs s, CPU $cpu s)"; sed 's/^/    /' "$log" | tail -n 40 ;;
			esac
			cur_k=$((cur_k + 1))
		done
		eval "ready=\$p${p}_ready note=\$p${p}_note san=\$p${p}_san logs=\$p${p}_logs"
		[ "$ready" != 0 ] || return 0
		if [ "$ready" = failed ]; then
			nfail=$((nfail + 1))
			echo "FAIL: make all SANITIZE=$san: $note; the pass's suites did not run"
			sed 's/^/    /' "$logs/build.log" | tail -n 40
		fi
		if [ "$note" != none ]; then
			parts=
			[ "$nparts" -eq 0 ] || parts="; $nparts parts of passed suites not checked (named above)"
			echo "suites: $npass passed, $nfail failed, $nskip skipped$parts"
			# "make test" adds up its passes from this file for one closing total.
			[ -z "${TEST_SUMMARY:-}" ] || echo "$npass $nfail $nskip" >>"$TEST_SUMMARY"
		fi
		[ "$nfail" -eq 0 ] || failed=1
		cur_p=$((cur_p + 1)) cur_k=
	done
}

failed=
started_all=$(date +%s)
fill
print_ready
while [ "$nrunning" -gt 0 ]; do
	read -r j <&9 || break
	finish_job "$j"
	fill
	print_ready
done
exec 9>&-
times >"$work/times.all"
all_cpu=$(cpu_children "$work/times.all")
# Where the time went: CPU seconds by pass, and the costliest suites (the
# run is CPU-bound on two cores, so CPU, not each suite's own wall time, is
# what a change must save).
if [ "$ne" -gt 1 ] && [ -s "$work/table" ]; then
	echo "time table: CPU s by pass:$(awk '{ c[$3] += $1 } END { for (p in c) printf " %s %.1f", p, c[p] }' "$work/table")"
	echo "time table: costliest suites (CPU s, own s, pass, suite):"
	sort -rn "$work/table" | head -n 15 | awk '{ printf "  %7.1f %4d  %-9s %s\n", $1, $2, $3, $4 }'
	# Every suite's, for whoever must find the next seconds to save.
	sort -rn "$work/table" >"$plain_logs/time-table.txt" 2>/dev/null &&
		echo "time table: every suite in $plain_logs/time-table.txt"
fi
rm -rf "$work"
if [ "$cur_p" -le "$np" ]; then
	echo "run.sh: internal error: jobs left that cannot start:$queue" >&2
	exit 1
fi
[ "$np" -eq 1 ] && [ "$ne" -le 1 ] ||
	echo "time: $(($(date +%s) - started_all)) s for $ne suites (their own times add up to $total_secs s; JOBS=$JOBS); CPU: $all_cpu s, $(as_seconds "$total_cpu"; echo "$secs_text") s of it in suites"
[ -z "$failed" ]
