#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# What a manifest may name (issue 12, item 3): a "." component is a second
# spelling of a path and is refused, as is an escape that decodes to NUL
# ("./a\000/../../../etc/passwd" acted on ./a); and a FIFO or device node
# named by a manifest is never opened (only O_PATH, never for reading):
# the FIFO's writer stays unconnected, strace shows no other open, and the
# error says it is not a regular file. A refused manifest changes nothing.
set -u
. "$TESTS_DIR/lib.sh"
cm=$BUILD/progs/capmanifest
[ -x "$cm" ] || { echo "capmanifest not built"; exit 1; }
tmp=$(mktemp -d); writer=
trap '[ -n "$writer" ] && kill $writer 2>/dev/null; rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
t=$tmp/t
umask 022
mkdir -p "$t/sub" && echo x >"$t/sub/b" && echo x >"$t/a"
hdr="# capmanifest 2" meta="owner=0 group=0 mode=0644 acl=no "
caps_of() { /usr/sbin/getcap "$1" | sed 's/^[^ ]* //'; }

# bad NAME LINE ERROR: a manifest with LINE is refused whole with ERROR.
bad() {
	printf '%s\n%s\n' "$hdr" "$2" >"$tmp/m"
	for cmd in restore verify; do
		"$cm" $cmd "$tmp/m" "$t" >"$tmp/out" 2>"$tmp/err"; rc=$?
		[ $rc -eq 2 ] || fail "$1 ($cmd): exit $rc, want 2"
		grep -q "^capmanifest: $tmp/m:2: $3" "$tmp/err" || fail "$1 ($cmd): stderr $(cat "$tmp/err")"
		[ -s "$tmp/out" ] && fail "$1 ($cmd): stdout $(cat "$tmp/out")"
	done
}
bad "a '.' component" "./sub/./b ${meta}cap_net_raw=ep" 'path must start with "./" and have no ".", ".." or empty component'
bad "a final '.'" "./sub/. ${meta}cap_net_raw=ep" 'path must start'
bad "a leading './.'" "././a ${meta}cap_net_raw=ep" 'path must start'
bad "an escaped NUL" "./a\\000/../../../etc/passwd ${meta}cap_net_raw=ep" 'bad escape in path'
bad "an escaped NUL at the end" "./a\\000 ${meta}cap_net_raw=ep" 'bad escape in path'
[ -z "$(caps_of "$t/sub/b")" ] && [ -z "$(caps_of "$t/a")" ] || fail "a refused manifest granted something"
# The same escape of other bytes still works: \001 is a name's byte.
printf 'x' >"$t/c$(printf '\001')d"
printf '%s\n./c\\001d %scap_net_raw=ep\n' "$hdr" "$meta" >"$tmp/m"
"$cm" restore "$tmp/m" "$t" >"$tmp/out" 2>&1 || fail "restore of ./c\\001d: $(cat "$tmp/out")"
[ "$(caps_of "$t/c$(printf '\001')d")" = cap_net_raw=ep ] || fail "./c\\001d not restored"

# A FIFO and a device node named by a manifest.
mkfifo "$t/fifo" && mknod "$t/null" c 1 3 || { echo "cannot make a FIFO or a device node"; exit 1; }
# The writer's open blocks until someone opens the FIFO for reading.
(exec 3>"$t/fifo"; echo connected >"$tmp/writer") & writer=$!
sleep 0.2
printf '%s\n./fifo %scap_net_raw=ep\n./null %scap_net_raw=ep\n' "$hdr" "$meta" "$meta" >"$tmp/m"
for cmd in restore verify; do
	if command -v strace >/dev/null 2>&1; then
		strace -f -qq -e trace=open,openat,openat2 -o "$tmp/trace" \
			"$cm" $cmd "$tmp/m" "$t" >"$tmp/out" 2>"$tmp/err"; rc=$?
		opened=$(grep -E '"[^"]*(fifo|null)"' "$tmp/trace" | grep -v O_PATH)
		[ -z "$opened" ] || fail "$cmd opened them: $opened"
		echo "$cmd: opens of the FIFO and the device node: $(grep -cE '"[^"]*(fifo|null)"' "$tmp/trace"), all O_PATH"
	else
		"$cm" $cmd "$tmp/m" "$t" >"$tmp/out" 2>"$tmp/err"; rc=$?
	fi
	[ $rc -eq 1 ] || fail "$cmd: exit $rc, want 1"
	[ -e "$tmp/writer" ] && fail "$cmd opened the FIFO for reading: its writer connected"
done
cat >"$tmp/want" <<'ERR'
capmanifest: cannot set ./fifo: not a regular file
capmanifest: cannot set ./null: not a regular file
ERR
"$cm" restore "$tmp/m" "$t" >"$tmp/out" 2>"$tmp/err"
cmp -s "$tmp/err" "$tmp/want" || fail "restore's errors: $(cat "$tmp/err")"
[ -e "$tmp/writer" ] && fail "the FIFO's writer connected"
kill $writer 2>/dev/null; wait $writer 2>/dev/null; writer=
[ $fails -eq 0 ]
