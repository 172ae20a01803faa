#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# getpcaps --all / --tree without privileges of its own (so the sanitizer
# and valgrind passes run the scanner too): every output form runs over
# the machine's processes, ends with its summary, and exits 0, or 1 only
# with a line on stderr saying what could not be examined; this shell is
# listed with the sets "getpcaps $$" prints; --json and --tree --json parse
# and agree; mistakes exit 2 with one line; --help lists the new options
# last. tests/root/getpcaps_all.sh checks the rows themselves.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
G=$BUILD/progs/getpcaps
[ -x "$G" ] || { fail "$G not built"; finish; }
init

# ok_run NAME ARGS...: exit 0 and nothing on stderr, or exit 1 with only
# the "not examined" lines.
ok_run() {
	name=$1; shift
	run_ours "$G" "$@" >"$T/$name" 2>"$T/$name.err"; rc=$?
	case $rc in
	0) [ -s "$T/$name.err" ] && fail "getpcaps $*: stderr with exit 0: $(head -n 2 "$T/$name.err")" || pass ;;
	1) grep -Ev '^getpcaps: (([0-9]+ processes)|(the executables of [0-9]+ capable processes)) not examined: ' "$T/$name.err" |
		grep -q . && fail "getpcaps $*: unexpected stderr: $(cat "$T/$name.err")" || pass
	   [ -s "$T/$name.err" ] && pass || fail "getpcaps $*: exit 1 without saying why" ;;
	*) fail "getpcaps $*: exit $rc: $(head -n 3 "$T/$name.err")" ;;
	esac
}

# A process of ours with a known state: shown when its bounding set is
# reduced or it holds anything (always as root).
sleep 30 & me=$!
sleep 0.2
want=$(run_ours "$G" "$me" | sed "s/^$me: //")

ok_run table --all
ok_run tree --tree
ok_run verbose --all --verbose --iab
ok_run json --all --json
ok_run tjson --json --tree
for f in table verbose; do
	tail -n 1 "$T/$f" | grep -Eq '^summary: [0-9]+ processes examined, [0-9]+ shown; left out: [0-9]+ kernel threads, [0-9]+ zombies, [0-9]+ exited during the scan; [0-9]+ not examined$' && pass ||
		fail "$f: no summary line: $(tail -n 1 "$T/$f")"
done
shown=$(awk -v p="$me" '$1 == p' "$T/table")
if [ -n "$shown" ]; then
	case $shown in
	*"\"$want\""*) pass ;;
	*) fail "row for $me [$shown] lacks getpcaps' text \"$want\"" ;;
	esac
fi
if [ "$(id -u)" -eq 0 ]; then
	[ -n "$shown" ] && pass || fail "root's sleep $me is not listed"
	grep -q "^ *$me .*" "$T/verbose" && grep -q '^        command: sleep 30$' "$T/verbose" && pass ||
		fail "--verbose: no command line for $me"
fi
kill $me 2>/dev/null

if command -v python3 >/dev/null 2>&1; then
	python3 - "$T/json" "$T/tjson" <<'PY' && pass || fail "--json / --tree --json"
import json, sys
flat = [json.loads(l) for l in open(sys.argv[1])]
tree = [json.loads(l) for l in open(sys.argv[2])]
for objs in (flat, tree):
    assert objs[-1]["type"] == "summary" and objs[-1]["schema"] == 1, objs[-1]
    procs = [o for o in objs if o["type"] == "process"]
    assert all(o["schema"] == 1 for o in procs)
    assert objs[-1]["shown"] == sum(1 for o in procs if not o.get("context")), objs[-1]
    for o in procs:
        for k in ("effective", "permitted", "inheritable", "ambient", "bounding"):
            assert len(o[k]["names"]) == bin(int(o[k]["hex"], 16)).count("1"), o
        assert o["risk"] in (None, "low", "escalation-adjacent", "kernel-read", "root-equivalent")
stack = []
for o in tree[:-1]:
    del stack[o["depth"]:]
    assert len(stack) == o["depth"], o
    if stack:
        assert stack[-1] == o["ppid"], (o["pid"], o["ppid"], stack)
    stack.append(o["pid"])
PY
else
	not_checked "python3 not installed; JSON not parsed"
fi

# Mistakes: one line, exit 2, nothing on stdout.
mistake() {	# expected-line args...
	line=$1; shift
	run_ours "$G" "$@" >"$T/m.out" 2>"$T/m.err"; rc=$?
	[ $rc -eq 2 ] && [ ! -s "$T/m.out" ] && [ "$(cat "$T/m.err")" = "$line" ] && pass ||
		fail "getpcaps $*: exit $rc, stderr [$(cat "$T/m.err")], stdout $(wc -c <"$T/m.out") bytes"
}
mistake "getpcaps: --all shows every process: '1' cannot be combined with it" --all 1
mistake "getpcaps: --all shows every process: '1' cannot be combined with it" 1 --tree
mistake "getpcaps: --all shows every process: '--legacy' cannot be combined with it" --legacy --all
mistake "getpcaps: --all shows every process: '--license' cannot be combined with it" --all --license
mistake "getpcaps: unknown option '--jsn'; did you mean --json?" --all --jsn
mistake "getpcaps: --all shows every process: 'x\\033[2J' cannot be combined with it" --all "$(printf 'x\033[2J')"
run_ours "$G" --tree --help >/dev/null 2>"$T/help"; rc=$?
[ $rc -eq 0 ] && tail -n 2 "$T/help" | grep -c '(not in libcap)$' | grep -qx 2 &&
	grep -q -- '--all ' "$T/help" && grep -q -- '--tree ' "$T/help" && pass ||
	fail "--tree --help: exit $rc"
out=$(run_ours "$G" --all --version); rc=$?
[ $rc -eq 0 ] && case $out in "getpcaps (libcap-perfmon) "*) true ;; *) false ;; esac && pass ||
	fail "--all --version: $rc [$out]"
# Without --all or --tree, a word like it is still libcap's unparsable pid.
expect_lines --case="--al" 1 "" "Cannot parse pid --al: (Invalid argument)
getpcaps: unknown option '--al'; did you mean --all?" \
	run_ours "$G" --al

finish "getpcaps --all/--tree: outputs, summaries, JSON and mistakes as documented"
