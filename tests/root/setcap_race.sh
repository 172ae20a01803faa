#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# CVE-2026-4878-style race: while the entry "p" flips between a regular
# file and a symlink to "target" (atomic renameat2 exchanges), our setcap
# runs on "p" again and again. It may hit the file or refuse the symlink,
# but the symlink's target must never receive a capability. Then the same
# through the library directly (tools/setloop), tens of thousands of times.
set -u
S=$TOP/progs/setcap swap=$BIN/pathswap loop=$BIN/setloop
[ -x "$S" ] && [ -x "$swap" ] && [ -x "$loop" ] || { echo "setcap, pathswap or setloop not built"; exit 1; }
tmp=$(mktemp -d); trap 'kill $pid 2>/dev/null; rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
touch target p && ln -s target q
secs=3
"$swap" p q $secs >swaps & pid=$!
ok=0 refused=0 other=0 i=0
end=$(($(date +%s) + secs - 1))
while [ $i -lt 2000 ] && [ "$(date +%s)" -lt $end ]; do
	i=$((i + 1))
	"$S" cap_net_raw=ep p 2>err
	case $? in
	0) ok=$((ok + 1)) ;;
	*) if grep -q "^Invalid file 'p'" err; then refused=$((refused + 1)); else other=$((other + 1)); cat err; fi ;;
	esac
done
wait $pid || { echo "pathswap failed"; exit 1; }
echo "$i runs: $ok written to the regular file, $refused refused a symlink, $other other; $(cat swaps) swaps"
if getfattr -n security.capability target >/dev/null 2>&1; then
	echo "RACE: the symlink target got a capability"; exit 1
fi
[ $other -eq 0 ] || { echo "unexpected failures"; exit 1; }
# Both outcomes must occur, or the race was not exercised.
[ $ok -gt 0 ] && [ $refused -gt 0 ] || { echo "the race was not exercised"; exit 1; }

"$swap" p q 2 >swaps & pid=$!
counts=$("$loop" p 2)
wait $pid || { echo "pathswap failed"; exit 1; }
echo "library loop: $counts; $(cat swaps) swaps"
set -- $counts
if getfattr -n security.capability target >/dev/null 2>&1; then
	echo "RACE: the symlink target got a capability (library loop)"; exit 1
fi
[ "$6" -eq 0 ] || { echo "unexpected errors in the library loop"; exit 1; }
[ "$2" -gt 0 ] && [ "$4" -gt 0 ] || { echo "the race was not exercised"; exit 1; }
echo "the symlink target never received a capability"
