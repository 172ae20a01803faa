#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# libcap.so.2, libpsx.so.2 and pam_cap.so run as programs, as libcap's do
# (Debian's, copied and made executable, are the reference when present):
#  - libcap.so.2 names itself and its version; --summary gives the mode
#    and the number of capabilities the running kernel knows (that of
#    /proc/sys/kernel/cap_last_cap) in libcap's lines, then their names;
#    --help and --usage print the usage line, status 0; an unknown
#    argument prints it with status 1;
#  - libpsx.so.2 names itself and its version, status 0 whatever the
#    arguments;
#  - pam_cap.so names its version; --help lists the module arguments
#    libcap's lists; anything else is status 1;
#  - each is still a position-independent shared object that exports no
#    entry symbol, and the static archives carry no entry point.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
# section_ok WHAT: "ok: WHAT" when the section since the last one failed nothing.
mark=0
section_ok() { [ $fails -eq $mark ] && ok "$*"; mark=$fails; }
ver=2.76

last=$(cat /proc/sys/kernel/cap_last_cap 2>/dev/null) ||
	skip "no /proc/sys/kernel/cap_last_cap to compare with"
kernel=$((last + 1))

# Debian's libraries, copied so that they may be executed.
sysdir=
if has_reference 2.66 libcap2 libpam-cap; then
	sysdir=$REF_LIB
else
	not_checked "no comparison of formats with Debian's libraries: $reference_why"
fi
mkdir "$T/ours" "$T/deb"
cp "$BUILD/libcap/libcap.so.2" "$BUILD/psx/libpsx.so.2" "$BUILD/pam_cap/pam_cap.so" "$T/ours/"
chmod 755 "$T/ours/"*
if [ -n "$sysdir" ]; then
	cp "$sysdir/libcap.so.2" "$sysdir/libpsx.so.2" "$sysdir/security/pam_cap.so" "$T/deb/" ||
		{ fail "Debian's libraries are not all in $sysdir"; finish; }
	chmod 755 "$T/deb/"*
fi

# run_lib NAME ARGS...: ours into $T/o (status $ro), Debian's into $T/d ($rd).
# Under valgrind only the richest run of each library is checked (memck=1:
# --summary, --help), to keep the pass cheap; the others run as they are.
memck=0
run_lib() {
	lib=$1; shift
	if [ $memck = 1 ]; then
		run_ours "$T/ours/$lib" "$@" >"$T/o" 2>"$T/oe"; ro=$?
	else
		"$T/ours/$lib" "$@" >"$T/o" 2>"$T/oe"; ro=$?
	fi
	memck=0
	rd=
	if [ -n "$sysdir" ]; then
		ref_env "$T/deb/$lib" "$@" >"$T/d" 2>/dev/null; rd=$?
	fi
	if [ $ro -ge 128 ]; then
		fail "$lib $*: killed by signal $((ro - 128))"; sed 's/^/    /' "$T/oe"
	else
		pass
	fi
}
status_is() {	# label want
	[ $ro -eq "$2" ] && pass || { fail "$1: status $ro, want $2"; sed 's/^/    /' "$T/o" "$T/oe"; }
	[ -z "$rd" ] || [ "$rd" -eq "$2" ] && pass || fail "$1: Debian's status $rd, want $2 (test out of date?)"
}
# The path and the version number replaced, so that formats compare.
shape() {	# file lib line
	sed -n "$3p" "$1" | sed -e "s|^$T/[a-z]*/$2|LIB|" -e 's/-2\.[0-9][0-9]*/-VERSION/'
}
same_shape() {	# label lib line
	[ -n "$sysdir" ] || return 0
	o=$(shape "$T/o" "$2" "$3") d=$(shape "$T/d" "$2" "$3")
	[ "$o" = "$d" ] && pass || fail "$1: line $3 is \"$o\", Debian's \"$d\""
}

# --- libcap.so.2 -------------------------------------------------------
first="$T/ours/libcap.so.2 is the shared library version: libcap-$ver."
run_lib libcap.so.2
status_is "libcap.so.2" 0
[ "$(head -n 1 "$T/o")" = "$first" ] && pass || fail "libcap.so.2: first line \"$(head -n 1 "$T/o")\""
same_shape "libcap.so.2" libcap.so.2 1

memck=1 run_lib libcap.so.2 --summary
status_is "libcap.so.2 --summary" 0
same_shape "libcap.so.2 --summary" libcap.so.2 1
# Debian's libcap 2.66 names 41 capabilities; ours as many as its table.
named=$(grep -c '^CAP_FACT(' "$TOP/private/caps.def")
for key in "Current mode:" "Number of cap values known to:"; do
	o=$(grep "^$key" "$T/o") && pass || fail "libcap.so.2 --summary: no \"$key\" line"
	d=$(grep "^$key" "$T/d" 2>/dev/null | sed "s/this libcap=41,/this libcap=$named,/")
	[ -z "$sysdir" ] || [ "$o" = "$d" ] && pass ||
		fail "libcap.so.2 --summary: \"$o\", Debian's \"$d\""
done
grep -qx "Number of cap values known to: this libcap=$named, running kernel=$kernel" "$T/o" && pass ||
	fail "libcap.so.2 --summary: the counts are not $named (private/caps.def) and $kernel (cap_last_cap $last)"
names=$(sed -n 's/^Capabilities of the running kernel: //p' "$T/o")
set -- $names
[ $# -eq $kernel ] && pass || fail "libcap.so.2 --summary: $# names, the kernel knows $kernel"
if has_reference 2.66 && [ $kernel -lt 64 ]; then
	# Debian's capsh names them too (numbers past its table, as ours).
	want=$("$REF/capsh" --decode=$(printf '0x%x' $(( (1 << kernel) - 1 ))) |
	       sed 's/^[^=]*=//; s/,/ /g')
	[ "$names" = "$want" ] && pass || fail "libcap.so.2 --summary names: \"$names\", capsh: \"$want\""
fi
[ -z "$names" ] || section_ok "libcap.so.2 --summary: $kernel capabilities, $1 ... $(eval echo \"\${$#}\")"

for arg in --help --usage; do
	run_lib libcap.so.2 $arg
	status_is "libcap.so.2 $arg" 0
	[ "$(tail -n 1 "$T/o")" = "usage: libcap.so [--help|--usage|--summary]" ] && pass ||
		fail "libcap.so.2 $arg: last line \"$(tail -n 1 "$T/o")\""
	[ -z "$sysdir" ] || [ "$(tail -n 1 "$T/o")" = "$(tail -n 1 "$T/d")" ] && pass ||
		fail "libcap.so.2 $arg: usage line differs from Debian's \"$(tail -n 1 "$T/d")\""
done
run_lib libcap.so.2 --no-such-option
status_is "libcap.so.2 --no-such-option" 1
grep -qx "usage: libcap.so \[--help|--usage|--summary\]" "$T/o" && pass ||
	fail "libcap.so.2 --no-such-option: no usage line"
section_ok "libcap.so.2: version line, --summary, --help, --usage, bad option"

# --- libpsx.so.2 -------------------------------------------------------
for args in "" "--help"; do
	memck=1 run_lib libpsx.so.2 $args
	status_is "libpsx.so.2 $args" 0
	[ "$(head -n 1 "$T/o")" = "$T/ours/libpsx.so.2 is the shared library version: libpsx-$ver." ] && pass ||
		fail "libpsx.so.2 $args: first line \"$(head -n 1 "$T/o")\""
	same_shape "libpsx.so.2 $args" libpsx.so.2 1
done
section_ok "libpsx.so.2: version line"

# --- pam_cap.so --------------------------------------------------------
run_lib pam_cap.so
status_is "pam_cap.so" 0
case $(head -n 1 "$T/o") in
"$T/ours/pam_cap.so (version libcap-$ver) "*) ;;
*) fail "pam_cap.so: first line \"$(head -n 1 "$T/o")\"" ;;
esac
[ -z "$sysdir" ] || [ "$(shape "$T/o" pam_cap.so 1 | cut -d' ' -f1-3)" = \
	"$(shape "$T/d" pam_cap.so 1 | cut -d' ' -f1-3)" ] && pass ||
	fail "pam_cap.so: first line's shape differs from Debian's: $(head -n 1 "$T/d")"
memck=1 run_lib pam_cap.so --help
status_is "pam_cap.so --help" 0
args() { sed -n 's/^\([a-z]*=*[<a-z>]*\) *- .*/\1/p' "$1" | tr '\n' ' '; }
o=$(args "$T/o")
[ "$o" = "debug config=<file> keepcaps autoauth default=<iab> defer " ] && pass ||
	fail "pam_cap.so --help: module arguments \"$o\""
[ -z "$sysdir" ] || [ "$o" = "$(args "$T/d")" ] && pass ||
	fail "pam_cap.so --help: arguments \"$o\", Debian's \"$(args "$T/d")\""
for args in "--usage" "--help extra"; do
	run_lib pam_cap.so $args
	status_is "pam_cap.so $args" 1
done
section_ok "pam_cap.so: version line, --help's arguments, bad option"

# --- still shared libraries ----------------------------------------------
interp=$(readelf -lW /bin/sh | sed -n 's/.*program interpreter: \(.*\)\]$/\1/p')
for lib in libcap.so.2 libpsx.so.2 pam_cap.so; do
	f=$T/ours/$lib
	readelf -hW "$f" | grep -q 'Type: *DYN' && pass || fail "$lib is not ELF type DYN"
	readelf -dW "$f" | grep -q TEXTREL && fail "$lib has text relocations (not position-independent)" || pass
	got=$(readelf -lW "$f" | sed -n 's/.*program interpreter: \(.*\)\]$/\1/p')
	[ -z "$interp" ] || [ "$got" = "$interp" ] && pass || fail "$lib: interpreter \"$got\", /bin/sh's \"$interp\""
	nm -D --defined-only "$f" | grep -i 'exec_entry\|so_start' && fail "$lib exports its entry point" || pass
done
for a in "$BUILD/libcap/libcap.a" "$BUILD/psx/libpsx.a"; do
	ar t "$a" | grep exec_entry && fail "$a carries the entry point (its .interp would reach programs)" || pass
done

finish "our libraries run as programs and say what they are"
