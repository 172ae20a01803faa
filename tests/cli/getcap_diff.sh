#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# getcap against Debian's libcap 2.66 getcap on trees without file
# capabilities (no privilege needed): options, usage, operands of every
# type, -r/-v naming, symlink loops, odd names, depth 3000, --exclude and
# unreadable directories. stdout and stderr are compared sorted (our -r is
# parallel), exit codes exactly. Capabilities are in root/getcap_caps.sh.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
# Nothing here runs under valgrind: in the valgrind pass it would only
# repeat the plain pass.
[ "${VALGRIND:-0}" = 1 ] && skip "runs none of our code under valgrind (the plain and sanitizer passes run it)"
ours=$BUILD/progs/getcap
[ -x "$ours" ] || { fail "getcap not built"; finish; }
need_reference 2.66
ref=$REF/getcap
command -v perl >/dev/null || skip "perl needed for the deep tree"
chmod 755 "$T"

# run_in_t PROG OUTPREFIX ARGS...: in $T/t, argv[0] "getcap" in messages.
run_in_t() {
	prog=$1 out=$2; shift 2
	(cd "$T/t" && "$prog" "$@" >"$out.o" 2>"$out.e"; echo $? >"$out.rc")
	sed -i "s|$prog|getcap|g" "$out.o" "$out.e"
	# Through the rows of docs/differences.md (tests/tools/rows.pl): -l's
	# second line names our authors, our usage lines and the "getcap:
	# unknown option" line are ours.
	side=ours
	[ "$prog" = "$ref" ] && side=2.66
	perl "$TESTS_DIR/tools/rows.pl" $side getcap out "$out.o" &&
		perl "$TESTS_DIR/tools/rows.pl" $side getcap err "$out.e" && pass ||
		fail "tests/tools/rows.pl $side: failed"
}

# as_libcap (lib.sh) compares through the same rows, sorted: the order
# of a walk is getcap_order.sh's to check.
rows_sorted() {	# FILE ref|ours out|err
	side=ours
	[ "$2" = ref ] && side=2.66
	perl "$TESTS_DIR/tools/rows.pl" $side getcap "$3" "$1" && sort -o "$1" "$1"
}
AS_LIBCAP_NORM=rows_sorted

# usage_case RC ARGS...: libcap's stderr is exactly ours once the rows
# took out our additions (five usage lines on the new options, and after
# them one "getcap: unknown option" line for a --word), stdout and status
# equal.
usage_case() {
	want=$1; shift
	run_in_t "$ref" "$T/r" "$@"; run_in_t "$ours" "$T/u" "$@"
	if ! cmp -s "$T/u.e" "$T/r.e" ||
	   ! cmp -s "$T/r.o" "$T/u.o" || [ "$(cat "$T/u.rc")" != "$want" ] ||
	   ! cmp -s "$T/r.rc" "$T/u.rc"; then
		fail "usage case: getcap $*"; diff "$T/r.e" "$T/u.e"
	else
		pass
	fi
}

mkdir "$T/t" && cd "$T/t" || exit 1
mkdir -p d/e d/empty
touch plain d/f d/e/g
mkfifo fifo
ln -s plain sl; ln -s nowhere dangling; ln -s d sld
ln -s loop1 loop2; ln -s loop2 loop1; ln -s . d/self; ln -s .. d/e/up
nl=$(printf 'new\nline'); bad=$(printf 'bad\377\376utf8')
touch "d/$nl" "d/$bad" "d/ spaced " "d/-dash"

# Options, usage and -l.
usage_case 1
usage_case 0 -h
usage_case 0 -h plain
usage_case 0 -hz
usage_case 1 -zh
usage_case 1 -z plain
usage_case 1 --foo plain
usage_case 1 --
usage_case 1 -r
usage_case 1 -vn
as_libcap getcap -l
as_libcap getcap -lh
as_libcap getcap -v -- d/-dash

# Operands of every kind, with and without -r and -v.
ops="plain d fifo sl dangling sld loop1 nonexist d/e/g d/ d// sld/ sld// plain/ fifo/ sl/ . ./ .//"
for o in "" -v -n -r -rv -rn -rvn -vr; do
	# shellcheck disable=SC2086
	as_libcap getcap $o $ops
	as_libcap getcap $o ""
done
as_libcap getcap -rv "d/$nl" "d/$bad"
as_libcap getcap -rv ../t
cd d || exit 1; as_libcap getcap -rv ..; cd "$T/t" || exit 1
as_libcap getcap -v plain -r d		# GNU getopt: options anywhere
as_libcap getcap -rv -- d

# Depth 3000: nftw walks it but getxattr() on the full path fails with
# ENAMETOOLONG; we open each level relative to its parent and succeed
# (row getcap-deep-paths). Ours as printed, not through rows.pl: the
# row's rule takes the lines past PATH_MAX out of both sides.
mkdir deep
(cd deep && perl -e 'for (1..3000) { mkdir "d" or die; chdir "d" or die }
	open F, ">f" or die') || { fail "cannot build the deep tree"; finish; }
(cd "$T/t" && "$ours" -rv deep >"$T/u.o" 2>"$T/u.e")
dirs=$(grep -c ' (Not a regular file)$' "$T/u.o")
last=$(grep -v ' (Not a regular file)$' "$T/u.o")
want="deep$(perl -e 'print "/d" x 3000')/f"
if [ "$dirs" -ne 3001 ] || [ "$last" != "$want" ] || [ -s "$T/u.e" ]; then
	fail "deep tree: $dirs directory lines, stderr: $(head -c 200 "$T/u.e")"
else
	pass
fi
run_in_t "$ref" "$T/r" -rv deep
grep -q "(File name too long)" "$T/r.e" ||
	echo "note: libcap now reads the deepest file too"
rm -rf deep

# Wide and deep (a binary tree, 1022 directories) under a descriptor limit
# of 12: parents stop holding descriptors and nothing is lost to EMFILE.
perl -e 'sub mk { my ($p, $d) = @_; return unless $d;
	for my $c ("a", "b") { mkdir "$p/$c" or die; open F, ">$p/$c/f" or die;
		close F; mk("$p/$c", $d - 1) } }
	mkdir "bin" or die; mk("bin", 9)' || { fail "cannot build the binary tree"; finish; }
run_in_t "$ref" "$T/r" -rv bin
# (dash keeps its own descriptors at 10 and up: lower the limit in a child)
sh -c 'ulimit -n 12 && exec "$0" -rv bin' "$ours" >"$T/u.o" 2>"$T/u.e"
sort "$T/r.o" >"$T/r.o.s"; sort "$T/u.o" >"$T/u.o.s"
if ! cmp -s "$T/r.o.s" "$T/u.o.s" || [ -s "$T/u.e" ] ||
   [ "$(wc -l <"$T/u.o")" -ne 2045 ]; then
	fail "binary tree under ulimit -n 12: $(wc -l <"$T/u.o") lines"
	head -3 "$T/u.e"; diff "$T/r.o.s" "$T/u.o.s" | head -5
else
	pass
fi
rm -rf bin

# --exclude: the named path (as printed) and everything below it vanish.
run_in_t "$ref" "$T/r" -rv .
run_in_t "$ours" "$T/u" -rv --exclude=./d/e --exclude ./fifo/ .
grep -av -e '^\./d/e[/ ]' -e '^\./d/e$' -e '^\./fifo$' "$T/r.o" | sort >"$T/r.o.s"
sort "$T/u.o" >"$T/u.o.s"
if ! cmp -s "$T/r.o.s" "$T/u.o.s" || grep -aq -e '^\./d/e[/ ]' -e '^\./fifo' "$T/u.o"; then
	fail "--exclude"; diff "$T/r.o.s" "$T/u.o.s" | head
else
	pass
fi
run_in_t "$ours" "$T/u" -rv --exclude=d d
if [ -s "$T/u.o" ]; then
	fail "--exclude of the operand itself"
else
	pass
fi

# Unreadable (700 of another user, or 000 when not root) and unsearchable
# directories: libcap is silent unless -v; ours adds one stderr line each.
mkdir -p locked/in noexec/sub
touch locked/x noexec/z
if [ "$(id -u)" -eq 0 ]; then
	command -v setpriv >/dev/null || skip "setpriv needed as root"
	chmod 700 locked; chmod 744 noexec
	# By number: the host's user database is not the test's.
	as="setpriv --reuid=65534 --regid=65534 --clear-groups"
else
	chmod 000 locked; chmod 644 noexec
	as=
fi
for o in -r -rv; do
	(cd "$T/t" && $as "$ref" $o locked noexec >"$T/r.o" 2>"$T/r.e")
	(cd "$T/t" && $as "$ours" $o locked noexec >"$T/u.o" 2>"$T/u.e")
	sort "$T/r.o" >"$T/r.o.s"; sort "$T/u.o" >"$T/u.o.s"
	if ! cmp -s "$T/r.o.s" "$T/u.o.s" || [ -s "$T/r.e" ] ||
	   ! grep -qx "Failed to read directory 'locked' (Permission denied)" "$T/u.e" ||
	   ! grep -qx "Failed to search directory 'noexec' (Permission denied)" "$T/u.e"; then
		fail "unreadable directories ($o)"; diff "$T/r.o.s" "$T/u.o.s"
		cat "$T/u.e"
	else
		pass
	fi
done
chmod 755 locked noexec

finish "getcap matches libcap 2.66 on every case"
