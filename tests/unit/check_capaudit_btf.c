/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * capaudit's reading of the kernel's BTF (progs/capaudit/capaudit_btf.c):
 * what its eBPF programs may count by. Small BTF files are built here:
 * the running kernel's shape is accepted; a kernel whose tracepoints take
 * pointers of the same shape in another order (a credential where a user
 * namespace was) is refused, since the programs would misread it and the
 * calibration's one check could not tell.
 */
#include <errno.h>
#include <linux/btf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capaudit_counting.h"
#include "check_run.h"

struct blob {
	unsigned char types[4096];
	size_t ntypes_len;
	char strings[1024];
	size_t nstrings;
	uint32_t next_id;
};

static uint32_t str(struct blob *b, const char *s)
{
	uint32_t off = (uint32_t)b->nstrings;

	ck_assert_uint_lt(b->nstrings + strlen(s) + 1, sizeof(b->strings));
	memcpy(b->strings + b->nstrings, s, strlen(s) + 1);
	b->nstrings += strlen(s) + 1;
	return off;
}

static void put(struct blob *b, const void *p, size_t n)
{
	ck_assert_uint_lt(b->ntypes_len + n, sizeof(b->types));
	memcpy(b->types + b->ntypes_len, p, n);
	b->ntypes_len += n;
}

/* A type of kind with vlen trailing entries to follow; its id. */
static uint32_t type(struct blob *b, const char *name, unsigned kind,
		     unsigned vlen, uint32_t size_or_type)
{
	struct btf_type t;

	memset(&t, 0, sizeof(t));
	t.name_off = name ? str(b, name) : 0;
	t.info = (kind << 24) | (vlen & 0xffff); /* no kind_flag */
	t.size = size_or_type;
	put(b, &t, sizeof(t));
	return ++b->next_id;
}

static uint32_t int_type(struct blob *b, const char *name, uint32_t size)
{
	uint32_t id = type(b, name, BTF_KIND_INT, 0, size), enc;

	enc = (BTF_INT_SIGNED << 24) | (size * 8); /* encoding, bits */
	put(b, &enc, sizeof(enc));
	return id;
}

static uint32_t ptr(struct blob *b, uint32_t to)
{
	return type(b, NULL, BTF_KIND_PTR, 0, to);
}

/* typedef btf_trace_NAME: a pointer to a prototype of void * and args. */
static void tracepoint(struct blob *b, const char *name, const uint32_t *args,
		       unsigned nargs)
{
	char tname[64];
	uint32_t proto, voidp = ptr(b, 0);
	unsigned i;

	proto = type(b, NULL, BTF_KIND_FUNC_PROTO, nargs + 1, 0);
	for (i = 0; i <= nargs; i++) {
		struct btf_param p = { 0, i == 0 ? voidp : args[i - 1] };

		put(b, &p, sizeof(p));
	}
	/* The params follow the prototype at once: its id is next_id. */
	snprintf(tname, sizeof(tname), "btf_trace_%s", name);
	type(b, tname, BTF_KIND_TYPEDEF, 0, ptr(b, proto));
}

enum shape {
	GOOD,
	CRED_NS_SWAPPED,
	TARGET_IS_TASK,
	EXEC_BPRM_FIRST,
	NO_REAL_CRED,  /* no task_struct.real_cred to tell a lent credential */
	REAL_CRED_INT, /* one that is no pointer to a cred */
	SIGNAL_TASK_FIRST, /* signal_generate's task where its info was */
};

/* The file; its path in path (a temporary file the caller removes). */
static void write_btf(enum shape shape, char *path)
{
	static struct blob b;
	struct btf_header h;
	uint32_t i32, u64, task, cred, ns, bprm, pcred, pns, ptask, pbprm;
	struct btf_member pid, real_cred;
	int fd;

	memset(&b, 0, sizeof(b));
	b.nstrings = 1; /* the empty name */
	i32 = int_type(&b, "int", 4);
	u64 = int_type(&b, "long long unsigned int", 8);
	cred = type(&b, "cred", BTF_KIND_STRUCT, 0, 64);
	pcred = ptr(&b, cred);
	task = type(&b, "task_struct", BTF_KIND_STRUCT,
		    shape == NO_REAL_CRED ? 1 : 2, 4096);
	pid.name_off = str(&b, "pid");
	pid.type = i32;
	pid.offset = 2464 * 8;
	put(&b, &pid, sizeof(pid));
	if (shape != NO_REAL_CRED) {
		/* As the kernel has it: a const pointer to struct cred. */
		real_cred.name_off = str(&b, "real_cred");
		real_cred.type = shape == REAL_CRED_INT ? u64 : pcred;
		real_cred.offset = 2952 * 8;
		put(&b, &real_cred, sizeof(real_cred));
	}
	ns = type(&b, "user_namespace", BTF_KIND_STRUCT, 0, 64);
	bprm = type(&b, "linux_binprm", BTF_KIND_STRUCT, 0, 64);
	pns = ptr(&b, ns);
	ptask = ptr(&b, task);
	pbprm = ptr(&b, bprm);
	{
		uint32_t good[] = { pcred, pns, pns, i32, i32 };
		uint32_t swapped[] = { pns, pcred, pns, i32, i32 };
		uint32_t tasked[] = { pcred, ptask, pns, i32, i32 };

		tracepoint(&b, "cap_capable",
			   shape == CRED_NS_SWAPPED  ? swapped
			   : shape == TARGET_IS_TASK ? tasked
						     : good,
			   5);
	}
	{
		uint32_t args[] = { ptask, u64 };

		tracepoint(&b, "task_newtask", args, 2);
	}
	{
		uint32_t good[] = { ptask, i32, pbprm };
		uint32_t swapped[] = { pbprm, i32, ptask };

		tracepoint(&b, "sched_process_exec",
			   shape == EXEC_BPRM_FIRST ? swapped : good, 3);
	}
	{
		uint32_t info =
			type(&b, "kernel_siginfo", BTF_KIND_STRUCT, 0, 48);
		uint32_t pinfo = ptr(&b, info);
		uint32_t good[] = { i32, pinfo, ptask, i32, i32 };
		uint32_t swapped[] = { i32, ptask, pinfo, i32, i32 };

		tracepoint(&b, "signal_generate",
			   shape == SIGNAL_TASK_FIRST ? swapped : good, 5);
	}
	memset(&h, 0, sizeof(h));
	h.magic = BTF_MAGIC;
	h.version = BTF_VERSION;
	h.hdr_len = sizeof(h);
	h.type_off = 0;
	h.type_len = (uint32_t)b.ntypes_len;
	h.str_off = (uint32_t)b.ntypes_len;
	h.str_len = (uint32_t)b.nstrings;
	strcpy(path, "/tmp/check_capaudit_btf.XXXXXX");
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, &h, sizeof(h)), (ssize_t)sizeof(h));
	ck_assert_int_eq(write(fd, b.types, b.ntypes_len),
			 (ssize_t)b.ntypes_len);
	ck_assert_int_eq(write(fd, b.strings, b.nstrings), (ssize_t)b.nstrings);
	close(fd);
}

static int read_shape(enum shape shape, struct counter_layout *lay, char *why,
		      size_t whylen)
{
	char path[64];
	int rc;

	write_btf(shape, path);
	memset(lay, 0, sizeof(*lay));
	why[0] = '\0';
	rc = kernel_shape_read(path, lay, why, whylen);
	unlink(path);
	return rc;
}

START_TEST(the_kernels_shape_is_read)
{
	struct counter_layout lay;
	char why[200];

	ck_assert_msg(read_shape(GOOD, &lay, why, sizeof(why)) == 0, "%s", why);
	ck_assert_uint_eq(lay.task_pid, 2464);
	ck_assert_uint_eq(lay.task_real_cred, 2952);
	/* Without the thread's own credential, no check could be judged. */
	ck_assert_int_eq(read_shape(NO_REAL_CRED, &lay, why, sizeof(why)), -1);
	ck_assert_ptr_nonnull(strstr(why, "task_struct.real_cred"));
	ck_assert_int_eq(read_shape(REAL_CRED_INT, &lay, why, sizeof(why)), -1);
	ck_assert_ptr_nonnull(strstr(why, "task_struct.real_cred"));
}
END_TEST

START_TEST(pointers_in_another_order_are_refused)
{
	static const struct {
		enum shape shape;
		const char *tracepoint;
	} cases[] = {
		{ CRED_NS_SWAPPED, "cap_capable" },
		{ TARGET_IS_TASK, "cap_capable" },
		{ EXEC_BPRM_FIRST, "sched_process_exec" },
		{ SIGNAL_TASK_FIRST, "signal_generate" },
	};
	struct counter_layout lay;
	char why[200];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ck_assert_msg(
			read_shape(cases[i].shape, &lay, why, sizeof(why)) < 0,
			"case %zu accepted: the programs would misread %s", i,
			cases[i].tracepoint);
		ck_assert_msg(strstr(why, cases[i].tracepoint) != NULL,
			      "case %zu: %s", i, why);
	}
}
END_TEST

/* Under valgrind, which run.sh says in VALGRIND=1: a lighter load. */
static int under_valgrind(void)
{
	const char *v = getenv("VALGRIND");

	return v != NULL && strcmp(v, "1") == 0;
}

/* The good blob's bytes, n of them, mutated by what(), read back. */
static int read_mutated(const unsigned char *good, size_t n,
			void (*what)(unsigned char *, size_t, unsigned),
			unsigned arg, struct counter_layout *lay)
{
	static unsigned char buf[8192];
	char path[64], why[200];
	int fd, rc;

	ck_assert_uint_le(n, sizeof(buf));
	memcpy(buf, good, n);
	what(buf, n, arg);
	strcpy(path, "/tmp/check_capaudit_btf.XXXXXX");
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, buf, n), (ssize_t)n);
	close(fd);
	memset(lay, 0, sizeof(*lay));
	rc = kernel_shape_read(path, lay, why, sizeof(why));
	unlink(path);
	if (rc < 0)
		ck_assert_msg(why[0] != '\0', "refused without saying why");
	return rc;
}

static void nothing(unsigned char *b, size_t n, unsigned arg)
{
	(void)b;
	(void)n;
	(void)arg;
}

/* A deterministic byte flip: arg seeds which byte and which bits. */
static void flip(unsigned char *b, size_t n, unsigned arg)
{
	unsigned x = arg * 2654435761U + 12345U;

	b[x % n] ^= (unsigned char)(1U + (x >> 16) % 255U);
}

static size_t good_blob(unsigned char *buf, size_t size)
{
	char path[64];
	FILE *f;
	size_t n;

	write_btf(GOOD, path);
	f = fopen(path, "rb");
	ck_assert_ptr_nonnull(f);
	n = fread(buf, 1, size, f);
	fclose(f);
	unlink(path);
	ck_assert_uint_lt(n, size);
	return n;
}

/*
 * Every prefix of a good file, and byte flips all over it: read without
 * a crash or a read past the end (ASan, valgrind); a refusal says why.
 */
START_TEST(broken_files_never_crash)
{
	static unsigned char good[8192];
	struct counter_layout lay;
	size_t n = good_blob(good, sizeof(good)), len;
	unsigned i;

	for (len = 0; len < n; len++)
		ck_assert_msg(read_mutated(good, len, nothing, 0, &lay) < 0,
			      "a file cut at %zu of %zu bytes was accepted",
			      len, n);
	for (i = 0; i < (under_valgrind() ? 150U : 1500U); i++)
		read_mutated(good, n, flip, i, &lay);
	ck_assert_int_eq(read_mutated(good, n, nothing, 0, &lay), 0);
	ck_assert_uint_eq(lay.task_pid, 2464);
}
END_TEST

/*
 * The running kernel's own BTF, where it has one (its 5 MiB take
 * valgrind seconds: the sanitizer pass reads it instead).
 */
START_TEST(the_running_kernel_is_read)
{
	struct counter_layout lay;
	char why[200];

	if (under_valgrind())
		return;
	if (access("/sys/kernel/btf/vmlinux", R_OK) != 0)
		return; /* no BTF here: nothing to compare */
	memset(&lay, 0, sizeof(lay));
	ck_assert_msg(kernel_shape_read("/sys/kernel/btf/vmlinux", &lay, why,
					sizeof(why)) == 0,
		      "%s", why);
	ck_assert_uint_gt(lay.task_pid, 0);
	ck_assert_uint_gt(lay.task_real_cred, 0);
	ck_assert_uint_eq(lay.task_real_cred % 8, 0);
}
END_TEST

static Suite *capaudit_suite(void)
{
	Suite *s = suite_create("capaudit_btf");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, the_kernels_shape_is_read);
	tcase_add_test(tc, pointers_in_another_order_are_refused);
	tcase_add_test(tc, broken_files_never_crash);
	tcase_add_test(tc, the_running_kernel_is_read);
	/* 1500 files read under valgrind on a loaded machine: past Check's 4 s */
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(capaudit_suite)
