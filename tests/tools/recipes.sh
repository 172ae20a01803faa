#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# The guide's recipes, followed literally: for each recipe of
# docs/hacking.md ("## Adding things": a capability, an option, a JSON
# field, a suite), a scratch clone of this checkout (its committed tree
# and the changes to tracked files; untracked files are left out), the
# recipe's steps done there by tests/tools/recipe_steps.pl (a made-up
# capability 41, cap_recipe_trial; an option of getcap's and capsh's; a
# key of capsh --json; a cli suite; each edit made only to a file a step
# names), then the recipe's own check (its last step's sh block, run as
# written), the suite that guards what the recipe is about whether or not
# the check names it, and a search of the whole tree for statements left
# stale. A recipe passes only when all of that passes, and when every
# edit of the trial is one a step names (no "DRIFT:" line): then its
# steps alone were enough. Not part of "make test": each recipe builds a
# tree and runs suites, minutes in all ("make recipes").
#
#   sh tests/tools/recipes.sh [RECIPE ...]     (default: all four)
#
# KEEP=1 leaves the scratch clones for a look (their paths are printed).
# The upstream reference packages are shared with this checkout's cache
# (LIBCAP_REF_CACHE, default build/libcap-ref), so each is fetched once.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
steps=$top/tests/tools/recipe_steps.pl
[ $# -gt 0 ] || set -- capability option json suite
export LIBCAP_REF_CACHE="${LIBCAP_REF_CACHE:-$top/build/libcap-ref}"
unset TESTS BUILD SANITIZE VALGRIND

# The checked-out tree as it stands: committed, plus tracked changes.
rev=$(git -C "$top" stash create) || exit 2
[ -n "$rev" ] || rev=HEAD

# The suite a recipe cannot do without, run whether or not it names it.
guard() {
	case $1 in
	capability) echo cli/docs_cap_names.sh ;;
	option) echo cli/docs_man_pages.sh ;;
	json) echo cli/docs_json_keys.sh ;;
	suite) echo cli/harness_rules.sh ;;
	esac
}

scratches=
cleanup() {
	[ "${KEEP:-0}" = 1 ] && return
	for d in $scratches; do rm -rf "$d"; done
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

failed=
for r in "$@"; do
	start=$(date +%s)
	s=$(mktemp -d "${TMPDIR:-/tmp}/recipes.$r.XXXXXX") || exit 2
	scratches="$scratches $s"
	# Suites run programs of the tree as nobody.
	chmod 0755 "$s"
	echo "== recipe $r (scratch $s)"
	why=
	if ! git clone -q --shared "$top" "$s/tree" ||
	   ! git -C "$s/tree" checkout -q --detach "$rev"; then
		why="cannot make the scratch clone"
	elif ! perl "$steps" apply "$r" "$s/tree" "$s/check.sh" "$s/state" >"$s/steps" 2>&1; then
		sed 's/^/  /' "$s/steps"
		why="the steps could not be followed"
	else
		sed 's/^/  /' "$s/steps"
		grep -q '^DRIFT:' "$s/steps" &&
			why="the recipe and tests/tools/recipe_steps.pl disagree (DRIFT above)"
		echo "  check (the recipe's last step):"
		sed -n '2,$s/^/    /p' "$s/check.sh"
		if ! (cd "$s/tree" && sh "$s/check.sh") >"$s/check.log" 2>&1; then
			grep -E '^(FAIL|SKIP)|^ +FAIL|suites:|Error|error:' "$s/check.log" | head -n 40 | sed 's/^/  /'
			why="${why:+$why; }the recipe's check fails"
		fi
		g=$(guard "$r")
		if ! grep -q "$g" "$s/check.sh"; then
			echo "  and $g, which the check leaves out"
			if ! (cd "$s/tree" && TESTS="$g" sh tests/run.sh) >"$s/guard.log" 2>&1; then
				grep -E '^(FAIL|SKIP)|^ +FAIL' "$s/guard.log" | head -n 40 | sed 's/^/  /'
				why="${why:+$why; }$g fails"
			fi
		fi
		if ! perl "$steps" stale "$r" "$s/tree" "$s/state" >"$s/stale" 2>&1; then
			sed 's/^/  /' "$s/stale"
			why="${why:+$why; }statements left stale"
		fi
	fi
	secs=$(($(date +%s) - start))
	if [ -z "$why" ]; then
		echo "recipe $r: passed ($secs s)"
	else
		echo "recipe $r: FAILED: $why ($secs s)"
		failed="$failed $r"
	fi
	[ "${KEEP:-0}" = 1 ] || rm -rf "$s"
done
if [ -n "$failed" ]; then
	echo "recipes failed:$failed"
	exit 1
fi
echo "recipes: all $# passed"
