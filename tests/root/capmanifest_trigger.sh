#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# The Debian package's trigger, both sides. libcap2-bin's postinst runs
# "capmanifest restore --listed-only --accept-new-content MANIFEST /" for
# each registered manifest after a package install touches /usr/bin and
# the like; an upgrade of perf brings new content, which the digest
# alone would refuse. In a private mount namespace, a tmpfs on /mnt
# (root's alone, as are / and /mnt's directories) holds the system:
#   - perf is registered with one command (capmanifest add), the manifest
#     written 0644, root's, nothing left beside it;
#   - an upgrade with dpkg-statoverride's owner, group and mode (new
#     content): the trigger accepts it and puts cap_perfmon back, a
#     member of the group profiles, nobody still cannot run it;
#   - so does a manifest of the older recipe (version 2, no digests);
#   - an upgrade without them (root:root 0755): refused, as before, with
#     the command that restores it; that command, pasted, does;
#   - a registered tool in a directory nobody owns: a root-owned program
#     of other content she renamed over it is not accepted, and her own
#     file is refused, with no hint that --fix-owner would help (it
#     would not); nobody running it gets neither euid 0 nor a
#     capability. Nothing of either file changes;
#   - the system named through a link in nobody's directory: the upgrade
#     is not accepted (she could point the link at another tree);
#   - add again after the upgrade records the new content: verify passes.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
private_etc "$@"
cm=$BUILD/progs/capmanifest probe=$BIN/perfprobe
[ -x "$cm" ] && [ -x "$probe" ] || { fail "capmanifest or perfprobe not built"; finish; }
id nobody >/dev/null 2>&1 || skip "no user nobody"
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null) || skip "no perf events"
[ "$paranoid" -ge 1 ] || skip "perf_event_paranoid is $paranoid: everyone may probe already"
[ "$(cat /proc/sys/kernel/cap_last_cap)" -ge 38 ] || skip "no CAP_PERFMON"
[ "$(stat -c '%u %a' /)" = "0 755" ] || skip "/ is not root's 0755 here"
mountpoint -q /mnt 2>/dev/null && skip "/mnt is a mount point already (even in our namespace)"

# The postinst's command line, word for word: this suite runs what it runs.
postinst=$TOP/debian/libcap2-bin.postinst
grep -qF 'capmanifest restore --listed-only --accept-new-content "$manifest" /' "$postinst" ||
	{ fail "the postinst does not run the command this suite tests"; finish; }
trigger() { run run_ours "$cm" restore --listed-only --accept-new-content "$1" /; }

mount -t tmpfs -o mode=0755 tmpfs /mnt || { fail "cannot mount a tmpfs on /mnt"; finish; }
mkdir -p /mnt/usr/bin /mnt/etc/capmanifest.d /mnt/opt/app && chown nobody /mnt/opt/app || exit 1
nobody_uid=$(id -u nobody) nobody_gid=$(id -g nobody) gid=47011
# Through a shell: setpriv's own execve still has root's capabilities,
# so the file's mode would not be checked for it.
as() {	# nobody|member CMD...
	if [ "$1" = member ]; then g=--groups=$gid; else g=--clear-groups; fi
	shift
	setpriv --reuid=nobody --regid="$nobody_gid" $g sh -c 'exec "$@"' - "$@"
}
state() { printf '%s %s' "$(stat -c '%u:%g %04a' "$1")" "$(xattr_hex "$1")"; }
sum() { sha256sum "$1" | cut -d' ' -f1; }

# Registered: perf as setcap --perf-group leaves it, with one command.
perf=/mnt/usr/bin/perf pm=/mnt/etc/capmanifest.d/perf.manifest
cp "$probe" "$perf" && chown 0:$gid "$perf" && chmod 0750 "$perf" &&
	setcap cap_perfmon=ep "$perf" || { fail "setup"; finish; }
run run_ours "$cm" add "$pm" "$perf"
expect_rc 0 "add" || cat "$T/err"
expect_out "added: ./mnt/usr/bin/perf cap_perfmon=ep
" "add"
old=$(sum "$perf")
printf '# capmanifest 4\n./mnt/usr/bin/perf owner=0 group=%s mode=0750 acl=no sha256=%s cap_perfmon=ep\n' $gid "$old" >"$T/want"
same "$T/want" "$pm" "the registered manifest"
[ "$(stat -c '%u:%g %a' "$pm")" = "0:0 644" ] && pass || fail "manifest: $(stat -c '%u:%g %a' "$pm")"
[ "$(ls -A /mnt/etc/capmanifest.d)" = perf.manifest ] && pass ||
	fail "left beside the manifest: $(ls -A /mnt/etc/capmanifest.d)"

# dpkg's upgrade: a new file of new content renamed over the old one.
upgrade() {	# OWNER:GROUP MODE
	cp "$probe" "$perf.dpkg-new" && printf 'new version' >>"$perf.dpkg-new" &&
		chown "$1" "$perf.dpkg-new" && chmod "$2" "$perf.dpkg-new" &&
		mv -f "$perf.dpkg-new" "$perf" || { fail "upgrade"; finish; }
}
upgrade 0:$gid 0750
new=$(sum "$perf")
[ -z "$(xattr_hex "$perf")" ] && pass || fail "the upgrade kept the capability (test setup)"
trigger "$pm"
expect_rc 0 "trigger after an upgrade" || cat "$T/err"
expect_out "accepted: ./mnt/usr/bin/perf has sha256=$new, manifest says sha256=$old (root's alone from /)
set: ./mnt/usr/bin/perf cap_perfmon=ep
" "trigger after an upgrade"
expect_err "" "trigger after an upgrade"
granted=$(xattr_hex "$perf")
out=$(as member "$perf") && pass || fail "a group member cannot profile after the trigger: $out"
echo "after the upgrade and the trigger, a member of the group: $out"
out=$(as nobody "$perf" 2>&1) && fail "nobody ran perf: $out" || pass

# A manifest registered by the older recipe (version 2, no digest) keeps
# working: the same rule accepts the file.
setcap -r "$perf"
printf '# capmanifest 2\n./mnt/usr/bin/perf owner=0 group=%s mode=0750 acl=no cap_perfmon=ep\n' $gid >/mnt/etc/capmanifest.d/old.manifest
trigger /mnt/etc/capmanifest.d/old.manifest
expect_rc 0 "trigger with a version 2 manifest" || cat "$T/err"
expect_out "accepted: ./mnt/usr/bin/perf has sha256=$new, manifest records none (root's alone from /)
set: ./mnt/usr/bin/perf cap_perfmon=ep
" "trigger with a version 2 manifest"
rm /mnt/etc/capmanifest.d/old.manifest

# Without dpkg-statoverride: root:root 0755, which everyone may run.
setcap -r "$perf"
upgrade 0:0 0755
trigger "$pm"
expect_rc 1 "trigger after an upgrade without the override"
repair="capmanifest restore --fix-owner --accept-new-content --listed-only $pm /"
expect_err "capmanifest: ./mnt/usr/bin/perf: has group=0 mode=0755, manifest says group=$gid mode=0750: not restored (--fix-owner re-applies them)
capmanifest: to restore them: $repair
" "trigger after an upgrade without the override"
[ -z "$(xattr_hex "$perf")" ] && pass || fail "perf got a capability as root:root 0755"
# The repair it prints works as pasted: the new content accepted (it is
# root's alone, as the trigger's own option needs), group and mode put
# back, then the capability.
paste_for_real "$T/err" "capmanifest: to restore them: "
expect_rc 0 "the printed repair" || cat "$T/err"
expect_out "accepted: ./mnt/usr/bin/perf has sha256=$new, manifest says sha256=$old (root's alone from /)
fixed: ./mnt/usr/bin/perf group=$gid mode=0750
set: ./mnt/usr/bin/perf cap_perfmon=ep
" "the printed repair"
[ "$(state "$perf")" = "0:$gid 0750 $granted" ] && [ -n "$granted" ] && pass ||
	fail "after the printed repair: $(state "$perf")"

# The system named through a link of root's in nobody's directory: she
# could point it at another tree of root's files (a chroot's, an old
# release's), whose program at the recorded path would be taken as the
# upgrade. Not accepted, and nothing changes. (The link was followed,
# and the directories above "/" judged, none: it was accepted.)
setcap -r "$perf"
ln -s / /mnt/opt/app/system || { fail "cannot make the link"; finish; }
before=$(state "$perf")
run run_ours "$cm" restore --listed-only --accept-new-content "$pm" /mnt/opt/app/system
expect_rc 1 "trigger through a link in nobody's directory"
expect_out "" "trigger through a link in nobody's directory"
expect_err "capmanifest: ./mnt/usr/bin/perf: content differs: has sha256=$new, manifest says sha256=$old: not accepted: directory /mnt/opt/app: uid $nobody_uid owns it
" "trigger through a link in nobody's directory"
[ "$(state "$perf")" = "$before" ] && pass || fail "perf changed: $before -> $(state "$perf")"
rm /mnt/opt/app/system
setcap cap_perfmon=ep "$perf"

# A tool registered in a directory nobody owns.
tool=/mnt/opt/app/tool tm=/mnt/etc/capmanifest.d/tool.manifest
cp /bin/true "$tool" && setcap cap_net_raw=ep "$tool" &&
	run_ours "$cm" add "$tm" "$tool" >/dev/null && setcap -r "$tool" || { fail "tool setup"; finish; }
cat_=$(command -v cat)
# A root-owned program of other content (a copy of cat) she renames over it.
cp "$cat_" /mnt/opt/app/spare && chmod 0755 /mnt/opt/app/spare &&
	as nobody mv -f /mnt/opt/app/spare "$tool" && pass || fail "nobody could not rename (test setup)"
before=$(state "$tool")
trigger "$tm"
expect_rc 1 "trigger: root's file of other content in nobody's directory"
expect_err "capmanifest: ./mnt/opt/app/tool: content differs: has sha256=$(sum "$tool"), manifest says sha256=$(sum /bin/true): not accepted: directory ./mnt/opt/app: uid $nobody_uid owns it
" "trigger: root's file of other content in nobody's directory"
[ "$(state "$tool")" = "$before" ] && pass || fail "the tool changed: $before -> $(state "$tool")"
# Her own file: refused before its content is even read.
as nobody sh -c 'rm -f "$1" && cp "$2" "$1"' - "$tool" "$cat_" && pass || fail "nobody could not replace it"
before=$(state "$tool")
trigger "$tm"
expect_rc 1 "trigger: nobody's file"
# --fix-owner would not restore it either, so no hint names it.
expect_err "capmanifest: ./mnt/opt/app/tool: has owner=$nobody_uid group=$nobody_gid, manifest says owner=0 group=0: not restored
capmanifest: ./mnt/opt/app/tool: owned by uid $nobody_uid, neither root nor the recorded owner (0): not restored
" "trigger: nobody's file"
[ "$(state "$tool")" = "$before" ] && pass || fail "the tool changed: $before -> $(state "$tool")"
as nobody "$tool" /proc/self/status >"$T/status"
euid=$(sed -n 's/^Uid:[[:space:]]*[0-9]*[[:space:]]*\([0-9]*\).*/\1/p' "$T/status")
eff=$(sed -n 's/^CapEff:[[:space:]]*//p' "$T/status")
echo "nobody runs the tool: euid $euid, CapEff $eff"
[ "$euid" = "$nobody_uid" ] && [ "$eff" = 0000000000000000 ] && pass ||
	fail "nobody's tool gave euid $euid, CapEff $eff"

# The upgraded perf registered again: updated, and verify passes.
upgrade 0:$gid 0750
setcap cap_perfmon=ep "$perf"
run run_ours "$cm" verify --listed-only "$pm" /
expect_rc 1 "verify before add"
expect_out "content: ./mnt/usr/bin/perf has sha256=$(sum "$perf"), manifest says sha256=$old
" "verify before add"
run run_ours "$cm" add "$pm" "$perf"
expect_rc 0 "add again" || cat "$T/err"
expect_out "updated: ./mnt/usr/bin/perf cap_perfmon=ep
" "add again"
run run_ours "$cm" add "$pm" "$perf"
expect_out "unchanged: ./mnt/usr/bin/perf cap_perfmon=ep
" "add once more"
run run_ours "$cm" verify --listed-only "$pm" /
expect_rc 0 "verify after add" || cat "$T/out" "$T/err"
umount /mnt
finish "the trigger restores an upgraded perf and launders nothing"
