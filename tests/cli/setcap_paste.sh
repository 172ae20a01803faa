#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# The commands setcap's own lines give to paste, with hostile names, pasted
# the way a person would (lib.sh paste_run): each name reaches the command
# as exactly one argument and nothing else runs.
#  - "--perf-group: no group named NAME (create it first: groupadd NAME)";
#  - "WARNING: restrict it to a group instead: setcap --perf-group=perf_users
#    --perf FILE" for a world-executable file (-v: verify only, no root).
# A name a terminal would not show as it is gets no command, and a line
# that says why. Groups come from an nss_wrapper file, never from /etc.
# (root/setcap_paste.sh: "chown root FILE", which needs root to reach.)
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
setcap=$BUILD/progs/setcap
[ -x "$setcap" ] || { fail "setcap is not built"; finish; }
[ -x "$BIN/perfprobe" ] || { fail "$BIN/perfprobe is not built (make -C tests all)"; finish; }
nwrap=$(ls /usr/lib/*/libnss_wrapper.so /usr/lib64/libnss_wrapper.so \
	/usr/lib/libnss_wrapper.so 2>/dev/null | head -n 1)
[ -n "$nwrap" ] || skip "nss_wrapper (libnss-wrapper) is not installed"
printf 'root:x:0:0:root:/root:/bin/sh\n' >"$T/passwd"
printf 'root:x:0:\nperf_users:x:4100:\n' >"$T/group"

# ours ARGS...: our setcap in the private world of users and groups.
ours() {
	env LD_PRELOAD="$nwrap" NSS_WRAPPER_PASSWD="$T/passwd" \
		NSS_WRAPPER_GROUP="$T/group" \
		ASAN_OPTIONS="${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}verify_asan_link_order=0" \
		${VALGRIND_CMD:-} "$setcap" "$@"
}

# pasted CASE LINEFILE WANT: pastes LINEFILE; exactly WANT ran, nothing else.
pasted() {
	rm -rf "$T/paste"	# what an earlier case may have left
	paste_run "$2"
	paste_clean "$1"
	if [ "$(cat "$T/pasted")" = "$3" ]; then
		pass
	else
		fail "$1: pasting [$(cat "$2")] ran [$(cat "$T/pasted")], want [$3]"
	fi
}

# shown FILE: FILE for a failure message, its bytes visible (dash's echo,
# which prints it, would turn a "\033" back into ESC).
shown() { cat -v "$1" | sed 's/\\/<backslash>/g'; }

hostile_names "$T/names"

# 1. groupadd for a missing --perf-group.
cp "$BIN/perfprobe" "$T/perf"
groupadd_case() {	# NAME WANT-PASTED
	ours --perf-group="$1" --perf "$T/perf" >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc -eq 1 ] && pass || fail "--perf-group=[$1]: exit $rc, want 1"
	sed -n 's/^setcap: --perf-group: no group named .* (create it first: \(.*\))$/\1/p' \
		"$T/err" >"$T/line"
	if [ "$(wc -l <"$T/line")" -ne 1 ]; then
		fail "--perf-group=[$1]: no groupadd command: $(cat "$T/err")"
		return
	fi
	pasted "groupadd for [$1]" "$T/line" "$2"
}
while IFS= read -r name; do
	groupadd_case "$name" "groupadd <$name>"
done <"$T/names"
# A leading '-' would be an option of groupadd's: "--" ends them.
groupadd_case "-o" "groupadd <--> <-o>"
# A plain name is printed as before.
ours --perf-group=perf_team --perf "$T/perf" 2>"$T/err"
[ "$(cat "$T/err")" = "setcap: --perf-group: no group named 'perf_team' (create it first: groupadd perf_team)" ] && pass ||
	fail "plain group name: $(cat "$T/err")"
# Names a terminal would not show as they are: no command, and why, with
# the name escaped.
for esc in 'a\033[2Jb' 'nl\012x' 'bad\377'; do
	ours --perf-group="$(printf "$esc")" --perf "$T/perf" 2>"$T/err"
	rc=$?
	[ $rc -eq 1 ] && pass || fail "unshowable group name: exit $rc, want 1"
	if grep -q 'groupadd [^;]' "$T/err"; then
		fail "groupadd command for an unshowable name: $(shown "$T/err")"
	elif [ "$(cat "$T/err")" != "setcap: --perf-group: no group named '$esc' (create it first with groupadd; no command is shown, as the name holds characters a terminal would not show as they are)" ]; then
		fail "unshowable group name: $(shown "$T/err")"
	else
		pass
	fi
done
# An empty name names no group (it gave "groupadd " with nothing).
ours --perf-group= --perf "$T/perf" 2>"$T/err"
[ "$(cat "$T/err")" = "setcap: --perf-group: no group named '': give --perf-group=GROUP, before --perf" ] && pass ||
	fail "empty group name: $(cat "$T/err")"

# 2. The WARNING for a world-executable file, from -v (verify only).
mkdir "$T/d"
ours -v --perf "$T/perf" >"$T/out" 2>"$T/err"
if grep -q 'mounted nosuid\|mounted noexec' "$T/err"; then
	skip "$T is on a nosuid or noexec mount: setcap --perf refuses files there"
fi
[ "$(sed -n 's/^setcap: WARNING: restrict it to a group instead: //p' "$T/err")" = \
	"setcap --perf-group=perf_users --perf $T/perf" ] && pass ||
	fail "plain file name: $(cat "$T/err")"
warning_case() {	# FILE (as given to setcap) WANT-PASTED
	cp "$BIN/perfprobe" "$T/d/$1" && chmod 0755 "$T/d/$1" && pass ||
		{ fail "cannot make [$1]"; return; }
	(cd "$T/d" && ours -v --perf "$1") >"$T/out" 2>"$T/err"
	rc=$?
	# 1: the file holds none of the capabilities -v looks for.
	[ $rc -eq 1 ] && pass || fail "-v --perf [$1]: exit $rc, want 1"
	sed -n 's/^setcap: WARNING: restrict it to a group instead: //p' "$T/err" >"$T/line"
	if [ "$(wc -l <"$T/line")" -ne 1 ]; then
		fail "WARNING for [$1]: no setcap command: $(cat "$T/err")"
		return
	fi
	pasted "WARNING for [$1]" "$T/line" "$2"
	rm -f "$T/d/$1"
}
while IFS= read -r name; do
	warning_case "$name" "setcap <--perf-group=perf_users> <--perf> <$name>"
done <"$T/names"
# A relative path that starts with '-': "./" keeps it a file for every command.
warning_case "-rf" "setcap <--perf-group=perf_users> <--perf> <./-rf>"
for name in "$(printf 'e\033[2J')" "$(printf 'nl\nx')" "$(printf 'bad\377')"; do
	cp "$BIN/perfprobe" "$T/d/$name" && chmod 0755 "$T/d/$name"
	ours -v --perf "$T/d/$name" >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc -eq 1 ] && pass || fail "-v --perf on an unshowable name: exit $rc, want 1"
	if grep -q "^setcap: WARNING: restrict it to a group instead: run setcap --perf-group=perf_users --perf on it (no command is shown, as the name holds characters a terminal would not show as they are)$" "$T/err" &&
	   ! grep -q 'perf_users --perf [^o]' "$T/err"; then
		pass
	else
		fail "WARNING for an unshowable name: $(shown "$T/err")"
	fi
	rm -f "$T/d/$name"
done
finish "setcap: groupadd and setcap --perf-group suggestions paste as one argument per name"
