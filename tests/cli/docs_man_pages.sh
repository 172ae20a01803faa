#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# The manual is complete and clean: every exported function has a page under
# its own name in man/man3 (a page, or a ".so" stub to a page whose NAME
# lists it), every option of every program in progs/ (taken from the built
# program's own usage text, which the programs produce from their option
# tables) and of
# pam_cap appears in its page, each page has the sections the
# project promises, and mandoc -Tlint -W warning reports nothing.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
# Nothing here runs under valgrind: in the valgrind pass it would only
# repeat the plain pass.
[ "${VALGRIND:-0}" = 1 ] && skip "runs none of our code under valgrind (the first pass of make test runs it)"
man=$TOP/man

command -v mandoc >/dev/null 2>&1 || skip "mandoc is not installed"
[ -d "$man/man3" ] || { fail "no $man/man3"; finish; }

# A page is a stub when its only content is one ".so" request.
is_stub() { head -c 4 "$1" | grep -q '^\.so '; }

# Names listed in a page's NAME section: the words before "\-".
name_section() {
	awk '/^\.SH NAME/ { f = 1; next } /^\.SH/ { f = 0 } f' "$1" |
		tr '\n' ' ' | sed 's/\\-.*//' | tr ', ' '\n\n' | sed '/^$/d'
}

# Text as a reader sees it, on lines wide enough that nothing is wrapped.
render() { mandoc -T ascii -O width=400 "$1" 2>/dev/null | col -b; }

# --- 1. every exported function has a page under its own name --------------
# Exported names: libcap.map (what is exported today) and every function the
# header declares (what will be exported), less the libc system calls.
# libpsx's names come from psx/libpsx.map and <sys/psx_syscall.h>, plus the
# psx_syscall() macro, whose page is psx_syscall(3).
{
	[ -f "$TOP/libcap/libcap.map" ] &&
		sed -n 's/^[[:space:]]*\([a-z_][a-z0-9_]*\);$/\1/p' "$TOP/libcap/libcap.map"
	sed -n 's/^extern[^(]*[ *]\([a-z_][a-z0-9_]*\)(.*/\1/p' \
		"$TOP/include/sys/capability.h"
	[ -f "$TOP/psx/libpsx.map" ] &&
		sed -n 's/^[[:space:]]*\([a-z_][a-z0-9_]*\);$/\1/p' "$TOP/psx/libpsx.map"
	[ -f "$TOP/include/sys/psx_syscall.h" ] &&
		sed -n 's/^extern[^(]*[ *]\([a-z_][a-z0-9_]*\)(.*/\1/p' \
			"$TOP/include/sys/psx_syscall.h" && echo psx_syscall
} | grep -vx 'capget\|capset' | sort -u >"$T/names"
[ -s "$T/names" ] && pass || fail "no exported names found"

nnames=0
while read -r name; do
	nnames=$((nnames + 1))
	page=$man/man3/$name.3
	if [ ! -f "$page" ]; then
		fail "$name: no man/man3/$name.3"
		continue
	fi
	target=$page
	if is_stub "$page"; then
		if [ "$(wc -l <"$page")" -ne 1 ]; then
			fail "$name.3: a stub must be one .so line"
			continue
		fi
		rel=$(sed -n 's/^\.so \(man3\/[A-Za-z0-9_.]*\.3\)$/\1/p' "$page")
		target=$man/$rel
		if [ -z "$rel" ] || [ ! -f "$target" ]; then
			fail "$name.3: stub points to a missing page ($(cat "$page"))"
			continue
		fi
		if is_stub "$target"; then
			fail "$name.3: stub points to another stub ($rel)"
			continue
		fi
	fi
	name_section "$target" | grep -qx "$name" && pass ||
		fail "$name: not listed in the NAME section of $(basename "$target")"
done <"$T/names"

# Stubs that lead nowhere are as bad as missing pages.
for page in "$man"/man*/*.[1-8]; do
	is_stub "$page" || continue
	rel=$(sed -n '1s/^\.so //p' "$page")
	[ -f "$man/$rel" ] && pass || fail "$(basename "$page"): dangling stub to $rel"
done

# --- 2. every option appears in its page -------------------------------------
# capsh's command separators are not "-word" options; always check them.
always_capsh='== =+ -- -+'

# Options named by a program's own usage text: every -x or --word on the
# "usage:" line, on the synopsis' continuation lines (they start with
# "[-") and on lines that start with an option (the option list), so prose
# such as "capsh --suggest might help" is not mistaken for one.
help_options() {
	grep -E '^usage:|^[[:space:]]*-|^[[:space:]]*\[-' |
		grep -oE '(^|[^A-Za-z0-9_-])--?[A-Za-z][A-Za-z0-9-]*' |
		sed 's/^[^-]*//' | sort -u
}

check_option() {	# page option
	# Bounded: "-v" must not be found inside "-verbose" or "cap-v".
	grep -qE -- "(^|[^A-Za-z0-9_-])$(printf '%s' "$2" |
		sed 's/[+.]/\\&/g')([^A-Za-z0-9_-]|$)" "$T/rendered" && pass ||
		fail "$(basename "$1"): option $2 is not documented"
}

# Every program progs/ builds (one folder each).
for prog in $(cd "$TOP/progs" && ls -d */ | tr -d /); do
	case $prog in
	capsh) page=$man/man1/capsh.1; helparg=--help ;;
	getpcaps|capaudit) page=$man/man8/$prog.8; helparg=--help ;;
	*) page=$man/man8/$prog.8; helparg=-h ;;
	esac
	[ -f "$page" ] && pass || { fail "no page for $prog"; continue; }
	[ -x "$BUILD/progs/$prog" ] && pass || { fail "$prog is not built"; continue; }
	"$BUILD/progs/$prog" $helparg 2>&1 | help_options >"$T/opts"
	[ -s "$T/opts" ] && pass || fail "$prog: no options found in its usage text"
	[ $prog = capsh ] && printf '%s\n' $always_capsh >>"$T/opts"
	render "$page" >"$T/rendered"
	n=0
	while read -r opt; do
		n=$((n + 1))
		check_option "$page" "$opt"
	done <"$T/opts"
	echo "$prog: $n options checked (from its usage text)"
done

# pam_cap's module arguments and the configuration syntax.
render "$man/man8/pam_cap.8" >"$T/rendered"
for opt in config= default= debug keepcaps autoauth defer; do
	grep -q -- "$opt" "$T/rendered" && pass ||
		fail "pam_cap.8: module argument $opt is not documented"
done

# --- 3. each page has the sections the project promises ----------------------
need_sections() {	# page section...
	page=$1; shift
	for s in "$@"; do
		grep -qx "\\.SH \"*$s\"*" "$page" && pass ||
			fail "$(basename "$page"): no $s section"
	done
}
pages=0
for page in "$man"/man[1-8]/*.[1-8]; do
	is_stub "$page" && continue
	pages=$((pages + 1))
	need_sections "$page" NAME DESCRIPTION EXAMPLES "SEE ALSO" \
		"DIFFERENCES FROM LIBCAP"
	case $page in
	*/man3/*) need_sections "$page" SYNOPSIS "RETURN VALUE" ERRORS ;;
	*/man1/*|*/man8/*) need_sections "$page" SYNOPSIS OPTIONS FILES ;;
	*/man5/*) need_sections "$page" FILES ;;
	esac
	case $page in
	*/man1/*|*/man8/setcap.8|*/man8/getcap.8|*/man8/getpcaps.8)
		need_sections "$page" "EXIT STATUS" ;;
	esac
	# The differences list closes the page, where readers look for it.
	last=$(grep '^\.SH' "$page" | tail -n 1)
	[ "$last" = ".SH SEE ALSO" ] || [ "$last" = ".SH DIFFERENCES FROM LIBCAP" ] && pass ||
		fail "$(basename "$page"): last section is $last"
done
grep -q 'setcap cap_perfmon=ep /usr/bin/perf' "$man/man8/setcap.8" && pass ||
	fail "setcap.8: the perf example is missing"
grep -q 'cap_perfmon *@perf_users' "$man/man5/capability.conf.5" && pass ||
	fail "capability.conf.5: the perf_users example is missing"

# --- 4. mandoc -Tlint -W warning is silent -----------------------------------
# Stubs are linted too, from man/ so their ".so" resolves. The one message
# accepted is mandoc's style note that ".so is fragile, better use ln(1)",
# and only on stubs: the project installs aliases as .so stubs (as libcap
# and the man-pages project do), because they survive packaging and
# compressing, and man-db and mandoc both follow them; part 1 above checks
# each stub's target instead.
cd "$man" || exit 1
for page in man[1-8]/*.[1-8]; do
	mandoc -T lint -W warning "$page" >"$T/lint" 2>&1
	if is_stub "$page"; then
		grep -v 'WARNING: \.so is fragile, better use ln(1)' "$T/lint" >"$T/lint2"
		mv "$T/lint2" "$T/lint"
	fi
	if [ -s "$T/lint" ]; then
		fail "mandoc -Tlint: $page"
		sed 's/^/    /' "$T/lint"
	else
		pass
	fi
done

# --- 5. pam_cap's pages cite pages a Debian system has -------------------------
# Each page they name is one of ours, or one of these, which Debian ships
# (libpam-runtime, libpam0g-dev, manpages, manpages-dev, login,
# openssh-server): pam_cap(8) once sent readers to pam(8), which exists
# nowhere (PAM's overview is pam(7)).
debian_pages='chroot(2) getgrnam_r(3) getgrouplist(3) pam_end(3) pam_setcred(3)
statvfs(3) syslog(3) su(1) login(1) sshd(8) capabilities(7) pam(7)
pam-auth-update(8)'
for page in man8/pam_cap.8 man5/capability.conf.5; do
	for cited in $(render "$page" | grep -o '[a-z_][a-z0-9_.-]*([1-8])' | sort -u); do
		name=${cited%(*} sec=${cited#*(}
		sec=${sec%)}
		[ -f "man$sec/$name.$sec" ] && continue
		case " $(echo $debian_pages) " in
		*" $cited "*) ;;
		*) fail "$page cites $cited: no page of ours, nor one Debian has" ;;
		esac
	done
done

finish "$nnames exported names have pages; $pages pages pass mandoc -Tlint -W warning"
