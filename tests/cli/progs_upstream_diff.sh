#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# Our setcap, getcap, getpcaps and capsh against upstream's, case by case:
# the cases made by rule in tests/tools/upstream_gen.pl (every option,
# every class of bad value, all 64 capability numbers, every revision of
# file capabilities, a tree past PATH_MAX, what nobody may not read,
# unreadable standard input, more than 100 groups), and the hand-written
# ones of tests/tools/opt_corpus.cases (the options corpus) and
# tests/tools/upstream.cases (help, licence, usage errors, pipes and
# files). Each runs in a fresh copy of one fixture through ours and
# through Debian's builds of libcap 2.75 and 2.78, which bracket the 2.76
# we replace (tests/tools/libcap_ref.sh fetches and checks them).
# stdout, stderr and the exit status must be libcap 2.76's byte for byte,
# or differ only as a row of docs/differences.md lists it
# (tests/tools/upstream_compare.pl has the rules; a case whose difference
# is whole names its row in a "#@" note). An undocumented difference, a
# row no case shows and a stale note all fail. Skips only when the
# archive cannot be reached (or no longer holds a version on each side of
# 2.76) and nothing is cached.
#
# Under the sanitizers every case runs through ours alone: the plain pass
# compares the same code, and what this pass looks for is a memory error
# or a leak, which run.sh finds in the sanitizers' logs whatever the
# outputs were. (Upstream's programs twice more would add nothing but
# CPU.)
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
# Upstream's programs are not ours to check under valgrind; ours run in
# the plain and sanitizer passes.
[ "${VALGRIND:-0}" = 1 ] && skip "compares outputs only: the plain and sanitizer passes run it"
command -v perl >/dev/null || skip "perl is needed for the comparison"
for p in setcap getcap getpcaps capsh; do
	[ -x "$BUILD/progs/$p" ] || { fail "progs/$p is not built"; finish; }
done

impls=ours
if ! is_sanitized; then
	sh "$TESTS_DIR/tools/libcap_ref.sh" >"$T/refs" 2>"$T/refs.err"
	rc=$?
	[ $rc -eq 77 ] && skip "$(cat "$T/refs.err")"
	[ $rc -eq 0 ] || { fail "tests/tools/libcap_ref.sh: $(cat "$T/refs.err")"; finish; }
	{ read -r old_dir old_ver && read -r new_dir new_ver; } <"$T/refs"
	echo "upstream: libcap $old_ver and $new_ver (Debian's builds)"
	impls="ours old new"
	mkdir "$T/old" "$T/new" || exit 1
	ln -s "$old_dir/bin" "$T/old/bin"
	ln -s "$new_dir/bin" "$T/new/bin"
fi
mkdir "$T/ours" "$T/ours/bin" || exit 1
for p in setcap getcap getpcaps capsh; do
	ln -s "$BUILD/progs/$p" "$T/ours/bin/$p"
done
root=0
[ "$(id -u)" = 0 ] && root=1

# The fixture every case starts from (opt_corpus.sh's): a tree with and
# without file capabilities, a capability.conf, a script, a PAM
# directory; and s/, where the generated cases' scratch files go.
tpl=$T/tpl
mkdir -p "$tpl/tree/sub" "$tpl/tree/d2" "$tpl/pam" "$tpl/s" || exit 1
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

# The generated cases, and the read-only fixture they name as ../../ro
# (capability-bearing, deep and, to nobody, unreadable files).
perl "$TESTS_DIR/tools/upstream_gen.pl" cases "$TOP" >"$T/gen.cases" ||
	{ fail "tests/tools/upstream_gen.pl cannot make the cases"; finish; }
fixture=$TESTS_DIR/tools/upstream_fixture.pl
perl "$fixture" build "$T/ro" ||
	{ fail "tests/tools/upstream_fixture.pl cannot build the fixture"; finish; }
perl "$fixture" digest "$T/ro" >"$T/ro.before" || exit 1
# nobody's cases reach ../../ro from $T/IMPL/w.
chmod 0711 "$T" || exit 1
for impl in $impls; do
	chmod 0711 "$T/$impl" || exit 1
done

# The cases of libcap's four programs, "#@ ID..." notes kept apart.
runner=$TESTS_DIR/tools/upstream_run.pl
perl "$runner" list $root "$TESTS_DIR/tools/opt_corpus.cases" \
	"$TESTS_DIR/tools/upstream.cases" "clean:$T/gen.cases" >"$T/list" ||
	{ fail "cannot read the cases"; finish; }
n=$(wc -l <"$T/list")

start=$(date +%s)
# The builds side by side: each has its own copy of the fixture.
for impl in $impls; do
	{ perl "$runner" run "$T/list" "$T/$impl/bin" "$tpl" "$T/$impl"
	  echo $? >"$T/$impl.status"; } &
done
wait
for impl in $impls; do
	[ "$(cat "$T/$impl.status")" = 0 ] ||
		{ fail "cannot run the cases through $impl"; finish; }
done
echo "$n cases through $impls in $(($(date +%s) - start)) s"
# The builds run side by side on one ../../ro: a case that changed it
# would make the others' outputs depend on the timing.
perl "$fixture" digest "$T/ro" | cmp -s - "$T/ro.before" && pass ||
	fail "a case changed the shared fixture ../../ro (write to s/ only)"

if is_sanitized; then
	# Every case ran (the runner stops at the first it cannot run);
	# the sanitizers' logs, which run.sh reads, say the rest.
	pass
	finish "$n cases through ours under the sanitizers"
fi

if perl "$TESTS_DIR/tools/upstream_compare.pl" "$TESTS_DIR/tools/upstream.rules" \
	"$TOP/docs/differences.md" "$T/list" "$T/ours" "$T/old" "$T/new"; then
	pass
else
	fail "differences from libcap 2.76 that docs/differences.md does not list (above)"
fi
finish
