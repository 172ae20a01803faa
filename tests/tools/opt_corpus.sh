#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# Before/after corpus of the programs' option handling (issue 15, items 4
# and 8): runs every program of a build over a broad set of option cases
# (each option, bad options, missing arguments, --help, --version, typos,
# combinations) in a fresh temp dir and records stdout, stderr and the exit
# status of each case in one file per case under OUTDIR. Run it for two
# builds and compare with "diff -r": an option table or a split function
# must not change one byte.
#
#   sh tests/tools/opt_corpus.sh BUILD_DIR/progs OUTDIR
#
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
done <<'CASES'
# --- capsh
capsh
capsh --help
capsh -h
capsh --print --help
capsh --quiet --help
capsh --version
capsh --license
capsh --print
capsh --json --print
capsh --current
capsh --decode=0x3
capsh --decode=zz
capsh --decode=
capsh --json --decode=0x1ff
capsh --explain=cap_perfmon
capsh --explain=cap_prefmon
capsh --explain=
capsh --suggest=network
capsh --suggest=
capsh --supports=cap_net_raw
capsh --supports=cap_bogus
capsh --has-p=cap_net_raw
capsh --has-i=cap_net_raw
capsh --has-a=cap_net_raw
capsh --has-b=cap_net_raw
capsh --has-b=nonsense
capsh --dropped=cap_chown
capsh --has-ambient
capsh --has-no-new-privs
capsh --is-uid=0
capsh --is-uid=12345
capsh --is-gid=0
capsh --is-uid=abc
capsh --inmode=NOPRIV
capsh --inmode=bogus
capsh --mode
capsh --modes
capsh --modex
capsh --mode=bogus
capsh --noamb --print
capsh --noambXYZ
capsh --strict --strict --print
capsh --noenv
capsh --quiet --print
capsh --print --quiet
capsh --printx
capsh --jsn
capsh --explian=cap_chown
capsh bogus
capsh -x
capsh --
capsh --shell=/bin/true -- -c 'exit 3'
capsh --shell=/bin/true == --print
capsh -- -c 'echo hi; exit 4'
capsh == --print
capsh --shell=/bin/false -+ -c x
capsh =+ --has-p=cap_bogus
capsh --quiet =+ --print
capsh --license --print
capsh --version --print
capsh -h --print
capsh --print -h
capsh --mode= 
capsh --noamb=
capsh --json --decode=0x3 --current
capsh --secbits=abc
capsh --keep=2x
capsh --uid=abc
capsh --gid=abc
capsh --groups=abc
capsh --user=no-such-user-zz
capsh --cap-uid=x
capsh --forkfor=x
capsh --killit=9
capsh --chroot=/nonexistent
capsh --caps=bogus
capsh --caps=cap_bogus+ep
capsh --inh=cap_bogus
capsh --drop=cap_bogus
capsh --addamb=cap_bogus
capsh --delamb=cap_bogus
capsh --iab=bogus
capsh --iab=!cap_chwn
root capsh --drop=cap_net_raw --has-b=cap_net_raw
root capsh --caps=cap_chown+ep --print
root capsh --inh=cap_net_raw --print
root capsh --addamb=cap_net_raw
root capsh --caps=cap_net_raw+eip --addamb=cap_net_raw --has-a=cap_net_raw --print
root capsh --secbits=0x2f --print
root capsh --keep=1 --print
root capsh --uid=1 --print
root capsh --gid=1 --groups=2,3 --print
root capsh --iab=!cap_chown --current
root capsh --no-new-privs --has-no-new-privs
root capsh --mode=NOPRIV --mode
root capsh --chroot=/ --print
root capsh --strict --caps=cap_chown+ep
root capsh --noamb --delamb=cap_chown
# --- getcap
getcap
getcap -h
getcap --help
getcap --usage
getcap -l
getcap --version
getcap --version=1
getcap --json=1
getcap --audit=1
getcap --one-file-system=1
getcap --exclude
getcap --excldue=x tree
getcap --jsn tree
getcap --bogus tree
getcap --hel
getcap -Q tree
getcap -r
getcap tree/t1 tree/plain tree/none
getcap -v tree/t1 tree/plain tree tree/none
getcap -r tree
getcap -rv tree
getcap -r -n tree
getcap -r -x tree
getcap -r --one-file-system tree/
getcap -r --exclude=tree/sub tree
getcap -r --exclude=nowhere tree
getcap -r --exclude tree/sub tree
getcap --json -r tree
getcap --audit -r tree
getcap --audit --json -rv tree
getcap --j tree/t1
getcap -rvx tree -- tree/t1
getcap --ex
getcap --one=1 tree
getcap -rQ tree
getcap -Qr tree
getcap -r --exc tree/sub tree
getcap --help=x
getcap --usag
# --- setcap
setcap
setcap -h
setcap --help
setcap --license
setcap --version
setcap -q
setcap -n
setcap -n 0 cap_chown+ep tree/plain
setcap -n abc cap_chown+ep tree/plain
setcap -n 4294967296 cap_chown+ep tree/plain
setcap -n -1 cap_chown+ep tree/plain
setcap cap_chown+ep
setcap bogus tree/plain
setcap cap_chwn+ep tree/plain
setcap cap_chown+ep tree/none
setcap -r tree/none
setcap -v cap_net_raw+ep tree/t1
setcap -v cap_chown+ep tree/t1
setcap -v -r tree/plain
setcap --perf
setcap --perf=bogus tree/plain
setcap --perf-group
setcap --perf-group= --perf tree/plain
setcap --perf-group=no-such-group-zz --perf tree/plain
setcap --perf-group=root tree/plain
setcap - tree/plain
setcap -x tree/plain
setcap cap_chown+e tree
root setcap cap_chown+ep tree/plain
root setcap -r tree/plain
root setcap -r tree/plain
root setcap -f -r tree/plain
root setcap cap_chown+p cap_net_raw+ep tree/plain
root setcap cap_chown,cap_net_raw+e-p tree/plain
root setcap -q cap_chown+e tree/plain
root setcap -f cap_chown+e tree/plain
root setcap -n 1000 cap_chown+ep tree/plain
root setcap cap_chown+ep tree/plain -r tree/plain
root setcap -v cap_chown+ep tree/plain
root setcap cap_chown+ep tree/sub
root echo cap_kill+ep | setcap - tree/plain
root echo cap_kill+ep | setcap -q - tree/plain
root setcap --perf tree/plain
root setcap -v --perf tree/plain
root setcap --perf=record tree/plain
root setcap --perf-group=root --perf tree/plain
root setcap --perf-group=root --perf-group=root --perf tree/plain
# --- getpcaps
getpcaps
getpcaps --help
getpcaps -h
getpcaps --usage
getpcaps --license
getpcaps --version
getpcaps 1
getpcaps --verbose 1
getpcaps --ugly 1
getpcaps --legacy 1
getpcaps --iab 1
getpcaps --json 1
getpcaps --json --iab 1
getpcaps abc
getpcaps -1
getpcaps --jsn 1
getpcaps --verbsoe 1
getpcaps 999999999
getpcaps 1 abc 1
# --- capmanifest
capmanifest
capmanifest -h
capmanifest --help
capmanifest --version
capmanifest recrod tree
capmanifest bogus
capmanifest record
capmanifest record tree extra
capmanifest verify tree
capmanifest record --bogus tree
capmanifest record --dry-rn tree
capmanifest record -q tree
capmanifest record -n tree
capmanifest verify --fix-owner m tree
capmanifest record --listed-only tree
capmanifest record --help
capmanifest restore -h
capmanifest record --version
capmanifest restore --d -n --f --a --l --i m tree
capmanifest restore --fix m tree
capmanifest record --help=x
capmanifest record -- tree
capmanifest verify -xh
capmanifest record --fix-owner=1 tree
capmanifest verify nonexistent tree
capmanifest record tree
capmanifest record -x tree
capmanifest record --one-file-system --include-pseudo tree
capmanifest record tree/none
capmanifest record tree > m && capmanifest verify m tree
capmanifest record tree > m && capmanifest restore -n m tree
capmanifest record tree > m && capmanifest restore --dry-run --fix-owner --listed-only m tree
capmanifest record tree > m && capmanifest restore --allow-v1 -n m tree
printf 'capmanifest 1\n' > m1 && capmanifest restore m1 tree
printf 'capmanifest 1\n' > m1 && capmanifest verify m1 tree
printf 'garbage\n' > m2 && capmanifest verify m2 tree
: > m3 && capmanifest verify m3 tree
capmanifest record tree | head -1 > m4 && printf '%s\n' '# c' '' 'nospace' './a\\999 =p' '/abs =p' './b owner=x =p' './c owner=0 group=0 mode=0755 acl=no =p [rootid=-1]' './d owner=0 group=0 mode=0755 acl=no cap_bogus+p' '!unread ../x' '!unread ./ok' './e owner=0 group=0 mode=0755 acl=no cap_chown=p' './e owner=0 group=0 mode=0755 acl=no cap_kill=p' >> m4 && capmanifest verify m4 tree
capmanifest record tree | head -1 > m5 && printf '%s\n' './e owner=0 group=0 mode=0755 acl=no cap_chown=p' './e owner=0 group=0 mode=0755 acl=no cap_kill=p' >> m5 && capmanifest verify m5 tree
printf '# capmanifest 1\n./t1 cap_net_raw=ep\n./x cap_chown=p [rootid=5]\n' > m6 && capmanifest verify m6 tree
printf '# capmanifest 1\n./t1 cap_net_raw=ep\000x\n' > m7 && capmanifest verify m7 tree
capmanifest verify tree tree
root capmanifest record tree > m && setcap -r tree/t1 && capmanifest verify m tree; capmanifest restore m tree; getcap tree/t1
root capmanifest record tree > m && chmod 0777 tree/t1 && capmanifest restore m tree; capmanifest restore --fix-owner m tree; chmod 0755 tree/t1
# --- perfdoctor
perfdoctor -h
perfdoctor --help
perfdoctor --version
perfdoctor --version=1
perfdoctor --bogus
perfdoctor --usr=x
perfdoctor --user
perfdoctor -u
perfdoctor -p
perfdoctor --pid=abc
perfdoctor --pid=0
perfdoctor --pid=-3
perfdoctor --pid=99999999999
perfdoctor -x
perfdoctor --p=1
perfdoctor --pa=pam --config=cap.conf
perfdoctor -D pam
perfdoctor --help=x
perfdoctor --servic
perfdoctor a b
perfdoctor --pam-dir=pam --config=cap.conf /bin/true
perfdoctor --pam-dir=pam --config=cap.conf --pid=1 /bin/true
perfdoctor --pam-dir=pam --config=cap.conf -p 1 tree/t1
perfdoctor --pam-dir=pam --config=cap.conf --user=root /bin/true
perfdoctor --pam-dir=pam --config=cap.conf --user=no-such-user-zz /bin/true
perfdoctor --pam-dir=pam --config=cap.conf --user=daemon --service=login /bin/true
perfdoctor --pam-dir=pam --config=cap.conf -u daemon -c cap.conf --service=login,sshd,nope /bin/true
perfdoctor --pam-dir=nopam --config=nocap.conf --user=daemon /bin/true
perfdoctor --pam-dir=pam --config=cap.conf tree/none
# --- capcheck
capcheck -h
capcheck --help
capcheck --version
capcheck --version=x
capcheck --config
capcheck -c
capcheck --confg=cap.conf
capcheck --bogus
capcheck -x
capcheck --c cap.conf
capcheck --help=x
capcheck -V
capcheck --config=nonexistent
capcheck --config=cap.conf
capcheck --config cap.conf alice bob carol dave
capcheck -c cap.conf root
capcheck -c /dev/null alice
CASES
echo "$n cases in $out"
