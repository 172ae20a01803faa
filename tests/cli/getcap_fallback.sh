#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# getcap on kernels without getxattrat(2) (before Linux 6.13) or where a
# seccomp filter refuses it: an LD_PRELOAD shim makes syscall(464) fail
# with ENOSYS or EPERM, and getcap must fall back to lgetxattr(2), also for
# names longer than PATH_MAX, with output identical to the direct path.
# The same shim can hide d_type (DT_UNKNOWN, as some filesystems report),
# which sends the walker to fstatat(2) for the type.
# Capabilities are set (and so compared) only when run as root.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
# Nothing here runs under valgrind: in the valgrind pass it would only
# repeat the plain pass.
[ "${VALGRIND:-0}" = 1 ] && skip "runs none of our code under valgrind (the plain and sanitizer passes run it)"
ours=$BUILD/progs/getcap
[ -x "$ours" ] || { fail "getcap not built"; finish; }
cc=${CC:-cc}
command -v "$cc" >/dev/null || skip "no C compiler for the shim"
command -v perl >/dev/null || skip "perl needed for the deep tree"
case $(uname -m) in
x86_64|aarch64|riscv64|i?86|arm*|ppc64*|s390x|loongarch64) ;;
*) skip "getxattrat's number is not 464 on $(uname -m)" ;;
esac
# An AddressSanitizer build wants its runtime first; the shim comes first.
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
export ASAN_OPTIONS

cat >"$T/shim.c" <<'EOF'
/*
 * Fails getxattrat (464) with $SHIM_ERRNO, marking $SHIM_MARK when it did;
 * with $SHIM_NO_DTYPE, getdents64 reports every type as DT_UNKNOWN.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <unistd.h>

long syscall(long n, ...)
{
	static long (*real)(long, ...);
	long a[6];
	va_list ap;
	int i;

	va_start(ap, n);
	for (i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if (n == 464 && getenv("SHIM_ERRNO") != NULL) {
		const char *mark = getenv("SHIM_MARK");

		if (mark != NULL)
			close(open(mark, O_WRONLY | O_CREAT, 0600));
		errno = atoi(getenv("SHIM_ERRNO"));
		return -1;
	}
	if (real == NULL)
		real = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
	return real(n, a[0], a[1], a[2], a[3], a[4], a[5]);
}

ssize_t getdents64(int fd, void *buf, size_t len)
{
	static ssize_t (*real)(int, void *, size_t);
	ssize_t n, off;

	if (real == NULL)
		real = (ssize_t (*)(int, void *, size_t))dlsym(RTLD_NEXT, "getdents64");
	n = real(fd, buf, len);
	for (off = 0; getenv("SHIM_NO_DTYPE") != NULL && off < n;) {
		struct dirent64 *d = (struct dirent64 *)((char *)buf + off);

		d->d_type = DT_UNKNOWN;
		off += d->d_reclen;
	}
	return n;
}
EOF
"$cc" -shared -fPIC -o "$T/shim.so" "$T/shim.c" -ldl ||
	{ fail "cannot build the shim"; finish; }

mkdir -p "$T/t/a/b" "$T/t/deep" && cd "$T/t" || exit 1
: >a/f; : >a/b/g; : >"a/$(printf 'odd\nname')"; mkfifo a/fifo; ln -s f a/link
caps=no setcap=
if [ "$(id -u)" -eq 0 ] && [ -x /usr/sbin/setcap ]; then
	caps=yes setcap=/usr/sbin/setcap
	$setcap cap_net_raw=ep a/f && $setcap -n 1000 cap_perfmon=p a/b/g ||
		{ fail "setcap failed"; finish; }
fi
# perl builds it (sh cannot cd that deep) and sets the deepest file's caps.
(cd deep && perl -e 'for (1..1500) { mkdir "dd" or die; chdir "dd" or die }
	open F, ">f" or die; close F; exec @ARGV if @ARGV' \
	${setcap:+"$setcap" cap_kill=p f}) || { fail "cannot build the deep tree"; finish; }
deepf="deep$(perl -e 'print "/dd" x 1500')/f"

"$ours" -rvn . >"$T/direct.o" 2>"$T/direct.e"
"$ours" -vn a/f a/b/g a/fifo >"$T/direct1.o" 2>&1
for err in 38 1; do	# ENOSYS, EPERM
	rm -f "$T/mark"
	SHIM_ERRNO=$err SHIM_MARK=$T/mark LD_PRELOAD=$T/shim.so \
		"$ours" -rvn . >"$T/fb.o" 2>"$T/fb.e"
	[ -e "$T/mark" ] && pass || { fail "the shim never saw getxattrat"; }
	for s in o e; do
		sort "$T/direct.$s" >"$T/d.s"; sort "$T/fb.$s" >"$T/f.s"
		cmp -s "$T/d.s" "$T/f.s" && pass ||
			{ fail "errno $err ($s):"; diff "$T/d.s" "$T/f.s" | head; }
	done
	SHIM_ERRNO=$err LD_PRELOAD=$T/shim.so "$ours" -vn a/f a/b/g a/fifo >"$T/fb1.o" 2>&1
	cmp -s "$T/direct1.o" "$T/fb1.o" && pass || { fail "errno $err, operands"; }
done
# No d_type: one fstatat per entry decides, with the same result.
SHIM_NO_DTYPE=1 SHIM_MARK=$T/mark LD_PRELOAD=$T/shim.so "$ours" -rvn . >"$T/nd.o" 2>"$T/nd.e"
for s in o e; do
	sort "$T/direct.$s" >"$T/d.s"; sort "$T/nd.$s" >"$T/f.s"
	cmp -s "$T/d.s" "$T/f.s" && pass ||
		{ fail "DT_UNKNOWN ($s):"; diff "$T/d.s" "$T/f.s" | head; }
done
if command -v strace >/dev/null; then
	# LeakSanitizer cannot run under ptrace: it would report that, not a leak.
	ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0" \
	SHIM_NO_DTYPE=1 LD_PRELOAD=$T/shim.so strace -f -qq -e trace=newfstatat,fstatat64 \
		-o "$T/st" "$ours" -r a >/dev/null 2>&1
	# a/ holds five entries; each needs a descriptor-relative fstatat.
	n=$(grep -c 'statat[0-9]*([0-9].*AT_SYMLINK_NOFOLLOW' "$T/st")
	[ "$n" -ge 5 ] && pass || { fail "DT_UNKNOWN reached fstatat $n times"; }
fi

# The deepest file is over PATH_MAX: read through /proc/self/fd.
want="./$deepf"
[ $caps = yes ] && want="./$deepf cap_kill=p"
grep -qxF "$want" "$T/fb.o" && pass || { fail "deep file not read by the fallback"; }
if [ $caps = yes ]; then
	grep -qx "./a/b/g cap_perfmon=p \[rootid=1000\]" "$T/fb.o" &&
		grep -qx "./a/f cap_net_raw=ep" "$T/fb.o" && pass ||
		{ fail "capabilities through the fallback"; }
fi

finish "the lgetxattr fallback matches getxattrat (capabilities compared: $caps)"
