#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# capsh argument handling without privilege: usage text and its exit status
# (0 only when argv[1] asks for help), unknown and near-miss options,
# --license, prefix-matched --noamb, exact-match flags, --forkfor=0.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
# Nothing here runs under valgrind: in the valgrind pass it would only
# repeat the plain pass.
[ "${VALGRIND:-0}" = 1 ] && skip "runs none of our code under valgrind (the plain and sanitizer passes run it)"
C=$BUILD/progs/capsh
[ -x "$C" ] || { fail "capsh not built"; finish; }


run "$C" --help
expect_rc 0 --help; expect_err "" --help
# libcap's text first, its 48 lines, ending with its own last line; then
# ours, each marked (docs/differences.md, row not-in-libcap): --dropped,
# which libcap accepts without listing it, --json, any later option of
# ours, and --version last.
head -n 1 "$T/out" | grep -qxF "usage: $C [args ...]" && pass || fail "--help: first line $(head -n 1 "$T/out")"
sed -n 48p "$T/out" | grep -qxF "                 (without -- [$C] will simply exit(0))" && pass || fail "--help: line 48 is not libcap's last line"
cp "$T/out" "$T/usage"
sed 1,48d "$T/usage" >"$T/ours"
unmarked=$(grep -v '(not in libcap)$' "$T/ours")
[ -s "$T/ours" ] && [ -z "$unmarked" ] && pass || fail "--help: lines after libcap's text not marked (not in libcap): [$unmarked]"
head -n 1 "$T/ours" | grep -qxF '  --dropped=xxx  exit 1 unless capability xxx dropped (not in libcap)' && pass || fail "--help: no marked --dropped first after libcap's text"
grep -q '^  --json .*(not in libcap)$' "$T/ours" && pass || fail "--help: no marked --json after libcap's text"
tail -n 1 "$T/ours" | grep -q '^  --version .*(not in libcap)$' && pass || fail "--help: no marked --version last"
# Every option capsh accepts is listed, one line each, in libcap's layout.
for o in --addamb=xxx --cap-uid= --caps=xxx --chroot=path --current --decode=xxx \
	 --delamb=xxx --drop=xxx --dropped=xxx --explain=xxx --forkfor= --gid= \
	 --groups= --has-a=xxx --has-b=xxx --has-ambient --has-i=xxx --has-p=xxx \
	 --has-no-new-privs '--help, -h' --iab= --inh=xxx --inmode= --is-uid= \
	 --is-gid= --keep= --killit= --license '--mode ' --mode= --modes \
	 --no-new-privs --noamb --noenv --print --quiet --secbits= --shell= \
	 --strict --suggest=text --supports=xxx --uid= --user= '== ' '=+ ' '-- ' '-+ '; do
	grep -q -- "^  $o" "$T/usage" && pass || fail "usage lacks $o"
done
# The one deliberate fix of libcap's text (docs/differences.md, row
# capsh-help-has-b); the --shell line is libcap's.
grep -qxF '  --has-b=xxx    exit 1 if capability xxx dropped' "$T/usage" && pass || fail "--has-b help line"
grep -qxF '  --shell=/xx/yy use /xx/yy instead of /bin/bash for --' "$T/usage" && pass || fail "--shell help line"
grep -q 'not dropped' "$T/usage" && fail "usage still says 'not dropped'" || pass

run "$C" -h; expect_rc 0 -h; cmp -s "$T/out" "$T/usage" && pass || fail "-h differs from --help"
run "$C" -h --print; expect_rc 0 "-h --print"
# Help later on the line is a usage error (exit 1), after what came before.
run "$C" --mode --help; expect_rc 1 "--mode --help"
head -n 1 "$T/out" | grep -qx 'Mode: HYBRID\|Mode: [A-Z_0-9]*' && pass || fail "--mode --help: no mode line first"
[ "$(wc -l <"$T/out")" -eq $(($(wc -l <"$T/usage") + 1)) ] && pass || fail "--mode --help: want mode line + usage"
for a in --foo x - --printx --print=1 --current=1 --strict=1 --quiet=1 --help=1 -hx \
	 --has-ambientx --no-new-privsx --licensex --noam --caps --uid --inmode \
	 --decodex=1 --- -++ === =+= -+x; do
	# libcap says nothing on stderr; ours is one line naming the word
	# (progs_version_help.sh checks the suggestions).
	run "$C" "$a"; expect_rc 1 "$a"
	[ "$(wc -l <"$T/err")" -eq 1 ] && head -n 1 "$T/err" |
		grep -qF "capsh: unknown option '$a'" && pass || fail "capsh $a: stderr [$(cat "$T/err")]"
	cmp -s "$T/out" "$T/usage" && pass || fail "$a: stdout is not exactly the usage"
done
# Near misses of --mode are named before the usage.
for a in --modex --modes=1 --modesx; do
	run "$C" "$a"; expect_rc 1 "$a"
	head -n 1 "$T/out" | grep -qxF "unrecognized command [$a]" && pass || fail "$a: $(head -n 1 "$T/out")"
done
run; expect_rc 0 "(no args)"; expect_out "" "(no args)"; expect_err "" "(no args)"
run "$C" --quiet; expect_rc 0 --quiet; expect_out "" --quiet
run "$C" --noambXYZ; expect_rc 0 --noambXYZ; expect_err "" --noambXYZ
run "$C" --noamb=all; expect_rc 0 --noamb=all
run "$C" --license --foo; expect_rc 0 "--license --foo"
head -n 1 "$T/out" | grep -qxF "$C see License file for details." && pass || fail "--license first line"
[ "$(wc -l <"$T/out")" -eq 2 ] && pass || fail "--license: not two lines"
run "$C" --forkfor=0; expect_rc 1 --forkfor=0; expect_err "require non-zero --forkfor value
" --forkfor=0
cmp -s "$T/out" "$T/usage" && pass || fail "--forkfor=0: usage expected on stdout"
run "$C" --strict --strict --noenv --quiet; expect_rc 0 "flags"; expect_out "" flags
# == and =+ find capsh along PATH when argv[0] has no '/', pass on --quiet.
if b=$(command -v bash); then
	mkdir "$T/bin"
	cat >"$T/bin/capsh" <<'ARGS'
#!/bin/sh
echo "re-run: $0 $*"
ARGS
	chmod 755 "$T/bin/capsh"
	for op in == =+; do
		expect_lines 0 "re-run: $T/bin/capsh --quiet a b" "" \
			env PATH="/nonexistent::$T/bin" "$b" -c 'exec -a capsh "$0" --quiet "$1" a b' "$C" $op
		expect_lines 1 "" "unable to find executable 'capsh' in PATH" \
			env PATH="/nonexistent" "$b" -c 'exec -a capsh "$0" "$1" a' "$C" $op
		expect_lines 1 "" "no PATH environment variable found for re-execing" \
			env -u PATH "$b" -c 'exec -a capsh "$0" "$1" a' "$C" $op
	done
	cd "$T" || exit 1
	expect_lines 1 "" "execve './nothere' failed!" "$b" -c 'exec -a ./nothere "$0" == x' "$C"
	cd - >/dev/null || exit 1
fi
expect_lines 1 "" "execve '/nonexistent' failed!" "$C" --shell=/nonexistent -- x
expect_lines 3 "a|b c" "" "$C" --shell=/bin/sh -- -c 'echo "$0|$*"; exit 3' a b c
expect 4 "" "" "$C" --shell=/bin/sh -+ -c 'exit 4'
# Differences 5 and 7 (progs/capsh/capsh.c): buffered output is neither lost by
# -- nor written twice by the --forkfor child.
"$C" --mode --shell=/bin/sh -- -c true >"$T/flush"
[ "$(wc -l <"$T/flush")" -eq 1 ] && pass || fail "--mode before --: $(wc -l <"$T/flush") lines"
"$C" --mode --forkfor=1 >"$T/flush"; sleep 2
[ "$(wc -l <"$T/flush")" -eq 1 ] && pass || fail "--mode --forkfor: $(wc -l <"$T/flush") lines"
finish "capsh usage and argument handling: all checks passed"
