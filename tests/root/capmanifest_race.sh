#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# capmanifest record while an unprivileged user swaps things in her own
# directory inside the recorded tree. nobody owns
# ./home/m; running as nobody, pathswap exchanges (renameat2
# RENAME_EXCHANGE) her file with a symlink to a capable binary of the tree,
# then her directory with a symlink to the tree's directory of capable
# binaries. record runs over and over meanwhile: a manifest may leave her
# entries out (with a warning when her directory became a link while
# being walked), but record must succeed and her paths must never be
# recorded with capabilities (a later restore would grant them). The base commit, which walked with nftw and read each file
# again by its path, recorded them in 10-50% of the runs.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
# Users and groups by name (nobody, nogroup) from the base accounts only.
private_etc "$@"
cm=$BUILD/progs/capmanifest swap=$BIN/pathswap
[ -x "$cm" ] && [ -x "$swap" ] || { fail "capmanifest or pathswap not built"; finish; }
id nobody >/dev/null 2>&1 || skip "no user nobody"
uid=$(id -u nobody)
swapper=
at_exit '[ -z "$swapper" ] || kill $swapper 2>/dev/null'
chmod 755 "$T"
# 100 records a phase (at most 3 s; 30 s whole for make test-long): the
# base commit, run in this suite's phases on a loaded two-core machine,
# first recorded her path at record 2 to 33 (file) and 1 to 31
# (directory) over 16 runs, and then in 3 to 20 of each phase's first 61
# records (4 to 24 for the directory): a third of the records is left
# to the slowest of those.
seconds=${CAPMANIFEST_RACE_SECONDS:-$(long_or 3 30)}
enough=$(long_or 100 0)
t=$T/tree
mkdir -p "$t/usr/bin" "$t/usr/lib" "$t/home/m/dir"
for f in tool perf ping; do
	cp /bin/true "$t/usr/bin/$f" || exit 1
done
setcap cap_sys_admin=ep "$t/usr/bin/tool" && setcap cap_perfmon=ep "$t/usr/bin/perf" &&
	setcap cap_net_raw=ep "$t/usr/bin/ping" || { fail "setcap failed"; finish; }
# A little bulk, as on a real system (more would only slow each attempt).
i=0
while [ $i -lt 20 ]; do : >"$t/usr/lib/f$i"; i=$((i + 1)); done
: >"$t/home/m/tool" && : >"$t/home/m/dir/tool"
ln -s "$t/usr/bin/tool" "$t/home/m/tool.lnk"
ln -s "$t/usr/bin" "$t/home/m/dir.lnk"
chown -R -h nobody "$t/home/m"
as_her() { setpriv --reuid="$uid" --regid="$(id -g nobody)" --clear-groups "$@"; }

# phase NAME A B: A and B (in her directory) swapped while record loops.
phase() {
	(cd "$t/home/m" && exec setpriv --reuid="$uid" --regid="$(id -g nobody)" \
		--clear-groups "$swap" "$2" "$3" "$seconds") >"$T/swaps" & swapper=$!
	runs=0 skipped=0 recorded=0
	while kill -0 $swapper 2>/dev/null; do
		"$cm" record "$t" >"$T/m" 2>"$T/err"; rc=$?
		runs=$((runs + 1))
		[ $rc -eq 0 ] && pass || { fail "$1: record exited $rc: $(cat "$T/err")"; continue; }
		if grep -q '^\./home/' "$T/m"; then
			recorded=$((recorded + 1))
			[ $recorded -eq 1 ] && echo "$1: run $runs recorded $(grep '^\./home/' "$T/m" | head -n 1)"
		fi
		grep -q '^\./usr/bin/tool ' "$T/m" && pass || fail "$1: run $runs lost ./usr/bin/tool"
		# Her directory turning into a link mid-walk is skipped, and said.
		if [ -s "$T/err" ]; then
			skipped=$((skipped + 1))
			grep -qv "^capmanifest: warning: $t/home/m/dir[.a-z]*: vanished or replaced during the walk, nothing recorded below it\$" "$T/err" &&
				fail "$1: stderr $(cat "$T/err")" || pass
		else
			pass
		fi
		# (pathswap ends at SIGTERM and says how many swaps it made)
		[ "$enough" -gt 0 ] && [ $runs -ge "$enough" ] && kill $swapper 2>/dev/null
	done
	wait $swapper && pass || fail "$1: pathswap failed"
	swapper=
	echo "$1: $runs records against $(cat "$T/swaps") swaps: $recorded recorded her path with capabilities, $skipped skipped her directory as it turned into a link"
	[ $runs -ge 60 ] && pass || fail "$1: only $runs records, the race was hardly exercised"
	[ $recorded -eq 0 ] && pass || fail "$1: her path was recorded with capabilities in $recorded of $runs runs"
}
phase file tool tool.lnk
phase directory dir dir.lnk
finish
