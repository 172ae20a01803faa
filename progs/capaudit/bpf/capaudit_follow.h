/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * The threads the programs follow, as the loader sees them
 * (capaudit_follow.c): the direct table, an array mapped into capaudit
 * where a thread's entry sits at its id's low bits, and the spill table,
 * a hash map by thread id for a thread whose direct entry is another's
 * (capaudit_maps.h, struct follow_val).
 */
#ifndef CAPAUDIT_FOLLOW_H
#define CAPAUDIT_FOLLOW_H

#include <stddef.h>
#include <stdint.h>

#include "capaudit_maps.h"

struct follow_table {
	struct follow_val *direct; /* the direct table, mapped; NULL: not */
	size_t mapped;		   /* its bytes */
	uint32_t mask;		   /* its entries less one */
	int spill_fd;		   /* the spill table */
	int stats_fd;		   /* where STAT_SPILLED is said */
};

/*
 * The direct table's entries for room threads: a power of two, no more
 * than room nor DIRECT_TABLE_MAX (so a table made small for a test has
 * no more room than it was given).
 */
unsigned follow_direct_entries(unsigned room);
/*
 * Maps the direct table (direct_fd, of entries entries) into ft, with
 * the spill table's and the stats' descriptors. 0, or -1 with errno.
 */
int follow_table_open(struct follow_table *ft, int direct_fd, unsigned entries,
		      int spill_fd, int stats_fd);
void follow_table_close(struct follow_table *ft);
/*
 * Follows thread tid from now on, in epoch epoch (a thread that may be
 * running: a seed). 0, or -1 with errno (no room in the spill table).
 */
int follow_table_add(struct follow_table *ft, uint32_t tid, uint64_t epoch);
/*
 * Follows thread tid no more. own: tid is the calling thread (which
 * counts nothing while it runs this), whose direct entry is then free
 * again; another thread may still be counting in its entry, which stays
 * held for none until the end. 0, or -1 with errno.
 */
int follow_table_drop(struct follow_table *ft, uint32_t tid, int own);
/* Thread tid's entry into v: 0, or -1 with errno (ENOENT: not followed). */
int follow_table_read(const struct follow_table *ft, uint32_t tid,
		      struct follow_val *v);
/*
 * each() on every followed thread's entry, once the programs are done;
 * stops at the first that returns -1, and returns -1 then.
 */
int follow_table_each(const struct follow_table *ft,
		      int (*each)(const struct follow_val *, void *),
		      void *arg);

#endif
