#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# capsh --json (schema 1): every line parses as JSON, carries the schema
# field, and agrees with the text the same process state prints.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
command -v python3 >/dev/null 2>&1 || skip "python3 is needed to parse JSON"

# capsh: --json applies to later --print and --decode only, and agrees
# with the text forms printed by the same process state.
run_ours "$BUILD/progs/capsh" --decode=0x4000000001 --json --decode=0x4000000001 \
	--decode=ffffffffffffffff --print >"$T/c.out" && pass || fail "capsh --json exit $?"
run_ours "$BUILD/progs/capsh" --print >"$T/c.txt"
python3 - "$T/c.out" "$T/c.txt" <<'PY' && pass || fail "capsh JSON"
import json, sys
lines = open(sys.argv[1]).read().splitlines()
assert lines[0] == "0x0000004000000001=cap_chown,cap_perfmon", lines[0]
d = json.loads(lines[1])
assert d == {"schema": 1, "input": "0x4000000001",
             "decoded": {"hex": "0x0000004000000001", "names": ["cap_chown", "cap_perfmon"]}}, d
full = json.loads(lines[2])["decoded"]
assert full["hex"] == "0xffffffffffffffff" and full["names"][40] == "cap_checkpoint_restore" and full["names"][63] == "63"
p = json.loads(lines[3])
text = dict(l.split(": ", 1) for l in open(sys.argv[2]).read().splitlines() if l.startswith(("Current", "Guessed")))
assert p["schema"] == 1 and p["text"] == text["Current"], (p["text"], text)
assert p["iab"] == text["Current IAB"]
assert text["Guessed mode"].startswith(p["mode"] + " ")
status = dict(l.split(":", 1) for l in open("/proc/self/status").read().splitlines())
assert p["uid"] == 0 or p["uid"] == int(status["Uid"].split()[0])
bnd = open(sys.argv[2]).read().split("Bounding set =")[1].split("\n")[0]
assert p["bounding"]["names"] == (bnd.split(",") if bnd else []), (p["bounding"], bnd)
PY

finish
