#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# --json output (schema 1): every line parses as JSON, carries the schema
# field, and its masks agree with the text the same program prints and with
# /proc; paths that are not UTF-8 keep their exact bytes in *_hex.
set -u
. "$TESTS_DIR/lib.sh"
command -v python3 >/dev/null 2>&1 || { echo "skipped: python3 is needed to parse JSON"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# getpcaps: masks equal /proc/<pid>/status, text equals the plain output.
sleep 30 & sleeper=$!
run_ours "$BUILD/progs/getpcaps" --json $sleeper 1 >"$tmp/g.json" || fail "getpcaps --json exit $?"
run_ours "$BUILD/progs/getpcaps" $sleeper 1 >"$tmp/g.txt"
python3 - "$tmp/g.json" "$tmp/g.txt" $sleeper 1 <<'PY' || fail "getpcaps JSON does not match /proc"
import json, sys
objs = [json.loads(l) for l in open(sys.argv[1])]
texts = [l.rstrip("\n").split(": ", 1)[1] for l in open(sys.argv[2])]
assert len(objs) == 2, objs
for obj, text, pid in zip(objs, texts, sys.argv[3:]):
    assert obj["schema"] == 1 and obj["arg"] == pid and obj["pid"] == int(pid)
    assert obj["text"] == text, (obj["text"], text)
    status = {}
    for line in open("/proc/%s/status" % pid):
        k, _, v = line.partition(":")
        status[k] = v.strip()
    for key, field in (("CapEff", "effective"), ("CapPrm", "permitted"),
                       ("CapInh", "inheritable"), ("CapAmb", "ambient"),
                       ("CapBnd", "bounding")):
        assert int(obj[field]["hex"], 16) == int(status[key], 16), (pid, field)
        mask = int(obj[field]["hex"], 16)
        assert len(obj[field]["names"]) == bin(mask).count("1")
    assert ("cap_perfmon" in obj["permitted"]["names"]) == bool(int(status["CapPrm"], 16) >> 38 & 1)
PY
kill $sleeper 2>/dev/null
# Errors keep libcap's stderr line and exit status in JSON mode too.
run_ours "$BUILD/progs/getpcaps" --json nosuchpid >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 1 ] || fail "bad pid exit $rc"
grep -qx 'Cannot parse pid nosuchpid: (Invalid argument)' "$tmp/err" || fail "bad pid message: $(cat "$tmp/err")"
[ -s "$tmp/out" ] && fail "bad pid printed JSON: $(cat "$tmp/out")"

# capsh: --json applies to later --print and --decode only, and agrees
# with the text forms printed by the same process state.
run_ours "$BUILD/progs/capsh" --decode=0x4000000001 --json --decode=0x4000000001 \
	--decode=ffffffffffffffff --print >"$tmp/c.out" || fail "capsh --json exit $?"
run_ours "$BUILD/progs/capsh" --print >"$tmp/c.txt"
python3 - "$tmp/c.out" "$tmp/c.txt" <<'PY' || fail "capsh JSON"
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

[ $fails -eq 0 ]
