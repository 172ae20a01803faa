#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# "capsh --explain=cap_perfmon" tells the administrator what getcap will
# print after its setcap recipe. Run the recipe's setcap on a scratch copy
# (ours and, where installed, Debian's getcap read it back) and check the
# quoted line is exactly getcap's output, not a hand-written guess (one
# said cap_perfmon,cap_syslog=ep; getcap lists lowest number first).
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
C=$BUILD/progs/capsh
[ "$(id -u)" -eq 0 ] || skip "needs root (setcap)"
for p in capsh setcap getcap; do
	[ -x "$BUILD/progs/$p" ] || { fail "$p not built"; finish; }
done

"$C" --explain=cap_perfmon >"$T/explain" && pass || fail "capsh --explain exit $?"
# The quoted getcap line may wrap: join the text, then take what follows
# 'getcap should print "'.
quoted=$(tr '\n' ' ' <"$T/explain" | sed -n 's/.*getcap should  *print "\([^"]*\)".*/\1/p')
[ -n "$quoted" ] && pass || fail "no 'getcap should print \"...\"' in the explanation"
recipe=$(sed -n 's|^ *setcap \([^-][^ ]*\) /usr/bin/perf$|\1|p' "$T/explain" | head -n 1)
[ -n "$recipe" ] && pass || fail "no 'setcap CAPS /usr/bin/perf' line in the explanation"

cp /bin/true "$T/perf"
"$BUILD/progs/setcap" "$recipe" "$T/perf" && pass || fail "setcap $recipe: exit $?"
got=$("$BUILD/progs/getcap" "$T/perf" | sed "s|^$T/perf|/usr/bin/perf|")
[ "$got" = "$quoted" ] && pass || fail "explanation says getcap prints [$quoted], ours prints [$got]"
if has_reference 2.66; then
	got=$("$REF/getcap" "$T/perf" | sed "s|^$T/perf|/usr/bin/perf|")
	[ "$got" = "$quoted" ] && pass || fail "explanation says getcap prints [$quoted], libcap's prints [$got]"
else
	not_checked "libcap's getcap not run: $reference_why"
fi
finish "capsh --explain=cap_perfmon: quoted getcap output [$quoted] is getcap's"
