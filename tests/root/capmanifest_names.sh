#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# The names record (and the walks of verify and restore) print on stderr
# are whoever made them: a user who renames a directory of hers while
# root records the system makes record name it as "vanished", and a name
# with an escape sequence and a newline in it then rewrote root's
# terminal and forged a line ("capmanifest: all clear"). Every path in a
# walk's message is escaped as \ooo, as in the manifest itself. Checked
# with the walk's messages a user cannot make root's record print at will
# (a directory, and a capable file, that the recorder may not read: run
# as nobody), then with the race itself as root for a while.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
private_etc "$@"
cm=$BUILD/progs/capmanifest
[ -x "$cm" ] || { fail "capmanifest not built"; finish; }
id nobody >/dev/null 2>&1 || skip "no user nobody"
chmod 755 "$T"
esc=$(printf '\033') nl='
'
# "x", red "FORGED", then a line of its own.
bad="x$esc[31mFORGED$esc[0m${nl}capmanifest: all clear"
shown='x\033[31mFORGED\033[0m\012capmanifest:\040all\040clear'
shown_msg='x\033[31mFORGED\033[0m\012capmanifest: all clear'
t=$T/tree
umask 022
mkdir -p "$t/$bad" "$t/ok" && echo x >"$t/ok/$bad" || exit 1
setcap cap_net_raw=ep "$t/ok/$bad" || { fail "setcap"; finish; }
chmod 700 "$t/$bad" && chmod 600 "$t/ok/$bad" || exit 1
gid=$(id -g nobody)
as_nobody "$cm" record "$t" >"$T/m" 2>"$T/err"; rc=$?
printf '%s\n' "capmanifest: cannot read directory $t/$shown_msg: Permission denied" \
	"capmanifest: $t/ok/$shown_msg: Permission denied" \
	'capmanifest: 2 paths could not be read: the manifest marks them "!unread" and does not cover them' |
	sort >"$T/want"
sort "$T/err" >"$T/got"
[ $rc -eq 1 ] && pass || fail "record as nobody: exit $rc, want 1"
same "$T/want" "$T/got" "record's messages"
grep -q "$esc" "$T/err" && fail "an escape character reached stderr" || pass
printf '%s\n' '# capmanifest 4' "!unread ./ok/$shown" "!unread ./$shown" >"$T/want"
same "$T/want" "$T/m" "the manifest"

# The race as root: she exchanges that directory with a file of hers
# (renameat2 RENAME_EXCHANGE) as fast as she can while root records, so
# the walk lists a directory and finds a file; every message is escaped.
swap=$BIN/pathswap
[ -x "$swap" ] || { fail "pathswap not built"; finish; }
mkdir -p "$t/home/$bad" && echo x >"$t/home/file" || exit 1
# Files beside them widen the time between listing the directory and
# opening it (each is looked at first), so the race is met often.
i=0
while [ $i -lt 400 ]; do : >"$t/home/f$i"; i=$((i + 1)); done
chown -R nobody "$t/home" || exit 1
# A run whose warning names the replaced directory is one in which the
# old code printed its name raw: it did in 13 to 23 runs of 87 to 118
# (5 s each, a loaded two-core machine; the first at run 1, 1 and 10),
# as often as today's names it escaped (32 of 136). So the race stops
# once it met that window $enough times in 20 records or more (the old
# code would have failed each of those runs), and at $seconds s at most;
# make test-long runs the whole time.
seconds=${CAPMANIFEST_RACE_SECONDS:-$(long_or 5 30)}
enough=$(long_or 10 0)
(cd "$t/home" && exec setpriv --reuid=nobody --regid="$gid" --clear-groups \
	"$swap" "$bad" file "$seconds") >"$T/swaps" &
racer=$!
at_exit "kill $racer 2>/dev/null"
runs=0 seen=0 raw=0
while kill -0 $racer 2>/dev/null; do
	"$cm" record "$t" >/dev/null 2>"$T/err"
	runs=$((runs + 1))
	grep -qF "$t/home/$shown_msg: vanished" "$T/err" && seen=$((seen + 1))
	grep -q "$esc" "$T/err" && raw=$((raw + 1))
	# (pathswap ends at SIGTERM and says how many swaps it made)
	[ "$enough" -gt 0 ] && [ $seen -ge "$enough" ] && [ $runs -ge 20 ] &&
		kill $racer 2>/dev/null
done
wait $racer && pass || fail "pathswap failed"
echo "root's record: $runs runs against $(cat "$T/swaps") swaps, the replaced directory named (escaped) in $seen, raw escapes in $raw"
[ $runs -ge 20 ] && pass || fail "only $runs records: the race was hardly exercised"
[ $seen -gt 0 ] && pass || fail "the walk never met the replaced directory in $runs runs: the race was not exercised"
[ $raw -eq 0 ] && pass || fail "raw escape sequences on root's stderr in $raw of $runs runs"
finish "record's messages escape the names users make"
