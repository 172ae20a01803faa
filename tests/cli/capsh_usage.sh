#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# capsh argument handling without privilege: usage text and its exit status
# (0 only when argv[1] asks for help), unknown and near-miss options,
# --license, prefix-matched --noamb, exact-match flags, --forkfor=0.
set -u
# Nothing here runs under valgrind: in the valgrind pass it would only
# repeat the plain pass.
[ "${VALGRIND:-0}" = 1 ] && { echo "skipped: runs none of our code under valgrind (the plain and sanitizer passes run it)"; exit 77; }
C=$BUILD/progs/capsh
[ -x "$C" ] || { echo "capsh not built"; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# run <args...>: sets rc, out (stdout file), err (stderr file)
run() { "$C" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null; rc=$?; }
expect_rc() { [ "$rc" = "$1" ] || bad "capsh $2: exit $rc, want $1"; }
expect_err() { printf '%s' "$1" | cmp -s - "$tmp/err" || bad "capsh $2: stderr [$(cat "$tmp/err")], want [$1]"; }
expect_out() { printf '%s' "$1" | cmp -s - "$tmp/out" || bad "capsh $2: stdout [$(head -c 300 "$tmp/out")], want [$1]"; }

run --help
expect_rc 0 --help; expect_err "" --help
# Our two additions (--json, --version) follow libcap's last line, marked.
tail -n 2 "$tmp/out" | head -n 1 | grep -q '^  --json .*(not in libcap)$' || bad "--help: no marked --json after libcap's text"
tail -n 1 "$tmp/out" | grep -q '^  --version .*(not in libcap)$' || bad "--help: no marked --version last"
head -n 1 "$tmp/out" | grep -qxF "usage: $C [args ...]" || bad "--help: first line $(head -n 1 "$tmp/out")"
tail -n 3 "$tmp/out" | head -n 1 | grep -qxF "                 (without -- [$C] will simply exit(0))" || bad "--help: libcap's last line"
cp "$tmp/out" "$tmp/usage"
lines=$(wc -l <"$tmp/usage")
[ "$lines" -eq 51 ] || bad "--help: $lines lines, want 49 of libcap's and 2 of ours"
# Every option capsh accepts is listed, one line each, in libcap's layout.
for o in --addamb=xxx --cap-uid= --caps=xxx --chroot=path --current --decode=xxx \
	 --delamb=xxx --drop=xxx --dropped=xxx --explain=xxx --forkfor= --gid= \
	 --groups= --has-a=xxx --has-b=xxx --has-ambient --has-i=xxx --has-p=xxx \
	 --has-no-new-privs '--help, -h' --iab= --inh=xxx --inmode= --is-uid= \
	 --is-gid= --keep= --killit= --license '--mode ' --mode= --modes \
	 --no-new-privs --noamb --noenv --print --quiet --secbits= --shell= \
	 --strict --suggest=text --supports=xxx --uid= --user= '== ' '=+ ' '-- ' '-+ '; do
	grep -q -- "^  $o" "$tmp/usage" || bad "usage lacks $o"
done
# Deliberate fixes of libcap's text (see progs/capsh/capsh.c).
grep -qxF '  --has-b=xxx    exit 1 if capability xxx dropped' "$tmp/usage" || bad "--has-b help line"
grep -qxF '  --dropped=xxx  exit 1 unless capability xxx dropped' "$tmp/usage" || bad "--dropped help line"
grep -q 'for -- and -+$' "$tmp/usage" || bad "--shell help line"
grep -q 'not dropped' "$tmp/usage" && bad "usage still says 'not dropped'"

run -h; expect_rc 0 -h; cmp -s "$tmp/out" "$tmp/usage" || bad "-h differs from --help"
run -h --print; expect_rc 0 "-h --print"
# Help later on the line is a usage error (exit 1), after what came before.
run --mode --help; expect_rc 1 "--mode --help"
head -n 1 "$tmp/out" | grep -qx 'Mode: HYBRID\|Mode: [A-Z_0-9]*' || bad "--mode --help: no mode line first"
[ "$(wc -l <"$tmp/out")" -eq 52 ] || bad "--mode --help: want mode line + usage"
for a in --foo x - --printx --print=1 --current=1 --strict=1 --quiet=1 --help=1 -hx \
	 --has-ambientx --no-new-privsx --licensex --noam --caps --uid --inmode \
	 --decodex=1 --- -++ === =+= -+x; do
	# libcap says nothing on stderr; ours is one line naming the word
	# (cli_version_help.sh checks the suggestions).
	run "$a"; expect_rc 1 "$a"
	[ "$(wc -l <"$tmp/err")" -eq 1 ] && head -n 1 "$tmp/err" |
		grep -qF "capsh: unknown option '$a'" || bad "capsh $a: stderr [$(cat "$tmp/err")]"
	cmp -s "$tmp/out" "$tmp/usage" || bad "$a: stdout is not exactly the usage"
done
# Near misses of --mode are named before the usage.
for a in --modex --modes=1 --modesx; do
	run "$a"; expect_rc 1 "$a"
	head -n 1 "$tmp/out" | grep -qxF "unrecognized command [$a]" || bad "$a: $(head -n 1 "$tmp/out")"
done
run; expect_rc 0 "(no args)"; expect_out "" "(no args)"; expect_err "" "(no args)"
run --quiet; expect_rc 0 --quiet; expect_out "" --quiet
run --noambXYZ; expect_rc 0 --noambXYZ; expect_err "" --noambXYZ
run --noamb=all; expect_rc 0 --noamb=all
run --license --foo; expect_rc 0 "--license --foo"
head -n 1 "$tmp/out" | grep -qxF "$C see License file for details." || bad "--license first line"
[ "$(wc -l <"$tmp/out")" -eq 2 ] || bad "--license: not two lines"
run --forkfor=0; expect_rc 1 --forkfor=0; expect_err "require non-zero --forkfor value
" --forkfor=0
cmp -s "$tmp/out" "$tmp/usage" || bad "--forkfor=0: usage expected on stdout"
run --strict --strict --noenv --quiet; expect_rc 0 "flags"; expect_out "" flags
# == and =+ find capsh along PATH when argv[0] has no '/', pass on --quiet.
if b=$(command -v bash); then
	mkdir "$tmp/bin"
	cat >"$tmp/bin/capsh" <<'ARGS'
#!/bin/sh
echo "re-run: $0 $*"
ARGS
	chmod 755 "$tmp/bin/capsh"
	for op in == =+; do
		out=$(PATH="/nonexistent::$tmp/bin" "$b" -c 'exec -a capsh "$0" --quiet "$1" a b' "$C" $op 2>&1); rc=$?
		[ $rc -eq 0 ] && [ "$out" = "re-run: $tmp/bin/capsh --quiet a b" ] || bad "$op via PATH: $rc [$out]"
		out=$(PATH="/nonexistent" "$b" -c 'exec -a capsh "$0" "$1" a' "$C" $op 2>&1); rc=$?
		[ $rc -eq 1 ] && [ "$out" = "unable to find executable 'capsh' in PATH" ] || bad "$op not in PATH: $rc [$out]"
		out=$(env -u PATH "$b" -c 'exec -a capsh "$0" "$1" a' "$C" $op 2>&1); rc=$?
		[ $rc -eq 1 ] && [ "$out" = "no PATH environment variable found for re-execing" ] || bad "$op without PATH: $rc [$out]"
	done
	out=$(cd "$tmp" && "$b" -c 'exec -a ./nothere "$0" == x' "$C" 2>&1); rc=$?
	[ $rc -eq 1 ] && [ "$out" = "execve './nothere' failed!" ] || bad "== with a path: $rc [$out]"
fi
out=$("$C" --shell=/nonexistent -- x 2>&1); rc=$?
[ $rc -eq 1 ] && [ "$out" = "execve '/nonexistent' failed!" ] || bad "-- with a missing shell: $rc [$out]"
out=$("$C" --shell=/bin/sh -- -c 'echo "$0|$*"; exit 3' a b c 2>&1); rc=$?
[ $rc -eq 3 ] && [ "$out" = "a|b c" ] || bad "-- arguments: $rc [$out]"
out=$("$C" --shell=/bin/sh -+ -c 'exit 4' 2>&1); rc=$?
[ $rc -eq 4 ] || bad "-+ exit status: $rc"
# Differences 5 and 7 (progs/capsh/capsh.c): buffered output is neither lost by
# -- nor written twice by the --forkfor child.
"$C" --mode --shell=/bin/sh -- -c true >"$tmp/flush"
[ "$(wc -l <"$tmp/flush")" -eq 1 ] || bad "--mode before --: $(wc -l <"$tmp/flush") lines"
"$C" --mode --forkfor=1 >"$tmp/flush"; sleep 2
[ "$(wc -l <"$tmp/flush")" -eq 1 ] || bad "--mode --forkfor: $(wc -l <"$tmp/flush") lines"
[ $fail -eq 0 ] && echo "capsh usage and argument handling: all checks passed"
exit $fail
