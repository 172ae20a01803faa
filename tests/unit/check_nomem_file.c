/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * Out of memory with file capabilities: cap_get_file and cap_get_fd fail
 * cleanly (NULL, ENOMEM, nothing leaked, the file's security.capability
 * bytes untouched) whichever allocation fails; cap_set_file and cap_set_fd
 * make no allocation at all, so none can fail half-way, and they write the
 * exact bytes. Writing needs CAP_SETFCAP: without it only the reads of a
 * file without capabilities are checked.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "failalloc.h"

#define XATTR "security.capability"
/* On disk: P perfmon, bpf; I chown; the effective flag on. */
#define FIRST "cap_perfmon,cap_bpf=ep cap_chown=ei"

struct op {
	char path[64];
	int fd;
	cap_t set; /* what cap_set_* writes */
	unsigned char before[64];
	ssize_t before_len; /* -1: no xattr */
	void *out;
	int rc;
};

static ssize_t read_xattr(const char *path, unsigned char *buf, size_t size)
{
	ssize_t len = getxattr(path, XATTR, buf, size);

	ck_assert_msg(len >= 0 || errno == ENODATA, "getxattr: %s",
		      strerror(errno));
	return len;
}

static void snapshot(struct op *op)
{
	op->before_len = read_xattr(op->path, op->before, sizeof(op->before));
}

static int xattr_unchanged(void *ctx)
{
	struct op *op = ctx;
	unsigned char now[64];
	ssize_t len = read_xattr(op->path, now, sizeof(now));

	return len == op->before_len &&
	       (len < 0 || memcmp(now, op->before, (size_t)len) == 0);
}

FAILALLOC_RUN(run_get_file, struct op, cap_get_file(op->path))
FAILALLOC_RUN(run_get_fd, struct op, cap_get_fd(op->fd))

static int run_set_file(void *ctx)
{
	struct op *op = ctx;

	return op->rc = cap_set_file(op->path, op->set);
}

static int run_set_fd(void *ctx)
{
	struct op *op = ctx;

	return op->rc = cap_set_fd(op->fd, op->set);
}

/* What was read is what is on disk. */
static void release_read(void *ctx)
{
	struct op *op = ctx;
	cap_t want = cap_from_text(FIRST);

	ck_assert_int_eq(cap_compare(op->out, want), 0);
	cap_free(want);
	ck_assert_int_eq(cap_free(op->out), 0);
	op->out = NULL;
}

static void setup_file(struct op *op)
{
	char dir[] = "/tmp/nomem_file.XXXXXX";

	memset(op, 0, sizeof(*op));
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(op->path, sizeof(op->path), "%s/f", dir);
	op->fd = open(op->path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0755);
	ck_assert_int_ge(op->fd, 0);
}

static void teardown_file(struct op *op)
{
	char *slash;

	close(op->fd);
	ck_assert_int_eq(unlink(op->path), 0);
	slash = strrchr(op->path, '/');
	*slash = '\0';
	ck_assert_int_eq(rmdir(op->path), 0);
	cap_free(op->set);
}

/* Without capabilities on the file: ENODATA, and nothing allocated. */
START_TEST(read_without_caps)
{
	struct op op;
	cap_t caps;
	int err;

	setup_file(&op);
	failalloc_start(1);
	caps = cap_get_file(op.path);
	err = errno;
	ck_assert_uint_eq(failalloc_stop(), 0);
	ck_assert_ptr_null(caps);
	ck_assert_int_eq(err, ENODATA);
	failalloc_start(1);
	caps = cap_get_fd(op.fd);
	err = errno;
	ck_assert_uint_eq(failalloc_stop(), 0);
	ck_assert_ptr_null(caps);
	ck_assert_int_eq(err, ENODATA);
	teardown_file(&op);
}
END_TEST

START_TEST(read_and_write)
{
	struct op op;
	struct failalloc_case get_file = { "cap_get_file", run_get_file,
					   release_read, xattr_unchanged, &op };
	struct failalloc_case get_fd = { "cap_get_fd", run_get_fd, release_read,
					 xattr_unchanged, &op };
	struct failalloc_case set_file = { "cap_set_file", run_set_file, NULL,
					   xattr_unchanged, &op };
	struct failalloc_case set_fd = { "cap_set_fd", run_set_fd, NULL,
					 xattr_unchanged, &op };
	/* cap_net_raw=p as setcap writes it (revision 2, no effective flag). */
	static const unsigned char net_raw_p[20] = {
		0x00, 0x00, 0x00, 0x02, 0x00, 0x20,
	};
	unsigned char now[64];
	cap_t first;

	setup_file(&op);
	first = cap_from_text(FIRST);
	ck_assert_ptr_nonnull(first);
	if (cap_set_file(op.path, first) != 0) {
		ck_assert_int_eq(errno, EPERM);
		fprintf(stderr,
			"nomem_file: no CAP_SETFCAP, writes not checked\n");
		cap_free(first);
		teardown_file(&op);
		return;
	}
	cap_free(first);
	snapshot(&op);
	ck_assert_int_eq(op.before_len, 20);
	ck_assert_uint_eq(failalloc_check(&get_file), 1);
	ck_assert_uint_eq(failalloc_check(&get_fd), 1);

	/* Writing allocates nothing: no allocation can fail mid-write. */
	op.set = cap_from_text("cap_net_raw=p");
	ck_assert_ptr_nonnull(op.set);
	ck_assert_uint_eq(failalloc_check(&set_file), 0);
	ck_assert_int_eq(op.rc, 0);
	ck_assert_int_eq(read_xattr(op.path, now, sizeof(now)), 20);
	ck_assert_mem_eq(now, net_raw_p, 20);
	ck_assert_int_eq(removexattr(op.path, XATTR), 0);
	ck_assert_uint_eq(failalloc_check(&set_fd), 0);
	ck_assert_int_eq(op.rc, 0);
	ck_assert_int_eq(read_xattr(op.path, now, sizeof(now)), 20);
	ck_assert_mem_eq(now, net_raw_p, 20);
	teardown_file(&op);
}
END_TEST

static Suite *nomem_suite(void)
{
	Suite *s = suite_create("nomem_file");
	TCase *tc = tcase_create("file");

	tcase_add_test(tc, read_without_caps);
	tcase_add_test(tc, read_and_write);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(nomem_suite)
