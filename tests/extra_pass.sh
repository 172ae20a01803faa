#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# The extra passes "make test" runs after the plain one (issue 8):
#
#   sh tests/extra_pass.sh sanitize   unit and cli tiers built with
#                                     SANITIZE=address,undefined
#   sh tests/extra_pass.sh valgrind   unit and cli tiers of the plain build
#                                     under valgrind memcheck
#
# The sanitizer build happens in a scratch copy of the tree, never in place:
# objects live next to their sources, and rebuilding them twice in place
# would leave a sanitized tree behind whenever a run is interrupted. The
# root tier is left to the plain pass, whose binaries get file capabilities.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
make=${MAKE:-make}

case ${1:-} in
sanitize)
	san=${EXTRA_SANITIZE:-address,undefined}
	scratch=$(mktemp -d "${TMPDIR:-/tmp}/libcap-perfmon-sanitize.XXXXXX") || exit 1
	chmod 755 "$scratch"	# suites may run tools as nobody from here
	trap 'rm -rf "$scratch"' EXIT
	echo "== sanitizer pass (SANITIZE=$san) in $scratch"
	# Sources only: build outputs are rebuilt by "make clean" anyway.
	tar -C "$top" --exclude=./.git --exclude=./tests/bin \
	    --exclude=./tests/fuzz/build --exclude=./bench/bin -cf - . |
		tar -C "$scratch" -xf - || exit 1
	$make -s -C "$scratch" clean >/dev/null 2>&1
	$make -s -C "$scratch" all SANITIZE="$san" >"$scratch/build.log" 2>&1 ||
		{ tail -n 40 "$scratch/build.log"; exit 1; }
	TIERS="unit cli" $make -s -C "$scratch/tests" check SANITIZE="$san"
	;;
valgrind)
	if ! command -v valgrind >/dev/null 2>&1; then
		echo "== valgrind pass skipped: valgrind is not installed"; exit 0
	fi
	echo "== valgrind pass"
	VALGRIND=1 TIERS="unit cli" $make -s -C "$top/tests" check
	;;
*)
	echo "usage: extra_pass.sh sanitize|valgrind" >&2; exit 2 ;;
esac
