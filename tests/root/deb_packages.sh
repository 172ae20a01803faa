#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# The Debian packages (make deb) as an administrator would use them, in a
# throw-away root: a private mount namespace with an overlay over / (writes
# go to a tmpfs), chrooted into. There, apt swaps Debian's libcap2,
# libcap2-bin, libpam-cap and libcap-dev for ours; the system's own ip,
# systemctl, ping (iputils-ping's postinst sets its capability with our
# setcap) and getcap -r still work; a login through the system's "login"
# PAM stack, where pam-auth-update put our pam_cap, gives a perf_users
# member cap_perfmon; perf runs for that member; the guide is walked with
# the installed programs and module; the installed capaudit and getpcaps
# --all run; Debian's packages go back with the commands of
# docs/deployment.md, run without a terminal after the administrator edited
# capability.conf, and the system still works. The host is checked
# unchanged at the end.
#
# The blocks of docs/deployment.md marked "<!-- deb_packages: NAME -->"
# (keep, rollback) are run here as they are written (docs_examples.sh
# leaves them to this suite).
#
# The packages are built once and kept in build/deb (make deb skips the
# build when the sources are unchanged); lintian's verdict is kept with them
# (made beside the throw-away root's run when they are new).
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init

# doc_block NAME: the sh block under "<!-- deb_packages: NAME -->" in
# docs/deployment.md, as written (continuation lines and all).
doc_block() {
	awk -v tag="<!-- deb_packages: $1 -->" '
		$0 == tag { want = 1; next }
		want && !inblock && /^```sh$/ { inblock = 1; next }
		want && !inblock { exit }
		inblock && /^```$/ { exit }
		inblock { print }' "$TOP/docs/deployment.md"
}
# The version going back installs: the rollback block's own "v=" line.
rollback_version() {
	doc_block rollback | sed -n 's/^v=//p' | head -n 1 >"$T/vline"
	[ -s "$T/vline" ] || return 1
	sh -c "v=$(cat "$T/vline") && printf '%s\n' \"\$v\""
}

# --- inside the private mount namespace ---------------------------------
inside() {
	ma=$1 rbver=$2	# $T: the outer run's (LIB_T)
	m=$T/ovl/merged
	mkdir -p "$T/ovl"
	# Upper and work layers on a tmpfs: every write of the throw-away root
	# lands there and vanishes with the namespace.
	mount -t tmpfs -o mode=0755 tmpfs "$T/ovl" &&
	mkdir "$T/ovl/upper" "$T/ovl/work" "$m" &&
	mount -t overlay overlay \
		-o "lowerdir=/,upperdir=$T/ovl/upper,workdir=$T/ovl/work" "$m" ||
		{ echo "cannot mount an overlay over /"; return 1; }
	for d in proc sys dev; do mount --rbind "/$d" "$m/$d" || return 1; done

	# man-db's trigger re-indexes every manual page at each dpkg run
	# (seconds each time); it is not what is tested here.
	rm -f "$m/var/lib/man-db/auto-update"
	# apt's binary caches, as Debian keeps them by default, where a host
	# image turned them off (docker-clean): each apt run here then reads
	# the archive's package lists once, not again at every run (a second
	# of CPU each, over a dozen runs). Its verdicts are the same.
	printf '%s\n' 'Dir::Cache::pkgcache "/var/cache/apt/pkgcache.bin";' \
		'Dir::Cache::srcpkgcache "/var/cache/apt/srcpkgcache.bin";' \
		>"$m/etc/apt/apt.conf.d/zz-deb-packages-caches"

	# The system's own programs, in the throw-away root, with a plain
	# environment.
	inroot() {
		chroot "$m" /usr/bin/env -i LANG=C DEBIAN_FRONTEND=noninteractive \
			PATH=/usr/sbin:/usr/bin:/sbin:/bin "$@"
	}
	# apt's verdict on a swap (a dry run: apt 2.6 refuses to install .debs
	# given by path inside a chroot, "Pathname to install is not absolute"),
	# then dpkg does it, as apt would have.
	swap() {
		inroot apt-get install -s -q --no-download --allow-downgrades "$@" \
			>"$T/apt.log" 2>&1 && pass || { fail "apt refuses the swap"; tail -20 "$T/apt.log"; }
		grep -q ' 0 to remove' "$T/apt.log" && pass ||
			{ fail "apt would remove packages for the swap"; grep -A5 REMOVED "$T/apt.log"; }
		inroot dpkg -i --force-confdef --force-confold "$@" >"$T/dpkg.log" 2>&1 && pass ||
			{ fail "dpkg -i fails"; tail -20 "$T/dpkg.log"; }
	}
	works() {	# $1: when; ip, systemctl, getcap, ping as nobody
		inroot ip link show lo >/dev/null && pass || fail "$1: ip link fails"
		inroot systemctl --version >/dev/null && pass || fail "$1: systemctl --version fails"
		inroot getcap -r /usr >"$T/getcap.out" 2>"$T/getcap.err" && pass ||
			{ fail "$1: getcap -r /usr fails"; cat "$T/getcap.err"; }
		if [ -n "$ping" ]; then
			grep -q '^/usr/bin/ping cap_net_raw=ep$' "$T/getcap.out" && pass ||
				{ fail "$1: getcap -r does not list ping's capability"; cat "$T/getcap.out"; }
			chroot --userspec=nobody:nogroup "$m" /usr/bin/ping -c1 -W2 127.0.0.1 >/dev/null && pass ||
				fail "$1: ping as nobody fails"
		fi
		inroot apt-get check -q >/dev/null && pass || fail "$1: apt-get check finds broken dependencies"
	}

	ours=$(ls "$T"/libcap2_2.76*.deb "$T"/libcap2-bin_2.76*.deb \
		"$T"/libpam-cap_2.76*.deb "$T"/libcap-dev_2.76*.deb)
	conf=/etc/security/capability.conf
	# Debian's capability.conf as installed, unedited (its sum is the one
	# dpkg recorded)?
	unedited=
	if [ -f "$m$conf" ] && [ "$(inroot dpkg-query -W -f='${Conffiles}' libpam-cap 2>/dev/null |
		awk -v f="$conf" '$1 == f { print $2 }')" = "$(md5sum <"$m$conf" | cut -d' ' -f1)" ]; then
		unedited=1
	fi
	# 1. apt takes ours as an upgrade of Debian's packages.
	swap $ours
	for p in libcap2 libcap2-bin libpam-cap libcap-dev; do
		v=$(inroot dpkg-query -W -f='${Version}' "$p")
		[ "$v" = 1:2.76+perfmon1 ] && pass || fail "$p is $v after the swap"
	done
	[ "$(readlink -f "$m/lib/$ma/libcap.so.2")" = "$m/usr/lib/$ma/libcap.so.2.76" ] && pass ||
		fail "libcap.so.2 is not ours: $(readlink -f "$m/lib/$ma/libcap.so.2")"
	inroot ldd /usr/sbin/ip | grep -q "libcap.so.2 => /lib/$ma/libcap.so.2" && pass ||
		fail "ip does not load /lib/$ma/libcap.so.2"
	# Debian's mode for shared libraries (dh_fixperms), though "make
	# install" gives them 0755 as upstream's does.
	for l in libcap.so.2.76 libpsx.so.2.76; do
		mode=$(stat -c %a "$m/usr/lib/$ma/$l")
		[ "$mode" = 644 ] && pass || fail "the package installs $l mode $mode, Debian's is 644"
	done

	# 1b. Debian's policy kept: the conffile ours ships ends, as Debian's
	# does, with "none *" (every user no earlier line names has the
	# inheritable and ambient sets cleared), it replaced an unedited
	# Debian file, and README.Debian says so where an administrator looks.
	inroot dpkg-query -W -f='${Conffiles}\n' libpam-cap | grep -q "^ $conf " && pass ||
		fail "$conf is not a conffile of our libpam-cap"
	last=$(awk 'NF && $1 !~ /^#/ { l = $1 " " $2 } END { print l }' "$TOP/debian/capability.conf")
	[ "$last" = "none *" ] && pass ||
		fail "debian/capability.conf's last line is '$last', not Debian's 'none *'"
	if [ -n "$unedited" ]; then
		if cmp -s "$m$conf" "$TOP/debian/capability.conf"; then
			pass
			echo "capability.conf: Debian's unedited file replaced by ours, ending with 'none *'"
		else
			fail "the swap left Debian's unedited $conf, not ours"
		fi
	else
		not_checked "the host's $conf is not Debian's unedited file; its replacement not checked"
	fi
	grep -q 'ends, as Debian.s does, with "none \*": a grant goes ABOVE' \
		"$m/usr/share/doc/libcap2-bin/README.Debian" && pass ||
		fail "the installed README.Debian does not say capability.conf ends with 'none *'"

	# 1c. The documentation where Debian puts it: README.Debian like
	# Debian's libcap2-bin; README.md and the guides (gzipped above 4 kB);
	# the deployment guide with libpam-cap too, the developers' with
	# libcap-dev.
	for f in libcap2-bin/README.Debian libcap2-bin/README.md \
		 libcap2-bin/docs/deployment.md libcap2-bin/docs/perf-without-root.md \
		 libcap2-bin/docs/capmanifest.md libcap2-bin/docs/hacking.md \
		 libpam-cap/deployment.md libcap-dev/install.md libcap-dev/libpsx.md; do
		[ -f "$m/usr/share/doc/$f" ] || [ -f "$m/usr/share/doc/$f.gz" ] && pass ||
			fail "the packages did not install /usr/share/doc/$f"
	done

	# 2. iputils-ping, installed now, sets its capability with our setcap.
	ping=$(ls "$T"/iputils-ping_*.deb 2>/dev/null | head -1)
	if [ -n "$ping" ]; then
		inroot dpkg -i "$ping" >"$T/ping.log" 2>&1 && pass || { fail "iputils-ping does not install"; cat "$T/ping.log"; }
		grep -q 'falling back to setuid' "$T/ping.log" && fail "iputils-ping's setcap failed" || pass
	else
		not_checked "no iputils-ping package at hand (no apt cache, no mirror); ping not checked"
	fi
	works "with our packages"

	# 3. A login through the system's "login" stack: pam-auth-update put
	# our pam_cap in common-auth, and it grants cap_perfmon (38) to a
	# perf_users member (the user and group exist in the overlay only).
	grep -q '^auth.*pam_cap\.so' "$m/etc/pam.d/common-auth" && pass ||
		fail "pam-auth-update did not add pam_cap to common-auth"
	inroot sh -c 'getent group perf_users >/dev/null || groupadd perf_users
		getent passwd debpkgtest >/dev/null || useradd -M -s /bin/sh debpkgtest
		usermod -aG perf_users debpkgtest && passwd -qd debpkgtest' && pass ||
		fail "cannot create the test user in the overlay"
	# The grant as docs/perf-without-root.md writes it: ABOVE "none *".
	# The conffile is edited from here on, as the rollback below needs.
	inroot sed -i '1i cap_perfmon @perf_users' "$conf" && pass ||
		fail "cannot add the grant to $conf"
	inroot capcheck debpkgtest >"$T/capcheck.out" 2>&1 && pass ||
		{ fail "capcheck warns about the documented grant"; cat "$T/capcheck.out"; }
	grep -q "^debpkgtest: cap_perfmon \[$conf:1, group @perf_users\]\$" "$T/capcheck.out" && pass ||
		{ fail "capcheck does not see the documented grant"; cat "$T/capcheck.out"; }
	[ -x "$BIN/pamcase" ] || { echo "$BIN/pamcase is not built (make -C tests all)"; return 1; }
	login=$(chroot "$m" "$BIN/pamcase" -s login -u debpkgtest auth setcred)
	case $login in
	"auth=SUCCESS setcred=SUCCESS iab=^38 "*|"auth=SUCCESS setcred=SUCCESS iab=38 "*) ;;
	*) fail "login did not give cap_perfmon: $login" ;;
	esac

	# 3b. setcap --perf's repair hints, each pasted as printed, in the
	# situation that printed it: a group to create, an owner to change,
	# a file every user may run to restrict.
	f=/tmp/perf_hints
	cp /bin/true "$m$f" && chown nobody "$m$f" && chmod 0755 "$m$f"
	hint() {	# CASE PREFIX SETCAP-ARGS...: the hint, pasted, then setcap again
		lc=$1 lp=$2; shift 2
		inroot setcap "$@" >"$T/hint.out" 2>"$T/hint.err" &&
			{ fail "$lc: setcap did not refuse"; return 1; }
		line=$(pasted_line "$T/hint.err" "$lp") && pass ||
			{ fail "$lc: no hint"; cat "$T/hint.err"; return 1; }
		line=${line%")"}; line=${line%" first"}
		inroot sh -c "$line" >"$T/hint.log" 2>&1 && pass ||
			{ fail "$lc: the pasted '$line' fails"; cat "$T/hint.log"; return 1; }
	}
	hint "a group that does not exist" \
		"setcap: --perf-group: no group named 'pkgtest_perf' (create it first: " \
		--perf-group=pkgtest_perf --perf "$f" &&
	hint "a file root does not own" \
		"setcap: $f: owned by uid $(chroot "$m" id -u nobody) (nobody), not root: its owner could open it to everyone again; refusing --perf-group (" \
		--perf-group=pkgtest_perf --perf "$f" &&
		inroot setcap --perf-group=pkgtest_perf --perf "$f" >"$T/hint.out" 2>&1 &&
		[ "$(inroot stat -c '%U:%G %a' "$f")" = "root:pkgtest_perf 750" ] && pass ||
		{ fail "setcap after the pasted hints: $(inroot stat -c '%U:%G %a' "$f")"; cat "$T/hint.out"; }
	chmod 0755 "$m$f"
	inroot setcap --perf "$f" >"$T/hint.out" 2>"$T/hint.err"
	if line=$(pasted_line "$T/hint.err" "setcap: WARNING: restrict it to a group instead: "); then
		inroot sh -c "$line" >"$T/hint.log" 2>&1 &&
		[ "$(inroot stat -c '%U:%G %a' "$f")" = "root:perf_users 750" ] && pass ||
			{ fail "the pasted '$line': $(inroot stat -c '%U:%G %a' "$f")"; cat "$T/hint.log"; }
	else
		fail "setcap --perf on a 0755 file printed no command to restrict it"; cat "$T/hint.err"
	fi

	# 4. perf for that member (pam_cap's inheritable grant meets perf's
	# file inheritable bit), not for others; kernel-side cpu-clock needs
	# cap_perfmon at perf_event_paranoid 2.
	if [ -x /usr/bin/perf ]; then
		inroot setcap cap_perfmon=ei /usr/bin/perf && pass || fail "setcap on perf fails"
		# perfdoctor agrees with capcheck and the login: yes.
		inroot perfdoctor --user=debpkgtest --service=login /usr/bin/perf >"$T/pd.out" 2>&1
		grep -q '^verdict: *YES' "$T/pd.out" && pass ||
			{ fail "perfdoctor disagrees about the documented grant"; cat "$T/pd.out"; }
		printf '#!/bin/sh\nexec perf stat -e instructions -e cpu-clock:k true\n' >"$m/tmp/perfrun"
		chmod 0755 "$m/tmp/perfrun"
		chroot "$m" "$BIN/pamcase" -s login -u debpkgtest -x /tmp/perfrun auth setcred \
			>"$T/perf.out" 2>&1 && pass || { fail "perf stat as a perf_users member fails"; cat "$T/perf.out"; }
		if [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -ge 2 ] &&
		   chroot --userspec=nobody:nogroup "$m" /usr/bin/perf stat -e cpu-clock:k true >/dev/null 2>&1; then
			fail "perf's kernel events work for nobody too: the check above proves nothing"
		else
			pass
		fi
	else
		not_checked "perf is not installed; perf stat not checked"
	fi

	# 4b. The guide (docs/perf-without-root.md), every step run, with the
	# programs and pam_cap.so our packages installed (root/docs_guide_perf.sh).
	if chroot "$m" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		TOP="$TOP" BUILD="$BUILD" BIN="$BIN" TESTS_DIR="$TESTS_DIR" GUIDE_PROGS=/sbin \
		GUIDE_PAM_CAP="/lib/$ma/security/pam_cap.so" \
		sh "$TESTS_DIR/root/docs_guide_perf.sh" >"$T/guide.log" 2>&1; then
		pass
		tail -n 1 "$T/guide.log"
	else
		fail "the guide fails with the installed packages"; tail -n 20 "$T/guide.log"
	fi

	# 4c. The installed manual names the installed files: every program,
	# module and configuration file in a FILES section is there.
	named=0 missing=0
	for page in $(inroot dpkg -L libcap2-bin libpam-cap | grep '^/usr/share/man/.*\.gz$'); do
		for f in $(zcat "$m$page" | sed -n '/^\.SH FILES/,/^\.SH [^F]/p' |
			   grep -o '/[A-Za-z0-9_./-]*' | grep -E '^/(s?bin|lib|usr|etc/security)/.*[^/]$'); do
			named=$((named + 1))
			[ -e "$m$f" ] && pass || { missing=$((missing + 1))
				fail "$page names $f, which the packages did not install"; }
		done
	done
	if [ "$named" -lt 6 ]; then
		fail "the installed manual's FILES sections name only $named files"
	elif [ "$missing" -eq 0 ]; then
		echo "manual: $named files named in FILES sections, all installed"
	fi

	# 4d. The additions the packages carry run as installed: capaudit
	# (root: it mounts tracefs in a namespace of its own) sees the chown
	# it was given and suggests that one capability; getpcaps --all ends
	# with its summary. capaudit counts in the kernel (its eBPF programs
	# are built with the package, by Build-Depends' tool chain) and
	# libcap2-bin gains no run-time dependency for it (no libbpf: the
	# programs load through a light skeleton, bpf(2) alone).
	inroot capaudit --version >"$T/version.out" 2>&1
	grep -qx 'counting in the kernel: built in' "$T/version.out" && pass ||
		fail "the packaged capaudit does not count in the kernel: $(cat "$T/version.out")"
	deps=$(dpkg-deb -f "$T"/libcap2-bin_2.76*.deb Depends)
	case $deps in
	*bpf* | *elf* | *libz*) fail "libcap2-bin depends on $deps" ;;
	*) pass ;;
	esac
	inroot ldd /sbin/capaudit | grep -q 'libbpf' && fail "the packaged capaudit loads libbpf" || pass
	if [ -e "$m/sys/kernel/tracing/events" ] || [ -d "$m/sys/kernel/tracing" ]; then
		inroot sh -c ': >/tmp/owned' &&
		inroot capaudit --suggest -- chown 65534 /tmp/owned >"$T/capaudit.out" 2>&1
		rc=$?
		if grep -q 'no capability:cap_capable tracepoint\|tracefs is not mounted' "$T/capaudit.out"; then
			not_checked "no capability tracepoint here; installed capaudit only --version"
			inroot capaudit --version | grep -q '^capaudit (libcap-perfmon) ' && pass ||
				fail "installed capaudit --version"
		elif [ $rc -ne 0 ] || ! grep -q '^cap_chown ' "$T/capaudit.out" ||
		     ! grep -q '^setcap cap_chown=ep /usr/bin/chown$' "$T/capaudit.out"; then
			fail "installed capaudit (exit $rc)"; cat "$T/capaudit.out"
		else
			pass
		fi
	else
		not_checked "installed capaudit: no /sys/kernel/tracing here"
	fi
	inroot getpcaps --all >"$T/all.out" 2>&1
	rc=$?
	[ $rc -le 1 ] && tail -n 1 "$T/all.out" | grep -q '^summary: [0-9]* processes examined' && pass ||
		{ fail "installed getpcaps --all (exit $rc)"; tail -n 3 "$T/all.out"; }

	# 5. The trigger: a registered file replaced by dpkg (a stand-in
	# package, versions 1 and 2, each unpacking a new copy of other
	# content) gets its capability back only when owner, group and mode
	# are the recorded ones, which dpkg-statoverride makes them; its new
	# content is accepted, as dpkg (root) put it in root's /usr/bin.
	probe=/usr/bin/capmanifest-probe
	for v in 1 2; do
		mkdir -p "$T/probe$v/DEBIAN" "$T/probe$v/usr/bin"
		cp /bin/true "$T/probe$v$probe" && printf 'version %s\n' "$v" >>"$T/probe$v$probe"
		printf 'Package: capmanifest-probe\nVersion: %s\nArchitecture: all\nMaintainer: test <test@localhost>\nDescription: stand-in for linux-perf\n' \
			"$v" >"$T/probe$v/DEBIAN/control"
		dpkg-deb -b --root-owner-group "$T/probe$v" "$T/probe$v.deb" >/dev/null
	done
	inroot dpkg -i "$T/probe1.deb" >/dev/null
	# Registered with deployment.md's three commands, the probe for perf.
	doc_block keep | sed "s|/usr/bin/perf|$probe|g" >"$m/tmp/keep.sh"
	grep -q "^capmanifest add /etc/capmanifest.d/local.manifest $probe\$" "$m/tmp/keep.sh" && pass ||
		{ fail "deployment.md's keep block has no 'capmanifest add'"; cat "$m/tmp/keep.sh"; }
	inroot sh -e /tmp/keep.sh >"$T/add.log" 2>&1 && pass ||
		{ fail "deployment.md's keep block fails"; cat "$T/add.log"; }
	manifest=$m/etc/capmanifest.d/local.manifest
	granted=$(inroot getcap "$probe")
	case $granted in
	"$probe cap_syslog,cap_perfmon=ep"|"$probe cap_perfmon=ep") ;;
	*) fail "the keep block left $probe with '$granted'" ;;
	esac
	grep -q "^.$probe owner=0 group=[0-9]* mode=0750 acl=no sha256=[0-9a-f]\{64\} ${granted#"$probe "}\$" "$manifest" && pass ||
		{ fail "the registered manifest is not as expected"; cat "$manifest"; }
	# An upgrade: new content, unpacked root:root 0755, made root:perf_users
	# 0750 by the statoverride; the trigger accepts it and restores.
	inroot dpkg -i "$T/probe2.deb" >"$T/trig.log" 2>&1
	[ "$(inroot getcap "$probe")" = "$granted" ] && pass ||
		{ fail "the trigger did not restore the upgraded $probe: $(inroot getcap "$probe")"; cat "$T/trig.log"; }
	grep -q "^accepted: .$probe has sha256=" "$T/trig.log" && pass ||
		{ fail "the trigger did not say it accepted the new content"; cat "$T/trig.log"; }
	# A manifest someone besides root could have written grants nothing:
	# group-writable, the next upgrade of the file leaves it bare.
	chmod 0664 "$manifest"
	inroot dpkg -i "$T/probe1.deb" >"$T/trig.log" 2>&1
	[ -z "$(inroot getcap "$probe")" ] && pass ||
		fail "the trigger trusted a group-writable manifest: $(inroot getcap "$probe")"
	grep -q 'local.manifest: ignored: ' "$T/trig.log" && pass ||
		{ fail "the trigger did not say why it ignored the manifest"; cat "$T/trig.log"; }
	chmod 0644 "$manifest"
	# Without the statoverride, the upgraded file is root:root 0755: the
	# trigger refuses it rather than open it to every user, and says so.
	inroot dpkg-statoverride --remove "$probe" && pass || fail "dpkg-statoverride --remove fails"
	inroot dpkg -i "$T/probe2.deb" >"$T/trig.log" 2>&1
	[ -z "$(inroot getcap "$probe")" ] && pass ||
		fail "the trigger gave a root:root 0755 $probe its capability: $(inroot getcap "$probe")"
	grep -q 'not restored' "$T/trig.log" && pass ||
		{ fail "the trigger did not say why it refused"; cat "$T/trig.log"; }
	# The repair the trigger printed, pasted as root would: it restores.
	if line=$(pasted_line "$T/trig.log" "capmanifest: to restore them: "); then
		inroot sh -c "$line" >"$T/repair.log" 2>&1 && pass ||
			{ fail "the trigger's printed repair fails: $line"; cat "$T/repair.log"; }
		[ "$(inroot getcap "$probe")" = "$granted" ] &&
		[ "$(stat -c '%U %a' "$m$probe")" = "root 750" ] && pass ||
			{ fail "the trigger's printed repair left $probe $(stat -c '%U:%G %a' "$m$probe") $(inroot getcap "$probe")"; cat "$T/repair.log"; }
	else
		fail "the trigger printed no command to restore the refused file"; cat "$T/trig.log"
	fi
	inroot dpkg-statoverride --add root perf_users 0750 "$probe" && pass ||
		fail "dpkg-statoverride --add fails"

	# 5a. A package's files anywhere, not only in the bin directories: a
	# stand-in with a program under /opt and a helper under /usr/lib,
	# registered, then upgraded: the trigger restores both. add refuses
	# a manifest name the trigger never reads, and warns about a file
	# whose new version the trigger would not take.
	for v in 1 2; do
		mkdir -p "$T/other$v/DEBIAN" "$T/other$v/opt/capmanifest-probe" \
			"$T/other$v/usr/lib/capmanifest-probe"
		for f in opt/capmanifest-probe/tool usr/lib/capmanifest-probe/helper; do
			cp /bin/true "$T/other$v/$f" && printf 'version %s\n' "$v" >>"$T/other$v/$f"
		done
		printf 'Package: capmanifest-probe-other\nVersion: %s\nArchitecture: all\nMaintainer: test <test@localhost>\nDescription: stand-in for programs outside the bin directories\n' \
			"$v" >"$T/other$v/DEBIAN/control"
		dpkg-deb -b --root-owner-group "$T/other$v" "$T/other$v.deb" >/dev/null
	done
	inroot dpkg -i "$T/other1.deb" >"$T/other.log" 2>&1 && pass ||
		{ fail "the stand-in under /opt and /usr/lib does not install"; cat "$T/other.log"; }
	others="/opt/capmanifest-probe/tool /usr/lib/capmanifest-probe/helper"
	for f in $others; do inroot setcap cap_net_raw=ep "$f"; done
	inroot capmanifest add /etc/capmanifest.d/other $others >"$T/add.log" 2>&1
	rc=$?
	[ $rc -eq 1 ] && [ ! -e "$m/etc/capmanifest.d/other" ] &&
		grep -q "^capmanifest: /etc/capmanifest.d/other: refused: .*; name it /etc/capmanifest.d/other.manifest\$" "$T/add.log" && pass ||
		{ fail "add to a manifest the trigger never reads: exit $rc"; cat "$T/add.log"; }
	named=$(sed -n 's/^capmanifest: .*; name it //p' "$T/add.log")
	inroot sh -c 'mkdir /opt/capmanifest-user /srv/capmanifest-probe &&
		chown nobody /opt/capmanifest-user &&
		cp /bin/true /opt/capmanifest-user/tool && cp /bin/true /srv/capmanifest-probe/tool &&
		setcap cap_net_raw=ep /opt/capmanifest-user/tool cap_net_raw=ep /srv/capmanifest-probe/tool' && pass ||
		fail "cannot make the tools add warns about"
	# Under the name it gave, with two files the trigger will not mend.
	inroot capmanifest add "$named" $others /opt/capmanifest-user/tool /srv/capmanifest-probe/tool \
		>"$T/add.log" 2>&1 && pass || { fail "add of files in /opt, /usr/lib and /srv"; cat "$T/add.log"; }
	[ "$(grep -c '^capmanifest: warning: ' "$T/add.log")" = 2 ] &&
		grep -q "^capmanifest: warning: ./opt/capmanifest-user/tool: directory ./opt/capmanifest-user: uid [0-9]* owns it: after an upgrade replaces it, the package trigger will not take its new content" "$T/add.log" &&
		grep -q "^capmanifest: warning: ./srv/capmanifest-probe/tool: the package trigger runs when a package installs a file below /usr, .* only" "$T/add.log" && pass ||
		{ fail "add's warnings about what the trigger will not do"; cat "$T/add.log"; }
	inroot dpkg -i "$T/other2.deb" >"$T/trig.log" 2>&1
	for f in $others; do
		[ "$(inroot getcap "$f")" = "$f cap_net_raw=ep" ] &&
			grep -q "^accepted: .$f " "$T/trig.log" && pass ||
			{ fail "the trigger did not restore $f after its package's upgrade"; cat "$T/trig.log"; }
	done
	if [ -n "$ping" ]; then
		[ "$(inroot getcap /usr/bin/ping)" = "/usr/bin/ping cap_net_raw=ep" ] && pass ||
			fail "the trigger touched ping, which no manifest lists"
	fi

	# Debian's .debs wait in apt's cache for 5b and 6: no download.
	have=0
	for p in libcap2 libcap2-bin libpam-cap libcap-dev; do
		f=$(ls "$T/${p}_$(echo "$rbver" | sed 's/:/%3a/')_"*.deb 2>/dev/null)
		[ -n "$f" ] && cp "$f" "$m/var/cache/apt/archives/" && have=$((have + 1))
	done
	if [ -z "$rbver" ] || [ "$have" -ne 4 ]; then
		not_checked "Debian's packages ('$rbver') are not at hand; a partial downgrade and going back not checked"
		finish
	fi

	# 5b. Debian's libcap2 alone. Our libcap2-bin and libpam-cap say they
	# need our libcap2 exactly, so apt does not leave them beside
	# Debian's (it removes or replaces them)...
	inroot apt-get install -s -q --no-download --allow-downgrades \
		"libcap2=$rbver" >"$T/partial.log" 2>&1
	for p in libcap2-bin libpam-cap; do
		if grep -q "^Inst libcap2 .*($rbver " "$T/partial.log" &&
		   ! grep -q "^\(Remv\|Inst\) $p " "$T/partial.log"; then
			fail "apt keeps our $p beside Debian's libcap2"; grep '^\(Inst\|Remv\)' "$T/partial.log"
		else
			pass
		fi
	done
	echo "apt-get install libcap2=$rbver alone:" $(sed -n 's/^\(Inst\|Remv\) \([^ ]*\) .*/\1 \2;/p' "$T/partial.log")
	# ...and their programs work with it all the same, should someone
	# force it: setcap --perf and the trigger's restore, whose O_PATH
	# descriptors every libcap but ours refuses in cap_set_fd().
	inroot dpkg -i --force-depends "/var/cache/apt/archives/libcap2_$(echo "$rbver" | sed 's/:/%3a/')_"*.deb \
		>"$T/forced.log" 2>&1 && pass || { fail "dpkg --force-depends of Debian's libcap2"; tail -5 "$T/forced.log"; }
	[ "$(readlink -f "$m/lib/$ma/libcap.so.2")" != "$m/usr/lib/$ma/libcap.so.2.76" ] && pass ||
		fail "libcap.so.2 is still ours after installing Debian's libcap2"
	inroot setcap --perf-group=perf_users --perf "$probe" >"$T/forced.out" 2>&1 && pass ||
		{ fail "setcap --perf with Debian's libcap2"; cat "$T/forced.out"; }
	inroot setcap -r "$probe"
	# The trigger, after an upgrade (probe 1 again, its recorded content):
	# dpkg leaves it pending while a dependency of libcap2-bin is broken,
	# so its postinst runs it here as dpkg would.
	inroot dpkg -i "$T/probe1.deb" >"$T/trig.log" 2>&1
	inroot /var/lib/dpkg/info/libcap2-bin.postinst triggered /usr/bin >>"$T/trig.log" 2>&1
	[ "$(inroot getcap "$probe")" = "$granted" ] &&
		grep -q "^set: .$probe " "$T/trig.log" && pass ||
		{ fail "the trigger with Debian's libcap2: $(inroot getcap "$probe")"; cat "$T/trig.log"; }
	inroot dpkg -i $(ls "$T"/libcap2_2.76*.deb) >"$T/forced.log" 2>&1 && pass ||
		{ fail "our libcap2 does not go back in"; tail -5 "$T/forced.log"; }
	inroot apt-get check -q >/dev/null && pass || fail "after 5b: apt-get check finds broken dependencies"

	# 6. Debian's packages back, with deployment.md's commands, run by apt
	# without a terminal, capability.conf edited (3. above). Without the
	# --force-confold they document, dpkg stops at its conffile question
	# and leaves libpam-cap half-installed; the documented command then
	# finishes the job.
	before=$fails
	doc_block rollback >"$m/tmp/rollback.sh"
	sed 's/ -o Dpkg::Options::=--force-confold//' "$m/tmp/rollback.sh" >"$m/tmp/rollback-bare.sh"
	cmp -s "$m/tmp/rollback.sh" "$m/tmp/rollback-bare.sh" &&
		fail "deployment.md's rollback block no longer says -o Dpkg::Options::=--force-confold" || pass
	inroot sh -e /tmp/rollback-bare.sh </dev/null >"$T/rb1.log" 2>&1
	rc=$?
	status=$(inroot dpkg-query -W -f='${db:Status-Abbrev}' libpam-cap)
	[ "$rc" -eq 100 ] && [ "$status" = "iU " ] && pass ||
		{ fail "without --force-confold: exit $rc, libpam-cap '$status' (deployment.md: 100, iU)"; tail -n 8 "$T/rb1.log"; }
	inroot sh -e /tmp/rollback.sh </dev/null >"$T/rb2.log" 2>&1 && pass ||
		{ fail "deployment.md's rollback fails without a terminal"; tail -n 20 "$T/rb2.log"; }
	for p in libcap2 libcap2-bin libpam-cap libcap-dev; do
		st=$(inroot dpkg-query -W -f='${db:Status-Abbrev} ${Version}' "$p")
		[ "$st" = "ii  $rbver" ] && pass || fail "$p is '$st' after going back, not 'ii  $rbver'"
	done
	# What deployment.md says stays behind, and what goes.
	[ "$(sed -n 1p "$m$conf")" = "cap_perfmon @perf_users" ] && pass ||
		fail "going back did not keep the edited $conf"
	[ -f "$m/etc/capmanifest.d/local.manifest" ] && pass ||
		fail "going back removed /etc/capmanifest.d/local.manifest"
	grep -q "/etc/capmanifest.d.*not empty" "$T/rb1.log" "$T/rb2.log" && pass ||
		fail "dpkg did not warn about /etc/capmanifest.d (deployment.md says it does)"
	inroot dpkg-statoverride --list "$probe" >/dev/null && pass ||
		fail "going back removed the statoverride of $probe"
	for p in capmanifest perfdoctor capcheck capaudit; do
		[ ! -e "$m/sbin/$p" ] && pass || fail "/sbin/$p is still there after going back"
	done
	grep -q '^auth.*pam_cap\.so' "$m/etc/pam.d/common-auth" && pass ||
		fail "common-auth lost pam_cap going back"
	# Debian's pam_cap reads the kept file: the member's login still gets
	# cap_perfmon.
	login=$(chroot "$m" "$BIN/pamcase" -s login -u debpkgtest auth setcred)
	case $login in
	"auth=SUCCESS setcred=SUCCESS iab=38 "*) ;;
	*) fail "Debian's pam_cap with the kept $conf: $login" ;;
	esac
	[ "$fails" -eq "$before" ] &&
		echo "going back: without --force-confold, exit $rc and libpam-cap '$status'; deployment.md's command: $rbver, the edited capability.conf and /etc/capmanifest.d kept"
	works "with Debian's packages again"
	finish
}
if [ "${1:-}" = --inside ]; then
	shift
	inside "$@"
	exit $?
fi

[ "$(id -u)" -eq 0 ] || skip "needs root (mount namespace, chroot, dpkg)"
for tool in dpkg-buildpackage dh lintian unshare chroot apt-get; do
	command -v "$tool" >/dev/null 2>&1 || {
		skip "$tool not found (apt-get install debhelper dpkg-dev lintian)"; }
done
grep -qw overlay /proc/filesystems || modprobe overlay 2>/dev/null ||
	skip "the kernel has no overlay filesystem"
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
hostlib=/lib/$multiarch/libcap.so.2
[ -e "$hostlib" ] || skip "no system $hostlib to replace"

out=$TOP/build/deb
MAKE_DEB_LINTIAN=later make -s -C "$TOP" deb DEB_OUT="$out" >/dev/null || { fail "make deb"; finish; }
# lintian's verdict on new packages (its own session, ended with the
# suite) is made while the throw-away root runs: it reads build/deb only.
lintian_pid=
if [ ! -f "$out/lintian.txt" ]; then
	setsid sh "$TOP/debian/make-deb.sh" --lintian "$out" >"$T/lintian.log" 2>&1 &
	lintian_pid=$!
	at_exit "kill -TERM -$lintian_pid 2>/dev/null || kill -TERM $lintian_pid 2>/dev/null"
fi

# Debian's packages to go back to: the version deployment.md's rollback
# picks (Debian's newest in the archive apt knows; apt-cache madison only
# reads), from apt's cache, or downloaded (kept in build/deb/debian for the
# next run). The host's own version is checked unchanged at the end.
debver=$(dpkg-query -W -f='${Version}' libcap2)
rbver=$(rollback_version) && pass || fail "deployment.md has no rollback block with a 'v=' line"
deball=$out/debian
mkdir -p "$deball"
for p in libcap2 libcap2-bin libpam-cap libcap-dev iputils-ping; do
	if [ $p = iputils-ping ]; then
		v=$(apt-cache policy iputils-ping | awk '/Candidate:/ {print $2}')
	else
		v=$rbver
	fi
	[ -n "$v" ] || continue
	f=$(echo "${p}_${v}_" | sed 's/:/%3a/')
	ls "$deball/$f"*.deb >/dev/null 2>&1 && continue
	cp /var/cache/apt/archives/"$f"*.deb "$deball/" 2>/dev/null && continue
	(cd "$deball" && apt-get download -q "$p=$v" >/dev/null 2>&1) ||
		echo "note: could not get ${p} $v from apt's cache or mirror"
done

sum_before=$(sha256sum "$hostlib" | cut -d' ' -f1)
cp "$out"/libcap2_*.deb "$out"/libcap2-bin_*.deb "$out"/libpam-cap_*.deb \
	"$out"/libcap-dev_*.deb "$T/" 2>/dev/null
cp "$deball"/*.deb "$T/" 2>/dev/null

# The rest runs again in a private mount namespace (see inside(), above).
LIB_T=$T LIB_COUNTS=$T/inside.counts unshare -m --propagation private \
	sh "$0" --inside "$multiarch" "$rbver" && pass ||
	fail "in the throw-away root (above)"
add_counts "$T/inside.counts"

# lintian: no errors (warnings are listed for the reader).
if [ -n "$lintian_pid" ] && ! wait "$lintian_pid"; then
	fail "make-deb.sh --lintian failed:"; tail -n 5 "$T/lintian.log"
elif [ ! -f "$out/lintian.txt" ]; then
	fail "lintian left no verdict in $out/lintian.txt"
elif grep -q '^E: ' "$out/lintian.txt"; then
	fail "lintian reports errors:"; grep '^E: ' "$out/lintian.txt"
else
	pass
fi
grep '^[WI]: ' "$out/lintian.txt" 2>/dev/null | head -5

sum_after=$(sha256sum "$hostlib" | cut -d' ' -f1)
[ "$sum_before" = "$sum_after" ] && pass || fail "the host's $hostlib changed"
[ "$(dpkg-query -W -f='${Version}' libcap2)" = "$debver" ] && pass ||
	fail "the host's libcap2 package changed"
finish "our packages replaced Debian's in a throw-away root, worked, and gave way to Debian's again; the host is unchanged"
