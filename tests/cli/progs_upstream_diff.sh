#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# Our setcap, getcap, getpcaps and capsh against upstream's, case by case:
# every argument list of tests/tools/opt_corpus.cases (the options corpus)
# and tests/tools/upstream.cases (help, licence, usage errors, unparsable
# text, pipes and files) runs in a fresh copy of one fixture through ours
# and through Debian's builds of libcap 2.75 and 2.78, which bracket the
# 2.76 we replace (tests/tools/libcap_ref.sh fetches and checks them).
# stdout, stderr and the exit status must be libcap 2.76's byte for byte,
# or differ only as a row of docs/differences.md lists it
# (tests/tools/upstream_compare.pl has the rules; a case whose difference
# is whole names its row in a "#@" note). An undocumented difference, a
# row no case shows and a stale note all fail. Skips only when the
# archive cannot be reached (or no longer holds a version on each side of
# 2.76) and nothing is cached.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
# Upstream's programs are not ours to check under valgrind; ours run in
# the plain and sanitizer passes.
[ "${VALGRIND:-0}" = 1 ] && skip "compares outputs only: the plain and sanitizer passes run it"
command -v perl >/dev/null || skip "perl is needed for the comparison"
for p in setcap getcap getpcaps capsh; do
	[ -x "$BUILD/progs/$p" ] || { fail "progs/$p is not built"; finish; }
done

sh "$TESTS_DIR/tools/libcap_ref.sh" >"$T/refs" 2>"$T/refs.err"
rc=$?
[ $rc -eq 77 ] && skip "$(cat "$T/refs.err")"
[ $rc -eq 0 ] || { fail "tests/tools/libcap_ref.sh: $(cat "$T/refs.err")"; finish; }
{ read -r old_dir old_ver && read -r new_dir new_ver; } <"$T/refs"
echo "upstream: libcap $old_ver and $new_ver (Debian's builds)"

mkdir "$T/ours" "$T/ours/bin" "$T/old" "$T/new" || exit 1
for p in setcap getcap getpcaps capsh; do
	ln -s "$BUILD/progs/$p" "$T/ours/bin/$p"
done
ln -s "$old_dir/bin" "$T/old/bin"
ln -s "$new_dir/bin" "$T/new/bin"
root=0
[ "$(id -u)" = 0 ] && root=1

# The fixture every case starts from (opt_corpus.sh's): a tree with and
# without file capabilities, a capability.conf, a script, a PAM directory.
tpl=$T/tpl
mkdir -p "$tpl/tree/sub" "$tpl/tree/d2" "$tpl/pam" || exit 1
: >"$tpl/tree/plain"
: >"$tpl/tree/sub/f"
cp /bin/true "$tpl/tree/t1"
: >"$tpl/tree/d2/g"
printf '#!/bin/sh\necho hi\n' >"$tpl/script.sh"
chmod 755 "$tpl/script.sh"
printf 'cap_net_raw alice\ncap_bogus bob\n!cap_sys_admin carol\nnone *\n' >"$tpl/cap.conf"
printf 'auth optional pam_cap.so\n' >"$tpl/pam/login"
if [ $root = 1 ]; then
	"$BUILD/progs/setcap" cap_net_raw+ep "$tpl/tree/t1" &&
		"$BUILD/progs/setcap" cap_sys_time=p "$tpl/tree/sub/f" ||
		{ fail "cannot set up the fixture's capabilities"; finish; }
fi

# The cases: libcap's four programs only ("#@ ID..." notes kept apart).
: >"$T/list"
n=0
for f in "$TESTS_DIR/tools/opt_corpus.cases" "$TESTS_DIR/tools/upstream.cases"; do
	while IFS= read -r line; do
		case $line in
		'' | '#'*) continue ;;
		'root '*) [ $root = 1 ] || continue; line=${line#root } ;;
		esac
		prog=$(printf '%s\n' "$line" | grep -o -w -E -m 1 \
			'setcap|getcap|getpcaps|capsh|capmanifest|perfdoctor|capcheck|capaudit' |
			head -n 1)
		case $prog in setcap | getcap | getpcaps | capsh) ;; *) continue ;; esac
		ids=-
		case $line in
		*'#@ '*) ids=$(printf '%s\n' "${line##*#@ }" | tr -s ' ' ','); line=${line%%#@ *} ;;
		esac
		n=$((n + 1))
		printf '%04d\t%s\t%s\t%s\n' $n "$prog" "$ids" "$line" >>"$T/list"
	done <"$f"
done

# run_all IMPL: every case through IMPL/bin first in PATH, stdin
# /dev/null, each in the fixture as it was: a fresh copy (cp -a keeps
# security.capability) after a case that may have changed it (setcap
# writes, a redirection makes a file).
run_all() {
	dir=$T/$1 dirty=1
	while IFS="$(printf '\t')" read -r k prog ids cmd; do
		if [ $dirty = 1 ]; then
			rm -rf "$dir/w"
			cp -a "$tpl" "$dir/w" || return 1
		fi
		case $cmd in *setcap* | *'>'*) dirty=1 ;; *) dirty=0 ;; esac
		(cd "$dir/w" && PATH="$dir/bin:/usr/sbin:/usr/bin:/sbin:/bin" LC_ALL=C \
			timeout 20 sh -c "$cmd" </dev/null >"$dir/$k.out" 2>"$dir/$k.err"
		 echo $? >"$dir/$k.rc")
	done <"$T/list"
}
start=$(date +%s)
# The three builds side by side: each has its own copy of the fixture.
for impl in ours old new; do
	{ run_all $impl; echo $? >"$T/$impl.status"; } &
done
wait
for impl in ours old new; do
	[ "$(cat "$T/$impl.status")" = 0 ] ||
		{ fail "cannot run the cases through $impl"; finish; }
done
echo "$n cases through three builds in $(($(date +%s) - start)) s"

if perl "$TESTS_DIR/tools/upstream_compare.pl" "$TESTS_DIR/tools/upstream.rules" \
	"$TOP/docs/differences.md" "$T/list" "$T/ours" "$T/old" "$T/new"; then
	pass
else
	fail "differences from libcap 2.76 that docs/differences.md does not list (above)"
fi
finish
