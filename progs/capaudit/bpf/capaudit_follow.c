/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * The follow table from capaudit's side (capaudit_follow.h). The
 * programs and capaudit write the direct table's entries at once, each
 * in its own: an entry is taken by an atomic exchange of its owner from
 * FOLLOW_FREE to FOLLOW_HELD, filled in, and given to its thread by a
 * release store of its id + 1, so a program never sees an entry half
 * made as a thread's own.
 */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "capaudit_follow.h"
#include "capaudit_mapcmd.h"

unsigned follow_direct_entries(unsigned room)
{
	unsigned n = 1;

	while (n <= room / 2 && n < DIRECT_TABLE_MAX)
		n *= 2;
	return n;
}

int follow_table_open(struct follow_table *ft, int direct_fd, unsigned entries,
		      int spill_fd, int stats_fd)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t len = (size_t)entries * sizeof(struct follow_val);
	void *p;

	memset(ft, 0, sizeof(*ft));
	ft->spill_fd = spill_fd;
	ft->stats_fd = stats_fd;
	if (entries == 0 || (entries & (entries - 1)) != 0) {
		errno = EINVAL;
		return -1;
	}
	len = (len + page - 1) / page * page;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, direct_fd, 0);
	if (p == MAP_FAILED)
		return -1;
	ft->direct = p;
	ft->mapped = len;
	ft->mask = entries - 1;
	return 0;
}

void follow_table_close(struct follow_table *ft)
{
	if (ft->direct != NULL)
		munmap(ft->direct, ft->mapped);
	ft->direct = NULL;
}

static struct follow_val *direct_entry(const struct follow_table *ft,
				       uint32_t tid)
{
	return &ft->direct[tid & ft->mask];
}

int follow_table_add(struct follow_table *ft, uint32_t tid, uint64_t epoch)
{
	struct follow_val *v = direct_entry(ft, tid);
	uint32_t owner = FOLLOW_FREE, key = STAT_SPILLED;
	struct follow_val fresh;
	uint64_t used = 1;
	int i;

	if (__atomic_compare_exchange_n(&v->owner, &owner, FOLLOW_HELD, 0,
					__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
		for (i = 0; i < FOLLOW_RUNS; i++)
			v->run[i].count = 0;
		v->latest = FOLLOW_RUNS - 1; /* a first run goes to run[0] */
		v->epoch = epoch;
		__atomic_store_n(&v->owner, tid + 1, __ATOMIC_RELEASE);
		return 0;
	}
	/* Followed already: its runs stay (it may be counting now). */
	if (owner == tid + 1)
		return 0;
	/* Said first, so that a program that finds the entry finds it said. */
	if (map_update(ft->stats_fd, &key, &used, BPF_ANY) < 0)
		return -1;
	memset(&fresh, 0, sizeof(fresh));
	fresh.latest = FOLLOW_RUNS - 1;
	fresh.epoch = epoch;
	return map_update(ft->spill_fd, &tid, &fresh, BPF_ANY);
}

int follow_table_drop(struct follow_table *ft, uint32_t tid, int own)
{
	struct follow_val *v = direct_entry(ft, tid);
	uint32_t owner = tid + 1;

	if (__atomic_compare_exchange_n(&v->owner, &owner,
					own ? FOLLOW_FREE : FOLLOW_HELD, 0,
					__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		return 0;
	if (map_delete(ft->spill_fd, &tid) < 0 && errno != ENOENT)
		return -1;
	return 0;
}

int follow_table_read(const struct follow_table *ft, uint32_t tid,
		      struct follow_val *v)
{
	const struct follow_val *d = direct_entry(ft, tid);

	if (__atomic_load_n(&d->owner, __ATOMIC_ACQUIRE) == tid + 1) {
		memcpy(v, d, sizeof(*v));
		return 0;
	}
	return map_lookup(ft->spill_fd, &tid, v);
}

int follow_table_each(const struct follow_table *ft,
		      int (*each)(const struct follow_val *, void *), void *arg)
{
	/* Zero first: the kernel writes next, which no compiler can see. */
	uint32_t key = 0, next = 0;
	struct follow_val v;
	int first = 1;
	uint32_t i;

	for (i = 0; i <= ft->mask; i++) {
		uint32_t owner = ft->direct[i].owner;

		if (owner == FOLLOW_FREE || owner == FOLLOW_HELD)
			continue;
		if (each(&ft->direct[i], arg) < 0)
			return -1;
	}
	while (map_next(ft->spill_fd, first ? NULL : &key, &next) == 0) {
		first = 0;
		key = next;
		if (map_lookup(ft->spill_fd, &key, &v) < 0)
			continue;
		if (each(&v, arg) < 0)
			return -1;
	}
	return 0;
}
