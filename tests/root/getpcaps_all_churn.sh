#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# getpcaps --all while processes come and go: in a pid namespace whose
# pid_max is 600 (per namespace since Linux 6.14; after the first wrap,
# pids 300 to 599 go round), two kinds of short-lived processes are started without pause:
# "churnx", a copy of sleep with cap_net_raw=ep run by nobody, and
# "churny", a plain copy run by root. Pids are recycled many times over
# during the scans. Every scan must exit 0 with nothing on stderr (a
# vanished process is skipped, never an error), and every row must be
# one process's data: a churnx row is nobody's with "cap_net_raw=ep", a
# churny row root's with root's sets, never the one's name with the
# other's credentials.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
G=$BUILD/progs/getpcaps S=$BUILD/progs/setcap
[ "$(id -u)" -eq 0 ] || skip "needs root"
for p in "$G" "$S"; do [ -x "$p" ] || { fail "$p not built"; finish; }; done
for t in setpriv unshare; do
	command -v $t >/dev/null || skip "$t is not installed"
done
own_pid_ns "$@"
# uid 65534 is "nobody" in the base accounts, whatever the host calls it.
private_etc "$@"
# pid_max belongs to the pid namespace only since Linux 6.14; before, the
# write would change the host's, so older kernels keep theirs (and their
# pids are recycled less often).
small=no
kv=$(uname -r | sed 's/^\([0-9]*\)\.\([0-9]*\).*/\1 \2/')
if [ "${kv% *}" -gt 6 ] || { [ "${kv% *}" -eq 6 ] && [ "${kv#* }" -ge 14 ]; }; then
	for n in 600 1024; do
		echo $n >/proc/sys/kernel/pid_max 2>/dev/null && { small=$n; break; }
	done
fi

init
churn=
cleanup() {
	[ -n "$churn" ] && kill "$churn" 2>/dev/null
}
at_exit cleanup
chmod 755 "$T"
cp /bin/sleep "$T/churnx" && cp /bin/sleep "$T/churny" &&
chmod 755 "$T/churnx" "$T/churny" &&
"$S" cap_net_raw=ep "$T/churnx" || { fail "setup failed"; finish; }

(
	while :; do
		for i in 1 2 3 4 5 6 7 8; do
			setpriv --reuid=65534 --regid=65534 --clear-groups "$T/churnx" 0.0$i &
			"$T/churny" 0.0$i &
		done
		wait
	done
) &
churn=$!
sleep 0.3

root_text=$("$G" 1 | sed 's/^1: //')
rows=0 exited=0 maxpid=0
i=0
while [ $i -lt 40 ]; do
	case $((i % 4)) in
	0|1) opt=--all ;;
	2) opt=--tree ;;
	3) opt=--verbose ;;
	esac
	[ "$opt" = --verbose ] && set -- --all --verbose || set -- "$opt"
	run_ours "$G" "$@" >"$T/out" 2>"$T/err"; rc=$?
	[ $rc -eq 0 ] && pass || fail "getpcaps $* exit $rc"
	[ -s "$T/err" ] && fail "getpcaps $* stderr: $(head -n 3 "$T/err")" || pass
	if [ "$opt" = --tree ]; then
		# "<prefix><pid> <comm> (<user>) <risk> <caps>"
		sed -n 's/^[-|` ]*\([0-9][0-9]* churn[xy] .*\)$/\1/p' "$T/out" |
			awk '{ pid = $1; comm = $2; u = $3; sub(/^[^"]*/, ""); print pid, comm, u, $0 }' >"$T/rows"
		sed -i 's/ (\([a-z]*\)) / \1 /' "$T/rows"
	else
		awk '$4 ~ /^churn[xy]$/ { pid = $1; comm = $4; u = $3; sub(/^[^"]*/, ""); print pid, comm, u, $0 }' \
			"$T/out" >"$T/rows"
	fi
	while read -r pid comm user caps; do
		rows=$((rows + 1))
		[ "$pid" -gt "$maxpid" ] && maxpid=$pid
		case $comm in
		churnx) want_user=nobody want='"cap_net_raw=ep"' ;;
		churny) want_user=root want="\"$root_text\"" ;;
		esac
		caps=${caps%% \[*}
		[ "$user" = "$want_user" ] && [ "$caps" = "$want" ] && pass ||
			fail "mixed data: pid $pid $comm as $user with $caps"
	done <"$T/rows"
	n=$(sed -n 's/.* \([0-9][0-9]*\) exited during the scan.*/\1/p' "$T/out")
	exited=$((exited + ${n:-0}))
	i=$((i + 1))
done
kill "$churn" 2>/dev/null; wait "$churn" 2>/dev/null; churn=
[ $rows -gt 0 ] && pass || fail "no churn process was ever seen: the test shows nothing"
echo "40 scans: $rows churn rows checked, $exited processes exited mid-scan, pid_max $small, highest churn pid $maxpid"
finish "getpcaps --all under churn: no errors, no mixed data"
