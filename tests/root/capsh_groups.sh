#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# capsh with more supplementary groups than any fixed array we once had:
# --json's "groups" lists all of them (a groups[256] printed [] past 256)
# and --print's groups= line too. The groups are set with capsh --groups
# (setgroups(2)) as numbers no host has names for, so nothing depends on
# the host's group database.
set -u
. "$TESTS_DIR/lib.sh"
C=$BUILD/progs/capsh
[ "$(id -u)" -eq 0 ] || { echo "skipped: needs root"; exit 77; }
[ -x "$C" ] || { echo "capsh not built"; exit 1; }
[ -x /bin/sh ] || { echo "skipped: no /bin/sh"; exit 77; }
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# gid_list FIRST COUNT: "FIRST,FIRST+1,...", COUNT numbers.
gid_list() {
	awk -v a="$1" -v n="$2" 'BEGIN { for (i = 0; i < n; i++) printf "%s%d", i ? "," : "", a + i }'
}

for n in 1 256 257 300; do
	want=$(gid_list 70000 "$n")
	out=$(run_ours "$C" --groups="$want" -- -c "exec $C --json --print" 2>&1) ||
		bad "$n groups: capsh --json --print failed: $out"
	got=$(printf '%s\n' "$out" | sed -n 's/.*"groups":\[\([0-9,]*\)\].*/\1/p')
	[ "$got" = "$want" ] || bad "$n groups: --json printed groups [$got]"
	got=$(run_ours "$C" --groups="$want" -- -c "exec $C --print" 2>&1 |
	      sed -n 's/^groups=//p' | sed 's/([^)]*)//g')
	[ "$got" = "$want" ] || bad "$n groups: --print printed groups=$got"
done
exit $fail
