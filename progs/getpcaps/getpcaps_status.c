/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * getpcaps --all: the texts of /proc/<pid>/status and /proc/<pid>/stat
 * made into credentials and facts. Reading them is getpcaps_scan.c's.
 *
 * The status file alone holds what most processes need: each thread's
 * credentials and, for the main thread, its name, state, parent, thread
 * count and whether it is a kernel thread. Only stat holds the
 * controlling terminal and the start time, and a proc file costs as much
 * to open and make as the status it would join, so stat is read only for
 * the processes that need it (getpcaps_scan.c says which).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "getpcaps.h"
#include "procstatus.h"

/*
 * A decimal number of at most max, all digits, no sign, ending at a
 * newline (or the text's end). Returns 0, or -1.
 */
static int parse_decimal(const char *p, unsigned long max, unsigned long *out)
{
	unsigned long v = 0;

	while (*p == ' ' || *p == '\t')
		p++;
	if (*p < '0' || *p > '9')
		return -1;
	for (; *p >= '0' && *p <= '9'; p++) {
		unsigned long digit = (unsigned long)(*p - '0');

		if (digit > max || v > (max - digit) / 10)
			return -1;
		v = v * 10 + digit;
	}
	if (*p != '\n' && *p != '\0')
		return -1;
	*out = v;
	return 0;
}

/*
 * The Name line's value into comm, undoing the kernel's escapes: it
 * writes a newline as \n and a backslash as \\ (fs/proc/array.c,
 * proc_task_name(): ESCAPE_SPACE and ESCAPE_SPECIAL limited to those
 * two), the rest as it is, so the name cannot end its line early. The
 * other escapes of those classes are read as well, in case a kernel
 * writes them. Returns 1, or 0 for an escape we do not know, which
 * leaves the name to stat, where it is written raw.
 */
static int unescape_name(const char *p, char *comm, size_t size)
{
	static const char from[] = "ntvfr\\ae\"", to[] = "\n\t\v\f\r\\\a\033\"";
	size_t n = 0;

	for (; *p != '\n' && *p != '\0'; p++) {
		char c = *p;

		if (c == '\\') {
			const char *at =
				p[1] != '\0' ? strchr(from, p[1]) : NULL;

			if (at == NULL)
				return 0;
			c = to[at - from];
			p++;
		}
		if (n + 1 < size)
			comm[n++] = c;
	}
	comm[n] = '\0';
	return 1;
}

/* The lines of the main thread's status beyond the credentials. */
static int parse_facts(const char *status, struct status_facts *f)
{
	enum { NAME = 1, STATE = 2, PPID = 4, KTHREAD = 8, ALL = 15 };
	const char *line = status;
	unsigned seen = 0;
	unsigned long v;

	f->kthread = -1;
	f->comm_known = 0;
	for (; *line != '\0' && seen != ALL; line++) {
		if (strncmp(line, "Name:\t", 6) == 0 && !(seen & NAME)) {
			f->comm_known = unescape_name(line + 6, f->comm,
						      sizeof(f->comm));
			seen |= NAME;
		} else if (strncmp(line, "State:\t", 7) == 0 &&
			   !(seen & STATE)) {
			f->state = line[7];
			if (!((f->state >= 'A' && f->state <= 'Z') ||
			      (f->state >= 'a' && f->state <= 'z')))
				return -1;
			seen |= STATE;
		} else if (strncmp(line, "PPid:", 5) == 0 && !(seen & PPID)) {
			if (parse_decimal(line + 5, 0x7fffffffUL, &v) < 0)
				return -1;
			f->ppid = (pid_t)v;
			seen |= PPID;
		} else if (strncmp(line, "Kthread:", 8) == 0 &&
			   !(seen & KTHREAD)) {
			if (parse_decimal(line + 8, 1, &v) < 0)
				return -1;
			f->kthread = (int)v;
			seen |= KTHREAD;
		}
		line = strchr(line, '\n');
		if (line == NULL)
			break;
	}
	/* Kthread alone may be missing: older kernels do not write it. */
	return (seen | KTHREAD) == ALL ? 0 : -1;
}

/*
 * The status lines of the credentials, read by the shared strict reader:
 * a malformed line fails the record (it is counted as not examined),
 * never a 0 taken for root. A missing CapAmb (before Linux 4.3) or
 * NoNewPrivs (before 4.10) line is unknown, not 0 (procstatus.h).
 */
int creds_parse(const char *status, struct creds *c, struct status_facts *f)
{
	const unsigned need = PROC_STATUS_UID | PROC_STATUS_GID |
			      PROC_STATUS_GROUPS | PROC_STATUS_CAPINH |
			      PROC_STATUS_CAPPRM | PROC_STATUS_CAPEFF |
			      PROC_STATUS_CAPBND;
	struct proc_status ps;
	const char *bad;
	int i;

	memset(c, 0, sizeof(*c));
	if (proc_status_parse(status, &ps, &bad) < 0) {
		int saved = errno == EINVAL ? EPROTO : errno;

		proc_status_release(&ps);
		errno = saved;
		return -1;
	}
	if ((ps.seen & need) != need ||
	    (f != NULL && parse_facts(status, f) < 0)) {
		proc_status_release(&ps);
		errno = EPROTO;
		return -1;
	}
	for (i = 0; i < 4; i++) {
		c->uid[i] = ps.uid[i];
		c->gid[i] = ps.gid[i];
	}
	c->groups = ps.groups; /* c owns them now */
	c->ngroups = ps.ngroups;
	c->inh = ps.inheritable;
	c->prm = ps.permitted;
	c->eff = ps.effective;
	c->bnd = ps.bounding;
	c->amb = ps.ambient;
	c->amb_known = proc_status_ambient_known(&ps);
	c->nnp = ps.no_new_privs;
	if (f != NULL)
		f->threads = ps.seen & PROC_STATUS_THREADS ? ps.threads : 0;
	return 0;
}

void creds_release(struct creds *c)
{
	free(c->groups);
	c->groups = NULL;
	c->ngroups = 0;
}

/*
 * "pid (comm) state ppid pgrp session tty_nr tpgid flags ... starttime":
 * comm may hold spaces and parentheses, so it ends at the last ')'.
 * Returns 0, or -1 when the text is not what the kernel writes.
 */
int stat_parse(const char *text, char *comm, size_t comm_size,
	       struct stat_fields *f)
{
	const char *open = strchr(text, '('), *close = strrchr(text, ')');
	size_t len;
	int ppid;

	if (open == NULL || close == NULL || close < open)
		return -1;
	len = (size_t)(close - open - 1);
	if (comm != NULL) {
		if (len >= comm_size)
			len = comm_size - 1;
		memcpy(comm, open + 1, len);
		comm[len] = '\0';
	}
	/* fields 3..22 of proc(5); %*s skips the ones we do not use */
	if (sscanf(close + 1,
		   " %c %d %*s %*s %d %*s %u %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %llu",
		   &f->state, &ppid, &f->tty_nr, &f->flags, &f->start) != 5)
		return -1;
	f->ppid = (pid_t)ppid;
	return 0;
}
