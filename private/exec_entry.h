/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* What our shared objects share when one is run as a program (libcap.so.2, libpsx.so.2, pam_cap.so). */
#ifndef EXEC_ENTRY_H
#define EXEC_ENTRY_H

/*
 * Like libcap's, our libraries can be executed ("/lib/.../libcap.so.2
 * --summary") and say what they are. The link gives each an ELF entry
 * point (-Wl,-e) and a .interp section naming the dynamic loader, so the
 * kernel starts the loader, which maps the library and its dependencies,
 * runs their initialisers (libc's included) and jumps to the entry.
 *
 * No crt1.o and no __libc_start_main run: the entry gets neither argc nor
 * argv as parameters, nor a return address, nor the stack alignment C
 * expects. So it reads its arguments from /proc/self/cmdline instead of
 * the initial stack (no assembly per architecture), writes with write(2)
 * instead of stdio (nothing would flush it), and leaves with _exit().
 *
 * Each library includes this header from exactly one file, its
 * *_exec_entry.c; everything here is static inline for that reason.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

/*
 * EXEC_INTERP is the loader of the programs this compiler links, found at
 * build time (private/exec_interp.sh). Without it (a static-only toolchain)
 * the library still links, and the kernel refuses to run it.
 */
#ifdef EXEC_INTERP
#define EXEC_INTERP_SECTION             \
	static const char exec_interp[] \
		__attribute__((section(".interp"), used)) = EXEC_INTERP
#else
#define EXEC_INTERP_SECTION \
	static const char exec_interp[] __attribute__((unused)) = ""
#endif

/*
 * The kernel enters with the stack 16-byte aligned and no return address
 * pushed; x86 code compiled for a call expects the opposite (SSE spills in
 * the callees would fault), so the compiler realigns there.
 */
#if defined(__x86_64__) || defined(__i386__)
#define EXEC_ENTRY_ATTRS __attribute__((noreturn, force_align_arg_pointer))
#else
#define EXEC_ENTRY_ATTRS __attribute__((noreturn))
#endif

#define EXEC_MAX_ARGS 32

struct exec_args {
	int argc;
	const char *argv[EXEC_MAX_ARGS];
	char text[4096];
};

/*
 * Splits /proc/self/cmdline. Without /proc, or past the buffer, fewer
 * arguments are seen; argv[0] falls back to a description then.
 */
static inline void exec_read_args(struct exec_args *a, const char *fallback)
{
	ssize_t n, len = 0;
	int fd;

	a->argc = 0;
	fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		while (len < (ssize_t)sizeof(a->text) - 1) {
			n = read(fd, a->text + len, sizeof(a->text) - 1 - len);
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0)
				break;
			len += n;
		}
		close(fd);
	}
	a->text[len] = '\0';
	for (ssize_t i = 0; i < len && a->argc < EXEC_MAX_ARGS;) {
		a->argv[a->argc++] = a->text + i;
		i += (ssize_t)strlen(a->text + i) + 1;
	}
	if (a->argc == 0 || a->argv[0][0] == '\0') {
		a->argv[0] = fallback;
		if (a->argc == 0)
			a->argc = 1;
	}
}

/* Standard output, buffered here and written whole with write(2). */
struct exec_out {
	size_t len;
	char buf[1024];
};

static inline void exec_flush(struct exec_out *o)
{
	size_t done = 0;

	while (done < o->len) {
		ssize_t n = write(STDOUT_FILENO, o->buf + done, o->len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break; /* a closed stdout: nothing to tell */
		done += (size_t)n;
	}
	o->len = 0;
}

static inline void exec_put(struct exec_out *o, const char *s)
{
	for (; *s != '\0'; s++) {
		if (o->len == sizeof(o->buf))
			exec_flush(o);
		o->buf[o->len++] = *s;
	}
}

static inline void exec_put_uint(struct exec_out *o, unsigned v)
{
	char digits[12];
	int i = (int)sizeof(digits) - 1;

	digits[i] = '\0';
	do {
		digits[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v != 0);
	exec_put(o, digits + i);
}

static inline __attribute__((noreturn)) void exec_exit(struct exec_out *o,
						       int status)
{
	exec_flush(o);
	_exit(status);
}

#endif
