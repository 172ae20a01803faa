#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# A file whose P or I holds all 64 bits runs
# fully privileged; getcap used to print nothing for it (an error on
# stderr, exit 0) and --audit and --json left it out. Now the default
# output is libcap's byte for byte, and the audit views show the file.
# Also: --audit escapes the control characters of file names, so a name
# cannot forge or hide a line, while the default output stays libcap's.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
# Users and groups by name (nobody, nogroup) from the base accounts only.
private_etc "$@"
command -v setfattr >/dev/null 2>&1 || skip "setfattr (attr) is not installed"
command -v python3 >/dev/null 2>&1 || skip "python3 is needed to parse JSON"
getcap=$BUILD/progs/getcap
need_reference 2.66
ref=$REF/getcap
chmod 755 "$T"

# Same stdout, stderr and exit status as libcap's getcap for these args.
same_as_libcap() {
	# On the names libcap 2.66 has (tools/as_libcap266.sh).
	run_ours "$getcap" "$@" 2>"$T/o.err" >"$T/o.raw"; orc=$?
	sh "$TESTS_DIR/tools/as_libcap266.sh" <"$T/o.raw" >"$T/o.out"
	"$ref" "$@" >"$T/r.out" 2>"$T/r.err"; rrc=$?
	cmp -s "$T/o.out" "$T/r.out" && pass || { fail "stdout differs from libcap for $*:"; diff "$T/r.out" "$T/o.out"; }
	cmp -s "$T/o.err" "$T/r.err" && pass || { fail "stderr differs from libcap for $*:"; diff "$T/r.err" "$T/o.err"; }
	[ $orc -eq $rrc ] && pass || fail "exit $orc, libcap $rrc, for $*"
}

# P all 64 bits (what getcap once hid), then E+P+I all bits, then I alone.
t=$T/t; mkdir "$t"
cp /bin/cat "$t/allp"; cp /bin/cat "$t/alleip"; cp /bin/cat "$t/alli"
setfattr -n security.capability -v 0x00000002ffffffff00000000ffffffff00000000 "$t/allp"
setfattr -n security.capability -v 0x01000002ffffffffffffffffffffffffffffffff "$t/alleip"
setfattr -n security.capability -v 0x0000000200000000ffffffff00000000ffffffff "$t/alli"
for f in allp alleip alli; do same_as_libcap "$t/$f"; done
same_as_libcap -r "$t"
[ -s "$T/o.out" ] && pass || fail "getcap -r printed nothing for fully capable files"

# The kernel really runs it with every capability of the bounding set
# (without the effective flag: with it, exec fails unless the bounding
# set is full, since the kernel then insists on every bit of P).
bnd=$(awk '/^CapBnd:/ {print $2}' /proc/self/status)
prm=$(as_nobody "$t/allp" /proc/self/status | awk '/^CapPrm:/ {print $2}')
[ "$prm" = "$bnd" ] && pass || fail "exec as nobody: CapPrm $prm, want the bounding set $bnd"

# --audit: each file, its root-equivalent tier, exit 0.
run_ours "$getcap" --audit "$t/allp" "$t/alleip" "$t/alli" >"$T/audit" 2>"$T/err"; rc=$?
[ $rc -eq 0 ] && pass || fail "--audit exit $rc"
[ -s "$T/err" ] && fail "--audit stderr: $(cat "$T/err")" || pass
for f in allp alleip alli; do
	grep -q "^$t/$f =" "$T/audit" && pass || fail "--audit leaves out $f"
done
[ "$(grep -c '^  risk: root-equivalent: ' "$T/audit")" -eq 3 ] && pass || fail "--audit tiers: $(cat "$T/audit")"

# --json: one object per file with the masks the xattrs hold.
run_ours "$getcap" --json "$t/allp" "$t/alleip" "$t/alli" >"$T/json" && pass || fail "--json exit $?"
python3 - "$T/json" <<'PY' && pass || fail "--json objects wrong: $(cat "$T/json")"
import json, sys
objs = {o["path"].rsplit("/", 1)[1]: o for o in map(json.loads, open(sys.argv[1]))}
full = "0xffffffffffffffff"
assert sorted(objs) == ["alleip", "alli", "allp"], objs.keys()
assert objs["allp"]["permitted"]["hex"] == full and objs["allp"]["inheritable"]["hex"] == "0x0000000000000000"
assert objs["alleip"]["effective"]["hex"] == full and objs["alleip"]["inheritable"]["hex"] == full
assert objs["alli"]["inheritable"]["hex"] == full and objs["alli"]["permitted"]["hex"] == "0x0000000000000000"
assert all(o["risk"]["tier"] == "root-equivalent" for o in objs.values())
assert all(len(o["permitted"]["names"]) in (0, 64) for o in objs.values())
PY

# Anyone may name a file: names that try to forge a line, clear the
# screen, hide a tail.
h=$T/h; mkdir "$h"
# A name cannot hold '/', but directories can: "x<NL>" then usr/bin/fake
# prints as a line claiming /usr/bin/fake has the capability.
forge=$(printf 'x\n/usr/bin/fake')
mkdir -p "$h/$forge"; rmdir "$h/$forge"
esc=$(printf 'clear\033[2J\033]0;title\007')
cr=$(printf 'alice\r')
bidi=$(printf 'evil\342\200\256txt')
for f in "$forge" "$esc" "$cr" "$bidi" plain; do
	echo x >"$h/$f"; "$REF/setcap" cap_net_raw=ep "$h/$f"
done
# Default output: libcap's bytes, whatever they hold, in libcap's order.
run_ours "$getcap" -r "$h" >"$T/ours"
"$ref" -r "$h" >"$T/theirs"
cmp -s "$T/ours" "$T/theirs" && pass || fail "default -r output is not libcap's"
run_ours "$getcap" -r --audit "$h" >"$T/audit" 2>"$T/err" && pass || fail "--audit -r exit $?"
python3 - "$T/audit" "$h" <<'PY' && pass || fail "--audit output not escaped: $(od -c "$T/audit" | head -20)"
import sys
data = open(sys.argv[1], "rb").read()
top = sys.argv[2].encode()
lines = data.split(b"\n")
assert lines[-1] == b"", "no final newline"
lines = lines[:-1]
# 5 files, each a line plus its risk line; nothing else.
assert len(lines) == 10, lines
for l in lines:
    assert all(b >= 0x20 and b != 0x7f for b in l), l
    assert b"\xe2\x80\xae" not in l, l
heads = sorted(l for l in lines if not l.startswith(b"  "))
want = sorted(top + b"/" + n + b" cap_net_raw=ep" for n in
              (b"x\\012/usr/bin/fake", b"clear\\033[2J\\033]0;title\\007",
               b"alice\\015", b"evil\\342\\200\\256txt", b"plain"))
assert heads == want, (heads, want)
PY
# No line of the audit may start with the forged path.
grep -q '^/usr/bin/fake' "$T/audit" && fail "a file name forged an audit line" || pass
"$ref" -r "$h" | grep -q '^/usr/bin/fake' && pass || fail "the forging name does not forge libcap's line (test broken)"

finish
