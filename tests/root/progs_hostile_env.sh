#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# Hostile environments: no procfs, overlong arguments and paths, binary
# garbage as capability text. Each program must give a clear error and its
# documented exit status, byte for byte as libcap's program does (ours may
# add "setcap: " lines after libcap's), and change nothing: the files'
# security.capability bytes are compared before and after.
#
# Arguments are at most 128 KiB - 1 (the kernel's MAX_ARG_STRLEN refuses a
# longer one at execve, so no program ever sees a 1 MiB argument); 1 MiB
# goes through setcap's stdin instead. Unreadable directories and files
# vanishing mid-walk are getcap's and tested with it.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
P=$BUILD/progs
need_reference 2.66
R=$REF
for t in setcap getpcaps capsh; do
	[ -x "$P/$t" ] || { fail "progs/$t is not built"; finish; }
done
command -v getfattr >/dev/null || skip "getfattr (attr) is not installed"
command -v python3 >/dev/null || skip "python3 is not installed"
cd "$T" || exit 1

xattr_of() { getfattr -h -n security.capability -e hex "$1" 2>/dev/null | sed -n 's/^security.capability=//p'; }

# --- overlong arguments and garbage (no privileges needed for these) ---
big=$(python3 -c "print('x' * 130000)")	# + "--decode=" < 128 KiB
ones=$(python3 -c "print('1' * 130000)")
nines=$(python3 -c "print('9' * (128 * 1024 - 1))")
garbage=$(head -c 4096 /dev/urandom | tr -d '\000\n' | head -c 1000)
for arg in "--caps=$big" "--iab=$big" "--caps=$garbage" "--iab=$garbage"; do
	as_libcap --case="capsh ${arg%%=*}=<$(printf %s "${arg#*=}" | wc -c) bytes>" capsh "$arg"
done
# libcap decodes these as 0 or all ones; we refuse them (a mask read wrong
# shows another set) with one line, the value escaped (capsh(1)
# DIFFERENCES).
for arg in "--decode=$big" "--decode=$ones" "--decode=$garbage"; do
	run_ours "$P/capsh" "$arg" >ours.out 2>ours.err </dev/null; rc=$?
	name="capsh --decode=<$(printf %s "${arg#*=}" | wc -c) bytes>"
	[ $rc = 1 ] && [ ! -s ours.out ] && [ "$(wc -l <ours.err)" = 1 ] &&
		grep -q '^invalid --decode value: ' ours.err &&
		! LC_ALL=C grep -q '[[:cntrl:]]' ours.err && pass ||
		fail "$name: exit $rc, $(wc -c <ours.out) bytes out, $(wc -l <ours.err) lines err"
done
as_libcap --case="capsh --caps=128 KiB" capsh "--caps=$big"
[ "$rc" = 1 ] && pass || fail "capsh --caps=<128 KiB>: exit $rc, not 1"
grep -q "^unable to interpret \[--caps=xxxx" err && pass ||
	fail "capsh --caps=<128 KiB>: no 'unable to interpret' message"
as_libcap --case="capsh --iab=128 KiB" capsh "--iab=$big"
[ "$rc" = 1 ] && pass || fail "capsh --iab=<128 KiB>: exit $rc, not 1"
as_libcap --case="getpcaps <128 KiB pid>" getpcaps "$nines"
[ "$rc" = 1 ] && grep -q "^Cannot parse pid 9999" err && pass ||
	fail "getpcaps <128 KiB pid>: $rc $(head -c 40 err)"
as_libcap --case="getpcaps <garbage pid>" getpcaps "$garbage"
[ "$rc" = 1 ] && pass || fail "getpcaps <garbage>: exit $rc, not 1"

# --- setcap: overlong and garbage text, on a file that has capabilities ---
if [ "$(id -u)" -ne 0 ]; then
	echo "skipped: setcap and procfs cases need root (the rest passed: $fails failures)"
	[ $fails -eq 0 ] && exit 77 || exit 1
fi
cp /bin/true t
$R/setcap cap_net_raw=ep t || { fail "cannot set up the fixture"; finish; }
before=$(xattr_of t)
[ -n "$before" ] || { fail "fixture has no capabilities"; finish; }

# prefix_ok NAME: through the rows of docs/differences.md
# (tests/tools/rows.pl: 2.66's output as 2.76 prints it; ours without
# the lines we add, our usage lines and "setcap: " lines) both setcaps
# print the same; the "setcap: " lines come last and are terminal-safe
# (terminal_safe in lib.sh: the garbage may hold valid UTF-8, shown as it
# is). 2.76's "argument: TEXT" line on stdout is ours too: its bytes are
# compared with upstream's 2.76 in tests/cli/progs_upstream_diff.sh.
prefix_ok() {
	cp ref.out ref.out.76 && cp ref.err ref.err.76 &&
		cp ours.out ours.out.76 && cp ours.err ours.err.76 || exit 1
	perl "$TESTS_DIR/tools/rows.pl" 2.66 setcap out ref.out.76 &&
		perl "$TESTS_DIR/tools/rows.pl" 2.66 setcap err ref.err.76 &&
		perl "$TESTS_DIR/tools/rows.pl" ours setcap out ours.out.76 &&
		perl "$TESTS_DIR/tools/rows.pl" ours setcap err ours.err.76 && pass ||
		fail "$1: tests/tools/rows.pl failed"
	cmp -s ref.err.76 ours.err.76 && pass ||
		fail "$1: stderr without our additions differs from libcap's"
	n=$(grep -Eav '^setcap: ' ours.err | wc -c)
	tail -c +"$((n + 1))" ours.err >extra
	if ! terminal_safe extra || grep -aqv '^setcap: ' extra; then
		fail "$1: our extra lines are not terminal-safe 'setcap: ' lines at the end: $(head -c 200 extra | od -c | head -3)"
	else
		pass
	fi
	cmp -s ref.out.76 ours.out.76 && pass || fail "$1: stdout differs"
	head -c 10 ours.out | grep -q '^argument: ' && pass ||
		fail "$1: stdout does not start with 2.76's 'argument: ' line"
	cmp -s ref.rc ours.rc && pass || fail "$1: exit $(cat ours.rc), libcap $(cat ref.rc)"
	[ "$(xattr_of t)" = "$before" ] && pass || fail "$1: the file's capabilities changed"
}

# run_setcap NAME INPUT ARGS...: both setcaps with stdin from INPUT.
run_setcap() {
	name=$1 input=$2; shift 2
	"$R/setcap" "$@" <"$input" >ref.out 2>ref.err; echo $? >ref.rc
	[ "$(xattr_of t)" = "$before" ] && pass || fail "$name: libcap's setcap changed the file"
	run_ours "$P/setcap" "$@" <"$input" >ours.out 2>ours.err; echo $? >ours.rc
	prefix_ok "$name"
}

python3 -c "import sys; sys.stdout.write('cap_chown,' * 104857 + 'cap_kill=ep')" >mib
python3 -c "import sys; sys.stdout.write('x' * (1 << 20))" >mibx
head -c 65536 /dev/urandom >binary
printf 'cap_chown=p \033[31mcap_\001\377"\\=p' >escapes
: >empty
run_setcap "setcap - <1 MiB list>" mib - t
grep -q "^setcap: capability text on stdin was cut at 2048 bytes" ours.err && pass ||
	fail "setcap - <1 MiB>: no note that stdin was cut"
[ "$(cat ours.rc)" = 1 ] && pass || fail "setcap - <1 MiB>: exit $(cat ours.rc), not 1"
run_setcap "setcap - <1 MiB x>" mibx - t
grep -q '^setcap: bad capability text, clause 1 of 1 "x\{64\}\.\.\.": no operator' ours.err && pass ||
	fail "setcap - <1 MiB x>: explanation not cut at 64 bytes: $(grep -c x ours.err)"
run_setcap "setcap - <binary>" binary - t
run_setcap "setcap <128 KiB arg>" empty "$big" t
run_setcap "setcap <garbage arg>" empty "$garbage" t
# The random garbage sometimes starts with '-' and holds valid UTF-8: the
# same, every run.
run_setcap "setcap <option of bytes and UTF-8>" empty "$(printf -- '-7\276,\353\240\200\033x')" t
grep -qF "setcap: unknown option '-7\276,$(printf '\353\240\200')\033x'" ours.err && pass ||
	fail "setcap <option of bytes and UTF-8>: not escaped as documented: $(tail -n 1 ours.err | od -c | head -2)"
run_setcap "setcap <escapes>" empty "$(cat escapes)" t
grep -qF 'setcap: bad capability text, clause 2 of 2 "\x1b[31mcap_\x01\xff\"\\=p": unknown capability name "\x1b[31mcap_\x01\xff\"\\"' ours.err && pass ||
	fail "setcap <escapes>: not escaped as documented: $(tail -n 1 ours.err)"
# A capability text that parses once cut at 2048 bytes is applied, as by
# libcap; ours says what was lost.
python3 -c "import sys; sys.stdout.write('cap_chown=ep' + ' ' * 2100 + 'cap_kill=ep')" >cut
cp t t2
"$R/setcap" - t2 <cut 2>/dev/null; ref_cut=$(xattr_of t2)
run_ours "$P/setcap" -q - t2 <cut >ours.out 2>ours.err; rc=$?
[ $rc = 0 ] && [ "$(xattr_of t2)" = "$ref_cut" ] && pass ||
	fail "setcap - <cut but valid>: exit $rc, caps $(xattr_of t2) (libcap $ref_cut)"
grep -q "^setcap: capability text on stdin was cut at 2048 bytes" ours.err && pass ||
	fail "setcap - <cut but valid>: no note that stdin was cut"

# --- paths longer than PATH_MAX ---
long=$T/$(python3 -c "print('/'.join(['d' * 200] * 25))")
as_libcap --case="setcap <path > PATH_MAX>" setcap cap_chown=ep "$long"
grep -q "^Failed to set capabilities on file '$T/ddd.*': File name too long\$" err &&
	[ "$rc" = 1 ] && pass || fail "setcap <long path>: $rc $(head -c 80 err)"
# One that exists, below a deep tree, named relative to it.
python3 - <<'EOF' || exit 1
import os
os.mkdir('deep'); os.chdir('deep')
for i in range(25):
    os.mkdir('d' * 200); os.chdir('d' * 200)
open('f', 'w').close()
os.setxattr('f', 'security.capability',
            bytes.fromhex('0100000201000000000000000000000000000000'))
EOF
deep=deep/$(python3 -c "print('/'.join(['d' * 200] * 25))")/f
as_libcap --case="setcap -r <existing path > PATH_MAX>" setcap -r "$deep"
[ "$rc" = 1 ] && grep -q "File name too long\$" err && pass ||
	fail "setcap -r <deep>: $rc $(tail -c 80 err)"
run_ours "$P/capmanifest" record deep >manifest 2>ours.err; rc=$?
[ $rc = 2 ] && pass || fail "capmanifest record <deep>: exit $rc, not 2"
[ "$(cat ours.err)" = "capmanifest: $deep: File name too long" ] && pass ||
	fail "capmanifest record <deep>: $(tail -c 100 ours.err)"
[ -s manifest ] && fail "capmanifest record <deep>: wrote a partial manifest" || pass
python3 - <<'EOF' && pass || fail "the deep file's capabilities changed"
import os
os.chdir('deep')
for i in range(25):
    os.chdir('d' * 200)
assert os.getxattr('f', 'security.capability').hex() == \
    '0100000201000000000000000000000000000000'
EOF
rm -rf deep

# --- no procfs: unshare --mount, an empty tmpfs over /proc ---
if is_sanitized || [ "${VALGRIND:-0}" = 1 ]; then
	not_checked "procfs cases skipped in the sanitizer and valgrind passes (their runtimes need /proc)"
elif ! unshare --mount --propagation private true 2>/dev/null; then
	fail "unshare --mount is not available"
else
	refprobe=$(ref_tool capprobe 2>"$T/why") || { fail "$(cat "$T/why")"; finish; }
	cat >noproc.sh <<'EOF'
mount -t tmpfs none /proc || exit 9
pid=$$
for side in ref ours; do
	dir=$R; probe=$refprobe
	[ $side = ours ] && dir=$P && probe=$BIN/capprobe
	{
		"$dir/getpcaps" $pid 1; echo "rc=$?"
		"$dir/getpcaps" --verbose $pid; echo "rc=$?"
		"$dir/getpcaps" --iab $pid; echo "rc=$?"
		"$dir/capsh" --print; echo "rc=$?"
		"$dir/capsh" --current; echo "rc=$?"
		echo "P $pid" | "$probe"; echo "rc=$?"
	} >"$side.np" 2>&1
done
echo $pid >pid
EOF
	R=$R P=$P BIN=$BIN refprobe=$refprobe unshare --mount --propagation private sh noproc.sh
	rc=$?
	[ $rc = 0 ] && pass || fail "no-procfs script failed: $rc"
	cmp -s ref.np ours.np && pass || { fail "without /proc our programs differ from libcap's"; diff ref.np ours.np | head -20; }
	pid=$(cat pid)
	grep -qx " no IAB value for $pid" ours.np && grep -qx "$pid: \"=.*\"rc=1" ours.np && pass ||
		fail "getpcaps --iab without /proc: $(grep -A1 'IAB value' ours.np)"
	grep -qx "ERR 2" ours.np && pass || fail "cap_iab_get_pid without /proc: not ENOENT"
	grep -q "^Current IAB: " ours.np && pass || fail "capsh without /proc: no IAB line"
	[ -d /proc/self ] && pass || fail "procfs is gone outside the namespace"
fi

finish "hostile environments: all cases as libcap, nothing changed"
