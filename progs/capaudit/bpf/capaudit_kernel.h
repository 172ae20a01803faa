/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * The kernel's types as the programs of capaudit.bpf.c use them: only
 * the members they read, never the kernel's whole headers, so the build
 * does not depend on the kernel of the machine that builds.
 *
 * preserve_access_index makes every member access a CO-RE relocation:
 * the kernel that loads the programs finds the member by name in its own
 * BTF, wherever it sits (inside an anonymous struct, as task_struct.pid
 * on a CONFIG_RANDSTRUCT kernel and kernel_siginfo.si_code everywhere),
 * and patches the offset in.
 *
 * The btf_trace_* typedefs are the prototypes of the raw tracepoints'
 * handlers as the programs read their arguments. bpf_core_type_exists()
 * asks the loading kernel whether its own typedef of that name is
 * compatible: as many arguments, each a pointer or an integer where
 * ours is. Every struct named there is defined, with a member: a
 * declared-only struct is a forward declaration in BTF, which the
 * kernel never finds compatible with its defined one.
 */
#ifndef CAPAUDIT_KERNEL_H
#define CAPAUDIT_KERNEL_H

struct cred {
	long usage;
};

struct user_namespace {
	int level;
};

struct linux_binprm {
	int argc;
};

/*
 * A pointer member is void *, whatever it points to: clang emits a
 * struct it first meets through a member's pointer as a forward
 * declaration in the programs' BTF, and a prototype above that names
 * the same struct (cap_capable's const struct cred *) would then be
 * found incompatible with the kernel's.
 */
struct task_struct {
	void *stack; /* the lowest address of its kernel stack */
	int pid;     /* the thread id, in the initial pid namespace */
	int tgid;    /* its process's id, the leader's thread id */
	/* The thread's own credential; one it is lent is another. */
	const void *real_cred;
} __attribute__((preserve_access_index));

/* include/linux/signal_types.h: the fields in an anonymous struct. */
struct kernel_siginfo {
	struct {
		int si_signo;
		int si_errno;
		int si_code;
	};
} __attribute__((preserve_access_index));

/* include/trace/events/capability.h */
typedef void (*btf_trace_cap_capable)(void *, const struct cred *,
				      struct user_namespace *,
				      const struct user_namespace *, int, int);
/* include/trace/events/task.h: clone flags, unsigned long (u64 from 6.17) */
typedef void (*btf_trace_task_newtask)(void *, struct task_struct *,
				       unsigned long);
/* include/trace/events/sched.h: the task, its id before the exec, bprm */
typedef void (*btf_trace_sched_process_exec)(void *, struct task_struct *, int,
					     struct linux_binprm *);
/* include/trace/events/signal.h: sig, info, task, group, result */
typedef void (*btf_trace_signal_generate)(void *, int, struct kernel_siginfo *,
					  struct task_struct *, int, int);

/*
 * include/trace/events/signal.h: the results of a signal now pending,
 * with its siginfo or (none left under RLIMIT_SIGPENDING) without.
 */
#define TRACE_SIGNAL_DELIVERED 0
#define TRACE_SIGNAL_LOSE_INFO 4
/* include/linux/sched/signal.h: the info of a signal the kernel sends. */
#define SEND_SIG_NOINFO 0 /* kill(2) */
#define SEND_SIG_PRIV	1
/* include/uapi/asm-generic/siginfo.h: a POSIX timer's expiry. */
#define SI_TIMER (-2)
#define SIGALRM	 14
/*
 * More than any architecture's kernel stack (THREAD_SIZE: 16 KiB, 32 KiB
 * with KASAN): a siginfo this far above a task's stack base is on it.
 */
#define STACK_ROOM (64 * 1024)

#endif
