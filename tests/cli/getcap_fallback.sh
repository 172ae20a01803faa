#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# getcap on kernels without getxattrat(2) (before Linux 6.13) or where a
# seccomp filter refuses it: an LD_PRELOAD shim makes syscall(464) fail
# with ENOSYS or EPERM, and getcap must fall back to lgetxattr(2), also for
# names longer than PATH_MAX, with output identical to the direct path.
# The same shim can hide d_type (DT_UNKNOWN, as some filesystems report),
# which sends the walker to fstatat(2) for the type.
# Capabilities are set (and so compared) only when run as root.
set -u
# Nothing here runs under valgrind: in the valgrind pass it would only
# repeat the plain pass.
[ "${VALGRIND:-0}" = 1 ] && { echo "skipped: runs none of our code under valgrind (the plain and sanitizer passes run it)"; exit 77; }
ours=$BUILD/progs/getcap
[ -x "$ours" ] || { echo "getcap not built"; exit 1; }
cc=${CC:-cc}
command -v "$cc" >/dev/null || { echo "skipped: no C compiler for the shim"; exit 77; }
command -v perl >/dev/null || { echo "skipped: perl needed for the deep tree"; exit 77; }
case $(uname -m) in
x86_64|aarch64|riscv64|i?86|arm*|ppc64*|s390x|loongarch64) ;;
*) echo "skipped: getxattrat's number is not 464 on $(uname -m)"; exit 77 ;;
esac
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fails=0
# An AddressSanitizer build wants its runtime first; the shim comes first.
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
export ASAN_OPTIONS

cat >"$tmp/shim.c" <<'EOF'
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
"$cc" -shared -fPIC -o "$tmp/shim.so" "$tmp/shim.c" -ldl ||
	{ echo "cannot build the shim"; exit 1; }

mkdir -p "$tmp/t/a/b" "$tmp/t/deep" && cd "$tmp/t" || exit 1
: >a/f; : >a/b/g; : >"a/$(printf 'odd\nname')"; mkfifo a/fifo; ln -s f a/link
caps=no setcap=
if [ "$(id -u)" -eq 0 ] && [ -x /usr/sbin/setcap ]; then
	caps=yes setcap=/usr/sbin/setcap
	$setcap cap_net_raw=ep a/f && $setcap -n 1000 cap_perfmon=p a/b/g ||
		{ echo "setcap failed"; exit 1; }
fi
# perl builds it (sh cannot cd that deep) and sets the deepest file's caps.
(cd deep && perl -e 'for (1..1500) { mkdir "dd" or die; chdir "dd" or die }
	open F, ">f" or die; close F; exec @ARGV if @ARGV' \
	${setcap:+"$setcap" cap_kill=p f}) || { echo "cannot build the deep tree"; exit 1; }
deepf="deep$(perl -e 'print "/dd" x 1500')/f"

"$ours" -rvn . >"$tmp/direct.o" 2>"$tmp/direct.e"
"$ours" -vn a/f a/b/g a/fifo >"$tmp/direct1.o" 2>&1
for err in 38 1; do	# ENOSYS, EPERM
	rm -f "$tmp/mark"
	SHIM_ERRNO=$err SHIM_MARK=$tmp/mark LD_PRELOAD=$tmp/shim.so \
		"$ours" -rvn . >"$tmp/fb.o" 2>"$tmp/fb.e"
	[ -e "$tmp/mark" ] || { echo "FAIL: the shim never saw getxattrat"; fails=$((fails + 1)); }
	for s in o e; do
		sort "$tmp/direct.$s" >"$tmp/d.s"; sort "$tmp/fb.$s" >"$tmp/f.s"
		cmp -s "$tmp/d.s" "$tmp/f.s" ||
			{ echo "FAIL errno $err ($s):"; diff "$tmp/d.s" "$tmp/f.s" | head; fails=$((fails + 1)); }
	done
	SHIM_ERRNO=$err LD_PRELOAD=$tmp/shim.so "$ours" -vn a/f a/b/g a/fifo >"$tmp/fb1.o" 2>&1
	cmp -s "$tmp/direct1.o" "$tmp/fb1.o" || { echo "FAIL errno $err, operands"; fails=$((fails + 1)); }
done
# No d_type: one fstatat per entry decides, with the same result.
SHIM_NO_DTYPE=1 SHIM_MARK=$tmp/mark LD_PRELOAD=$tmp/shim.so "$ours" -rvn . >"$tmp/nd.o" 2>"$tmp/nd.e"
for s in o e; do
	sort "$tmp/direct.$s" >"$tmp/d.s"; sort "$tmp/nd.$s" >"$tmp/f.s"
	cmp -s "$tmp/d.s" "$tmp/f.s" ||
		{ echo "FAIL DT_UNKNOWN ($s):"; diff "$tmp/d.s" "$tmp/f.s" | head; fails=$((fails + 1)); }
done
if command -v strace >/dev/null; then
	SHIM_NO_DTYPE=1 LD_PRELOAD=$tmp/shim.so strace -f -qq -e trace=newfstatat,fstatat64 \
		-o "$tmp/st" "$ours" -r a >/dev/null 2>&1
	# a/ holds five entries; each needs a descriptor-relative fstatat.
	n=$(grep -c 'statat[0-9]*([0-9].*AT_SYMLINK_NOFOLLOW' "$tmp/st")
	[ "$n" -ge 5 ] || { echo "FAIL: DT_UNKNOWN reached fstatat $n times"; fails=$((fails + 1)); }
fi

# The deepest file is over PATH_MAX: read through /proc/self/fd.
want="./$deepf"
[ $caps = yes ] && want="./$deepf cap_kill=p"
grep -qxF "$want" "$tmp/fb.o" || { echo "FAIL: deep file not read by the fallback"; fails=$((fails + 1)); }
if [ $caps = yes ]; then
	grep -qx "./a/b/g cap_perfmon=p \[rootid=1000\]" "$tmp/fb.o" &&
		grep -qx "./a/f cap_net_raw=ep" "$tmp/fb.o" ||
		{ echo "FAIL: capabilities through the fallback"; fails=$((fails + 1)); }
fi

[ "$fails" -eq 0 ] || { echo "$fails failures"; exit 1; }
echo "the lgetxattr fallback matches getxattrat (capabilities compared: $caps)"
