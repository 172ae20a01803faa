/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * What counting in the kernel must know of the running kernel, read from
 * its own type information (/sys/kernel/btf/vmlinux): where task_struct
 * keeps its thread id (the fork program reads the child's), and that the
 * three raw tracepoints take the arguments the programs read, in that
 * order. A kernel that says otherwise, or has no BTF, is not counted in:
 * capaudit reads samples there.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/btf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capaudit_counting.h"

#define BTF_MAX_SIZE (256U << 20)

struct btf {
	unsigned char *data;
	size_t size;
	const unsigned char *types, *strings;
	uint32_t types_len, strings_len;
	uint32_t *at; /* at[id]: offset of type id in types; id 0 is void */
	uint32_t ntypes;
};

static const char *btf_name(const struct btf *b, uint32_t off)
{
	if (off >= b->strings_len)
		return "";
	/* The section ends with a NUL (checked in btf_index()). */
	return (const char *)b->strings + off;
}

/* The bytes after a type's header that belong to it; -1 for a kind not known. */
static long trailing_size(uint32_t info)
{
	uint32_t vlen = BTF_INFO_VLEN(info);

	switch (BTF_INFO_KIND(info)) {
	case BTF_KIND_INT:
	case BTF_KIND_VAR:
	case BTF_KIND_DECL_TAG:
		return 4;
	case BTF_KIND_ARRAY:
		return 12;
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
	case BTF_KIND_DATASEC:
	case BTF_KIND_ENUM64:
		return (long)vlen * 12;
	case BTF_KIND_ENUM:
	case BTF_KIND_FUNC_PROTO:
		return (long)vlen * 8;
	case BTF_KIND_PTR:
	case BTF_KIND_FWD:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_FUNC:
	case BTF_KIND_FLOAT:
	case BTF_KIND_TYPE_TAG:
		return 0;
	default:
		return -1;
	}
}

/* The offsets of every type, after checking the header and the sections. */
static int btf_index(struct btf *b)
{
	struct btf_header h;
	uint32_t off, n = 0, cap = 0;

	if (b->size < sizeof(h))
		return -1;
	memcpy(&h, b->data, sizeof(h));
	if (h.magic != BTF_MAGIC || h.hdr_len < sizeof(h) ||
	    h.hdr_len > b->size ||
	    (uint64_t)h.type_off + h.type_len > b->size - h.hdr_len ||
	    (uint64_t)h.str_off + h.str_len > b->size - h.hdr_len ||
	    h.str_len == 0)
		return -1;
	b->types = b->data + h.hdr_len + h.type_off;
	b->types_len = h.type_len;
	b->strings = b->data + h.hdr_len + h.str_off;
	b->strings_len = h.str_len;
	if (b->strings[b->strings_len - 1] != '\0')
		return -1;
	for (off = 0; off < b->types_len;) {
		struct btf_type t;
		long more;

		if (b->types_len - off < sizeof(t))
			return -1;
		memcpy(&t, b->types + off, sizeof(t));
		more = trailing_size(t.info);
		if (more < 0 ||
		    (uint64_t)off + sizeof(t) + (uint64_t)more > b->types_len)
			return -1;
		if (n + 2 > cap) {
			uint32_t *q;

			cap = cap ? cap * 2 : 65536;
			q = reallocarray(b->at, cap, sizeof(*q));
			if (q == NULL)
				return -1;
			b->at = q;
		}
		b->at[++n] = off;
		off += (uint32_t)(sizeof(t) + (size_t)more);
	}
	b->ntypes = n;
	return 0;
}

static const struct btf_type *btf_type_at(const struct btf *b, uint32_t id,
					  struct btf_type *copy)
{
	if (id == 0 || id > b->ntypes)
		return NULL;
	memcpy(copy, b->types + b->at[id], sizeof(*copy));
	return copy;
}

/* The type id of what id stands for: typedefs and qualifiers removed. */
static uint32_t btf_strip(const struct btf *b, uint32_t id)
{
	struct btf_type t;
	int hops;

	for (hops = 0; hops < 32 && btf_type_at(b, id, &t) != NULL; hops++) {
		switch (BTF_INFO_KIND(t.info)) {
		case BTF_KIND_TYPEDEF:
		case BTF_KIND_VOLATILE:
		case BTF_KIND_CONST:
		case BTF_KIND_RESTRICT:
		case BTF_KIND_TYPE_TAG:
			id = t.type;
			continue;
		default:
			return id;
		}
	}
	return id;
}

/* 'p' pointer, 'i' integer of size bytes (enums too), '?' anything else. */
static char btf_shape(const struct btf *b, uint32_t id, uint32_t *size)
{
	struct btf_type t;

	if (btf_type_at(b, btf_strip(b, id), &t) == NULL)
		return '?';
	switch (BTF_INFO_KIND(t.info)) {
	case BTF_KIND_PTR:
		*size = 8;
		return 'p';
	case BTF_KIND_INT:
	case BTF_KIND_ENUM:
		*size = t.size;
		return 'i';
	default:
		return '?';
	}
}

/* 1 when type id is a pointer to the struct called name. */
static int points_to_struct(const struct btf *b, uint32_t id, const char *name)
{
	struct btf_type t;

	if (btf_type_at(b, btf_strip(b, id), &t) == NULL ||
	    BTF_INFO_KIND(t.info) != BTF_KIND_PTR ||
	    btf_type_at(b, btf_strip(b, t.type), &t) == NULL)
		return 0;
	return (BTF_INFO_KIND(t.info) == BTF_KIND_STRUCT ||
		(BTF_INFO_KIND(t.info) == BTF_KIND_FWD &&
		 !BTF_INFO_KFLAG(t.info))) &&
	       strcmp(btf_name(b, t.name_off), name) == 0;
}

/* The first type of this kind and name, or 0. */
static uint32_t btf_find(const struct btf *b, unsigned kind, const char *name)
{
	struct btf_type t;
	uint32_t id;

	for (id = 1; id <= b->ntypes; id++) {
		btf_type_at(b, id, &t);
		if (BTF_INFO_KIND(t.info) == kind &&
		    strcmp(btf_name(b, t.name_off), name) == 0)
			return id;
	}
	return 0;
}

/*
 * The byte offset of a member of a struct, whole bytes and no bit field,
 * and its type into *type; -1 when it is missing or a bit field.
 */
static long member_at(const struct btf *b, uint32_t sid, const char *name,
		      uint32_t *type)
{
	struct btf_type t;
	uint32_t i;

	if (btf_type_at(b, sid, &t) == NULL)
		return -1;
	for (i = 0; i < BTF_INFO_VLEN(t.info); i++) {
		struct btf_member m;
		uint32_t bits;

		memcpy(&m,
		       b->types + b->at[sid] + sizeof(t) +
			       (size_t)i * sizeof(m),
		       sizeof(m));
		if (strcmp(btf_name(b, m.name_off), name) != 0)
			continue;
		bits = BTF_INFO_KFLAG(t.info) ? BTF_MEMBER_BIT_OFFSET(m.offset)
					      : m.offset;
		if ((BTF_INFO_KFLAG(t.info) &&
		     BTF_MEMBER_BITFIELD_SIZE(m.offset)) ||
		    bits % 8 != 0)
			return -1;
		*type = m.type;
		return (long)(bits / 8);
	}
	return -1;
}

/* The offset of a 4-byte integer member, or -1 (missing, or another shape). */
static long int_member(const struct btf *b, uint32_t sid, const char *name)
{
	uint32_t type, size;
	long off = member_at(b, sid, name, &type);

	if (off < 0 || off % 4 != 0 || btf_shape(b, type, &size) != 'i' ||
	    size != 4)
		return -1;
	return off;
}

/* The offset of a member that points to struct to, or -1. */
static long pointer_member(const struct btf *b, uint32_t sid, const char *name,
			   const char *to)
{
	uint32_t type;
	long off = member_at(b, sid, name, &type);

	if (off < 0 || off % 8 != 0 || !points_to_struct(b, type, to))
		return -1;
	return off;
}

/*
 * 1 when the raw tracepoint's handler (typedef btf_trace_NAME, a pointer
 * to a function of void *__data and then the tracepoint's arguments)
 * takes these arguments, one word each: "i" a 4-byte integer, "n" an
 * integer of any size (one the program never reads), any other word a
 * pointer to the struct of that name. The struct names matter: two
 * arguments of one shape in another order (a credential where a user
 * namespace was) would be misread, and the calibration's one check
 * cannot tell them apart.
 */
static int tracepoint_takes(const struct btf *b, const char *name,
			    const char *args)
{
	char tname[96], want[32];
	const char *next = args;
	struct btf_type t;
	uint32_t id, i, size, nargs = 0;
	int len;

	for (nargs = 0; sscanf(next, "%31s%n", want, &len) == 1; nargs++)
		next += len;

	snprintf(tname, sizeof(tname), "btf_trace_%s", name);
	id = btf_find(b, BTF_KIND_TYPEDEF, tname);
	/* The typedef, to a pointer, to the prototype. */
	if (btf_type_at(b, id, &t) == NULL ||
	    btf_type_at(b, id = btf_strip(b, t.type), &t) == NULL ||
	    BTF_INFO_KIND(t.info) != BTF_KIND_PTR ||
	    btf_type_at(b, id = btf_strip(b, t.type), &t) == NULL ||
	    BTF_INFO_KIND(t.info) != BTF_KIND_FUNC_PROTO ||
	    BTF_INFO_VLEN(t.info) != nargs + 1)
		return 0;
	next = args;
	for (i = 0; i < BTF_INFO_VLEN(t.info); i++) {
		struct btf_param prm;

		memcpy(&prm,
		       b->types + b->at[id] + sizeof(t) +
			       (size_t)i * sizeof(prm),
		       sizeof(prm));
		size = 0;
		if (i == 0) { /* void *__data */
			if (btf_shape(b, prm.type, &size) != 'p')
				return 0;
			continue;
		}
		if (sscanf(next, "%31s%n", want, &len) != 1)
			return 0;
		next += len;
		if (strcmp(want, "i") == 0 || strcmp(want, "n") == 0) {
			if (btf_shape(b, prm.type, &size) != 'i' ||
			    (want[0] == 'i' && size != 4))
				return 0;
		} else if (!points_to_struct(b, prm.type, want)) {
			return 0;
		}
	}
	return 1;
}

static int read_all(const char *path, struct btf *b)
{
	struct stat st;
	size_t got = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || st.st_size <= 0 ||
	    (uint64_t)st.st_size > BTF_MAX_SIZE) {
		close(fd);
		errno = EFBIG;
		return -1;
	}
	b->data = malloc((size_t)st.st_size);
	if (b->data == NULL) {
		close(fd);
		return -1;
	}
	while (got < (size_t)st.st_size) {
		ssize_t n = read(fd, b->data + got, (size_t)st.st_size - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	b->size = got;
	return 0;
}

int kernel_shape_read(const char *path, struct counter_layout *lay, char *why,
		      size_t whylen)
{
	static const struct {
		const char *name, *args;
	} tracepoints[] = {
		{ "cap_capable", "cred user_namespace user_namespace i i" },
		/* Clone flags: unsigned long, u64 since Linux 6.17. */
		{ "task_newtask", "task_struct n" },
		{ "sched_process_exec", "task_struct i linux_binprm" },
		{ "signal_generate", "i kernel_siginfo task_struct i i" },
	};
	struct btf b;
	long pid, real_cred;
	uint32_t task;
	size_t i;
	int rc = -1;

	memset(&b, 0, sizeof(b));
	if (read_all(path, &b) < 0) {
		snprintf(why, whylen, "%s: %s (no BTF: CONFIG_DEBUG_INFO_BTF)",
			 path, strerror(errno));
		goto out;
	}
	if (btf_index(&b) < 0) {
		snprintf(why, whylen, "%s: not BTF capaudit can read", path);
		goto out;
	}
	task = btf_find(&b, BTF_KIND_STRUCT, "task_struct");
	pid = int_member(&b, task, "pid");
	if (pid < 0) {
		snprintf(why, whylen, "%s: no 4-byte task_struct.pid", path);
		goto out;
	}
	/* The thread's own credential, which a lent one (override_creds()) is not. */
	real_cred = pointer_member(&b, task, "real_cred", "cred");
	if (real_cred < 0) {
		snprintf(why, whylen,
			 "%s: no task_struct.real_cred pointing to a cred",
			 path);
		goto out;
	}
	for (i = 0; i < sizeof(tracepoints) / sizeof(tracepoints[0]); i++)
		if (!tracepoint_takes(&b, tracepoints[i].name,
				      tracepoints[i].args)) {
			snprintf(why, whylen,
				 "%s: the raw tracepoint %s does not take the "
				 "arguments capaudit's program reads",
				 path, tracepoints[i].name);
			goto out;
		}
	lay->task_pid = (size_t)pid;
	lay->task_real_cred = (size_t)real_cred;
	rc = 0;
out:
	free(b.at);
	free(b.data);
	return rc;
}
