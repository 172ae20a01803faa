#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# getpcaps --all must not call a privileged process "nothing to show", nor
# a partial listing complete:
#   uid 0 with empty sets  a thread of a nobody process keeps uid 0 and
#             empties its own capability sets (tools/threadcreds bare): it
#             holds nothing now, and its next execve() takes the whole
#             bounding set back. The old audit left the process out (sets
#             empty, bounding set full). Now it is shown, user root, risk
#             root-equivalent, flagged root-regains (text and JSON).
#   fsuid 0   the same with uids 65534 but the filesystem one 0
#             (threadcreds fsroot): root to every file root owns.
#   hidepid   /proc mounted hidepid=invisible (or ptraceable) lists only
#             what the caller may trace: as nobody, the old audit said
#             "0 not examined" and exited 0 with every root process
#             missing. Now stderr says so and the exit status is 1; not so
#             for a member of its gid= group, nor for root, who sees all.
# Both run on the real kernel: the first in a user namespace mapping every
# uid to itself (tools/fullns), where the bounding set is full whatever
# this machine's is (a reduced one would show every process anyway), with
# a pid namespace and /proc of its own.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
G=$BUILD/progs/getpcaps TC=$BIN/threadcreds FN=$BIN/fullns
[ "$(id -u)" -eq 0 ] || skip "needs root"
for p in "$G" "$TC" "$FN"; do [ -x "$p" ] || { fail "$p not built"; finish; }; done
for t in setpriv unshare python3; do
	command -v $t >/dev/null || skip "$t is not installed"
done
own_pid_ns "$@"
init
at_exit pid_ns_cleanup
chmod 755 "$T"

# inside MODE: in a fully mapped user namespace with its own pid
# namespace, threadcreds MODE runs; getpcaps --all and --all --json
# write $T/MODE.txt and $T/MODE.json, /proc/2's threads' Uid lines
# $T/MODE.uids. threadcreds is pid 2 there (the shell is 1).
inside() {
	# shellcheck disable=SC2016 # expanded by the inner shell
	"$FN" unshare --pid --fork --mount-proc sh -c '
		"$1" "$2" >"$3/$2.ready" 2>&1 &
		i=0
		until grep -q "^ready" "$3/$2.ready"; do
			i=$((i + 1)); [ $i -lt 100 ] || exit 3; sleep 0.1
		done
		grep -h "^Uid:" /proc/2/task/*/status >"$3/$2.uids"
		grep -h "^CapBnd:" /proc/2/task/*/status >"$3/$2.bnd"
		"$4" --all >"$3/$2.txt" 2>&1; echo "rc=$?" >>"$3/$2.txt"
		"$4" --all --json >"$3/$2.json" 2>"$3/$2.jerr"
		kill -9 2' sh "$TC" "$1" "$T" "$G"
}

# --- a thread with uid 0 and empty sets ---
inside bare && pass || fail "bare: the namespace did not run: $(cat "$T/bare.ready" 2>/dev/null)"
grep -qx 'Uid:	0	0	0	0' "$T/bare.uids" && grep -qx 'Uid:	65534	65534	65534	65534' "$T/bare.uids" && pass ||
	fail "bare: threadcreds did not split: $(cat "$T/bare.uids")"
# The setup is the one that hid it: a full bounding set in every thread.
[ "$(sort -u "$T/bare.bnd" | wc -l)" -eq 1 ] && pass || fail "bare: bounding sets differ: $(cat "$T/bare.bnd")"
r=$(awk '$1 == 2' "$T/bare.txt")
if [ -z "$r" ]; then
	fail "bare: the process with a uid 0 thread is not shown: $(cat "$T/bare.txt")"
else
	set -- $r
	[ "$3 $5" = "root root-equivalent" ] && pass || fail "bare: user and risk [$3 $5], want [root root-equivalent]: $r"
	grep -q '^        ! root-regains: a user id is 0 while the permitted set lacks part of the bounding set' "$T/bare.txt" && pass ||
		fail "bare: not flagged root-regains: $(cat "$T/bare.txt")"
	grep -q '^        thread [0-9]*: root uids 0,0,0,0 "="$' "$T/bare.txt" && pass || fail "bare: no line for the root thread: $(cat "$T/bare.txt")"
fi
grep -qx 'rc=0' "$T/bare.txt" && pass || fail "bare: exit status: $(tail -n 1 "$T/bare.txt")"
python3 - "$T/bare.json" <<'PY' && pass || fail "bare: --json: $(cat "$T/bare.jerr")"
import json, sys
procs = {o["pid"]: o for o in map(json.loads, open(sys.argv[1])) if o["type"] == "process"}
o = procs[2]
assert o["uid"] == 0 and o["risk"] == "root-equivalent", o
assert "root-regains" in o["flags"] and "threads-differ" in o["flags"], o["flags"]
assert o["permitted"]["hex"].strip("0x") == "" or int(o["permitted"]["hex"], 16) == 0, o["permitted"]
print("bare json ok")
PY

# --- a thread with filesystem uid 0 only ---
inside fsroot && pass || fail "fsroot: the namespace did not run: $(cat "$T/fsroot.ready" 2>/dev/null)"
grep -qx 'Uid:	65534	65534	65534	0' "$T/fsroot.uids" && pass || fail "fsroot: no thread with fsuid 0: $(cat "$T/fsroot.uids")"
r=$(awk '$1 == 2' "$T/fsroot.txt")
if [ -z "$r" ]; then
	fail "fsroot: the process with an fsuid 0 thread is not shown: $(cat "$T/fsroot.txt")"
else
	set -- $r
	[ "$3 $5" = "nobody root-equivalent" ] && pass || fail "fsroot: user and risk [$3 $5]: $r"
	grep -q '^        ! root-regains: ' "$T/fsroot.txt" && pass || fail "fsroot: not flagged: $(cat "$T/fsroot.txt")"
	grep -q '^        thread [0-9]*: nobody uids 65534,65534,65534,0 "="$' "$T/fsroot.txt" && pass ||
		fail "fsroot: no line for the fsuid 0 thread: $(cat "$T/fsroot.txt")"
fi

# --- hidepid: a listing that leaves processes out is no complete audit ---
cp "$G" "$T/getpcaps" && chmod 755 "$T/getpcaps"
nb='--reuid=65534 --regid=65534 --clear-groups'
# listed_as_nobody OUT [OPTS]: /proc remounted with OPTS, getpcaps --all as nobody
listed_as_nobody() {
	out=$1
	shift
	mount -t proc ${1:+-o "$1"} proc /proc || return 1
	# shellcheck disable=SC2086
	setpriv $nb "$T/getpcaps" --all >"$T/$out" 2>"$T/$out.err"
	echo $? >"$T/$out.rc"
	"$G" --all >"$T/$out.root" 2>"$T/$out.root.err"
	echo $? >"$T/$out.root.rc"
	umount /proc
}
if ! listed_as_nobody plain; then
	not_checked "cannot mount proc here; hidepid checks left out"
elif grep -q 'error while loading shared libraries' "$T/plain.err"; then
	not_checked "nobody cannot load the build tree's library; hidepid checks left out"
else
	# Without hidepid nobody reads every status: complete, exit 0.
	[ "$(cat "$T/plain.rc")" = 0 ] && [ ! -s "$T/plain.err" ] && pass ||
		fail "no hidepid: exit $(cat "$T/plain.rc"): $(cat "$T/plain.err")"
	hid="getpcaps: /proc: mounted with hidepid=invisible: the processes this user may not trace are not listed, and not counted (a complete audit needs root)"
	if listed_as_nobody inv hidepid=invisible; then
		# Pid 1 (root) is not listed to nobody: the old audit exited 0.
		awk '$1 == 1' "$T/inv" | grep -q . && fail "hidepid=invisible: nobody sees pid 1?" || pass
		[ "$(cat "$T/inv.rc")" = 1 ] && pass || fail "hidepid=invisible as nobody: exit $(cat "$T/inv.rc"), want 1"
		[ "$(cat "$T/inv.err")" = "$hid" ] && pass || fail "hidepid=invisible: stderr [$(cat "$T/inv.err")]"
		# root (CAP_SYS_PTRACE) is shown every process: complete.
		[ "$(cat "$T/inv.root.rc")" = 0 ] && [ ! -s "$T/inv.root.err" ] && pass ||
			fail "hidepid=invisible as root: exit $(cat "$T/inv.root.rc"): $(cat "$T/inv.root.err")"
		awk '$1 == 1' "$T/inv.root" | grep -q . && pass || fail "hidepid=invisible as root: pid 1 not shown"
	else
		fail "cannot mount proc with hidepid=invisible"
	fi
	# The gid= group is shown every process under invisible.
	if listed_as_nobody gid hidepid=invisible,gid=65534; then
		[ "$(cat "$T/gid.rc")" = 0 ] && [ ! -s "$T/gid.err" ] && pass ||
			fail "hidepid=invisible,gid=65534 as nobody: exit $(cat "$T/gid.rc"): $(cat "$T/gid.err")"
		awk '$1 == 1' "$T/gid" | grep -q . && pass || fail "gid=65534: pid 1 not shown"
	else
		fail "cannot mount proc with gid="
	fi
	if listed_as_nobody ptr hidepid=ptraceable; then
		[ "$(cat "$T/ptr.rc")" = 1 ] && pass || fail "hidepid=ptraceable as nobody: exit $(cat "$T/ptr.rc"), want 1"
		grep -q '^getpcaps: /proc: mounted with hidepid=ptraceable: ' "$T/ptr.err" && pass || fail "ptraceable: stderr [$(cat "$T/ptr.err")]"
	else
		not_checked "this kernel has no hidepid=ptraceable"
	fi
	# noaccess lists them: they are counted as not examined, as before.
	if listed_as_nobody noacc hidepid=noaccess; then
		[ "$(cat "$T/noacc.rc")" = 1 ] && grep -q 'processes not examined' "$T/noacc.err" &&
			! grep -q 'hidepid' "$T/noacc.err" && pass || fail "hidepid=noaccess: exit $(cat "$T/noacc.rc"): $(cat "$T/noacc.err")"
	else
		fail "cannot mount proc with hidepid=noaccess"
	fi
fi
finish "a uid 0 with nothing, an fsuid 0 thread and hidepid listings seen"
