#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# Each directory's Makefile builds what it links: "make -C progs" (and
# pam_cap, libcap, psx) on a tree where nothing was built yet, each into an
# empty build directory of one copy of the sources. Also: a second run
# rebuilds nothing, a change to the shared codec (private/cap_xattr.c)
# reaches the library and the programs through "make -C progs" alone, the
# libraries are compiled without common/ on their include path, and no
# source reaches another directory's files by a relative #include.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
[ "${VALGRIND:-0}" = 1 ] && skip "builds the tree; runs none of our code under valgrind"
command -v make >/dev/null 2>&1 || skip "make is not installed"

# One copy of the sources, without build outputs. Plain -O0: the Makefiles
# are under test here, not the code, and -O0 halves the compile time.
src=$T/tree
mkdir "$src"
(cd "$TOP" && tar --exclude=./build --exclude=./.git -cf - .) | (cd "$src" && tar -xf -) ||
	{ fail "copying the tree"; finish; }

# mk DIR BUILDDIR: make -C DIR all into BUILDDIR; commands in $T/DIR.log.
# MK_ENV_CFLAGS: CFLAGS given in the environment, not on make's command line.
mk() {
	# Not a calling make's flags (-s would hide the commands checked below).
	if [ -n "${MK_ENV_CFLAGS:-}" ]; then
		env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL CFLAGS="$MK_ENV_CFLAGS" \
			make -C "$src/$1" -j2 BUILD="$2" SANITIZE= >"$T/$1.log" 2>&1 && return 0
	else
		env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$src/$1" -j2 BUILD="$2" \
			CFLAGS=-O0 SANITIZE= >"$T/$1.log" 2>&1 && return 0
	fi
	grep -E '\*\*\* |error: ' "$T/$1.log" | head -n 5 | grep . || tail -n 15 "$T/$1.log"
	fail "make -C $1 on a fresh tree"
	return 1
}
# only BUILDDIR DIR...: BUILDDIR holds outputs of exactly these directories.
only() {
	b=$1; shift
	got=$(cd "$b" && ls | sort | tr '\n' ' ')
	want=$(printf '%s\n' "$@" | sort | tr '\n' ' ')
	if [ "$got" = "$want" ]; then pass
	else fail "$(basename "$b"): built '$got', want '$want'"; fi
}
# loads PROGRAM BUILDDIR: PROGRAM loads BUILDDIR's libcap.so.2.
loads() {
	got=$(env -u LD_LIBRARY_PATH ldd "$1" | awk '$1 == "libcap.so.2" {print $3}')
	if [ "$got" -ef "$2/libcap/libcap.so.2" ]; then pass
	else fail "$(basename "$1") loads '$got', not $2/libcap/libcap.so.2"; fi
}

b=$T/psx
if mk psx "$b"; then
	only "$b" psx
	for f in libpsx.so.2.76 libpsx.so.2 libpsx.so libpsx.a libpsx.pc; do
		[ -e "$b/psx/$f" ] && pass || fail "make -C psx: no $f"
	done
	"$b/psx/libpsx.so.2" --help >/dev/null 2>&1 && pass || fail "libpsx.so.2 does not run"
fi
expect_line "$T/psx.log" "psx_threads.c" "make -C psx showed no compile command (test broken)"
grep -q "$src/common" "$T/psx.log" && fail "libpsx is compiled with common/ in reach: $(grep "$src/common" "$T/psx.log" | head -n 1)" || pass

b=$T/libcap
if mk libcap "$b"; then
	only "$b" libcap
	for f in libcap.so.2.76 libcap.so.2 libcap.so libcap.a libcap.pc; do
		[ -e "$b/libcap/$f" ] && pass || fail "make -C libcap: no $f"
	done
	"$b/libcap/libcap.so.2" --summary >/dev/null 2>&1 && pass || fail "libcap.so.2 does not run"
fi
expect_line "$T/libcap.log" "cap_xattr.c" "make -C libcap showed no compile of the codec"
grep -q "$src/common" "$T/libcap.log" && fail "libcap is compiled with common/ in reach: $(grep "$src/common" "$T/libcap.log" | head -n 1)" || pass

# pam_cap's fresh build takes CFLAGS from the environment, as
# dpkg-buildflags gives it (the same build is made again just below).
b=$T/pam_cap
envflags="-O0 -fstack-protector-strong"
if MK_ENV_CFLAGS=$envflags mk pam_cap "$b"; then
	only "$b" common libcap pam_cap
	loads "$b/pam_cap/pam_cap.so" "$b"
fi

# CFLAGS from the environment, as dpkg-buildflags gives it: every sub-make
# inherits it with our flags already added, and adding them again there
# flipped the flags stamp at each level, so a package build compiled
# every object nine times. Built once (pam_cap's fresh build, just made,
# whose make -C pam_cap runs the libcap and common sub-makes), a second
# make builds nothing.
b=$T/pam_cap
if [ -f "$b/pam_cap/pam_cap.so" ]; then
	touch "$T/stamp2"
	if MK_ENV_CFLAGS=$envflags mk pam_cap "$b"; then
		new=$(find "$b" -type f -newer "$T/stamp2" | sed "s|$b/||" | sort | tr '\n' ' ')
		if [ -z "$new" ]; then pass
		else fail "CFLAGS from the environment: a second make rebuilt: $new"; fi
	fi
else
	fail "make -C pam_cap with CFLAGS in the environment built no pam_cap.so: $(tail -n 5 "$T/pam_cap.log")"
fi

b=$T/progs
if mk progs "$b"; then
	only "$b" common libcap progs
	for p in $(cd "$src/progs" && ls -d */ | tr -d /); do
		[ -x "$b/progs/$p" ] && pass || { fail "make -C progs: no $p"; continue; }
		loads "$b/progs/$p" "$b"
	done
	run "$b/progs/getcap" --version
	expect_rc 0 "the fresh getcap runs"

	# Again: nothing is rebuilt, though libcap and common are asked each time.
	touch "$T/stamp"
	mk progs "$b"
	new=$(find "$b" -type f -newer "$T/stamp" ! -name '.*-flags' | sed "s|$b/||" | sort | tr '\n' ' ')
	if [ -z "$new" ]; then pass
	else fail "a second make -C progs rebuilt: $new"; fi

	# The codec changes: the library, libcommon.a and getcap follow.
	echo '/* changed */' >>"$src/private/cap_xattr.c"
	mk progs "$b"
	for f in libcap/libcap.so.2.76 common/libcommon.a progs/getcap progs/capaudit; do
		if [ "$b/$f" -nt "$T/stamp" ]; then pass
		else fail "make -C progs left $f as it was after the codec changed"; fi
	done
fi

# Layering: a file of another directory is reached through the include
# path its Makefile gives (private/ everywhere, common/ for the programs
# and pam_cap), never by a relative path that would get around it.
rel=$(cd "$src" && grep -rln '^[[:space:]]*#[[:space:]]*include[[:space:]]*"\.\./' \
	--include='*.c' --include='*.h' --include='*.def' . | sort | tr '\n' ' ')
if [ -z "$rel" ]; then pass
else fail "#include \"../...\" in: $rel"; fi

finish "each directory builds what it links"
