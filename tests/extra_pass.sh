#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# The extra passes "make test" runs after the plain one (issue 8):
#
#   sh tests/extra_pass.sh sanitize   unit and cli tiers built with
#                                     SANITIZE=address,undefined
#   sh tests/extra_pass.sh valgrind   unit and cli tiers of the plain build
#                                     under valgrind memcheck
#
# The sanitizer build uses the same rules as the plain one, in a build
# directory of its own (build/address-undefined): nothing is copied and the
# plain build is left alone. The root tier is left to the plain pass, whose
# binaries get file capabilities.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
make=${MAKE:-make}

case ${1:-} in
sanitize)
	san=${EXTRA_SANITIZE:-address,undefined}
	echo "== sanitizer pass (SANITIZE=$san)"
	log=$(mktemp "${TMPDIR:-/tmp}/libcap-perfmon-sanitize.XXXXXX") || exit 1
	trap 'rm -f "$log"' EXIT
	$make -s -C "$top" all SANITIZE="$san" >"$log" 2>&1 ||
		{ tail -n 40 "$log"; exit 1; }
	TIERS="unit cli" $make -s -C "$top/tests" check SANITIZE="$san"
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
