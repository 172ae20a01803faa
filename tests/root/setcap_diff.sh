#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# Differential test: our progs/setcap and Debian's setcap (libcap
# 2.66) run on identical fixtures must give byte-identical stdout, stderr,
# exit status and resulting security.capability bytes, for every argument
# list in the table below, once both went through the rows of
# docs/differences.md (tests/tools/rows.pl): 2.66's output as 2.76 prints
# it (its usage text, its "argument:" line), ours without what we add on
# purpose ("setcap: " cause lines and warnings, usage lines ending "(not
# in libcap)"), which setcap_ours.sh checks.
#
# Rows are only cases where 2.66 and 2.76 agree. We follow 2.76 on purpose,
# so these are left out here and asserted in setcap_ours.sh instead:
#   -f (2.66 parses it as capability text);
#   whitespace-only text " " or "" (2.66 writes an empty set, 2.76 refuses);
#   a partial effective set such as "cap_chown=ep cap_kill=p" (2.66 tries,
#     fails and prints "NOTE: Under Linux, ..." before "Invalid file"; 2.76
#     prints "Error: under Linux, ..." and does not write) and
#     "cap_chown=p cap_kill=ep" (2.76: "Invalid file" without the NOTE);
#   "cap_chown=ep cap_kill=e" (2.66 writes cap_chown=ep; 2.76 refuses
#     unless -f);
#   an effective bit with nothing to raise, "=e", "cap_net_raw+e" or
#     "cap_chown=ep cap_chown-p" (2.66 writes a lone effective flag and
#     exits 0; 2.76 refuses before writing);
#   the refusals among these are kept below as "!" rows;
#   --license (2.66 prints the option where 2.76 prints argv[0]);
#   a FIFO (Debian's 2.66 blocks forever in open());
#   -n with a value that wraps (" -5", 18446744073709551616,
#     9223372036854775808: libcap narrows it to uid_t, 0 writing a v2
#     capability); we refuse it, see root/progs_numbers_range.sh.
# Rows starting "!" are effective sets 2.76 refuses and 2.66 writes: for
# them the expected result is 2.76's, not Debian's setcap's (exit 1, its
# two "Error: under Linux, ..." lines, empty stdout, nothing written);
# root/setcap_effective.sh checks our added lines and -f.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
# Users and groups by name (nobody, nogroup) from the base accounts only.
private_etc "$@"
ours=$BUILD/progs/setcap
need_reference 2.66
ref=$REF/setcap
command -v setfattr >/dev/null && command -v getfattr >/dev/null ||
	skip "setfattr/getfattr (attr) are not installed"
[ -x "$ours" ] || { fail "progs/setcap is not built"; finish; }
chmod 755 "$T"

# f: cap_net_raw=ep (v2); n: cap_kill=p with rootid 1000 (v3); g: no caps.
make_fixture() {
	mkdir "$1" && chmod 755 "$1" && cd "$1" || exit 1
	touch f g n && chmod 644 f g n
	setfattr -n security.capability \
		-v 0x0100000200200000000000000000000000000000 f
	setfattr -n security.capability \
		-v 0x0000000320000000000000000000000000000000e8030000 n
	ln -s g link
	mkdir d
	cd - >/dev/null || exit 1
}

# The xattr of every fixture entry, after the run.
xattrs() {
	(cd "$1" && getfattr -e hex -n security.capability f g n d 2>&1)
}

cat >"$T/rows" <<'EOF'

-h
-q -h
-h x y
-q
-v
-v -q
-r
-n
cap_chown=ep f -n
-n 0 = g
-n -5 = g
-n -0 = g
-n abc = g
-n 0x = g
-n '' = g
-n '5 ' = g
-n 00 = g
bogus g
bogus
cap_chown=p
-v g
g -h
-- g
cap_chown=p g bogus f
cap_chown=p g
cap_net_raw=ep g
cap_perfmon=ep g
cap_perfmon,cap_bpf=eip g
all=p g
all=eip g
= g
!=e g
!cap_net_raw+e g
!'cap_chown=ep cap_chown-p' g
!'cap_chown=ep cap_kill=e' g
!'cap_chown=ep cap_kill=p' g
!-q -n 1000 cap_net_raw+e g
!<cap_net_raw+e\n|-q - g
'cap_chown=p 41+p' g
63=p g
cap_chown+i g
'cap_chown=p cap_setfcap,cap_perfmon+i' g
CAP_PERFMON=ep g
-r f
-r g
-q -r g
-r n
-r link
cap_chown=p link
= d
-r d
cap_chown=p nonexist
cap_chown=p nodir/x
= f/x
= /proc/version
-v cap_net_raw=ep f
-v cap_net_raw=p f
-v cap_net_raw=eip f
-v = f
-v = g
-v -r g
-v -r f
-v = nonexist
-v -r nonexist
-v = link
-v = d
-q -v cap_chown=p f
-q -v cap_net_raw=ep f
-v =e g
-v cap_kill=p n
-v -n 1000 cap_kill=p n
-v -n 0x10 cap_kill=p n
-v -n 4294967295 = n
-v -n 7 -r g
-v -n 7 = g
-v -n 1000 -r n
-n 1000 cap_net_raw=ep g
-n 010 = g
-n +5 cap_chown=p g
-n 4294967295 = g
cap_chown=p g cap_kill=p f
cap_chown=p g cap_kill=p
cap_chown=p g -v cap_chown=p g
-v cap_chown=p g -q cap_kill=p g
-v cap_chown=p g cap_chown=p g
-r f -r f
-n 1000 cap_chown=p g -v cap_chown=p g
<cap_net_raw=ep\n|- g
<|- g
<\ncap_kill=p|- g
<cap_kill=p|-q - g
<bogus\n|- g
<cap_chown=p\n|- g - f
<cap_chown=p\n\ncap_kill=i\n|- g
<cap_chown=p\n|-v - g
EOF

# As nobody: no CAP_SETFCAP to raise. Only meaningful once our library
# has cap_get_proc/cap_set_proc; without them setcap cannot detect it.
if nm -D --defined-only "$BUILD/libcap/libcap.so.2" | grep -q ' cap_set_proc$'; then
	cat >>"$T/rows" <<'EOF'
@= g
@-r f
@-v cap_net_raw=ep f
@-v = g
EOF
fi

run_row() {		# run_row <setcap> <dir> <row> <prefix>: runs it in <dir>; leaves
			# <prefix>.out, .err, .rc and .xattrs
	prog=$1 dir=$2 args=$3 pre=$4 input= as_nobody=
	case $args in
	'<'*) input=${args%%|*}; input=${input#<}; args=${args#*|} ;;
	esac
	case $args in
	'@'*) as_nobody=1; args=${args#@} ;;
	esac
	(
		cd "$dir" || exit 1
		eval "set -- $args"
		if [ -n "$as_nobody" ]; then
			printf "$input" | setpriv --reuid=nobody --regid=nogroup \
				--clear-groups "$prog" "$@" >"$pre.out" 2>"$pre.err"
		else
			printf "$input" | "$prog" "$@" >"$pre.out" 2>"$pre.err"
		fi
		echo $? >"$pre.rc"
	)
	xattrs "$dir" >"$pre.xattrs"
}

make_fixture "$T/fixture"
xattrs "$T/fixture" >"$T/fixture.xattrs"
# What 2.76 prints when it refuses an effective set, as it prints it.
printf '%s\n' \
	'Error: under Linux, effective file capabilities must either be empty, or' \
	'       exactly match the union of selected permitted and inheritable bits.' \
	>"$T/refused.err"
[ "$(getfattr --absolute-names -e hex -n security.capability "$T/fixture/n")" ] ||
	{ fail "could not write the v3 fixture"; finish; }
# Each row runs now; its outputs (R/N.a.* libcap's, R/N.b.* ours) are
# judged once all ran, so that rows.pl (a perl start and the rules
# compiled) runs four times in all, not four times a row.
R=$T/r
mkdir "$R" || exit 1
n=0 ran266= n266=0
while IFS= read -r row; do
	n=$((n + 1))
	rm -rf "$T/a" "$T/b"
	cp -a "$T/fixture" "$T/a"; cp -a "$T/fixture" "$T/b"
	case $row in
	'!'*)
		# 2.76's refusal, not 2.66's write, is what we compare with.
		row=${row#!} label="$row (as 2.76)"
		: >"$R/$n.a.out" && echo 1 >"$R/$n.a.rc" &&
			cp "$T/fixture.xattrs" "$R/$n.a.xattrs" &&
			cp "$T/refused.err" "$R/$n.a.err" || exit 1 ;;
	*)
		label=$row
		ran266="$ran266 $n" n266=$((n266 + 1))
		run_row "$ref" "$T/a" "$row" "$R/$n.a" ;;
	esac
	eval "label_$n=\$label"
	run_row "$ours" "$T/b" "$row" "$R/$n.b"
done <"$T/rows"
# Both through the rows of docs/differences.md (tests/tools/rows.pl),
# which keep a message without a final newline so: 2.66's output as 2.76
# prints it (not the "!" rows, 2.76's already), ours without our
# additions. One check a row and side, as when each row ran them.
rows_ok=1
for s in out err; do
	(cd "$R" && perl "$TESTS_DIR/tools/rows.pl" 2.66 setcap $s $(for i in $ran266; do echo "$i.a.$s"; done)) &&
		(cd "$R" && perl "$TESTS_DIR/tools/rows.pl" ours setcap $s *.b.$s) ||
		{ fail "tests/tools/rows.pl failed"; rows_ok=; }
done
[ -z "$rows_ok" ] || checks=$((checks + n266 + n))
i=0
while [ $i -lt $n ]; do
	i=$((i + 1))
	eval "label=\$label_$i"
	for what in out rc xattrs; do
		if ! cmp -s "$R/$i.a.$what" "$R/$i.b.$what"; then
			fail "row $i [$label]: $what differs (< libcap, > ours)"
			diff "$R/$i.a.$what" "$R/$i.b.$what" | head -10
		else
			pass
		fi
	done
	if ! cmp -s "$R/$i.a.err" "$R/$i.b.err"; then
		fail "row $i [$label]: stderr differs (< libcap, > ours)"
		diff "$R/$i.a.err" "$R/$i.b.err" | head -10
	else
		pass
	fi
done
[ "$n" -ge 90 ] && pass || fail "only $n rows ran"
[ "$fails" -eq 0 ] || echo "$fails differences in $n rows"
finish "$n argument lists: stdout, stderr, exit status and xattrs identical to libcap 2.66 (2.76 for the ! rows)"
