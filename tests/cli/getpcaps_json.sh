#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# getpcaps --json (schema 1): every line parses as JSON, carries the schema
# field, and its masks agree with the text getpcaps prints and with /proc;
# errors keep libcap's message and exit status. (getcap's JSON:
# root/getcap_json_audit.sh; capsh's: capsh_json.sh.)
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
command -v python3 >/dev/null 2>&1 || skip "python3 is needed to parse JSON"

# getpcaps: masks equal /proc/<pid>/status, text equals the plain output.
sleep 30 & sleeper=$!
at_exit 'kill $sleeper 2>/dev/null'
run_ours "$BUILD/progs/getpcaps" --json $sleeper 1 >"$T/g.json" && pass || fail "getpcaps --json exit $?"
run_ours "$BUILD/progs/getpcaps" $sleeper 1 >"$T/g.txt"
python3 - "$T/g.json" "$T/g.txt" $sleeper 1 <<'PY' && pass || fail "getpcaps JSON does not match /proc"
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
run_ours "$BUILD/progs/getpcaps" --json nosuchpid >"$T/out" 2>"$T/err"; rc=$?
[ $rc -eq 1 ] && pass || fail "bad pid exit $rc"
grep -qx 'Cannot parse pid nosuchpid: (Invalid argument)' "$T/err" && pass || fail "bad pid message: $(cat "$T/err")"
[ -s "$T/out" ] && fail "bad pid printed JSON: $(cat "$T/out")" || pass

finish
