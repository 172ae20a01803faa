/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* capaudit: a hash table of fixed-size keys and values. */
#ifndef CAPAUDIT_TABLE_H
#define CAPAUDIT_TABLE_H

#include <stddef.h>

struct table {
	size_t keysize, valsize;
	unsigned char *slots;
	size_t size, used;   /* size: a power of two, or 0 */
	unsigned generation; /* grows when the slots move: old pointers die */
};

void table_init(struct table *tb, size_t keysize, size_t valsize);
/*
 * The value stored under key (keysize bytes, compared as bytes: zero the
 * padding of a struct key), or with create a new zeroed one. NULL when
 * absent, or with errno ENOMEM. A pointer is good until the next create.
 */
void *table_get(struct table *tb, const void *key, int create);
/* Iteration: start *it at 0; 1 while there is an entry, then 0. */
int table_next(const struct table *tb, size_t *it, const void **key,
	       void **val);
void table_free(struct table *tb);

#endif
