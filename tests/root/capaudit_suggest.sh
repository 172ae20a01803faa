#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# capaudit --suggest with real programs on the real kernel, as root with
# --user=nobody: each suggestion is the least grant, proven by running
# the command again, and applied with our setcap to the copy it names it
# makes that copy work for nobody.
#   ping (ours, and iputils' when installed): cap_net_raw alone, not the
#     cap_setuid and cap_setpcap it asks for to drop them;
#   a capture tool that already holds cap_net_raw and lacks cap_net_admin:
#     the DAC checks made under access(2)'s lent credential are not its
#     needs;
#   chown: cap_chown, named root-equivalent, and the file every user may
#     run said to make every user root;
#   python3 -m http.server 80 under timeout, env timeout and sh -c, and
#     a python script binding port 80: the grant goes on python's own
#     file, with the interpreter warning (and the script's);
#   unshare -Urn true, and its root reading a file of the real root's:
#     nothing at all (its checks are in its own namespace);
#   hostile file names: the setcap line, pasted, runs setcap alone.
#   ping on overlayfs with its layers on two file systems (a container's
#     root), and in a btrfs subvolume: stat(2) names another device than
#     the kernel's record of the run, every trial was refused ("the path
#     names another file now") and the fallback suggested the
#     root-equivalent cap_setuid and cap_setpcap beside cap_net_raw;
#     now cap_net_raw alone, proven. On an overlay whose lower layer is
#     an overlay the kernel names the file inside a layer ("/ping"): no
#     setcap line for that name. A subvolume of nobody's put in the place
#     of ping's, its first file with ping's inode number: no setcap line
#     for his file (a mapping's numbers prove nothing in a directory
#     others than root may change).
#   chown of a root's file to nobody: the first trial chowned it, the
#     next succeeded without cap_chown and the report said "nothing to
#     grant"; now unproven, "the command changes what it works on", with
#     cap_chown held apart (root-equivalent), in the text and in --json,
#     also behind a wrapper (where perf does not see the capable copy).
#   containers: ping's grant as podman's and docker's flags and a
#     Kubernetes securityContext, for nobody and for root, each proven by
#     a run in the sets that runtime gives its container's process; a
#     probe records the sets each of those runs had (as podman 4.3 with
#     runc gives them: root, bounding = permitted = effective = the
#     grant; another user, the grant in all five sets, or the file's own
#     capabilities under that bounding set); pasted after "podman run",
#     the flags of a hostile name's grant run podman alone; --json;
#     podman's way for nobody, where every program holds the grant, runs
#     no program of nobody's with it: not a wrapper of his, not one run
#     late, not one the loader is made to run; a library of his that a
#     program loads only outside the secure mode leaves it unproven.
#     The servers under timeout run with --no-container, as their
#     runs last seconds each, and so do the cases about other things
#     than containers whose container runs would be ping's again.
# The network checks run in a network namespace of their own (loopback
# up): ping_group_range is the kernel's default there, and port 80 ours.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
# nobody by name from the base accounts only.
private_etc "$@"
init
CA=$BUILD/progs/capaudit S=$BUILD/progs/setcap
probe=$BIN/capaudit_probe ping=$BIN/capaudit_ping
[ -x "$CA" ] && [ -x "$S" ] && [ -x "$probe" ] && [ -x "$ping" ] ||
	{ fail "capaudit, setcap, capaudit_probe or capaudit_ping not built"; finish; }
for c in unshare setpriv timeout env chown; do
	command -v "$c" >/dev/null || skip "$c is not installed"
done
"$CA" --check >"$T/out" 2>&1 || skip "capaudit cannot trace here: $(cat "$T/out")"
grep -q "tracepoint capability:cap_capable" "$T/out" ||
	skip "no capability:cap_capable tracepoint (Linux 6.14+): $(cat "$T/out")"
chmod 755 "$T"
mkdir "$T/bin" "$T/w" && chmod 755 "$T/bin" "$T/w"
nobody="setpriv --reuid=nobody --regid=nogroup --clear-groups"
# CMD in a new network namespace with loopback up.
in_net() { unshare -n sh -c '"$0" --lo-up && exec "$@"' "$ping" "$@"; }
# The report's setcap lines, one per line.
setcap_lines() { grep '^setcap ' "$1"; }
expect_suggested() {	# REPORT LINE CASE
	got=$(setcap_lines "$1")
	if [ "$got" = "$2" ]; then pass; else cat "$1"; fail "$3: suggested [$got], want [$2]"; fi
}

# 1. ping, ours: the first run as nobody fails (no socket); every
#    candidate granted it works; without cap_setuid or cap_setpcap too.
cp "$ping" "$T/bin/ping" && chmod 755 "$T/bin/ping"
in_net "$CA" --suggest --user=nobody --output="$T/rep" -- "$T/bin/ping" >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -eq 2 ] || fail "ping as nobody under capaudit: exit $rc, want 2 ($(cat "$T/out" "$T/err"))"
expect_suggested "$T/rep" "setcap cap_net_raw=ep $T/bin/ping" "ping as nobody"
expect_line "$T/rep" "# capaudit --suggest: the least grant, proven by 6 runs as nobody" "ping: proof"
expect_line "$T/rep" "without cap_setuid on $T/bin/ping: exited with status 0: not needed" "ping: cap_setuid"
expect_line "$T/rep" "without cap_net_raw on $T/bin/ping: exited with status 2: needed" "ping: cap_net_raw"
expect_line "$T/rep" "cap_net_raw	nobody" "ping: capability.conf"
# In a container: podman's flags (ambient), docker's (the file's own),
# Kubernetes' securityContext, each proven by its run after the six.
expect_lines_in() {	# REPORT CASE LINE...: each LINE a whole line of REPORT
	rep=$1 what=$2
	shift 2
	for l in "$@"; do
		grep -qxF -- "$l" "$rep" && pass || { cat "$rep"; fail "$what: no line [$l]"; }
	done
}
expect_lines_in "$T/rep" "ping as nobody, in a container" \
	"--cap-drop=ALL --cap-add=NET_RAW --user=65534:65534 --security-opt=no-new-privileges" \
	"#   run 7, in those sets: exited with status 0" \
	"--cap-drop=ALL --cap-add=NET_RAW --user=65534:65534 --security-opt=no-new-privileges=false" \
	"#   run 8, in those sets: exited with status 0" \
	"# Kubernetes, the container's securityContext (the sets of run 8):" \
	"  runAsNonRoot: true" "  allowPrivilegeEscalation: true" '    add: ["NET_RAW"]'
expect_line "$T/rep" "# podman, as uid 65534 in the container: the flags of podman run, proven by run 7 in the sets the container gets there (bounding, inheritable, permitted, effective and ambient set cap_net_raw, no_new_privs set)" \
	"ping as nobody: podman's way"
expect_line "$T/rep" "# docker or Kubernetes, as uid 65534 in the container: the flags of docker run, proven by run 8 in the sets the container gets there (bounding set cap_net_raw, inheritable and ambient set empty, no_new_privs not set, each file with its grant as file capabilities)" \
	"ping as nobody: docker's and Kubernetes' way"
# Applied: that grant, and only it, makes it work for nobody.
in_net $nobody "$T/bin/ping" >/dev/null && fail "ping worked for nobody before setcap"
"$S" cap_net_raw=ep "$T/bin/ping" || fail "our setcap cap_net_raw=ep"
in_net $nobody "$T/bin/ping" >"$T/out" || fail "ping with cap_net_raw still fails: $(cat "$T/out")"
grep -q "raw socket" "$T/out" || fail "ping did not use its raw socket: $(cat "$T/out")"
"$S" -r "$T/bin/ping" || fail "our setcap -r"
# As root, without --user: trials without root's own capabilities.
in_net "$CA" --suggest --output="$T/rep" -- "$T/bin/ping" >/dev/null 2>"$T/err" ||
	fail "ping as root: $(cat "$T/err")"
expect_suggested "$T/rep" "setcap cap_net_raw=ep $T/bin/ping" "ping as root"
expect_line "$T/rep" "runs as root without root's capabilities (SECBIT_NOROOT)" "ping as root: how"
expect_lines_in "$T/rep" "ping as root, in a container" \
	"--cap-drop=ALL --cap-add=NET_RAW --user=0:0 --security-opt=no-new-privileges" \
	"#   run 7, in those sets: exited with status 0" \
	"# Kubernetes, the container's securityContext (the sets of run 7):" \
	"  runAsUser: 0" "  runAsNonRoot: false" "  allowPrivilegeEscalation: false" '    drop: ["ALL"]'
[ "$(grep -c '^--cap-drop=' "$T/rep")" = 1 ] && pass || fail "ping as root: not one line of flags"
# The securityContext is YAML that says what the lines say.
if python3 -c 'import yaml' 2>/dev/null; then
	sed -n '/^securityContext:$/,/^    add: /p' "$T/rep" >"$T/ctx.yaml"
	python3 - "$T/ctx.yaml" <<'PY' && pass || { cat "$T/rep"; fail "ping as root: the securityContext is not that YAML"; }
import sys, yaml
got = yaml.safe_load(open(sys.argv[1]))
assert got == {"securityContext": {"runAsUser": 0, "runAsGroup": 0, "runAsNonRoot": False,
	"allowPrivilegeEscalation": False,
	"capabilities": {"drop": ["ALL"], "add": ["NET_RAW"]}}}, got
PY
else
	not_checked "the securityContext read as YAML (no python3 yaml module)"
fi

# 1a. The sets of the container runs, as the command had them: a probe
#     that needs cap_net_bind_service writes its /proc/self/status sets
#     after each run. The last two (nobody) and the last (root) are the
#     container runs; those sets are what podman 4.3 (runc) gives a
#     container's process for the flags printed.
cp "$probe" "$T/bin/setsprobe" && chmod 755 "$T/bin/setsprobe"
mkdir "$T/sets" "$T/sets/nb" && chown nobody "$T/sets/nb" && chmod 700 "$T/sets/nb"
in_net "$CA" --suggest --user=nobody --output="$T/rep" -- "$T/bin/setsprobe" --bind80-sets "$T/sets/nb/log" \
	>/dev/null 2>&1
expect_suggested "$T/rep" "setcap cap_net_bind_service=ep $T/bin/setsprobe" "sets probe as nobody"
tail -n 2 "$T/sets/nb/log" >"$T/sets.got"
printf '%s\n' \
	"bind ok uid 65534 gid 65534 CapInh 400 CapPrm 400 CapEff 400 CapBnd 400 CapAmb 400 NoNewPrivs 1" \
	"bind ok uid 65534 gid 65534 CapInh 0 CapPrm 400 CapEff 400 CapBnd 400 CapAmb 0 NoNewPrivs 0" >"$T/sets.want"
same "$T/sets.want" "$T/sets.got" "the sets of nobody's container runs (podman's, then docker's and Kubernetes')"
expect_line "$T/rep" "#   run 6, in those sets: exited with status 0" "sets probe as nobody: run 6"
# As root, in --json: its "containers" says what the text does.
in_net "$CA" --suggest --json --output="$T/rep" -- "$T/bin/setsprobe" --bind80-sets "$T/sets/root" >/dev/null 2>&1
if ! command -v python3 >/dev/null; then
	not_checked "--json's containers (no python3)"
elif python3 - "$T/rep" <<'PY'; then pass; else cat "$T/rep"; fail "sets probe as root: --json's containers"; fi
import json, sys
s = [r for r in map(json.loads, open(sys.argv[1])) if r["type"] == "suggest"]
assert len(s) == 1 and s[0]["proven"] and s[0]["setcap"] == "cap_net_bind_service", s
s = s[0]
none = {"hex": "0x0000000000000000", "names": []}
assert s["containers"] == [{
	"runtimes": ["podman", "docker", "kubernetes"], "user": 0, "group": 0,
	"proven": True, "unproven": None, "run": s["runs"] + 1,
	"sets": {"bounding": {"hex": "0x0000000000000400", "names": ["cap_net_bind_service"]},
		"inheritable": none, "ambient": none,
		"no_new_privs": True, "file_capabilities": False},
	"flags": ["--cap-drop=ALL", "--cap-add=NET_BIND_SERVICE", "--user=0:0",
		"--security-opt=no-new-privileges"],
	"kubernetes": {"run_as_user": 0, "run_as_group": 0, "run_as_non_root": False,
		"allow_privilege_escalation": False, "drop": ["ALL"],
		"add": ["NET_BIND_SERVICE"]}}], s["containers"]
PY
tail -n 1 "$T/sets/root" >"$T/sets.got"
echo "bind ok uid 0 gid 0 CapInh 0 CapPrm 400 CapEff 400 CapBnd 400 CapAmb 0 NoNewPrivs 1" >"$T/sets.want"
same "$T/sets.want" "$T/sets.got" "the sets of root's container run"
# The trials before them ran with the host's bounding set and no
# no_new_privs: the container runs' sets are their own.
grep -c "NoNewPrivs 1" "$T/sets/root" | grep -qx 1 && pass ||
	{ cat "$T/sets/root"; fail "sets probe as root: no_new_privs in more than the container run"; }

# 1b. podman's way gives every program the command starts the grant as
#     ambient capabilities; nobody decides some of them. No program of
#     his may run so: (a) a wrapper of his: that run is not made, and
#     says why; (b) one the command runs late, first in that run (its
#     counter says when): Landlock keeps it from starting; (c) the same
#     through the loader run as a program ("ld.so PROGRAM", which maps
#     PROGRAM with no exec check): the loader's copy holds an empty file
#     capability, so that execve clears the ambient set. His program
#     records the sets it ran with: never the grant.
findmnt -rn -o ID,PARENT,TARGET,VFS-OPTIONS >"$T/mounts.before"
mkdir "$T/nbw" && cp "$probe" "$T/nbw/evil" && cp /usr/bin/env "$T/nbw/env" && chown -R nobody "$T/nbw"
in_net "$CA" --suggest --user=nobody --output="$T/rep" -- "$T/nbw/env" "$T/bin/setsprobe" --bind80-sets "$T/nbw/a" \
	>/dev/null 2>&1
expect_line "$T/rep" "# podman, as uid 65534 in the container: the flags of podman run, NOT PROVEN (run 5, which would give every program the command starts the grant, was not made: $T/nbw/env: it is not a file of the grant:" \
	"nobody's wrapper: podman's way not run"
expect_line "$T/rep" "#   run 6, in those sets: exited with status 0" "nobody's wrapper: docker's way run"
grep -q 'CapAmb 400' "$T/nbw/a" && { cat "$T/nbw/a"; fail "nobody's wrapper: a run had the grant as ambient capabilities"; }
# (a') root's own wrapper (env): it is no file of the grant, so the run
#     that would give it the grant as well, and whatever it is made to
#     load, is not made either.
in_net "$CA" --suggest --user=nobody --output="$T/rep" -- /usr/bin/env "$T/bin/setsprobe" --bind80-sets "$T/nbw/r" \
	>/dev/null 2>&1
expect_line "$T/rep" "# podman, as uid 65534 in the container: the flags of podman run, NOT PROVEN (run 5, which would give every program the command starts the grant, was not made: /usr/bin/env: it is not a file of the grant:" \
	"root's wrapper: podman's way not run"
grep -q 'CapAmb 400' "$T/nbw/r" && { cat "$T/nbw/r"; fail "root's wrapper: a run had the grant as ambient capabilities"; }
loader=$(awk '/\/ld-linux/ { print $6; exit }' /proc/self/maps)
for how in direct loader; do
	rm -f "$T/nbw/count"
	set -- "$T/nbw/evil"
	[ "$how" = loader ] && set -- "$loader" "$T/nbw/evil"
	[ -n "$1" ] || { not_checked "no loader found in /proc/self/maps: the loader run as a program"; continue; }
	in_net "$CA" --suggest --user=nobody --output="$T/rep" -- \
		"$T/bin/setsprobe" --bind80-exec-after 5 "$T/nbw/count" "$@" --bind80-sets "$T/nbw/$how" >/dev/null 2>&1
	[ "$(cat "$T/nbw/count")" = 7 ] && pass || fail "a program run late ($how): $(cat "$T/nbw/count") runs, want 7"
	expect_line "$T/rep" "# podman, as uid 65534 in the container: no flags: run 5, in these sets, exited with status" \
		"a program run late ($how): podman's way shown not to work"
	if grep -qv 'CapPrm 0 CapEff 0 CapBnd 400 CapAmb 0 ' "$T/nbw/$how" 2>/dev/null; then
		cat "$T/nbw/$how"
		fail "a program of nobody's run late ($how) had the grant"
	else
		pass
	fi
done

# (d) a program of the grant that loads a library of nobody's only
#     outside the secure mode (AT_SECURE) a file capability gives, as a
#     library reading its user's configuration only there does: no trial
#     loads it, podman's run (ambient capabilities, no secure mode)
#     tries to. Every mount of that run is noexec but its allowed
#     files': the library cannot be mapped there (the program notes
#     dlopen's refusal in esc), so its code, which adds the capabilities
#     it ran with to esc, never runs with the grant, and the run, made of
#     root's files alone, proves podman's way.
cp "$BIN/capaudit_hostile" "$T/bin/unsecure" && chmod 755 "$T/bin/unsecure" &&
	cp "$BIN/libcapaudit_escalate.so" "$T/nbw/lib.so" && chown nobody "$T/nbw/lib.so" ||
	fail "copies of capaudit_hostile and its library"
in_net "$CA" --suggest --user=nobody --output="$T/rep" -- \
	"$T/bin/unsecure" --bound-dlopen-unsecure "$T/nbw/lib.so" "$T/nbw/esc" >/dev/null 2>&1
expect_line "$T/rep" "# podman, as uid 65534 in the container: the flags of podman run, proven by run 5 in the sets the container gets there (bounding, inheritable, permitted, effective and ambient set cap_net_bind_service, no_new_privs set)" \
	"a library of nobody's refused outside the secure mode: podman's way proven by root's files alone"
expect_line "$T/rep" "#   run 6, in those sets: exited with status 0" \
	"a library of nobody's loaded outside the secure mode: docker's way proven"
if grep '^CapEff:' "$T/nbw/esc" 2>/dev/null | grep -qv '^CapEff:[[:space:]]*0*$'; then
	cat "$T/nbw/esc"
	fail "a library of nobody's loaded outside the secure mode ran with the grant"
else
	pass
fi
expect_line "$T/nbw/esc" "dlopen: $T/nbw/lib.so: failed to map segment from shared object" \
	"a library of nobody's in the ambient run: its mapping refused"
# The ambient runs' noexec mounts and binds stayed in their namespaces.
findmnt -rn -o ID,PARENT,TARGET,VFS-OPTIONS >"$T/mounts.after"
same "$T/mounts.before" "$T/mounts.after" "the host's mounts after the ambient runs"

# 1b. iputils' ping, when installed, the same way (a copy, without the
#     capabilities the package gave it).
if [ -x /usr/bin/ping ]; then
	cp /usr/bin/ping "$T/bin/iping" && chmod 755 "$T/bin/iping"
	in_net "$CA" --suggest --no-container --user=nobody --output="$T/rep" -- "$T/bin/iping" -c1 -W2 127.0.0.1 \
		>/dev/null 2>&1
	expect_suggested "$T/rep" "setcap cap_net_raw=ep $T/bin/iping" "iputils ping as nobody"
	"$S" cap_net_raw=ep "$T/bin/iping" || fail "our setcap on iputils ping"
	in_net $nobody "$T/bin/iping" -c1 -W2 127.0.0.1 >/dev/null 2>&1 ||
		fail "iputils ping with cap_net_raw fails for nobody"
else
	echo "note: no /usr/bin/ping; iputils' ping not tried (ours was)"
fi

# 2. A capture tool that holds cap_net_raw already (like dumpcap), and
#    lacks cap_net_admin for promiscuous mode: its access(2) of a
#    root-only file is checked under a credential the kernel lends for
#    the call, cleared of capabilities. Refused, and the run fails, yet
#    those DAC checks are no need of the file's.
cp "$probe" "$T/bin/capture" && chmod 755 "$T/bin/capture"
"$S" cap_net_raw=ep "$T/bin/capture" || fail "our setcap on the capture tool"
: >"$T/secret" && chmod 600 "$T/secret"
in_net "$CA" --suggest --no-container --user=nobody --output="$T/rep" -- "$T/bin/capture" --capture "$T/secret" \
	>/dev/null 2>&1
[ $? -eq 3 ] || fail "capture tool: not refused promiscuous mode"
expect_suggested "$T/rep" "setcap cap_net_admin,cap_net_raw=ep $T/bin/capture" "capture tool"
awk '$NF == "credential" && ($1 == "cap_dac_override" || $1 == "cap_dac_read_search") { n++ }
     END { exit n ? 0 : 1 }' "$T/rep" ||
	{ cat "$T/rep"; fail "capture tool: the lent credential's DAC checks are not listed as such"; }

# 3. chown: the least grant is root-equivalent, and every user may run it.
cp /usr/bin/chown "$T/bin/chown" && chmod 755 "$T/bin/chown"
: >"$T/w/f" && chown nobody:nogroup "$T/w/f"
"$CA" --suggest --no-container --user=nobody --output="$T/rep" -- "$T/bin/chown" 1 "$T/w/f" >/dev/null 2>&1
[ $? -eq 1 ] || fail "chown as nobody: not its exit status 1"
expect_suggested "$T/rep" "setcap cap_chown=ep $T/bin/chown" "chown"
expect_line "$T/rep" "# WARNING: cap_chown is root-equivalent" "chown: root-equivalent"
expect_line "$T/rep" "# WARNING: $T/bin/chown is executable by every user (mode 0755): each of them gets cap_chown with it, which makes every user root" "chown: every user"
"$S" cap_chown=ep "$T/bin/chown" || fail "our setcap cap_chown=ep"
as_nobody "$T/bin/chown" 2 "$T/w/f" || fail "chown with cap_chown fails for nobody"
[ "$(stat -c %u "$T/w/f")" = 2 ] || fail "the owner did not change"

# 4. A port-80 server, started by wrappers: python's own file gets it.
# It serves until timeout ends it: long enough for python to start and
# bind under a loaded machine (2 s was not), or every run looks the same.
serve_for=6
py=
if [ -x /usr/bin/python3 ]; then py=$(readlink -f /usr/bin/python3); fi
if [ -n "$py" ] && "$py" -c 'import http.server' 2>/dev/null; then
	pyc=$T/bin/$(basename "$py")
	cp "$py" "$pyc" && chmod 755 "$pyc"
	serve="-m http.server --bind 127.0.0.1 80"
	for how in "timeout $serve_for" "env timeout $serve_for" "sh -c"; do
		case $how in
		"sh -c") set -- sh -c "exec timeout $serve_for \"\$0\" $serve" "$pyc" ;;
		*) set -- $how "$pyc" $serve ;;
		esac
		in_net "$CA" --suggest --no-container --user=nobody --output="$T/rep" -- "$@" >/dev/null 2>&1
		expect_suggested "$T/rep" "setcap cap_net_bind_service=ep $pyc" "port 80 under $how"
		expect_line "$T/rep" "#   success: exited with status 124, as with every candidate granted" "port 80 under $how: success"
		expect_line "$T/rep" "# WARNING: $pyc is an interpreter" "port 80 under $how: interpreter"
	done
	# As root, nothing refused: not "the grant the refused checks point to".
	in_net "$CA" --suggest --no-container --output="$T/rep" -- timeout $serve_for "$pyc" $serve >/dev/null 2>&1
	expect_suggested "$T/rep" "setcap cap_net_bind_service=ep $pyc" "port 80 as root"
	grep -q "refused checks point to" "$T/rep" && fail "port 80 as root: spoke of refused checks"
	# --no-container: no line for containers, and the proof as it was.
	grep -Eq '^(--cap-drop=|securityContext:|# (podman|docker|Kubernetes|containers)|# note: the container)' "$T/rep" &&
		{ cat "$T/rep"; fail "port 80 as root, --no-container: a container line"; }
	# A script: the kernel runs its interpreter, which gets the grant; said so.
	printf '#!%s\nimport socket\nsocket.socket().bind(("127.0.0.1", 80))\n' "$pyc" >"$T/bin/serve"
	chmod 755 "$T/bin/serve"
	in_net "$CA" --suggest --no-container --user=nobody --output="$T/rep" -- "$T/bin/serve" >/dev/null 2>&1
	expect_suggested "$T/rep" "setcap cap_net_bind_service=ep $pyc" "a python script"
	expect_line "$T/rep" "# WARNING: $T/bin/serve is a script (#!$pyc): the kernel runs its interpreter" "a python script: said a script"
	expect_line "$T/rep" "# WARNING: $pyc is an interpreter" "a python script: interpreter"
	"$S" cap_net_bind_service=ep "$pyc" || fail "our setcap on python"
	in_net $nobody timeout $serve_for "$pyc" $serve >/dev/null 2>&1
	rc=$?
	[ "$rc" -eq 124 ] || fail "python with cap_net_bind_service: exit $rc for nobody, want 124 (served until timeout)"
else
	echo "note: no /usr/bin/python3 with http.server; the port-80 server is ours"
	cp "$probe" "$T/bin/bind80" && chmod 755 "$T/bin/bind80"
	in_net "$CA" --suggest --no-container --user=nobody --output="$T/rep" -- env timeout $serve_for "$T/bin/bind80" --bind80 >/dev/null 2>&1
	expect_suggested "$T/rep" "setcap cap_net_bind_service=ep $T/bin/bind80" "port 80 under env timeout"
fi

# 5. unshare -Urn: every check in its own namespace; nothing to grant.
"$CA" --suggest --user=nobody --output="$T/rep" -- unshare -Urn true >/dev/null 2>&1 ||
	fail "unshare -Urn true as nobody failed"
setcap_lines "$T/rep" >/dev/null && { cat "$T/rep"; fail "unshare -Urn: a setcap line"; }
grep -q '^AmbientCapabilities=' "$T/rep" && fail "unshare -Urn: a systemd grant"
grep -q '^--cap-drop=' "$T/rep" && fail "unshare -Urn: container flags"
expect_line "$T/rep" "# capaudit --suggest: nothing to grant" "unshare -Urn"
grep -q ' user_namespace$' "$T/rep" || { cat "$T/rep"; fail "unshare -Urn: no check shown in its namespace"; }
# Its root reads a file of the real root's: the DAC checks are asked in
# its namespace (granted there, refused by the ids), and it goes on.
"$CA" --suggest --user=nobody --output="$T/rep" -- unshare -Urn \
	sh -c 'cat "$0" >/dev/null 2>&1; exit 0' "$T/secret" >/dev/null 2>&1 ||
	fail "unshare -Urn sh -c cat as nobody failed"
setcap_lines "$T/rep" >/dev/null && { cat "$T/rep"; fail "unshare -Urn cat: a setcap line"; }
awk '$1 ~ /^cap_dac_/ && $NF == "user_namespace" { n++ } END { exit n ? 0 : 1 }' "$T/rep" ||
	{ cat "$T/rep"; fail "unshare -Urn cat: its DAC checks not shown in its namespace"; }

# 6. A name that is shell code: pasted, the line runs setcap and nothing else.
i=0
for name in 'ch;touch${IFS}INJECTED;#' '$(touch INJECTED)' "it's mine" 'a b`touch INJECTED`'; do
	i=$((i + 1))
	mkdir "$T/h$i" && chmod 755 "$T/h$i"
	cp /usr/bin/chown "$T/h$i/$name" && chmod 755 "$T/h$i/$name"
	"$CA" --suggest --user=nobody --output="$T/rep" -- "$T/h$i/$name" 1 "$T/w/f" >/dev/null 2>&1
	setcap_lines "$T/rep" >"$T/lines"
	[ -s "$T/lines" ] || { cat "$T/rep"; fail "name $i: no setcap line"; continue; }
	paste_run "$T/lines"
	[ "$(cat "$T/pasted")" = "setcap <cap_chown=ep> <$T/h$i/$name>" ] ||
		fail "name $i: pasted as: $(cat "$T/pasted")"
	paste_clean "name $i"
	[ ! -e "$T/paste/INJECTED" ] && [ ! -e INJECTED ] || fail "name $i: INJECTED was made"
	# The container flags, pasted after "podman run": podman alone runs.
	grep '^--cap-drop=' "$T/rep" | sed 's/^/podman run /' >"$T/lines"
	[ "$(wc -l <"$T/lines")" = 2 ] || { cat "$T/rep"; fail "name $i: not two lines of container flags"; continue; }
	paste_run "$T/lines"
	printf '%s\n' "podman <run> <--cap-drop=ALL> <--cap-add=CHOWN> <--user=65534:65534> <--security-opt=no-new-privileges>" \
		"podman <run> <--cap-drop=ALL> <--cap-add=CHOWN> <--user=65534:65534> <--security-opt=no-new-privileges=false>" >"$T/want"
	same "$T/want" "$T/pasted" "name $i: the container flags pasted"
	paste_clean "name $i, container flags"
	expect_line "$T/rep" '    add: ["CHOWN"]' "name $i: the securityContext's grant"
done
# A name a terminal would not show as it is: no setcap line, and why.
esc=$(printf 'ch\033]0;x\007own')
mkdir "$T/h9" && chmod 755 "$T/h9" && cp /usr/bin/chown "$T/h9/$esc" && chmod 755 "$T/h9/$esc"
"$CA" --suggest --user=nobody --output="$T/rep" -- "$T/h9/$esc" 1 "$T/w/f" >/dev/null 2>&1
setcap_lines "$T/rep" >/dev/null && fail "a name with escapes got a setcap line"
expect_line "$T/rep" "# setcap: $T/h9/ch\033]0;x\007own: no command is shown" "a name with escapes"
grep -q "$(printf '\033')" "$T/rep" && fail "a raw ESC reached the report"

# 7. ping on stacked file systems: the kernel's record of the run names
#    the file by numbers stat(2) does not give.
# proven_ping FILE CASE: capaudit proves cap_net_raw alone for FILE.
proven_ping() {
	in_net "$CA" --suggest --no-container --user=nobody --output="$T/rep" -- "$1" >/dev/null 2>"$T/err"
	expect_suggested "$T/rep" "setcap cap_net_raw=ep $1" "$2"
	expect_line "$T/rep" "# capaudit --suggest: the least grant, proven by 6 runs as nobody" "$2: proof"
	expect_line "$T/rep" "without cap_setuid on $1: exited with status 0: not needed" "$2: cap_setuid"
	expect_line "$T/rep" "without cap_net_raw on $1: exited with status 2: needed" "$2: cap_net_raw"
}
# Overlayfs, lower layer on the disk, upper on a tmpfs (this suite's
# mount namespace alone).
if overlay_layers "$T" && cp "$ping" "$T/lower/ping" && chmod 755 "$T/lower/ping" &&
	overlay_mount "$T"; then
	# The world is the one that broke it: two file systems under it.
	[ "$(stat -c %d "$T/ovl/ping")" != "$(stat -c %d "$T/lower/ping")" ] &&
		[ "$(stat -f -c %T "$T/ovl")" = overlayfs ] && pass ||
		fail "overlay: its ping is not on an overlay of two file systems"
	proven_ping "$T/ovl/ping" "ping on overlayfs"
	# An overlay whose lower layer is that overlay: the kernel names the
	# file it ran inside a layer it mounted for itself ("/ping", which
	# is no path here). No trial then, and no setcap line for that name
	# (it was "setcap cap_setuid,cap_setpcap,cap_net_raw=ep /ping").
	mkdir "$T/layers/up2" "$T/layers/work2" "$T/ovl2" && chmod 755 "$T/ovl2" &&
		mount -t overlay overlay \
			-o "lowerdir=$T/ovl,upperdir=$T/layers/up2,workdir=$T/layers/work2" "$T/ovl2" &&
		at_exit_checked "umount '$T/ovl2'" ||
		fail "cannot mount an overlay on the overlay"
	in_net "$CA" --suggest --no-container --user=nobody --output="$T/rep" -- "$T/ovl2/ping" >/dev/null 2>"$T/err"
	if grep -q "^# capaudit --suggest: the least grant, proven" "$T/rep"; then
		expect_suggested "$T/rep" "setcap cap_net_raw=ep $T/ovl2/ping" "ping on an overlay on an overlay"
	elif setcap_lines "$T/rep" >/dev/null; then
		cat "$T/rep"
		fail "ping on an overlay on an overlay: unproven, and a setcap line"
	else
		expect_line "$T/rep" ": not the file the command ran (" \
			"ping on an overlay on an overlay: why no setcap line"
	fi
else
	fail "an overlay over two file systems"
fi
# btrfs, in a subvolume of a file system in a file.
if ! command -v mkfs.btrfs >/dev/null || ! command -v btrfs >/dev/null; then
	echo "note: no mkfs.btrfs (btrfs-progs): ping in a btrfs subvolume not tried"
elif ! grep -qw btrfs /proc/filesystems; then
	echo "note: the kernel has no btrfs: ping in a btrfs subvolume not tried"
else
	mkdir "$T/btrfs" && truncate -s 128M "$T/btrfs.img" &&
		mkfs.btrfs -q "$T/btrfs.img" >/dev/null 2>&1 &&
		mount -o loop "$T/btrfs.img" "$T/btrfs" ||
		fail "cannot make and mount a btrfs in a file"
	if mountpoint -q "$T/btrfs"; then
		at_exit_checked "umount '$T/btrfs'"
		chmod 755 "$T/btrfs"
		btrfs -q subvolume create "$T/btrfs/sub" >/dev/null &&
			cp "$ping" "$T/btrfs/sub/ping" && chmod 755 "$T/btrfs/sub" "$T/btrfs/sub/ping" ||
			fail "a btrfs subvolume with ping"
		proven_ping "$T/btrfs/sub/ping" "ping in a btrfs subvolume"
		# A btrfs whose directory nobody may change: a subvolume of his
		# own, whose first file has the inode number of ping's in its
		# subvolume, put in its place once ping has run. A mapping of
		# either names the file system's device and that number: the
		# report named nobody's file in its setcap line, as the file
		# the command ran. Its path is one others than root may
		# change, so the mapping's numbers prove nothing there.
		mkdir "$T/btrfs/nb" && chown nobody "$T/btrfs/nb" &&
			btrfs -q subvolume create "$T/btrfs/nb/sub" >/dev/null &&
			cp "$ping" "$T/btrfs/nb/sub/ping" && chmod 755 "$T/btrfs/nb/sub" "$T/btrfs/nb/sub/ping" ||
			fail "a btrfs subvolume with ping, in nobody's directory"
		if as_nobody btrfs -q subvolume create "$T/btrfs/nb/his" >/dev/null 2>&1 &&
			as_nobody cp "$probe" "$T/btrfs/nb/his/ping" &&
			[ "$(stat -c %i "$T/btrfs/nb/his/ping")" = "$(stat -c %i "$T/btrfs/nb/sub/ping")" ]; then
			in_net "$CA" --suggest --user=nobody --output="$T/rep" -- \
				sh -c '"$0"; r=$?; cd "${0%/sub/ping}" && mv sub old && mv his sub; exit $r' \
				"$T/btrfs/nb/sub/ping" >/dev/null 2>"$T/err"
			[ "$(stat -c %U "$T/btrfs/nb/sub/ping")" = nobody ] ||
				fail "btrfs, nobody's subvolume: not swapped in"
			if setcap_lines "$T/rep"; then
				cat "$T/rep"
				fail "btrfs, nobody's subvolume in ping's place: a setcap line for his file"
			else
				pass
			fi
			expect_line "$T/rep" "# setcap: $T/btrfs/nb/sub/ping: not the file the command ran (on this file system its device and inode numbers may be another file's, and it is in a directory others than root may change): no line for cap_net_raw" \
				"btrfs, nobody's subvolume in ping's place: why no setcap line"
		else
			echo "note: nobody cannot make a btrfs subvolume here: the swap of subvolumes not tried"
		fi
	fi
fi

# 8. A command that changes what it works on: nobody may not chown a
#    root's file to himself; the first trial, granted cap_chown, does.
cp /usr/bin/chown "$T/bin/chown-copy" && chmod 755 "$T/bin/chown-copy"
for how in "" "timeout 20"; do
	: >"$T/w/other" && chown root:root "$T/w/other"
	"$CA" --suggest --user=nobody --output="$T/rep" -- $how "$T/bin/chown-copy" nobody "$T/w/other" \
		>/dev/null 2>&1
	[ $? -eq 1 ] || fail "chown of root's file as nobody${how:+ under $how}: not its exit status 1"
	if grep -q "nothing to grant" "$T/rep" || grep -q "least grant, proven" "$T/rep"; then
		cat "$T/rep"
		fail "chown of root's file${how:+ under $how}: a proof from a changed file"
	else
		pass
	fi
	expect_line "$T/rep" "# capaudit --suggest: NOT PROVEN (the command changes what it works on: " \
		"chown of root's file${how:+ under $how}: said unproven"
	expect_line "$T/rep" "# held apart: cap_chown: root-equivalent and not proven needed" \
		"chown of root's file${how:+ under $how}: cap_chown held apart"
	setcap_lines "$T/rep" >/dev/null && { cat "$T/rep"; fail "chown of root's file${how:+ under $how}: a setcap line"; }
done
: >"$T/w/other" && chown root:root "$T/w/other"
"$CA" --suggest --json --user=nobody --output="$T/rep" -- "$T/bin/chown-copy" nobody "$T/w/other" \
	>/dev/null 2>&1
if ! command -v python3 >/dev/null; then
	echo "note: no python3: the --json of a command that changes its file not read"
elif python3 - "$T/rep" <<'PY'; then pass; else cat "$T/rep"; fail "chown of root's file: --json does not say it"; fi
import json, sys
s = [r for r in map(json.loads, open(sys.argv[1])) if r["type"] == "suggest"]
assert len(s) == 1, s
s = s[0]
assert not s["proven"] and s["unproven"].startswith("the command changes what it works on: "), s
assert s["capabilities"] == [] and s["setcap"] == "", s
assert [c["name"] for c in s["held_apart"]] == ["cap_chown"], s
f = s["files"]
assert len(f) == 1 and not f[0]["proven"] and f[0]["capabilities"] == [] and f[0]["setcap"] == "", f
assert f[0]["held_apart"] == [{"name": "cap_chown", "risk": "root-equivalent"}], f
assert s["containers"] == [], s
PY
finish "capaudit --suggest: ping, a capture tool, chown, port 80 behind wrappers, unshare -Urn, hostile names, stacked file systems, a command that changes its file"
