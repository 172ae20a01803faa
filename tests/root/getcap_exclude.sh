#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# getcap -r --exclude is compared after normalising both sides (issue 12,
# item 16): "/proc/", "//proc", "/./proc/." and "/proc//" all name /proc,
# operands with trailing slashes or "./" forms are matched too, and an
# exclude below no operand is reported instead of silently doing nothing.
# Checked on a generated tree and on the real root filesystem.
set -u
. "$TESTS_DIR/lib.sh"
command -v setfattr >/dev/null 2>&1 || { echo "skipped: setfattr (attr) is not installed"; exit 77; }
getcap=$BUILD/progs/getcap
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fails=0 cases=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
value=0x0100000200200000000000000000000000000000	# cap_net_raw=ep

mkdir -p "$tmp/t/a/b" "$tmp/t/c"
for f in f a/f a/b/f c/f; do
	: >"$tmp/t/$f" && setfattr -n security.capability -v $value "$tmp/t/$f" || exit 1
done

# check DIR "EXPECTED FILES" ARGS...: the capped files getcap -r prints,
# run in DIR, must be exactly EXPECTED (space-separated, any order).
check() {
	dir=$1 want=$2; shift 2
	cases=$((cases + 1))
	got=$(cd "$dir" && run_ours "$getcap" -r "$@" 2>"$tmp/err" |
		sed 's/ cap_net_raw=ep$//' | sort | tr '\n' ' ')
	want=$(echo "$want" | tr ' ' '\n' | grep . | sort | tr '\n' ' ')
	[ "$got" = "$want" ] || fail "(cd $dir; getcap -r $*): got '$got', want '$want'"
	[ -s "$tmp/err" ] && fail "(cd $dir; getcap -r $*): stderr $(cat "$tmp/err")"
}

for x in t/a t/a/ t//a ./t/a t/./a/. t/a// .//t/a/; do
	check "$tmp" "t/f t/c/f" --exclude="$x" t
	check "$tmp" "t/f t/c/f" --exclude="$x" t/
	check "$tmp" "t/f t/c/f" --exclude="$x" t//
	check "$tmp" "./t/f ./t/c/f" --exclude="$x" ./t
	check "$tmp" "t/./f t/./c/f" --exclude="$x" t/./
done
for x in a a/ ./a .//a/. a//; do
	check "$tmp/t" "./f ./c/f" --exclude="$x" .
	check "$tmp/t" "./f ./c/f" --exclude="$x" ./
done
check "$tmp/t" "./f ./a/f ./c/f" --exclude=./a/b/ .
check "$tmp" "$tmp/t/f $tmp/t/c/f" --exclude="$tmp//t/a/" "$tmp/t"
check "$tmp" "$tmp//t/f $tmp//t/c/f" --exclude="$tmp/t/./a" "$tmp//t/"
check "$tmp" "t/f t/a/f t/a/b/f" --exclude=t/c/ --exclude=t//c/b t
check "$tmp" "" --exclude=t/ t
check "$tmp" "" --exclude=./t/. t/
check "$tmp" "" --exclude="$tmp/t/" "$tmp//t"

# An exclude that is below no operand excludes nothing, and says so.
(cd "$tmp" && run_ours "$getcap" -r --exclude=t/nothere/ --exclude="$tmp/t/a" t >"$tmp/out" 2>"$tmp/err")
[ "$(wc -l <"$tmp/out")" -eq 4 ] || fail "unrelated excludes changed the output: $(cat "$tmp/out")"
cat >"$tmp/want" <<WANT
getcap: --exclude=$tmp/t/a is not below any operand: nothing excluded
WANT
cmp -s "$tmp/err" "$tmp/want" || fail "warning for an unused exclude: $(cat "$tmp/err")"

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
timeout 120 "$getcap" -r -v "$@" / >"$tmp/out" 2>/dev/null
outside=$(grep -v '^/etc[/ ]' "$tmp/out" | grep -v '^/ (Not a regular file)$')
[ -z "$outside" ] || fail "getcap -r -v / with $i top-level excludes printed $(echo "$outside" | wc -l) lines outside /etc, first: $(echo "$outside" | head -n 3)"
inside=$(grep -c '^/etc/' "$tmp/out")
[ "$inside" -gt 0 ] || fail "nothing under /etc printed"
echo "/: $i top-level entries excluded, $inside lines under /etc"
cases=$((cases + 1))
out=$(timeout 60 "$getcap" -r -v --exclude=/proc/ /proc 2>&1)
[ -z "$out" ] || fail "--exclude=/proc/ /proc printed: $(echo "$out" | head -n 2)"
echo "$cases cases"
[ $fails -eq 0 ]
