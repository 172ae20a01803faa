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
set -u
. "$TESTS_DIR/lib.sh"
G=$BUILD/progs/getpcaps S=$BUILD/progs/setcap
[ "$(id -u)" -eq 0 ] || { echo "skipped: needs root"; exit 77; }
for p in "$G" "$S"; do [ -x "$p" ] || { echo "$p not built"; exit 1; }; done
for t in setpriv unshare; do
	command -v $t >/dev/null || { echo "skipped: $t is not installed"; exit 77; }
done
own_pid_ns "$@"
# uid 65534 is "nobody" in the base accounts, whatever the host calls it.
private_etc "$@"
small=no
for n in 600 1024; do
	echo $n >/proc/sys/kernel/pid_max 2>/dev/null && { small=$n; break; }
done

tmp=$(mktemp -d)
churn=
cleanup() {
	[ -n "$churn" ] && kill "$churn" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
chmod 755 "$tmp"
cp /bin/sleep "$tmp/churnx" && cp /bin/sleep "$tmp/churny" &&
chmod 755 "$tmp/churnx" "$tmp/churny" &&
"$S" cap_net_raw=ep "$tmp/churnx" || { echo "setup failed"; exit 1; }
fail=0
bad() { echo "FAIL: $*"; fail=1; }

(
	while :; do
		for i in 1 2 3 4 5 6 7 8; do
			setpriv --reuid=65534 --regid=65534 --clear-groups "$tmp/churnx" 0.0$i &
			"$tmp/churny" 0.0$i &
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
	run_ours "$G" "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?
	[ $rc -eq 0 ] || bad "getpcaps $* exit $rc"
	[ -s "$tmp/err" ] && bad "getpcaps $* stderr: $(head -n 3 "$tmp/err")"
	if [ "$opt" = --tree ]; then
		# "<prefix><pid> <comm> (<user>) <risk> <caps>"
		sed -n 's/^[-|` ]*\([0-9][0-9]* churn[xy] .*\)$/\1/p' "$tmp/out" |
			awk '{ pid = $1; comm = $2; u = $3; sub(/^[^"]*/, ""); print pid, comm, u, $0 }' >"$tmp/rows"
		sed -i 's/ (\([a-z]*\)) / \1 /' "$tmp/rows"
	else
		awk '$4 ~ /^churn[xy]$/ { pid = $1; comm = $4; u = $3; sub(/^[^"]*/, ""); print pid, comm, u, $0 }' \
			"$tmp/out" >"$tmp/rows"
	fi
	while read -r pid comm user caps; do
		rows=$((rows + 1))
		[ "$pid" -gt "$maxpid" ] && maxpid=$pid
		case $comm in
		churnx) want_user=nobody want='"cap_net_raw=ep"' ;;
		churny) want_user=root want="\"$root_text\"" ;;
		esac
		caps=${caps%% \[*}
		[ "$user" = "$want_user" ] && [ "$caps" = "$want" ] ||
			bad "mixed data: pid $pid $comm as $user with $caps"
	done <"$tmp/rows"
	n=$(sed -n 's/.* \([0-9][0-9]*\) exited during the scan.*/\1/p' "$tmp/out")
	exited=$((exited + ${n:-0}))
	i=$((i + 1))
done
kill "$churn" 2>/dev/null; wait "$churn" 2>/dev/null; churn=
[ $rows -gt 0 ] || bad "no churn process was ever seen: the test shows nothing"
echo "40 scans: $rows churn rows checked, $exited processes exited mid-scan, pid_max $small, highest churn pid $maxpid"
[ $fail -eq 0 ] && echo "getpcaps --all under churn: no errors, no mixed data"
exit $fail
