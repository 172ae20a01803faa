#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# What a manifest may name: a "." component is a second
# spelling of a path and is refused, as is an escape that decodes to NUL
# ("./a\000/../../../etc/passwd" acted on ./a); and a FIFO or device node
# named by a manifest is never opened (only O_PATH, never for reading):
# the FIFO's writer stays unconnected, strace shows no other open (the
# content digest of version 3 is read from regular files only), and the
# error says it is not a regular file. A refused manifest changes nothing.
# A digest has one spelling: 64 lower-case hex digits. A manifest cut
# short (its last line without a newline) is refused whole: the cut may
# fall in the capability text ("=ep cap_sys_admin-ep" cut to "=ep").
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
cm=$BUILD/progs/capmanifest
[ -x "$cm" ] || { fail "capmanifest not built"; finish; }
writer=
at_exit '[ -z "$writer" ] || kill $writer 2>/dev/null'
t=$T/t
umask 022
mkdir -p "$t/sub" && echo x >"$t/sub/b" && echo x >"$t/a"
# The digest of 'x', the content of ./c\001d below.
x=2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881
hdr="# capmanifest 3" meta="owner=0 group=0 mode=0644 acl=no sha256=$x "
caps_of() { /usr/sbin/getcap "$1" | sed 's/^[^ ]* //'; }

# refused NAME LINE ERROR: a manifest with LINE is refused whole with ERROR.
refused() {
	printf '%s\n%s\n' "$hdr" "$2" >"$T/m"
	for cmd in restore verify; do
		"$cm" $cmd "$T/m" "$t" >"$T/out" 2>"$T/err"; rc=$?
		[ $rc -eq 2 ] && pass || fail "$1 ($cmd): exit $rc, want 2"
		grep -q "^capmanifest: $T/m:2: $3" "$T/err" && pass || fail "$1 ($cmd): stderr $(cat "$T/err")"
		[ -s "$T/out" ] && fail "$1 ($cmd): stdout $(cat "$T/out")" || pass
	done
}
refused "a '.' component" "./sub/./b ${meta}cap_net_raw=ep" 'path must start with "./" and have no ".", ".." or empty component'
refused "a final '.'" "./sub/. ${meta}cap_net_raw=ep" 'path must start'
refused "a leading './.'" "././a ${meta}cap_net_raw=ep" 'path must start'
refused "an escaped NUL" "./a\\000/../../../etc/passwd ${meta}cap_net_raw=ep" 'bad escape in path'
refused "an escaped NUL at the end" "./a\\000 ${meta}cap_net_raw=ep" 'bad escape in path'
upper=$(echo "$x" | tr a-f A-F)
refused "no digest" "./a owner=0 group=0 mode=0644 acl=no cap_net_raw=ep" 'want "sha256=" and 64 lower-case hex digits after acl='
refused "an upper-case digest" "./a owner=0 group=0 mode=0644 acl=no sha256=$upper cap_net_raw=ep" 'want "sha256="'
refused "a short digest" "./a owner=0 group=0 mode=0644 acl=no sha256=${x%?} cap_net_raw=ep" 'want "sha256="'
refused "a long digest" "./a owner=0 group=0 mode=0644 acl=no sha256=${x}0 cap_net_raw=ep" 'want "sha256="'
refused "a digest before acl=" "./a owner=0 group=0 mode=0644 sha256=$x acl=no cap_net_raw=ep" 'want "owner=N'
[ -z "$(caps_of "$t/sub/b")" ] && [ -z "$(caps_of "$t/a")" ] && pass || fail "a refused manifest granted something"
# The same escape of other bytes still works: \001 is a name's byte.
printf 'x' >"$t/c$(printf '\001')d"
printf '%s\n./c\\001d %scap_net_raw=ep\n' "$hdr" "$meta" >"$T/m"
"$cm" restore "$T/m" "$t" >"$T/out" 2>&1 && pass || fail "restore of ./c\\001d: $(cat "$T/out")"
[ "$(caps_of "$t/c$(printf '\001')d")" = cap_net_raw=ep ] && pass || fail "./c\\001d not restored"

# A manifest cut short (a full disk under "record / > m", a copy
# interrupted) ends without a newline, and its last field may be cut
# too: "=ep cap_sys_admin-ep" cut to "=ep" is every capability, and a
# namespaced capability cut before " [rootid=N]" is one for the whole
# system. Refused whole, nothing granted. (Restore granted "=ep" to ./cut,
# whose content, 'x', is the recorded one.)
printf 'x' >"$t/cut"
cut_short() {	# NAME LINE: the line written without its newline
	printf '%s\n%s' "$hdr" "$2" >"$T/m"
	for cmd in restore verify; do
		"$cm" $cmd "$T/m" "$t" >"$T/out" 2>"$T/err"; rc=$?
		[ $rc -eq 2 ] && pass || fail "$1 ($cmd): exit $rc, want 2"
		[ "$(cat "$T/err")" = "capmanifest: $T/m:2: no newline at the end of the line: the manifest is cut short" ] && pass ||
			fail "$1 ($cmd): stderr $(cat "$T/err")"
		[ -s "$T/out" ] && fail "$1 ($cmd): stdout $(cat "$T/out")" || pass
	done
	[ -z "$(caps_of "$t/cut")" ] && pass || fail "$1: granted $(caps_of "$t/cut")"
}
cut_short "every capability but one, cut to every one" "./cut ${meta}=ep"
cut_short "a namespaced capability cut before its root id" "./cut ${meta}cap_sys_admin=ep"
# The line whole is read: only the cut was refused.
printf '%s\n./cut %s=ep cap_sys_admin-ep\n' "$hdr" "$meta" >"$T/m"
"$cm" restore "$T/m" "$t" >"$T/out" 2>&1 && pass || fail "restore of a whole line: $(cat "$T/out")"
[ "$(caps_of "$t/cut")" = "=ep cap_sys_admin-ep" ] && pass || fail "whole line: $(caps_of "$t/cut")"
/usr/sbin/setcap -r "$t/cut"

# A FIFO and a device node named by a manifest.
mkfifo "$t/fifo" && mknod "$t/null" c 1 3 || { fail "cannot make a FIFO or a device node"; finish; }
# The writer's open blocks until someone opens the FIFO for reading.
(exec 3>"$t/fifo"; echo connected >"$T/writer") & writer=$!
sleep 0.2
printf '%s\n./fifo %scap_net_raw=ep\n./null %scap_net_raw=ep\n' "$hdr" "$meta" "$meta" >"$T/m"
for cmd in restore verify; do
	if command -v strace >/dev/null 2>&1; then
		no_leak_check strace -f -qq -e trace=open,openat,openat2 -o "$T/trace" \
			"$cm" $cmd "$T/m" "$t" >"$T/out" 2>"$T/err"; rc=$?
		opened=$(grep -E '"[^"]*(fifo|null)"' "$T/trace" | grep -v O_PATH)
		[ -z "$opened" ] && pass || fail "$cmd opened them: $opened"
		echo "$cmd: opens of the FIFO and the device node: $(grep -cE '"[^"]*(fifo|null)"' "$T/trace"), all O_PATH"
	else
		"$cm" $cmd "$T/m" "$t" >"$T/out" 2>"$T/err"; rc=$?
	fi
	[ $rc -eq 1 ] && pass || fail "$cmd: exit $rc, want 1"
	[ -e "$T/writer" ] && fail "$cmd opened the FIFO for reading: its writer connected" || pass
done
# record reads every capable file's content: never a FIFO's or a device's.
if command -v strace >/dev/null 2>&1; then
	no_leak_check strace -f -qq -e trace=open,openat,openat2 -o "$T/trace" \
		"$cm" record "$t" >"$T/out" 2>"$T/err"; rc=$?
	[ $rc -eq 0 ] && pass || fail "record: exit $rc: $(cat "$T/err")"
	opened=$(grep -E '"[^"]*(fifo|null)"' "$T/trace")
	[ -z "$opened" ] && pass || fail "record opened them: $opened"
	[ -e "$T/writer" ] && fail "record opened the FIFO for reading: its writer connected" || pass
fi
cat >"$T/want" <<'ERR'
capmanifest: cannot set ./fifo: not a regular file
capmanifest: cannot set ./null: not a regular file
ERR
"$cm" restore "$T/m" "$t" >"$T/out" 2>"$T/err"
cmp -s "$T/err" "$T/want" && pass || fail "restore's errors: $(cat "$T/err")"
[ -e "$T/writer" ] && fail "the FIFO's writer connected" || pass
kill $writer 2>/dev/null; wait $writer 2>/dev/null; writer=
finish
