/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * /proc/<pid>/status, read once and strictly: every number whole, in
 * range and unsigned, so a line we cannot read decides nothing (no
 * atoi() turning junk into 0, which is root). One read gives credentials,
 * groups, the capability vectors, no_new_privs and seccomp together, from
 * the same moment; cap_iab_get_pid() and cap_get_pid() would each read the
 * file again and give no credentials.
 */
#ifndef COMMON_PROCSTATUS_H
#define COMMON_PROCSTATUS_H

#include <stdint.h>
#include <sys/types.h>

/* The fields read, as bits of proc_status.seen. */
enum {
	PROC_STATUS_UID = 1,
	PROC_STATUS_GID = 2,
	PROC_STATUS_GROUPS = 4,
	PROC_STATUS_CAPINH = 8,
	PROC_STATUS_CAPPRM = 16,
	PROC_STATUS_CAPBND = 32,
	PROC_STATUS_CAPAMB = 64,
	PROC_STATUS_NNP = 128,
	PROC_STATUS_SECCOMP = 256,
	PROC_STATUS_CAPEFF = 512,
	PROC_STATUS_THREADS = 1024,
	PROC_STATUS_TRACER = 2048,
	PROC_STATUS_ALL = 4095,
};

/*
 * A line the kernel does not write is unknown, never 0: CapAmb is missing
 * before Linux 4.3, NoNewPrivs before 4.10 (no_new_privs itself exists
 * since 3.5, so a missing line says nothing about it), Seccomp before
 * 3.8. The reader leaves such a field's bit out of seen and sets
 * no_new_privs and seccomp to -1; ambient stays 0, which is only true
 * when proc_status_ambient_known() says so.
 */

struct proc_status {
	unsigned seen; /* PROC_STATUS_* bits of the fields read */
	uid_t uid[4];  /* real, effective, saved, filesystem */
	gid_t gid[4];
	gid_t *groups; /* supplementary; proc_status_release() */
	int ngroups;
	uint64_t inheritable, permitted, effective, bounding, ambient;
	int no_new_privs; /* 0 or 1; -1 unknown (no NoNewPrivs line) */
	int seccomp;	  /* 0 none, 1 strict, 2 filter; -1 unknown */
	unsigned threads; /* the thread group's size ("Threads:") */
	pid_t tracer;	  /* "TracerPid:": who traces it, 0 for nobody */
};

/*
 * Parses one line ("Uid:\t0\t0\t0\t0\n") into s. Returns the field's bit,
 * 0 for a line of a field not read here, or -1 when the line is one of
 * ours and malformed (errno EINVAL) or its groups need memory (ENOMEM).
 */
int proc_status_line(const char *line, struct proc_status *s);

/*
 * Reads the "status" file of the /proc/<pid> directory open on dirfd into
 * s (zeroed first). Returns 0, or -1 with errno: openat's (ESRCH for a
 * process gone), ENOMEM, or EINVAL with *bad set to the malformed line,
 * without its newline (caller frees with free()). Whether every field was
 * there is for the caller to check in s->seen. Release s in any case.
 */
int proc_status_read(int dirfd, struct proc_status *s, char **bad);

/*
 * The same for a status file already read into text (NUL-terminated), for
 * a caller that reads /proc its own way. On EINVAL *bad points at the
 * malformed line inside text. Release s in any case.
 */
int proc_status_parse(const char *text, struct proc_status *s,
		      const char **bad);

void proc_status_release(struct proc_status *s);

/*
 * 1 when s->ambient is the process's ambient set: CapAmb was read, or the
 * permitted and inheritable sets share no capability (the kernel keeps
 * every ambient capability in both, so the set is empty then). 0 when it
 * is unknown (a kernel before 4.3, or a status file without the line).
 */
int proc_status_ambient_known(const struct proc_status *s);

#endif
