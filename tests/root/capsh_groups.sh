#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# capsh with more supplementary groups than any fixed array we once had:
# --json's "groups" lists all of them (a groups[256] printed [] past 256)
# and --print's groups= line too. The groups are set with capsh --groups
# (setgroups(2)) as numbers no host has names for, so nothing depends on
# the host's group database.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
C=$BUILD/progs/capsh
[ "$(id -u)" -eq 0 ] || skip "needs root"
[ -x "$C" ] || { fail "capsh not built"; finish; }
[ -x /bin/sh ] || skip "no /bin/sh"

# gid_list FIRST COUNT: "FIRST,FIRST+1,...", COUNT numbers.
gid_list() {
	awk -v a="$1" -v n="$2" 'BEGIN { for (i = 0; i < n; i++) printf "%s%d", i ? "," : "", a + i }'
}

for n in 1 256 257 300; do
	want=$(gid_list 70000 "$n")
	out=$(run_ours "$C" --groups="$want" -- -c "exec $C --json --print" 2>&1) && pass ||
		fail "$n groups: capsh --json --print failed: $out"
	got=$(printf '%s\n' "$out" | sed -n 's/.*"groups":\[\([0-9,]*\)\].*/\1/p')
	[ "$got" = "$want" ] && pass || fail "$n groups: --json printed groups [$got]"
	got=$(run_ours "$C" --groups="$want" -- -c "exec $C --print" 2>&1 |
	      sed -n 's/^groups=//p' | sed 's/([^)]*)//g')
	[ "$got" = "$want" ] && pass || fail "$n groups: --print printed groups=$got"
done
finish "capsh --groups: 1, 256, 257 and 300 groups in --json and --print"
