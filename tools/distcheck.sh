#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# "make distcheck": the tree builds, warning-free under -Werror, and its
# unit tier passes, with every compiler and hardening mode a distribution
# may use. Each configuration gets a build directory of its own
# (build/distcheck/<name>), made by the same rules as the plain build:
#
#   gcc       the default compiler and flags
#   clang     clang, with its own warnings
#   fortify   -O2 -D_FORTIFY_SOURCE=3 (glibc's checked string functions)
#   sanitize  ASan + UBSan
#   static    the programs linked statically with libcap.a
#
# Then "make install" into a staging directory and "make uninstall" from
# it must leave nothing behind. DISTCHECK="gcc clang" runs only those.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
make=${MAKE:-make}
configs=${DISTCHECK:-gcc clang fortify sanitize static}
failed=

build_one() {	# NAME MAKE-ARGS...
	name=$1; shift
	dir=build/distcheck/$name
	log=$top/$dir.log
	mkdir -p "$top/build/distcheck"
	if $make -s -C "$top" all BUILD="$dir" "$@" >"$log" 2>&1 &&
	   $make -s -C "$top/tests" all BUILD="$dir" "$@" >>"$log" 2>&1 &&
	   TIERS=unit TEST_SUMMARY= $make -s -C "$top/tests" check BUILD="$dir" "$@" >>"$log" 2>&1; then
		echo "distcheck: $name: built, unit tier passed ($(grep '^suites:' "$log"))"
	else
		echo "distcheck: $name: FAILED (log: $log)"; tail -n 30 "$log"
		failed="$failed $name"
	fi
}

for c in $configs; do
	case $c in
	gcc) build_one gcc CC=gcc ;;
	clang) build_one clang CC=clang ;;
	fortify) build_one fortify CFLAGS="-O2 -g -D_FORTIFY_SOURCE=3" ;;
	sanitize) build_one sanitize SANITIZE=address,undefined ;;
	static) build_one static STATIC=1 ;;
	*) echo "distcheck: unknown configuration $c"; failed="$failed $c" ;;
	esac
done

# Installed and removed again from a staging directory: nothing may stay.
stage=$(mktemp -d) || exit 1
trap 'rm -rf "$stage"' EXIT
if $make -s -C "$top" install DESTDIR="$stage/root" >"$stage/log" 2>&1 &&
   $make -s -C "$top" uninstall DESTDIR="$stage/root" >>"$stage/log" 2>&1; then
	left=$(find "$stage/root" ! -type d | sort)
	if [ -n "$left" ]; then
		echo "distcheck: uninstall left files behind:"; echo "$left"
		failed="$failed uninstall"
	else
		echo "distcheck: install + uninstall leave no file behind"
	fi
else
	echo "distcheck: install/uninstall FAILED"; tail -n 30 "$stage/log"
	failed="$failed install"
fi

[ -z "$failed" ] || { echo "distcheck: failed:$failed"; exit 1; }
echo "distcheck: all passed"
