/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * <sys/psx_syscall.h>: the public interface of libpsx.so.2, source- and
 * ABI-compatible with libcap's header of the same name (libcap 2.76).
 *
 * Linux applies credentials and capabilities per thread. A system call made
 * through psx_syscall3(), psx_syscall6() or the psx_syscall() macro is made
 * by the calling thread and then by every other thread of the process, so
 * the whole process changes state together (see psx_syscall(3)).
 *
 * Programs that call these functions link with
 *     -lpsx -lpthread
 * Programs that only want libcap's state changes to reach every thread link
 * libpsx in whole, so that libcap finds psx_load_syscalls():
 *     -lcap -Wl,--no-as-needed -Wl,--whole-archive -lpsx \
 *         -Wl,--no-whole-archive -Wl,--as-needed -lpthread
 * (pkg-config --libs libpsx prints exactly that). Linking with
 * -Wl,-wrap,pthread_create, as older libcap releases required, still works
 * but is not needed: every thread is found through /proc/self/task.
 */
#ifndef SYS_PSX_SYSCALL_H_DROPIN
#define SYS_PSX_SYSCALL_H_DROPIN
/* libcap's own include guard, so code that tests it keeps working. */
#ifndef _SYS_PSX_SYSCALL_H
#define _SYS_PSX_SYSCALL_H
#endif

#include <pthread.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The release whose interface this header provides. */
#define LIBPSX_MAJOR 2
#define LIBPSX_MINOR 76

/*
 * Names with "__" below are part of libcap's ABI and so cannot follow our
 * own naming rule: __psx_syscall is what the psx_syscall() macro expands
 * to, and the two pthread_create names are fixed by ld's --wrap option.
 */

/*
 * psx_syscall(nr, arg...) takes one to six arguments after the system call
 * number. The macro appends the numbers 6..0 so that, whatever the count
 * of arguments given, the seventh variadic argument __psx_syscall reads is
 * that count. Being a macro, it cannot be taken as a function pointer: use
 * psx_syscall3() or psx_syscall6() for that. Its spelling, spaces
 * included, is libcap's, so a program that also sees libcap's definition
 * gets no "redefined" warning.
 */
#define psx_syscall(syscall_nr, ...)					\
	__psx_syscall(syscall_nr, __VA_ARGS__, (long int) 6, (long int) 5, \
		      (long int) 4, (long int) 3, (long int) 2,		\
		      (long int) 1, (long int) 0)
extern long int __psx_syscall(long int syscall_nr, ...);
extern long int psx_syscall3(long int syscall_nr, long int arg1,
			     long int arg2, long int arg3);
extern long int psx_syscall6(long int syscall_nr, long int arg1,
			     long int arg2, long int arg3, long int arg4,
			     long int arg5, long int arg6);

/*
 * Hands out psx_syscall3 and psx_syscall6. A library declares this weak
 * and calls it when it is non-NULL: linked with libpsx, its system calls
 * then reach every thread (libcap does exactly this).
 */
extern void psx_load_syscalls(long int (**syscall_fn)(long int, long int,
						      long int, long int),
			      long int (**syscall6_fn)(long int, long int,
						       long int, long int,
						       long int, long int,
						       long int));

/*
 * What happens when another thread's result differs from the caller's:
 * nothing (the default), a report on stderr, or a report and then the
 * process is killed.
 */
typedef enum {
	PSX_IGNORE = 0,
	PSX_WARNING = 1,
	PSX_ERROR = 2,
} psx_sensitivity_t;

extern int psx_set_sensitivity(psx_sensitivity_t level);

/*
 * Link-time wrapper kept for programs linked with -Wl,-wrap,pthread_create:
 * it starts the thread through __real_pthread_create, which ld binds to the
 * real pthread_create (libpsx carries a weak fallback of its own).
 */
extern int __wrap_pthread_create(pthread_t *thread,
				 const pthread_attr_t *attr,
				 void *(*start_routine)(void *), void *arg);
extern int __real_pthread_create(pthread_t *thread,
				 const pthread_attr_t *attr,
				 void *(*start_routine)(void *), void *arg);

#ifdef __cplusplus
}
#endif

#endif /* SYS_PSX_SYSCALL_H_DROPIN */
