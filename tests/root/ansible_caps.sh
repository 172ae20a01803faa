#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# The Ansible collection in contrib/ansible, run by the real engine
# (ansible-playbook, connection local) against our programs: file_caps is
# idempotent (a second run changes nothing), check mode writes nothing,
# --diff shows getcap's text, exact strips an extra capability, absent
# takes one of two away, hostile file names reach the programs as one
# argument, a symbolic link is refused and not followed, a missing file
# fails with getcap's message, a capmanifest manifest is restored; a
# restore with fix_owner reports each attribute it changes (owner, group,
# mode, set-user-ID bit, ACL entries, root id, an extra file's set) as a
# change, in check mode (which predicts exactly what the real restore of
# an identical tree leaves) and in --diff, and an ACL entry taken away
# alone is a change; a task that fails after changing some files (a
# restore refusing one, a setcap failing) reports those changes; and
# caps_audit returns a capable file and a capable process with their
# risk. Every result is read back from the real files (getcap; the
# inodes' owners, modes and attributes). ansible-doc reads both modules'
# documentation, which matches their options, examples and results.
# Then the example of docs/ansible.md runs as the doc shows it, on
# localhost.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
[ "$(id -u)" -eq 0 ] || skip "needs root (setcap)"
command -v ansible-playbook >/dev/null 2>&1 ||
	skip "ansible-playbook is not installed (tests/install-deps.sh installs ansible-core)"
# Debian's python3, which ansible-core depends on and runs the modules
# with; it reads the results too (a python3 found first on PATH may be a
# slow wrapper, such as pyenv's shim).
PY=/usr/bin/python3
[ -x "$PY" ] || skip "$PY (Debian's python3, ansible-core's) is not installed"

P=$BUILD/progs
COLL=$TOP/contrib/ansible
EX=$COLL/examples
# Nothing of Ansible's goes to ~/.ansible or /etc/ansible: its home, temp
# dirs and configuration are ours.
mkdir "$T/home" "$T/f" "$T/pub"
export HOME="$T/home" ANSIBLE_HOME="$T/home/.ansible" ANSIBLE_CONFIG="$T/ansible.cfg"
printf '[defaults]\ninternal_poll_interval = 0.01\n' >"$T/ansible.cfg"
export ANSIBLE_LOCAL_TEMP="$T/home/ltmp" ANSIBLE_REMOTE_TEMP="$T/home/rtmp"
export ANSIBLE_COLLECTIONS_PATH="$COLL" ANSIBLE_PYTHON_INTERPRETER=$PY
export ANSIBLE_NOCOLOR=1 ANSIBLE_RETRY_FILES_ENABLED=0 ANSIBLE_FORCE_COLOR=0
export ANSIBLE_DEPRECATION_WARNINGS=0 ANSIBLE_LOCALHOST_WARNING=0
export PATH="$P:$PATH"
[ "$(command -v getcap)" = "$P/getcap" ] && [ "$(command -v setcap)" = "$P/setcap" ] &&
	[ "$(command -v capmanifest)" = "$P/capmanifest" ] && pass ||
	fail "our programs come first on PATH"
cd "$T" || exit 1

caps() {	# FILE: our getcap's capability text for it, or "none"
	g=$("$P/getcap" -- "$1") || { echo "getcap failed"; return; }
	[ -n "$g" ] && echo "${g##* }" || echo none
}
is() {		# FILE TEXT CASE
	c=$(caps "$1")
	[ "$c" = "$2" ] && ok "$3" && pass || fail "$3: getcap says $c, want $2"
}

F=$T/f
for f in ping two extra ck num target nsroot; do cp /bin/true "$F/$f"; done
# Namespaced file capabilities (root id 1000): the kernel ignores them on
# the host, so "present" with the same set must still write them there.
setcap -n 1000 cap_net_raw=ep "$F/nsroot"
ln -s target "$F/link"
setcap cap_net_raw,cap_sys_time=ep "$F/two" cap_chown,cap_kill=ep "$F/extra" \
	cap_chown=ep "$F/ck" cap_net_raw=ep "$F/num"
# Names a shell would split, expand or run; and one a terminal would show
# as two lines, the second forging a getcap line.
"$PY" - "$F" > "$T/vars.json" <<'PY'
import json, sys, os
d = sys.argv[1]
names = ["-n $(touch INJECTED) 'q\"", ";touch${IFS}INJECTED;#", "$HOME",
         "two\nlines x cap_sys_admin=ep"]
paths = [os.path.join(d, n) for n in names]
for p in paths:
    with open(p, "wb") as out, open("/bin/true", "rb") as src:
        out.write(src.read())
    os.chmod(p, 0o755)
print(json.dumps({"hostile": paths, "f": d}))
PY

# Manifests: m1 restored exactly (listed files only), m2 in check mode
# only, m3 with absent.
for r in r1 r2 r3 r4 r5; do
	mkdir -p "$T/$r/usr/bin"
	cp /bin/true "$T/$r/usr/bin/a"; cp /bin/true "$T/$r/usr/bin/b"; cp /bin/true "$T/$r/usr/bin/c"
	setcap cap_net_raw=ep "$T/$r/usr/bin/a" cap_chown=p "$T/$r/usr/bin/b"
	capmanifest record "$T/$r" > "$T/$r.manifest" && pass || fail "record $r"
	setcap cap_net_raw,cap_sys_time=ep "$T/$r/usr/bin/a" -r "$T/$r/usr/bin/b" \
		cap_kill=ep "$T/$r/usr/bin/c"
done
getcap -r "$T/r2" > "$T/r2.before"
# What restore may change beside capabilities: owner, group, mode (the
# set-user-ID bit too) and the access ACL, whose entries the manifest
# records. attrs.py sets ACLs ("acl uid=N PATH... [uid=N PATH...]": an
# entry for user N on each PATH after it) and writes trees' every
# attribute restore may touch, from the inodes ("fp TREE OUT..."): each
# call serves many files, as a Python start costs a tenth of a second.
cat > "$T/attrs.py" <<'PY'
import os, struct, sys
ACL = 'system.posix_acl_access'
UNDEF = 0xffffffff
def set_acl(path, users):
    """An access ACL: these named users read and run it, mask r-x."""
    m = os.lstat(path).st_mode
    ents = [(1, UNDEF, m >> 6 & 7)] + [(2, int(u), 5) for u in users]
    ents += [(4, UNDEF, m >> 3 & 7), (0x10, UNDEF, 5), (0x20, UNDEF, m & 7)]
    os.setxattr(path, ACL, struct.pack('<I', 2) + b''.join(
        struct.pack('<HHI', t, p, i) for t, i, p in ents), follow_symlinks=False)
def xattr(path, name):
    try:
        return os.getxattr(path, name, follow_symlinks=False).hex()
    except OSError:
        return '-'
def fingerprint(top, out):
    for d, dirs, files in sorted(os.walk(top)):
        dirs.sort()
        for f in sorted(files):
            p = os.path.join(d, f)
            st = os.lstat(p)
            print(os.path.relpath(p, top), st.st_uid, st.st_gid, '%04o' % (st.st_mode & 0o7777),
                  xattr(p, 'security.capability'), xattr(p, ACL), file=out)
args = sys.argv[2:]
if sys.argv[1] == 'acl':
    uid = None
    for a in args:
        if a.startswith('uid='):
            uid = a[4:]
        else:
            set_acl(a, [uid])
else:
    for top, name in zip(args[::2], args[1::2]):
        with open(name, 'w') as out:
            fingerprint(top, out)
PY
# r6 (restored) and r6c (check mode only): a user gains an ACL entry on a
# file the manifest records without one; restore --fix-owner removes it,
# and nothing else differs. r7 (check mode) and r8 (restored): one file
# per attribute, and an extra capable file (listed_only false): o's owner
# and g's group were changed (which clears capabilities), m's mode, s
# lost its set-user-ID bit, k's mode took execute from its ACL's mask
# (uid 65534 may no longer run it; restore gives it back), n's ACL names
# another user (restore puts back the recorded one, uid 65534's), r's
# root id, c's set, a gained an ACL entry.
for r in r6 r6c r7 r8; do
	d=$T/$r/usr/bin
	mkdir -p "$d"
	for f in a o g m s k n r c; do cp /bin/true "$d/$f"; done
	case $r in r6*) rm "$d"/[ogmsknrc] ;; esac
done
"$PY" "$T/attrs.py" acl uid=65534 "$T"/r7/usr/bin/k "$T"/r7/usr/bin/n "$T"/r8/usr/bin/k \
	"$T"/r8/usr/bin/n || fail "attrs.py: cannot set the ACLs of k and n"
for r in r6 r6c r7 r8; do
	d=$T/$r/usr/bin
	[ -e "$d/o" ] && chown 65534 "$d/o" && chmod 04755 "$d/s" &&
		setcap cap_net_raw=ep "$d/o" cap_net_raw=ep "$d/g" cap_net_raw=ep "$d/m" \
			cap_net_raw=ep "$d/s" cap_net_raw=ep "$d/k" cap_net_raw=ep "$d/n" \
			cap_chown=p "$d/c" && setcap -n 1000 cap_net_raw=ep "$d/r"
	setcap cap_net_raw=ep "$d/a"
done
capmanifest record "$T/r6" > "$T/acl.manifest" && pass || fail "record r6"
capmanifest record "$T/r8" > "$T/all.manifest" && pass || fail "record r8"
"$PY" "$T/attrs.py" fp "$T/r8" "$T/r8.recorded" || fail "attrs.py: cannot read r8"
"$PY" "$T/attrs.py" acl uid=65534 "$T"/r6/usr/bin/a "$T"/r6c/usr/bin/a "$T"/r7/usr/bin/a \
	"$T"/r8/usr/bin/a uid=1000 "$T"/r7/usr/bin/n "$T"/r8/usr/bin/n ||
	fail "attrs.py: cannot set the ACLs of a and n"
for r in r7 r8; do
	d=$T/$r/usr/bin
	chown 0 "$d/o"; chgrp 65534 "$d/g"; chmod 0750 "$d/m"; chmod 0755 "$d/s"; chmod 0745 "$d/k"
	cp /bin/true "$d/x"
	setcap cap_net_raw=ep "$d/o" cap_net_raw=ep "$d/g" cap_net_raw=ep "$d/r" \
		cap_kill=ep "$d/c" cap_sys_time=ep "$d/x"
done
"$PY" "$T/attrs.py" fp "$T/r6" "$T/r6.fp0" "$T/r6c" "$T/r6c.fp0" "$T/r7" "$T/r7.fp0" \
	"$T/r8" "$T/r8.fp0" || fail "attrs.py: cannot read the trees before the runs"
# A task that fails after changing files reports them: in r9 restore
# gives a its set back and refuses b (a new content); in r10 absent
# takes a's set away and cannot write b's (immutable, until the end).
for r in r9 r10; do
	mkdir -p "$T/$r/usr/bin"
	cp /bin/true "$T/$r/usr/bin/a"; cp /bin/true "$T/$r/usr/bin/b"
	setcap cap_net_raw=ep "$T/$r/usr/bin/a" cap_net_raw=ep "$T/$r/usr/bin/b"
	capmanifest record "$T/$r" > "$T/$r.manifest" && pass || fail "record $r"
done
setcap cap_kill=ep "$T/r9/usr/bin/a"
cp /bin/false "$T/r9/usr/bin/b" && setcap cap_kill=ep "$T/r9/usr/bin/b"
at_exit_checked "chattr -i '$T/r10/usr/bin/b'"
chattr +i "$T/r10/usr/bin/b" && pass || fail "chattr +i: the file system of $T keeps no immutable flag"
chmod 0666 "$T/r4.manifest"
# r5's manifest is root's, but reached through a link of nobody's in a
# sticky directory all may write: she may point it elsewhere between the
# module's read and capmanifest's.
mkdir -m 1777 "$T/sticky"
mkdir "$T/sticky/sub"	# reached as sticky/sub/.., which is sticky again
ln -s "$T" "$T/sticky/via"
chown -h 65534 "$T/sticky/via"
# r6 and r7: root's own manifest, and root's own link to one, in that
# sticky directory: another user may have moved either there from a
# directory of theirs under the free name.
cp "$T/r5.manifest" "$T/sticky/r5.manifest"
ln -s "$T/r5.manifest" "$T/sticky/rootlink.manifest"
# Tools that print JSON of schema 2 (a fake getcap; our setcap).
mkdir "$T/fake"
cat > "$T/fake/getcap" <<EOF
#!/bin/sh
echo '{"schema":2,"path":"$F/target","text":null}'
EOF
chmod 0755 "$T/fake/getcap"
ln -s "$P/setcap" "$T/fake/setcap"

# Programs someone other than root may replace: a directory all may write
# (first on PATH) holding impostors that leave a mark, and one of nobody's
# holding links to our real programs (given as tools_dir).
mkdir "$T/evil" "$T/evil2"
for n in getcap setcap; do
	printf '#!/bin/sh\ntouch "%s/EVIL_RAN"\n' "$T" > "$T/evil/$n"
	chmod 0755 "$T/evil/$n"
	ln -s "$P/$n" "$T/evil2/$n"
done
chmod 0777 "$T/evil"
chown 65534 "$T/evil2"
# A file in a directory of nobody's: she could swap the directory for a
# link to another between the module's read and its write.
mkdir "$T/nobodys"
cp /bin/true "$T/nobodys/tool"
chown 65534 "$T/nobodys"

# A capable process: nobody running a copy of sleep that carries
# cap_net_raw. $T is traversable so that nobody may run it.
chmod 0711 "$T"
cp /bin/sleep "$T/pub/sleeper"
chmod 0755 "$T/pub" "$T/pub/sleeper"
setcap cap_net_raw=ep "$T/pub/sleeper"
setpriv --reuid=65534 --regid=65534 --clear-groups -- "$T/pub/sleeper" 300 &
sleeper=$!
at_exit "kill $sleeper 2>/dev/null; wait $sleeper 2>/dev/null"
i=0
while [ "$(readlink "/proc/$sleeper/exe" 2>/dev/null)" != "$T/pub/sleeper" ] && [ $i -lt 500 ]; do
	sleep 0.01; i=$((i + 1))
done

# run2 runs again only the tasks whose files run1 changed, or may
# have: a task that met in run1 the very state it would meet again, with
# the same arguments (a refusal, a check mode, a set that is already
# there), runs in run1 only (when: run == "run1"), as ONCE in
# check_results lists it; run1 showed that it changed nothing.
cat > "$T/play.yml" <<'EOF'
- hosts: all
  gather_facts: false
  tasks:
    - name: check mode on ck
      libcap_perfmon.caps.file_caps: {path: "{{ f }}/ck", caps: cap_net_raw=ep, state: exact}
      check_mode: true
      when: run == "run1"
      register: ck
    - name: names a shell would split, expand or run
      libcap_perfmon.caps.file_caps: {path: "{{ item }}", caps: cap_net_raw=ep, state: exact}
      loop: "{{ hostile }}"
      register: hostile_r
      ignore_errors: true
    - libcap_perfmon.caps.file_caps: {path: "{{ f }}/ping", caps: cap_net_raw+ep}
      register: ping1
    - libcap_perfmon.caps.file_caps: {path: "{{ f }}/ping", caps: cap_net_raw=pe}
      when: run == "run1"
      register: ping2
    - libcap_perfmon.caps.file_caps: {path: "{{ f }}/extra", caps: cap_kill=ep, state: exact}
      register: extra
    - libcap_perfmon.caps.file_caps: {path: "{{ f }}/two", caps: cap_net_raw, state: absent}
      register: two
    - name: the same sets spelt otherwise (a number, capitals, +pe) change nothing
      libcap_perfmon.caps.file_caps: {path: "{{ f }}/num", caps: "13+pe CAP_NET_RAW+e", state: exact}
      when: run == "run1"
      register: num
    - libcap_perfmon.caps.file_caps: {path: "{{ f }}/link", caps: cap_net_raw=ep}
      when: run == "run1"
      register: link
      ignore_errors: true
    - name: namespaced capabilities are not present on the host
      libcap_perfmon.caps.file_caps: {path: "{{ f }}/nsroot", caps: cap_net_raw=ep}
      register: nsroot
    - libcap_perfmon.caps.file_caps: {path: "{{ f }}/nonexist", caps: cap_net_raw=ep}
      when: run == "run1"
      register: missing
      ignore_errors: true
    - libcap_perfmon.caps.file_caps: {path: "{{ f }}/target", caps: cap_perfmn=ep}
      when: run == "run1"
      register: badtext
      ignore_errors: true
    - name: one effective flag per file
      libcap_perfmon.caps.file_caps: {path: "{{ f }}/ping", caps: cap_sys_time=p}
      when: run == "run1"
      register: effrule
      ignore_errors: true
    - name: JSON of another schema is refused
      libcap_perfmon.caps.file_caps: {path: "{{ f }}/target", caps: cap_kill=ep, tools_dir: "{{ t }}/fake"}
      when: run == "run1"
      register: schema
      ignore_errors: true
    - name: Debian's getcap has no --json, and its text is never read
      libcap_perfmon.caps.file_caps: {path: "{{ f }}/target", caps: cap_kill=ep, tools_dir: /usr/sbin}
      when: run == "run1"
      register: debian
      ignore_errors: true
    - name: a program on PATH in a directory all may write is never run
      libcap_perfmon.caps.file_caps: {path: "{{ f }}/target", caps: cap_kill=ep}
      environment: {PATH: "{{ t }}/evil:/usr/bin:/bin"}
      when: run == "run1"
      register: evilpath
      ignore_errors: true
    - name: nor a tools_dir of another user's
      libcap_perfmon.caps.file_caps: {path: "{{ f }}/target", caps: cap_kill=ep, tools_dir: "{{ t }}/evil2"}
      when: run == "run1"
      register: eviltools
      ignore_errors: true
    - name: a file whose directory another user may swap is refused
      libcap_perfmon.caps.file_caps: {path: "{{ t }}/nobodys/tool", caps: cap_kill=ep}
      when: run == "run1"
      register: swappable
      ignore_errors: true
    - libcap_perfmon.caps.file_caps: {manifest: "{{ t }}/r1.manifest", root: "{{ t }}/r1"}
      register: m1
    - libcap_perfmon.caps.file_caps: {manifest: "{{ t }}/r2.manifest", root: "{{ t }}/r2"}
      check_mode: true
      when: run == "run1"
      register: m2
    - libcap_perfmon.caps.file_caps: {manifest: "{{ t }}/r3.manifest", root: "{{ t }}/r3", state: absent}
      register: m3
    - name: a manifest others may write is refused, for absent too
      libcap_perfmon.caps.file_caps: {manifest: "{{ t }}/r4.manifest", root: "{{ t }}/r4", state: absent}
      when: run == "run1"
      register: m4
      ignore_errors: true
    - name: a manifest reached through a link another user may replace is refused
      libcap_perfmon.caps.file_caps: {manifest: "{{ t }}/sticky/sub/../via/r5.manifest", root: "{{ t }}/r5", state: absent}
      when: run == "run1"
      register: m5
      ignore_errors: true
    - name: root's manifest in a sticky directory all may write is refused
      libcap_perfmon.caps.file_caps: {manifest: "{{ t }}/sticky/r5.manifest", root: "{{ t }}/r5", state: absent}
      when: run == "run1"
      register: m_sticky
      ignore_errors: true
    - name: so is root's link there to a manifest
      libcap_perfmon.caps.file_caps: {manifest: "{{ t }}/sticky/rootlink.manifest", root: "{{ t }}/r5", state: absent}
      when: run == "run1"
      register: m_stickylink
      ignore_errors: true
    - name: restore --fix-owner takes a user's ACL entry away (check mode)
      libcap_perfmon.caps.file_caps: {manifest: "{{ t }}/acl.manifest", root: "{{ t }}/r6c", fix_owner: true}
      check_mode: true
      when: run == "run1"
      register: m6c
    - name: restore --fix-owner takes a user's ACL entry away
      libcap_perfmon.caps.file_caps: {manifest: "{{ t }}/acl.manifest", root: "{{ t }}/r6", fix_owner: true}
      when: run == "run1"
      register: m6
    - name: every attribute restore changes, predicted
      libcap_perfmon.caps.file_caps: {manifest: "{{ t }}/all.manifest", root: "{{ t }}/r7", fix_owner: true, listed_only: false}
      check_mode: true
      when: run == "run1"
      register: m7
    - name: every attribute restore changes
      libcap_perfmon.caps.file_caps: {manifest: "{{ t }}/all.manifest", root: "{{ t }}/r8", fix_owner: true, listed_only: false}
      register: m8
    - name: restore fails on b after restoring a
      libcap_perfmon.caps.file_caps: {manifest: "{{ t }}/r9.manifest", root: "{{ t }}/r9"}
      register: m9
      ignore_errors: true
    - name: absent fails on b after writing a
      libcap_perfmon.caps.file_caps: {manifest: "{{ t }}/r10.manifest", root: "{{ t }}/r10", state: absent}
      when: run == "run1"
      register: m10
      ignore_errors: true
    - libcap_perfmon.caps.caps_audit: {paths: ["{{ f }}"]}
      register: audit
    - ansible.builtin.copy:
        dest: "{{ out }}"
        content: "{{ {'ck': ck, 'ping1': ping1, 'ping2': ping2, 'extra': extra, 'two': two,
                      'num': num, 'hostile': hostile_r, 'link': link, 'missing': missing,
                      'badtext': badtext, 'effrule': effrule, 'schema': schema, 'debian': debian, 'm1': m1, 'm2': m2, 'm3': m3, 'm4': m4, 'm5': m5, 'm_sticky': m_sticky, 'm_stickylink': m_stickylink,
                      'm6': m6, 'm6c': m6c, 'm7': m7, 'm8': m8, 'm9': m9, 'm10': m10,
                      'evilpath': evilpath, 'eviltools': eviltools, 'swappable': swappable, 'audit': audit, 'nsroot': nsroot} | to_json }}"
EOF
play() {	# OUT: run the playbook, results in $T/OUT.json
	ansible-playbook -i localhost, -c local --diff -e "@$T/vars.json" \
		-e "t=$T out=$T/$1.json run=$1" "$T/play.yml" > "$T/$1.log" 2>&1 && pass ||
		{ fail "ansible-playbook ($1) exit status $?"; cat "$T/$1.log"; }
}
# The modules run the programs from /: a shell there would leave /INJECTED
# (removed again, so that a failing run leaves the host as it was).
injected_before=$(for d in "$T" "$HOME" / "$F"; do [ -e "$d/INJECTED" ] && echo "$d/INJECTED"; done)
no_injection() {
	for d in "$T" "$HOME" / "$F"; do
		case " $injected_before " in *" $d/INJECTED "*) continue ;; esac
		[ -e "$d/INJECTED" ] && { fail "a name ran as a command: $d/INJECTED"; rm -f "$d/INJECTED"; }
	done
}
play run1
is "$F/ck" cap_chown=ep "check mode leaves the file as it was"
is "$F/ping" cap_net_raw=ep "present sets cap_net_raw"
is "$F/extra" cap_kill=ep "exact removes the extra cap_chown"
is "$F/two" cap_sys_time=ep "absent removes cap_net_raw, keeps cap_sys_time"
is "$F/num" cap_net_raw=ep "the same set spelt otherwise is left alone"
case $("$P/getcap" -n "$F/nsroot") in
"$F/nsroot cap_net_raw=ep") ok "present writes root id 0 over a namespaced set" ;;
*) fail "present left the namespaced set: $("$P/getcap" -n "$F/nsroot")" ;;
esac
is "$F/target" none "the link's target got nothing"
[ "$(readlink "$F/link")" = target ] && ok "the link is still the link" && pass || fail "the link changed"
xattr_net_raw=$(xattr_hex "$F/ping")
"$PY" - "$T/vars.json" > "$T/hostile.hex" <<'PY'
import json, os, sys
for p in json.load(open(sys.argv[1]))["hostile"]:
    try:
        print(os.getxattr(p, "security.capability", follow_symlinks=False).hex())
    except OSError as e:
        print("none:", e)
PY
want=$(echo "$xattr_net_raw" | sed 's/^0x//')
[ "$(sort -u "$T/hostile.hex")" = "$want" ] && [ "$(wc -l < "$T/hostile.hex")" -eq 4 ] &&
	ok "each hostile name got cap_net_raw=ep" && pass ||
	fail "hostile names: $(cat "$T/hostile.hex"), want $want"
no_injection
[ "$(find "$F" -mindepth 1 -maxdepth 1 -printf x)" = xxxxxxxxxxxx ] && ok "no file appeared beside the hostile names" && pass ||
	fail "files in $F: $(ls "$F")"
is "$T/nobodys/tool" none "a file in a directory of nobody's got nothing"
is "$T/r1/usr/bin/a" cap_net_raw=ep "manifest: a restored to the recorded set"
is "$T/r1/usr/bin/b" cap_chown=p "manifest: b given its recorded set back"
is "$T/r1/usr/bin/c" cap_kill=ep "manifest (listed only): c not listed, left alone"
getcap -r "$T/r2" > "$T/r2.after"
same "$T/r2.before" "$T/r2.after" "manifest check mode changes nothing"
is "$T/r3/usr/bin/a" cap_sys_time=ep "manifest absent: a keeps only what it did not list"
is "$T/r3/usr/bin/b" none "manifest absent: b had nothing to take"
is "$T/r4/usr/bin/a" cap_net_raw,cap_sys_time=ep "a manifest others may write takes nothing away"
is "$T/r5/usr/bin/a" cap_net_raw,cap_sys_time=ep "a manifest behind a swappable link takes nothing away"
# What restore leaves, read from the inodes: r6 without its ACL, r8 as
# recorded (n's ACL entry for uid 65534 again, byte for byte) but for x's
# capabilities (taken away); the trees restored in check mode not
# touched at all.
awk '$1 == "usr/bin/a" { $6 = "-" } 1' "$T/r6.fp0" > "$T/r6.want"
{ cat "$T/r8.recorded"
  grep '^usr/bin/x ' "$T/r8.fp0" | awk '{ $5 = "-" } 1'; } | LC_ALL=C sort > "$T/r8.want"
LC_ALL=C sort "$T/r6c.fp0" > "$T/r6c.want"
LC_ALL=C sort "$T/r7.fp0" > "$T/r7.want"
trees_as_wanted() {	# RUN
	rm -f "$T"/r*.fp1
	"$PY" "$T/attrs.py" fp "$T/r6" "$T/r6.fp1" "$T/r6c" "$T/r6c.fp1" "$T/r7" "$T/r7.fp1" \
		"$T/r8" "$T/r8.fp1" || fail "$1: attrs.py cannot read the trees"
	for r in r6 r6c r7 r8; do
		LC_ALL=C sort "$T/$r.fp1" > "$T/$r.fp"
		same "$T/$r.want" "$T/$r.fp" "$1: $r's owners, groups, modes, ACLs and capabilities"
	done
}
trees_as_wanted run1
is "$T/r9/usr/bin/a" cap_net_raw=ep "a restore that fails on one file restores the other"
is "$T/r9/usr/bin/b" cap_kill=ep "a restore refuses the file of new content"
is "$T/r10/usr/bin/a" none "an absent that fails on one file writes the other"

# What the module reported, against what we know happened.
check_results() {	# RUN: each line "ok CASE" or "fail CASE"
	"$PY" - "$T/$1.json" "$1" "$P" "$F" "$sleeper" "$T/pub/sleeper" "$T" <<'PY'
import json, os, sys
r = json.load(open(sys.argv[1]))
run, progs, f, sleeper, sleeper_exe, t = sys.argv[2:8]
first = run == "run1"
# The tasks the playbook runs in run1 only: each met there the state it
# would meet again, with the same arguments.
ONCE = {"ck", "ping2", "num", "link", "missing", "badtext", "effrule", "schema", "debian",
        "evilpath", "eviltools", "swappable", "m2", "m4", "m5", "m_sticky", "m_stickylink"}
def check(cond, case):
    print("%s %s: %s" % ("ok" if cond else "fail", run, case.replace("\n", " | ")))
check(all(bool(r[k].get("skipped")) != first for k in ONCE), "the tasks of run1 only ran in run1 only")
tasks = [r[k] for k in ("ck", "ping1", "ping2", "extra", "two", "num", "m1", "m2", "m3")
         if first or k not in ONCE]
tasks += r["hostile"]["results"]
check(all(t.get("tools", {}).get("getcap") == progs + "/getcap" and
          t["tools"].get("setcap") == progs + "/setcap" for t in tasks),
      "every task ran our getcap and setcap")
check(r["m1"]["tools"].get("capmanifest") == progs + "/capmanifest", "manifest ran our capmanifest")
check(r["ping1"]["changed"] == first, "present changed only the first time")
check(r["extra"]["changed"] == first and
      (not first or r["extra"]["diff"]["before"] == "cap_chown,cap_kill=ep\n"),
      "exact changed only the first time, diff shows the old set")
check(r["two"]["changed"] == first, "absent changed only the first time")
check(all(h["changed"] == first and not h.get("failed") for h in r["hostile"]["results"]),
      "hostile names: changed once")
check(r["nsroot"]["changed"] == first, "present rewrites namespaced capabilities once")
check(r["m1"]["changed"] == first, "manifest exact changed only the first time")
# The refusals, the check modes and the sets already there: run1 only.
if first:
    ck = r["ck"]
    check(ck["changed"] and ck["diff"]["before"] == "cap_chown=ep\n" and
          ck["diff"]["after"] == "cap_net_raw=ep\n", "check mode reports the change and its diff")
    check(not r["ping2"]["changed"], "=pe after +ep is no change")
    check(not r["num"]["changed"], "13+pe CAP_NET_RAW+e is cap_net_raw=ep")
    check(r["link"]["failed"] and "is a symbolic link" in r["link"]["msg"], "a link fails: " + r["link"]["msg"])
    check(r["missing"]["failed"] and r["missing"]["msg"] == "getcap: " + f + "/nonexist (No such file or directory)",
          "a missing file fails with getcap's message: " + r["missing"]["msg"])
    check(r["badtext"]["failed"] and "cap_perfmon" in r["badtext"]["msg"],
          "bad text fails with setcap's message: " + r["badtext"]["msg"])
    check(r["effrule"]["failed"] and "one effective flag" in r["effrule"]["msg"],
          "a set a file cannot hold fails: " + r["effrule"]["msg"])
    check(r["schema"]["failed"] and "gave schema 2; this module knows schema 1" in r["schema"]["msg"],
          "schema 2 is refused: " + r["schema"]["msg"])
    check(r["debian"]["failed"] and r["debian"]["msg"].startswith("getcap failed (exit status 1): "),
          "Debian's getcap fails the task: " + r["debian"]["msg"][:60])
    for k, why in (("evilpath", "directory " + t + "/evil is writable by others"),
                   ("eviltools", "directory " + t + "/evil2 belongs to uid 65534")):
        check(r[k]["failed"] and why in r[k]["msg"] and not os.path.exists(t + "/EVIL_RAN"),
              "a program others may replace is refused, not run: " + r[k]["msg"])
    check(r["swappable"]["failed"] and ("directory " + t + "/nobodys belongs to uid 65534")
          in r["swappable"]["msg"], "a directory another user may swap: " + r["swappable"]["msg"])
    check(r["m2"]["changed"] and "cap_net_raw=ep" in r["m2"]["diff"]["after"], "manifest check mode: would change")
    check(r["m4"]["failed"] and "the file " + t + "/r4.manifest is writable by others" in r["m4"]["msg"],
          "a manifest others may write is refused: " + r["m4"]["msg"])
    check(r["m5"]["failed"] and "symbolic link " + t + "/sticky/via belongs to uid 65534" in r["m5"]["msg"],
          "a manifest behind a link another user may replace is refused: " + r["m5"]["msg"])
    for k, what in (("m_sticky", "the file " + t + "/sticky/r5.manifest"),
                    ("m_stickylink", "symbolic link " + t + "/sticky/rootlink.manifest")):
        check(r[k].get("failed") and what + " is in " + t + "/sticky, a sticky directory all may write" in r[k].get("msg", ""),
              "root's manifest or link in a sticky directory is refused: " + json.dumps(r[k]))
check(r["m3"]["changed"] == first, "manifest absent changed only the first time")
# restore --fix-owner: whatever it changes is a change, in check mode as
# in a real run, and --diff shows it; check mode predicts what the real
# restore of an identical tree leaves.
m6, m6c, m7, m8 = (r[k] for k in ("m6", "m6c", "m7", "m8"))
d6, d6c, d7, d8 = (m.get("diff", {}) for m in (m6, m6c, m7, m8))
# (r6 and r7 once: r8 has what they have, and shows the second time)
check(m8.get("changed") == first, "owner, group, mode, set-user-ID, ACL mask, root id: a change "
      "(the first time only)")
if first:
    check(m6.get("changed"), "an ACL entry taken away is a change")
    check("user:65534:r-x" in d6.get("before", "") and "user:65534" not in d6.get("after", "?"),
          "--diff: the ACL entry before, none after: %r -> %r"
          % (d6.get("before"), d6.get("after")))
    check(m6c.get("changed") and "user:65534:r-x" in d6c.get("before", "")
          and "user:65534" not in d6c.get("after", "?"), "check mode: the ACL entry would go")
    check(d6c == d6 and m6c.get("after") == m6.get("after"),
          "check mode predicts the ACL restore: %r, restored %r" % (d6c, d6))
    check(m7.get("changed"), "check mode: every attribute, a change")
    check(m7.get("before") == m8.get("before") and d7.get("before") == d8.get("before"),
          "identical trees, identical before")
    check(m7.get("after") == m8.get("after") and d7.get("after") == d8.get("after"),
          "check mode predicts every attribute as restore leaves it: %r, restored %r"
          % (d7.get("after"), d8.get("after")))
    nb = [l for l in d8.get("before", "").splitlines() if l.startswith("./usr/bin/n ")]
    na = [l for l in d8.get("after", "").splitlines() if l.startswith("./usr/bin/n ")]
    check(nb and "user:1000:r-x" in nb[0] and na and "user:65534:r-x" in na[0]
          and "user:1000" not in na[0],
          "--diff: an ACL entry for another user, the recorded one back: %r -> %r" % (nb, na))
else:
    check(d8.get("before") == d8.get("after"), "restored: before and after the same")
# A failed task says what it changed before failing (and, the second
# time, that it changed nothing).
m9, m10 = r["m9"], r["m10"]
d9, d10 = m9.get("diff", {}), m10.get("diff", {})
a_was = "./usr/bin/a owner=0 group=0 mode=0755 acl=no cap_%s=ep\n"
failed9 = m9.get("failed") and "content differs" in m9.get("msg", "")
if first:
    check(failed9 and m9.get("changed") and a_was % "kill" in d9.get("before", "")
          and a_was % "net_raw" in d9.get("after", ""),
          "restore refusing one file: failed, and changed by the other: %r %r"
          % (m9.get("msg"), d9))
else:
    check(failed9 and not m9.get("changed") and d9.get("before") == d9.get("after"),
          "restore refusing one file again: failed, nothing changed: %r" % (d9,))
if first:
    check(m10.get("failed") and m10.get("changed") and d10.get("before") ==
          "./usr/bin/a cap_net_raw=ep\n./usr/bin/b cap_net_raw=ep\n" and d10.get("after") ==
          "./usr/bin/a (no capabilities)\n./usr/bin/b cap_net_raw=ep\n",
          "absent failing on one file: failed, and changed by the other: %r %r"
          % (m10.get("msg"), d10))
a = r["audit"]["ansible_facts"]["capabilities_audit"]
byp = dict((x["path"], x) for x in a["files"])
two = byp.get(f + "/two", {})
check(two.get("text") == "cap_sys_time=ep" and two["risk"]["tier"] == "escalation-adjacent",
      "audit: a capable file with its risk tier")
check(a["complete"] and a["files_by_risk"].get("escalation-adjacent", 0) >= 6, "audit: complete, counted")
procs = [p for p in a["processes"] if str(p["pid"]) == sleeper]
check(len(procs) == 1 and procs[0]["uid"] == 65534 and procs[0]["text"] == "cap_net_raw=ep"
      and procs[0]["risk"] == "escalation-adjacent" and procs[0]["risk_cap"] == "cap_net_raw",
      "audit: the capable sleeper, with its risk")
check(a["process_summary"]["type"] == "summary" and a["process_summary"]["shown"] >= 1,
      "audit: getpcaps' summary")
PY
}
check_results run1 > "$T/checks" && pass || fail "run1: the results are not what the checks expect"
while read -r verdict case; do
	[ "$verdict" = ok ] && ok "$case" && pass || fail "$case"
done < "$T/checks"

# The second run of the same playbook changes nothing (its tasks that
# would meet run1's state again are left out, as the playbook says).
for f in ping extra two num ck; do caps "$F/$f"; done > "$T/caps1"
play run2
no_injection
for f in ping extra two num ck; do caps "$F/$f"; done > "$T/caps2"
same "$T/caps1" "$T/caps2" "the second run left the files as they were"
trees_as_wanted run2
check_results run2 > "$T/checks" && pass || fail "run2: the results are not what the checks expect"
while read -r verdict case; do
	[ "$verdict" = ok ] && ok "$case" && pass || fail "$case"
done < "$T/checks"

# Both modules' documentation, as ansible-doc reads it (as text, what
# people run, and as JSON): DOCUMENTATION, EXAMPLES and RETURN are YAML
# it accepts; the options documented are the module's own (name, type,
# default, choices, elements); each example calls its module with
# documented options only; and every key the modules returned above is
# in RETURN.
MODS="libcap_perfmon.caps.file_caps libcap_perfmon.caps.caps_audit"
# shellcheck disable=SC2086 # two names
if ansible-doc $MODS > "$T/doc.txt" 2>&1 && ansible-doc -j $MODS > "$T/doc.json" 2> "$T/doc.err"; then
	ok "ansible-doc reads both modules' documentation"
	"$PY" - "$T/doc.json" "$T/run1.json" "$COLL" $MODS > "$T/checks" <<'PY' ||
import io, json, sys, yaml
docs, results = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
sys.path.insert(0, sys.argv[3])
def check(cond, case):
    print("%s %s" % ("ok" if cond else "fail", case))
import ansible.module_utils.basic as basic
class Spec(Exception):
    pass
def capture(argument_spec, **kw):
    raise Spec(argument_spec)
basic.AnsibleModule = capture
ours = {"file_caps": ("ck", "ping1", "extra", "two", "num", "m1", "m2", "m3", "m6", "m8"),
        "caps_audit": ("audit",)}
for fqcn in sys.argv[4:]:
    name = fqcn.rsplit(".", 1)[1]
    d = docs.get(fqcn, {})
    doc, ret = d.get("doc") or {}, d.get("return") or {}
    check(doc.get("short_description") and doc.get("description") and ret,
          "%s: a description and RETURN" % name)
    mod = __import__("ansible_collections.libcap_perfmon.caps.plugins.modules." + name,
                     fromlist=["main"])
    try:
        mod.main()
        spec = {}
    except Spec as e:
        spec = e.args[0]
    opts = doc.get("options") or {}
    check(spec and sorted(opts) == sorted(spec), "%s: the options documented are the module's%s"
          % (name, "" if sorted(opts) == sorted(spec) else
             ": documented %s, module's %s" % (sorted(opts), sorted(spec))))
    wrong = ["%s %s: documented %r, module %r" % (o, key, opts.get(o, {}).get(key, dflt),
                                                   want.get(key, dflt))
             for o, want in sorted(spec.items())
             for key, dflt in (("type", "str"), ("default", None), ("choices", None),
                               ("elements", None))
             if opts.get(o, {}).get(key, dflt) != want.get(key, dflt)]
    check(not wrong, "%s: each option's type, default, choices and elements as the module's%s"
          % (name, "".join("; " + w for w in wrong)))
    try:
        examples = yaml.safe_load(io.StringIO(d.get("examples") or ""))
    except yaml.YAMLError as e:
        examples = "not YAML: %s" % e
    tasks = examples if isinstance(examples, list) and examples and all(
        isinstance(t, dict) and isinstance(t.get(fqcn), dict) for t in examples) else None
    check(tasks, "%s: EXAMPLES is a list of tasks calling it%s"
          % (name, "" if tasks else ": %r" % (examples,)))
    for t in tasks or []:
        extra = sorted(set(t[fqcn]) - set(opts))
        check(not extra, "%s: example %r uses documented options only%s"
              % (name, t.get("name"), ": not %s" % extra if extra else ""))
    ansible_own = {"changed", "diff", "invocation", "failed", "msg", "warnings", "deprecations"}
    keys = set(k for task in ours[name] for k in results[task]
               if not k.startswith("_ansible")) - ansible_own
    check(keys and keys <= set(ret), "%s: RETURN documents what it returned (%s); not %s"
          % (name, ", ".join(sorted(keys)), sorted(keys - set(ret))))
PY
		fail "the documentation checks did not run"
	while read -r verdict case; do
		[ "$verdict" = ok ] && ok "$case" && pass || fail "$case"
	done < "$T/checks"
else
	fail "ansible-doc $MODS: $(cat "$T/doc.err" "$T/doc.txt" | head -n 5)"
fi

# The documented example, on localhost: docs/ansible.md holds the three
# files verbatim, and its command for this machine alone runs as written,
# from the top of the tree, with the paths made ours as the doc says.
# (One Python reads them all: "verbatim FILE" for each file the doc
# holds, then the doc's command lines that name localhost.ini.)
"$PY" - "$TOP/docs/ansible.md" "$EX" inventory.ini localhost.ini site.yml > "$T/doc.ex" <<'PY'
import os, re, sys
doc = open(sys.argv[1]).read()
for x in sys.argv[3:]:
    if ("\n" + open(os.path.join(sys.argv[2], x)).read()) in doc:
        print("verbatim", x)
blocks = re.findall(r"(?ms)^```sh\n(.*?)^```", doc)
print("\n".join(l for b in blocks for l in b.splitlines() if "localhost.ini" in l))
PY
for x in inventory.ini localhost.ini site.yml; do
	grep -qx "verbatim $x" "$T/doc.ex" && ok "docs/ansible.md holds $x verbatim" && pass || fail "docs/ansible.md and $x differ"
done
cmd=$(grep -v '^verbatim ' "$T/doc.ex")
case $cmd in
ANSIBLE_COLLECTIONS_PATH=contrib/ansible\ ansible-playbook\ *\ -i\ contrib/ansible/examples/localhost.ini\ *) ;;
*) fail "docs/ansible.md: no one command runs the example on localhost: $cmd" ;;
esac
cp /bin/true "$F/perf"; cp /bin/true "$F/eping"
setcap cap_sys_admin,cap_perfmon=ep "$F/perf" cap_kill=ep "$F/eping"
(cd "$TOP" && sh -c "$cmd"' "$@"' sh -e "perf=$F/perf" -e "ping=$F/eping" -e perf_group=root \
	-e "audit_paths=['$F']") > "$T/ex.log" 2>&1 && pass ||
	{ fail "the example playbook failed"; cat "$T/ex.log"; }
is "$F/perf" cap_syslog,cap_perfmon=ep "example: perf holds exactly cap_perfmon,cap_syslog"
is "$F/eping" cap_kill,cap_net_raw=ep "example: ping gained cap_net_raw, kept the rest"
[ "$(stat -c %a:%g "$F/perf")" = 750:0 ] && ok "example: perf mode 0750" && pass || fail "example: perf $(stat -c %a:%g "$F/perf")"
grep -q "\"$F/ck\"" "$T/ex.log" && ok "example: the debug task lists the root-equivalent file" && pass ||
	fail "example: $F/ck not listed"
finish "Ansible drove our programs: idempotent, check mode, diff, exact, absent, hostile names, manifests, audit"
