#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# capaudit --suggest's trials on the real kernel, as an attacker would
# like them to go:
#   --user=root, or another name for uid 0: the trials ran with every
#     capability root has, so the copy without cap_net_bind_service
#     "succeeded" and the grant was proven empty; they run under
#     SECBIT_NOROOT like the trials without --user, and prove it.
#   a daemon started by a trial kept the trial's grant (and the capable
#     copy, in the trial's mount namespace) after capaudit ended; a trial
#     now runs in a PID namespace of its own, which ends with it (and
#     with capaudit: capaudit_lifetime.sh), and says how many processes
#     it ended; the command's /proc/PID is its own, it ends as it did
#     (an exit status, or a signal), and a command that acts on a process
#     outside the trial (kill -0 of one) is said to be unproven for that
#     reason, not for "what it lacks is not among" the candidates.
#   a script of nobody's (or in a directory nobody may change) run by a
#     root-owned interpreter: the trials granted the interpreter what
#     the script asked for, cap_setuid, and the script became root and
#     made a file; the trials now run no script someone other than root
#     decides, and say so (a root's script in root's directories is
#     still proven).
#   a root's shell sourcing a file of nobody's (sh -c '. ~nobody/rc;
#     exec PROG'): his redirect of a file only root may read made the
#     shell a candidate for cap_dac_override and cap_dac_read_search,
#     and the run with every candidate granted ran his file holding both
#     (then "proved" cap_dac_read_search needed on the shell); no trial
#     as a user other than root now gives an interpreter a
#     root-equivalent capability, and the grant is unproven, said why.
#   a server the grant lets start (the first run, refused its port,
#     ended at once) held capaudit for ever, its output in /dev/null,
#     and SIGTERM to capaudit did not end the trial as documented; a
#     trial now ends at --trial-timeout, or at SIGTERM, every process of
#     it, and the grant is unproven.
#   root's TMPDIR reached the user's command, which was refused its
#     directory; a copy with any file capability ignores TMPDIR (the C
#     library's secure mode), one without does not, so mktemp was
#     "proven" to need the root-equivalent cap_dac_read_search. The
#     user's environment keeps none of root's places, nor what a
#     capable program's C library ignores.
#   a library of nobody's, loaded by a root's program (dlopen, and so a
#     RUNPATH or a loader): its code ran as root in the first trial;
#     the trials now refuse a file whose libraries someone other than
#     root may change, and the suggestion warns of them.
#   a program, or a script, nobody wrote, shown as root's 0555 by bindfs
#     (FUSE: owner and mode are what its daemon says): the trials ran it
#     with the cap_setuid it asked for, and nobody's code made a file as
#     root; now refused, naming FUSE.
#   on overlayfs over two file systems the kernel's numbers for the file
#     it ran are not stat(2)'s, and may be another file's: a file there
#     in a directory others may change is refused, and said why.
#   a root's program in a directory nobody may change: nobody renamed the
#     directory under the trial's bind and put his own file at the path,
#     which the trial ran: cap_setuid was "proven" needed; now no file
#     is tried whose path someone other than root may point elsewhere.
#   a process of nobody's killed the run with every candidate granted
#     (kill(2) needs no privilege over one's own user's processes): every
#     trial "failed", and ping's cap_setuid and cap_setpcap were proven;
#     now a signal from outside a trial, counted in the kernel, leaves
#     the grant unproven; and so does one sent otherwise than by kill(2)
#     (a queued signal with any si_code, a pipe's owner signalled when
#     written to, a signal whose siginfo found no room), which the
#     kernel's count took for the kernel's own or for not delivered.
#   who may change a file the trials run, or that a pasted line grants,
#     was judged by its mode bits: the reason for root's command or
#     library with an ACL entry letting nobody write it did not name
#     the entry, and no warning next to the command's setcap line said
#     it; and a sticky directory everyone may write was trusted as the
#     one holding the command, where the user nobody may move a file of
#     root's from a directory of his in under any free name (a rename
#     needs no permission on the file itself): the trial was made, and
#     the grant "proven". Judged now as common/path_trust.h judges (a
#     sticky directory above root's directory holding the file is still
#     fine: nobody cannot rename root's directory in it).
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
# nobody and a second name for uid 0, in our mount namespace alone.
private_etc "$@"
init
CA=$BUILD/progs/capaudit probe=$BIN/capaudit_probe ping=$BIN/capaudit_ping
hostile=$BIN/capaudit_hostile py=/usr/bin/python3
[ -x "$CA" ] && [ -x "$probe" ] && [ -x "$ping" ] && [ -x "$hostile" ] ||
	{ fail "capaudit, capaudit_probe, capaudit_ping or capaudit_hostile not built"; finish; }
[ -x "$py" ] || { fail "$py missing (tests/install-deps.sh installs it)"; finish; }
for c in unshare timeout pgrep pkill; do
	command -v "$c" >/dev/null || skip "$c is not installed"
done
at_exit_checked tracefs_restore
tracefs_mount || { fail "cannot mount tracefs in our mount namespace"; finish; }
"$CA" --check >"$T/out" 2>&1 || skip "capaudit cannot trace here: $(cat "$T/out")"
cp "$T/out" "$T/check"
grep -q "tracepoint capability:cap_capable" "$T/out" ||
	skip "no capability:cap_capable tracepoint (Linux 6.14+): $(cat "$T/out")"
chmod 755 "$T"
mkdir "$T/bin" "$T/w" && chmod 755 "$T/bin" && chmod 1777 "$T/w"
# CMD in a new network namespace with loopback up: port 80 is ours there.
in_net() { unshare -n sh -c '"$0" --lo-up && exec "$@"' "$ping" "$@"; }
# toor: another name for uid 0, as some systems keep one.
cp /etc/passwd "$T/passwd" && echo "toor:x:0:0:toor:/root:/bin/sh" >>"$T/passwd" &&
	chmod 644 "$T/passwd" && umount /etc/passwd && mount --bind "$T/passwd" /etc/passwd ||
	{ fail "a passwd with toor"; finish; }

nobody_uid=$(id -u nobody)
# What an ACL entry letting nobody write a file of root's is said to be.
acl_why="is writable by others than root (an ACL entry lets uid $nobody_uid write it)"

# 1. --user of uid 0: the trials hold no capability but the copy's.
cp "$probe" "$T/bin/bind80" && chmod 755 "$T/bin/bind80"
for who in root toor 0; do
	in_net "$CA" --suggest --user="$who" --output="$T/rep" -- "$T/bin/bind80" --bind80 \
		>/dev/null 2>"$T/err" || fail "--user=$who: bind80 failed: $(cat "$T/err")"
	name=$who
	[ "$who" = 0 ] && name=root
	expect_line "$T/rep" "proven by 4 runs as $name without root's capabilities (SECBIT_NOROOT)" \
		"--user=$who: trials under SECBIT_NOROOT"
	expect_line "$T/rep" "without cap_net_bind_service on $T/bin/bind80: exited with status 1: needed" \
		"--user=$who: cap_net_bind_service needed"
	if grep -qx "setcap cap_net_bind_service=ep $T/bin/bind80" "$T/rep"; then
		pass
	else
		cat "$T/rep"
		fail "--user=$who: the proven grant is not cap_net_bind_service"
	fi
done

# 2. A trial's daemon ends with the trial. The first run's (no grant,
#    not a trial) is the command's own business and outlives capaudit.
cp "$hostile" "$T/bin/hostile" && chmod 755 "$T/bin/hostile"
: >"$T/w/daemons" && chmod 666 "$T/w/daemons"
in_net "$CA" --suggest --user=nobody --output="$T/rep" -- "$T/bin/hostile" --daemon "$T/w/daemons" \
	>/dev/null 2>&1
expect_line "$T/rep" "without cap_net_bind_service on $T/bin/hostile: exited with status 1: needed" \
	"daemon: cap_net_bind_service needed"
expect_line "$T/rep" "# note: run 2 left " "daemon: the trial's leftovers said"
sleep 3
grep -qx "daemon 0000000000000000" "$T/w/daemons" ||
	fail "daemon: the first run's daemon did not report ($(cat "$T/w/daemons"))"
if grep -v -x "daemon 0000000000000000" "$T/w/daemons"; then
	fail "daemon: a trial's daemon outlived capaudit with its grant (above)"
else
	pass
fi

# 3. In a trial the command's /proc/PID is its own, and no process of
#    the machine's is there to signal: kill -0 of one nobody owns asks
#    for cap_kill in the command's own run, in no trial, and the grant is
#    unproven for that reason.
sleep 600 &
sleeper=$!
at_exit "kill $sleeper 2>/dev/null"
kill_path=$(realpath /bin/kill)
"$CA" --suggest --user=nobody --output="$T/rep" -- /bin/kill -0 "$sleeper" >/dev/null 2>&1
expect_line "$T/rep" "# capaudit --suggest: NOT PROVEN (run 2, with every candidate granted, did not ask for cap_kill on $kill_path, which the command's own run asked for: a trial runs in a PID namespace of its own, where no process outside it is there to signal, trace or renice)" \
	"kill: a process outside the trial, unproven"
in_net "$CA" --suggest --user=nobody --output="$T/rep" -- "$T/bin/hostile" --proc-self \
	>/dev/null 2>&1
expect_line "$T/rep" "#   run 2, every candidate granted: exited with status 0" "/proc/PID: run 2"
expect_line "$T/rep" "without cap_net_bind_service on $T/bin/hostile: exited with status 1: needed" \
	"/proc/PID: cap_net_bind_service needed"

# 4. A command killed by a signal: each trial ends as it did.
for sig in 10 11; do
	in_net "$CA" --suggest --user=nobody --output="$T/rep" -- "$T/bin/hostile" --signal "$sig" \
		>/dev/null 2>&1
	expect_line "$T/rep" "#   success: killed by signal $sig, as with every candidate granted" \
		"signal $sig: the reference"
	expect_line "$T/rep" "without cap_net_bind_service on $T/bin/hostile: exited with status 1: needed" \
		"signal $sig: cap_net_bind_service needed"
done

# 5. Scripts: the interpreter is root's, what it runs is the script's.
cp "$hostile" "$T/bin/interp" && chmod 755 "$T/bin/interp"
mkdir "$T/nb" && chown nobody "$T/nb" && chmod 755 "$T/nb"
mkdir "$T/open" && chmod 777 "$T/open"
# (nb/script is root's: nobody's directory alone decides what it says;
# bin/nobodys is nobody's, in root's directory.)
printf '#!%s\nescalate %s\n' "$T/bin/interp" "$T/w/pwned" >"$T/nb/script"
chmod 755 "$T/nb/script"
cp "$T/nb/script" "$T/bin/nobodys" && chown nobody "$T/bin/nobodys"
cp "$T/nb/script" "$T/open/script" && chmod 755 "$T/open/script"
for s in "$T/bin/nobodys:is not root's" \
	 "$T/nb/script:is in a directory others than root may change" \
	 "$T/open/script:is in a directory others than root may change"; do
	script=${s%%:*} why=${s#*:}
	"$CA" --suggest --user=nobody --output="$T/rep" -- "$script" >/dev/null 2>&1
	if [ -e "$T/w/pwned" ]; then
		ls -l "$T/w/pwned"
		fail "$script: a trial ran the script as root"
		rm -f "$T/w/pwned"
	else
		pass
	fi
	expect_line "$T/rep" "# capaudit --suggest: NOT PROVEN (the script $script $why: no trial runs it with capabilities" \
		"$script: refused"
done
# Root's script in root's directories: proven as before.
printf '#!%s\nbind\n' "$T/bin/interp" >"$T/bin/rootscript" && chmod 755 "$T/bin/rootscript"
in_net "$CA" --suggest --user=nobody --output="$T/rep" -- "$T/bin/rootscript" >/dev/null 2>&1
expect_line "$T/rep" "without cap_net_bind_service on $T/bin/interp: exited with status 1: needed" \
	"root's script: proven"
# A root's interpreter running code of nobody's: a shell sourcing his
# file. His redirect of a file only root may read, refused, made the
# shell a candidate for cap_dac_override and cap_dac_read_search, and
# the run with every candidate granted gave the shell both while it ran
# his file (CapPrm 6: enough to write /etc/passwd); as the redirect ends
# the script, cap_dac_read_search was even "proven" needed. Now no
# trial gives an interpreter a root-equivalent capability: his file,
# which records the shell's own sets, never holds either.
sh_path=$(readlink -f /bin/sh)
printf 'secret\n' >"$T/secret" && chmod 600 "$T/secret"
printf '%s\n' 'while read -r k v; do case $k in Cap*) echo "$k $v";; esac; done </proc/self/status >>"$0"' \
	": <$T/secret" >"$T/nb/rc"
: >"$T/nb/caps" && chown nobody "$T/nb/rc" "$T/nb/caps"
"$CA" --suggest --no-container --user=nobody --output="$T/rep" -- /bin/sh -c ". $T/nb/rc; exec true" "$T/nb/caps" \
	>/dev/null 2>&1
held=$(awk '$1 == "CapPrm:" || $1 == "CapEff:" { print $2 }' "$T/nb/caps")
[ -n "$held" ] || fail "nobody's shell file: it never ran ($(cat "$T/rep"))"
bad=
for v in $held; do [ $((0x$v & 6)) -eq 0 ] || bad="$bad $v"; done
if [ -n "$bad" ]; then
	cat "$T/nb/caps"
	fail "nobody's shell file ran holding cap_dac_override or cap_dac_read_search:$bad"
else
	pass
fi
expect_line "$T/rep" "# capaudit --suggest: NOT PROVEN (not tried: $sh_path is an interpreter: a trial giving it cap_dac_override,cap_dac_read_search would give cap_dac_override,cap_dac_read_search to every script it runs, its user's included)" \
	"nobody's shell file: unproven, said why"
if grep '^setcap ' "$T/rep"; then fail "nobody's shell file: a setcap line for the shell"; else pass; fi
expect_line "$T/rep" "# held apart: cap_dac_override,cap_dac_read_search: root-equivalent and not proven needed" \
	"nobody's shell file: both held apart"

# 6. A server that only the grant lets start: ended at --trial-timeout.
# serving: whether a process runs "$T/bin/hostile --serve".
serving() { pgrep -f -- "^$T/bin/hostile --serve\$" >/dev/null; }
start=$(date +%s)
in_net timeout -s KILL 60 "$CA" --suggest --trial-timeout=3 --user=nobody --output="$T/rep" -- \
	"$T/bin/hostile" --serve >/dev/null 2>&1
took=$(($(date +%s) - start))
[ "$took" -lt 30 ] || fail "--trial-timeout=3: capaudit took $took s"
expect_line "$T/rep" "# capaudit --suggest: NOT PROVEN (run 2 did not end within 3 s and was ended" \
	"--trial-timeout: unproven"
if serving; then fail "--trial-timeout: the trial's server still runs"; pkill -KILL -f -- "^$T/bin/hostile --serve\$"; else pass; fi
# SIGTERM to capaudit alone (not its process group) ends the trial too.
# (in_net's work, unshare's pid being capaudit's: sh -c execs it)
unshare -n sh -c '"$0" --lo-up && exec "$@"' "$ping" \
	"$CA" --suggest --user=nobody --output="$T/rep" -- "$T/bin/hostile" --serve >/dev/null 2>&1 &
ca=$!
# (its own run first, then the trial's namespaces: seconds on a busy host)
n=0
while ! serving && [ "$n" -lt 300 ]; do sleep 0.1; n=$((n + 1)); done
serving || fail "SIGTERM: the trial's server did not start in 30 s"
kill -TERM "$ca"
n=0
while kill -0 "$ca" 2>/dev/null && [ "$n" -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
if kill -0 "$ca" 2>/dev/null; then
	fail "SIGTERM: capaudit still waits for its trial after 10 s"
	kill -KILL "$ca"
	pkill -KILL -f -- "^$T/bin/hostile --serve\$"
fi
wait "$ca" 2>/dev/null
expect_line "$T/rep" "# capaudit --suggest: NOT PROVEN (interrupted)" "SIGTERM: unproven"
if serving; then fail "SIGTERM: the trial's server still runs"; pkill -KILL -f -- "^$T/bin/hostile --serve\$"; else pass; fi

# 7. root's TMPDIR, where nobody may not go: mktemp needs nothing.
mkdir "$T/roottmp" && chmod 700 "$T/roottmp"
mt=$(command -v mktemp)
TMPDIR=$T/roottmp LD_LIBRARY_PATH=$T/roottmp \
	"$CA" --suggest --user=nobody --output="$T/rep" -- "$mt" >"$T/mt.out" 2>"$T/err" ||
	fail "mktemp as nobody under capaudit failed: $(cat "$T/err")"
# The file its own run made, in /tmp (a trial's output goes nowhere, its
# /tmp with it): removed, not left behind.
while read -r made; do
	case $made in /tmp/tmp.*) rm -f "$made" ;; esac
done <"$T/mt.out"
if grep '^setcap ' "$T/rep"; then
	cat "$T/rep"
	fail "mktemp with root's TMPDIR: a grant was suggested"
else
	pass
fi

# 8. A library someone other than root may change.
lib=$BIN/libcapaudit_escalate.so
cp "$lib" "$T/nb/libesc.so" && chown nobody "$T/nb/libesc.so"
"$CA" --suggest --user=nobody --output="$T/rep" -- "$T/bin/hostile" --dlopen \
	"$T/nb/libesc.so" "$T/w/libpwned" >/dev/null 2>&1
if [ -e "$T/w/libpwned" ]; then
	ls -l "$T/w/libpwned"
	fail "nobody's library: a trial ran it as root"
else
	pass
fi
expect_line "$T/rep" "# capaudit --suggest: NOT PROVEN (no trial can grant $T/bin/hostile: it loads $T/nb/libesc.so, which is not root's:" \
	"nobody's library: refused"
expect_line "$T/rep" "# WARNING: $T/bin/hostile loads $T/nb/libesc.so, which is not root's: whoever may change it runs code with cap_setuid" \
	"nobody's library: warned"
# A library loaded only once the trial granted the bind: it ran in that
# trial, but the next (which grants the cap_setuid it asked for) is not
# made.
in_net "$CA" --suggest --user=nobody --output="$T/rep" -- "$T/bin/hostile" --bound-dlopen \
	"$T/nb/libesc.so" "$T/w/libpwned2" >/dev/null 2>&1
if [ -e "$T/w/libpwned2" ]; then
	ls -l "$T/w/libpwned2"
	fail "a library loaded in a trial: the next trial ran it as root"
else
	pass
fi
expect_line "$T/rep" "# capaudit --suggest: NOT PROVEN (no trial can grant $T/bin/hostile: it loads $T/nb/libesc.so" \
	"a library loaded in a trial: refused"
# Root's library with an ACL entry letting nobody write it: refused,
# and warned of, naming the entry.
cp "$lib" "$T/bin/libacl.so" && chmod 644 "$T/bin/libacl.so" &&
	setfattr -n system.posix_acl_access -v "$(acl_user_hex "$nobody_uid" 6)" "$T/bin/libacl.so" ||
	fail "an ACL on $T/bin/libacl.so"
"$CA" --suggest --user=nobody --output="$T/rep" -- "$T/bin/hostile" --dlopen \
	"$T/bin/libacl.so" "$T/w/aclpwned" >/dev/null 2>&1
if [ -e "$T/w/aclpwned" ]; then
	ls -l "$T/w/aclpwned"
	fail "a library nobody may write through an ACL entry: a trial ran it as root"
else
	pass
fi
expect_line "$T/rep" "# capaudit --suggest: NOT PROVEN (no trial can grant $T/bin/hostile: it loads $T/bin/libacl.so, which $acl_why:" \
	"a library nobody may write through an ACL entry: refused"
expect_line "$T/rep" "# WARNING: $T/bin/hostile loads $T/bin/libacl.so, which $acl_why: whoever may change it runs code with cap_setuid" \
	"a library nobody may write through an ACL entry: warned"
# Root's library in root's directory: proven as before.
cp "$lib" "$T/bin/libroot.so" && chmod 644 "$T/bin/libroot.so"
"$CA" --suggest --user=nobody --output="$T/rep" -- "$T/bin/hostile" --dlopen \
	"$T/bin/libroot.so" "$T/w/rootlib" >/dev/null 2>&1
expect_line "$T/rep" "without cap_setuid on $T/bin/hostile: exited with status 1: needed" \
	"root's library: proven"

# 9. FUSE: bindfs shows a directory of nobody's as root's, 0555; mounted
#    suid, so that the kernel would honour a file capability there.
if ! command -v bindfs >/dev/null || [ ! -c /dev/fuse ]; then
	echo "note: no bindfs or no /dev/fuse: programs on FUSE not tried"
else
	mkdir "$T/nbfuse" "$T/fuse" && chmod 755 "$T/fuse"
	cp "$hostile" "$T/nbfuse/prog"
	printf '#!%s\nescalate %s\n' "$T/bin/interp" "$T/w/fusepwned2" >"$T/nbfuse/script"
	printf 'escalate %s\n' "$T/w/fusepwned1" >"$T/bin/escalate1" && chmod 644 "$T/bin/escalate1"
	chmod 755 "$T/nbfuse/prog" "$T/nbfuse/script" && chown -R nobody "$T/nbfuse"
	if without_locks bindfs -o suid -u 0 -g 0 -p 0755,a-w "$T/nbfuse" "$T/fuse" 2>"$T/err"; then
		at_exit_checked "umount '$T/fuse'"
		[ "$(stat -c '%u %a' "$T/fuse/prog" "$T/fuse/script" | sort -u)" = "0 555" ] && pass ||
			fail "bindfs does not show nobody's files as root's 0555"
		"$CA" --suggest --user=nobody --output="$T/rep" -- "$T/fuse/prog" "$T/bin/escalate1" \
			>/dev/null 2>&1
		if [ -e "$T/w/fusepwned1" ]; then
			fail "a program on FUSE: a trial ran nobody's code as root"
		else
			pass
		fi
		expect_line "$T/rep" "# capaudit --suggest: NOT PROVEN (no trial can grant $T/fuse/prog: it is on a FUSE file system, whose daemon, not the kernel, says who owns it)" \
			"a program on FUSE: refused"
		"$CA" --suggest --user=nobody --output="$T/rep" -- "$T/fuse/script" >/dev/null 2>&1
		if [ -e "$T/w/fusepwned2" ]; then
			fail "a script on FUSE: a trial ran it as root"
		else
			pass
		fi
		expect_line "$T/rep" "# capaudit --suggest: NOT PROVEN (the script $T/fuse/script is on a FUSE file system, whose daemon, not the kernel, says who owns it: no trial runs it" \
			"a script on FUSE: refused"
		# Nor a setcap line: the daemon gives the inode numbers that
		# say the file there is the one the command ran.
		in_net "$CA" --suggest --user=nobody --output="$T/rep" -- "$T/fuse/prog" --proc-self \
			>/dev/null 2>&1
		if grep "^setcap .*$T/fuse/prog" "$T/rep"; then
			fail "a program on FUSE: a setcap line, on its daemon's word that it is the file that ran"
		else
			expect_line "$T/rep" "# setcap: $T/fuse/prog: not the file the command ran (it is on FUSE, whose daemon, not the kernel, gives its inode number): no line for cap_net_bind_service" \
				"a program on FUSE: no setcap line"
		fi
	else
		echo "note: bindfs cannot mount here ($(cat "$T/err")): programs on FUSE not tried"
	fi
fi

# 10. Overlayfs over two file systems: the record's numbers are the
#     overlay's, stat(2)'s a layer's. In a directory others may change
#     (another file could take the same numbers there), refused.
if overlay_layers "$T" && mkdir "$T/lower/open" && chmod 777 "$T/lower/open" &&
	cp "$T/bin/bind80" "$T/lower/open/bind80" && chmod 755 "$T/lower/open/bind80" &&
	overlay_mount "$T"; then
	in_net "$CA" --suggest --user=nobody --output="$T/rep" -- "$T/ovl/open/bind80" --bind80 \
		>/dev/null 2>&1
	expect_line "$T/rep" "# capaudit --suggest: NOT PROVEN (no trial can grant $T/ovl/open/bind80: it is in a directory others than root may change, and on this file system its device and inode numbers may be another file's" \
		"overlay, a directory others may change: refused"
else
	fail "an overlay over two file systems"
fi
# 11. A root's program in a directory nobody owns: the trial binds its
#     copy over the path, and nobody, outside, renames the directory (the
#     bind goes with it) and puts a file of his own at the path before
#     the command finds it there. The run "without cap_setuid" ran his
#     file and failed: cap_setuid was "proven" needed beside cap_net_raw.
#     A wrapper holds the race open: it says it started, and execs the
#     path once nobody has made his move (on the 4th run, the one
#     without cap_setuid; his file puts the directory back).
mkdir -p "$T/nbd/bin" "$T/race" && chown nobody "$T/nbd" "$T/race" && chmod 755 "$T/nbd" "$T/nbd/bin"
cp "$ping" "$T/nbd/bin/ping" && chmod 755 "$T/nbd/bin/ping"
cp "$ping" "$T/bin/kping" && chmod 755 "$T/bin/kping"
printf '#!/bin/sh\ncd "%s" && mv bin bin.fake && mv bin.real bin\nexit 2\n' "$T/nbd" >"$T/race/fake"
chown nobody "$T/race/fake" && chmod 755 "$T/race/fake"
# nobody's side: on the 4th start, the directory swapped; then go.
as_nobody_bg sh -c 'k=0
	while [ ! -e "$0/stop" ]; do
		[ -e "$0/started" ] || { sleep 0.01; continue; }
		rm -f "$0/started"; k=$((k + 1))
		[ $k = 4 ] && mv "$1/bin" "$1/bin.real" && mkdir "$1/bin" && cp "$0/fake" "$1/bin/ping"
		: >"$0/go"
	done' "$T/race" "$T/nbd"
racer=$nobody_pid
at_exit "kill $racer 2>/dev/null"
in_net "$CA" --suggest --user=nobody --output="$T/rep" -- \
	sh -c ': >"$1/started"; while [ ! -e "$1/go" ]; do sleep 0.01; done; rm -f "$1/go"; exec "$0"' \
	"$T/nbd/bin/ping" "$T/race" >/dev/null 2>&1
: >"$T/race/stop"
wait $racer
if grep '^setcap .*cap_setuid' "$T/rep"; then
	cat "$T/rep"
	fail "a directory nobody may change: a file of his, run in a trial, made cap_setuid a need"
else
	pass
fi
# (On an overlay, the container world's root, the mapping's numbers
# alone name the file, and the reason says that too.)
expect_line "$T/rep" "# capaudit --suggest: NOT PROVEN (no trial can grant $T/nbd/bin/ping: it is in a directory others than root may change" \
	"a directory nobody may change: refused"
# Its unproven line says who decides what the name is: nobody may put
# a file of his there (on ext4 it may even get the freed inode number).
# Where only a mapping names it, there is no line for it at all.
if grep -q "^setcap .* $T/nbd/bin/ping\$" "$T/rep"; then
	expect_line "$T/rep" "# WARNING: $T/nbd/bin/ping is in a directory others than root may change: whoever may change it decides which file that name is when this line is pasted" \
		"a directory nobody may change: said next to the setcap line"
else
	expect_line "$T/rep" "# setcap: $T/nbd/bin/ping: not the file the command ran (on this file system its device and inode numbers may be another file's, and it is in a directory others than root may change)" \
		"a directory nobody may change, only a mapping naming it: no setcap line"
fi
# 12. kill(2) needs no privilege over a process of one's own user: a
#     process of nobody's, outside the trials, killed the run with every
#     candidate granted, and again when that grant was run once more.
#     Every trial then "failed" against a reference killed by signal 9,
#     and ping was proven to need cap_setuid, cap_setpcap and cap_net_raw.
#     Counted in the kernel, the signal from outside is seen. (Held open
#     as in 11: the wrapper says it started and waits for nobody's go;
#     in a trial's PID namespace its $$ is not the pid nobody sees, so
#     nobody finds it by the mark on its command line.) Every way a
#     process of the user's may end another's (tools/capaudit_hostile.c
#     --send), not kill(2) alone: whatever si_code rt_sigqueueinfo(2)
#     gives (only kill's, sigqueue's and tgkill's were counted; a POSIX
#     timer's SI_TIMER among them), a file whose owner (F_SETOWN) is the
#     trial's process signalled when written to or sent a datagram (the
#     kernel sends that one, with a positive si_code or SEND_SIG_PRIV,
#     in the writer's context or the network's interrupt: it was taken
#     for the kernel's own), and a signal whose siginfo found no room
#     (the user's pending signals at their limit): pending, but not
#     "delivered" to the tracepoint.
if grep -q "counting: in the kernel" "$T/check"; then
	mkdir "$T/kill" && chown nobody "$T/kill"
	for how in kill sigqueue sigqueue-timer sigio sigio-default sigio-udp lose-info; do
		rm -f "$T/kill/stop" "$T/kill/started" "$T/kill/go"
		as_nobody_bg sh -c 'k=0
			while [ ! -e "$0/stop" ]; do
				[ -e "$0/started" ] || { sleep 0.01; continue; }
				rm -f "$0/started"; k=$((k + 1))
				case $k in
				# it waits for no go; [k]: not the line of this shell
				3|7) for p in $(pgrep -f "^sh -c .* kill-target-mar[k]\$"); do
					"$1" --send "$2" "$p"
				done ;;
				*) : >"$0/go" ;;
				esac
			done' "$T/kill" "$T/bin/hostile" "$how"
		killer=$nobody_pid
		at_exit "kill $killer 2>/dev/null"
		in_net "$CA" --suggest --user=nobody --output="$T/rep" -- \
			sh -c ': >"$1/started"; while [ ! -e "$1/go" ]; do sleep 0.01; done; rm -f "$1/go"; exec "$0"' \
			"$T/bin/kping" "$T/kill" kill-target-mark >/dev/null 2>&1
		: >"$T/kill/stop"
		wait $killer
		if grep '^setcap .*cap_setuid' "$T/rep"; then
			cat "$T/rep"
			fail "a process of nobody's killed the trials ($how): cap_setuid proven"
		else
			pass
		fi
		expect_line "$T/rep" "# capaudit --suggest: NOT PROVEN (run 2 was sent 1 signal by a process outside it (any process of the user's own may send one), so what it did proves nothing)" \
			"a process of nobody's killed the trials ($how): said"
	done
else
	echo "note: capaudit does not count in the kernel here: signals from outside a trial not tried"
fi
# 12b. The kernel's own timers are no process outside: timeout(1)'s
#     POSIX timer (SI_TIMER) and alarm(2) (SIGALRM, SEND_SIG_PRIV) fire
#     from an interrupt, in whatever task the CPU runs, here a loop of
#     nobody's own on each CPU. Counted as signals from outside, they
#     left every such grant unproven.
if grep -q "counting: in the kernel" "$T/check"; then
	busy=
	for i in 1 2; do
		as_nobody_bg timeout 20 nice -n 19 sh -c 'while :; do :; done'
		busy="$busy $nobody_pid"
	done
	at_exit "kill $busy 2>/dev/null"
	# --no-container: the loops burn a CPU each for as long as this
	# part runs, and the container runs prove nothing here.
	in_net "$CA" --suggest --no-container --user=nobody --output="$T/rep" -- timeout 0.5 "$T/bin/hostile" --serve >/dev/null 2>&1
	lines=$(grep '^setcap ' "$T/rep")
	[ "$lines" = "setcap cap_net_bind_service=ep $T/bin/hostile" ] &&
		grep -q '^# capaudit --suggest: the least grant, proven' "$T/rep" && pass ||
		{ cat "$T/rep"; fail "timeout(1)'s timer, beside loops: not cap_net_bind_service proven"; }
	in_net "$CA" --suggest --no-container --user=nobody --output="$T/rep" -- "$py" -c '
import signal, socket, time
socket.socket().bind(("127.0.0.1", 80))
signal.alarm(1)
time.sleep(10)' >/dev/null 2>&1
	grep -q '^# capaudit --suggest: the least grant, proven' "$T/rep" &&
		grep -q '^setcap cap_net_bind_service=ep ' "$T/rep" && pass ||
		{ cat "$T/rep"; fail "alarm(2), beside loops: not cap_net_bind_service proven"; }
	kill $busy 2>/dev/null
	wait $busy 2>/dev/null
fi
# 13. A trial's /proc is its PID namespace's, over the old one, and hides
#     what the old one hid: a container runtime's masks (/dev/null over a
#     file such as /proc/kcore, here /proc/cmdline, which every kernel
#     has; /proc/sys bound read-only) stay, where a new proc alone would
#     show the file and a writable /proc/sys. Each run writes what it
#     found into $T/mask (the mount on /proc/sys that counts is the one on
#     the /proc on top: the old ones stay in the table, hidden).
if mount --bind /dev/null /proc/cmdline && mount --bind /proc/sys /proc/sys &&
	mount -o remount,bind,ro /proc/sys; then
	mkdir "$T/mask" && chmod 1777 "$T/mask"
	in_net "$CA" --suggest --user=nobody --output="$T/rep" -- sh -c '
		{ echo "pid $$"; [ -c /proc/cmdline ] && echo "cmdline masked"
		  awk '"'"'$5 == "/proc" { on[$1] = 1; under[$2] = 1 }
			$5 == "/proc/sys" { sys[$2] = $6 }
			END { for (m in on) if (!(m in under)) print sys[m] }'"'"' \
			/proc/self/mountinfo | grep -q "^ro," && echo "sys read-only"
		} >"$1/run.$(date +%s%N)"; exec "$0" --bind80' "$T/bin/bind80" "$T/mask" \
		>/dev/null 2>&1
	umount /proc/sys; umount /proc/cmdline
	expect_line "$T/rep" "without cap_net_bind_service on $T/bin/bind80: exited with status 1: needed" \
		"masked /proc: proven"
	trials=$(grep -lx 'pid 2' "$T/mask"/run.* | wc -l)
	[ "$trials" -ge 4 ] || fail "masked /proc: $trials runs as pid 2 of a namespace, want 4 or more"
	for f in $(grep -lx 'pid 2' "$T/mask"/run.*); do
		if [ "$(sed 1d "$f")" = "cmdline masked
sys read-only" ]; then
			pass
		else
			fail "masked /proc: a trial found: $(tr '\n' ' ' <"$f")"
		fi
	done
else
	fail "cannot mask /proc/cmdline and /proc/sys in our mount namespace"
fi
# 14. Who may change the command, judged as the kernel decides. Root's
#     command with an ACL entry letting nobody write it: refused, naming
#     the entry, and its setcap line warned of.
cp "$T/bin/bind80" "$T/bin/aclbind" &&
	setfattr -n system.posix_acl_access -v "$(acl_user_hex "$nobody_uid" 7)" "$T/bin/aclbind" ||
	fail "an ACL on $T/bin/aclbind"
in_net "$CA" --suggest --user=nobody --output="$T/rep" -- "$T/bin/aclbind" --bind80 >/dev/null 2>&1
expect_line "$T/rep" "# capaudit --suggest: NOT PROVEN (no trial can grant $T/bin/aclbind: it $acl_why: capaudit runs no copy of it with capabilities" \
	"a command nobody may write through an ACL entry: refused"
expect_line "$T/rep" "# WARNING: $T/bin/aclbind $acl_why: whoever may change it decides what runs with cap_net_bind_service" \
	"a command nobody may write through an ACL entry: warned"
#     Root's command in root's sticky directory everyone may write ($T/w,
#     1777), the one holding it: refused; its setcap line warned of (as
#     in 11, where only a mapping names it there is no line).
cp "$T/bin/bind80" "$T/w/bind80" && chmod 755 "$T/w/bind80"
in_net "$CA" --suggest --user=nobody --output="$T/rep" -- "$T/w/bind80" --bind80 >/dev/null 2>&1
sticky_why="is in directory $T/w, which is sticky but lets others than root add names, a file of root's moved in among them (everybody may write it)"
expect_line "$T/rep" "# capaudit --suggest: NOT PROVEN (no trial can grant $T/w/bind80: it $sticky_why" \
	"a command in a sticky directory everyone may write: refused"
if grep -q "^setcap .* $T/w/bind80\$" "$T/rep"; then
	expect_line "$T/rep" "# WARNING: $T/w/bind80 $sticky_why: whoever may change it decides which file that name is when this line is pasted" \
		"a command in a sticky directory everyone may write: warned"
else
	expect_line "$T/rep" "# setcap: $T/w/bind80: not the file the command ran (on this file system its device and inode numbers may be another file's, and it $sticky_why)" \
		"a command in a sticky directory everyone may write, only a mapping naming it: no setcap line"
fi
#     Reached through that sticky directory, in root's 0755 directory
#     below it: proven as before.
mkdir "$T/w/bin" && chmod 755 "$T/w/bin" && cp "$T/bin/bind80" "$T/w/bin/bind80"
in_net "$CA" --suggest --user=nobody --output="$T/rep" -- "$T/w/bin/bind80" --bind80 >/dev/null 2>&1
expect_line "$T/rep" "without cap_net_bind_service on $T/w/bin/bind80: exited with status 1: needed" \
	"a sticky directory above root's directory holding the command: proven"
finish "capaudit --suggest trials: uid 0 under SECBIT_NOROOT; a trial's processes end with it; scripts, libraries; a time limit; root's environment; FUSE; overlay identity; ACLs and sticky directories"
