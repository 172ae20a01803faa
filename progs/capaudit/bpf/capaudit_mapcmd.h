/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * bpf(2)'s commands on one element of a map, for the loader's files
 * (capaudit_bpf.c, capaudit_follow.c): no libbpf at run time.
 */
#ifndef CAPAUDIT_MAPCMD_H
#define CAPAUDIT_MAPCMD_H

#include <linux/bpf.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/*
 * One element command: LOOKUP (val: out), UPDATE (val: in, flags),
 * DELETE, GET_NEXT_KEY (key NULL: the first; val: the next key out).
 */
static inline int map_elem(enum bpf_cmd cmd, int map, const void *key,
			   const void *val, uint64_t flags)
{
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.map_fd = (uint32_t)map;
	a.key = (uint64_t)(uintptr_t)key;
	a.value = (uint64_t)(uintptr_t)val; /* shared with next_key */
	a.flags = flags;
	return (int)syscall(SYS_bpf, cmd, &a, sizeof(a));
}

#define map_lookup(map, key, val) \
	map_elem(BPF_MAP_LOOKUP_ELEM, map, key, val, 0)
#define map_update(map, key, val, flags) \
	map_elem(BPF_MAP_UPDATE_ELEM, map, key, val, flags)
#define map_delete(map, key) map_elem(BPF_MAP_DELETE_ELEM, map, key, NULL, 0)
#define map_next(map, key, next) \
	map_elem(BPF_MAP_GET_NEXT_KEY, map, key, next, 0)

#endif
