/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * One mount judged in the search for a writable way to a directory, and
 * what the search keeps of the mounts and namespaces it judged
 * (mountsearch.h).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "mountsearch.h"

void search_say(struct view_search *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(s->why, s->whylen, fmt, ap);
	va_end(ap);
}

/* Room for one more in a vector of n of room items of size each. */
static int grow(void **v, size_t n, size_t *room, size_t size)
{
	void *more;
	size_t want = *room ? *room * 2 : 64;

	if (n < *room)
		return 0;
	more = realloc(*v, want * size);
	if (more == NULL) {
		errno = ENOMEM;
		return -1;
	}
	*v = more;
	*room = want;
	return 0;
}

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ULL +
	       (unsigned long long)ts.tv_nsec;
}

int search_budget(struct view_search *s, unsigned long long more)
{
	unsigned long long t = now_ns();

	if (s->deadline_ns == 0)
		s->deadline_ns = t + MOUNTS_SEARCH_SECONDS * 1000000000ULL;
	if (s->nseen + more > MOUNTS_JUDGED_MAX) {
		search_say(
			s,
			"more than %d mounts would have to be judged, too many to tell whether one reaches it",
			MOUNTS_JUDGED_MAX);
		return -1;
	}
	if (t > s->deadline_ns) {
		search_say(
			s,
			"the mounts could not all be judged in %d seconds, so whether one reaches it is unknown",
			MOUNTS_SEARCH_SECONDS);
		return -1;
	}
	return 0;
}

int search_judge(struct view_search *s, const struct mount_entry *e,
		 const char *where)
{
	if (search_budget(s, 1) < 0)
		return -1;
	if (grow((void **)&s->seen, s->nseen, &s->seen_room, sizeof(*s->seen)) <
	    0) {
		s->why[0] = '\0';
		return -1;
	}
	s->seen[s->nseen++] = e->old_id;
	s->seen_sorted = 0;
	if (!mount_reaches(e, s->major, s->minor, s->fs_path))
		return 0;
	if (where != NULL && e->point != NULL)
		search_say(s, "the writable mount on %s %s reaches it too",
			   e->point, where);
	else if (where != NULL)
		search_say(
			s,
			"a writable mount (of %s in its file system) %s reaches it too",
			e->root, where);
	else if (e->point != NULL)
		search_say(s, "the writable mount on %s reaches it too",
			   e->point);
	else
		search_say(
			s,
			"a writable mount outside this root (of %s in its file system) reaches it too",
			e->root);
	return 1;
}

static int has_ino(const ino_t *v, size_t n, ino_t ino)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i] == ino)
			return 1;
	return 0;
}

int search_ns_seen(struct view_search *s, ino_t ino, int whole)
{
	if (!has_ino(s->ns_seen, s->nns, ino)) {
		if (grow((void **)&s->ns_seen, s->nns, &s->ns_room,
			 sizeof(*s->ns_seen)) < 0)
			return -1;
		s->ns_seen[s->nns++] = ino;
	}
	if (whole && !has_ino(s->ns_whole, s->nwhole, ino)) {
		if (grow((void **)&s->ns_whole, s->nwhole, &s->whole_room,
			 sizeof(*s->ns_whole)) < 0)
			return -1;
		s->ns_whole[s->nwhole++] = ino;
	}
	return 0;
}

int search_ns_known(const struct view_search *s, ino_t ino, int whole)
{
	return whole ? has_ino(s->ns_whole, s->nwhole, ino)
		     : has_ino(s->ns_seen, s->nns, ino);
}

static int by_id(const void *a, const void *b)
{
	unsigned long long x = *(const unsigned long long *)a;
	unsigned long long y = *(const unsigned long long *)b;

	return x < y ? -1 : x > y;
}

int search_mount_seen(struct view_search *s, unsigned long long old_id)
{
	if (!s->seen_sorted) {
		if (s->nseen > 0)
			qsort(s->seen, s->nseen, sizeof(*s->seen), by_id);
		s->seen_sorted = 1;
	}
	return s->nseen > 0 && bsearch(&old_id, s->seen, s->nseen,
				       sizeof(*s->seen), by_id) != NULL;
}

void search_free(struct view_search *s)
{
	free(s->seen);
	free(s->ns_seen);
	free(s->ns_whole);
	s->seen = NULL;
	s->ns_seen = s->ns_whole = NULL;
}
