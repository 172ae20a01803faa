/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * <sys/capability.h>: the public interface of libcap.so.2, source- and
 * ABI-compatible with libcap's header of the same name.
 *
 * Every CAP_* value the library names is defined here even when the build
 * machine's <linux/capability.h> predates it, so a program can name
 * CAP_PERFMON (38) whatever kernel headers it was built with. (The values
 * come from the source tree's private/caps.def; its build checks that this
 * header defines each, with the same value.)
 */
#ifndef SYS_CAPABILITY_H_DROPIN
#define SYS_CAPABILITY_H_DROPIN
/* libcap's own include guard, so code that tests it keeps working. */
#ifndef _SYS_CAPABILITY_H
#define _SYS_CAPABILITY_H
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define LIBCAP_MAJOR 2
#define LIBCAP_MINOR 76

#include <sys/types.h>
#include <stdint.h>

/*
 * The kernel's uapi header supplies cap_user_header_t, cap_user_data_t and
 * the VFS_CAP_* layout constants; it annotates pointers with __user, which
 * only means something inside the kernel.
 */
#ifndef __user
#define __user
#endif
#include <linux/capability.h>

/* Capability values, in case the kernel headers above are older. */
#ifndef CAP_CHOWN
#define CAP_CHOWN		0
#endif
#ifndef CAP_DAC_OVERRIDE
#define CAP_DAC_OVERRIDE	1
#endif
#ifndef CAP_DAC_READ_SEARCH
#define CAP_DAC_READ_SEARCH	2
#endif
#ifndef CAP_FOWNER
#define CAP_FOWNER		3
#endif
#ifndef CAP_FSETID
#define CAP_FSETID		4
#endif
#ifndef CAP_KILL
#define CAP_KILL		5
#endif
#ifndef CAP_SETGID
#define CAP_SETGID		6
#endif
#ifndef CAP_SETUID
#define CAP_SETUID		7
#endif
#ifndef CAP_SETPCAP
#define CAP_SETPCAP		8
#endif
#ifndef CAP_LINUX_IMMUTABLE
#define CAP_LINUX_IMMUTABLE	9
#endif
#ifndef CAP_NET_BIND_SERVICE
#define CAP_NET_BIND_SERVICE	10
#endif
#ifndef CAP_NET_BROADCAST
#define CAP_NET_BROADCAST	11
#endif
#ifndef CAP_NET_ADMIN
#define CAP_NET_ADMIN		12
#endif
#ifndef CAP_NET_RAW
#define CAP_NET_RAW		13
#endif
#ifndef CAP_IPC_LOCK
#define CAP_IPC_LOCK		14
#endif
#ifndef CAP_IPC_OWNER
#define CAP_IPC_OWNER		15
#endif
#ifndef CAP_SYS_MODULE
#define CAP_SYS_MODULE		16
#endif
#ifndef CAP_SYS_RAWIO
#define CAP_SYS_RAWIO		17
#endif
#ifndef CAP_SYS_CHROOT
#define CAP_SYS_CHROOT		18
#endif
#ifndef CAP_SYS_PTRACE
#define CAP_SYS_PTRACE		19
#endif
#ifndef CAP_SYS_PACCT
#define CAP_SYS_PACCT		20
#endif
#ifndef CAP_SYS_ADMIN
#define CAP_SYS_ADMIN		21
#endif
#ifndef CAP_SYS_BOOT
#define CAP_SYS_BOOT		22
#endif
#ifndef CAP_SYS_NICE
#define CAP_SYS_NICE		23
#endif
#ifndef CAP_SYS_RESOURCE
#define CAP_SYS_RESOURCE	24
#endif
#ifndef CAP_SYS_TIME
#define CAP_SYS_TIME		25
#endif
#ifndef CAP_SYS_TTY_CONFIG
#define CAP_SYS_TTY_CONFIG	26
#endif
#ifndef CAP_MKNOD
#define CAP_MKNOD		27
#endif
#ifndef CAP_LEASE
#define CAP_LEASE		28
#endif
#ifndef CAP_AUDIT_WRITE
#define CAP_AUDIT_WRITE		29
#endif
#ifndef CAP_AUDIT_CONTROL
#define CAP_AUDIT_CONTROL	30
#endif
#ifndef CAP_SETFCAP
#define CAP_SETFCAP		31
#endif
#ifndef CAP_MAC_OVERRIDE
#define CAP_MAC_OVERRIDE	32
#endif
#ifndef CAP_MAC_ADMIN
#define CAP_MAC_ADMIN		33
#endif
#ifndef CAP_SYSLOG
#define CAP_SYSLOG		34
#endif
#ifndef CAP_WAKE_ALARM
#define CAP_WAKE_ALARM		35
#endif
#ifndef CAP_BLOCK_SUSPEND
#define CAP_BLOCK_SUSPEND	36
#endif
#ifndef CAP_AUDIT_READ
#define CAP_AUDIT_READ		37
#endif
#ifndef CAP_PERFMON
#define CAP_PERFMON		38
#endif
#ifndef CAP_BPF
#define CAP_BPF			39
#endif
#ifndef CAP_CHECKPOINT_RESTORE
#define CAP_CHECKPOINT_RESTORE	40
#endif

/* Opaque objects; every one of them is released with cap_free(). */
typedef struct _cap_struct *cap_t;
typedef struct cap_iab_s *cap_iab_t;
typedef struct cap_launch_s *cap_launch_t;

typedef int cap_value_t;

typedef enum {
	CAP_EFFECTIVE = 0,
	CAP_PERMITTED = 1,
	CAP_INHERITABLE = 2
} cap_flag_t;

typedef enum {
	CAP_IAB_INH = 2,
	CAP_IAB_AMB = 3,
	CAP_IAB_BOUND = 4
} cap_iab_vector_t;

typedef enum {
	CAP_CLEAR = 0,
	CAP_SET = 1
} cap_flag_value_t;

typedef unsigned cap_mode_t;
#define CAP_MODE_UNCERTAIN	((cap_mode_t) 0)
#define CAP_MODE_NOPRIV		((cap_mode_t) 1)
#define CAP_MODE_PURE1E_INIT	((cap_mode_t) 2)
#define CAP_MODE_PURE1E		((cap_mode_t) 3)
#define CAP_MODE_HYBRID		((cap_mode_t) 4)

/* Test the result of cap_compare() / cap_iab_compare() for one vector. */
#define CAP_DIFFERS(result, flag)	(((result) & (1 << (flag))) != 0)
#define CAP_IAB_DIFFERS(result, vector)	(((result) & (1 << (vector))) != 0)

/* Run-time checks: does the running kernel know this capability / ambient? */
#define CAP_IS_SUPPORTED(cap)		(cap_get_bound(cap) >= 0)
#define CAP_AMBIENT_SUPPORTED()		(cap_get_ambient(CAP_CHOWN) >= 0)

/* Objects: allocation and release. */
extern cap_t cap_init(void);
extern cap_t cap_dup(cap_t);
extern int cap_free(void *);
extern cap_iab_t cap_iab_init(void);
extern cap_iab_t cap_iab_dup(cap_iab_t);

/* Flag vectors of a cap_t. */
extern int cap_get_flag(cap_t, cap_value_t, cap_flag_t, cap_flag_value_t *);
extern int cap_set_flag(cap_t, cap_flag_t, int, const cap_value_t *,
			cap_flag_value_t);
extern int cap_clear(cap_t);
extern int cap_clear_flag(cap_t, cap_flag_t);
extern int cap_fill_flag(cap_t cap_d, cap_flag_t to, cap_t ref,
			 cap_flag_t from);
extern int cap_fill(cap_t, cap_flag_t, cap_flag_t);
extern int cap_compare(cap_t, cap_t);

/* IAB tuples. */
extern cap_flag_value_t cap_iab_get_vector(cap_iab_t, cap_iab_vector_t,
					   cap_value_t);
extern int cap_iab_set_vector(cap_iab_t, cap_iab_vector_t, cap_value_t,
			      cap_flag_value_t);
extern int cap_iab_fill(cap_iab_t, cap_iab_vector_t, cap_t, cap_flag_t);
extern int cap_iab_compare(cap_iab_t, cap_iab_t);

/* File capabilities (the security.capability extended attribute). */
extern cap_t cap_get_fd(int);
extern cap_t cap_get_file(const char *);
extern uid_t cap_get_nsowner(cap_t);
extern int cap_set_fd(int, cap_t);
extern int cap_set_file(const char *, cap_t);
extern int cap_set_nsowner(cap_t, uid_t);

/* Process capabilities. */
extern cap_t cap_get_proc(void);
extern cap_t cap_get_pid(pid_t);
extern int cap_set_proc(cap_t);

extern int cap_get_bound(cap_value_t);
extern int cap_drop_bound(cap_value_t);
extern int cap_get_ambient(cap_value_t);
extern int cap_set_ambient(cap_value_t, cap_flag_value_t);
extern int cap_reset_ambient(void);

/* The 29-byte external (persistent) representation. */
extern ssize_t cap_size(cap_t cap_d);
extern ssize_t cap_copy_ext(void *cap_ext, cap_t cap_d, ssize_t length);
extern cap_t cap_copy_int(const void *cap_ext);
extern cap_t cap_copy_int_check(const void *cap_ext, ssize_t length);

/* Text and names. */
extern cap_t cap_from_text(const char *);
extern char *cap_to_text(cap_t, ssize_t *);
extern int cap_from_name(const char *, cap_value_t *);
extern char *cap_to_name(cap_value_t);
extern char *cap_iab_to_text(cap_iab_t iab);
extern cap_iab_t cap_iab_from_text(const char *text);

extern cap_value_t cap_max_bits(void);
extern char *cap_proc_root(const char *root);

/* Routing of the state-changing system calls, and process modes. */
extern void cap_set_syscall(long int (*new_syscall)(long int, long int,
						    long int, long int),
			    long int (*new_syscall6)(long int, long int,
						     long int, long int,
						     long int, long int,
						     long int));
extern int cap_set_mode(cap_mode_t flavor);
extern cap_mode_t cap_get_mode(void);
extern const char *cap_mode_name(cap_mode_t flavor);

extern unsigned cap_get_secbits(void);
extern int cap_set_secbits(unsigned bits);

extern int cap_prctl(long int pr_cmd, long int arg1, long int arg2,
		     long int arg3, long int arg4, long int arg5);
extern int cap_prctlw(long int pr_cmd, long int arg1, long int arg2,
		      long int arg3, long int arg4, long int arg5);
extern int cap_setuid(uid_t uid);
extern int cap_setgroups(gid_t gid, size_t ngroups, const gid_t groups[]);

extern cap_iab_t cap_iab_get_proc(void);
extern cap_iab_t cap_iab_get_pid(pid_t);
extern int cap_iab_set_proc(cap_iab_t iab);

/* The launcher: start a program or function with a new capability state. */
extern cap_launch_t cap_new_launcher(const char *arg0,
				     const char * const *argv,
				     const char * const *envp);
extern cap_launch_t cap_func_launcher(int (callback_fn)(void *detail));
extern int cap_launcher_callback(cap_launch_t attr,
				 int (callback_fn)(void *detail));
extern int cap_launcher_setuid(cap_launch_t attr, uid_t uid);
extern int cap_launcher_setgroups(cap_launch_t attr, gid_t gid,
				  int ngroups, const gid_t *groups);
extern int cap_launcher_set_mode(cap_launch_t attr, cap_mode_t flavor);
extern cap_iab_t cap_launcher_set_iab(cap_launch_t attr, cap_iab_t iab);
extern int cap_launcher_set_chroot(cap_launch_t attr, const char *chroot);
extern pid_t cap_launch(cap_launch_t attr, void *detail);

/*
 * The raw system calls. The C library provides them; this library does not
 * export them, and declares them only because libcap's header always has.
 */
extern int capget(cap_user_header_t header, cap_user_data_t data);
extern int capset(cap_user_header_t header, const cap_user_data_t data);

/* Deprecated: the kernel no longer lets one process set another's. */
extern int capgetp(pid_t pid, cap_t cap_d);
extern int capsetp(pid_t pid, cap_t cap_d);

#ifdef __cplusplus
}
#endif

#endif /* SYS_CAPABILITY_H_DROPIN */
