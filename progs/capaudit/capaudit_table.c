/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * A hash table of fixed-size keys and values, open addressing: capaudit
 * looks up a process, a credential's span and a count for every sample,
 * and a linear search per sample grows with the processes and threads it
 * follows (a daemon with thousands of threads under --pid).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "capaudit_table.h"

/*
 * A slot: the key, the value (8-byte aligned, as the slots are), then
 * one byte "in use", padded to 8 bytes.
 */
static size_t val_off(const struct table *tb)
{
	return (tb->keysize + 7) & ~(size_t)7;
}

static size_t used_off(const struct table *tb)
{
	return val_off(tb) + tb->valsize;
}

static size_t slot_size(const struct table *tb)
{
	return (used_off(tb) + 1 + 7) & ~(size_t)7;
}

static unsigned char *slot(const struct table *tb, size_t i)
{
	return tb->slots + i * slot_size(tb);
}

/*
 * Keys are small integers and kernel pointers: a multiply-xorshift per
 * 8-byte word (the keys are padded to 8 bytes but for a lone pid), then
 * a final mix so the low bits, the ones the slot index keeps, depend on
 * every bit.
 */
static uint64_t hash_key(const void *key, size_t len)
{
	const unsigned char *p = key;
	uint64_t h = UINT64_C(0x9e3779b97f4a7c15) ^ len, w;
	size_t i = 0;

	for (; i + 8 <= len; i += 8) {
		memcpy(&w, p + i, 8);
		h = (h ^ w) * UINT64_C(0xff51afd7ed558ccd);
		h ^= h >> 32;
	}
	for (; i < len; i++)
		h = (h ^ p[i]) * UINT64_C(0x100000001b3);
	h ^= h >> 33;
	h *= UINT64_C(0xc4ceb9fe1a85ec53);
	h ^= h >> 33;
	return h;
}

void table_init(struct table *tb, size_t keysize, size_t valsize)
{
	memset(tb, 0, sizeof(*tb));
	tb->keysize = keysize;
	tb->valsize = valsize;
}

static int table_grow(struct table *tb)
{
	size_t n = tb->size ? tb->size * 2 : 64, i, ss = slot_size(tb);
	unsigned char *old = tb->slots;
	size_t oldn = tb->size;

	tb->slots = calloc(n, ss);
	if (tb->slots == NULL) {
		tb->slots = old;
		return -1;
	}
	tb->size = n;
	tb->used = 0;
	tb->generation++;
	for (i = 0; i < oldn; i++) {
		unsigned char *s = old + i * ss;

		if (s[used_off(tb)])
			memcpy(table_get(tb, s, 1), s + val_off(tb),
			       tb->valsize);
	}
	free(old);
	return 0;
}

void *table_get(struct table *tb, const void *key, int create)
{
	size_t i;

	if (tb->size == 0 || (create && (tb->used + 1) * 4 > tb->size * 3)) {
		if (!create)
			return NULL;
		if (table_grow(tb) < 0) {
			errno = ENOMEM;
			return NULL;
		}
	}
	i = (size_t)hash_key(key, tb->keysize) & (tb->size - 1);
	for (;;) {
		unsigned char *s = slot(tb, i);

		if (!s[used_off(tb)]) {
			if (!create)
				return NULL;
			s[used_off(tb)] = 1;
			memcpy(s, key, tb->keysize);
			memset(s + val_off(tb), 0, tb->valsize);
			tb->used++;
			return s + val_off(tb);
		}
		if (memcmp(s, key, tb->keysize) == 0)
			return s + val_off(tb);
		i = (i + 1) & (tb->size - 1);
	}
}

int table_next(const struct table *tb, size_t *it, const void **key, void **val)
{
	for (; *it < tb->size; (*it)++) {
		unsigned char *s = slot(tb, *it);

		if (s[used_off(tb)]) {
			*key = s;
			*val = s + val_off(tb);
			(*it)++;
			return 1;
		}
	}
	return 0;
}

void table_free(struct table *tb)
{
	free(tb->slots);
	tb->slots = NULL;
	tb->size = tb->used = 0;
}
