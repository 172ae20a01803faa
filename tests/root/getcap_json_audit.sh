#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# getcap --json and --audit on a generated tree. Each JSON line is checked
# against the raw security.capability bytes (read with getfattr, decoded
# here independently): masks, revision, rootid, effective flag; its text
# equals the plain getcap line; non-UTF-8 paths keep their bytes in
# path_hex. --audit adds the risk and suggestion lines under each file.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
command -v python3 >/dev/null 2>&1 || skip "python3 is needed to parse JSON"
command -v getfattr >/dev/null 2>&1 || skip "getfattr (attr) is not installed"
getcap=$BUILD/progs/getcap setcap=/usr/sbin/setcap
t=$T/t
mkdir -p "$t/bin" "$t/sub/deeper"
odd=$(printf 'we\377ird')
for f in bin/perf bin/ping bin/plain sub/deeper/tool "sub/$odd" sub/high; do echo x >"$t/$f"; done
$setcap cap_sys_admin=ep "$t/bin/perf"
$setcap cap_net_raw=ep "$t/bin/ping"
$setcap cap_perfmon,cap_bpf+ei "$t/sub/deeper/tool"
$setcap -n 1000 cap_kill=p "$t/sub/$odd"
$setcap "cap_chown=p 41,63+i" "$t/sub/high"

"$getcap" -r --json "$t" >"$T/json" && pass || fail "--json exit $?"
"$getcap" -r "$t" >"$T/plain"
python3 - "$T/json" "$T/plain" <<'PY' && pass || fail "JSON does not match the xattrs"
import json, subprocess, sys
plain = {}
for raw in open(sys.argv[2], "rb").read().split(b"\n"):
    if raw:
        path, _, text = raw.partition(b" ")
        plain[path] = text.decode()
objs = [json.loads(l) for l in open(sys.argv[1], encoding="utf-8")]
assert len(objs) == len(plain) == 5, (len(objs), len(plain))
for o in objs:
    assert o["schema"] == 1
    path = bytes.fromhex(o["path_hex"]) if "path_hex" in o else o["path"].encode()
    assert ("path_hex" in o) == (b"\xff" in path), o["path"]
    assert o["text"] == plain[path], (o["text"], plain[path])
    out = subprocess.run(["getfattr", "--absolute-names", "-e", "hex", "-n",
                          "security.capability", path], capture_output=True).stdout
    hexval = [l for l in out.split(b"\n") if l.startswith(b"security.capability=")][0]
    b = bytes.fromhex(hexval.split(b"=0x")[1].decode())
    w = [int.from_bytes(b[i:i + 4], "little") for i in range(0, len(b), 4)]
    rev, eff = w[0] >> 24, w[0] & 1
    p, i = w[1] | w[3] << 32, w[2] | w[4] << 32
    assert o["revision"] == rev and o["effective_flag"] == bool(eff), o
    assert o["rootid"] == (w[5] if rev == 3 else 0), o
    assert int(o["permitted"]["hex"], 16) == p and int(o["inheritable"]["hex"], 16) == i, o
    assert int(o["effective"]["hex"], 16) == ((p | i) if eff else 0), o
    assert len(o["permitted"]["names"]) == bin(p).count("1")
risk = {o["path"].rsplit("/", 1)[1]: o["risk"]["tier"] for o in objs}
assert risk["perf"] == "root-equivalent" and risk["ping"] == "escalation-adjacent", risk
assert risk["tool"] == "kernel-read", risk
sugg = {o["path"].rsplit("/", 1)[1]: o["suggestion"] for o in objs}
assert sugg["perf"].startswith("perf needs cap_perfmon") and sugg["ping"] is None, sugg
PY

# -v adds objects for uncapped files and for directories.
"$getcap" -v --json "$t/bin/plain" "$t/bin" >"$T/v" && pass || fail "-v --json exit $?"
cat >"$T/want" <<EOF2
{"schema":1,"path":"$t/bin/plain","text":null}
{"schema":1,"path":"$t/bin","text":null,"regular":false}
EOF2
cmp -s "$T/v" "$T/want" && pass || { fail "-v --json:"; diff "$T/want" "$T/v"; }

# --audit: libcap's line, then risk and suggestion lines, kept together.
"$getcap" --audit "$t/bin/perf" "$t/bin/ping" "$t/bin/plain" >"$T/audit" && pass || fail "--audit exit $?"
cat >"$T/want" <<EOF2
$t/bin/perf cap_sys_admin=ep
  risk: root-equivalent: cap_sys_admin: the catch-all "new root": mounts, namespaces, BPF, perf and much more
  suggest: perf needs cap_perfmon (Linux 5.8+), not cap_sys_admin: setcap --perf-group=perf_users --perf $t/bin/perf
$t/bin/ping cap_net_raw=ep
  risk: escalation-adjacent: cap_net_raw: raw and packet sockets: can spoof and sniff traffic on the host
EOF2
cmp -s "$T/audit" "$T/want" && pass || { fail "--audit:"; diff "$T/want" "$T/audit"; }
# In a parallel -r, each file's block stays whole.
"$getcap" -r --audit "$t" >"$T/audit"
grep -A1 "^$t/sub/deeper/tool " "$T/audit" | tail -n 1 | grep -q '^  risk: kernel-read: cap_perfmon: ' && pass ||
	fail "-r --audit block: $(cat "$T/audit")"
"$getcap" --json=1 "$t" 2>"$T/err"; [ $? -eq 1 ] && pass || fail "--json=1 accepted"
grep -q "option '--json' doesn't allow an argument" "$T/err" && pass || fail "--json=1 message: $(cat "$T/err")"
finish
