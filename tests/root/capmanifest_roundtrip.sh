#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# capmanifest round trip on a generated tree: record, lose capabilities the
# way a tarball or rsync would, verify (exit 1 with exact lines), restore,
# verify again (exit 0); bad manifests fail whole with line numbers; a
# manifest can never reach outside the tree; a symlink swapped in during
# restore never receives a capability.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
cm=$BUILD/progs/capmanifest
[ -x "$cm" ] || { fail "capmanifest not built"; finish; }
t=$T/tree

umask 022
mkdir -p "$t/bin" "$t/usr/lib/x" "$t/odd dir" "$t/empty"
i=0
while [ $i -lt 60 ]; do echo "$i" >"$t/usr/lib/x/f$i"; i=$((i + 1)); done
for f in bin/ping bin/perf "odd dir/new
line" usr/lib/x/f7; do echo x >"$t/$f"; done
/usr/sbin/setcap cap_net_raw=ep "$t/bin/ping"
/usr/sbin/setcap cap_perfmon,cap_syslog=ep "$t/bin/perf"
/usr/sbin/setcap -n 1000 cap_kill+p "$t/odd dir/new
line"
/usr/sbin/setcap 41,cap_chown=eip "$t/usr/lib/x/f7"
ln -s /usr/bin/passwd "$t/bin/link"
# A name with a bidi override (U+202E), a C1 CSI and a byte that is not
# UTF-8: written as octal escapes, so printing a manifest steers no
# terminal, and read back to the same bytes (verify finds it intact).
evil=$(printf 'evil\342\200\256txt\302\233\377')
echo x >"$t/odd dir/$evil"
/usr/sbin/setcap cap_chown=p "$t/odd dir/$evil"

"$cm" record "$t" >"$T/m" && pass || fail "record exited $?"
# Every capable file holds "x\n".
x=$(echo x | sha256sum | cut -d' ' -f1)
cat >"$T/want" <<MANIFEST
# capmanifest 4
./bin/perf owner=0 group=0 mode=0644 acl=no sha256=$x cap_syslog,cap_perfmon=ep
./bin/ping owner=0 group=0 mode=0644 acl=no sha256=$x cap_net_raw=ep
./odd\\040dir/evil\\342\\200\\256txt\\302\\233\\377 owner=0 group=0 mode=0644 acl=no sha256=$x cap_chown=p
./odd\\040dir/new\\012line owner=0 group=0 mode=0644 acl=no sha256=$x cap_kill=p [rootid=1000]
./usr/lib/x/f7 owner=0 group=0 mode=0644 acl=no sha256=$x cap_chown=eip 41+eip
MANIFEST
# 41 is a number to libcap 2.66's setcap and to this text; a name once
# private/caps.def has one (tools/as_libcap266.sh writes it as 41 again).
sh "$TESTS_DIR/tools/as_libcap266.sh" <"$T/m" >"$T/m.266"
cmp -s "$T/m.266" "$T/want" && pass || { fail "recorded manifest differs:"; diff "$T/want" "$T/m.266"; }
"$cm" verify "$T/m" "$t" >"$T/out" && pass || fail "verify of an intact tree exited $?"
[ -s "$T/out" ] && fail "verify of an intact tree printed: $(cat "$T/out")" || pass

# Lose and change capabilities as a careless copy would.
cp "$t/bin/ping" "$T/ping" && mv "$T/ping" "$t/bin/ping"
/usr/sbin/setcap cap_sys_admin=ep "$t/bin/perf"
/usr/sbin/setcap cap_setuid=ep "$t/usr/lib/x/f3"
"$cm" verify "$T/m" "$t" >"$T/out"; rc=$?
[ $rc -eq 1 ] && pass || fail "verify of a damaged tree exited $rc, want 1"
cat >"$T/want" <<'OUT'
differs: ./bin/perf has cap_sys_admin=ep, manifest says cap_syslog,cap_perfmon=ep
missing: ./bin/ping cap_net_raw=ep
extra:   ./usr/lib/x/f3 cap_setuid=ep
OUT
cmp -s "$T/out" "$T/want" && pass || { fail "verify output:"; diff "$T/want" "$T/out"; }

"$cm" restore -n "$T/m" "$t" >"$T/out" && pass || fail "dry run exited $?"
grep -q '^would set: ./bin/ping cap_net_raw=ep$' "$T/out" && pass || fail "dry run: $(cat "$T/out")"
"$cm" verify "$T/m" "$t" >/dev/null && fail "dry run changed the tree" || pass

"$cm" restore "$T/m" "$t" >"$T/out" && pass || fail "restore exited $?"
cat >"$T/want" <<'OUT'
set: ./bin/perf cap_syslog,cap_perfmon=ep
set: ./bin/ping cap_net_raw=ep
removed: ./usr/lib/x/f3 cap_setuid=ep
OUT
cmp -s "$T/out" "$T/want" && pass || { fail "restore output:"; diff "$T/want" "$T/out"; }
"$cm" verify "$T/m" "$t" >"$T/out" && pass || fail "verify after restore: $(cat "$T/out")"
[ "$(/usr/sbin/getcap "$t/usr/lib/x/f7")" = "$t/usr/lib/x/f7 cap_chown=eip 41+eip" ] && pass ||
	fail "41+eip not restored exactly"

# Bad manifests: every bad line named, nothing applied, exit 2.
printf '# capmanifest 1\n./bin/ls cap_bogus=ep\n./bin/ls\n./../etc/x cap_kill=p\n/abs cap_kill=p\n./a\\9 cap_kill=p\n./bin/ping cap_kill=p [rootid=x]\n./bin/perf cap_kill=p [rootid=-4294967295]\n./bin/ls cap_kill=p [rootid= 5]\n./bin/ls cap_kill=p [rootid=4294967296]\n' >"$T/bad"
"$cm" restore --allow-v1 "$T/bad" "$t" >"$T/out" 2>"$T/err"; rc=$?
[ $rc -eq 2 ] && pass || fail "bad manifest: exit $rc, want 2"
for n in 2 3 4 5 6 7 8 9 10; do
	grep -q "^capmanifest: $T/bad:$n: " "$T/err" && pass || fail "line $n not reported: $(cat "$T/err")"
done
expect_line "$T/err" 'invalid capability text "cap_bogus=ep"' "bad caps not named"
[ -s "$T/out" ] && fail "bad manifest applied something: $(cat "$T/out")" || pass
printf 'not a manifest\n' >"$T/bad"
"$cm" verify "$T/bad" "$t" 2>"$T/err"; [ $? -eq 2 ] && pass || fail "non-manifest accepted"
grep -q 'not a capability manifest' "$T/err" && pass || fail "non-manifest message: $(cat "$T/err")"
"$cm" verify "$T/nonexistent" "$t" 2>/dev/null; [ $? -eq 2 ] && pass || fail "missing manifest accepted"
"$cm" frobnicate 2>/dev/null; [ $? -eq 2 ] && pass || fail "unknown command accepted"

# Restore never follows symlinks: a manifest entry that is a symlink, or has
# a symlinked directory on its way, fails and the target stays untouched.
echo x >"$T/target"
mkdir "$T/t2"; ln -s "$T/target" "$T/t2/victim"; ln -s "$T" "$T/t2/dir"
printf '# capmanifest 3\n./victim owner=0 group=0 mode=0644 acl=no sha256=%s cap_sys_admin=ep\n./dir/target owner=0 group=0 mode=0644 acl=no sha256=%s cap_sys_admin=ep\n' "$x" "$x" >"$T/m2"
"$cm" restore "$T/m2" "$T/t2" >/dev/null 2>"$T/err"; rc=$?
[ $rc -eq 1 ] && pass || fail "restore through symlinks exited $rc, want 1"
[ -z "$(/usr/sbin/getcap "$T/target")" ] && pass || fail "symlink target got a capability"

# The race: swap a symlink and a file at one path while restoring.
mkdir "$T/t3"; echo x >"$T/t3/file"
printf '# capmanifest 3\n./file owner=0 group=0 mode=0644 acl=no sha256=%s cap_net_raw=ep\n' "$x" >"$T/m3"
( end=$(($(date +%s) + 3))
  while [ "$(date +%s)" -lt $end ]; do
	ln -sfn "$T/target" "$T/t3/file.new" && mv -T "$T/t3/file.new" "$T/t3/file"
	echo x >"$T/t3/file.new" && mv -T "$T/t3/file.new" "$T/t3/file"
  done ) &
swapper=$!
n=0 set=0
while kill -0 $swapper 2>/dev/null; do
	"$cm" restore "$T/m3" "$T/t3" >"$T/out" 2>/dev/null
	grep -q '^set: ' "$T/out" && set=$((set + 1))
	n=$((n + 1))
done
wait $swapper
[ -z "$(/usr/sbin/getcap "$T/target")" ] && pass || fail "race: symlink target got a capability"
[ $set -gt 0 ] && pass || fail "race: no restore reached a file (the race proves nothing)"
echo "race: $n restores against a swapping symlink ($set set a capability on a file), target untouched"

finish
