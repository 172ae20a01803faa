#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# getcap -r --exclude is compared after normalising both sides, so an
# exclude is never bypassed by spelling: "/proc/", "//proc", "/./proc/." and
# "/proc//" all name /proc, operands with trailing slashes or "./" forms are
# matched too, and an exclude below no operand is reported instead of
# silently doing nothing. Checked on a generated tree and on the real root
# filesystem.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
command -v setfattr >/dev/null 2>&1 || skip "setfattr (attr) is not installed"
getcap=$BUILD/progs/getcap
cases=0
value=0x0100000200200000000000000000000000000000	# cap_net_raw=ep

mkdir -p "$T/t/a/b" "$T/t/c"
for f in f a/f a/b/f c/f; do
	: >"$T/t/$f" && setfattr -n security.capability -v $value "$T/t/$f" || exit 1
done

# walk_prints DIR "EXPECTED FILES" ARGS...: the capped files getcap -r prints,
# run in DIR, must be exactly EXPECTED (space-separated, any order).
walk_prints() {
	dir=$1 want=$2; shift 2
	cases=$((cases + 1))
	got=$(cd "$dir" && run_ours "$getcap" -r "$@" 2>"$T/err" |
		sed 's/ cap_net_raw=ep$//' | sort | tr '\n' ' ')
	want=$(echo "$want" | tr ' ' '\n' | grep . | sort | tr '\n' ' ')
	[ "$got" = "$want" ] && pass || fail "(cd $dir; getcap -r $*): got '$got', want '$want'"
	[ -s "$T/err" ] && fail "(cd $dir; getcap -r $*): stderr $(cat "$T/err")" || pass
}

for x in t/a t/a/ t//a ./t/a t/./a/. t/a// .//t/a/; do
	walk_prints "$T" "t/f t/c/f" --exclude="$x" t
	walk_prints "$T" "t/f t/c/f" --exclude="$x" t/
	walk_prints "$T" "t/f t/c/f" --exclude="$x" t//
	walk_prints "$T" "./t/f ./t/c/f" --exclude="$x" ./t
	walk_prints "$T" "t/./f t/./c/f" --exclude="$x" t/./
done
for x in a a/ ./a .//a/. a//; do
	walk_prints "$T/t" "./f ./c/f" --exclude="$x" .
	walk_prints "$T/t" "./f ./c/f" --exclude="$x" ./
done
walk_prints "$T/t" "./f ./a/f ./c/f" --exclude=./a/b/ .
walk_prints "$T" "$T/t/f $T/t/c/f" --exclude="$T//t/a/" "$T/t"
walk_prints "$T" "$T//t/f $T//t/c/f" --exclude="$T/t/./a" "$T//t/"
walk_prints "$T" "t/f t/a/f t/a/b/f" --exclude=t/c/ --exclude=t//c/b t
walk_prints "$T" "" --exclude=t/ t
walk_prints "$T" "" --exclude=./t/. t/
walk_prints "$T" "" --exclude="$T/t/" "$T//t"

# An exclude that is below no operand excludes nothing, and says so.
(cd "$T" && run_ours "$getcap" -r --exclude=t/nothere/ --exclude="$T/t/a" t >"$T/out" 2>"$T/err")
[ "$(wc -l <"$T/out")" -eq 4 ] && pass || fail "unrelated excludes changed the output: $(cat "$T/out")"
cat >"$T/want" <<WANT
getcap: --exclude=$T/t/a is not below any operand: nothing excluded
WANT
cmp -s "$T/err" "$T/want" && pass || fail "warning for an unused exclude: $(cat "$T/err")"

# The real root: every top-level entry but /etc excluded, in four spellings.
set --
i=0
for e in /* /.[!.]*; do
	[ -e "$e" ] || [ -L "$e" ] || continue
	name=${e#/}
	[ "$name" = etc ] && continue
	case $((i % 4)) in
	0) set -- "$@" --exclude="/$name/" ;;
	1) set -- "$@" --exclude="//$name" ;;
	2) set -- "$@" --exclude="/./$name/." ;;
	3) set -- "$@" --exclude="/$name//" ;;
	esac
	i=$((i + 1))
done
cases=$((cases + 1))
timeout 120 "$getcap" -r -v "$@" / >"$T/out" 2>/dev/null
outside=$(grep -v '^/etc[/ ]' "$T/out" | grep -v '^/ (Not a regular file)$')
[ -z "$outside" ] && pass || fail "getcap -r -v / with $i top-level excludes printed $(echo "$outside" | wc -l) lines outside /etc, first: $(echo "$outside" | head -n 3)"
inside=$(grep -c '^/etc/' "$T/out")
[ "$inside" -gt 0 ] && pass || fail "nothing under /etc printed"
echo "/: $i top-level entries excluded, $inside lines under /etc"
cases=$((cases + 1))
out=$(timeout 60 "$getcap" -r -v --exclude=/proc/ /proc 2>&1)
[ -z "$out" ] && pass || fail "--exclude=/proc/ /proc printed: $(echo "$out" | head -n 2)"
echo "$cases cases"
finish
