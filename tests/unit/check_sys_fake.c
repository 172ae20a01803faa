/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * The seam of cap_sys.c: a fake kernel installed with lcap_sys_set_kernel()
 * answers every read and change the library makes, so kernels this machine
 * is not (one with 42 capabilities, one without ambient support) can be
 * tested. Linked with libcap.a, whose internal names a program can reach.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "check_run.h"
#include "lcap.h"

/* The state of the fake kernel's one thread. */
static struct {
	int bits;    /* capabilities it knows: 0 .. bits - 1 */
	int ambient; /* PR_CAP_AMBIENT exists (Linux 4.3+) */
	uint64_t e, p, i, bound, amb;
	unsigned secbits;
	int changes;	    /* calls through the cap_set_syscall() routes */
	const char *status; /* the text of /proc/4242/status */
} k;

static struct lcap_kernel fake;

static uint64_t known(void)
{
	return k.bits >= 64 ? UINT64_MAX : (UINT64_C(1) << k.bits) - 1;
}

static int refuse(int err)
{
	errno = err;
	return -1;
}

static int bit(uint64_t v, long cap)
{
	return (int)(v >> cap & 1);
}

static int fake_capget(struct __user_cap_header_struct *hdr,
		       struct __user_cap_data_struct *data)
{
	if (hdr->version != _LINUX_CAPABILITY_VERSION_3)
		return refuse(EINVAL);
	if (hdr->pid != 0 && hdr->pid != getpid())
		return refuse(ESRCH);
	data[0].effective = (uint32_t)k.e;
	data[1].effective = (uint32_t)(k.e >> 32);
	data[0].permitted = (uint32_t)k.p;
	data[1].permitted = (uint32_t)(k.p >> 32);
	data[0].inheritable = (uint32_t)k.i;
	data[1].inheritable = (uint32_t)(k.i >> 32);
	return 0;
}

/* The reads: answered as a kernel of k.bits capabilities answers them. */
static int fake_prctl(long option, long a2, long a3, long a4, long a5)
{
	(void)a4;
	(void)a5;
	switch (option) {
	case PR_CAPBSET_READ:
		return a2 >= 0 && a2 < k.bits ? bit(k.bound, a2)
					      : refuse(EINVAL);
	case PR_CAP_AMBIENT:
		if (!k.ambient || a2 != PR_CAP_AMBIENT_IS_SET || a3 < 0 ||
		    a3 >= k.bits)
			return refuse(EINVAL);
		return bit(k.amb, a3);
	case PR_GET_SECUREBITS:
		return (int)k.secbits;
	default:
		return refuse(ENOSYS);
	}
}

/* capset(2): E within P, P and I within what it had (no CAP_SETPCAP here). */
static long fake_syscall3(long nr, long a1, long a2, long a3)
{
	const struct __user_cap_data_struct *data = (const void *)a2;
	uint64_t e, p, i;

	(void)a1;
	(void)a3;
	k.changes++;
	if (nr != SYS_capset)
		return refuse(ENOSYS);
	e = (data[0].effective | (uint64_t)data[1].effective << 32) & known();
	p = (data[0].permitted | (uint64_t)data[1].permitted << 32) & known();
	i = (data[0].inheritable | (uint64_t)data[1].inheritable << 32) &
	    known();
	if ((e & ~p) || (p & ~k.p) || (i & ~(k.i | k.p)))
		return refuse(EPERM);
	k.e = e;
	k.p = p;
	k.i = i;
	k.amb &= p & i;
	return 0;
}

static long fake_syscall6(long nr, long option, long a2, long a3, long a4,
			  long a5, long a6)
{
	(void)a4;
	(void)a5;
	(void)a6;
	k.changes++;
	if (nr != SYS_prctl)
		return refuse(ENOSYS);
	switch (option) {
	case PR_CAPBSET_DROP:
		if (a2 < 0 || a2 >= k.bits)
			return refuse(EINVAL);
		k.bound &= ~(UINT64_C(1) << a2);
		return 0;
	case PR_SET_SECUREBITS:
		k.secbits = (unsigned)a2;
		return 0;
	case PR_CAP_AMBIENT:
		if (!k.ambient)
			return refuse(EINVAL);
		if (a2 == PR_CAP_AMBIENT_CLEAR_ALL) {
			k.amb = 0;
			return 0;
		}
		if (a3 < 0 || a3 >= k.bits)
			return refuse(EINVAL);
		if (a2 == PR_CAP_AMBIENT_LOWER) {
			k.amb &= ~(UINT64_C(1) << a3);
			return 0;
		}
		if (a2 != PR_CAP_AMBIENT_RAISE)
			return refuse(EINVAL);
		if (!bit(k.p, a3) || !bit(k.i, a3))
			return refuse(EPERM);
		k.amb |= UINT64_C(1) << a3;
		return 0;
	default:
		return refuse(ENOSYS);
	}
}

/* A v2 security.capability of cap_perfmon=ep for "/fake/perf", else ENODATA. */
static ssize_t fake_getxattr(const char *path, const char *name, void *buf,
			     size_t size)
{
	static const unsigned char v2[20] = {
		0x01, 0x00, 0x00, 0x02, /* revision 2, effective */
		0,    0,    0,	  0,
		0,    0,    0,	  0, /* permitted, inheritable: low words */
		0x40, 0,    0,	  0,
		0,    0,    0,	  0, /* high words: bit 38 - 32 */
	};

	if (strcmp(name, "security.capability") != 0 ||
	    strcmp(path, "/fake/perf") != 0)
		return refuse(ENODATA);
	if (size < sizeof(v2))
		return refuse(ERANGE);
	memcpy(buf, v2, sizeof(v2));
	return (ssize_t)sizeof(v2);
}

/* /proc/4242/status is a pipe holding k.status; other paths do not exist. */
static int fake_open(const char *path, int flags)
{
	int fds[2];

	(void)flags;
	if (strcmp(path, "/proc/4242/status") != 0 || k.status == NULL)
		return refuse(ENOENT);
	if (pipe(fds) < 0)
		return -1;
	if (write(fds[1], k.status, strlen(k.status)) < 0) {
		close(fds[0]);
		fds[0] = -1;
	}
	close(fds[1]);
	return fds[0];
}

static void install(int bits, int ambient)
{
	memset(&k, 0, sizeof(k));
	k.bits = bits;
	k.ambient = ambient;
	k.bound = known();
	fake = *lcap_sys_kernel(); /* the real calls for what is not faked */
	fake.capget = fake_capget;
	fake.prctl = fake_prctl;
	fake.getxattr = fake_getxattr;
	fake.open = fake_open;
	fake.syscall3 = fake_syscall3;
	fake.syscall6 = fake_syscall6;
	lcap_sys_set_kernel(&fake);
}

static void assert_text(char *text, const char *want)
{
	ck_assert_ptr_nonnull(text);
	ck_assert_str_eq(text, want);
	cap_free(text);
}

/* The name the library gives cap, as the table decides (a number or not). */
static const char *name_of(cap_value_t cap)
{
	static char names[4][32];
	static int next;
	char *name = cap_to_name(cap);
	char *slot = names[next++ % 4];

	ck_assert_ptr_nonnull(name);
	snprintf(slot, sizeof(names[0]), "%s", name);
	cap_free(name);
	return slot;
}

START_TEST(kernel_with_42_capabilities)
{
	char want[128];
	cap_iab_t iab;
	cap_t caps;

	install(42, 1);
	k.e = k.p = known();
	k.i = k.amb = UINT64_C(1) << 41;
	k.bound &= ~(UINT64_C(1) << 40);
	ck_assert_int_eq(cap_max_bits(), 42);
	ck_assert(CAP_IS_SUPPORTED(41));
	ck_assert(!CAP_IS_SUPPORTED(42));
	ck_assert(CAP_AMBIENT_SUPPORTED());
	ck_assert_int_eq(cap_get_bound(40), 0);
	ck_assert_int_eq(cap_get_bound(41), 1);
	ck_assert_int_eq(cap_get_ambient(41), 1);
	ck_assert_int_eq(cap_get_ambient(40), 0);
	errno = 0;
	ck_assert_int_eq(cap_get_ambient(42), -1);
	ck_assert_int_eq(errno, EINVAL);

	/* "all" and the base of the text are this kernel's 42 capabilities. */
	caps = cap_get_proc();
	snprintf(want, sizeof(want), "=ep %s+i", name_of(41));
	assert_text(cap_to_text(caps, NULL), want);
	cap_free(caps);
	caps = cap_from_text("all=ep");
	ck_assert_ptr_nonnull(caps);
	assert_text(cap_to_text(caps, NULL), "=ep");
	cap_free(caps);
	caps = cap_from_text("=ep 41-ep 42+p");
	ck_assert_ptr_nonnull(caps);
	snprintf(want, sizeof(want), "=ep %s-ep 42+p", name_of(41));
	assert_text(cap_to_text(caps, NULL), want);
	cap_free(caps);

	/* The IAB: bit 41 ambient, 40 out of the bounding set. */
	iab = cap_iab_get_proc();
	ck_assert_ptr_nonnull(iab);
	snprintf(want, sizeof(want), "!%s,^%s", name_of(40), name_of(41));
	assert_text(cap_iab_to_text(iab), want);
	ck_assert_int_eq(cap_iab_set_vector(iab, CAP_IAB_AMB, 41, CAP_CLEAR),
			 0);
	errno = 0;
	ck_assert_int_eq(cap_iab_set_vector(iab, CAP_IAB_AMB, 42, CAP_SET), -1);
	ck_assert_int_eq(errno, EINVAL);
	cap_free(iab);

	/* Changes reach the fake through the cap_set_syscall() routes. */
	ck_assert_int_eq(cap_set_ambient(41, CAP_CLEAR), 0);
	ck_assert_uint_eq(k.amb, 0);
	ck_assert_int_eq(cap_set_ambient(41, CAP_SET), 0);
	ck_assert_uint_eq(k.amb, UINT64_C(1) << 41);
	ck_assert_int_eq(cap_reset_ambient(), 0);
	ck_assert_uint_eq(k.amb, 0);
	ck_assert_int_eq(k.changes, 3);
}
END_TEST

START_TEST(kernel_without_ambient)
{
	cap_iab_t iab;
	cap_t caps;

	/* Linux 3.16 .. 4.2: cap_audit_read (37) is the last, no ambient set. */
	install(38, 0);
	k.e = k.p = known();
	k.bound &= ~(UINT64_C(1) << 37);
	ck_assert_int_eq(cap_max_bits(), 38);
	ck_assert(!CAP_AMBIENT_SUPPORTED());
	errno = 0;
	ck_assert_int_eq(cap_get_ambient(CAP_CHOWN), -1);
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	ck_assert_int_eq(cap_set_ambient(CAP_CHOWN, CAP_SET), -1);
	ck_assert_int_eq(errno, EINVAL);
	/* Nothing to clear is success, and asks the kernel for no change. */
	ck_assert_int_eq(cap_reset_ambient(), 0);
	ck_assert_int_eq(k.changes, 1); /* only the failed raise */

	iab = cap_iab_get_proc();
	ck_assert_ptr_nonnull(iab);
	assert_text(cap_iab_to_text(iab), "!cap_audit_read");
	ck_assert_int_eq(cap_iab_get_vector(iab, CAP_IAB_AMB, CAP_CHOWN), 0);
	errno = 0;
	ck_assert_int_eq(
		cap_iab_set_vector(iab, CAP_IAB_INH, CAP_PERFMON, CAP_SET), -1);
	ck_assert_int_eq(errno, EINVAL);
	cap_free(iab);

	/* cap_perfmon is a name here but not a capability of this kernel. */
	caps = cap_get_proc();
	assert_text(cap_to_text(caps, NULL), "=ep");
	cap_free(caps);
	caps = cap_from_text("all=ep cap_perfmon+p");
	ck_assert_ptr_nonnull(caps);
	assert_text(cap_to_text(caps, NULL), "=ep cap_perfmon+p");
	cap_free(caps);

	/* PURE1E locks the securebits without the ambient one (0x2f). */
	ck_assert_int_eq(cap_set_mode(CAP_MODE_PURE1E), 0);
	ck_assert_uint_eq(k.secbits, 0x2f);
	ck_assert_uint_eq(k.e, 0);
	ck_assert_uint_eq(cap_get_mode(), CAP_MODE_PURE1E_INIT);
}
END_TEST

START_TEST(file_and_pid_reads_go_through_the_seam)
{
	cap_iab_t iab;
	cap_t caps;

	install(42, 1);
	caps = cap_get_file("/fake/perf");
	ck_assert_ptr_nonnull(caps);
	assert_text(cap_to_text(caps, NULL), "cap_perfmon=ep");
	cap_free(caps);
	errno = 0;
	ck_assert_ptr_null(cap_get_file("/fake/other"));
	ck_assert_int_eq(errno, ENODATA);

	k.status = "Name:\tfake\nCapInh:\t0000000000000000\n"
		   "CapPrm:\t000003ffffffffff\nCapBnd:\t000001ffffffffff\n"
		   "CapAmb:\t0000020000000000\n";
	iab = cap_iab_get_pid(4242);
	ck_assert_ptr_nonnull(iab);
	/* 41 ambient; 41 also out of the bounding set of 42. */
	{
		char want[64];

		snprintf(want, sizeof(want), "!^%s", name_of(41));
		assert_text(cap_iab_to_text(iab), want);
	}
	cap_free(iab);
	errno = 0;
	ck_assert_ptr_null(cap_iab_get_pid(4243));
	ck_assert_int_eq(errno, ENOENT);
}
END_TEST

START_TEST(the_real_kernel_comes_back)
{
	FILE *f = fopen("/proc/sys/kernel/cap_last_cap", "r");
	int last = -1;

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fscanf(f, "%d", &last), 1);
	fclose(f);
	install(42, 0);
	ck_assert_int_eq(cap_max_bits(), 42);
	lcap_sys_set_kernel(NULL);
	ck_assert_int_eq(cap_max_bits(), last + 1);
	ck_assert_int_eq(cap_get_ambient(CAP_CHOWN) >= 0, 1);
}
END_TEST

static Suite *sys_fake_suite(void)
{
	Suite *s = suite_create("sys_fake");
	TCase *tc = tcase_create("sys_fake");

	tcase_add_test(tc, kernel_with_42_capabilities);
	tcase_add_test(tc, kernel_without_ambient);
	tcase_add_test(tc, file_and_pid_reads_go_through_the_seam);
	tcase_add_test(tc, the_real_kernel_comes_back);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(sys_fake_suite)
