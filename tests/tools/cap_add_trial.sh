#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# The "add a capability" trial, which keeps adding one as cheap as
# caps.def promises: clones this checkout into a scratch directory,
# describes one more capability there the way private/caps.def says to (its
# entry, and its define in include/sys/capability.h), builds, and runs
# every tier of the plain pass. A suite that fails names a file that would
# need a hand edit besides those two; cli/docs_cap_names.sh is expected
# to fail, naming the man pages whose counts and last name go stale. Not
# part of "make test": it builds a whole tree and takes a few minutes.
#
#   sh tests/tools/cap_add_trial.sh [SCRATCH_DIR]   (left for a look; rm -rf it)
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
scratch=${1:-$(mktemp -d "${TMPDIR:-/tmp}/cap_add_trial.XXXXXX")}
git clone -q "$top" "$scratch/tree" || exit 2
cd "$scratch/tree" || exit 2
next=$(sed -n 's/^CAP_FACT(\([0-9]*\),.*/\1/p' private/caps.def | tail -n 1)
next=$((next + 1))
cat >>private/caps.def <<DEF

CAP_FACT($next, TRIAL_NEW, trial_new, "99.0", LOW,
	"a stand-in capability for counting the files a new one touches",
	"A capability no kernel has, added to see which files\\n"
	"must change when one is added.\\n",
	/* In Linux since 99.0 */
	".")
DEF
last=$(grep -n '^#define CAP_[A-Z_]*[[:space:]]*'"$((next - 1))"'$' include/sys/capability.h | cut -d: -f1)
[ -n "$last" ] || { echo "cap_add_trial: no define for $((next - 1)) in capability.h"; exit 2; }
sed -i "$((last + 1))a\\
#ifndef CAP_TRIAL_NEW\\
#define CAP_TRIAL_NEW\\t\\t$next\\
#endif" include/sys/capability.h
git --no-pager diff --stat
make -j"$(getconf _NPROCESSORS_ONLN)" >"$scratch/build.log" 2>&1 ||
	{ tail -n 20 "$scratch/build.log"; echo "cap_add_trial: the build fails"; exit 1; }
make -s -C tests all >>"$scratch/build.log" 2>&1 ||
	{ tail -n 20 "$scratch/build.log"; echo "cap_add_trial: the tests do not build"; exit 1; }
PASSES=plain sh tests/run.sh
