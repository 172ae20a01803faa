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
set -u
. "$TESTS_DIR/lib.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
bad=0 mark=0
fail() { echo "FAIL: $*"; bad=$((bad + 1)); }
ok() { [ $bad -eq $mark ] && echo "ok: $*"; mark=$bad; }	# a section passed
ver=2.76

last=$(cat /proc/sys/kernel/cap_last_cap 2>/dev/null) ||
	{ echo "skipped: no /proc/sys/kernel/cap_last_cap to compare with"; exit 77; }
kernel=$((last + 1))

# Debian's libraries, copied so that they may be executed.
sysdir=
for d in /lib/*-linux-gnu /usr/lib/*-linux-gnu /lib64 /usr/lib; do
	[ -f "$d/libcap.so.2" ] && [ -f "$d/libpsx.so.2" ] &&
		[ -f "$d/security/pam_cap.so" ] && { sysdir=$d; break; }
done
mkdir "$tmp/ours" "$tmp/deb"
cp "$BUILD/libcap/libcap.so.2" "$BUILD/psx/libpsx.so.2" "$BUILD/pam_cap/pam_cap.so" "$tmp/ours/"
chmod 755 "$tmp/ours/"*
if [ -n "$sysdir" ]; then
	cp "$sysdir/libcap.so.2" "$sysdir/libpsx.so.2" "$sysdir/security/pam_cap.so" "$tmp/deb/"
	chmod 755 "$tmp/deb/"*
else
	echo "note: Debian's libcap2, libpam-cap not installed: no comparison of formats"
fi

# run NAME ARGS...: ours into $tmp/o (status $ro), Debian's into $tmp/d ($rd).
# Under valgrind only the richest run of each library is checked (memck=1:
# --summary, --help), to keep the pass cheap; the others run as they are.
memck=0
run() {
	lib=$1; shift
	if [ $memck = 1 ]; then
		run_ours "$tmp/ours/$lib" "$@" >"$tmp/o" 2>"$tmp/oe"; ro=$?
	else
		"$tmp/ours/$lib" "$@" >"$tmp/o" 2>"$tmp/oe"; ro=$?
	fi
	memck=0
	rd=
	if [ -n "$sysdir" ]; then
		"$tmp/deb/$lib" "$@" >"$tmp/d" 2>/dev/null; rd=$?
	fi
	if [ $ro -ge 128 ]; then
		fail "$lib $*: killed by signal $((ro - 128))"; sed 's/^/    /' "$tmp/oe"
	fi
}
status_is() {	# label want
	[ $ro -eq "$2" ] || { fail "$1: status $ro, want $2"; sed 's/^/    /' "$tmp/o" "$tmp/oe"; }
	[ -z "$rd" ] || [ "$rd" -eq "$2" ] || fail "$1: Debian's status $rd, want $2 (test out of date?)"
}
# The path and the version number replaced, so that formats compare.
shape() {	# file lib line
	sed -n "$3p" "$1" | sed -e "s|^$tmp/[a-z]*/$2|LIB|" -e 's/-2\.[0-9][0-9]*/-VERSION/'
}
same_shape() {	# label lib line
	[ -n "$sysdir" ] || return 0
	o=$(shape "$tmp/o" "$2" "$3") d=$(shape "$tmp/d" "$2" "$3")
	[ "$o" = "$d" ] || fail "$1: line $3 is \"$o\", Debian's \"$d\""
}

# --- libcap.so.2 -------------------------------------------------------
first="$tmp/ours/libcap.so.2 is the shared library version: libcap-$ver."
run libcap.so.2
status_is "libcap.so.2" 0
[ "$(head -n 1 "$tmp/o")" = "$first" ] || fail "libcap.so.2: first line \"$(head -n 1 "$tmp/o")\""
same_shape "libcap.so.2" libcap.so.2 1

memck=1 run libcap.so.2 --summary
status_is "libcap.so.2 --summary" 0
same_shape "libcap.so.2 --summary" libcap.so.2 1
for key in "Current mode:" "Number of cap values known to:"; do
	o=$(grep "^$key" "$tmp/o") || fail "libcap.so.2 --summary: no \"$key\" line"
	[ -z "$sysdir" ] || [ "$o" = "$(grep "^$key" "$tmp/d")" ] ||
		fail "libcap.so.2 --summary: \"$o\", Debian's \"$(grep "^$key" "$tmp/d")\""
done
grep -qx "Number of cap values known to: this libcap=[0-9]*, running kernel=$kernel" "$tmp/o" ||
	fail "libcap.so.2 --summary: the kernel's count is not $kernel (cap_last_cap $last)"
names=$(sed -n 's/^Capabilities of the running kernel: //p' "$tmp/o")
set -- $names
[ $# -eq $kernel ] || fail "libcap.so.2 --summary: $# names, the kernel knows $kernel"
if [ -x /usr/sbin/capsh ] && [ $kernel -lt 64 ]; then
	# Debian's capsh names them too (numbers past its table, as ours).
	want=$(/usr/sbin/capsh --decode=$(printf '0x%x' $(( (1 << kernel) - 1 ))) |
	       sed 's/^[^=]*=//; s/,/ /g')
	[ "$names" = "$want" ] || fail "libcap.so.2 --summary names: \"$names\", capsh: \"$want\""
fi
[ -z "$names" ] || ok "libcap.so.2 --summary: $kernel capabilities, $1 ... $(eval echo \"\${$#}\")"

for arg in --help --usage; do
	run libcap.so.2 $arg
	status_is "libcap.so.2 $arg" 0
	[ "$(tail -n 1 "$tmp/o")" = "usage: libcap.so [--help|--usage|--summary]" ] ||
		fail "libcap.so.2 $arg: last line \"$(tail -n 1 "$tmp/o")\""
	[ -z "$sysdir" ] || [ "$(tail -n 1 "$tmp/o")" = "$(tail -n 1 "$tmp/d")" ] ||
		fail "libcap.so.2 $arg: usage line differs from Debian's \"$(tail -n 1 "$tmp/d")\""
done
run libcap.so.2 --no-such-option
status_is "libcap.so.2 --no-such-option" 1
grep -qx "usage: libcap.so \[--help|--usage|--summary\]" "$tmp/o" ||
	fail "libcap.so.2 --no-such-option: no usage line"
ok "libcap.so.2: version line, --summary, --help, --usage, bad option"

# --- libpsx.so.2 -------------------------------------------------------
for args in "" "--help"; do
	memck=1 run libpsx.so.2 $args
	status_is "libpsx.so.2 $args" 0
	[ "$(head -n 1 "$tmp/o")" = "$tmp/ours/libpsx.so.2 is the shared library version: libpsx-$ver." ] ||
		fail "libpsx.so.2 $args: first line \"$(head -n 1 "$tmp/o")\""
	same_shape "libpsx.so.2 $args" libpsx.so.2 1
done
ok "libpsx.so.2: version line"

# --- pam_cap.so --------------------------------------------------------
run pam_cap.so
status_is "pam_cap.so" 0
case $(head -n 1 "$tmp/o") in
"$tmp/ours/pam_cap.so (version libcap-$ver) "*) ;;
*) fail "pam_cap.so: first line \"$(head -n 1 "$tmp/o")\"" ;;
esac
[ -z "$sysdir" ] || [ "$(shape "$tmp/o" pam_cap.so 1 | cut -d' ' -f1-3)" = \
	"$(shape "$tmp/d" pam_cap.so 1 | cut -d' ' -f1-3)" ] ||
	fail "pam_cap.so: first line's shape differs from Debian's: $(head -n 1 "$tmp/d")"
memck=1 run pam_cap.so --help
status_is "pam_cap.so --help" 0
args() { sed -n 's/^\([a-z]*=*[<a-z>]*\) *- .*/\1/p' "$1" | tr '\n' ' '; }
o=$(args "$tmp/o")
[ "$o" = "debug config=<file> keepcaps autoauth default=<iab> defer " ] ||
	fail "pam_cap.so --help: module arguments \"$o\""
[ -z "$sysdir" ] || [ "$o" = "$(args "$tmp/d")" ] ||
	fail "pam_cap.so --help: arguments \"$o\", Debian's \"$(args "$tmp/d")\""
for args in "--usage" "--help extra"; do
	run pam_cap.so $args
	status_is "pam_cap.so $args" 1
done
ok "pam_cap.so: version line, --help's arguments, bad option"

# --- still shared libraries ----------------------------------------------
interp=$(readelf -lW /bin/sh | sed -n 's/.*program interpreter: \(.*\)\]$/\1/p')
for lib in libcap.so.2 libpsx.so.2 pam_cap.so; do
	f=$tmp/ours/$lib
	readelf -hW "$f" | grep -q 'Type: *DYN' || fail "$lib is not ELF type DYN"
	readelf -dW "$f" | grep -q TEXTREL && fail "$lib has text relocations (not position-independent)"
	got=$(readelf -lW "$f" | sed -n 's/.*program interpreter: \(.*\)\]$/\1/p')
	[ -z "$interp" ] || [ "$got" = "$interp" ] || fail "$lib: interpreter \"$got\", /bin/sh's \"$interp\""
	nm -D --defined-only "$f" | grep -i 'exec_entry\|so_start' && fail "$lib exports its entry point"
done
for a in "$BUILD/libcap/libcap.a" "$BUILD/psx/libpsx.a"; do
	ar t "$a" | grep exec_entry && fail "$a carries the entry point (its .interp would reach programs)"
done

[ $bad -eq 0 ] && echo "our libraries run as programs and say what they are"
[ $bad -eq 0 ]
