/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* A strict reader of /proc/<pid>/status (see procstatus.h). */
#define _GNU_SOURCE /* getline */
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "procstatus.h"

/* Strict numbers: all digits, in range, nothing after but blanks. */
static int parse_ulong(const char **p, int base, unsigned long long max,
		       unsigned long long *out)
{
	char *end;

	while (**p == ' ' || **p == '\t')
		(*p)++;
	if (**p == '\0' || **p == '\n' || **p == '-' || **p == '+')
		return -1;
	errno = 0;
	*out = strtoull(*p, &end, base);
	if (errno != 0 || end == *p || *out > max ||
	    (*end != '\0' && *end != '\n' && *end != ' ' && *end != '\t'))
		return -1;
	*p = end;
	return 0;
}

static int at_end(const char *p)
{
	p += strspn(p, " \t");
	return *p == '\0' || *p == '\n';
}

/* "Uid:\t0\t0\t0\t0": real, effective, saved, filesystem. */
static int parse_ids(const char *p, unsigned id[4])
{
	unsigned long long v;
	int i;

	for (i = 0; i < 4; i++) {
		if (parse_ulong(&p, 10, UINT32_MAX, &v) < 0)
			return -1;
		id[i] = (unsigned)v;
	}
	return at_end(p) ? 0 : -1;
}

static int parse_groups(const char *p, struct proc_status *s)
{
	unsigned long long v;
	gid_t *g;

	while (!at_end(p)) {
		if (parse_ulong(&p, 10, UINT32_MAX, &v) < 0)
			return -1;
		g = realloc(s->groups, (size_t)(s->ngroups + 1) * sizeof(*g));
		if (g == NULL)
			return -2; /* ENOMEM, not the line's fault */
		s->groups = g;
		s->groups[s->ngroups++] = (gid_t)v;
	}
	return 0;
}

static int parse_hex(const char *p, uint64_t *out)
{
	unsigned long long v;

	if (parse_ulong(&p, 16, UINT64_MAX, &v) < 0 || !at_end(p))
		return -1;
	*out = v;
	return 0;
}

static int parse_small(const char *p, int max, int *out)
{
	unsigned long long v;

	if (parse_ulong(&p, 10, (unsigned long long)max, &v) < 0 || !at_end(p))
		return -1;
	*out = (int)v;
	return 0;
}

int proc_status_line(const char *line, struct proc_status *s)
{
	/*
	 * In the order of the PROC_STATUS_* bits. A status file has some 60
	 * lines and a process audit reads one per thread: the first letter
	 * turns most lines away before any string comparison.
	 */
	static const struct {
		const char *name;
		size_t len;
	} keys[] = {
#define KEY(name) { name, sizeof(name) - 1 }
		KEY("Uid:"),	KEY("Gid:"),	    KEY("Groups:"),
		KEY("CapInh:"), KEY("CapPrm:"),	    KEY("CapBnd:"),
		KEY("CapAmb:"), KEY("NoNewPrivs:"), KEY("Seccomp:"),
		KEY("CapEff:"), KEY("Threads:"),    KEY("TracerPid:"),
#undef KEY
	};
	unsigned id[4];
	size_t i;
	int rc = -1, k;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (line[0] == keys[i].name[0] &&
		    strncmp(line, keys[i].name, keys[i].len) == 0)
			break;
	if (i == sizeof(keys) / sizeof(keys[0]))
		return 0;
	line += keys[i].len;
	switch (1 << i) {
	case PROC_STATUS_UID:
	case PROC_STATUS_GID:
		rc = parse_ids(line, id);
		for (k = 0; rc == 0 && k < 4; k++) {
			if (i == 0)
				s->uid[k] = id[k];
			else
				s->gid[k] = id[k];
		}
		break;
	case PROC_STATUS_GROUPS:
		rc = parse_groups(line, s);
		if (rc == -2) {
			errno = ENOMEM;
			return -1;
		}
		break;
	case PROC_STATUS_CAPINH:
		rc = parse_hex(line, &s->inheritable);
		break;
	case PROC_STATUS_CAPPRM:
		rc = parse_hex(line, &s->permitted);
		break;
	case PROC_STATUS_CAPBND:
		rc = parse_hex(line, &s->bounding);
		break;
	case PROC_STATUS_CAPAMB:
		rc = parse_hex(line, &s->ambient);
		break;
	case PROC_STATUS_NNP:
		rc = parse_small(line, 1, &s->no_new_privs);
		break;
	case PROC_STATUS_SECCOMP:
		rc = parse_small(line, 2, &s->seccomp);
		break;
	case PROC_STATUS_CAPEFF:
		rc = parse_hex(line, &s->effective);
		break;
	case PROC_STATUS_THREADS:
		rc = parse_small(line, INT_MAX, &k);
		s->threads = (unsigned)k;
		break;
	case PROC_STATUS_TRACER:
		rc = parse_small(line, INT_MAX, &k);
		s->tracer = (pid_t)k;
		break;
	}
	if (rc < 0) {
		errno = EINVAL;
		return -1;
	}
	s->seen |= 1u << i;
	return 1 << i;
}

/* Fields whose line was missing read as unknown, never as 0 (see .h). */
static void mark_unknown(struct proc_status *s)
{
	if (!(s->seen & PROC_STATUS_NNP))
		s->no_new_privs = -1;
	if (!(s->seen & PROC_STATUS_SECCOMP))
		s->seccomp = -1;
}

int proc_status_read(int dirfd, struct proc_status *s, char **bad)
{
	char *line = NULL;
	size_t cap = 0;
	int fd, rc = 0;
	FILE *f;

	memset(s, 0, sizeof(*s));
	*bad = NULL;
	fd = openat(dirfd, "status", O_RDONLY | O_CLOEXEC);
	f = fd < 0 ? NULL : fdopen(fd, "r");
	if (f == NULL) {
		int saved = errno;

		if (fd >= 0)
			close(fd);
		errno = saved;
		return -1;
	}
	while (getline(&line, &cap, f) > 0) {
		if (proc_status_line(line, s) >= 0)
			continue;
		/* Fail closed: a field we cannot read decides nothing. */
		if (errno == EINVAL) {
			line[strcspn(line, "\n")] = '\0';
			*bad = line;
			line = NULL;
		}
		rc = -1;
		break;
	}
	free(line);
	fclose(f);
	mark_unknown(s);
	if (rc < 0)
		errno = *bad != NULL ? EINVAL : ENOMEM;
	return rc;
}

int proc_status_parse(const char *text, struct proc_status *s, const char **bad)
{
	const char *line = text;

	memset(s, 0, sizeof(*s));
	*bad = NULL;
	while (*line != '\0') {
		const char *nl = strchr(line, '\n');

		if (proc_status_line(line, s) < 0) {
			if (errno == EINVAL)
				*bad = line;
			mark_unknown(s);
			return -1; /* fail closed, as proc_status_read */
		}
		if (nl == NULL)
			break;
		line = nl + 1;
	}
	mark_unknown(s);
	return 0;
}

void proc_status_release(struct proc_status *s)
{
	free(s->groups);
	s->groups = NULL;
	s->ngroups = 0;
}

int proc_status_ambient_known(const struct proc_status *s)
{
	const unsigned pi = PROC_STATUS_CAPPRM | PROC_STATUS_CAPINH;

	if (s->seen & PROC_STATUS_CAPAMB)
		return 1;
	return (s->seen & pi) == pi && (s->permitted & s->inheritable) == 0;
}
