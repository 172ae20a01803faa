# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# Run (sh capaudit_stranger.sh HOW WHAT DIR CAPAUDIT [OPTION...]) by the
# capaudit --pid suites, with lib.sh's $T shared through LIB_T: a thread's
# id goes to a stranger while capaudit attaches.
#
# capaudit_target --helper is the process watched: its main thread chowns
# DIR/own (cap_chown), a second thread waits. capaudit --pid=PROCESS
# lists the threads, then CAPAUDIT_ATTACH_WAIT holds it on a FIFO before
# it opens anything on their ids, and again once all is open, for 0.3 s,
# before it asks whether each id still names its thread. At the first
# stop, WHAT:
#   thread   the second thread ends;
#   exec     the second thread runs execve(2), so it takes the process's
#            id and its own id is free (the old first thread's, released);
#   process  the whole process is killed and reaped;
# and capaudit_target --stranger HOW (last_pid, in a pid namespace of the
# suite's own, or set_tid) starts a process with the id set free, which
# chmods DIR/other (cap_fowner) every 10 ms, into whatever capaudit has
# opened on that id by the second stop. Then capaudit goes on and watches
# for a second. Its report must hold no cap_fowner check (the
# stranger's) and (thread, exec) the process's own checks, and say that a
# thread was left out; for "process" capaudit must say it watched nothing.
. "$TESTS_DIR/lib.sh"
init
how=$1 what=$2 d=$3 ca=$4
shift 4
case="$what's id given to a stranger ($how${1:+, $*})"
target= stranger= ca_pid=
# done_case [SUMMARY]: ends what it started, then finish. (With LIB_T,
# init sets no exit trap here: at_exit would never run.)
done_case() {
	for p in $target $stranger $ca_pid; do kill -9 "$p" 2>/dev/null; done
	finish "$@"
}
mkdir -p "$d" && rm -f "$d/wait" "$d/report.json" "$d/err" "$d"/*.out &&
	mkfifo "$d/wait" &&
	: >"$d/own" && : >"$d/other" && chown 1 "$d/own" "$d/other" ||
	{ fail "$case: set-up of $d"; done_case; }

# waitfor FILE PREFIX: the rest of FILE's first line starting with PREFIX.
waitfor() {
	got= n=0
	while [ -z "$got" ] && [ $n -lt 100 ]; do
		got=$(sed -n "s/^$2 //p" "$1" 2>/dev/null | head -n 1)
		[ -n "$got" ] || sleep 0.05
		n=$((n + 1))
	done
	[ -n "$got" ]
}

"$BIN/capaudit_target" --helper "$d/own" 8 >"$d/target.out" 2>&1 &
target=$!
waitfor "$d/target.out" pid && tid=$(sed -n '1s/^tid //p' "$d/target.out") ||
	{ fail "$case: capaudit_target --helper did not start: $(cat "$d/target.out")"; done_case; }
[ "$what" = process ] && id=$target || id=$tid

# Read-write, so that neither side's open waits for the other; capaudit's
# read ends when this, the only writer, closes.
# holding WANT [ended]: waits until capaudit has the FIFO open (WANT 0: it
# waits there) or has not (1). Gives up (fails) after 10 s, or once
# capaudit ended (but returns 1 with "ended").
holding() {
	n=0
	until for f in /proc/$ca_pid/fd/*; do
		[ "$(readlink "$f" 2>/dev/null)" = "$d/wait" ] && break
	done; [ $? = "$1" ]; do
		n=$((n + 1))
		if ! kill -0 $ca_pid 2>/dev/null ||
			[ "$(cut -d' ' -f3 "/proc/$ca_pid/stat" 2>/dev/null)" = Z ]; then
			[ "${2:-}" = ended ] && return 1
			n=200
		fi
		if [ $n -ge 200 ]; then
			fail "$case: capaudit did not come to CAPAUDIT_ATTACH_WAIT: $(cat "$d/err")"
			exec 3>&-
			done_case
		fi
		sleep 0.05
	done
}

exec 3<>"$d/wait"
CAPAUDIT_ATTACH_WAIT=$d/wait "$ca" "$@" --pid="$target" --duration=1 --json \
	--output="$d/report.json" 2>"$d/err" 3>&- &
ca_pid=$!
holding 0

case $what in
thread) kill -USR1 "$target" ;;
exec) kill -USR2 "$target" ;;
process) kill -9 "$target" && wait "$target" 2>/dev/null ;;
esac
n=0
while [ -e "/proc/$target/task/$id" ] && [ "$what" != process ] && [ $n -lt 200 ]; do
	sleep 0.02
	n=$((n + 1))
done
[ -e "/proc/$target/task/$id" ] && [ "$what" != process ] &&
	{ fail "$case: thread $id did not end"; exec 3>&-; done_case; }
"$BIN/capaudit_target" --stranger "$how" "$id" "$d/other" 8 >"$d/stranger.out" 2>&1 3>&-
stranger=$(sed -n 's/^stranger //p' "$d/stranger.out")
if [ "$stranger" != "$id" ]; then
	exec 3>&-
	fail "$case: the stranger did not get id $id: $(cat "$d/stranger.out")"
	done_case
fi
# The second stop: the first released (no writer left), then a writer
# again for capaudit's second open, held while the stranger checks.
exec 3>&-
holding 1
exec 3<>"$d/wait"
holding 0 ended && sleep 0.3
exec 3>&-
wait $ca_pid
rc=$?

if [ "$what" = process ]; then
	[ $rc -eq 1 ] || fail "$case: capaudit exit $rc, want 1"
	grep -q '^capaudit: .*while capaudit attached.*nothing was watched$' "$d/err" &&
		pass || fail "$case: no line saying nothing was watched: $(cat "$d/err")"
	! grep -q cap_fowner "$d/report.json" 2>/dev/null && pass ||
		fail "$case: the stranger's checks reported: $(cat "$d/report.json")"
	done_case "$case: nothing watched, and said"
fi
[ $rc -eq 0 ] || { fail "$case: capaudit exit $rc: $(cat "$d/err")"; done_case; }
counting=kernel
case " $* " in *" --no-bpf "*) counting=samples ;; esac
grep -q '"type":"summary".*"counting":"'$counting'"' "$d/report.json" && pass ||
	fail "$case: not counted as $counting: $(grep summary "$d/report.json")"
if grep -q '"capability":"cap_fowner"' "$d/report.json"; then
	grep '"type":"check"' "$d/report.json" | sed 's/^/    /'
	fail "$case: the stranger's cap_fowner checks are reported as the process's"
else
	pass
fi
grep -q '"capability":"cap_chown".*"pid":'"$target"',' "$d/report.json" && pass ||
	fail "$case: the process's own cap_chown checks are missing: $(cat "$d/report.json")"
grep -q '"type":"summary".*"threads_left_out":1,' "$d/report.json" && pass ||
	fail "$case: the summary does not say one thread was left out: $(grep summary "$d/report.json")"
expect_line "$d/err" "capaudit: thread $id ended while capaudit attached, and its id may have gone to another process since: nothing of it is counted" \
	"$case: said on stderr"
done_case "$case: only the process's own checks counted, the thread left out said"
