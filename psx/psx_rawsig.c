/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* rt_sigaction() and rt_sigprocmask() without the C library's filtering. */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lpsx.h"

/*
 * glibc's sigaction() refuses signal 33 (EINVAL) and its sigprocmask()
 * silently drops it from masks, so libpsx talks to the kernel directly,
 * with the kernel's own struct sigaction: handler, flags, a restorer
 * field on the architectures that define SA_RESTORER, then a 64-signal
 * mask (the kernel's include/linux/signal_types.h). The size passed to
 * the kernel is that mask's, not glibc's 1024-bit sigset_t.
 *
 * The restorer is the code a handler returns into; it must make the
 * rt_sigreturn system call. x86_64 has no default one (a handler without
 * SA_RESTORER kills the thread with SIGSEGV on return) and i386 would
 * otherwise use the vDSO's; elsewhere the kernel supplies one (vDSO or
 * signal page) when SA_RESTORER is clear, so we leave it clear.
 */
#if defined(__x86_64__) && !defined(__ILP32__)
#define HAS_RESTORER_FIELD 1
#define OWN_RESTORER	   1
/* The exact bytes of glibc's __restore_rt: gdb and libgcc's unwinder
 * recognise a signal frame by them. 15 is rt_sigreturn. */
__asm__(".text\n"
	".p2align 4\n"
	".globl lpsx_restore_rt\n"
	".hidden lpsx_restore_rt\n"
	".type lpsx_restore_rt, @function\n"
	"lpsx_restore_rt:\n"
	"\tmovq $15, %rax\n"
	"\tsyscall\n"
	".size lpsx_restore_rt, .-lpsx_restore_rt\n");
#elif defined(__i386__)
#define HAS_RESTORER_FIELD 1
#define OWN_RESTORER	   1
/* 173 is rt_sigreturn. */
__asm__(".text\n"
	".p2align 4\n"
	".globl lpsx_restore_rt\n"
	".hidden lpsx_restore_rt\n"
	".type lpsx_restore_rt, @function\n"
	"lpsx_restore_rt:\n"
	"\tmovl $173, %eax\n"
	"\tint $0x80\n"
	".size lpsx_restore_rt, .-lpsx_restore_rt\n");
#elif defined(__aarch64__) || defined(__arm__) || defined(__powerpc__) || \
	defined(__s390__)
#define HAS_RESTORER_FIELD 1
#define OWN_RESTORER	   0
#elif defined(__riscv) || defined(__loongarch__)
#define HAS_RESTORER_FIELD 0
#define OWN_RESTORER	   0
#else
#error "libpsx: the kernel's struct sigaction is not known for this architecture (psx/psx_rawsig.c)"
#endif

#if OWN_RESTORER
void lpsx_restore_rt(void) __attribute__((visibility("hidden")));
#define SA_RESTORER_FLAG 0x04000000ul
#endif

/* The kernel's layout of struct sigaction for rt_sigaction(). */
struct kernel_sigaction {
	void *handler;
	unsigned long flags;
#if HAS_RESTORER_FIELD
	void *restorer;
#endif
	struct lpsx_kset mask;
};

int lpsx_ksig_action(int sig, const struct lpsx_ksigaction *act,
		     struct lpsx_ksigaction *old)
{
	struct kernel_sigaction kact, kold;

	if (act != NULL) {
		memset(&kact, 0, sizeof(kact));
		kact.handler = act->handler;
		kact.flags = act->flags;
#if HAS_RESTORER_FIELD
		kact.restorer = act->restorer;
#endif
		kact.mask = act->mask;
	}
	memset(&kold, 0, sizeof(kold));
	if (syscall(SYS_rt_sigaction, sig, act != NULL ? &kact : NULL,
		    old != NULL ? &kold : NULL, sizeof(struct lpsx_kset)) < 0)
		return -1;
	if (old != NULL) {
		memset(old, 0, sizeof(*old));
		old->handler = kold.handler;
		old->flags = kold.flags;
#if HAS_RESTORER_FIELD
		old->restorer = kold.restorer;
#endif
		old->mask = kold.mask;
	}
	return 0;
}

int lpsx_ksig_mask(int how, const struct lpsx_kset *set, struct lpsx_kset *old)
{
	return (int)syscall(SYS_rt_sigprocmask, how, set, old,
			    sizeof(struct lpsx_kset));
}

/*
 * Our handler, with SA_SIGINFO (the mark), SA_RESTART (a thread blocked
 * in read(2) carries on afterwards) and SA_ONSTACK (a thread running on
 * its alternate stack stays there). No mask: the kernel blocks the
 * signal itself while the handler runs.
 */
void lpsx_ksig_set_handler(struct lpsx_ksigaction *act,
			   void (*fn)(int, siginfo_t *, void *))
{
	memset(act, 0, sizeof(*act));
	act->handler = (void *)fn;
	act->flags = SA_SIGINFO | SA_RESTART | SA_ONSTACK;
#if OWN_RESTORER
	act->flags |= SA_RESTORER_FLAG;
	act->restorer = (void *)lpsx_restore_rt;
#endif
}

void lpsx_kset_add(struct lpsx_kset *set, int sig)
{
	unsigned bits = 8 * sizeof(unsigned long);

	set->word[(unsigned)(sig - 1) / bits] |=
		1ul << ((unsigned)(sig - 1) % bits);
}
