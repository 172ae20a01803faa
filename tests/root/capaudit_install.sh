#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# capaudit installed set-user-ID or set-group-ID root refuses to run:
# it ran the user's command with the file's ids, euid 0. A set-user-ID
# root copy run by nobody runs nothing (the command reports its ids, and
# says nothing); a set-group-ID one the same; a copy with file
# capabilities, the supported install, runs.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
# nobody and nogroup by name from the base accounts only.
private_etc "$@"
init
CA=$BUILD/progs/capaudit S=$BUILD/progs/setcap probe=$BIN/capaudit_probe
[ -x "$CA" ] && [ -x "$S" ] && [ -x "$probe" ] || { fail "capaudit, setcap or capaudit_probe not built"; finish; }
chmod 755 "$T"
cp "$probe" "$T/ids" && chmod 4755 "$T/ids"
[ "$(as_nobody "$T/ids" --ids | head -1)" = "uids 65534 0 0" ] ||
	skip "set-user-ID bits do not take in $T (a nosuid mount?)"
cp "$probe" "$T/probe" && chmod 755 "$T/probe"

for mode in 4755 2755 6755; do
	cp "$CA" "$T/capaudit" && chown root:root "$T/capaudit" && chmod "$mode" "$T/capaudit"
	as_nobody "$T/capaudit" -- "$T/probe" --ids >"$T/out" 2>"$T/err"
	rc=$?
	[ "$rc" -eq 1 ] && pass || fail "mode $mode: exit $rc, want 1"
	grep -q "^capaudit: refusing to run set-user-ID or set-group-ID " "$T/err" && pass ||
		fail "mode $mode: no refusal: $(cat "$T/err")"
	if [ -s "$T/out" ]; then
		fail "mode $mode: the command ran: $(cat "$T/out")"
	else
		pass
	fi
	rm -f "$T/capaudit"
done

# The supported install: file capabilities, no set-id bit; it runs.
cp "$CA" "$T/capaudit" && chmod 755 "$T/capaudit"
"$S" cap_perfmon=ep "$T/capaudit" && pass || fail "our setcap cap_perfmon=ep"
as_nobody "$T/capaudit" --version >"$T/out" 2>"$T/err" && pass ||
	fail "capaudit with file capabilities refused: $(cat "$T/err")"
grep -q '^capaudit (libcap-perfmon) ' "$T/out" && pass || fail "--version: $(cat "$T/out")"
finish "capaudit: set-user-ID and set-group-ID installs refused, nothing run"
