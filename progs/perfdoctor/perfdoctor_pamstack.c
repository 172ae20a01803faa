/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * perfdoctor: reading a PAM service's auth stack as libpam does.
 * "@include FILE" and "auth include FILE" splice FILE's lines in place
 * (jumps count across them), "auth substack FILE" runs them as one unit
 * whose "done" and jumps stay inside; comments start at '#', a backslash
 * continues a line, "[...]" is one word. Only what decides whether a
 * line can be skipped is kept: "sufficient" and "done" end a stack,
 * "value=N" jumps over N lines (a substack counts as one).
 */
#define _GNU_SOURCE /* getline, strcasecmp, O_PATH */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "perfdoctor.h"
#include "reopen.h"

static void stack_error(struct pam_stack *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void stack_error(struct pam_stack *s, const char *fmt, ...)
{
	va_list ap;

	if (s->error[0] != '\0')
		return;
	va_start(ap, fmt);
	vsnprintf(s->error, sizeof(s->error), fmt, ap);
	va_end(ap);
}

/* libpam's word splitting: blanks separate, "[...]" is one word. */
static char *next_word(char **p)
{
	char *start, *end;

	*p += strspn(*p, " \t\r\n");
	if (**p == '\0')
		return NULL;
	start = *p;
	if (*start == '[') {
		end = strchr(start, ']');
		if (end == NULL)
			end = start + strlen(start) - 1;
		end++;
	} else {
		end = start + strcspn(start, " \t\r\n");
	}
	*p = end;
	if (*end != '\0') {
		*end = '\0';
		(*p)++;
	}
	return start;
}

/* "sufficient" ends the stack on success; in brackets, "done" and jumps. */
static int parse_control(const char *control, struct pam_entry *e)
{
	char buf[512], *item, *save = NULL;

	if (strcasecmp(control, "required") == 0 ||
	    strcasecmp(control, "requisite") == 0 ||
	    strcasecmp(control, "optional") == 0)
		return 0;
	if (strcasecmp(control, "sufficient") == 0) {
		e->may_end = 1;
		return 0;
	}
	if (control[0] != '[' || strlen(control) >= sizeof(buf))
		return -1;
	snprintf(buf, sizeof(buf), "%s", control + 1);
	buf[strcspn(buf, "]")] = '\0';
	for (item = strtok_r(buf, " \t", &save); item != NULL;
	     item = strtok_r(NULL, " \t", &save)) {
		const char *action = strchr(item, '=');
		char *end;
		long n;

		if (action == NULL)
			return -1;
		action++;
		if (strcasecmp(action, "done") == 0) {
			e->may_end = 1;
		} else if (action[0] >= '0' && action[0] <= '9') {
			n = strtol(action, &end, 10);
			if (*end != '\0' || n < 0 || n > PAMSTACK_MAX_ENTRIES)
				return -1;
			if (n > e->jump)
				e->jump = (int)n;
		} else if (strcasecmp(action, "ignore") != 0 &&
			   strcasecmp(action, "ok") != 0 &&
			   strcasecmp(action, "bad") != 0 &&
			   strcasecmp(action, "die") != 0 &&
			   strcasecmp(action, "reset") != 0) {
			return -1;
		}
	}
	return 0;
}

static int is_pam_cap(const char *module)
{
	const char *base = strrchr(module, '/');

	return strcmp(base != NULL ? base + 1 : module, "pam_cap.so") == 0;
}

/* What pam_cap reads; it logs anything else and goes on without it. */
const char *const pam_cap_arguments[] = {
	"debug", "keepcaps", "autoauth", "defer", "config=", "default=",
};
const size_t pam_cap_narguments =
	sizeof(pam_cap_arguments) / sizeof(pam_cap_arguments[0]);

static void read_pam_cap_args(struct pam_entry *e, char **p)
{
	char *arg;

	while ((arg = next_word(p)) != NULL) {
		if (arg[0] == '[') { /* "[config=a b]" keeps its blanks */
			arg++;
			arg[strcspn(arg, "]")] = '\0';
		}
		if (strcmp(arg, "keepcaps") == 0)
			e->keepcaps = 1;
		else if (strcmp(arg, "defer") == 0)
			e->defer = 1;
		else if (strncmp(arg, "config=", 7) == 0) {
			e->config_given = 1;
			snprintf(e->config, sizeof(e->config), "%s", arg + 7);
		} else if (strncmp(arg, "default=", 8) == 0)
			snprintf(e->fallback, sizeof(e->fallback), "%s",
				 arg + 8);
		else if (strcmp(arg, "debug") != 0 &&
			 strcmp(arg, "autoauth") != 0 && e->nunknown++ == 0)
			/* A typo ("keepcap") silently changes what arrives. */
			snprintf(e->unknown, sizeof(e->unknown), "%s", arg);
	}
}

static void read_file(struct pam_stack *s, const char *name, int level,
		      int frame, int depth);

static struct pam_entry *add_entry(struct pam_stack *s, const char *file,
				   unsigned long line, int level, int frame)
{
	struct pam_entry *e;

	if (s->n >= PAMSTACK_MAX_ENTRIES) {
		stack_error(s, "more than %d auth lines", PAMSTACK_MAX_ENTRIES);
		return NULL;
	}
	e = &s->e[s->n++];
	memset(e, 0, sizeof(*e));
	snprintf(e->where, sizeof(e->where), "%s:%lu", file, line);
	e->level = level;
	e->frame = frame;
	return e;
}

/* One line of a PAM file; comments and continuations already removed. */
static void read_line(struct pam_stack *s, const char *file,
		      unsigned long lineno, char *p, int level, int frame,
		      int depth)
{
	char *type = next_word(&p), *control, *module;
	struct pam_entry *e;

	if (type == NULL)
		return;
	if (strcmp(type, "@include") == 0) {
		module = next_word(&p);
		if (module == NULL)
			stack_error(s, "%s:%lu: @include without a file", file,
				    lineno);
		else
			read_file(s, module, level, frame, depth + 1);
		return;
	}
	if (type[0] == '-')
		type++; /* "-auth": a missing module is silently skipped */
	if (strcasecmp(type, "auth") != 0)
		return;
	control = next_word(&p);
	module = control == NULL ? NULL : next_word(&p);
	if (module == NULL) {
		stack_error(s, "%s:%lu: an auth line without a module", file,
			    lineno);
		return;
	}
	if (strcasecmp(control, "include") == 0) {
		read_file(s, module, level, frame, depth + 1);
		return;
	}
	if (strcasecmp(control, "substack") == 0) {
		e = add_entry(s, file, lineno, level, frame);
		if (e == NULL)
			return;
		e->marker = 1;
		s->parent[++s->frames] = frame;
		read_file(s, module, level + 1, s->frames, depth + 1);
		return;
	}
	e = add_entry(s, file, lineno, level, frame);
	if (e == NULL)
		return;
	if (parse_control(control, e) < 0) {
		stack_error(s,
			    "%s:%lu: control '%s' is not one perfdoctor reads",
			    file, lineno, control);
		return;
	}
	snprintf(e->module, sizeof(e->module), "%s", module);
	if (is_pam_cap(module)) {
		e->pam_cap = 1;
		read_pam_cap_args(e, &p);
	}
}

/*
 * A stack file for reading, a regular file only: NULL with errno (EINVAL
 * for anything else). Opened O_PATH first and then through /proc
 * (reopen.h): a FIFO put there (or named by an include), which an open
 * for reading waits on for a writer for ever, or a terminal, whose read
 * waits for input, is never opened. libpam would hang on them; the
 * report says why instead.
 */
static FILE *open_stack_file(const char *path)
{
	int pfd = open(path, O_PATH | O_CLOEXEC), fd, saved;
	FILE *f;

	if (pfd < 0)
		return NULL;
	fd = reopen_regular_rdonly(pfd);
	saved = errno;
	close(pfd);
	if (fd < 0) {
		errno = saved;
		return NULL;
	}
	f = fdopen(fd, "r");
	if (f == NULL) {
		saved = errno;
		close(fd);
		errno = saved;
	}
	return f;
}

/* Every auth line of a file, in order (other types are read past). */
static void read_file(struct pam_stack *s, const char *name, int level,
		      int frame, int depth)
{
	char path[4096], *line = NULL, *joined = NULL;
	size_t cap = 0, jlen = 0;
	unsigned long lineno = 0, first = 0;
	ssize_t len;
	FILE *f;

	if (depth > PAMSTACK_MAX_DEPTH) {
		stack_error(s, "includes nested more than %d deep at %s",
			    PAMSTACK_MAX_DEPTH, name);
		return;
	}
	if (name[0] == '/')
		snprintf(path, sizeof(path), "%s", name);
	else
		snprintf(path, sizeof(path), "%s/%s", s->dir, name);
	f = open_stack_file(path);
	if (f == NULL) {
		stack_error(s, "%s: %s", path,
			    errno == EINVAL ? "not a regular file"
					    : strerror(errno));
		return;
	}
	while ((len = getline(&line, &cap, f)) >= 0) {
		char *hash, *grown;

		lineno++;
		if (joined == NULL)
			first = lineno;
		line[strcspn(line, "\n")] = '\0';
		len = (ssize_t)strlen(line);
		/* A backslash before the newline continues the line. */
		grown = realloc(joined, jlen + (size_t)len + 2);
		if (grown == NULL) {
			stack_error(s, "out of memory");
			break;
		}
		joined = grown;
		memcpy(joined + jlen, line, (size_t)len + 1);
		jlen += (size_t)len;
		if (jlen > 0 && joined[jlen - 1] == '\\') {
			joined[jlen - 1] = ' ';
			continue;
		}
		hash = strchr(joined, '#');
		if (hash != NULL)
			*hash = '\0';
		read_line(s, path, first, joined, level, frame, depth);
		free(joined);
		joined = NULL;
		jlen = 0;
	}
	if (joined != NULL) {
		read_line(s, path, first, joined, level, frame, depth);
		free(joined);
	}
	if (ferror(f))
		stack_error(s, "%s: read error", path);
	free(line);
	fclose(f);
}

/* Is frame f the frame `inner` or one that encloses it? */
static int encloses(const struct pam_stack *s, int f, int inner)
{
	while (inner != 0 && inner != f)
		inner = s->parent[inner];
	return inner == f;
}

/* The index just past the unit (a line, or a whole substack) at i. */
static int unit_end(const struct pam_stack *s, int i)
{
	int level = s->e[i].level;

	i++;
	while (i < s->n && s->e[i].level > level)
		i++;
	return i;
}

/*
 * Can line j keep the stack from reaching line k? "done" ends the frame
 * it is in (and so every line after it in that frame and in substacks
 * under it); a jump skips the next N units of its own level.
 */
int pam_stack_may_skip(const struct pam_stack *s, int j, int k)
{
	const struct pam_entry *a = &s->e[j];
	int i, n;

	if (!encloses(s, a->frame, s->e[k].frame))
		return 0;
	if (a->may_end)
		return 1;
	for (i = unit_end(s, j), n = 0; n < a->jump && i < s->n; n++) {
		int end = unit_end(s, i);

		if (s->e[i].level < a->level)
			break; /* the frame ended: a jump goes no further */
		if (k >= i && k < end)
			return 1;
		i = end;
	}
	return 0;
}

int pam_stack_may_skip_end(struct pam_stack *s)
{
	int j, skip = 0;

	if (s->n >= PAMSTACK_MAX_ENTRIES)
		return 1; /* no room to ask: assume the worst */
	/*
	 * A line at the very end of the top level, asked about like any
	 * other: for the question it is there (a jump may land past it).
	 */
	memset(&s->e[s->n], 0, sizeof(s->e[s->n]));
	s->n++;
	for (j = 0; j < s->n - 1 && !skip; j++)
		skip = !s->e[j].marker && pam_stack_may_skip(s, j, s->n - 1);
	s->n--;
	return skip;
}

void pam_stack_read(struct pam_stack *s, const char *name)
{
	read_file(s, name, 0, 0, 0);
}
