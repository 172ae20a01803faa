#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# The command examples of README.md, docs/*.md, bench/README.md,
# debian/libcap2-bin.README.Debian and the man pages are facts: each one is
# run, or listed below with the reason it cannot be. A new example the
# table does not know fails the suite, and so does a table entry no
# document has any more. (A man page once told people to check their
# configuration with "capcheck /etc/security/capability.conf", which takes
# the path for a user name.)
#
# What counts as an example: in Markdown, every line of a fenced "sh" block
# (a block marked "<!-- test: ... -->" is run by docs_guide_perf.sh, one
# marked "<!-- deb_packages: ... -->" by deb_packages.sh, one marked
# "<!-- podman: ... -->" by perfdoctor_podman.sh); a fence without
# a language, or an indented code block, fails (it would hide commands).
# In man pages, a line of an .EX block after a "# " (root) or "$ " (a user)
# prompt whose first word is not capitalised (those are comments of a
# capability.conf); in README.Debian, an indented line after the same
# prompts. A trailing "  # note" is not part of the command.
#
# Where they run: a throw-away root, an overlay over / (writes go to a
# tmpfs) in a private mount namespace, chrooted into, built afresh for each
# document: /etc/passwd, group and shadow hold the base accounts plus
# alice and bob (no passwords), and no perf_users group; PAM's common-auth
# ends with our pam_cap, which reads the capability.conf debian/ ships;
# /usr/sbin holds our programs, the PAM directory our pam_cap.so,
# /usr/bin/perf a copy of the perf probe. Root examples run as root in
# /root with root's PATH; user examples run as alice after a real login
# ("su - alice" typed by bob, through common-auth and so pam_cap), with a
# Debian user's PATH (no /usr/sbin). The host's /etc, users and binaries
# are never written.
#
# The table: DOCUMENT :: ACTION :: COMMAND [:: PRE [:: POST]]. ACTION is
# root or user (exit status 0), "root fails" or "user fails" (non-zero),
# "root rc=0,1" (one of those: a walk of / that other work on the host
# may change underneath), or "skip: REASON"; PRE "-" is none. PRE runs as root before the example, POST after it
# (it must succeed; $OUT is the example's output), both with the helpers
# of the world's /tmp/ex/lib.sh (group, grant, perfcaps, bg_start, bg_stop).
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init

table() {
	cat <<'TABLE'
README.md :: skip: run by root/docs_readme_demo.sh :: make demo
README.md :: skip: the whole suite, this one included :: make test
README.md :: skip: builds the tree every suite runs on :: make
README.md :: skip: cli/install_layout.sh and install_staged.sh run it :: make install
README.md :: skip: cli/install_layout.sh and install_staged.sh run it :: make uninstall
README.md :: skip: run by root/deb_packages.sh :: make deb
README.md :: root :: groupadd --system perf_users && usermod --append --groups perf_users alice :: - :: getent group perf_users | grep -q ':alice$'
README.md :: root :: setcap --perf-group=perf_users --perf /usr/bin/perf :: group :: grep -qx '/usr/bin/perf: OK' "$OUT" && getcap /usr/bin/perf | grep -qx '/usr/bin/perf cap_syslog,cap_perfmon=ep'
docs/audit.md :: root rc=0,1 :: getcap -r -x --exclude=/proc / :: perfcaps :: grep -q '^/usr/bin/perf cap_syslog,cap_perfmon=ep$' "$OUT"
docs/audit.md :: root :: getcap -r --audit /usr :: perfcaps :: grep -q '^  risk: kernel-read: ' "$OUT"
docs/audit.md :: root :: getcap -r --json /usr :: perfcaps :: grep -q '^{"schema":1,"path":"/usr/bin/perf"' "$OUT"
docs/audit.md :: root :: getpcaps --all
docs/audit.md :: root :: getpcaps --tree
docs/audit.md :: root :: getpcaps --all --json
docs/ansible.md :: skip: build1 and build2.example.com stand for your hosts; root/ansible_caps.sh runs this playbook on localhost :: ANSIBLE_COLLECTIONS_PATH=contrib/ansible ansible-playbook --diff -i contrib/ansible/examples/inventory.ini contrib/ansible/examples/site.yml
docs/ansible.md :: skip: changes /usr/bin/perf and ping; root/ansible_caps.sh runs this command as written, on copies named as the doc says :: ANSIBLE_COLLECTIONS_PATH=contrib/ansible ansible-playbook --diff -i contrib/ansible/examples/localhost.ini contrib/ansible/examples/site.yml
docs/capaudit.md :: skip: ./myserver stands for your program; root/capaudit_run.sh runs a probe that chowns, binds port 80 and opens a perf event :: capaudit -- ./myserver --port 80
docs/capaudit.md :: skip: ./myserver stands for your program; root/capaudit_suggest.sh proves the grants of real servers :: capaudit --suggest --user=www-data -- ./myserver
docs/capaudit.md :: skip: 4242 stands for a running process; root/capaudit_attach.sh attaches to one :: capaudit --json --pid=4242 --duration=5
docs/capaudit.md :: root :: capaudit --check
docs/capaudit.md :: skip: tracefs's options are the whole machine's (one superblock), not the throw-away root's; root/capaudit_missing.sh runs this remount under the tracefs lock, checks the group then reads the tracepoint's id, and puts the options back :: mount -o remount,gid=perf_users,mode=0750 /sys/kernel/tracing
docs/capmanifest.md :: root rc=0,1 :: capmanifest record / > caps.manifest :: perfcaps :: grep -q '^./usr/bin/perf owner=0 .* cap_syslog,cap_perfmon=ep$' caps.manifest
docs/capmanifest.md :: skip: /mnt/image stands for a mounted image; root/capmanifest_roundtrip.sh records, copies and restores trees :: capmanifest verify caps.manifest /mnt/image
docs/capmanifest.md :: skip: /mnt/image stands for a mounted image; root/capmanifest_roundtrip.sh records, copies and restores trees :: capmanifest restore caps.manifest /mnt/image
docs/capmanifest.md :: root :: capmanifest add /etc/capmanifest.d/local.manifest /usr/bin/perf :: perfcaps :: grep -qx 'added: ./usr/bin/perf cap_syslog,cap_perfmon=ep' "$OUT"
docs/deployment.md :: skip: installs packages; root/deb_packages.sh installs these files in a throw-away root (with dpkg -i: apt refuses .deb paths inside a chroot) :: apt install ./build/deb/libcap2_2.76+perfmon1_amd64.deb ./build/deb/libcap2-bin_2.76+perfmon1_amd64.deb ./build/deb/libpam-cap_2.76+perfmon1_amd64.deb ./build/deb/libcap-dev_2.76+perfmon1_amd64.deb
docs/deployment.md :: root :: setcap cap_perfmon=ei /usr/bin/perf :: - :: getcap /usr/bin/perf | grep -qx '/usr/bin/perf cap_perfmon=ei'
docs/hacking.md :: skip: builds the tree every suite runs on :: make -s -j2
docs/hacking.md :: skip: builds the tree every suite runs on :: make -s -j2 -C tests all
docs/hacking.md :: skip: builds the tree every suite runs on; cli/harness_rules.sh checks run.sh builds it when it is not built :: make -s -j2 && make -s -j2 -C tests all
docs/hacking.md :: skip: runs suites; this is one of them :: TESTS="root/capmanifest_owner.sh unit/check_common_sha256" sh tests/run.sh
docs/hacking.md :: skip: this suite :: sh tests/root/docs_examples.sh
docs/hacking.md :: skip: sets an option of the reader's own clone; the throw-away root has no clone to blame in :: git config blame.ignoreRevsFile .git-blame-ignore-revs
docs/hacking.md :: skip: runs suites; this is one of them :: BUILD=$PWD/build/asan SANITIZE=address,undefined TESTS="cli/capcheck_verdicts.sh" sh tests/run.sh
docs/hacking.md :: skip: a recipe's check, run in a scratch clone by make recipes (tests/tools/recipes.sh) :: TESTS="$(cd tests && ls unit/check_*.c | sed 's/\.c$//') cli/docs_cap_names.sh cli/capsh_explain.sh cli/capsh_json.sh cli/capsh_oldkernel.sh cli/libcap_text_diff.sh cli/libcap_iab_diff.sh cli/libcap_exec_library.sh cli/libcap_abi_exports.sh cli/getcap_diff.sh cli/getpcaps_diff.sh cli/getpcaps_json.sh cli/progs_upstream_diff.sh root/capsh_diff.sh root/setcap_diff.sh root/setcap_ours.sh root/getcap_json_audit.sh root/libcap_file_caps.sh root/capmanifest_roundtrip.sh" sh tests/run.sh
docs/hacking.md :: skip: a recipe's check, run in a scratch clone by make recipes (tests/tools/recipes.sh) :: TESTS="cli/docs_man_pages.sh cli/capsh_usage.sh cli/progs_typo_hint.sh cli/progs_version_help.sh cli/progs_upstream_diff.sh unit/check_common_opts" sh tests/run.sh
docs/hacking.md :: skip: a recipe's check, run in a scratch clone by make recipes (tests/tools/recipes.sh) :: TESTS="cli/docs_json_keys.sh cli/<program>_json.sh" sh tests/run.sh
docs/hacking.md :: skip: a recipe's check, run in a scratch clone by make recipes (tests/tools/recipes.sh) :: TESTS="cli/<program>_<aspect>.sh" sh tests/run.sh
docs/install.md :: skip: builds the tree every suite runs on :: make
docs/install.md :: skip: cli/install_layout.sh and install_staged.sh run it :: make install
docs/install.md :: skip: cli/install_layout.sh and install_staged.sh run it :: make uninstall
docs/install.md :: skip: prog.c stands for your program; cli/install_pkgconfig.sh checks these pkg-config answers :: PKG_CONFIG_PATH=/usr/local/lib/libcap-perfmon/pkgconfig cc prog.c $(pkg-config --cflags --libs libcap)
docs/install.md :: skip: cli/install_staged.sh and install_pkgconfig.sh install this way into a stage :: make install DESTDIR=$PWD/stage prefix=/usr libdir=/usr/lib/x86_64-linux-gnu sbindir=/sbin pamdir=/lib/x86_64-linux-gnu/security
docs/install.md :: skip: prog.c stands for your program; cli/install_pkgconfig.sh checks these flags :: cc prog.c -lcap $(pkg-config --libs libpsx)
docs/install.md :: root :: install -m 0755 /usr/local/lib/libcap-perfmon/libcap.so.2 /tmp/libcap && /tmp/libcap --summary :: mkdir -p /usr/local/lib/libcap-perfmon && cp "$BUILD/libcap/libcap.so.2" /usr/local/lib/libcap-perfmon/ :: grep -q '^Current mode: ' "$OUT"
docs/libpsx.md :: skip: prog.c stands for your program; cli/install_pkgconfig.sh checks these flags :: cc prog.c -lcap $(pkg-config --libs libpsx)
docs/perfdoctor.md :: root :: perfdoctor :: perfcaps
docs/perfdoctor.md :: skip: 4242 stands for a login shell; root/perfdoctor_session.sh checks running sessions :: perfdoctor --pid=4242 /usr/bin/perf
docs/perfdoctor.md :: root :: perfdoctor --user=alice /usr/bin/perf :: perfcaps :: grep -q '^verdict: *YES' "$OUT"
libcap2-bin.README.Debian :: root :: capcheck alice :: grant :: grep -q '^alice: cap_perfmon \[/etc/security/capability.conf:[0-9]*, group @perf_users\]$' "$OUT"
libcap2-bin.README.Debian :: root :: perfdoctor --user=alice --service=login /usr/bin/perf :: grant; setcap cap_perfmon=ei /usr/bin/perf :: grep -q '^verdict: *YES' "$OUT"
libcap2-bin.README.Debian :: root :: dpkg-statoverride --update --add root perf_users 0750 /usr/bin/perf :: group :: [ "$(stat -c %U:%G:%a /usr/bin/perf)" = root:perf_users:750 ]
libcap2-bin.README.Debian :: root :: setcap --perf-group=perf_users --perf /usr/bin/perf
libcap2-bin.README.Debian :: root :: capmanifest add /etc/capmanifest.d/local.manifest /usr/bin/perf :: - :: grep -q '^./usr/bin/perf owner=0 group=[0-9]* mode=0750 acl=no sha256=[0-9a-f]* cap_syslog,cap_perfmon=ep$' /etc/capmanifest.d/local.manifest
capsh.1 :: user :: /usr/sbin/capsh --explain=cap_perfmon
capsh.1 :: user :: /usr/sbin/capsh --suggest=kallsyms
capsh.1 :: user :: /usr/sbin/capsh --supports=cap_perfmon && echo yes :: - :: grep -qx yes "$OUT"
capsh.1 :: root :: capsh --iab=^cap_perfmon --secbits=0xef --user=alice -- -l
capsh.1 :: root :: capsh --inh=cap_perfmon --user=alice -- -c 'perf stat -a true' :: setcap cap_perfmon=ei /usr/bin/perf :: grep -qx 'perf_event_open: ok' "$OUT"
capability.conf.5 :: root :: capcheck --config=/etc/security/capability.conf :: grant
cap_text_formats.7 :: root :: setcap cap_perfmon,cap_syslog=ep /usr/bin/perf
cap_text_formats.7 :: root :: getcap /usr/bin/perf :: - :: grep -qx '/usr/bin/perf cap_syslog,cap_perfmon=ep' "$OUT"
cap_text_formats.7 :: user :: /usr/sbin/capsh --decode=0x4400000000 :: - :: grep -qx '0x0000004400000000=cap_syslog,cap_perfmon' "$OUT"
capaudit.8 :: skip: /usr/sbin/httpd stands for a web server; root/capaudit_suggest.sh proves a port-80 server's grant :: capaudit --suggest --user=www-data --output=report -- /usr/sbin/httpd -t
capaudit.8 :: skip: a developer's cap_perfmon copy of capaudit on her PATH and her probe; root/capaudit_run.sh runs this as nobody :: capaudit --suggest --output=report -- ./probe dir
capaudit.8 :: skip: reads the report the line before wrote :: grep '^setcap' report
capaudit.8 :: skip: root/capaudit_suggest.sh proves ping's grant, as nobody :: capaudit --suggest --user=nobody --output=report -- ./ping -c1 127.0.0.1
capaudit.8 :: skip: reads the report the line before wrote :: sed -n '/^# capaudit --suggest/,/^setcap/p' report
capaudit.8 :: skip: not a command: the report's first line :: capaudit --suggest: the least grant, proven by 6 runs as nobody: each file below replaced, in a private mount namespace, by a copy carrying only the capabilities under test
capaudit.8 :: skip: not a command: a line of the report :: /opt/ping (ran as ping):
capaudit.8 :: skip: root/capaudit_suggest.sh runs this python server behind wrappers :: capaudit --suggest --user=www-data -- timeout 2 python3 -m http.server 80
capaudit.8 :: skip: needs a running sshd; root/capaudit_attach.sh attaches to a running process :: capaudit --json --pid=$(pidof sshd) --duration=5
capaudit.8 :: user fails :: /usr/sbin/capaudit --check :: - :: grep -q '^capaudit: ' "$OUT"
capcheck.8 :: root :: capcheck --config /etc/security/capability.conf alice bob :: grant :: grep -q '^alice: cap_perfmon ' "$OUT" && grep -q '^bob: none: ' "$OUT"
capmanifest.8 :: skip: not a command: the manifest's first line :: capmanifest 4
capmanifest.8 :: root rc=0,1 :: capmanifest record / > /var/lib/caps.manifest :: perfcaps :: grep -q '^./usr/bin/perf ' /var/lib/caps.manifest
capmanifest.8 :: skip: /mnt/image stands for a mounted image; root/capmanifest_roundtrip.sh records, copies and restores trees :: capmanifest verify /var/lib/caps.manifest /mnt/image
capmanifest.8 :: skip: /mnt/image stands for a mounted image; root/capmanifest_roundtrip.sh records, copies and restores trees :: capmanifest restore /var/lib/caps.manifest /mnt/image
capmanifest.8 :: root :: capmanifest restore --fix-owner /var/lib/caps.manifest / :: setcap -r /usr/bin/perf :: getcap /usr/bin/perf | grep -qx '/usr/bin/perf cap_syslog,cap_perfmon=ep'
capmanifest.8 :: root :: dpkg-statoverride --update --add root perf_users 0750 /usr/bin/perf :: dpkg-statoverride --remove /usr/bin/perf >/dev/null 2>&1; true
capmanifest.8 :: root :: setcap --perf-group=perf_users --perf /usr/bin/perf
capmanifest.8 :: root :: capmanifest add /etc/capmanifest.d/local.manifest /usr/bin/perf :: - :: grep -qx 'added: ./usr/bin/perf cap_syslog,cap_perfmon=ep' "$OUT"
getcap.8 :: user :: /usr/sbin/getcap /usr/bin/perf :: perfcaps :: grep -qx '/usr/bin/perf cap_syslog,cap_perfmon=ep' "$OUT"
getcap.8 :: root :: getcap -r -x --exclude=/home/build / | sort :: perfcaps :: grep -qx '/usr/bin/perf cap_syslog,cap_perfmon=ep' "$OUT"
getpcaps.8 :: user :: /usr/sbin/getpcaps 1 $$ :: - :: grep -q '^1: ' "$OUT"
getpcaps.8 :: user :: /usr/sbin/getpcaps $(pgrep -x perf) :: perfcaps; bg_start perf_probe :: bg_stop; grep -q ': cap_syslog,cap_perfmon=ep$' "$OUT"
getpcaps.8 :: user :: /usr/sbin/getpcaps --iab $$ :: grant :: grep -q ': "cap_perfmon=i"' "$OUT"
getpcaps.8 :: root :: getpcaps --all | grep -B1 '^        ! ' :: bg_start bounded :: bg_stop
pam_cap.8 :: root :: setcap cap_perfmon=ei /usr/bin/perf
pam_cap.8 :: root :: capcheck --config=/etc/security/capability.conf :: grant
pam_cap.8 :: user :: /usr/sbin/getpcaps $$ :: grant :: grep -q '^[0-9]*: cap_perfmon=i$' "$OUT"
perfdoctor.8 :: root fails :: perfdoctor --user=alice /usr/bin/perf :: group; printf 'cap_perfmon\t@perf_users\n' >>/etc/security/capability.conf :: grep -q '^verdict: *NO' "$OUT"
perfdoctor.8 :: user :: /usr/sbin/perfdoctor /usr/bin/perf :: perfcaps :: grep -q '^verdict: *YES' "$OUT"
perfdoctor.8 :: skip: 4242 stands for a container's process; root/perfdoctor_seccomp.sh judges such processes from the host :: perfdoctor --pid=4242
perfdoctor.8 :: root :: perfdoctor --seccomp-profile >/etc/containers/perfmon.json :: mkdir -p /usr/share/containers /etc/containers; printf '{"defaultAction": "SCMP_ACT_ERRNO", "syscalls": []}' >/usr/share/containers/seccomp.json :: grep -q '"CAP_PERFMON"' /etc/containers/perfmon.json
perfdoctor.8 :: skip: '...' stands for the image and the command to run in it :: podman run --cap-add=PERFMON --security-opt seccomp=/etc/containers/perfmon.json ...
setcap.8 :: root :: setcap cap_perfmon=ep /usr/bin/perf
setcap.8 :: root :: setcap -v cap_perfmon=ep /usr/bin/perf :: - :: grep -qx '/usr/bin/perf: OK' "$OUT"
setcap.8 :: root :: echo cap_perfmon,cap_syslog=ep | setcap -q - /usr/bin/perf
setcap.8 :: root :: getcap /usr/bin/perf :: - :: grep -qx '/usr/bin/perf cap_syslog,cap_perfmon=ep' "$OUT"
setcap.8 :: root :: setcap cap_net_raw=ep ./ping cap_perfmon=ep ./perf :: cp /usr/bin/perf ./ping && cp /usr/bin/perf ./perf
setcap.8 :: root :: setcap -r ./perf -v -r ./perf
TABLE
}

# --- the examples ---------------------------------------------------------
# One a line: DOCUMENT \t PROMPT \t COMMAND; problems as BAD \t WHERE \t WHY.
extract() {
	awk '
	function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s); return s }
	function balanced(s,   t) {	# no quote left open
		t = s; gsub(/[^'"'"']/, "", t); if (length(t) % 2) return 0
		t = s; gsub(/[^"]/, "", t); return length(t) % 2 == 0
	}
	function uncomment(s,   i) {	# a trailing "  # note", outside quotes
		for (i = 1; i < length(s); i++)
			if (substr(s, i) ~ /^[ \t][ \t]+# / && balanced(substr(s, 1, i)))
				return trim(substr(s, 1, i))
		return trim(s)
	}
	function emit(prompt, cmd) {
		cmd = uncomment(cmd)
		if (cmd != "") printf "%s\t%s\t%s\n", name, prompt, cmd
	}
	function roff(s) {
		gsub(/\\-/, "-", s); gsub(/\\\(aq/, "'"'"'", s); gsub(/\\\(dq/, "\"", s)
		gsub(/\\f[BIPR]/, "", s); gsub(/\\&/, "", s); gsub(/\\e/, "\\", s)
		gsub(/@sbindir@/, "/usr/sbin", s)
		return s
	}
	function joined(line) {	# continuation lines ("\" at the end) as one
		if (join != "") { line = join " " trim(line); join = "" }
		if (line ~ /\\$/) { join = trim(substr(line, 1, length(line) - 1)); return "" }
		return line
	}
	FNR == 1 {
		name = FILENAME	# relative to the tree: docs/x.md, bench/README.md
		if (name ~ /^(debian|man\/man[0-9])\//) sub(/^.*\//, "", name)
		md = FILENAME ~ /\.md$/; man = FILENAME ~ /^man\/man[0-9]\//
		infence = 0; ex = 0; marker = 0; join = ""; blank = 1; listctx = 0
	}
	md {
		line = $0
		if (!infence && line ~ /^[ \t]*<!-- (test|deb_packages|podman): .* -->[ \t]*$/) { marker = FNR; next }
		if (!infence && line ~ /^[ \t]*```/) {
			lang = line; sub(/^[ \t]*```/, "", lang); lang = trim(lang)
			infence = 1; covered = (marker == FNR - 1)
			if (lang == "")
				printf "BAD\t%s:%d\ta fence without a language (sh for commands, text for the rest)\n", name, FNR
			next
		}
		if (infence && line ~ /^[ \t]*```[ \t]*$/) { infence = 0; blank = 0; next }
		if (infence) {
			if (lang != "sh" || covered) next
			line = joined(trim(line))
			if (line == "" || line ~ /^#/) next
			emit("#", line)
			next
		}
		if (line ~ /^[ \t]*$/) { blank = 1; next }
		if (line ~ /^[ \t]*([*-]|[0-9]+\.) /) listctx = 1
		else if (line !~ /^[ \t]/) listctx = 0
		if (blank && !listctx && line ~ /^(    |\t)/)
			printf "BAD\t%s:%d\tan indented code block: fence it (sh or text)\n", name, FNR
		blank = 0
		next
	}
	man {
		if ($0 ~ /^\.EX/) { ex = 1; next }
		if ($0 ~ /^\.EE/) { ex = 0; join = ""; next }
		if (!ex) next
		if (join == "") {
			if ($0 !~ /^[#$] [^ ]/ || $0 ~ /^[#$] [A-Z][^=]*( |$)/) next
			prompt = substr($0, 1, 1)
			line = substr(roff($0), 3)
		} else {
			line = roff($0)
		}
		line = joined(line)
		if (line != "") emit(prompt, line)
		next
	}
	$0 ~ /^[ \t]+[#$] [^ ]/ {
		line = trim($0); emit(substr(line, 1, 1), substr(line, 3))
	}
	' "$@"
}

docs() {	# relative to $TOP
	(cd "$TOP" && for f in README.md docs/*.md bench/README.md \
		debian/libcap2-bin.README.Debian; do
		[ -f "$f" ] && echo "$f"
	done
	for f in man/man*/*.[0-9]; do
		head -c 4 "$f" | grep -q '^\.so ' || echo "$f"
	done)
}

# --- the throw-away root (in the private mount namespace) ----------------
ma=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || echo x86_64-linux-gnu)
W=$T/w
m=$W/m

# The files every document's world starts from, written into the base
# layer through an overlay over /.
base_world() {
	mkdir -p "$W/base" "$W/bwork" "$m" &&
	mount -t overlay overlay -o "lowerdir=/,upperdir=$W/base,workdir=$W/bwork" "$m" ||
		{ echo "cannot mount an overlay over /"; return 1; }
	cat >"$m/etc/passwd" <<'EOF'
root:x:0:0:root:/root:/bin/sh
daemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin
bin:x:2:2:bin:/bin:/usr/sbin/nologin
sys:x:3:3:sys:/dev:/usr/sbin/nologin
nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin
alice:x:4701:4701:docs example user:/home/alice:/bin/sh
bob:x:4702:4702:docs example user:/home/bob:/bin/sh
EOF
	cat >"$m/etc/group" <<'EOF'
root:x:0:
daemon:x:1:
bin:x:2:
sys:x:3:
adm:x:4:
shadow:x:42:
nogroup:x:65534:
alice:x:4701:
bob:x:4702:
EOF
	sed 's/^\([^:]*\):.*/\1:*:19000:0:99999:7:::/' "$m/etc/passwd" |
		sed 's/^\(alice\|bob\):\*:/\1::/' >"$m/etc/shadow"
	sed 's/^\([^:]*\):.*/\1:*::/' "$m/etc/group" >"$m/etc/gshadow"
	chmod 0644 "$m/etc/passwd" "$m/etc/group"
	chown root:42 "$m/etc/shadow" "$m/etc/gshadow"
	chmod 0640 "$m/etc/shadow" "$m/etc/gshadow"
	printf 'passwd: files\ngroup: files\nshadow: files\ngshadow: files\nhosts: files\n' \
		>"$m/etc/nsswitch.conf"
	mkdir -p "$m/home/alice" "$m/home/bob" &&
	chown 4701:4701 "$m/home/alice" && chown 4702:4702 "$m/home/bob" || return 1
	# PAM as Debian's pam-auth-update writes it with libpam-cap's profile;
	# su and login as Debian ships them, reduced to what decides here.
	printf '%s\n' 'auth [success=1 default=ignore] pam_unix.so nullok' \
		'auth requisite pam_deny.so' 'auth required pam_permit.so' \
		'auth optional pam_cap.so' >"$m/etc/pam.d/common-auth"
	echo 'account required pam_unix.so' >"$m/etc/pam.d/common-account"
	echo 'session required pam_unix.so' >"$m/etc/pam.d/common-session"
	printf '%s\n' 'auth sufficient pam_rootok.so' '@include common-auth' \
		'@include common-account' '@include common-session' >"$m/etc/pam.d/su"
	printf '%s\n' '@include common-auth' '@include common-account' \
		'@include common-session' >"$m/etc/pam.d/login"
	cp "$m/etc/pam.d/login" "$m/etc/pam.d/sshd"
	mkdir -p "$m/etc/security" "$m/etc/capmanifest.d" &&
	install -m 0644 "$TOP/debian/capability.conf" "$m/etc/security/capability.conf" &&
	install -m 0644 "$BUILD/pam_cap/pam_cap.so" "$m/usr/lib/$ma/security/pam_cap.so" &&
	install -m 0755 "$BIN/perfprobe" "$m/usr/bin/perf" || return 1
	for p in setcap getcap getpcaps capsh capmanifest perfdoctor capcheck capaudit; do
		install -m 0755 "$BUILD/progs/$p" "$m/usr/sbin/$p" || return 1
	done
	mkdir -p "$m/tmp/ex" && chmod 1777 "$m/tmp/ex"
	cat >"$m/tmp/ex/lib.sh" <<'EOF'
# Helpers for PRE and POST (see docs_examples.sh).
conf=/etc/security/capability.conf
group() {	# perf_users with alice in it
	getent group perf_users >/dev/null || groupadd --system perf_users || return 1
	usermod --append --groups perf_users alice
}
grant() {	# capability.conf grants cap_perfmon to perf_users, above "none *"
	group || return 1
	grep -q '^cap_perfmon' "$conf" || sed -i '/^none/i cap_perfmon\t@perf_users' "$conf"
}
perfcaps() {	# perf for perf_users, as the README's quick start does it
	group && setcap --perf-group=perf_users --perf /usr/bin/perf >/dev/null
}
bg_start() {	# a process to look at, its pid in /tmp/ex/bg.pid
	case $1 in
	perf_probe) cp /bin/sleep /tmp/ex/perf && chmod 0755 /tmp/ex/perf &&
		setcap cap_perfmon,cap_syslog=ep /tmp/ex/perf &&
		setpriv --reuid=alice --regid=alice --clear-groups /tmp/ex/perf 60 & ;;
	bounded) capsh --drop=cap_sys_admin -- -c 'exec sleep 60' & ;;
	esac
	echo $! >/tmp/ex/bg.pid
	sleep 0.3
}
bg_stop() { [ -f /tmp/ex/bg.pid ] && kill "$(cat /tmp/ex/bg.pid)" 2>/dev/null; rm -f /tmp/ex/bg.pid; true; }
EOF
	umount "$m"
}

world_up() {
	rm -rf "$W/u" "$W/wk" && mkdir "$W/u" "$W/wk" &&
	mount -t overlay overlay -o "lowerdir=$W/base:/,upperdir=$W/u,workdir=$W/wk" "$m" ||
		return 1
	for d in proc sys dev; do mount --rbind "/$d" "$m/$d" || return 1; done
	# The overlay's lowest layer is the host's own /, whose /tmp other
	# suites fill and empty meanwhile: a walk of the world's / (capmanifest
	# restore ... /) would meet their directories vanishing. The world gets
	# a /tmp of its own holding only the examples' files.
	mount -t tmpfs -o mode=1777 tmpfs "$m/tmp" &&
	cp -a "$W/base/tmp/ex" "$m/tmp/" || return 1
	# root's home is the world's own, empty, as on a system just set up:
	# the host's (the caches of whoever runs the suite, a quarter of a
	# million files here) is no part of the system the examples describe,
	# and the walks of / (capmanifest record, getcap -r) spent most of
	# their time in it.
	mount -t tmpfs -o mode=0700 tmpfs "$m/root" || return 1
	# So is a top-level directory of the host's that a Debian system does
	# not have (where the checkouts of whoever runs the suite live, tens
	# of thousands of files, changing while other builds run): it is
	# empty in the world.
	for d in "$m"/*; do
		[ -d "$d" ] && [ ! -L "$d" ] || continue
		case ${d##*/} in
		bin|boot|dev|etc|home|lib|lib32|lib64|libx32|lost+found|media|mnt) ;;
		opt|proc|root|run|sbin|srv|sys|tmp|usr|var) ;;
		*) mount -t tmpfs -o mode=0755 tmpfs "$d" || return 1 ;;
		esac
	done
	# ... but the tree and build, when they live below one of those (or
	# /tmp, /root): set-up steps copy from $BUILD.
	for d in "$TOP" "$BUILD"; do
		[ -d "$m$d" ] && continue
		mkdir -p "$m$d" && mount --bind "$d" "$m$d" || return 1
	done
	[ -d "$m/run/nscd" ] && mount -t tmpfs none "$m/run/nscd"
	return 0
}
world_down() {
	[ -f "$m/tmp/ex/bg.pid" ] && kill "$(cat "$m/tmp/ex/bg.pid")" 2>/dev/null
	umount -R "$m" 2>/dev/null || { sleep 1; umount -R -l "$m"; }
}

# inroot SCRIPT: runs the world's /tmp/ex/SCRIPT as root in /root.
inroot() {
	timeout 120 chroot "$m" /usr/bin/env -i LANG=C HOME=/root BUILD="$BUILD" \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		sh -c "cd /root && . /tmp/ex/lib.sh && . /tmp/ex/$1" </dev/null
}
# asuser SCRIPT: as alice after a login bob makes with "su - alice".
asuser() {
	timeout 120 chroot "$m" /usr/bin/env -i LANG=C PATH=/usr/bin:/bin \
		su bob -c "su - alice -c 'sh /tmp/ex/$1'" </dev/null
}

inside() {
	mkdir -p "$W" && mount -t tmpfs -o mode=0755 tmpfs "$W" || { echo "no tmpfs"; return 1; }
	base_world || { fail "cannot build the base world"; finish; }
	ran=0 skipped=0 current=
	us=$(printf '\037')
	while IFS=$us read -r n doc action cmd pre post; do
		if [ "$doc" != "$current" ]; then
			[ -n "$current" ] && world_down
			current=$doc
			world_up || { fail "$doc: cannot build its world"; finish; }
		fi
		case $action in skip*) skipped=$((skipped + 1)); continue ;; esac
		printf '%s\n' "$cmd" >"$m/tmp/ex/$n.sh"
		printf '%s\n' "$pre" >"$m/tmp/ex/$n.pre"
		printf 'OUT=/tmp/ex/%s.out\n%s\n' "$n" "$post" >"$m/tmp/ex/$n.post"
		chmod 0644 "$m/tmp/ex/$n".*
		inroot "$n.pre" >"$T/$n.pre.log" 2>&1 && pass ||
			{ fail "$doc: set-up for '$cmd' failed"; sed 's/^/    /' "$T/$n.pre.log"; continue; }
		case $action in
		root*) inroot "$n.sh" >"$m/tmp/ex/$n.out" 2>&1 ;;
		user*) asuser "$n.sh" >"$m/tmp/ex/$n.out" 2>&1 ;;
		esac
		rc=$?
		ran=$((ran + 1))
		bad=
		case $action in
		*fails) [ $rc -ne 0 ] && [ $rc -ne 124 ] || bad="exited $rc, must fail" ;;
		*rc=*)	# a walk of / may meet files other work removes meanwhile
			case ",${action#*rc=}," in *",$rc,"*) ;; *) bad="exited $rc" ;; esac ;;
		*) [ $rc -eq 0 ] || bad="exited $rc" ;;
		esac
		if [ -z "$bad" ] && [ -n "$post" ] && ! inroot "$n.post" >"$T/$n.post.log" 2>&1; then
			bad="did not do what the check after it expects: $post"
		fi
		if [ -n "$bad" ]; then
			fail "$doc: '$cmd' ($action) $bad"
			sed 's/^/    /' "$m/tmp/ex/$n.out" | head -n 20
			sed 's/^/    post: /' "$T/$n.post.log" 2>/dev/null | head -n 5
		else
			pass
		fi
	done <"$T/plan"
	[ -n "$current" ] && world_down
	umount "$W"
	echo "examples: $ran run, $skipped excused"
	finish
}

if [ "${1:-}" = --inside ]; then
	shift
	inside
	exit $?
fi

[ "$(id -u)" -eq 0 ] || skip "needs root (mount namespace, overlay, chroot)"
skip_if_sanitized "the examples run the plain build's programs as installed"
for tool in unshare chroot su timeout; do
	command -v "$tool" >/dev/null 2>&1 || skip "$tool not found"
done
grep -qw overlay /proc/filesystems || modprobe overlay 2>/dev/null ||
	skip "the kernel has no overlay filesystem"
for p in setcap getcap getpcaps capsh capmanifest perfdoctor capcheck capaudit; do
	[ -x "$BUILD/progs/$p" ] || skip "$BUILD/progs/$p is not built yet"
done
[ -f "$BUILD/pam_cap/pam_cap.so" ] || skip "pam_cap.so is not built yet"
[ -x "$BIN/perfprobe" ] || skip "$BIN/perfprobe is not built (make -C tests all)"
[ -d "/usr/lib/$ma/security" ] || skip "no PAM module directory /usr/lib/$ma/security"

# The examples, and the plan: each matched with its table entry.
(cd "$TOP" && extract $(docs)) >"$T/examples"
table >"$T/table"
awk -F '\t' '$1 == "BAD" { print "FAIL: " $2 ": " $3 }' "$T/examples" >"$T/bad"
awk -F '\t' -v plan="$T/plan" -v stale="$T/stale" '
	function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s); return s }
	FNR == NR {
		n = split($0, f, / :: /)
		if (n < 3) { print "FAIL: table line " FNR ": want DOCUMENT :: ACTION :: COMMAND"; next }
		key = trim(f[1]) SUBSEP trim(f[3])
		action[key] = trim(f[2]); pre[key] = trim(f[4]); post[key] = trim(f[5])
		if (pre[key] == "-") pre[key] = ""
		order[++rows] = key; line[key] = FNR
		next
	}
	$1 == "BAD" { next }
	{
		key = $1 SUBSEP $3; n++
		if (!(key in action)) {
			printf "FAIL: %s: an example the table does not know (run it or excuse it in docs_examples.sh): %s %s\n", $1, $2, $3
			next
		}
		used[key] = 1
		if ($2 == "$" && action[key] ~ /^root/)
			printf "FAIL: %s: \"$ %s\" is a user example, the table runs it as root\n", $1, $3
		printf "%03d\037%s\037%s\037%s\037%s\037%s\n", n, $1, action[key], $3, pre[key], post[key] >plan
	}
	END {
		for (i = 1; i <= rows; i++)
			if (!(order[i] in used)) {
				split(order[i], k, SUBSEP)
				printf "FAIL: table line %d: no document has this example any more: %s: %s\n", line[order[i]], k[1], k[2]
			}
	}
' FS=' :: ' "$T/table" FS='\t' "$T/examples" >>"$T/bad"
if [ -s "$T/bad" ]; then
	while IFS= read -r l; do fail "${l#FAIL: }"; done <"$T/bad"
else
	pass
fi
[ -s "$T/plan" ] || { fail "no examples found"; finish; }
echo "$(wc -l <"$T/plan") examples in $(docs | wc -l) documents"

LIB_T=$T LIB_COUNTS=$T/inside.counts unshare -m --propagation private sh "$0" --inside && pass ||
	fail "in the throw-away root (above)"
add_counts "$T/inside.counts"
finish "every example ran or is excused with its reason"
