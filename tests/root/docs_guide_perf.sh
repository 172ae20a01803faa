#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# Runs docs/perf-without-root.md: every ```sh block, in order, as the user
# its "<!-- test: KIND -->" comment names, and compares the ```text blocks
# marked "output" with what the block printed. The guide drifting from the
# programs, or a block losing its marker, fails the suite.
#
# Kinds: root, member (in perf_users, no capabilities), member-pam (a real
# login of alice through a PAM stack with our pam_cap reading the guide's
# capability.conf, driven by pamcase under pam_wrapper), outsider (not in
# the group); "fails" after a kind means the block must fail. Members and
# outsiders get an ordinary user's PATH (Debian's login.defs ENV_PATH: no
# /usr/sbin), so a command the guide names without its directory must be
# found there. Text blocks:
# "output" (exact) or "output-first-line" (first line only: capsh's
# explanations are our own prose and may be reworded).
#
# Nothing on the machine changes, and nothing on it is read as the
# guide's: the suite runs in lib.sh's private_etc world (a mount namespace
# whose /etc/passwd and /etc/group hold only the base system accounts), so
# a machine already set up for perf, with its own perf_users group and
# alice, runs the guide from the same blank start. /usr/bin/perf and
# /etc/security/ are rewritten to a scratch directory, where
# capability.conf starts as Debian's does, ending with "none *";
# /usr/sbin/<our program> runs the program under test; perf is a copy of
# $BIN/perfprobe. The group and user the guide creates live in private
# passwd/group files read through nss_wrapper (LD_PRELOAD, by absolute path
# so that ld.so silently skips it for the capability-raising exec of perf),
# with ids the private world does not use; groupadd, usermod and sysctl are
# stand-ins that edit those files or only check their argument, never /etc
# or the kernel.
#
# GUIDE_PROGS=/dir runs the guide with the programs in /dir (for instance
# /usr/sbin, libcap's, to check the guide itself); default $BUILD/progs.
# GUIDE_PAM_CAP=/path/pam_cap.so logs in through that module (default the
# build's); root/deb_packages.sh sets both to what our packages installed.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
bin=$BIN
guide=$TOP/docs/perf-without-root.md
progs=${GUIDE_PROGS:-$BUILD/progs}
pam_cap=${GUIDE_PAM_CAP:-$BUILD/pam_cap/pam_cap.so}

[ "$(id -u)" -eq 0 ] || skip "needs root (file capabilities, setpriv)"
private_etc "$@"
[ -f "$guide" ] || { fail "no $guide"; finish; }
for p in setcap getcap getpcaps capsh; do
	[ -x "$progs/$p" ] || skip "$progs/$p is not built yet"
done
capcheck=$progs/capcheck
[ -x "$capcheck" ] || skip "$capcheck (pam_cap's configuration checker) is not built yet"
[ -x "$bin/perfprobe" ] || skip "$bin/perfprobe is not built (make -C tests all)"
nsswrap=$(cwrap_lib libnss_wrapper.so) ||
	skip "cwrap's nss_wrapper (libnss-wrapper) is not installed"
pamwrap=$(cwrap_lib libpam_wrapper.so) ||
	skip "cwrap's pam_wrapper (libpam-wrapper) is not installed"
[ -f "$pam_cap" ] || skip "$pam_cap is not built yet"
[ -x "$bin/pamcase" ] || skip "$bin/pamcase is not built (make -C tests all)"
command -v setpriv >/dev/null || skip "setpriv (util-linux) is not installed"
last=$(cat /proc/sys/kernel/cap_last_cap)
[ "$last" -ge 38 ] || skip "kernel has no CAP_PERFMON (cap_last_cap=$last)"
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)
[ "$paranoid" -ge 1 ] ||
	skip "perf_event_paranoid=$paranoid lets anyone open CPU-wide events"

# Physical path: readlink -f in the guide must print what we map back.
work=$(cd "$T" && pwd -P) || exit 1
chmod 755 "$work"	# the member and outsider must reach perf
mkdir -p "$work/usr/bin" "$work/etc/security" "$work/bin" "$work/shims" \
	"$work/steps" "$work/pam.d"
# capability.conf as Debian ships it: comments, then "none *" last.
cat >"$work/etc/security/capability.conf" <<'CONF'
# /etc/security/capability.conf (a stand-in for Debian's: its active
# line is the last one, and the first line naming a user wins)
#cap_setfcap	someuser

## nobody else gets inheritable capabilities
none  *
CONF
chmod 0644 "$work/etc/security/capability.conf"
# A login service with our pam_cap after the password check. ("other" as Debian has it, so libpam finds a default.)
printf 'auth required pam_permit.so\nauth optional %s config=%s\n' \
	"$pam_cap" "$work/etc/security/capability.conf" \
	>"$work/pam.d/guide-login"
echo 'auth required pam_deny.so' >"$work/pam.d/other"
cp "$bin/perfprobe" "$work/usr/bin/perf"
chmod 0755 "$work/usr/bin/perf"
for p in setcap getcap getpcaps capsh; do
	ln -s "$progs/$p" "$work/bin/$p"
done
ln -s "$capcheck" "$work/bin/capcheck"

# The guide's start: the base system accounts and alice, not yet in any
# group of the guide's. Ids 4700 are free in the private world.
uid=4700 gid=4700
cat >"$work/passwd" <<EOF
root:x:0:0:root:/root:/bin/sh
nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin
alice:x:$uid:65534:guide test user:/nonexistent:/bin/sh
EOF
cat >"$work/group" <<'EOF'
root:x:0:
nogroup:x:65534:
EOF
chmod 644 "$work/passwd" "$work/group"

# Stand-ins for the commands that would change the machine; they find the
# private files through GUIDE_WORK and GUIDE_GID.
export GUIDE_WORK="$work" GUIDE_GID="$gid"
cat >"$work/shims/groupadd" <<'EOF'
#!/bin/sh
# groupadd [--system] NAME, into the private group file only.
[ "$1" = --system ] && shift
[ $# -eq 1 ] || { echo "groupadd stand-in: unexpected arguments: $*" >&2; exit 2; }
if grep -q "^$1:" "$GUIDE_WORK/group"; then
	echo "groupadd: group '$1' already exists" >&2; exit 9
fi
echo "$1:x:$GUIDE_GID:" >>"$GUIDE_WORK/group"
EOF
cat >"$work/shims/usermod" <<'EOF'
#!/bin/sh
# usermod --append --groups GROUP USER (or -aG GROUP USER), on the private
# group file only.
if [ "$1" = --append ] && [ "$2" = --groups ]; then
	shift 2
elif [ "$1" = -aG ]; then
	shift
else
	echo "usermod stand-in: unexpected arguments: $*" >&2; exit 2
fi
[ $# -eq 2 ] || { echo "usermod stand-in: want GROUP USER" >&2; exit 2; }
grep -q "^$2:" "$GUIDE_WORK/passwd" ||
	{ echo "usermod: user '$2' does not exist" >&2; exit 6; }
line=$(grep "^$1:" "$GUIDE_WORK/group") ||
	{ echo "usermod: group '$1' does not exist" >&2; exit 6; }
case $line in
*:) new="$line$2" ;;
*) new="$line,$2" ;;
esac
grep -v "^$1:" "$GUIDE_WORK/group" >"$GUIDE_WORK/group.new"
echo "$new" >>"$GUIDE_WORK/group.new"
mv "$GUIDE_WORK/group.new" "$GUIDE_WORK/group"
EOF
cat >"$work/shims/sysctl" <<'EOF'
#!/bin/sh
# sysctl -w KEY=VALUE: check that the setting exists; change nothing.
if [ "$1" != -w ] || [ $# -ne 2 ]; then
	echo "sysctl stand-in: want -w key=value" >&2; exit 2
fi
key=${2%%=*}
if [ ! -f "/proc/sys/$(echo "$key" | tr . /)" ]; then
	echo "sysctl: cannot stat /proc/sys/$key" >&2; exit 255
fi
echo "$key = ${2#*=}"
EOF
chmod 755 "$work/shims/"*

export NSS_WRAPPER_PASSWD="$work/passwd" NSS_WRAPPER_GROUP="$work/group"
export LD_PRELOAD="$nsswrap"
# Sanitizer builds of our programs must accept the preloaded library.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
export PATH="$work/shims:$work/bin:$work/usr/bin:/usr/sbin:/usr/bin:/sbin:/bin"

# Split the guide into steps: NNN.sh (the block), NNN.kind, and NNN.out
# (expected output) plus NNN.cmp (how to compare). Fences and markers may
# be indented (inside list items); the fence's indentation is removed.
awk -v dir="$work/steps" '
	function fail(msg) { print "FAIL: guide line " NR ": " msg; bad = 1 }
	/^[ \t]*<!-- test: .* -->[ \t]*$/ {
		kind = $0
		sub(/^[ \t]*<!-- test: /, "", kind); sub(/ -->[ \t]*$/, "", kind)
		marked = NR; next
	}
	!inblock && /^[ \t]*```/ {
		indent = $0; sub(/```.*/, "", indent)
		lang = $0; sub(/^[ \t]*```/, "", lang)
		inblock = 1; text = ""
		if (lang == "sh") {
			if (marked != NR - 1) fail("sh block without a test marker")
			else if (kind !~ /^(root|member|member-pam|outsider)( fails)?$/)
				fail("unknown kind \"" kind "\" for a sh block")
			n++; file = sprintf("%s/%03d", dir, n)
			print kind > (file ".kind"); close(file ".kind")
			target = file ".sh"
		} else if (marked == NR - 1 && kind ~ /^output/) {
			if (n == 0 || lastout == n)
				fail("output block not after a sh block")
			lastout = n
			file = sprintf("%s/%03d", dir, n)
			print kind > (file ".cmp"); close(file ".cmp")
			target = file ".out"
		} else {
			if (marked == NR - 1) fail("marker \"" kind "\" on a " lang " block")
			target = ""
		}
		next
	}
	inblock && /^[ \t]*```[ \t]*$/ {
		inblock = 0
		if (target != "") { printf "%s", text > target; close(target) }
		next
	}
	inblock {
		line = $0
		if (indent != "" && index(line, indent) == 1)
			line = substr(line, length(indent) + 1)
		text = text line "\n"
	}
	END { if (inblock) fail("unterminated block"); exit bad }
' "$guide" || exit 1

nsteps=$(ls "$work/steps"/*.sh 2>/dev/null | wc -l)
[ "$nsteps" -gt 0 ] || { fail "no sh blocks in the guide"; finish; }

# Guide paths to scratch paths, and back for the output.
# A command "perf" names the scratch perf too: found by PATH, an outsider
# whom the scratch copy refuses (EACCES) would have the shell go on down
# PATH to the host's /usr/bin/perf, which on a host set up for perf
# carries capabilities itself, and the outsider step would prove nothing.
to_work() {
	sed -e "s|/usr/bin/perf|$work/usr/bin/perf|g" \
		-e "s|^perf |$work/usr/bin/perf |" \
		-e "s|/usr/sbin/\(setcap\|getcap\|getpcaps\|capsh\|capcheck\)\\b|$work/bin/\\1|g" \
		-e "s|/etc/security/|$work/etc/security/|g" "$1"
}
# An ordinary user's PATH on Debian (login.defs ENV_PATH), perf first.
user_path="$work/usr/bin:/usr/local/bin:/usr/bin:/bin:/usr/local/games:/usr/games"
from_work() { sed -e "s|$work||g" -e 's/^[0-9][0-9]*:/4242:/'; }

checked=0
for step in "$work/steps"/*.sh; do
	n=${step%.sh}
	kind=$(cat "$n.kind")
	script=$(to_work "$step")
	cd "$work" || exit 1
	case $kind in
	root*)
		sh -ec "$script" >"$n.got" 2>&1 ;;
	member*)
		if [ "${kind%% *}" = member-pam ]; then
			# A real login: pam_cap reads the guide's capability.conf,
			# pamcase becomes alice and runs the block (with PATH
			# /usr/bin:/bin, a clean environment), its output to a
			# file alice may write.
			: >"$n.got"; chmod 666 "$n.got"
			printf '#!/bin/sh\nexec >>"%s" 2>&1\nPATH=%s\nset -e\n%s\n' \
				"$n.got" "$user_path" "$script" >"$n.login"
			chmod 755 "$n.login"
			env PAM_WRAPPER=1 PAM_WRAPPER_SERVICE_DIR="$work/pam.d" \
				PAM_WRAPPER_DISABLE_DEEPBIND=1 \
				LD_PRELOAD="$pamwrap $nsswrap" "$bin/pamcase" \
				-s guide-login -u alice -x "$n.login" \
				auth setcred become end=silent >"$n.pam" 2>&1
		else
			PATH=$user_path setpriv --reuid=alice --regid=65534 \
				--init-groups -- sh -ec "$script" >"$n.got" 2>&1
		fi ;;
	outsider*)
		PATH=$user_path setpriv --reuid=nobody --regid=65534 \
			--clear-groups -- sh -ec "$script" >"$n.got" 2>&1 ;;
	esac
	rc=$?
	name="step $(basename "$n") ($kind): $(head -n 1 "$step")"
	case $kind in
	*fails)
		if [ $rc -eq 0 ]; then
			fail "$name succeeded but must fail"
			sed 's/^/    /' "$n.got"
		else
			pass
		fi ;;
	*)
		if [ $rc -ne 0 ]; then
			fail "$name exited $rc"
			sed 's/^/    /' "$n.got"
			[ -f "$n.pam" ] && sed 's/^/    pam: /' "$n.pam"
		else
			pass
		fi ;;
	esac
	if [ -f "$n.out" ]; then
		checked=$((checked + 1))
		from_work <"$n.got" >"$n.norm"
		from_work <"$n.out" >"$n.want"
		if [ "$(cat "$n.cmp")" = output-first-line ]; then
			head -n 1 "$n.norm" >"$n.norm1"; mv "$n.norm1" "$n.norm"
			head -n 1 "$n.want" >"$n.want1"; mv "$n.want1" "$n.want"
		fi
		if ! cmp -s "$n.want" "$n.norm"; then
			fail "$name: output differs from the guide (- guide, + got)"
			diff -u "$n.want" "$n.norm" | tail -n +3 | sed 's/^/    /'
		else
			pass
		fi
	else
		pass
	fi
done

# The guide's state really took effect: the final step undid everything.
[ -z "$(getcap "$work/usr/bin/perf")" ] && pass ||
	{ fail "perf still has capabilities after the undo step"; }
grep -q "^perf_users:x:$gid:alice\$" "$work/group" && pass ||
	{ fail "the group step did not add alice to perf_users"; }

finish "guide: $nsteps blocks run, $checked outputs match (programs from $progs, $pam_cap)"
