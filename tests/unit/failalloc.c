/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* The malloc family behind -Wl,--wrap for check_nomem_* suites: see failalloc.h. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "failalloc.h"

void *__real_malloc(size_t size);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t size);
void *__real_reallocarray(void *p, size_t n, size_t size);
char *__real_strdup(const char *s);
char *__real_strndup(const char *s, size_t n);
void __real_free(void *p);

void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t size);
void *__wrap_reallocarray(void *p, size_t n, size_t size);
char *__wrap_strdup(const char *s);
char *__wrap_strndup(const char *s, size_t n);
void __wrap_free(void *p);

static int counting;
static unsigned long attempts, fail_at;
static int failed;

/* Blocks allocated while counting: open addressing on the address. */
#define TRACKED 4096
static void *tracked[TRACKED];
static unsigned long live;

static size_t slot_of(const void *p)
{
	return (size_t)(((uintptr_t)p >> 4) * 2654435761u) % TRACKED;
}

static void track(void *p)
{
	size_t i = slot_of(p);

	if (p == NULL)
		return;
	while (tracked[i] != NULL && tracked[i] != (void *)1)
		i = (i + 1) % TRACKED;
	tracked[i] = p;
	live++;
}

static void untrack(void *p)
{
	size_t i = slot_of(p), probes;

	if (p == NULL)
		return;
	for (probes = 0; probes < TRACKED && tracked[i] != NULL; probes++) {
		if (tracked[i] == p) {
			tracked[i] = (void *)1; /* tombstone */
			live--;
			return;
		}
		i = (i + 1) % TRACKED;
	}
}

/* 1 when this allocation is the one to fail. */
static int should_fail(void)
{
	if (!counting)
		return 0;
	attempts++;
	if (fail_at != 0 && attempts == fail_at) {
		failed = 1;
		errno = ENOMEM;
		return 1;
	}
	return 0;
}

static void *note(void *p)
{
	if (counting)
		track(p);
	return p;
}

void failalloc_start(unsigned long n)
{
	memset(tracked, 0, sizeof(tracked));
	live = 0;
	attempts = 0;
	fail_at = n;
	failed = 0;
	counting = 1;
}

unsigned long failalloc_stop(void)
{
	counting = 0;
	return attempts;
}

int failalloc_failed(void)
{
	return failed;
}

unsigned long failalloc_live(void)
{
	return live;
}

void *__wrap_malloc(size_t size)
{
	return should_fail() ? NULL : note(__real_malloc(size));
}

void *__wrap_calloc(size_t n, size_t size)
{
	return should_fail() ? NULL : note(__real_calloc(n, size));
}

void *__wrap_realloc(void *p, size_t size)
{
	void *q;

	if (should_fail())
		return NULL; /* p stays valid and tracked, as realloc leaves it */
	q = __real_realloc(p, size);
	if (q != NULL || size == 0)
		untrack(p);
	return note(q);
}

void *__wrap_reallocarray(void *p, size_t n, size_t size)
{
	void *q;

	if (should_fail())
		return NULL;
	q = __real_reallocarray(p, n, size);
	if (q != NULL)
		untrack(p);
	return note(q);
}

char *__wrap_strdup(const char *s)
{
	return should_fail() ? NULL : note(__real_strdup(s));
}

char *__wrap_strndup(const char *s, size_t n)
{
	return should_fail() ? NULL : note(__real_strndup(s, n));
}

void __wrap_free(void *p)
{
	untrack(p);
	__real_free(p);
}
