/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * Two copies of libpsx in one process, for any user: libpsx.a linked into
 * this program and libpsx.so.2 loaded by dlopen(), as a plugin would. Each
 * installs its handler for signal 33 over the other's at every call and
 * chains to what it replaced, so once they have alternated each chains to
 * the other: a signal neither takes (glibc's setuid() broadcast, which
 * glibc's own handler, replaced by the first of them, must see) went round
 * until the stack ran out, and the process died. And a library that
 * leaves its handler installed must not be unmapped by dlclose().
 * glibc's broadcast is exercised with setresuid(-1, -1, -1): no change,
 * allowed to any user, but still sent to every thread.
 */
#define _GNU_SOURCE
#include <check.h>
#include <dlfcn.h>
#include <sys/prctl.h>
#include <sys/psx_syscall.h>

#include "check_run.h"
#include "check_psx.h"

typedef long (*syscall3_fn)(long, long, long, long);

/* The shared library's own psx_syscall3, not this program's. */
static syscall3_fn load_shared_copy(void **handle)
{
	syscall3_fn fn;

	*handle = dlopen(PSX_SO_PATH, RTLD_NOW | RTLD_LOCAL);
	if (*handle == NULL) {
		fprintf(stderr, "dlopen: %s\n", dlerror());
		return NULL;
	}
	fn = (syscall3_fn)dlsym(*handle, "psx_syscall3");
	if (fn == NULL || fn == psx_syscall3) {
		fprintf(stderr, "no second copy of libpsx (%p)\n", (void *)fn);
		return NULL;
	}
	return fn;
}

static int rename_all(syscall3_fn fn, const char *name)
{
	if (fn(SYS_prctl, PR_SET_NAME, (long)name, 0) != 0)
		FAIL("broadcast \"%s\": %s", name, strerror(errno));
	return expect_all_named(name);
}

static int two_copies(void)
{
	struct worker w[4];
	syscall3_fn shared;
	void *handle;

	memset(w, 0, sizeof(w));
	if (start_workers(w, 4))
		return 1;
	shared = load_shared_copy(&handle);
	if (shared == NULL)
		return 2;
	/* Each takes signal 33 back from the other, twice over. */
	if (rename_all(psx_syscall3, "psx-static-1") ||
	    rename_all(shared, "psx-shared-1") ||
	    rename_all(psx_syscall3, "psx-static-2") ||
	    rename_all(shared, "psx-shared-2") ||
	    rename_all(psx_syscall3, "psx-static-3"))
		return 1;
	/* glibc's handler, replaced by the first copy, must still be reached. */
	if (setresuid((uid_t)-1, (uid_t)-1, (uid_t)-1) != 0 ||
	    setresgid((gid_t)-1, (gid_t)-1, (gid_t)-1) != 0)
		FAIL("glibc's setxid broadcast: %s", strerror(errno));
	if (rename_all(shared, "psx-shared-3"))
		return 1;
	if (setresuid((uid_t)-1, (uid_t)-1, (uid_t)-1) != 0)
		FAIL("glibc's setxid broadcast, again: %s", strerror(errno));
	printf("two copies took signal 33 from each other 5 times; every broadcast and glibc's setxid reached every thread\n");
	return stop_workers(w, 4);
}

START_TEST(two_copies_keep_glibc_setxid_working)
{
	ck_assert_int_eq(run_child(two_copies), 0);
}
END_TEST

static int unloaded(void)
{
	struct worker w[2];
	syscall3_fn shared;
	void *handle;

	memset(w, 0, sizeof(w));
	if (start_workers(w, 2))
		return 1;
	shared = load_shared_copy(&handle);
	if (shared == NULL)
		return 2;
	/* The shared copy's handler is the one installed now. */
	if (rename_all(shared, "psx-plugin"))
		return 1;
	if (dlclose(handle) != 0)
		FAIL("dlclose: %s", dlerror());
	if (setresuid((uid_t)-1, (uid_t)-1, (uid_t)-1) != 0)
		FAIL("glibc's setxid broadcast: %s", strerror(errno));
	if (rename_all(psx_syscall3, "psx-after"))
		return 1;
	printf("dlclose() left the installed handler mapped\n");
	return stop_workers(w, 2);
}

START_TEST(dlclose_keeps_the_handler_mapped)
{
	ck_assert_int_eq(run_child(unloaded), 0);
}
END_TEST

static Suite *psx_copies_suite(void)
{
	Suite *s = suite_create("psx_copies");
	TCase *copies = tcase_create("copies");

	tcase_set_timeout(copies, 120);
	tcase_add_test(copies, two_copies_keep_glibc_setxid_working);
	tcase_add_test(copies, dlclose_keeps_the_handler_mapped);
	suite_add_tcase(s, copies);
	return s;
}

int main(void)
{
	return run_psx_suite(psx_copies_suite);
}
