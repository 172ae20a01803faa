#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# setcap "-", ours beyond what tests/cli/progs_upstream_diff.sh compares
# with libcap 2.76 (rows setcap-explains and setcap-stdin-cut of
# docs/differences.md):
# - standard input that cannot be read (closed, a directory, opened for
#   writing only) ends the run as 2.76's does, "[Error - aborting]" after
#   an empty line and no usage text, then one line of ours naming the
#   error;
# - "capability text on stdin was cut at 2048 bytes" only when more text
#   is known to wait (a file read up to its size is not cut), and last,
#   after libcap's lines for the pair.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
S=$BUILD/progs/setcap
[ -x "$S" ] || { fail "progs/setcap is not built"; finish; }
cd "$T" || exit 1
: >f
PROMPT='Please enter caps for file [empty line to end]:'
ABORT="
[Error - aborting]
setcap: cannot read capability text from standard input"
CUT="setcap: capability text on stdin was cut at 2048 bytes, as libcap's setcap reads no more; the rest was ignored"

# with_stdin REDIRECTION ARGS...: setcap ARGS with standard input as REDIRECTION
# says (run gives /dev/null; this replaces it).
with_stdin() {
	redir=$1; shift
	sh -c 'r=$1; shift; eval "exec \"\$@\" $r"' - "$redir" "$S" "$@"
}

expect_lines 1 "" "$PROMPT$nl$ABORT: Bad file descriptor" with_stdin '<&-' - f
expect_lines 1 "" "$ABORT: Bad file descriptor" with_stdin '<&-' -q - f
expect_lines 1 "" "$PROMPT$nl$ABORT: Is a directory" with_stdin "<$T" - f
expect_lines 1 "" "$PROMPT$nl$ABORT: Bad file descriptor" with_stdin '0>/dev/null' -v - f
[ -z "$(xattr_hex f)" ] && pass || fail "an unreadable stdin wrote $(xattr_hex f)"

# Text that does not parse, so that no privilege is needed: exactly 2048
# bytes, all of it read, and one byte more.
pad() {	# LENGTH TEXT: TEXT after blanks, LENGTH bytes in all
	perl -e 'print " " x ($ARGV[0] - length $ARGV[1]), $ARGV[1]' "$1" "$2"
}
pad 2048 cap_bogus=ep >bad2048
pad 2049 cap_bogus=ep >bad2049
{ pad 2048 cap_bogus=ep; pad 2048 cap_kill=ep; } >bad4096

# cut_note CASE WANT: stderr's last line is the note (WANT yes) or no
# line is (no); the exit status is 1 either way.
cut_note() {
	[ "$rc" = 1 ] && pass || fail "$1: exit $rc, want 1"
	if [ "$2" = yes ]; then
		[ "$(tail -n 1 "$T/err")" = "$CUT" ] && pass ||
			fail "$1: the cut note is not the last line: $(tail -n 2 "$T/err")"
		[ "$(grep -c -F "$CUT" "$T/err")" = 1 ] && pass || fail "$1: not one cut note"
	else
		grep -q -F "$CUT" "$T/err" && fail "$1: a cut note, but nothing was cut" || pass
	fi
	pass
}
run with_stdin "<bad2048" -q - f
cut_note "a file of exactly 2048 bytes" no
run with_stdin "<bad2049" -q - f
cut_note "a file of 2049 bytes" yes
run sh -c 'cat bad2048 | "$0" -q - f' "$S"
cut_note "a pipe of exactly 2048 bytes" no
# One write of 4096 bytes (PIPE_BUF): the rest is there when setcap looks.
run sh -c 'cat bad4096 | "$0" -q - f' "$S"
cut_note "a pipe of 4096 bytes" yes

# Text that parses once cut, and is written: the note follows the write.
if [ "$(id -u)" = 0 ]; then
	pad 2048 cap_chown=ep >ok2048
	{ pad 2048 cap_chown=ep; printf ' cap_kill=ep'; } >ok2060
	expect_lines 0 "" "" with_stdin "<ok2048" -q - f
	[ "$(xattr_hex f)" = 0x0100000201000000000000000000000000000000 ] && pass ||
		fail "2048 bytes: wrote $(xattr_hex f)"
	expect_lines 0 "" "$CUT" with_stdin "<ok2060" -q - f
	expect_lines 0 "f: OK" "$PROMPT$nl$CUT" with_stdin "<ok2060" -v - f
else
	not_checked "not root: the cut note after a write is not checked"
fi
finish
