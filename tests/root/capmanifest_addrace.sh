#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# capmanifest add, several at once on one manifest (two package scripts,
# or an administrator and a script, registering programs). Each read the
# manifest, merged its file in and renamed its result over it: the last
# rename won, and the files of the others, each reported "added:", were
# lost (40 adds at once left 6 entries). add now holds a lock from its
# read to its rename: every file reported added is in the manifest, the
# manifest is whole and valid, and nothing is left beside it (no lock
# file, no temporary). Three rounds, the last one updating every entry;
# then a lock file left behind by a killed add is taken and removed.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
[ "$(id -u)" -eq 0 ] || skip "needs root (sets file capabilities)"
cm=$BUILD/progs/capmanifest
[ -x "$cm" ] || { fail "capmanifest not built"; finish; }
n=${CAPMANIFEST_ADDS:-40}
umask 022
mkdir -p "$T/bin" "$T/reg" || exit 1
bin=$(cd "$T/bin" && pwd -P)
i=1
while [ $i -le $n ]; do
	cp /bin/true "$T/bin/t$i" && setcap cap_net_raw=ep "$T/bin/t$i" || { fail "setup"; finish; }
	i=$((i + 1))
done
m=$T/reg/local.manifest

# round LABEL CAPS: every file added at once; each must say LABEL.
round() {
	i=1
	while [ $i -le $n ]; do
		run_ours "$cm" add "$m" "$T/bin/t$i" >"$T/out.$i" 2>"$T/err.$i" &
		i=$((i + 1))
	done
	wait
	said=0 kept=0 i=1
	while [ $i -le $n ]; do
		[ "$(cat "$T/out.$i")" = "$1: .$bin/t$i $2" ] && [ ! -s "$T/err.$i" ] &&
			said=$((said + 1)) && pass || fail "$1 t$i: $(cat "$T/out.$i" "$T/err.$i")"
		grep -q "^\.$bin/t$i .* $2\$" "$m" && kept=$((kept + 1))
		i=$((i + 1))
	done
	echo "$1: $n adds at once: $said reported, $kept in the manifest"
	[ $kept -eq $n ] && pass || fail "$1: $((n - kept)) of the $n files reported were lost"
	[ "$(grep -c '^\./' "$m")" -eq $n ] && pass || fail "$1: $(grep -c '^\./' "$m") entries, want $n"
	run_ours "$cm" verify --listed-only "$m" / >"$T/out" 2>&1 && pass ||
		fail "$1: verify of the manifest: $(cat "$T/out")"
	[ "$(ls -A "$T/reg")" = local.manifest ] && pass || fail "$1: left beside it: $(ls -A "$T/reg")"
}
round added cap_net_raw=ep
# Again with nothing changed: no rewrite, nothing lost.
round unchanged cap_net_raw=ep
# Every file's capability changed: each entry updated, none lost.
i=1
while [ $i -le $n ]; do setcap cap_kill=p "$T/bin/t$i"; i=$((i + 1)); done
round updated cap_kill=p
# A lock file left by an add that was killed holds nobody off: the next
# add takes it, and removes it.
: >"$T/reg/.local.manifest.lock"
setcap cap_net_raw=ep "$T/bin/t1"
expect 0 "updated: .$bin/t1 cap_net_raw=ep
" "" run_ours "$cm" add "$m" "$T/bin/t1"
[ "$(ls -A "$T/reg")" = local.manifest ] && pass || fail "after a stale lock: $(ls -A "$T/reg")"
finish "concurrent adds lose no entry"
