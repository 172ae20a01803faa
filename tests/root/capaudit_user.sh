#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# capaudit --user runs the command as that user would run it: HOME, USER,
# LOGNAME, SHELL and PATH from the user database (not root's HOME, whose
# refused probes were once suggested as needs), root's XDG_RUNTIME_DIR
# and MAIL gone, and every group the database gives the user (a member
# of 300 groups once got none but its own: a fixed array of 256). A
# --user given as a number is named as the database names it in the
# capability.conf line. The command may not push input into root's
# terminal (TIOCSTI), and keeps it as its controlling terminal. A command
# the user may not reach or run is refused with the errno and the path;
# a look for why that hangs (a file system that stops answering) ends,
# and holds none of capaudit's descriptors meanwhile.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
# Base accounts only, plus the user below, in our mount namespace alone.
private_etc "$@"
init
CA=$BUILD/progs/capaudit probe=$BIN/capaudit_probe
[ -x "$CA" ] && [ -x "$probe" ] || { fail "capaudit or capaudit_probe not built"; finish; }
"$CA" --check >"$T/out" 2>&1 || skip "capaudit cannot trace here: $(cat "$T/out")"
chmod 755 "$T"
# capa, uid 4242, in 300 groups besides its own.
cp /etc/passwd "$T/passwd" && cp /etc/group "$T/group" || { fail "copy /etc files"; finish; }
mkdir "$T/home" && chown 4242:4242 "$T/home"
echo "capa:x:4242:4242:capa:$T/home:/bin/sh" >>"$T/passwd"
{
	echo "capa:x:4242:"
	i=0
	while [ "$i" -lt 300 ]; do
		echo "g$i:x:$((5000 + i)):capa"
		i=$((i + 1))
	done
} >>"$T/group"
chmod 644 "$T/passwd" "$T/group"
# private_etc's binds stand on files already removed: off first.
umount /etc/passwd && umount /etc/group &&
	mount --bind "$T/passwd" /etc/passwd && mount --bind "$T/group" /etc/group ||
	{ fail "bind the user database"; finish; }
[ "$(id -G capa | wc -w)" -eq 301 ] || { fail "the database does not give capa 301 groups"; finish; }

# 1. By name: the user's environment, ids and groups.
HOME=/root USER=root LOGNAME=root SHELL=/bin/bash XDG_RUNTIME_DIR=/run/user/0 \
MAIL=/var/mail/root PATH=/root/bin:$PATH \
"$CA" --user=capa --output="$T/rep" -- sh -c \
	'echo "HOME=$HOME USER=$USER LOGNAME=$LOGNAME SHELL=$SHELL PATH=$PATH"
	 echo "XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR-unset} MAIL=${MAIL-unset}"
	 echo "uid $(id -u) gid $(id -g) groups $(id -G | wc -w)"' >"$T/out" 2>"$T/err" ||
	fail "--user=capa: $(cat "$T/err")"
cat >"$T/want" <<EOF
HOME=$T/home USER=capa LOGNAME=capa SHELL=/bin/sh PATH=/usr/local/bin:/usr/bin:/bin
XDG_RUNTIME_DIR=unset MAIL=unset
uid 4242 gid 4242 groups 301
EOF
same "$T/want" "$T/out" "--user=capa: environment, ids and groups"

# 2. By number: the capability.conf line names capa, not 4242.
mkdir "$T/bin" && chmod 755 "$T/bin"
cp "$probe" "$T/bin/bind80" && chmod 755 "$T/bin/bind80"
"$CA" --suggest --user=4242 --output="$T/rep" -- "$T/bin/bind80" --bind80 \
	>/dev/null 2>"$T/err"
[ $? -eq 1 ] || fail "--user=4242: the bind was not refused: $(cat "$T/err")"
grep -qx "cap_net_bind_service	capa" "$T/rep" ||
	{ cat "$T/rep"; fail "--user=4242: capability.conf line not for capa"; }
grep -q "	4242$" "$T/rep" && fail "--user=4242: a line names the user 4242"
# 3. --no-minimize: one run, and the suggestion says it is unproven.
"$CA" --suggest --no-minimize --user=capa --output="$T/rep" -- "$T/bin/bind80" --bind80 \
	>/dev/null 2>&1
grep -qF "# capaudit --suggest: NOT PROVEN (--no-minimize: the command ran once)" "$T/rep" ||
	{ cat "$T/rep"; fail "--no-minimize: not said unproven"; }
grep -qx "setcap cap_net_bind_service=ep $T/bin/bind80" "$T/rep" ||
	fail "--no-minimize: no candidate line"

# 4. The user's command on root's terminal: TIOCSTI would push a command
#    into the input of root's shell, run as root once capaudit ends.
hostile=$BIN/capaudit_hostile
if ! command -v script >/dev/null || ! command -v timeout >/dev/null; then
	echo "note: no script(1) or timeout(1): the terminal was not tried"
elif [ "$(timeout 10 script -qec "setpriv --reuid=capa --regid=capa --clear-groups \
	$hostile --tiocsti ''" /dev/null </dev/null | tr -d '\r')" != "tiocsti: ok" ]; then
	echo "note: TIOCSTI is refused here anyway (dev.tty.legacy_tiocsti 0): not tried"
else
	cp "$hostile" "$T/bin/hostile" && chmod 755 "$T/bin/hostile"
	# The shell after capaudit runs what was pushed; it makes INJECTED.
	(sleep 3) | timeout 20 script -qec "'$CA' --user=capa --output='$T/rep' -- \
		'$T/bin/hostile' --tiocsti 'touch $T/INJECTED
'; exec sh" /dev/null >"$T/out" 2>&1
	grep -q "tiocsti: Operation not permitted" "$T/out" ||
		fail "--user=capa: TIOCSTI was not refused: $(cat "$T/out")"
	[ ! -e "$T/INJECTED" ] || fail "--user=capa: root's shell ran what the command typed"
	# Job control is as it was: the terminal is still its controlling one.
	timeout 20 script -qec "'$CA' --user=capa --output='$T/rep' -- sh -c \
		'exec 3</dev/tty && echo tty: ok'" /dev/null </dev/null >"$T/out" 2>&1
	grep -q "tty: ok" "$T/out" || fail "--user=capa: /dev/tty cannot be opened: $(cat "$T/out")"
fi
# A command the user may not reach (root's 0700 home, as capaudit(8)'s
# ping example once was run from): the errno and the directory, named.
mkdir -m 700 "$T/private" && cp /bin/true "$T/private/true" && chmod 755 "$T/private/true"
"$CA" --user=capa -- "$T/private/true" >"$T/out" 2>"$T/err" && fail "--user=capa ran a command in root's 0700 directory"
expect_line "$T/err" "capaudit: $T/private/true: the launcher could not start it as capa: $T/private: Permission denied" "a command in a directory the user may not search"
# And one that the user may reach but not run.
mkdir -m 755 "$T/open" && cp /bin/true "$T/open/true" && chmod 700 "$T/open/true"
"$CA" --user=capa -- "$T/open/true" >"$T/out" 2>"$T/err" && fail "--user=capa ran root's 0700 file"
expect_line "$T/err" "capaudit: $T/open/true: the launcher could not start it as capa: $T/open/true: Permission denied" "a file the user may not run"
# The look for why, made as the user, in a file system that stopped
# answering after the launch (tools/preload/access_hang.c stands for
# one): capaudit waited for it for ever, ^C included (its handler keeps
# the look's child alive). It gives up after a few seconds and says so.
# The look's child, capa's, holds none of capaudit's descriptors: it held
# them all, the eBPF programs' links among them, which kept the programs
# attached after capaudit ended for as long as a file system held the
# child (a FUSE daemon that never answers holds it past SIGKILL).
start=$(date +%s)
HANG_DIR=$T/private LD_PRELOAD=$BIN/libaccess_hang.so \
	timeout -s KILL 30 "$CA" --user=capa -- "$T/private/true" >"$T/out" 2>"$T/err" &
ca=$!
held=
for i in $(seq 100); do
	look=$(pgrep -u capa | head -n 1)
	[ -n "$look" ] && held=$(ls "/proc/$look/fd" 2>/dev/null | grep -cvxE '[012]') && break
	sleep 0.02
done
wait $ca
rc=$? took=$(($(date +%s) - start))
if [ -z "$look" ]; then
	fail "a look for why that never ends: its process was not seen"
elif [ "$held" != 1 ]; then
	fail "a look for why that never ends: its process held $held descriptors above 2 (capaudit's: pipes, perf events, eBPF), not its one pipe"
else
	pass
fi
if [ "$rc" -eq 137 ]; then
	fail "a look for why that never ends: capaudit still waited after 30 s"
else
	[ "$rc" -eq 1 ] && [ "$took" -lt 15 ] || fail "a look for why that never ends: exit $rc after $took s"
	expect_line "$T/err" "capaudit: $T/private/true: the launcher could not start it as capa (the look for why, as that user, did not end: a file system on the way does not answer?)" \
		"a look for why that never ends: said"
fi
pgrep -u capa >/dev/null && fail "a look for why that never ends: its process was left running"
finish "capaudit --user: the user's environment, 301 groups, its name; no TIOCSTI; why a command cannot start, or that the look did not end"
