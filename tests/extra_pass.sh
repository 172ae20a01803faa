#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# One of the extra passes of "make test" on its own:
#
#   sh tests/extra_pass.sh sanitize   unit and cli tiers built with
#                                     SANITIZE=address,undefined
#                                     (EXTRA_SANITIZE=... for others)
#   sh tests/extra_pass.sh valgrind   unit and cli tiers of the plain build
#                                     under valgrind memcheck
#
# "make test" runs them through tests/run.sh (PASSES="plain sanitize
# valgrind"), side by side with the plain pass; this is the same with one
# pass. The sanitizer build uses the same rules as the plain one, in a build
# directory of its own (build/address-undefined): nothing is copied and the
# plain build is left alone. The root tier is left to the plain pass, whose
# binaries get file capabilities.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)

case ${1:-} in
sanitize)
	PASSES=sanitize exec sh "$top/tests/run.sh" ;;
valgrind)
	make -s -C "$top/tests" all || exit 1
	PASSES=valgrind exec sh "$top/tests/run.sh" ;;
*)
	echo "usage: extra_pass.sh sanitize|valgrind" >&2; exit 2 ;;
esac
