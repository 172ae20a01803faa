#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# "capsh --explain=cap_perfmon" tells the administrator what getcap will
# print after its setcap recipe. Run the recipe's setcap on a scratch copy
# (ours and, where installed, Debian's getcap read it back) and check the
# quoted line is exactly getcap's output, not a hand-written guess (issue
# 14: it said cap_perfmon,cap_syslog=ep; getcap lists lowest number first).
set -u
C=$BUILD/progs/capsh
[ "$(id -u)" -eq 0 ] || { echo "skipped: needs root (setcap)"; exit 77; }
for p in capsh setcap getcap; do
	[ -x "$BUILD/progs/$p" ] || { echo "$p not built"; exit 1; }
done
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

"$C" --explain=cap_perfmon >"$tmp/explain" || bad "capsh --explain exit $?"
# The quoted getcap line may wrap: join the text, then take what follows
# 'getcap should print "'.
quoted=$(tr '\n' ' ' <"$tmp/explain" | sed -n 's/.*getcap should  *print "\([^"]*\)".*/\1/p')
[ -n "$quoted" ] || bad "no 'getcap should print \"...\"' in the explanation"
recipe=$(sed -n 's|^ *setcap \([^-][^ ]*\) /usr/bin/perf$|\1|p' "$tmp/explain" | head -n 1)
[ -n "$recipe" ] || bad "no 'setcap CAPS /usr/bin/perf' line in the explanation"

cp /bin/true "$tmp/perf"
"$BUILD/progs/setcap" "$recipe" "$tmp/perf" || bad "setcap $recipe: exit $?"
got=$("$BUILD/progs/getcap" "$tmp/perf" | sed "s|^$tmp/perf|/usr/bin/perf|")
[ "$got" = "$quoted" ] || bad "explanation says getcap prints [$quoted], ours prints [$got]"
if [ -x /usr/sbin/getcap ]; then
	got=$(/usr/sbin/getcap "$tmp/perf" | sed "s|^$tmp/perf|/usr/bin/perf|")
	[ "$got" = "$quoted" ] || bad "explanation says getcap prints [$quoted], libcap's prints [$got]"
fi
[ $fail -eq 0 ] && echo "capsh --explain=cap_perfmon: quoted getcap output [$quoted] is getcap's"
exit $fail
