#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# capmanifest records who may run a capable file (owner, group, mode, ACL
# presence) and restore never grants to a file more people can run than
# when it was recorded. The upgrade case on the real
# kernel: perf (our perf probe) is root:<group> 0750 with cap_perfmon=ep,
# a package upgrade replaces it with a root:root 0755 file without
# capabilities, and restore must not hand cap_perfmon to everyone:
#   - verify names the owner/group/mode difference;
#   - restore refuses (non-zero, the file named, nothing written), and
#     nobody still cannot open a CPU-wide perf event;
#   - restore --fix-owner puts group and mode back first, then the
#     capability: nobody cannot run it, a member of the group can profile.
# Also: a mode changed on a capable file, an ACL added to it (it lets
# nobody profile), a recorded ACL re-created after an upgrade lost it,
# and version 1 manifests (no owner/mode: restore refuses unless
# --allow-v1; no content digest either, so even then it grants nothing to
# a file in /tmp). tests/root/capmanifest_acl.sh checks ACL entries.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
# Users and groups by name (nobody, nogroup) from the base accounts only.
private_etc "$@"
cm=$BUILD/progs/capmanifest probe=$BIN/perfprobe
[ -x "$cm" ] && [ -x "$probe" ] || { fail "capmanifest or perfprobe not built"; finish; }
command -v setfattr >/dev/null 2>&1 || skip "setfattr (attr) is not installed"
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null) ||
	skip "no /proc/sys/kernel/perf_event_paranoid (perf events not built in)"
[ "$paranoid" -ge 1 ] ||
	skip "perf_event_paranoid is $paranoid, so everyone may already probe"
[ "$(cat /proc/sys/kernel/cap_last_cap)" -ge 38 ] ||
	skip "this kernel predates CAP_PERFMON (38)"
id nobody >/dev/null 2>&1 || skip "no user nobody"
chmod 755 "$T"
# A group number nobody is not in and no account needs: never in /etc/group.
gid=47011
t=$T/tree perf=$T/tree/usr/bin/perf
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
	/usr/sbin/setcap cap_perfmon=ep "$perf" || { fail "setup failed"; finish; }
out=$(probe_as member) && pass || fail "setup: a group member cannot profile: $out"
probe_as nobody >/dev/null && fail "setup: nobody (not in the group) could run perf" || pass

"$cm" record "$t" >"$T/m" && pass || fail "record exited $?"
sum=$(sha256sum "$perf" | cut -d' ' -f1)
printf '# capmanifest 4\n./usr/bin/perf owner=0 group=%s mode=0750 acl=no sha256=%s cap_perfmon=ep\n' $gid "$sum" >"$T/want"
cmp -s "$T/m" "$T/want" && pass || { fail "manifest:"; diff "$T/want" "$T/m"; }

# dpkg's upgrade: a new file renamed over the old one, root:root 0755, no caps.
upgrade() {
	cp "$probe" "$perf.dpkg-new" && chmod 0755 "$perf.dpkg-new" &&
		mv -f "$perf.dpkg-new" "$perf" || { fail "upgrade failed"; finish; }
}
upgrade
out=$(probe_as nobody) && fail "after the upgrade nobody could profile without capabilities: $out" || pass

"$cm" verify "$T/m" "$t" >"$T/out" 2>"$T/err"; rc=$?
[ $rc -eq 1 ] && pass || fail "verify after the upgrade exited $rc, want 1"
cat >"$T/want" <<OUT
missing: ./usr/bin/perf cap_perfmon=ep
differs: ./usr/bin/perf has group=0 mode=0755, manifest says group=$gid mode=0750
OUT
cmp -s "$T/out" "$T/want" && pass || { fail "verify output:"; diff "$T/want" "$T/out"; }

"$cm" restore "$T/m" "$t" >"$T/out" 2>"$T/err"; rc=$?
[ $rc -eq 1 ] && pass || fail "restore of the upgraded perf exited $rc, want 1"
echo "restore refuses: $(cat "$T/err")"
[ "$(cat "$T/err")" = "capmanifest: ./usr/bin/perf: has group=0 mode=0755, manifest says group=$gid mode=0750: not restored (--fix-owner re-applies them)
capmanifest: to restore them: capmanifest restore --fix-owner $T/m $t" ] && pass ||
	fail "restore's refusal: $(cat "$T/err")"
cp "$T/err" "$T/refusal"
[ -s "$T/out" ] && fail "restore reported a change: $(cat "$T/out")" || pass
[ -z "$(caps_of "$perf")" ] && pass || fail "restore wrote capabilities: $(caps_of "$perf")"
[ "$(owner_of "$perf")" = "0:0 755" ] && pass || fail "restore changed the file: $(owner_of "$perf")"
out=$(probe_as nobody) && fail "after the refused restore nobody can profile: $out" || pass
echo "nobody after the refused restore: $out"

"$cm" restore -n --fix-owner "$T/m" "$t" >"$T/out" 2>"$T/err" && pass || fail "dry run exited $?: $(cat "$T/err")"
cat >"$T/want" <<OUT
would fix: ./usr/bin/perf group=$gid mode=0750
would set: ./usr/bin/perf cap_perfmon=ep
OUT
cmp -s "$T/out" "$T/want" && pass || { fail "dry run output:"; diff "$T/want" "$T/out"; }
[ "$(owner_of "$perf")" = "0:0 755" ] && [ -z "$(caps_of "$perf")" ] && pass || fail "the dry run changed the file"

# The command the refusal printed, pasted.
paste_for_real "$T/refusal" "capmanifest: to restore them: "
[ "$rc" -eq 0 ] && pass || fail "restore --fix-owner, as printed, exited $rc: $(cat "$T/err")"
cat >"$T/want" <<OUT
fixed: ./usr/bin/perf group=$gid mode=0750
set: ./usr/bin/perf cap_perfmon=ep
OUT
cmp -s "$T/out" "$T/want" && pass || { fail "restore --fix-owner output:"; diff "$T/want" "$T/out"; }
[ "$(owner_of "$perf")" = "0:$gid 750" ] && pass || fail "owner after --fix-owner: $(owner_of "$perf")"
[ "$(caps_of "$perf")" = "cap_perfmon=ep" ] && pass || fail "caps after --fix-owner: $(caps_of "$perf")"
out=$(probe_as nobody) && fail "after restore --fix-owner nobody (not in the group) ran perf: $out" || pass
echo "nobody after --fix-owner: $out"
out=$(probe_as member) && pass || fail "after restore --fix-owner a group member cannot profile: $out"
echo "group member after --fix-owner: $out"
"$cm" verify "$T/m" "$t" >"$T/out" 2>&1 && pass || fail "verify after --fix-owner: $(cat "$T/out")"

# chmod keeps capabilities: a capable perf made world-executable.
chmod 0755 "$perf"
"$cm" verify "$T/m" "$t" >"$T/out"; rc=$?
[ $rc -eq 1 ] && [ "$(cat "$T/out")" = "differs: ./usr/bin/perf has mode=0755, manifest says mode=0750" ] && pass ||
	fail "verify of a chmod: exit $rc, $(cat "$T/out")"
"$cm" restore "$T/m" "$t" >"$T/out" 2>"$T/err"; rc=$?
[ $rc -eq 1 ] && grep -q "^capmanifest: ./usr/bin/perf: has mode=0755, manifest says mode=0750: not restored" "$T/err" && pass ||
	fail "restore of a chmod: exit $rc, $(cat "$T/err")"
"$cm" restore --fix-owner "$T/m" "$t" >"$T/out" 2>"$T/err" && pass || fail "restore --fix-owner of a chmod: $(cat "$T/err")"
[ "$(owner_of "$perf")" = "0:$gid 750" ] && [ "$(caps_of "$perf")" = "cap_perfmon=ep" ] && pass ||
	fail "after fixing a chmod: $(owner_of "$perf") $(caps_of "$perf")"

# An ACL entry lets nobody run the capable perf (u:nobody:r-x, mask r-x);
# written raw: the test host need not have setfacl.
u=$(id -u nobody)
acl=$(printf '0x02000000''01000700ffffffff''02000500%02x%02x%02x%02x''04000500ffffffff''10000500ffffffff''20000000ffffffff' \
	$((u & 255)) $((u >> 8 & 255)) $((u >> 16 & 255)) $((u >> 24 & 255)))
setfattr -n system.posix_acl_access -v "$acl" "$perf" && pass || fail "cannot set the ACL"
out=$(probe_as nobody) && pass || fail "the ACL did not let nobody profile (test setup): $out"
"$cm" verify "$T/m" "$t" >"$T/out"; rc=$?
[ $rc -eq 1 ] && [ "$(cat "$T/out")" = "differs: ./usr/bin/perf has acl=user::rwx,user:$u:r-x,group::r-x,mask::r-x,other::---, manifest says acl=no" ] && pass ||
	fail "verify of an added ACL: exit $rc, $(cat "$T/out")"
"$cm" restore --fix-owner "$T/m" "$t" >"$T/out" 2>"$T/err" && pass || fail "restore --fix-owner of an ACL: $(cat "$T/err")"
grep -qx "fixed: ./usr/bin/perf acl=no" "$T/out" && pass || fail "ACL fix output: $(cat "$T/out")"
getfattr -n system.posix_acl_access "$perf" >/dev/null 2>&1 && fail "the ACL is still there" || pass
out=$(probe_as nobody) && fail "nobody still runs perf after the ACL was removed: $out" || pass
[ "$(caps_of "$perf")" = "cap_perfmon=ep" ] && pass || fail "caps after the ACL fix: $(caps_of "$perf")"

# A recorded ACL is re-created, entry by entry, after an upgrade lost it.
setfattr -n system.posix_acl_access -v "$acl" "$perf"
"$cm" record "$t" >"$T/macl" && pass || fail "record with an ACL exited $?"
text="user::rwx,user:$u:r-x,group::r-x,mask::r-x,other::---"
grep -q "^./usr/bin/perf owner=0 group=$gid mode=0750 acl=$text sha256=$sum cap_perfmon=ep\$" "$T/macl" && pass ||
	fail "ACL not recorded: $(cat "$T/macl")"
upgrade
"$cm" restore --fix-owner "$T/macl" "$t" >"$T/out" 2>"$T/err"; rc=$?
[ $rc -eq 0 ] && [ "$(cat "$T/out")" = "fixed: ./usr/bin/perf group=$gid mode=0750 acl=$text
set: ./usr/bin/perf cap_perfmon=ep" ] && pass || fail "restore of a lost ACL: exit $rc, $(cat "$T/out" "$T/err")"
[ "$(getfattr -e hex -n system.posix_acl_access "$perf" 2>/dev/null | sed -n 's/^system.posix_acl_access=//p')" = "$acl" ] && pass ||
	fail "the ACL re-created is not the one recorded"
out=$(probe_as nobody) && pass || fail "the re-created ACL does not let nobody profile: $out"
upgrade

# Version 1 manifests cannot prove who may run a file.
printf '# capmanifest 1\n./usr/bin/perf cap_perfmon=ep\n' >"$T/v1"
"$cm" restore "$T/v1" "$t" >"$T/out" 2>"$T/err"; rc=$?
[ $rc -eq 2 ] && grep -q "version 1 manifest records no owner, group or mode" "$T/err" && pass ||
	fail "restore of a v1 manifest: exit $rc, $(cat "$T/err")"
[ -z "$(caps_of "$perf")" ] && pass || fail "a v1 restore wrote capabilities"
"$cm" verify "$T/v1" "$t" >"$T/out" 2>"$T/err"; rc=$?
[ $rc -eq 1 ] && [ "$(cat "$T/out")" = "missing: ./usr/bin/perf cap_perfmon=ep" ] &&
	grep -q "not recorded, so not verified" "$T/err" && pass || fail "verify of a v1 manifest: exit $rc, $(cat "$T/out" "$T/err")"
# Nor what the file is: no content digest, so --allow-v1 alone grants
# nothing, and --accept-new-content nothing below /tmp (sticky, but
# every user may add names there).
"$cm" restore --allow-v1 "$T/v1" "$t" >"$T/out" 2>"$T/err"; rc=$?
[ $rc -eq 1 ] && grep -q "^capmanifest: ./usr/bin/perf: the manifest (version 1) records no content digest: not restored (nor with --accept-new-content: " "$T/err" &&
	! grep -q "to restore them" "$T/err" && pass ||
	fail "restore --allow-v1: exit $rc, $(cat "$T/err")"
[ -z "$(caps_of "$perf")" ] && pass || fail "restore --allow-v1 set a capability on a file of unknown content"
tmp=$(dirname "$T")
if [ "$(stat -c %a "$tmp")" = 1777 ]; then
	"$cm" restore --allow-v1 --accept-new-content "$T/v1" "$t" >"$T/out" 2>"$T/err"; rc=$?
	[ $rc -eq 1 ] && grep -q "^capmanifest: ./usr/bin/perf: the manifest (version 1) records no content digest: not accepted: directory $tmp: everyone may write it (mode 1777, sticky, which still lets them add names)\$" "$T/err" && pass ||
		fail "restore --allow-v1 --accept-new-content below $tmp: exit $rc, $(cat "$T/err")"
	[ -z "$(caps_of "$perf")" ] && pass || fail "restore --allow-v1 --accept-new-content set a capability below $tmp"
else
	not_checked "$tmp is not mode 1777; --accept-new-content below a sticky directory not checked here"
fi
"$cm" verify --fix-owner "$T/m" "$t" >/dev/null 2>&1; [ $? -eq 2 ] && pass || fail "--fix-owner accepted by verify"
finish
