/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* getcap's output: whole lines per thread buffer, written under one lock. */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "json.h"
#include "escape.h"
#include "getcap.h"
#include "path.h"

/* Big enough to make stdout writes rare on a large tree. */
#define FLUSH_AT (64 * 1024)

static pthread_mutex_t stdout_lock = PTHREAD_MUTEX_INITIALIZER;
/* -1 until asked; then whether stdout is a terminal (flush per directory). */
static int stdout_tty = -1;

void out_init(struct outbuf *ob)
{
	memset(ob, 0, sizeof(*ob));
}

static int reserve(struct outbuf *ob, size_t more)
{
	size_t want = ob->len + more;
	char *p;

	if (want <= ob->cap)
		return 0;
	if (want < 2 * ob->cap)
		want = 2 * ob->cap;
	if (want < 4096)
		want = 4096;
	p = realloc(ob->data, want);
	if (p == NULL)
		return -1;
	ob->data = p;
	ob->cap = want;
	return 0;
}

static void append(struct outbuf *ob, const char *s, size_t n)
{
	memcpy(ob->data + ob->len, s, n);
	ob->len += n;
}

/* nftw's join: no second '/' after a directory printed as "/". */
static int needs_slash(const struct ent *e)
{
	return path_needs_slash(e->dir, e->dirlen);
}

char *ent_path(const struct ent *e)
{
	return path_join(e->dir, e->dirlen, e->name);
}

/* Set before any thread starts, never written again: no lock needed. */
static int json_output;

void out_set_json(int on)
{
	json_output = on;
}

/* {"schema":1,"path":"<path>"<fields>}: built in memory, appended whole. */
void out_json(struct outbuf *ob, const struct ent *e, const char *fields)
{
	char *path = ent_path(e), *line = NULL;
	size_t len = 0;
	FILE *mem;

	mem = path != NULL ? open_memstream(&line, &len) : NULL;
	if (mem == NULL) {
		free(path);
		ob->failed = 1;
		return;
	}
	json_object_open(mem, NULL);
	json_path(mem, "path", path);
	fprintf(mem, "%s}\n", fields);
	if (fclose(mem) != 0 || reserve(ob, len) < 0)
		ob->failed = 1;
	else
		append(ob, line, len);
	free(line);
	free(path);
}

/* Set before any thread starts, never written again: no lock needed. */
static int escape_paths;

void out_set_escape(int on)
{
	escape_paths = on;
}

/* out_line() for --audit: the path escaped, the rest as given. */
static void out_escaped_line(struct outbuf *ob, const struct ent *e,
			     const char *rest)
{
	char *path = ent_path(e), *shown = path ? escape_dup(path) : NULL;
	size_t sl = shown ? strlen(shown) : 0, rl = strlen(rest);

	if (shown == NULL || reserve(ob, sl + rl + 1) < 0) {
		ob->failed = 1;
	} else {
		append(ob, shown, sl);
		append(ob, rest, rl);
		append(ob, "\n", 1);
	}
	free(shown);
	free(path);
}

void out_line(struct outbuf *ob, const struct ent *e, const char *rest)
{
	size_t dl = e->dir != NULL ? e->dirlen : 0, nl = strlen(e->name);
	size_t rl = strlen(rest);
	int slash = needs_slash(e);

	if (json_output) {
		/*
		 * Only -v's lines come here in JSON mode; capabilities use
		 * out_json.
		 */
		out_json(ob, e,
			 rest[0] == '\0' ? ",\"text\":null"
					 : ",\"text\":null,\"regular\":false");
		return;
	}
	if (escape_paths) {
		out_escaped_line(ob, e, rest);
		return;
	}
	if (reserve(ob, dl + 1 + nl + rl + 1) < 0) {
		ob->failed = 1;
		return;
	}
	append(ob, e->dir != NULL ? e->dir : "", dl);
	if (slash)
		append(ob, "/", 1);
	append(ob, e->name, nl);
	append(ob, rest, rl);
	append(ob, "\n", 1);
}

static void write_all(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return; /* as with stdio: a failing stdout is quiet */
		}
		p += w;
		n -= (size_t)w;
	}
}

void out_flush(struct outbuf *ob)
{
	if (ob->len == 0)
		return;
	pthread_mutex_lock(&stdout_lock);
	write_all(STDOUT_FILENO, ob->data, ob->len);
	pthread_mutex_unlock(&stdout_lock);
	ob->len = 0;
}

void out_maybe_flush(struct outbuf *ob)
{
	int tty = __atomic_load_n(&stdout_tty, __ATOMIC_RELAXED);

	if (ob->len == 0)
		return;
	if (tty < 0) {
		/* Threads racing here store the same answer. */
		tty = isatty(STDOUT_FILENO);
		__atomic_store_n(&stdout_tty, tty, __ATOMIC_RELAXED);
	}
	if (tty || ob->len >= FLUSH_AT)
		out_flush(ob);
}

void out_free(struct outbuf *ob)
{
	out_flush(ob);
	if (ob->failed)
		out_err("getcap: out of memory: some output lines were lost\n");
	free(ob->data);
	memset(ob, 0, sizeof(*ob));
}

void out_err(const char *fmt, ...)
{
	char small[512], *p = small;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(small)) {
		/* Deep paths: one write(2) per line even when it is long. */
		p = malloc((size_t)n + 1);
		if (p == NULL) {
			write_all(STDERR_FILENO, small, sizeof(small) - 1);
			return;
		}
		va_start(ap, fmt);
		vsnprintf(p, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	write_all(STDERR_FILENO, p, (size_t)n);
	if (p != small)
		free(p);
}
