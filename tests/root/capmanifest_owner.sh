#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# capmanifest records who may run a capable file (owner, group, mode, ACL
# presence) and restore never grants to a file more people can run than
# when it was recorded (issue 12, item 2). The upgrade case on the real
# kernel: perf (our perf probe) is root:<group> 0750 with cap_perfmon=ep,
# a package upgrade replaces it with a root:root 0755 file without
# capabilities, and restore must not hand cap_perfmon to everyone:
#   - verify names the owner/group/mode difference;
#   - restore refuses (non-zero, the file named, nothing written), and
#     nobody still cannot open a CPU-wide perf event;
#   - restore --fix-owner puts group and mode back first, then the
#     capability: nobody cannot run it, a member of the group can profile.
# Also: a mode changed on a capable file, an ACL added to it (it lets
# nobody profile), an ACL that cannot be re-created, and version 1
# manifests (no owner/mode: restore refuses unless --allow-v1).
set -u
. "$TESTS_DIR/lib.sh"
# Users and groups by name (nobody, nogroup) from the base accounts only.
private_etc "$@"
cm=$BUILD/progs/capmanifest probe=$BIN/perfprobe
[ -x "$cm" ] && [ -x "$probe" ] || { echo "capmanifest or perfprobe not built"; exit 1; }
command -v setfattr >/dev/null 2>&1 || { echo "skipped: setfattr (attr) is not installed"; exit 77; }
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null) ||
	{ echo "skipped: no /proc/sys/kernel/perf_event_paranoid (perf events not built in)"; exit 77; }
[ "$paranoid" -ge 1 ] ||
	{ echo "skipped: perf_event_paranoid is $paranoid, so everyone may already probe"; exit 77; }
[ "$(cat /proc/sys/kernel/cap_last_cap)" -ge 38 ] ||
	{ echo "skipped: this kernel predates CAP_PERFMON (38)"; exit 77; }
id nobody >/dev/null 2>&1 || { echo "skipped: no user nobody"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
# A group number nobody is not in and no account needs: never in /etc/group.
gid=47011
t=$tmp/tree perf=$tmp/tree/usr/bin/perf
mkdir -p "$t/usr/bin" && chmod -R 755 "$t"
nobody_gid=$(id -g nobody)
# probe_as WHO: runs perf as nobody, alone or with the group as a
# supplementary one. Through a shell: setpriv itself still holds root's
# capabilities at its execve (keep-caps), so DAC would not be checked.
probe_as() {
	if [ "$1" = member ]; then groups=--groups=$gid; else groups=--clear-groups; fi
	setpriv --reuid=nobody --regid="$nobody_gid" $groups sh -c 'exec "$0"' "$perf" 2>&1
}
caps_of() { /usr/sbin/getcap "$1" | sed 's/^[^ ]* //'; }
owner_of() { stat -c '%u:%g %a' "$1"; }

# The packaged perf, restricted to the group as setcap --perf-group leaves it.
cp "$probe" "$perf" && chown 0:$gid "$perf" && chmod 0750 "$perf" &&
	/usr/sbin/setcap cap_perfmon=ep "$perf" || { echo "setup failed"; exit 1; }
out=$(probe_as member) || fail "setup: a group member cannot profile: $out"
probe_as nobody >/dev/null && fail "setup: nobody (not in the group) could run perf"

"$cm" record "$t" >"$tmp/m" || fail "record exited $?"
printf '# capmanifest 2\n./usr/bin/perf owner=0 group=%s mode=0750 acl=no cap_perfmon=ep\n' $gid >"$tmp/want"
cmp -s "$tmp/m" "$tmp/want" || { fail "manifest:"; diff "$tmp/want" "$tmp/m"; }

# dpkg's upgrade: a new file renamed over the old one, root:root 0755, no caps.
upgrade() {
	cp "$probe" "$perf.dpkg-new" && chmod 0755 "$perf.dpkg-new" &&
		mv -f "$perf.dpkg-new" "$perf" || { echo "upgrade failed"; exit 1; }
}
upgrade
out=$(probe_as nobody) && fail "after the upgrade nobody could profile without capabilities: $out"

"$cm" verify "$tmp/m" "$t" >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 1 ] || fail "verify after the upgrade exited $rc, want 1"
cat >"$tmp/want" <<OUT
missing: ./usr/bin/perf cap_perfmon=ep
differs: ./usr/bin/perf has group=0 mode=0755, manifest says group=$gid mode=0750
OUT
cmp -s "$tmp/out" "$tmp/want" || { fail "verify output:"; diff "$tmp/want" "$tmp/out"; }

"$cm" restore "$tmp/m" "$t" >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 1 ] || fail "restore of the upgraded perf exited $rc, want 1"
echo "restore refuses: $(cat "$tmp/err")"
[ "$(cat "$tmp/err")" = "capmanifest: ./usr/bin/perf: has group=0 mode=0755, manifest says group=$gid mode=0750: not restored (--fix-owner re-applies them)" ] ||
	fail "restore's refusal: $(cat "$tmp/err")"
[ -s "$tmp/out" ] && fail "restore reported a change: $(cat "$tmp/out")"
[ -z "$(caps_of "$perf")" ] || fail "restore wrote capabilities: $(caps_of "$perf")"
[ "$(owner_of "$perf")" = "0:0 755" ] || fail "restore changed the file: $(owner_of "$perf")"
out=$(probe_as nobody) && fail "after the refused restore nobody can profile: $out"
echo "nobody after the refused restore: $out"

"$cm" restore -n --fix-owner "$tmp/m" "$t" >"$tmp/out" 2>"$tmp/err" || fail "dry run exited $?: $(cat "$tmp/err")"
cat >"$tmp/want" <<OUT
would fix: ./usr/bin/perf group=$gid mode=0750
would set: ./usr/bin/perf cap_perfmon=ep
OUT
cmp -s "$tmp/out" "$tmp/want" || { fail "dry run output:"; diff "$tmp/want" "$tmp/out"; }
[ "$(owner_of "$perf")" = "0:0 755" ] && [ -z "$(caps_of "$perf")" ] || fail "the dry run changed the file"

"$cm" restore --fix-owner "$tmp/m" "$t" >"$tmp/out" 2>"$tmp/err" || fail "restore --fix-owner exited $?: $(cat "$tmp/err")"
cat >"$tmp/want" <<OUT
fixed: ./usr/bin/perf group=$gid mode=0750
set: ./usr/bin/perf cap_perfmon=ep
OUT
cmp -s "$tmp/out" "$tmp/want" || { fail "restore --fix-owner output:"; diff "$tmp/want" "$tmp/out"; }
[ "$(owner_of "$perf")" = "0:$gid 750" ] || fail "owner after --fix-owner: $(owner_of "$perf")"
[ "$(caps_of "$perf")" = "cap_perfmon=ep" ] || fail "caps after --fix-owner: $(caps_of "$perf")"
out=$(probe_as nobody) && fail "after restore --fix-owner nobody (not in the group) ran perf: $out"
echo "nobody after --fix-owner: $out"
out=$(probe_as member) || fail "after restore --fix-owner a group member cannot profile: $out"
echo "group member after --fix-owner: $out"
"$cm" verify "$tmp/m" "$t" >"$tmp/out" 2>&1 || fail "verify after --fix-owner: $(cat "$tmp/out")"

# chmod keeps capabilities: a capable perf made world-executable.
chmod 0755 "$perf"
"$cm" verify "$tmp/m" "$t" >"$tmp/out"; rc=$?
[ $rc -eq 1 ] && [ "$(cat "$tmp/out")" = "differs: ./usr/bin/perf has mode=0755, manifest says mode=0750" ] ||
	fail "verify of a chmod: exit $rc, $(cat "$tmp/out")"
"$cm" restore "$tmp/m" "$t" >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 1 ] && grep -q "^capmanifest: ./usr/bin/perf: has mode=0755, manifest says mode=0750: not restored" "$tmp/err" ||
	fail "restore of a chmod: exit $rc, $(cat "$tmp/err")"
"$cm" restore --fix-owner "$tmp/m" "$t" >"$tmp/out" 2>"$tmp/err" || fail "restore --fix-owner of a chmod: $(cat "$tmp/err")"
[ "$(owner_of "$perf")" = "0:$gid 750" ] && [ "$(caps_of "$perf")" = "cap_perfmon=ep" ] ||
	fail "after fixing a chmod: $(owner_of "$perf") $(caps_of "$perf")"

# An ACL entry lets nobody run the capable perf (u:nobody:r-x, mask r-x);
# written raw: the test host need not have setfacl.
u=$(id -u nobody)
acl=$(printf '0x02000000''01000700ffffffff''02000500%02x%02x%02x%02x''04000500ffffffff''10000500ffffffff''20000000ffffffff' \
	$((u & 255)) $((u >> 8 & 255)) $((u >> 16 & 255)) $((u >> 24 & 255)))
setfattr -n system.posix_acl_access -v "$acl" "$perf" || fail "cannot set the ACL"
out=$(probe_as nobody) || fail "the ACL did not let nobody profile (test setup): $out"
"$cm" verify "$tmp/m" "$t" >"$tmp/out"; rc=$?
[ $rc -eq 1 ] && [ "$(cat "$tmp/out")" = "differs: ./usr/bin/perf has acl=yes, manifest says acl=no" ] ||
	fail "verify of an added ACL: exit $rc, $(cat "$tmp/out")"
"$cm" restore --fix-owner "$tmp/m" "$t" >"$tmp/out" 2>"$tmp/err" || fail "restore --fix-owner of an ACL: $(cat "$tmp/err")"
grep -qx "fixed: ./usr/bin/perf acl=no" "$tmp/out" || fail "ACL fix output: $(cat "$tmp/out")"
getfattr -n system.posix_acl_access "$perf" >/dev/null 2>&1 && fail "the ACL is still there"
out=$(probe_as nobody) && fail "nobody still runs perf after the ACL was removed: $out"
[ "$(caps_of "$perf")" = "cap_perfmon=ep" ] || fail "caps after the ACL fix: $(caps_of "$perf")"

# A recorded ACL cannot be re-created: even --fix-owner refuses.
setfattr -n system.posix_acl_access -v "$acl" "$perf"
"$cm" record "$t" >"$tmp/macl" || fail "record with an ACL exited $?"
grep -q "^./usr/bin/perf owner=0 group=$gid mode=0750 acl=yes cap_perfmon=ep\$" "$tmp/macl" ||
	fail "ACL not recorded: $(cat "$tmp/macl")"
upgrade
"$cm" restore --fix-owner "$tmp/macl" "$t" >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 1 ] && grep -q "cannot be re-created" "$tmp/err" || fail "restore of a lost ACL: exit $rc, $(cat "$tmp/err")"
[ -z "$(caps_of "$perf")" ] || fail "capabilities written although the ACL was lost"

# Version 1 manifests cannot prove who may run a file.
printf '# capmanifest 1\n./usr/bin/perf cap_perfmon=ep\n' >"$tmp/v1"
"$cm" restore "$tmp/v1" "$t" >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q "version 1 manifest records no owner, group or mode" "$tmp/err" ||
	fail "restore of a v1 manifest: exit $rc, $(cat "$tmp/err")"
[ -z "$(caps_of "$perf")" ] || fail "a v1 restore wrote capabilities"
"$cm" verify "$tmp/v1" "$t" >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 1 ] && [ "$(cat "$tmp/out")" = "missing: ./usr/bin/perf cap_perfmon=ep" ] &&
	grep -q "not recorded, so not verified" "$tmp/err" || fail "verify of a v1 manifest: exit $rc, $(cat "$tmp/out" "$tmp/err")"
"$cm" restore --allow-v1 "$tmp/v1" "$t" >"$tmp/out" 2>"$tmp/err" || fail "restore --allow-v1 exited $?"
[ "$(caps_of "$perf")" = "cap_perfmon=ep" ] || fail "restore --allow-v1 did not set the capability"
"$cm" verify --fix-owner "$tmp/m" "$t" >/dev/null 2>&1; [ $? -eq 2 ] || fail "--fix-owner accepted by verify"
[ $fails -eq 0 ]
