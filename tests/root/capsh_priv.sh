#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# capsh's privileged options on the real kernel, checked through what the
# kernel reports (/proc/<pid>/status of the shell capsh runs) rather than
# through capsh's own printing: bounding drops, --caps/--inh/--iab/--addamb,
# --user and --cap-uid versus --uid, --chroot landing in the new "/",
# --mode=NOPRIV locking the securebits, --secbits, and --forkfor/--killit
# across a uid change.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
# Users and groups by name (nobody, nogroup) from the base accounts only.
private_etc "$@"
C=$BUILD/progs/capsh
[ "$(id -u)" -eq 0 ] || skip "needs root"
[ -x "$C" ] || { fail "capsh not built"; finish; }
[ -x /bin/sh ] || skip "no /bin/sh"
id nobody >/dev/null 2>&1 || skip "no user nobody"
chmod 755 "$T"
nl='
'
# status <field> <capsh args...>: the field of capsh's own /proc/<pid>/status
# after the other options took effect, read by a shell that capsh starts
# with -+ (so capsh, its parent, is still there to be looked at).
status() {
	f=$1; shift
	"$C" --shell=/bin/sh "$@" -+ -c "awk '/^$f:/ {print \$2}' /proc/\$PPID/status" 2>&1
}
bit() { echo $(( (0x$1 >> $2) & 1 )); }

# Bounding set: drop two, check the kernel's CapBnd and capsh's own tests.
bnd=$(status CapBnd --drop=cap_net_raw,cap_perfmon)
[ "$(bit "$bnd" 13)" = 0 ] && [ "$(bit "$bnd" 38)" = 0 ] && pass || fail "--drop: CapBnd=$bnd still has net_raw/perfmon"
[ "$(bit "$bnd" 0)" = 1 ] && pass || fail "--drop: CapBnd=$bnd lost cap_chown"
expect_lines --case="--has-b after drop" 1 "" "cap[cap_net_raw] not in bounding vector" \
	"$C" --drop=cap_net_raw --has-b=cap_net_raw
"$C" --drop=cap_net_raw --dropped=cap_net_raw && pass || fail "--dropped after drop"
out=$("$C" --drop=cap_net_raw --print | sed -n 2p)
case $out in *cap_net_raw*) fail "--print still bounds cap_net_raw" ;; esac
bnd=$(status CapBnd --drop=all)
[ "$bnd" = 0000000000000000 ] && pass || fail "--drop=all: CapBnd=$bnd"
# --strict: no CAP_SETPCAP fix-up, so with it only in P the drop fails.
expect_lines --case="--strict --drop" 1 "" "failed to drop [cap_kill=5]" \
	"$C" --caps=cap_setpcap=p --strict --drop=cap_kill
bnd=$(status CapBnd --caps=cap_setpcap=p --drop=cap_kill)
[ "$(bit "$bnd" 5)" = 0 ] && pass || fail "non-strict --drop with setpcap in P only"
out=$("$C" --caps=cap_setpcap=p --drop=cap_kill --current | head -n 1)
[ "$out" = "Current: cap_setpcap=p" ] && pass || fail "--drop left CAP_SETPCAP effective: $out"

# --caps, --inh, --iab and ambient, read back from the kernel.
eff=$(status CapEff --caps=cap_chown,cap_kill=ep)
[ "$eff" = 0000000000000021 ] && pass || fail "--caps: CapEff=$eff"
inh=$(status CapInh --inh=cap_chown,cap_perfmon)
[ "$inh" = 0000004000000001 ] && pass || fail "--inh: CapInh=$inh"
amb=$(status CapAmb --inh=cap_perfmon --addamb=cap_perfmon)
[ "$amb" = 0000004000000000 ] && pass || fail "--addamb: CapAmb=$amb"
amb=$(status CapAmb --inh=cap_perfmon --addamb=cap_perfmon --noamb)
[ "$amb" = 0000000000000000 ] && pass || fail "--noamb: CapAmb=$amb"
amb=$(status CapAmb --iab='^cap_perfmon,^cap_bpf')
[ "$amb" = 000000c000000000 ] && pass || fail "--iab ambient: CapAmb=$amb"
bnd=$(status CapBnd '--iab=!cap_sys_module')
[ "$(bit "$bnd" 16)" = 0 ] && pass || fail "--iab !: CapBnd=$bnd"

# --user: ids, groups, HOME; --cap-uid keeps P, --uid does not.
out=$("$C" --user=nobody --shell=/bin/sh -- -c 'id -u; id -g; echo "$HOME"' 2>&1)
want="$(id -u nobody)$nl$(id -g nobody)$nl$(getent passwd nobody | cut -d: -f6)"
[ "$out" = "$want" ] && pass || fail "--user=nobody: [$out] want [$want]"
out=$("$C" --user=nobody --print | sed -n 10p)
[ "$out" = "uid=$(id -u nobody)(nobody) euid=$(id -u nobody)(nobody)" ] && pass || fail "--user --print: $out"
"$C" --cap-uid=65534 --has-p=cap_chown --is-uid=65534 && pass || fail "--cap-uid lost P"
expect_lines --case="--uid kept P" 1 "" "cap[cap_chown] not permitted" \
	"$C" --uid=65534 --has-p=cap_chown
expect_lines --case="--uid back to 0" 1 "" "Failed to set uid=0: Operation not permitted" \
	"$C" --uid=65534 --uid=0
out=$("$C" --groups=0,1,2 --print | sed -n 12p)
[ "$out" = "groups=0($(getent group 0 | cut -d: -f1)),1($(getent group 1 | cut -d: -f1)),2($(getent group 2 | cut -d: -f1))" ] && pass || fail "--groups: $out"

# --chroot: a tree with its own passwd; the second, relative chroot only
# works if the first one also moved the working directory to the new "/".
# LeakSanitizer (make SANITIZE=...) needs /proc, which the new root lacks.
nolsan="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
mkdir -p "$T/root/sub/etc"
echo "capshtest:x:4242:4243::/home/capshtest:/bin/false" >"$T/root/sub/etc/passwd"
echo "capshgrp:x:4243:" >"$T/root/sub/etc/group"
out=$(cd / && ASAN_OPTIONS=$nolsan "$C" --chroot="$T/root" --chroot=sub --user=capshtest --print 2>&1); rc=$?
[ $rc -eq 0 ] && pass || fail "--chroot: exit $rc [$out]"
echo "$out" | grep -qx 'uid=4242(capshtest) euid=4242(capshtest)' && pass || fail "--chroot: passwd of the new root not used [$out]"
echo "$out" | grep -qx 'gid=4243(capshgrp)' && pass || fail "--chroot: group of the new root not used"
out=$(cd / && ASAN_OPTIONS=$nolsan "$C" --chroot="$T/root/sub" --current | head -n 1)
[ "$(cd / && "$C" --current | head -n 1)" = "$out" ] && pass || fail "--chroot changed the capabilities: $out"
# No newline, as libcap prints it.
expect --case="--chroot missing dir" 1 "" "Unable to chroot/chdir to [$T/none]" \
	"$C" --chroot="$T/none"
expect_lines --case="--chroot without the cap" 1 "" "unable to raise CAP_SYS_CHROOT: Operation not permitted" \
	"$C" --caps=cap_chown=ep --chroot="$T/root"

# --mode=NOPRIV: everything empty, securebits locked, no_new_privs set.
out=$("$C" --mode=NOPRIV --print)
echo "$out" | grep -qx "Securebits: 0357/0xef/8'b11101111 (no-new-privs=1)" && pass || fail "NOPRIV securebits: $out"
echo "$out" | grep -qx 'Current: =' && pass || fail "NOPRIV: capabilities left"
echo "$out" | grep -qx 'Bounding set =' && pass || fail "NOPRIV: bounding set left"
echo "$out" | grep -qx ' secure-keep-caps: no (locked)' && pass || fail "NOPRIV keep-caps line"
echo "$out" | grep -qx 'Guessed mode: NOPRIV (1)' && pass || fail "NOPRIV guessed mode"
[ "$(status NoNewPrivs --mode=NOPRIV)" = 1 ] && pass || fail "NOPRIV: no_new_privs not set in the child"
[ "$(status CapBnd --mode=NOPRIV)" = 0000000000000000 ] && pass || fail "NOPRIV: child has a bounding set"
expect_lines --case="NOPRIV unlocked" 1 "" "failed to set securebits to 00/0x0" \
	"$C" --mode=NOPRIV --secbits=0
expect_lines --case="NOPRIV left" 1 "failed to set mode [HYBRID]: Operation not permitted" "" \
	"$C" --mode=NOPRIV --mode=HYBRID
"$C" --mode=PURE1E_INIT --inmode=PURE1E_INIT && pass || fail "--mode=PURE1E_INIT --inmode"
"$C" --secbits=0x10 --print | grep -qx ' secure-keep-caps: yes (unlocked)' && pass || fail "--secbits=0x10"
[ "$(status NoNewPrivs --no-new-privs)" = 1 ] && pass || fail "--no-new-privs not inherited"

# --forkfor child stays root: after dropping to nobody, --killit cannot
# signal it (EPERM), while a root capsh can.
expect_lines --case="--killit across uid" 1 "" "Unable to kill child process: Operation not permitted" \
	"$C" --forkfor=2 --uid=65534 --killit=9
"$C" --forkfor=30 --killit=9 && pass || fail "--forkfor/--killit as root"

# -- and -+ pass on the shell's status; a signal becomes exit 1.
"$C" --shell=/bin/sh -- -c 'exit 7'; [ $? -eq 7 ] && pass || fail "-- exit status"
"$C" --shell=/bin/sh -+ -c 'exit 6'; [ $? -eq 6 ] && pass || fail "-+ exit status"
out=$("$C" --shell=/bin/sh -+ -c 'kill -9 $$' 2>&1); rc=$?
[ $rc -eq 1 ] && echo "$out" | grep -Eqx 'child PID=[0-9]+ terminated by signo=9' && pass || fail "-+ signalled: $rc [$out]"
out=$("$C" --print -- -c true | wc -l)
[ "$out" -eq 13 ] && pass || fail "--print before -- lost (stdout not flushed): $out lines"
finish "capsh privileged scenarios: all checks passed"
