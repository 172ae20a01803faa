#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# restore reads a file's content, compares its digest, and then writes
# capabilities (and with --fix-owner an owner and a set-user-ID mode): a
# user who swaps her file in between must never get them on a program of
# her own. nobody owns ./home/m and tool there, recorded (owner nobody)
# with cap_net_raw=ep; beside it, tool.evil, another program of hers.
# pathswap exchanges the two names (RENAME_EXCHANGE) as fast as it can
# while restore runs over and over:
#   - plain restore (owner and mode are the recorded ones, so the content
#     digest alone decides) may set the capability on the recorded
#     program, or refuse other content, but the evil inode (watched
#     through a hard link in a directory of root's) never gets one;
#   - --fix-owner, with 4755 recorded: her directory is refused whole, so
#     no inode of hers is ever made set-user-ID or capable.
# A restore that hashed the file by its path and wrote by its path again
# gave the evil inode the capability in most runs (see the commit).
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
private_etc "$@"
cm=$BUILD/progs/capmanifest swap=$BIN/pathswap
[ -x "$cm" ] && [ -x "$swap" ] || { fail "capmanifest or pathswap not built"; finish; }
id nobody >/dev/null 2>&1 || skip "no user nobody"
# 6 s a phase: a restore that hashed and wrote by path gave the evil inode
# the capability in 116 of 457 runs. A phase swaps for 3 s, and stops
# sooner once it made 450 restores, half as much again as the 284 those
# 3 s made on a loaded two-core machine with eight commands between two
# restores (now one getfattr(1) and one stat(1)): so never fewer
# restores than that loop made in the same time, unless 450 already; at
# least 100, however slow the machine.
seconds=${CAPMANIFEST_RACE_SECONDS:-$(long_or 3 30)}
restores=${CAPMANIFEST_RACE_RESTORES:-$(long_or 450 4500)}
swapper=
at_exit '[ -z "$swapper" ] || kill $swapper 2>/dev/null'
chmod 755 "$T"
gid=$(id -g nobody)
t=$T/tree keep=$T/keep
mkdir -p "$t/home/m" "$keep" && chmod 700 "$keep" || exit 1
cp /bin/true "$t/home/m/tool" && cp /bin/false "$t/home/m/tool.evil" &&
	chown -R nobody "$t/home/m" && chmod 0755 "$t/home/m/tool" "$t/home/m/tool.evil" || exit 1
# The two inodes, whatever their names become.
ln "$t/home/m/tool" "$keep/good" && ln "$t/home/m/tool.evil" "$keep/evil" || exit 1
setcap cap_net_raw=ep "$keep/good" && "$cm" record "$t" >"$T/m" && setcap -r "$keep/good" ||
	{ fail "setup"; finish; }
grep -q '^\./home/m/tool owner=65534 ' "$T/m" || { fail "manifest: $(cat "$T/m")"; finish; }
sed 's/ mode=0755 / mode=4755 /' "$T/m" >"$T/m4755"

# swapping SECONDS: she swaps the two names for SECONDS, in the background.
swapping() {
	(cd "$t/home/m" && exec setpriv --reuid=nobody --regid="$gid" --clear-groups \
		"$swap" tool tool.evil "$1") >"$T/swaps" & swapper=$!
}

# phase NAME ARGS...: restore ARGS in a loop while she swaps. After each
# restore, one look at both inodes: the evil one must have got neither a
# capability nor another mode; the good one is made bare again, so that
# the next run writes once more.
phase() {
	name=$1; shift
	swapping "$seconds"
	runs=0 set=0 refused=0 evil=0 setid=0 rounds=1 swaps=0
	while [ $runs -lt "$restores" ]; do
		if ! kill -0 $swapper 2>/dev/null; then
			wait $swapper && pass || fail "$name: pathswap failed"
			swaps=$((swaps + $(cat "$T/swaps")))
			swapper=
			# A loaded machine restores slowly: the race goes on
			# (a second at a time) until it was run often enough.
			[ $runs -lt 100 ] && [ $rounds -lt 20 ] || break
			swapping 1
			rounds=$((rounds + 1))
		fi
		"$cm" restore "$@" >"$T/out" 2>"$T/err"
		runs=$((runs + 1))
		while IFS= read -r l; do
			case $l in "set: "*) set=$((set + 1)); break ;; esac
		done <"$T/out"
		[ -s "$T/err" ] && refused=$((refused + 1))
		getfattr --absolute-names -n security.capability "$keep/evil" "$keep/good" \
			>"$T/caps" 2>/dev/null
		stat -c '%a %n' "$keep/evil" "$keep/good" >"$T/modes"
		while read -r l f; do
			[ "$l" = '#' ] || continue
			case ${f#file: } in
			"$keep/evil") evil=$((evil + 1)); setfattr -x security.capability "$keep/evil" ;;
			"$keep/good") setfattr -x security.capability "$keep/good" ;;
			esac
		done <"$T/caps"
		while read -r m f; do
			[ "$m" = 755 ] && continue
			[ "$f" = "$keep/evil" ] && setid=$((setid + 1))
			chmod 0755 "$f"
		done <"$T/modes"
	done
	if [ -n "$swapper" ]; then
		# $restores made: she stops (SIGTERM), and says how many swaps.
		kill $swapper 2>/dev/null
		wait $swapper && pass || fail "$name: pathswap failed"
		swaps=$((swaps + $(cat "$T/swaps")))
		swapper=
	fi
	echo "$name: $runs restores against $swaps swaps in $rounds rounds: $set set the capability, $refused refused; the evil inode got a capability $evil times, another mode $setid times"
	[ $runs -ge 100 ] && pass || fail "$name: only $runs restores, the race was hardly exercised"
	[ $evil -eq 0 ] && pass || fail "$name: her program got the capability in $evil of $runs runs"
	[ $setid -eq 0 ] && pass || fail "$name: her program's mode changed in $setid of $runs runs"
}
phase plain "$T/m" "$t"
[ $set -gt 0 ] && [ $refused -gt 0 ] && pass ||
	fail "plain: both outcomes must occur for the race to mean anything ($set set, $refused refused)"
phase fix-owner --fix-owner "$T/m4755" "$t"
[ $set -eq 0 ] && pass || fail "fix-owner: set a capability in her directory $set times"
grep -q '^capmanifest: ./home/m/tool: directory ./home/m: uid 65534 owns it: not restored' "$T/err" && pass ||
	fail "fix-owner: $(cat "$T/err")"
finish
