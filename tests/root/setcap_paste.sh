#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# setcap --perf-group refuses a file not owned by root and says to run
# "chown root FILE" first. With hostile file names, that command pasted
# the way a person would (lib.sh paste_run) gives chown the file as exactly
# one argument and runs nothing else; a name a terminal would not show as
# it is gets no command, and a line that says why. Nothing is changed on
# the refused files. Users and groups come from nss_wrapper files, never
# from /etc. (cli/setcap_paste.sh: setcap's other suggested commands.)
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
[ "$(id -u)" -eq 0 ] || skip "needs root (setcap --perf-group raises CAP_SETFCAP)"
setcap=$BUILD/progs/setcap
[ -x "$setcap" ] || { fail "setcap is not built"; finish; }
[ -x "$BIN/perfprobe" ] || { fail "$BIN/perfprobe is not built (make -C tests all)"; finish; }
need_nss_wrapper
printf 'root:x:0:0:root:/root:/bin/sh\nalice:x:4001:4001::/tmp:/bin/sh\n' >"$T/passwd"
printf 'root:x:0:\nperf_users:x:4100:\n' >"$T/group"

ours() { in_nss_world ${VALGRIND_CMD:-} "$setcap" "$@"; }
shown() { cat -v "$1" | sed 's/\\/<backslash>/g'; }

mkdir "$T/d"
# make NAME: a perfprobe copy owned by alice (4001), mode 0755.
make_file() {
	cp "$BIN/perfprobe" "$T/d/$1" && chown 4001:4001 "$T/d/$1" &&
		chmod 0755 "$T/d/$1"
}
# unchanged NAME: the refusal changed nothing on the file.
unchanged() {
	if [ "$(stat -c '%u:%g %a' "$T/d/$1")" != "4001:4001 755" ] ||
	   [ -n "$(getfattr --absolute-names -n security.capability "$T/d/$1" 2>/dev/null)" ]; then
		fail "[$1]: the refused file was changed: $(stat -c '%u:%g %a' "$T/d/$1")"
	else
		pass
	fi
}

chown_case() {	# FILE (as given to setcap) WANT-PASTED
	make_file "$1" && pass || { fail "cannot make [$1]"; return; }
	(cd "$T/d" && ours --perf-group=perf_users --perf "$1") >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc -eq 1 ] && pass || fail "[$1]: exit $rc, want 1"
	unchanged "$1"
	sed -n 's/^setcap: .*: owned by uid 4001 (alice), not root: its owner could open it to everyone again; refusing --perf-group (\(.*\) first)$/\1/p' \
		"$T/err" >"$T/line"
	if [ "$(wc -l <"$T/line")" -ne 1 ]; then
		fail "[$1]: no chown command: $(shown "$T/err")"
		return
	fi
	rm -rf "$T/paste"
	paste_run "$T/line"
	paste_clean "chown for [$1]"
	if [ "$(cat "$T/pasted")" = "$2" ]; then
		pass
	else
		fail "chown for [$1]: pasting [$(cat "$T/line")] ran [$(cat "$T/pasted")], want [$2]"
	fi
	rm -f "$T/d/$1"
}

# A plain name is printed as before.
chown_case plain "chown <root> <plain>"
[ "$(cat "$T/err")" = "setcap: plain: owned by uid 4001 (alice), not root: its owner could open it to everyone again; refusing --perf-group (chown root plain first)" ] && pass ||
	fail "plain name: $(shown "$T/err")"
hostile_names "$T/names"
while IFS= read -r name; do
	chown_case "$name" "chown <root> <$name>"
done <"$T/names"
# A relative path that starts with '-' would be an option of chown's.
chown_case "-R" "chown <root> <./-R>"
# The absolute path, as given.
make_file "perf;x"
ours --perf-group=perf_users --perf "$T/d/perf;x" 2>"$T/err"
grep -qF "(chown root '$T/d/perf;x' first)" "$T/err" && pass || fail "absolute path: $(shown "$T/err")"
rm -f "$T/d/perf;x"
# Names a terminal would not show as they are: no command, and why.
for esc in 'e\033[2J' 'nl\012x' 'bad\377'; do
	name=$(printf "$esc")
	make_file "$name"
	(cd "$T/d" && ours --perf-group=perf_users --perf "$name") 2>"$T/err"
	unchanged "$name"
	if [ "$(cat "$T/err")" = "setcap: $esc: owned by uid 4001 (alice), not root: its owner could open it to everyone again; refusing --perf-group (make root its owner first; no command is shown, as the name holds characters a terminal would not show as they are)" ]; then
		pass
	else
		fail "unshowable name: $(shown "$T/err")"
	fi
	rm -f "$T/d/$name"
done
finish "setcap --perf-group: the chown command pastes as one argument per name"
