#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# getcap against the system's libcap 2.66 getcap on trees without file
# capabilities (no privilege needed): options, usage, operands of every
# type, -r/-v naming, symlink loops, odd names, depth 3000, --exclude and
# unreadable directories. stdout and stderr are compared sorted (our -r is
# parallel), exit codes exactly. Capabilities are in root/getcap_caps.sh.
set -u
# Nothing here runs under valgrind: in the valgrind pass it would only
# repeat the plain pass.
[ "${VALGRIND:-0}" = 1 ] && { echo "skipped: runs none of our code under valgrind (the plain and sanitizer passes run it)"; exit 77; }
ours=$BUILD/progs/getcap ref=/usr/sbin/getcap
[ -x "$ours" ] || { echo "getcap not built"; exit 1; }
[ -x "$ref" ] || { echo "skipped: no reference $ref (libcap2-bin)"; exit 77; }
command -v perl >/dev/null || { echo "skipped: perl needed for the deep tree"; exit 77; }
tmp=$(mktemp -d); trap 'chmod -R u+rwx "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
fails=0

# run PROG OUTPREFIX ARGS...: in $tmp/t, argv[0] "getcap" in messages.
run() {
	prog=$1 out=$2; shift 2
	(cd "$tmp/t" && "$prog" "$@" >"$out.o" 2>"$out.e"; echo $? >"$out.rc")
	sed -i "s|$prog|getcap|g" "$out.o" "$out.e"
	# -l: our second line names our authors, not libcap's.
	sed -i 's/^Copyright (c) 1997,2007,2021 Andrew G. Morgan <morgan@kernel.org>$/Copyright (c) 2026 the libcap-perfmon authors (an independent reimplementation of libcap'"'"'s getcap)/' "$out.o"
}

# same ARGS...: identical sorted stdout, sorted stderr and exit status.
same() {
	run "$ref" "$tmp/r" "$@"; run "$ours" "$tmp/u" "$@"
	for s in o e; do
		sort "$tmp/r.$s" >"$tmp/r.$s.s"; sort "$tmp/u.$s" >"$tmp/u.$s.s"
		if ! cmp -s "$tmp/r.$s.s" "$tmp/u.$s.s"; then
			echo "FAIL getcap $* (std$( [ $s = o ] && echo out || echo err)):"
			diff "$tmp/r.$s.s" "$tmp/u.$s.s" | head -10
			fails=$((fails + 1))
		fi
	done
	if ! cmp -s "$tmp/r.rc" "$tmp/u.rc"; then
		echo "FAIL getcap $*: exit $(cat "$tmp/r.rc") vs ours $(cat "$tmp/u.rc")"
		fails=$((fails + 1))
	fi
}

# usage_case RC ARGS...: libcap's stderr is exactly our stderr's first
# lines (ours adds five lines on the new options, and after them one
# "getcap: unknown option" line for a --word), stdout and status equal.
usage_case() {
	want=$1; shift
	run "$ref" "$tmp/r" "$@"; run "$ours" "$tmp/u" "$@"
	n=$(wc -l <"$tmp/r.e")
	extra=5
	case " $* " in *" --"[!\ ]*) extra=6 ;; esac
	if ! head -n "$n" "$tmp/u.e" | cmp -s - "$tmp/r.e" ||
	   [ "$(wc -l <"$tmp/u.e")" -ne $((n + extra)) ] ||
	   ! cmp -s "$tmp/r.o" "$tmp/u.o" || [ "$(cat "$tmp/u.rc")" != "$want" ] ||
	   ! cmp -s "$tmp/r.rc" "$tmp/u.rc"; then
		echo "FAIL usage case: getcap $*"; diff "$tmp/r.e" "$tmp/u.e"
		fails=$((fails + 1))
	fi
}

mkdir "$tmp/t" && cd "$tmp/t" || exit 1
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
same -l
same -lh
same -v -- d/-dash

# Operands of every kind, with and without -r and -v.
ops="plain d fifo sl dangling sld loop1 nonexist d/e/g d/ d// sld/ sld// plain/ fifo/ sl/ . ./ .//"
for o in "" -v -n -r -rv -rn -rvn -vr; do
	# shellcheck disable=SC2086
	same $o $ops
	same $o ""
done
same -rv "d/$nl" "d/$bad"
same -rv ../t
(cd d && same -rv .. )
same -v plain -r d		# GNU getopt: options anywhere
same -rv -- d

# Depth 3000: nftw walks it but getxattr() on the full path fails with
# ENAMETOOLONG; we open each level relative to its parent and succeed.
mkdir deep
(cd deep && perl -e 'for (1..3000) { mkdir "d" or die; chdir "d" or die }
	open F, ">f" or die') || { echo "cannot build the deep tree"; exit 1; }
run "$ours" "$tmp/u" -rv deep
dirs=$(grep -c ' (Not a regular file)$' "$tmp/u.o")
last=$(grep -v ' (Not a regular file)$' "$tmp/u.o")
want="deep$(perl -e 'print "/d" x 3000')/f"
if [ "$dirs" -ne 3001 ] || [ "$last" != "$want" ] || [ -s "$tmp/u.e" ]; then
	echo "FAIL deep tree: $dirs directory lines, stderr: $(head -c 200 "$tmp/u.e")"
	fails=$((fails + 1))
fi
run "$ref" "$tmp/r" -rv deep
grep -q "(File name too long)" "$tmp/r.e" ||
	echo "note: libcap now reads the deepest file too"
rm -rf deep

# Wide and deep (a binary tree, 1022 directories) under a descriptor limit
# of 12: parents stop holding descriptors and nothing is lost to EMFILE.
perl -e 'sub mk { my ($p, $d) = @_; return unless $d;
	for my $c ("a", "b") { mkdir "$p/$c" or die; open F, ">$p/$c/f" or die;
		close F; mk("$p/$c", $d - 1) } }
	mkdir "bin" or die; mk("bin", 9)' || { echo "cannot build the binary tree"; exit 1; }
run "$ref" "$tmp/r" -rv bin
# (dash keeps its own descriptors at 10 and up: lower the limit in a child)
sh -c 'ulimit -n 12 && exec "$0" -rv bin' "$ours" >"$tmp/u.o" 2>"$tmp/u.e"
sort "$tmp/r.o" >"$tmp/r.o.s"; sort "$tmp/u.o" >"$tmp/u.o.s"
if ! cmp -s "$tmp/r.o.s" "$tmp/u.o.s" || [ -s "$tmp/u.e" ] ||
   [ "$(wc -l <"$tmp/u.o")" -ne 2045 ]; then
	echo "FAIL binary tree under ulimit -n 12: $(wc -l <"$tmp/u.o") lines"
	head -3 "$tmp/u.e"; diff "$tmp/r.o.s" "$tmp/u.o.s" | head -5; fails=$((fails + 1))
fi
rm -rf bin

# --exclude: the named path (as printed) and everything below it vanish.
run "$ref" "$tmp/r" -rv .
run "$ours" "$tmp/u" -rv --exclude=./d/e --exclude ./fifo/ .
grep -av -e '^\./d/e[/ ]' -e '^\./d/e$' -e '^\./fifo$' "$tmp/r.o" | sort >"$tmp/r.o.s"
sort "$tmp/u.o" >"$tmp/u.o.s"
if ! cmp -s "$tmp/r.o.s" "$tmp/u.o.s" || grep -aq -e '^\./d/e[/ ]' -e '^\./fifo' "$tmp/u.o"; then
	echo "FAIL --exclude"; diff "$tmp/r.o.s" "$tmp/u.o.s" | head; fails=$((fails + 1))
fi
run "$ours" "$tmp/u" -rv --exclude=d d
if [ -s "$tmp/u.o" ]; then
	echo "FAIL --exclude of the operand itself"; fails=$((fails + 1))
fi

# Unreadable (700 of another user, or 000 when not root) and unsearchable
# directories: libcap is silent unless -v; ours adds one stderr line each.
mkdir -p locked/in noexec/sub
touch locked/x noexec/z
if [ "$(id -u)" -eq 0 ]; then
	command -v setpriv >/dev/null || { echo "skipped: setpriv needed as root"; exit 77; }
	chmod 700 locked; chmod 744 noexec
	# By number: the host's user database is not the test's.
	as="setpriv --reuid=65534 --regid=65534 --clear-groups"
else
	chmod 000 locked; chmod 644 noexec
	as=
fi
for o in -r -rv; do
	(cd "$tmp/t" && $as "$ref" $o locked noexec >"$tmp/r.o" 2>"$tmp/r.e")
	(cd "$tmp/t" && $as "$ours" $o locked noexec >"$tmp/u.o" 2>"$tmp/u.e")
	sort "$tmp/r.o" >"$tmp/r.o.s"; sort "$tmp/u.o" >"$tmp/u.o.s"
	if ! cmp -s "$tmp/r.o.s" "$tmp/u.o.s" || [ -s "$tmp/r.e" ] ||
	   ! grep -qx "Failed to read directory 'locked' (Permission denied)" "$tmp/u.e" ||
	   ! grep -qx "Failed to search directory 'noexec' (Permission denied)" "$tmp/u.e"; then
		echo "FAIL unreadable directories ($o)"; diff "$tmp/r.o.s" "$tmp/u.o.s"
		cat "$tmp/u.e"; fails=$((fails + 1))
	fi
done
chmod 755 locked noexec

[ "$fails" -eq 0 ] || { echo "$fails failures"; exit 1; }
echo "getcap matches libcap 2.66 on every case"
