#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# getpcaps --all, --tree and --json on processes started with known
# capability states, in a pid namespace of their own (its /proc shows
# only them; this script is its pid 1, so terminal-less children are
# "daemons"):
#   A  sh on a terminal (script(1)) as nobody with ambient cap_net_raw:
#      flagged ambient-shell; its sleep child (not a shell) is not
#   B  the same without a terminal: no-new-privs-missing, not ambient-shell
#   C  a copy of sleep owned by nobody with cap_net_bind_service=ep, run
#      by nobody: writable-exe (and no-new-privs-missing)
#   D  a root-owned 0755 copy with cap_net_raw=ep, run by nobody: only
#      no-new-privs-missing
#   E  a root:nogroup 0775 copy, run by nobody in nogroup: writable-exe
#   F  ambient cap_net_raw under no_new_privs: shown, nothing flagged
#   G  nobody with nothing but cap_sys_admin dropped from the bounding set
# Each row's sets must equal what "getpcaps --iab --verbose <pid>" (capget
# and /proc) and /proc/<pid>/status say, with the right risk tier and
# flags. Then: in a user namespace (full bounding set) a root process
# with empty sets is shown; --tree's structure against the parents; --json
# parses; as nobody under hidepid=1 the unreadable processes are counted
# and the exit status is 1; under hidepid=invisible (or ptraceable), where
# they are not even listed, it says so and the exit status is 1.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
G=$BUILD/progs/getpcaps C=$BUILD/progs/capsh S=$BUILD/progs/setcap
[ "$(id -u)" -eq 0 ] || skip "needs root"
for p in "$G" "$C" "$S"; do [ -x "$p" ] || { fail "$p not built"; finish; }; done
for t in script setsid setpriv unshare python3; do
	command -v $t >/dev/null || skip "$t is not installed"
done
own_pid_ns "$@"
# Users and groups by name (nobody, nogroup) from the base accounts only.
private_etc "$@"

init
at_exit pid_ns_cleanup
chmod 755 "$T"

# The pid of the process whose command line is exactly the words given.
pid_of() {
	want=$(printf '%s\0' "$@" | od -An -c | tr -d ' \n')
	for d in /proc/[0-9]*; do
		got=$(od -An -c "$d/cmdline" 2>/dev/null | tr -d ' \n')
		[ "$got" = "$want" ] && { echo "${d#/proc/}"; return 0; }
	done
	return 1
}
ppid_of() { sed 's/.*) //' "/proc/$1/stat" | cut -d' ' -f2; }

amb='--caps=cap_net_raw,cap_setuid,cap_setgid+p cap_net_raw+i'
script -qfc "$C '$amb' --keep=1 --user=nobody --addamb=cap_net_raw --shell=/bin/sh -- -c 'sleep 61; :'" /dev/null </dev/null >/dev/null 2>&1 &
setsid "$C" "$amb" --keep=1 --user=nobody --addamb=cap_net_raw --shell=/bin/sh -- -c 'sleep 62; :' </dev/null >/dev/null 2>&1 &
for f in own root grp; do cp /bin/sleep "$T/${f}sleep"; done
chown nobody "$T/ownsleep"; chmod 755 "$T/ownsleep"
chown root:nogroup "$T/grpsleep"; chmod 775 "$T/grpsleep"
chmod 755 "$T/rootsleep"
"$S" cap_net_bind_service=ep "$T/ownsleep" cap_net_bind_service=ep "$T/grpsleep" &&
"$S" cap_net_raw=ep "$T/rootsleep" || { fail "setcap failed"; finish; }
nb='--reuid=nobody --regid=nogroup --clear-groups'
# shellcheck disable=SC2086
setsid setpriv $nb "$T/ownsleep" 63 </dev/null >/dev/null 2>&1 &
# shellcheck disable=SC2086
setsid setpriv $nb "$T/rootsleep" 63 </dev/null >/dev/null 2>&1 &
# shellcheck disable=SC2086
setsid setpriv $nb "$T/grpsleep" 63 </dev/null >/dev/null 2>&1 &
setsid "$C" "$amb" --keep=1 --user=nobody --addamb=cap_net_raw --shell=/bin/sh -- -c 'exec setpriv --no-new-privs sleep 64' </dev/null >/dev/null 2>&1 &
setsid "$C" --drop=cap_sys_admin --shell=/bin/sh -- -c 'exec setpriv --reuid=65534 --regid=65534 --clear-groups sleep 65' </dev/null >/dev/null 2>&1 &

# Wait for every target to be running its final program.
i=0
while :; do
	A1=$(pid_of sleep 61) && A=$(ppid_of "$A1") && B1=$(pid_of sleep 62) &&
	B=$(ppid_of "$B1") && Cp=$(pid_of "$T/ownsleep" 63) &&
	D=$(pid_of "$T/rootsleep" 63) && E=$(pid_of "$T/grpsleep" 63) &&
	F=$(pid_of sleep 64) && Gp=$(pid_of sleep 65) && break
	i=$((i + 1))
	[ $i -lt 50 ] || { fail "targets did not start"; ps -ef; finish; }
	sleep 0.1
done
targets="$A $A1 $B $Cp $D $E $F $Gp"

run_ours "$G" --all --iab >"$T/all" 2>"$T/all.err"; rc=$?
[ $rc -eq 0 ] && pass || fail "--all exit $rc [$(cat "$T/all.err")]"
[ -s "$T/all.err" ] && fail "--all wrote to stderr: $(cat "$T/all.err")" || pass
head -n 1 "$T/all" | grep -q '^    PID    PPID USER         COMMAND          RISK                CAPABILITIES$' && pass ||
	fail "header: $(head -n 1 "$T/all")"

# row PID: the table's line for PID; flags PID: its flags, sorted.
row() { awk -v p="$1" '$1 == p && $0 !~ /^        !/' "$T/all"; }
flags() {
	awk -v p="$1" '/^        ! / { if (cur == p) print $2; next } { cur = $1 }' "$T/all" |
		tr -d ':' | sort | tr '\n' ' ' | sed 's/ $//'
}
# check PID USER COMM RISK FLAGS [TEXT]
check() {
	pid=$1 user=$2 comm=$3 risk=$4 want_flags=$5 text=${6:-}
	r=$(row "$pid")
	[ -n "$r" ] && pass || { fail "pid $pid ($comm) not shown"; return; }
	set -- $r
	[ "$2" = "$(ppid_of "$pid")" ] && pass || fail "$comm: ppid $2, want $(ppid_of "$pid")"
	[ "$3" = "$user" ] && pass || fail "$comm: user $3, want $user"
	[ "$4" = "$comm" ] && pass || fail "$comm: command $4"
	[ "$5" = "$risk" ] && pass || fail "$comm: risk $5, want $risk"
	caps=$(echo "$r" | cut -c67-)
	ref=$(run_ours "$G" --iab --verbose "$pid" | sed "s/^$pid: //")
	[ "$caps" = "$ref" ] && pass || fail "$comm: sets [$caps], getpcaps --iab --verbose [$ref]"
	if [ -n "$text" ]; then
		case $caps in "\"$text\""*) pass ;; *) fail "$comm: text [$caps], want \"$text\"" ;; esac
	fi
	[ "$(flags "$pid")" = "$want_flags" ] && pass || fail "$comm: flags [$(flags "$pid")], want [$want_flags]"
}
check "$A" nobody sh escalation-adjacent ambient-shell cap_net_raw=eip
check "$A1" nobody sleep escalation-adjacent "" cap_net_raw=eip
check "$B" nobody sh escalation-adjacent no-new-privs-missing cap_net_raw=eip
check "$Cp" nobody ownsleep low "no-new-privs-missing writable-exe" cap_net_bind_service=ep
check "$D" nobody rootsleep escalation-adjacent no-new-privs-missing cap_net_raw=ep
check "$E" nobody grpsleep low "no-new-privs-missing writable-exe" cap_net_bind_service=ep
check "$F" nobody sleep escalation-adjacent "" cap_net_raw=eip
check "$Gp" nobody sleep - "" =
case $(row "$Gp" | cut -c67-) in *'!'*cap_sys_admin*) ;; *) fail "G: no !cap_sys_admin: $(row "$Gp")" ;; esac
check 1 root sh root-equivalent ""
tail -n 1 "$T/all" | grep -Eq '^summary: [0-9]+ processes examined, [0-9]+ shown; left out: 0 kernel threads, 0 zombies, [0-9]+ exited during the scan; 0 not examined$' && pass ||
	fail "summary: $(tail -n 1 "$T/all")"
# Every process of the namespace is root or a target: all are shown.
shown=$(grep -c '^ *[0-9]' "$T/all")
total=$(ls /proc | grep -cE '^[0-9]+$')
[ "$shown" -ge 10 ] && pass || fail "only $shown rows"

# Without --iab, the IAB part only where ambient or bounding say something.
run_ours "$G" --all >"$T/plain" 2>&1 && pass || fail "--all without --iab failed"
awk -v p="$F" '$1 == p' "$T/plain" | grep -q '\[\^cap_net_raw' && pass || fail "plain: F lacks its IAB part"

# --json: every line parses; each target's masks equal /proc/<pid>/status.
run_ours "$G" --all --json >"$T/json" 2>&1 && pass || fail "--json failed: $(tail -n 2 "$T/json")"
python3 - "$T/json" "$A $B $Cp $D $E $F $Gp" <<'PY' && pass || fail "--json content"
import json, sys
objs = [json.loads(l) for l in open(sys.argv[1])]
assert objs[-1]["type"] == "summary", objs[-1]
assert objs[-1]["not_examined"] == 0 and objs[-1]["exe_unchecked"] == 0, objs[-1]
procs = {o["pid"]: o for o in objs if o["type"] == "process"}
assert objs[-1]["shown"] == len(procs)
keys = {"CapEff": "effective", "CapPrm": "permitted", "CapInh": "inheritable",
        "CapAmb": "ambient", "CapBnd": "bounding"}
for pid in map(int, sys.argv[2].split()):
    o = procs[pid]
    st = dict(l.split(":", 1) for l in open("/proc/%d/status" % pid) if ":" in l)
    for k, j in keys.items():
        assert int(st[k], 16) == int(o[j]["hex"], 16), (pid, k, st[k], o[j])
    assert o["uid"] == int(st["Uid"].split()[1]) == 65534, o
    assert o["user"] == "nobody" and o["no_new_privs"] == (st["NoNewPrivs"].strip() == "1")
    assert o["ppid"] == int(st["PPid"]), o
    assert o["text"] and "iab" in o and isinstance(o["flags"], list)
print("json ok")
PY
python3 - "$T/json" "$A" "$Cp" "$F" <<'PY' && pass || fail "--json flags"
import json, sys
procs = {o["pid"]: o for o in map(json.loads, open(sys.argv[1])) if o["type"] == "process"}
a, c, f = (procs[int(x)] for x in sys.argv[2:])
assert a["flags"] == ["ambient-shell"] and a["tty"] and a["risk"] == "escalation-adjacent" and a["risk_cap"] == "cap_net_raw", a
assert sorted(c["flags"]) == ["no-new-privs-missing", "writable-exe"] and c["exe_writable"] is True, c
assert f["flags"] == [] and f["no_new_privs"] and f["exe_writable"] is False, f
PY

# --tree: pre-order, each child right under its parent's subtree; the text
# tree's indentation is three columns per level.
run_ours "$G" --tree --json >"$T/tjson" 2>&1 && pass || fail "--tree --json failed"
run_ours "$G" --tree >"$T/tree" 2>&1 && pass || fail "--tree failed"
python3 - "$T/tjson" "$T/tree" "$targets" <<'PY' && pass || fail "--tree structure"
import json, re, sys
objs = [o for o in map(json.loads, open(sys.argv[1])) if o["type"] == "process"]
targets = set(map(int, sys.argv[3].split()))
stack = []
for o in objs:
    d = o["depth"]
    assert d <= len(stack), o
    del stack[d:]
    if d > 0:
        assert stack[-1] == o["ppid"], (o, stack)
    stack.append(o["pid"])
tree = {o["pid"] for o in objs if not o["context"]}
assert targets <= tree, targets - tree
# The two runs differ only in getpcaps' own process: compare by pid.
depth = {o["pid"]: o["depth"] for o in objs}
seen = set()
for l in open(sys.argv[2]):
    m = re.match(r"^([-|` ]*)([0-9]+) ", l)
    if not m or int(m.group(2)) not in depth:
        continue
    pid = int(m.group(2))
    seen.add(pid)
    assert len(m.group(1)) == 3 * depth[pid], (l, depth[pid])
assert targets <= seen, targets - seen
print("tree ok")
PY
grep -q "^|  .*\`- $A1 sleep (nobody)" "$T/tree" && pass || fail "tree: sleep 61 not the last child of A: $(grep -n " $A1 " "$T/tree")"

# Options: pids and the legacy formats do not combine with --all.
expect_lines --case="--all 1" 2 "" "getpcaps: --all shows every process: '1' cannot be combined with it" \
	run_ours "$G" --all 1
out=$(run_ours "$G" --legacy --tree 2>&1); rc=$?
[ $rc -eq 2 ] && pass || fail "--legacy --tree: $rc [$out]"
expect_lines --case="--tre" 2 "" "getpcaps: unknown option '--tre'; did you mean --tree?" \
	run_ours "$G" --all --tre
out=$(run_ours "$G" --all --help 2>&1); rc=$?
[ $rc -eq 0 ] && echo "$out" | grep -q -- '--tree .*(not in libcap)$' && pass || fail "--all --help: $rc"

# A user namespace gives a full bounding set: a process there with nothing
# but uid 0 (root under SECBIT_NOROOT, all sets empty) is still shown,
# root-equivalent and flagged root-regains, since /proc does not show the
# securebits that keep an execve() from giving root its bounding set back
# (getpcaps_hidden.sh: one without them); a nobody with nothing is not.
unshare -Ur --pid --fork --mount-proc sh -c '
	setpriv --securebits +noroot --inh-caps=-all sleep 66 &
	setpriv --securebits +noroot --inh-caps=-all --bounding-set=-net_raw sleep 67 &
	sleep 0.3; "$1" --all' sh "$G" >"$T/userns" 2>&1 && pass || fail "--all in a user namespace: $(cat "$T/userns")"
grep -q ' sleep ' "$T/userns" && pass || fail "user namespace: no sleep row at all: $(cat "$T/userns")"
[ "$(grep -c ' sleep ' "$T/userns")" -eq 2 ] &&
	grep ' sleep ' "$T/userns" | grep -q ' root  *sleep  *root-equivalent  *"="$' &&
	grep ' sleep ' "$T/userns" | grep -q ' root  *sleep  *root-equivalent  *"=" \[!cap_net_raw\]$' &&
	[ "$(grep -c '^        ! root-regains: ' "$T/userns")" -eq 2 ] && pass ||
	fail "user namespace: want both root sleeps, root-regains: $(cat "$T/userns")"

# As nobody under hidepid=1, other users' processes cannot be read: they
# are counted, named on stderr, and the exit status is 1.
cp "$G" "$T/getpcaps" && chmod 755 "$T/getpcaps"
if mount -t proc -o hidepid=1 proc /proc 2>/dev/null; then
	# shellcheck disable=SC2086
	setpriv $nb "$T/getpcaps" --all >"$T/hid" 2>"$T/hid.err"; rc=$?
	umount /proc
	if grep -q 'error while loading shared libraries' "$T/hid.err"; then
		not_checked "nobody cannot load the build tree's library; hidepid check left out"
	else
		[ $rc -eq 1 ] && pass || fail "hidepid as nobody: exit $rc"
		grep -Eq '^getpcaps: [0-9]+ processes not examined: (Permission denied|Operation not permitted) \(a complete audit needs root\)$' "$T/hid.err" && pass ||
			fail "hidepid: stderr [$(cat "$T/hid.err")]"
		grep -Eq '; [1-9][0-9]* not examined$' "$T/hid" && pass || fail "hidepid: summary $(tail -n 1 "$T/hid")"
	fi
else
	not_checked "cannot mount proc with hidepid=1; unreadable-process check left out"
fi
# Under hidepid=invisible (and ptraceable) the processes nobody may not
# trace are not even listed: the old audit showed nobody's own, counted
# nothing and exited 0, as complete. Now it says so and exits 1; root
# (CAP_SYS_PTRACE), and a member of the mount's gid= group, see them all.
# The kernel is asked what the gid= member sees (pid 1 listed or not):
# under invisible the group sees all, under ptraceable it does not
# (fs/proc/base.c, has_pid_permissions()), and getpcaps must agree.
for how in invisible ptraceable; do
	if mount -t proc -o hidepid=$how,gid=4343 proc /proc 2>/dev/null; then
		# shellcheck disable=SC2086
		setpriv $nb "$T/getpcaps" --all >"$T/hid" 2>"$T/hid.err"; rc=$?
		# shellcheck disable=SC2086
		setpriv ${nb%--clear-groups} --groups=4343 "$T/getpcaps" --all >"$T/hidg" 2>"$T/hidg.err"; grc=$?
		# shellcheck disable=SC2086
		setpriv ${nb%--clear-groups} --groups=4343 ls /proc >"$T/hidg.ls"
		"$T/getpcaps" --all >"$T/hidr" 2>"$T/hidr.err"; rrc=$?
		umount /proc
		if grep -q 'error while loading shared libraries' "$T/hid.err"; then
			not_checked "nobody cannot load the build tree's library; hidepid=$how check left out"
			continue
		fi
		said="getpcaps: /proc: mounted with hidepid=$how: the processes this user may not trace are not listed, and not counted (a complete audit needs root)"
		[ $rc -eq 1 ] && pass || fail "hidepid=$how as nobody: exit $rc"
		grep -qxF "$said" "$T/hid.err" && pass ||
			fail "hidepid=$how as nobody: stderr [$(cat "$T/hid.err")]"
		if grep -qx 1 "$T/hidg.ls"; then
			grep -q 'hidepid' "$T/hidg.err" &&
				fail "hidepid=$how, nobody in gid= sees pid 1, yet: [$(cat "$T/hidg.err")]" || pass
		else
			[ $grc -eq 1 ] && grep -qxF "$said" "$T/hidg.err" && pass ||
				fail "hidepid=$how, nobody in gid= does not see pid 1, yet: exit $grc [$(cat "$T/hidg.err")]"
		fi
		[ "$how" = invisible ] && ! grep -qx 1 "$T/hidg.ls" &&
			fail "hidepid=invisible: the gid= member does not see pid 1"
		[ "$how" = ptraceable ] && grep -qx 1 "$T/hidg.ls" &&
			fail "hidepid=ptraceable: the gid= member sees pid 1"
		[ $rrc -eq 0 ] && [ ! -s "$T/hidr.err" ] && pass || fail "hidepid=$how as root: exit $rrc [$(cat "$T/hidr.err")]"
		pass
	else
		not_checked "cannot mount proc with hidepid=$how; check left out"
	fi
done

# A capable daemon's parent may be a service manager instead of pid 1:
# the copy of rootsleep (nobody, cap_net_raw=ep, no terminal) under a
# shell named "supervise" is flagged no-new-privs-missing, the same under
# a shell named "keeper" is not. The parent is known for what it is by
# its start time, which only its stat holds: the table reads stat only
# where a flag needs it, and a manager must be one of those.
# Names with the two characters status escapes (a newline, a backslash)
# are shown as stat has them, escaped our way, in the table and --json.
cp /bin/sh "$T/supervise" && cp /bin/sh "$T/keeper" && chmod 755 "$T/supervise" "$T/keeper" &&
nlname=$(printf 'n\nl\\b') && cp /bin/sleep "$T/$nlname" && pass || fail "cannot make the parents and names"
for parent in supervise keeper; do
	# shellcheck disable=SC2086
	setsid "$T/$parent" -c "setpriv $nb $T/rootsleep 69; :" </dev/null >/dev/null 2>&1 &
done
"$T/$nlname" 68 </dev/null >/dev/null 2>&1 &
want=$(printf '%s\0' "$T/rootsleep" 69 | od -An -c | tr -d ' \n')
for i in $(seq 50); do
	sv= kp= nl=$(pid_of "$T/$nlname" 68)
	for d in /proc/[0-9]*; do
		[ "$(od -An -c "$d/cmdline" 2>/dev/null | tr -d ' \n')" = "$want" ] || continue
		case $(cat "/proc/$(ppid_of "${d#/proc/}")/comm") in
		supervise) sv=${d#/proc/} ;; keeper) kp=${d#/proc/} ;;
		esac
	done
	[ -n "$sv" ] && [ -n "$kp" ] && [ -n "$nl" ] && break
	sleep 0.1
done
[ -n "$sv" ] && [ -n "$kp" ] && [ -n "$nl" ] && pass || fail "targets did not start: supervise's [$sv] keeper's [$kp] name's [$nl]"
run_ours "$G" --all --iab >"$T/all" 2>"$T/all.err"
[ -n "$sv" ] && check "$sv" nobody rootsleep escalation-adjacent no-new-privs-missing cap_net_raw=ep
[ -n "$kp" ] && check "$kp" nobody rootsleep escalation-adjacent "" cap_net_raw=ep
[ "$(row "$nl" | awk '{ print $4 }')" = 'n\012l\134b' ] && pass ||
	fail "a name with a newline and a backslash: command [$(row "$nl" | awk '{ print $4 }' | tr '\\' /)], want n/012l/134b (each / a backslash)"
run_ours "$G" --all --json >"$T/json" 2>&1
python3 - "$T/json" "${nl:-0}" "$nlname" <<'PY' && pass || fail "--json: the name with a newline and a backslash"
import json, sys
procs = {o["pid"]: o for o in map(json.loads, open(sys.argv[1])) if o["type"] == "process"}
assert procs[int(sys.argv[2])]["comm"] == sys.argv[3] == "n\nl\\b", procs.get(int(sys.argv[2]))
PY

# POSIX ACLs beside the mode bits (root:root 0755 copies, run by nobody):
# user:nobody:rwx under mask rwx, and group:nogroup:rwx, let nobody write
# the file: writable-exe; the same user entry under mask r-x does not.
# Each verdict is held to the kernel's own answer (test -w as nobody).
acl=0x02000000'01000700ffffffff'
aclw=$acl'02000700feff0000''04000500ffffffff''10000700ffffffff''20000500ffffffff'
aclm=$acl'02000700feff0000''04000500ffffffff''10000500ffffffff''20000500ffffffff'
aclg=$acl'04000500ffffffff''08000700feff0000''10000700ffffffff''20000500ffffffff'
for v in aclw aclm aclg; do
	cp /bin/sleep "$T/$v" && chmod 755 "$T/$v" &&
	eval "setfattr -n system.posix_acl_access -v \$$v \"\$T/\$v\"" &&
	"$S" cap_net_raw=ep "$T/$v" && pass || { fail "cannot make $v"; continue; }
	# shellcheck disable=SC2086
	setsid setpriv $nb "$T/$v" 65 </dev/null >/dev/null 2>&1 &
done
for v in aclw aclm aclg; do
	for i in $(seq 50); do pid_of "$T/$v" 65 >/dev/null && break; sleep 0.1; done
done
run_ours "$G" --all >"$T/all" 2>&1
for v in aclw aclm aclg; do
	pid=$(pid_of "$T/$v" 65) && pass || { fail "$v did not start"; continue; }
	# shellcheck disable=SC2086
	if setpriv $nb test -w "$T/$v"; then kernel=writable-exe; else kernel=; fi
	case $(flags "$pid") in *writable-exe*) ours=writable-exe ;; *) ours= ;; esac
	[ "$ours" = "$kernel" ] && pass ||
		fail "$v: getpcaps says [$ours], the kernel's test -w as nobody says [$kernel]"
	case $v in aclm) want= ;; *) want=writable-exe ;; esac
	[ "$ours" = "$want" ] && pass || fail "$v: [$ours], want [$want]"
done
echo "acl ok"

# A command line is the process's to choose too: a 100,000-byte one is
# kept to its first 4096 bytes and says so, in the table and in --json.
cp /bin/sh "$T/longsh" && chmod 755 "$T/longsh" && "$S" cap_net_raw=ep "$T/longsh" && pass ||
	fail "cannot make the long-argv shell"
long=$(head -c 100000 /dev/zero | tr '\0' a)
# shellcheck disable=SC2086
setsid setpriv $nb "$T/longsh" -c 'sleep 67; :' longsh "$long" </dev/null >/dev/null 2>&1 &
for i in $(seq 50); do lp=$(pid_of "$T/longsh" -c 'sleep 67; :' longsh "$long") && break; sleep 0.1; done
run_ours "$G" --all --verbose >"$T/long" 2>&1
# One line a process; the shell's child may still carry the same command
# line between its fork and its exec of sleep, so judge the first.
line=$(grep -a "command: $T/longsh -c " "$T/long" | head -n 1)
case $line in *" [cut at 4096 bytes]") ;; *) fail "long command line: not marked cut: $(echo "$line" | tail -c 80)" ;; esac
[ "$(printf '%s' "$line" | wc -c)" -lt 4300 ] && pass || fail "long command line: $(printf '%s' "$line" | wc -c) bytes printed"
run_ours "$G" --all --verbose --json >"$T/long.json" 2>&1
python3 - "$T/long.json" "${lp:-0}" <<'PY' && pass || fail "long command line in --json"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
me = [r for r in rows if r.get("pid") == int(sys.argv[2])]
assert me and me[0]["cmdline_cut"] is True, me
assert sum(len(a) + 1 for a in me[0]["cmdline"]) <= 4097, me[0]["cmdline"][:3]
PY

# A name is the process's to choose: an escape sequence in it is printed
# as text (\033), in the table, --verbose's command line and --json.
esc=$(printf 'x\033[2Jy')
cp /bin/sleep "$T/$esc" && chmod 755 "$T/$esc" && "$S" cap_net_raw=ep "$T/$esc" && pass ||
	fail "cannot make the escape-named sleep"
# shellcheck disable=SC2086
setsid setpriv $nb "$T/$esc" 64 </dev/null >/dev/null 2>&1 &
for i in $(seq 50); do pid_of "$T/$esc" 64 >/dev/null && break; sleep 0.1; done
run_ours "$G" --all --verbose >"$T/esc" 2>&1
run_ours "$G" --all --json >>"$T/esc" 2>&1
grep -q "$(printf '\033')" "$T/esc" && fail "a raw ESC reached the output: $(grep -a "$(printf '\033')" "$T/esc" | cat -v)" || pass
grep -Fq ' x\033[2Jy ' "$T/esc" && pass || fail "the escape-named process is not shown as text: $(grep -a 'x' "$T/esc" | head -n 3 | cat -v)"

# The same name with a C1 CSI (U+009B) and a right-to-left override
# (U+202E): valid UTF-8 and valid in JSON, but a viewer acts on them, so
# --json writes them as \u escapes (as the text output writes \ooo).
c1=$(printf 'c1\302\233' ; printf '31mx\342\200\256y')
cp /bin/sleep "$T/$c1" && chmod 755 "$T/$c1" && "$S" cap_net_raw=ep "$T/$c1" && pass ||
	fail "cannot make the C1-named sleep"
# shellcheck disable=SC2086
setsid setpriv $nb "$T/$c1" 64 </dev/null >/dev/null 2>&1 &
for i in $(seq 50); do pid_of "$T/$c1" 64 >/dev/null && break; sleep 0.1; done
run_ours "$G" --all --verbose --json >"$T/c1.json" 2>&1
python3 - "$T/c1.json" <<'PY' && pass || fail "C1 and bidi in --json: $(grep -a c1 "$T/c1.json" | head -n 2)"
import json, sys
raw = open(sys.argv[1], "rb").read()
assert b"\xc2\x9b" not in raw and b"\xe2\x80\xae" not in raw, "raw C1 or U+202E in the output"
rows = [json.loads(l) for l in raw.decode().splitlines()]
me = [r for r in rows if r.get("comm", "").startswith("c1")]
assert me and me[0]["comm"] == "c1\u009b31mx\u202ey", me
assert b'"comm":"c1\\u009b31mx\\u202ey"' in raw, "not written as \\u escapes"
assert any(a.endswith("c1\u009b31mx\u202ey") for a in me[0]["cmdline"]), me[0]["cmdline"]
PY

finish "getpcaps --all: every target with its sets, risk and flags; tree, json, user namespace, hidepid"
