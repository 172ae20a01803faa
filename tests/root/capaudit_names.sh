#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# capaudit --suggest shows every name it did not write itself escaped,
# text and --json alike, so none can rewrite the screen of the person
# who reads the report: a script's "#!" line (its author's text), the
# group a file is executable by, the user who owns it, the user of
# --user. Each once reached the report as raw bytes.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
# Users and groups with hostile names, in our mount namespace alone.
private_etc "$@"
init
CA=$BUILD/progs/capaudit probe=$BIN/capaudit_probe ping=$BIN/capaudit_ping
[ -x "$CA" ] && [ -x "$probe" ] && [ -x "$ping" ] ||
	{ fail "capaudit, capaudit_probe or capaudit_ping not built"; finish; }
command -v unshare >/dev/null || skip "unshare is not installed"
at_exit_checked tracefs_restore
tracefs_mount || { fail "cannot mount tracefs in our mount namespace"; finish; }
"$CA" --check >"$T/out" 2>&1 || skip "capaudit cannot trace here: $(cat "$T/out")"
chmod 755 "$T"
mkdir "$T/bin" "$T/w" && chmod 755 "$T/bin" && chmod 1777 "$T/w"
in_net() { unshare -n sh -c '"$0" --lo-up && exec "$@"' "$ping" "$@"; }
esc=$(printf '\033]0;pwn\007')
shown='\033]0;pwn\007'
# A user and a group named with an escape sequence.
cp /etc/passwd "$T/passwd" && cp /etc/group "$T/group" &&
	echo "u${esc}x:x:4344:4344:u:/:/bin/sh" >>"$T/passwd" &&
	echo "g${esc}x:x:4343:" >>"$T/group" && chmod 644 "$T/passwd" "$T/group" &&
	umount /etc/passwd && mount --bind "$T/passwd" /etc/passwd &&
	umount /etc/group && mount --bind "$T/group" /etc/group ||
	{ fail "a database with hostile names"; finish; }
# REPORT CASE: no raw ESC or BEL, as text.
no_raw() {
	if grep -q "$(printf '[\033\007]')" "$1"; then
		cat -v "$1"
		fail "$2: a raw escape sequence reached the report"
	else
		pass
	fi
}

# 1. A script whose "#!" line carries an escape sequence.
printf '#!/bin/sh -e%s\nexit 0\n' "$esc" >"$T/bin/script" && chmod 755 "$T/bin/script"
for fmt in "" --json; do
	"$CA" --suggest $fmt --output="$T/rep" -- "$T/bin/script" >/dev/null 2>&1
	no_raw "$T/rep" "the #! line${fmt:+ ($fmt)}"
done
"$CA" --suggest --output="$T/rep" -- "$T/bin/script" >/dev/null 2>&1
expect_line "$T/rep" "# WARNING: $T/bin/script is a script (#!/bin/sh -e$shown)" "the #! line, escaped"

# 2. A file executable by a group with a hostile name, and 3. one owned
#    by a user with one (as root: the first run is root's).
: >"$T/w/f"
cp /usr/bin/chown "$T/bin/grp" && chgrp 4343 "$T/bin/grp" && chmod 750 "$T/bin/grp"
"$CA" --suggest --output="$T/rep" -- "$T/bin/grp" 1 "$T/w/f" >/dev/null 2>&1 ||
	fail "chown by root under capaudit failed"
no_raw "$T/rep" "a group's name"
expect_line "$T/rep" "# note: $T/bin/grp is executable by group g${shown}x: each member gets cap_chown with it" \
	"a group's name, escaped"
cp /usr/bin/chown "$T/bin/own" && chown 4344 "$T/bin/own" && chmod 755 "$T/bin/own"
"$CA" --suggest --output="$T/rep" -- "$T/bin/own" 1 "$T/w/f" >/dev/null 2>&1 ||
	fail "chown by root under capaudit failed"
no_raw "$T/rep" "an owner's name"
expect_line "$T/rep" "# WARNING: $T/bin/own is owned by u${shown}x, not root" "an owner's name, escaped"

# 4. --user with a hostile name: the proof names it.
cp "$probe" "$T/bin/bind80" && chmod 755 "$T/bin/bind80"
in_net "$CA" --suggest --user="u${esc}x" --output="$T/rep" -- "$T/bin/bind80" --bind80 \
	>/dev/null 2>&1
no_raw "$T/rep" "--user's name"
expect_line "$T/rep" "proven by 4 runs as u${shown}x:" "--user's name, escaped"
finish "capaudit --suggest: a #! line, group, owner and --user names escaped"
