#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# The README's first command, "make demo", as a user types it: it builds
# what it needs (the perf probe included) and shows the main job end to
# end: nobody's CPU-wide perf event refused, our setcap granting exactly
# cap_perfmon, getcap's audit line, the same event allowed. Its temporary
# directory is gone afterwards. (The layout change had left "make demo"
# asking for a target that no longer existed, and nothing noticed.)
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
[ "$(id -u)" -eq 0 ] || skip "make demo needs root"
skip_if_sanitized "make demo builds and runs the plain tree"
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null) ||
	skip "no perf events in this kernel"
[ "$paranoid" -ge 1 ] || skip "perf_event_paranoid is $paranoid: nothing to refuse"

run make -s -C "$TOP" demo BUILD="$BUILD"
expect_rc 0 "make demo" || { cat "$T/out" "$T/err"; finish; }
out=$T/out
# Step by step, in order: refused, granted, audited, allowed.
awk '
	/^== 1\./ { s = 1 } /^== 2\./ { s = 2 } /^== 3\./ { s = 3 } /^== 4\./ { s = 4 }
	s == 1 && /^perf_event_open: Permission denied/ { refused = 1 }
	s == 3 && / cap_perfmon=ep$/ { audited = 1 }
	s == 4 && /^CapEff:\t0000004000000000$/ { only = 1 }
	s == 4 && /^perf_event_open: ok$/ { allowed = 1 }
	END { exit !(refused && audited && only && allowed) }' "$out" && pass ||
	{ fail "make demo: not refused, granted, audited and allowed in that order"; cat "$out"; }
dir=$(sed -n 's/^demo: done; removed //p' "$out")
[ -n "$dir" ] && [ ! -e "$dir" ] && pass || fail "make demo left its directory: '$dir'"
finish "make demo: refused, granted exactly cap_perfmon, audited, allowed"
