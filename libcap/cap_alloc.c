/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* One allocator for every object the library returns, and one cap_free(). */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "lcap.h"

/*
 * Each object is preceded by a header that names its kind and size, so
 * cap_free() can release any of them and refuse pointers it did not hand
 * out. The header is 16 bytes to keep objects at malloc's alignment.
 */
struct lcap_header {
	uint32_t magic;
	uint32_t size; /* bytes of object after the header */
	uint32_t lock; /* 1 while a call works on the object */
	uint32_t reserved;
};

#define LCAP_MAGIC_BASE	 UINT32_C(0xCA9F1000)
#define LCAP_MAGIC(kind) (LCAP_MAGIC_BASE + (uint32_t)(kind))

static struct lcap_header *header_of(const void *obj)
{
	return (struct lcap_header *)((uintptr_t)obj -
				      sizeof(struct lcap_header));
}

/* zero = 0 is for callers that fill every byte of the object at once. */
static void *alloc_object(enum lcap_kind kind, size_t size, int zero)
{
	struct lcap_header *hdr;

	if (size > UINT32_MAX - sizeof(*hdr)) {
		errno = ENOMEM;
		return NULL;
	}
	if (zero)
		hdr = calloc(1, sizeof(*hdr) + size);
	else
		hdr = malloc(sizeof(*hdr) + size);
	if (hdr == NULL)
		return NULL; /* ENOMEM from calloc or malloc */
	hdr->magic = LCAP_MAGIC(kind);
	hdr->size = (uint32_t)size;
	hdr->lock = 0;
	hdr->reserved = 0;
	return hdr + 1;
}

void *lcap_alloc(enum lcap_kind kind, size_t size)
{
	return alloc_object(kind, size, 1);
}

/* Returns 1 when obj is a live object of this kind, 0 otherwise. */
int lcap_is(const void *obj, enum lcap_kind kind)
{
	if (obj == NULL || ((uintptr_t)obj & (sizeof(uint64_t) - 1)) != 0)
		return 0;
	return header_of(obj)->magic == LCAP_MAGIC(kind);
}

/*
 * A spin lock with a yield: held only for a copy of a few dozen bytes,
 * except by cap_launch(), which keeps its launcher while the child
 * starts. Atomic builtins, not a pthread mutex: no allocation (the
 * out-of-memory paths stay as they were), nothing to initialise or
 * destroy, and nothing for a forked child to inherit but a word.
 */
void lcap_lock(const void *obj)
{
	uint32_t *lock = &header_of(obj)->lock;

	while (__atomic_exchange_n(lock, 1, __ATOMIC_ACQUIRE) != 0)
		sched_yield();
}

void lcap_unlock(const void *obj)
{
	__atomic_store_n(&header_of(obj)->lock, 0, __ATOMIC_RELEASE);
}

int lcap_snapshot(const void *obj, enum lcap_kind kind, void *copy, size_t size)
{
	if (!lcap_is(obj, kind)) {
		errno = EINVAL;
		return -1;
	}
	lcap_lock(obj);
	memcpy(copy, obj, size);
	lcap_unlock(obj);
	return 0;
}

char *lcap_strndup(const char *text, size_t len)
{
	char *copy;

	if (len >= UINT32_MAX - 1) {
		errno = ENOMEM;
		return NULL;
	}
	copy = alloc_object(LCAP_KIND_STRING, len + 1, 0);
	if (copy == NULL)
		return NULL;
	memcpy(copy, text, len);
	copy[len] = '\0';
	return copy;
}

char *lcap_strdup(const char *text)
{
	return lcap_strndup(text, strlen(text));
}

int cap_free(void *obj)
{
	struct lcap_header *hdr;
	uint32_t kind;

	if (obj == NULL)
		return 0;
	if (((uintptr_t)obj & (sizeof(uint64_t) - 1)) != 0) {
		errno = EINVAL;
		return -1;
	}
	hdr = header_of(obj);
	kind = hdr->magic - LCAP_MAGIC_BASE;
	if (kind > LCAP_KIND_STRING) {
		errno = EINVAL;
		return -1;
	}
	/*
	 * Taken and never released: a call on this object in another thread
	 * waits for the scrub below instead of reading it half-freed (calling
	 * anything on an object after its cap_free() is the caller's bug).
	 */
	lcap_lock(obj);
	/* A launcher's IAB goes with the launcher, never on its own. */
	if (kind == LCAP_KIND_IAB && ((struct cap_iab_s *)obj)->held) {
		lcap_unlock(obj);
		errno = EBUSY;
		return -1;
	}
	if (kind == LCAP_KIND_LAUNCH)
		lcap_launch_release(obj);
	/* Scrub the whole object: capability sets and paths are worth hiding. */
	explicit_bzero(hdr, sizeof(*hdr) + hdr->size);
	free(hdr);
	return 0;
}

cap_t cap_init(void)
{
	return lcap_alloc(LCAP_KIND_SET, sizeof(struct _cap_struct));
}

cap_t cap_dup(cap_t caps)
{
	struct _cap_struct snap;
	cap_t copy;

	if (lcap_snapshot(caps, LCAP_KIND_SET, &snap, sizeof(snap)) < 0)
		return NULL;
	copy = cap_init();
	if (copy != NULL)
		*copy = snap;
	return copy;
}
