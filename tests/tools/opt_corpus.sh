#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# Before/after corpus of the programs' option handling, to prove a change of
# it changes no output: runs every program of a build over a broad set of
# option cases (each option, bad options, missing arguments, --help,
# --version, typos, combinations) in a fresh temp dir and records stdout,
# stderr and the exit status of each case in one file per case under OUTDIR.
# Run it for two builds and compare with "diff -r": an option table or a
# split function must not change one byte.
#
#   sh tests/tools/opt_corpus.sh BUILD_DIR/progs OUTDIR
#
# The cases are in opt_corpus.cases beside this script (one shell command
# line each; "root " first: only as root), which
# tests/cli/progs_upstream_diff.sh also runs against upstream's programs.
# Some cases change file capabilities and need root (they are skipped
# otherwise, in both runs alike). Programs run as "name" through PATH, so
# argv[0] is the same whichever build they come from.
progs=$(cd "$1" && pwd) || exit 2
out=$2
mkdir -p "$out" || exit 2
out=$(cd "$out" && pwd)
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
tmp=$T
mkdir "$tmp/bin" "$tmp/w"
for p in setcap getcap getpcaps capsh capmanifest perfdoctor capcheck; do
	ln -s "$progs/$p" "$tmp/bin/$p"
done
PATH=$tmp/bin:/usr/sbin:/usr/bin:/sbin:/bin
export PATH
LC_ALL=C
export LC_ALL
cd "$tmp/w" || exit 2
root=0
[ "$(id -u)" = 0 ] && root=1

# The fixture: a small tree, a capability.conf, an empty PAM directory.
mkdir -p tree/sub tree/d2 pam
: >tree/plain
: >tree/sub/f
cp /bin/true tree/t1
: >tree/d2/g
printf 'cap_net_raw alice\ncap_bogus bob\n!cap_sys_admin carol\nnone *\n' >cap.conf
printf 'auth optional pam_cap.so\n' >pam/login
if [ $root = 1 ]; then
	setcap cap_net_raw+ep tree/t1 2>/dev/null
	setcap cap_sys_time=p tree/sub/f 2>/dev/null
fi

n=0
# case WORDS...: one case, run through "sh -c" so quoting in the list is kept.
run_case() {
	n=$((n + 1))
	f=$(printf '%s/%04d' "$out" $n)
	printf '%s\n' "$1" >"$f.cmd"
	sh -c "$1" </dev/null >"$f.out" 2>"$f.err"
	echo $? >"$f.rc"
}

while IFS= read -r line; do
	case $line in
	'' | '#'*) continue ;;
	'root '*) [ $root = 1 ] || continue; line=${line#root } ;;
	esac
	run_case "$line"
done <"${TESTS_DIR:-$(dirname "$0")/..}/tools/opt_corpus.cases"
echo "$n cases in $out"
