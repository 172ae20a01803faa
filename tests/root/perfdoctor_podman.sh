#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# perfdoctor and the kernel agree in real containers. Debian's podman runs,
# with runc, an image imported from files made here (no registry): a
# static CPU-wide perf probe (/probe), perfdoctor with the libraries it
# links, and a perf with cap_perfmon=ep (/usr/bin/perf, the probe again: a
# stand-in, since Debian's perf needs dozens of libraries and proves
# nothing more here). In each configuration one container runs each of the
# two (the kernel's answer), then perfdoctor on it, and stays up while
# perfdoctor --pid judges its process, for each, from the host. The three
# answers must agree, and each refusal must name its blocker:
#   no capabilities; CAP_PERFMON under the runtime's default seccomp
#   profile; the podman flags perfdoctor prints there, pasted (CAP_PERFMON
#   under the profile perfdoctor --seccomp-profile prints);
#   our profile without CAP_PERFMON; CAP_SYS_ADMIN; CAP_PERFMON with no
#   seccomp filter (seccomp=unconfined); a user that is not
#   root with cap_perfmon in its bounding set only (as Docker and
#   Kubernetes give an added capability to such a user), running the
#   file-capability perf, with and without no-new-privileges; that user
#   with --cap-add=PERFMON (podman makes it ambient); root of a user
#   namespace of its own with CAP_PERFMON; and the Kubernetes pod of
#   docs/containers.md, whose securityContext and annotation must be what
#   perfdoctor prints, played by "podman play kube", as written and
#   without its seccomp annotation (podman 4.3 reads no other). The blocks
#   of docs/containers.md marked
#   "<!-- podman: NAME -->" run here too, as written, and its docker lines
#   must be podman lines run here with "docker" for "podman".
#
# podman runs in tests/tools/podman_world.sh's world: a store,
# configuration, cgroup parent and mount namespace of its own, removed on
# every exit; at the end the suite checks that the store is empty and no
# mount, process, network namespace or cgroup of the run is left.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init

paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null || echo x)
case $paranoid in
-*|0|x) skip "perf_event_paranoid is '$paranoid'; CPU-wide events need no capability here" ;;
esac
[ "$(cat /proc/sys/kernel/cap_last_cap)" -ge 38 ] || skip "this kernel predates CAP_PERFMON"
default_profile=/usr/share/containers/seccomp.json
[ -r "$default_profile" ] ||
	skip "no $default_profile: the runtime's default seccomp profile (golang-github-containers-common)"
[ -x "$BIN/perfprobe-static" ] || { fail "perfprobe-static is not built"; finish; }
doctor=$BUILD/progs/perfdoctor
DOC=$TOP/docs/containers.md

. "$TESTS_DIR/tools/podman_world.sh"
mkdir -p "$T/out" "$T/nopam" "$T/work"
: >"$T/empty.conf"

# --- the image ----------------------------------------------------------------
img=$S/img
mkdir -p "$img/usr/bin" "$img/etc" "$img/out" &&
	cp "$BIN/perfprobe-static" "$img/probe" &&
	cp "$BIN/perfprobe-static" "$img/usr/bin/perf" &&
	"$BUILD/progs/setcap" cap_perfmon=ep "$img/usr/bin/perf" &&
	podman_image_add "$doctor" /usr/bin/perfdoctor &&
	podman_image_add "$(readlink -f /bin/sh)" /bin/sh &&
	podman_image_add "$(readlink -f "$(command -v sleep)")" /bin/sleep ||
	{ fail "cannot build the image's tree"; finish; }
printf 'root:x:0:0:root:/:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/sh\n' >"$img/etc/passwd"
printf 'root:x:0:\nnogroup:x:65534:\n' >"$img/etc/group"
podman_image -c 'ENV PATH=/usr/bin:/bin' \
	-c 'CMD ["/bin/sh", "-c", "trap \"exit 0\" TERM; /bin/sleep 300 & wait"]' &&
	pm tag "$PODMAN_IMAGE" localhost/profiling:latest ||
	{ fail "podman import failed"; finish; }

# --- our seccomp profile --------------------------------------------------------
# What perfdoctor prints: the runtime's default profile with
# perf_event_open() also allowed to CAP_PERFMON.
profile=$T/work/perfmon.json
"$doctor" --seccomp-profile >"$profile" 2>"$T/profile.err" ||
	{ fail "perfdoctor --seccomp-profile: $(cat "$T/profile.err")"; finish; }

# --- the configurations -----------------------------------------------------------
# start NAME [PODMAN_RUN_OPTION...]: a container pd-NAME that runs each
# probe, /probe (as an image ships perf: no file capabilities) and
# /usr/bin/perf (cap_perfmon=ep), then perfdoctor on it, then sleeps;
# $T/out/NAME gets BIN.probe, BIN.probe.rc, BIN.in and BIN.in.rc for each
# (BIN: probe, perf), then "done".
inner='trap "exit 0" TERM
for p in /probe /usr/bin/perf; do
	b=${p##*/}; "$p" >/out/$b.probe 2>&1; echo $? >/out/$b.probe.rc
	/usr/bin/perfdoctor "$p" >/out/$b.in 2>&1; echo $? >/out/$b.in.rc
done; : >/out/done; /bin/sleep 300 & wait'
# Started side by side; a start that failed leaves NAME.failed.
start() {
	n=$1
	shift
	mkdir "$T/out/$n" && chmod 0777 "$T/out/$n"
	pm run -d --name "pd-$n" --network none --ulimit host --cgroup-parent="$cgparent" \
		-v "$T/out/$n:/out" "$@" "$PODMAN_IMAGE" /bin/sh -c "$inner" \
		>/dev/null 2>"$T/out/$n.err" || : >"$T/out/$n.failed"
}

bg_start() { start "$@" & spids="$spids $!"; }
ours=seccomp=$profile
spids=
names="none perfmon-default perfmon-ours ours-only sysadmin unconfined user user-nnp user-capadd userns"
bg_start none --cap-drop=ALL
bg_start perfmon-default --cap-add=PERFMON
bg_start ours-only --security-opt "$ours"
bg_start sysadmin --cap-add=SYS_ADMIN
bg_start unconfined --cap-add=PERFMON --security-opt seccomp=unconfined
PODMAN_CONF=$S/etc/bounding.conf bg_start user --user=65534:65534 --security-opt "$ours"
PODMAN_CONF=$S/etc/bounding.conf bg_start user-nnp --user=65534:65534 --security-opt "$ours" \
	--security-opt no-new-privileges
bg_start user-capadd --user=65534:65534 --cap-add=PERFMON --security-opt "$ours"
bg_start userns --uidmap=0:200000:65536 --gidmap=0:200000:65536 --cap-add=PERFMON \
	--security-opt "$ours"

# play NAME [DROP]: the pod of docs/containers.md as pd-NAME, with its
# container's command and a volume for the results, the securityContext
# and annotations as written (but for lines holding DROP).
mkdir -p "$T/work/seccomp" && cp "$profile" "$T/work/seccomp/perfmon.json"
awk '/^<!-- podman: kube -->$/ { m = 1; next } m && /^```yaml$/ { y = 1; next }
	y && /^```$/ { exit } y' "$DOC" >"$T/work/doc-pod.yaml"
[ -s "$T/work/doc-pod.yaml" ] || fail "docs/containers.md: no pod marked <!-- podman: kube -->"
kube_ctr=$(sed -n 's/^  - name: *//p' "$T/work/doc-pod.yaml" | head -1)
play() {
	n=$1
	mkdir "$T/out/$n" && chmod 0777 "$T/out/$n"
	# JSON is YAML: the command and the volume go in as flow lists.
	python3 - "$T/work/doc-pod.yaml" "$T/work/$n.yaml" "$T/out/$n" "$inner" "pd-$n" "${2:-}" "$PODMAN_IMAGE" <<'EOF' ||
import json, re, sys
src, dst, outdir, inner, name, drop, image = sys.argv[1:]
out, done = [], set()
for line in open(src):
    if drop and drop in line:
        done.add("drop")
        continue
    m = re.match(r"( *)command:", line)
    if m:
        ind = m.group(1)
        out.append(f"{ind}command: {json.dumps(['/bin/sh', '-c', inner])}\n")
        out.append(f'{ind}volumeMounts: [{{"name": "out", "mountPath": "/out"}}]\n')
        done.add("command")
        continue
    m = re.match(r"( *)image:", line)
    if m:
        out.append(f"{m.group(1)}image: {image}\n")
        done.add("image")
        continue
    if re.match(r"  name:", line) and "name" not in done:
        out.append(f"  name: {name}\n")
        done.add("name")
        continue
    if re.match(r"  restartPolicy:", line):
        continue
    out.append(line)
    if line.rstrip() == "spec:":
        vol = {"name": "out", "hostPath": {"path": outdir, "type": "Directory"}}
        out.append(f"  volumes: [{json.dumps(vol)}]\n  restartPolicy: Never\n")
        done.add("spec")
want = {"name", "command", "image", "spec"} | ({"drop"} if drop else set())
if done != want:
    sys.exit(f"no {sorted(want - done)} in the pod")
open(dst, "w").writelines(out)
EOF
		{ fail "$n: cannot make the pod from docs/containers.md's"; return 1; }
	names="$names $n"
	pm play kube --network none --seccomp-profile-root "$T/work/seccomp" "$T/work/$n.yaml" \
		>"$T/out/$n.play" 2>"$T/out/$n.err" || fail "$n: podman play kube: $(cat "$T/out/$n.err")"
	pods_of "$T/out/$n.play"
}
play kube
# podman 4.3 reads the seccomp profile from the annotation only, not from
# securityContext.seccompProfile (the doc's pod carries both, and says
# why): without it, the runtime's default profile refuses.
play kube-field seccomp.security.alpha.kubernetes.io/
# perfmon-ours: the flags perfdoctor printed in perfmon-default, pasted as
# a shell reads them (plain words only: this shell is root's), with the
# profile it printed as perfmon.json.
i=0
while [ ! -e "$T/out/perfmon-default/done" ] && [ $i -lt 300 ]; do
	sleep 0.1; i=$((i + 1))
done
podman_fix=$(pasted_line "$T/out/perfmon-default/perf.in" "fix:       podman or docker run: ")
podman_fix=${podman_fix%%, not *}
case $podman_fix in
*[!A-Za-z0-9=._/\ -]*) fail "perfdoctor's podman fix is not plain words: $podman_fix"; podman_fix= ;;
*--privileged*|*SYS_ADMIN*|*unconfined*) fail "perfdoctor's podman fix grants more: $podman_fix" ;;
--*) pass ;;
*) fail "perfmon-default: perfdoctor printed no podman fix: $(grep '^fix:' "$T/out/perfmon-default/perf.in")" ;;
esac
# The pod of docs/containers.md holds, as they are, the securityContext
# and the annotation perfdoctor printed there.
python3 - "$T/out/perfmon-default/perf.in" "$T/work/doc-pod.yaml" >"$T/kube-fix.err" 2>&1 <<'EOF' &&
import sys
def braced(text, after):
    i = text.find(after)
    if i < 0:
        sys.exit(f"perfdoctor printed no '{after}'")
    i += len(after)
    depth = 0
    for j in range(i, len(text)):
        depth += {"{": 1, "}": -1}.get(text[j], 0)
        if depth == 0:
            return text[i:j + 1]
    sys.exit(f"an unbalanced '{after}'")
report = open(sys.argv[1]).read()
pod = open(sys.argv[2]).read().splitlines()
for key, after, ind in (("securityContext", "the container's securityContext: ", "    "),
                        ("annotations", "its metadata also needs annotations: ", "  ")):
    want = f"{ind}{key}: {braced(report, after)}"
    if want not in pod:
        sys.exit(f"docs/containers.md's pod has no line '{want}'")
EOF
	pass || fail "$(cat "$T/kube-fix.err")"
eval "set -- $podman_fix"
(cd "$T/work" && start perfmon-ours "$@") &
spids="$spids $!"
wait $spids
for n in $names; do
	[ ! -e "$T/out/$n.failed" ] || fail "$n: podman run: $(cat "$T/out/$n.err")"
done

# --- the answers ------------------------------------------------------------------
# Every container has finished its inside part (or stopped).
i=0
for n in $names; do
	while [ ! -e "$T/out/$n/done" ] && [ $i -lt 600 ]; do
		sleep 0.1; i=$((i + 1))
	done
done
ctr() { case $1 in kube*) echo "pd-$1-$kube_ctr" ;; *) echo "pd-$1" ;; esac; }
pm inspect -f '{{.Name}} {{.State.Pid}}' $(for n in $names; do ctr "$n"; done) \
	>"$T/pids" 2>"$T/pids.err" || fail "podman inspect: $(cat "$T/pids.err")"
# From the host, the containers side by side; one process's two runs one
# after the other (perfdoctor --pid traces it to read its filter, and a
# process has one tracer: the second would say UNKNOWN).
hpids=
for n in $names; do
	pid=$(awk -v c="$(ctr "$n")" '$1 == c { print $2 }' "$T/pids")
	[ -n "$pid" ] && [ "$pid" -gt 0 ] || { fail "$n: no process to judge from the host"; continue; }
	for p in /probe /usr/bin/perf; do
		b=${p##*/}
		run_ours "$doctor" --pam-dir="$T/nopam" --config="$T/empty.conf" --pid="$pid" "$p" \
			>"$T/out/$n/$b.host" 2>&1
		echo $? >"$T/out/$n/$b.host.rc"
	done &
	hpids="$hpids $!"
done
wait $hpids

# --- the configurations' answers, checked ------------------------------------
# What each configuration must give, for each binary (probe: no file
# capabilities; perf: cap_perfmon=ep): the kernel's answer (ok, an errno
# name, or exec: the binary could not even be executed), and the
# blockers both verdicts must name (ok: none; its verdicts say YES).
# host=securebits: uid 0 with a binary without file capabilities, which
# perfdoctor --pid cannot judge from the host (another process's
# securebits are in no /proc file): it must say UNKNOWN for that reason,
# never YES or NO.
#
#  NAME            BIN    KERNEL  HOST        BLOCKERS
expected() {
	cat <<'TABLE'
none             probe  EPERM   same        bounding seccomp
none             perf   exec    same        bounding seccomp
perfmon-default  probe  EPERM   same        seccomp
perfmon-default  perf   EPERM   same        seccomp
perfmon-ours     probe  ok      securebits  -
perfmon-ours     perf   ok      same        -
ours-only        probe  EPERM   same        bounding seccomp
ours-only        perf   exec    same        bounding seccomp
sysadmin         probe  ok      securebits  -
sysadmin         perf   exec    same        bounding
unconfined       probe  ok      securebits  -
unconfined       perf   ok      same        -
user             probe  EACCES  same        nofilecap
user             perf   ok      same        -
user-nnp         probe  EACCES  same        nofilecap
user-nnp         perf   EACCES  same        nnp
userns           probe  EACCES  same        userns
userns           perf   EACCES  same        userns
user-capadd      probe  ok      same        -
user-capadd      perf   ok      same        -
kube             probe  ok      securebits  -
kube             perf   ok      same        -
kube-field       probe  EPERM   same        seccomp
kube-field       perf   EPERM   same        seccomp
TABLE
}
# The words that name each blocker in a verdict: or also: line.
blocker_text() {
	case $1 in
	seccomp) echo "seccomp filter refuses perf_event_open()" ;;
	bounding) echo "bounding set lacks cap_perfmon" ;;
	nnp) echo "has no_new_privs set, so exec grants no file capabilities" ;;
	userns) echo "is in a user namespace" ;;
	nofilecap) echo "carries no cap_perfmon" ;;
	esac
}
# The kernel's answer, as the probe's output and status show it.
kernel_answer() {
	case "$(cat "$1.rc" 2>/dev/null):$(cat "$1" 2>/dev/null)" in
	"0:perf_event_open: ok") echo ok ;;
	"1:perf_event_open: "*"(errno 1)") echo EPERM ;;
	"1:perf_event_open: "*"(errno 13)") echo EACCES ;;
	"1:perf_event_open: "*"(errno 38)") echo ENOSYS ;;
	"126:"*"Operation not permitted") echo exec ;;
	*) echo "?: $(cat "$1.rc" "$1" 2>/dev/null | tr '\n' ' ')" ;;
	esac
}
# judged CASE REPORT WANT BLOCKERS: the report's status and verdict are
# WANT's (ok: YES, exit 0; else NO, exit 1), naming each blocker.
judged() {
	verdicts=$(grep -E '^(verdict|also):' "$2" 2>/dev/null)
	if [ "$3" = ok ]; then
		[ "$(cat "$2.rc" 2>/dev/null)" = 0 ] && case $verdicts in "verdict:   YES: "*) true ;; *) false ;; esac
	else
		[ "$(cat "$2.rc" 2>/dev/null)" = 1 ] && case $verdicts in "verdict:   NO: "*) true ;; *) false ;; esac
	fi || { fail "$1: exit $(cat "$2.rc" 2>/dev/null), want the kernel's $3: $verdicts"; return; }
	for k in $4; do
		[ "$k" = - ] && continue
		case $verdicts in
		*"$(blocker_text "$k")"*) pass ;;
		*) fail "$1: names no $k blocker ($(blocker_text "$k")): $verdicts" ;;
		esac
	done
}
expected >"$T/expected"
while read -r n b kernel host blockers; do
	case " $names " in *" $n "*) ;; *) echo "$n" >>"$T/missing"; continue ;; esac
	got=$(kernel_answer "$T/out/$n/$b.probe")
	if [ "$got" = "$kernel" ]; then pass; else
		fail "$n: the kernel's answer to $b is $got, want $kernel"
	fi
	judged "$n: perfdoctor $b inside" "$T/out/$n/$b.in" "$kernel" "$blockers"
	if [ "$host" = securebits ]; then
		[ "$(cat "$T/out/$n/$b.host.rc")" = 3 ] &&
			grep -q '^verdict:   UNKNOWN: process [0-9]* is uid 0, and whether exec gives it root.s capabilities depends on its securebits' \
				"$T/out/$n/$b.host" && pass ||
			fail "$n: perfdoctor --pid $b: $(grep -E '^(verdict|also):' "$T/out/$n/$b.host")"
	else
		judged "$n: perfdoctor --pid $b from the host" "$T/out/$n/$b.host" "$kernel" "$blockers"
	fi
done <"$T/expected"
# docs/containers.md's table of the configurations is this one: a row
# for each, "| what | probe | perf |", each binary's cell the kernel's
# answer and the blockers perfdoctor names.
label() {
	case $1 in
	none) echo '`--cap-drop=ALL`' ;;
	perfmon-default) echo '`--cap-add=PERFMON`' ;;
	perfmon-ours) echo '`--cap-add=PERFMON`, our profile' ;;
	ours-only) echo 'our profile, no `CAP_PERFMON`' ;;
	sysadmin) echo '`--cap-add=SYS_ADMIN`' ;;
	unconfined) echo '`--cap-add=PERFMON`, `seccomp=unconfined`' ;;
	user) echo 'a user, `CAP_PERFMON` in its bounding set only, our profile' ;;
	user-nnp) echo 'the same with `no-new-privileges`' ;;
	user-capadd) echo 'a user, `--cap-add=PERFMON`, our profile' ;;
	userns) echo '`--uidmap=0:200000:65536`, `--cap-add=PERFMON`, our profile' ;;
	kube) echo 'the pod below' ;;
	kube-field) echo 'the pod below without its annotation' ;;
	esac
}
answer_text() {
	case $1 in
	ok) echo works ;;
	exec) echo 'not executed (EPERM)' ;;
	*) echo "$1" ;;
	esac
}
blocker_words() {
	case $1 in
	seccomp) echo 'seccomp filter' ;;
	bounding) echo 'bounding set' ;;
	nnp) echo 'no_new_privs' ;;
	userns) echo 'user namespace' ;;
	nofilecap) echo 'no file capabilities' ;;
	esac
}
while read -r n b kernel host blockers; do
	words=
	for k in $blockers; do
		[ "$k" = - ] && continue
		words="${words:+$words, }$(blocker_words "$k")"
	done
	cell="$(answer_text "$kernel")${words:+: $words}"
	[ "$host" = securebits ] && cell="$cell (from the host: unknown)"
	if [ "$b" = probe ]; then
		k1=$cell
	else
		echo "| $(label "$n") | $k1 | $cell |"
	fi
done <"$T/expected" >"$T/doc-table.want"
grep '^| ' "$DOC" | grep -vF -e '| configuration |' -e '|---' >"$T/doc-table.got"
same "$T/doc-table.want" "$T/doc-table.got" "docs/containers.md's table of configurations"
# A sanitized perfdoctor inside reports on its stderr (the container has
# none of run.sh's log paths): no report in any of them.
if grep -lE '^==[0-9]+==(ERROR|WARNING): |runtime error: |^SUMMARY: [A-Za-z]+Sanitizer' \
	"$T"/out/*/*.in >"$T/san.left"; then
	fail "sanitizer reports inside: $(cat "$T/san.left")"
else
	pass
fi
[ ! -s "$T/missing" ] || fail "configurations not started: $(tr '\n' ' ' <"$T/missing")"

# --- docs/containers.md ----------------------------------------------------------
# Its blocks marked "<!-- podman: NAME -->": $T/doc/NAME holds the lines
# (a line ending in "\" joined to the next), NAME.lang the fence's
# language, and NAME.text a "text" block that follows it: lines its output
# must hold.
mkdir -p "$T/doc" "$T/docrun"
awk -v d="$T/doc" '
	/^<!-- podman: [a-z-]+ -->$/ { name = $3; next }
	name != "" && /^```[a-z]+$/ { f = d "/" name; lang = substr($0, 4)
		print lang >(f ".lang"); printf "" >f; inb = 1; next }
	inb && /^```$/ { inb = 0; last = name; name = ""; next }
	inb { if (join != "") { $0 = join $0; join = "" }
		if (/\\$/) { join = substr($0, 1, length($0) - 1); next }
		print >f; next }
	last != "" && /^```text$/ { t = d "/" last ".text"; printf "" >t; intext = 1; next }
	intext && /^```$/ { intext = 0; last = ""; next }
	intext { print >t; next }
	/^[^ \t]/ { last = "" }
' "$DOC"
for b in diagnose diagnose-host profile run run-user docker kube kube-play systemd; do
	[ -s "$T/doc/$b" ] || fail "docs/containers.md: no block marked <!-- podman: $b -->"
done
for f in "$T"/doc/*.lang; do
	b=$(basename "$f" .lang)
	case $b in
	diagnose|diagnose-host|profile|run|run-user|docker|kube-play) want=sh ;;
	kube) want=yaml ;;
	systemd) want=ini ;;
	*) fail "docs/containers.md: a block marked $b, which this suite does not know"; continue ;;
	esac
	[ "$(cat "$f")" = "$want" ] || fail "docs/containers.md: block $b is $(cat "$f"), not $want"
done

# doc_run BLOCK: each line of it, in order, as a root shell would run it,
# in the mount namespace podman runs in (a write to /var lands in $T),
# in $T/docrun, with podman and our programs first on PATH; each line's
# status must be doc_rc's, and its output goes to $T/docrun/BLOCK.out.
# The host's PAM stacks and capability.conf are not perfdoctor's there.
doc_rc() {
	case $1 in
	diagnose:1|diagnose-host:2) echo 1 ;;
	*) echo 0 ;;
	esac
}
doc_run() {
	i=0
	: >"$T/docrun/$1.out"
	while IFS= read -r line; do
		i=$((i + 1))
		(cd "$T/docrun" && PATH="$T/bin:$BUILD/progs:$PATH" in_podman_ns \
			sh -c "$line" >>"$T/docrun/$1.out" 2>&1 </dev/null)
		rc=$?
		if [ "$rc" = "$(doc_rc "$1:$i")" ]; then pass; else
			fail "docs/containers.md, $1: '$line' exited $rc: $(tail -n 5 "$T/docrun/$1.out")"
		fi
	done <"$T/doc/$1"
	[ ! -s "$T/doc/$1.text" ] || while IFS= read -r want; do
		grep -qxF -- "$want" "$T/docrun/$1.out" && pass ||
			fail "docs/containers.md, $1: no line '$want' in what it printed: $(cat "$T/docrun/$1.out")"
	done <"$T/doc/$1.text"
}
doc_run diagnose
doc_run diagnose-host
doc_run profile
same "$profile" "$T/docrun/perfmon.json" "docs/containers.md, profile: perfmon.json"
doc_run run
doc_run run-user
cp "$T/doc/kube" "$T/docrun/profiling.yaml"
doc_run kube-play
pods_of "$T/docrun/kube-play.out"
for b in run run-user kube-play; do
	expect_line "$T/docrun/$b.out" "perf_event_open: ok" "docs/containers.md, $b: the kernel's answer"
done
# The docker lines: each is a podman line run above, with docker for podman.
while IFS= read -r line; do
	case $line in docker\ *) ;; *) fail "docs/containers.md, docker: not a docker line: $line"; continue ;; esac
	as_podman="podman ${line#docker }"
	if cat "$T/doc/run" "$T/doc/run-user" | grep -qxF -- "$as_podman"; then pass; else
		fail "docs/containers.md, docker: no podman line run here is '$as_podman'"
	fi
done <"$T/doc/docker"

# The systemd lines: the user and sets they ask for, given with setpriv
# (no systemd here); every other directive is one this suite cannot prove.
user= amb= bnd= nnp=
while IFS= read -r line; do
	case $line in
	"[Service]") ;;
	User=*) user=${line#User=} ;;
	AmbientCapabilities=CAP_PERFMON) amb=+perfmon ;;
	CapabilityBoundingSet=CAP_PERFMON) bnd=-all,+perfmon ;;
	NoNewPrivileges=yes) nnp=--no-new-privs ;;
	*) fail "docs/containers.md, systemd: a line this suite cannot run: $line" ;;
	esac
done <"$T/doc/systemd"
uid=$(id -u "$user" 2>/dev/null) && gid=$(id -g "$user") ||
	fail "docs/containers.md, systemd: no user '$user' here"
if [ -n "$amb" ] && [ -n "$bnd" ] && [ -n "${uid:-}" ]; then
	# The service's process is what setpriv makes once it has executed a
	# program (sh): setpriv itself still holds root's permitted set at its
	# own exec, which no_new_privs would let a file capability keep.
	# Without the ambient line, a perf with cap_perfmon=ep gains nothing
	# under no_new_privs: perfdoctor must say so, and its fix must be the
	# doc's line.
	chmod 0711 "$T" && mkdir -m 0755 "$T/pub" && cp "$BIN/perfprobe" "$T/pub/perf" &&
		"$BUILD/progs/setcap" cap_perfmon=ep "$T/pub/perf" || fail "cannot make $T/pub/perf"
	before="--reuid=$uid --regid=$gid --clear-groups --inh-caps=-all --bounding-set=$bnd $nnp"
	# shellcheck disable=SC2086 # option lists
	setpriv $before sh -c 'exec "$0"' "$T/pub/perf" >"$T/svc0.probe" 2>&1
	echo $? >"$T/svc0.probe.rc"
	want=ok
	[ -n "$nnp" ] && want=EACCES
	[ "$(kernel_answer "$T/svc0.probe")" = $want ] && pass ||
		fail "docs/containers.md, systemd without its ambient line: the kernel's answer is $(kernel_answer "$T/svc0.probe"), want $want"
	# shellcheck disable=SC2086
	setpriv $before sh -c 'exec "$0" "$@"' "$doctor" --pam-dir="$T/nopam" --config="$T/empty.conf" "$T/pub/perf" \
		>"$T/svc0.in" 2>&1
	echo $? >"$T/svc0.in.rc"
	if [ -n "$nnp" ]; then
		judged "docs/containers.md, systemd without its ambient line: perfdoctor" "$T/svc0.in" EACCES nnp
		fix=$(pasted_line "$T/svc0.in" "fix:       a systemd service: ")
		fix=${fix%% in its unit*}
		grep -qxF -- "$fix" "$T/doc/systemd" && pass ||
			fail "docs/containers.md, systemd: perfdoctor's fix '$fix' is not a line of the unit"
	fi
	svc="--reuid=$uid --regid=$gid --clear-groups --inh-caps=-all,$amb --ambient-caps=-all,$amb --bounding-set=$bnd $nnp"
	# shellcheck disable=SC2086 # option lists
	svc() { setpriv $svc sh -c 'exec "$0" "$@"' "$@"; }
	svc "$BIN/perfprobe" >"$T/svc.probe" 2>&1
	echo $? >"$T/svc.probe.rc"
	[ "$(kernel_answer "$T/svc.probe")" = ok ] && pass ||
		fail "docs/containers.md, systemd: the kernel refuses: $(cat "$T/svc.probe")"
	svc "$doctor" --pam-dir="$T/nopam" --config="$T/empty.conf" "$BIN/perfprobe" >"$T/svc.in" 2>&1
	echo $? >"$T/svc.in.rc"
	judged "docs/containers.md, systemd: perfdoctor in the service" "$T/svc.in" ok -
	# shellcheck disable=SC2086
	setpriv $svc sh -c 'exec sleep 60' &
	svc_pid=$!
	at_exit 'kill $svc_pid 2>/dev/null'
	i=0
	while [ "$(readlink "/proc/$svc_pid/exe")" != "$(readlink -f "$(command -v sleep)")" ] &&
		[ $i -lt 100 ]; do
		sleep 0.05; i=$((i + 1))
	done
	run_ours "$doctor" --pam-dir="$T/nopam" --config="$T/empty.conf" --pid=$svc_pid \
		"$BIN/perfprobe" >"$T/svc.host" 2>&1
	echo $? >"$T/svc.host.rc"
	kill $svc_pid
	judged "docs/containers.md, systemd: perfdoctor --pid of the service" "$T/svc.host" ok -
else
	fail "docs/containers.md, systemd: no User=, AmbientCapabilities=CAP_PERFMON and CapabilityBoundingSet=CAP_PERFMON"
fi

# --- nothing left behind ---------------------------------------------------------
pm inspect -f '{{.State.ConmonPid}} {{.State.Pid}}' $(for n in $names; do ctr "$n"; done) \
	>"$T/procs" 2>/dev/null
[ "$(wc -l <"$T/pods")" = 3 ] && pass || fail "pods played: $(cat "$T/pods"), want 3"
podman_left_nothing "$(cat "$T/procs")"

finish "$(echo $names | wc -w) configurations: the kernel, perfdoctor inside and perfdoctor --pid agree; docs/containers.md run"
