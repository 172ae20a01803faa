/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* E, P and I of a process: cap_get_proc, cap_set_proc, cap_get_pid, capgetp, capsetp. */
#include <errno.h>
#include <string.h>

#include "lcap.h"

/*
 * The kernel's v3 interface carries 64 bits per flag in two 32-bit words,
 * exactly the layout of a cap_t. Kernels without v3 (before 2.6.26) are
 * not supported.
 */
static void header_for(struct __user_cap_header_struct *hdr, pid_t pid)
{
	hdr->version = _LINUX_CAPABILITY_VERSION_3;
	hdr->pid = pid;
}

/* capget(2) into a plain struct: no lock, no allocation. */
static int read_raw(pid_t pid, struct _cap_struct *caps)
{
	struct __user_cap_header_struct hdr;
	/*
	 * Zeroed although the kernel fills both words: valgrind's capget
	 * model marks only the first (v1-sized) word as written.
	 */
	struct __user_cap_data_struct data[LCAP_WORDS] = { { 0, 0, 0 } };
	int w;

	header_for(&hdr, pid);
	if (lcap_sys_capget(&hdr, data) < 0)
		return -1; /* errno from capget(2): ESRCH, EPERM */
	for (w = 0; w < LCAP_WORDS; w++) {
		caps->flags[CAP_EFFECTIVE][w] = data[w].effective;
		caps->flags[CAP_PERMITTED][w] = data[w].permitted;
		caps->flags[CAP_INHERITABLE][w] = data[w].inheritable;
	}
	return 0;
}

static int read_caps(pid_t pid, cap_t caps)
{
	struct _cap_struct raw;

	if (read_raw(pid, &raw) < 0)
		return -1;
	lcap_lock(caps);
	memcpy(caps->flags, raw.flags, sizeof(caps->flags));
	lcap_unlock(caps);
	return 0;
}

/* capset(2) from a plain struct: no lock, no allocation. */
static int write_raw(pid_t pid, const struct _cap_struct *caps)
{
	struct __user_cap_header_struct hdr;
	struct __user_cap_data_struct data[LCAP_WORDS];
	int w;

	header_for(&hdr, pid);
	for (w = 0; w < LCAP_WORDS; w++) {
		data[w].effective = caps->flags[CAP_EFFECTIVE][w];
		data[w].permitted = caps->flags[CAP_PERMITTED][w];
		data[w].inheritable = caps->flags[CAP_INHERITABLE][w];
	}
	return lcap_sys_capset(&hdr, data); /* errno from capset(2) */
}

static int write_caps(pid_t pid, cap_t shared)
{
	struct _cap_struct snap;

	if (lcap_snapshot(shared, LCAP_KIND_SET, &snap, sizeof(snap)) < 0)
		return -1;
	return write_raw(pid, &snap);
}

int lcap_proc_read(struct _cap_struct *caps)
{
	return read_raw(0, caps);
}

int lcap_proc_write(const struct _cap_struct *caps)
{
	return write_raw(0, caps);
}

/* Returns a new set (caller frees with cap_free), or NULL with errno. */
cap_t cap_get_pid(pid_t pid)
{
	cap_t caps = cap_init();

	if (caps == NULL)
		return NULL;
	if (read_caps(pid, caps) < 0) {
		int saved = errno;

		cap_free(caps);
		errno = saved;
		return NULL;
	}
	return caps;
}

cap_t cap_get_proc(void)
{
	return cap_get_pid(0);
}

/* Applies E, P and I to the calling thread (all threads if routed so). */
int cap_set_proc(cap_t caps)
{
	if (!lcap_is(caps, LCAP_KIND_SET)) {
		errno = EINVAL;
		return -1;
	}
	return write_caps(0, caps);
}

/* Deprecated: fills an existing set with another process's E, P and I. */
int capgetp(pid_t pid, cap_t caps)
{
	if (!lcap_is(caps, LCAP_KIND_SET)) {
		errno = EINVAL;
		return -1;
	}
	return read_caps(pid, caps);
}

/*
 * Deprecated: the kernel has refused to change another process's
 * capabilities since 2.6.24 (EPERM); kept for the ABI.
 */
int capsetp(pid_t pid, cap_t caps)
{
	if (!lcap_is(caps, LCAP_KIND_SET)) {
		errno = EINVAL;
		return -1;
	}
	return write_caps(pid, caps);
}

int lcap_proc_raise(struct _cap_struct *working, cap_value_t cap)
{
	if (lcap_proc_read(working) < 0)
		return -1;
	working->flags[CAP_EFFECTIVE][LCAP_WORD(cap)] |= LCAP_MASK(cap);
	if (lcap_proc_write(working) < 0)
		/* E may not have changed, but apply the cleared E anyway. */
		return lcap_proc_end(working, -1);
	return 0;
}

int lcap_proc_end(struct _cap_struct *working, int rc)
{
	int saved = errno;

	/*
	 * Leave nothing raised: a privilege used for one step must not stay
	 * effective for the code that runs next. A failure here cannot undo
	 * the step, so the step's own result is what the caller sees.
	 */
	memset(working->flags[CAP_EFFECTIVE], 0,
	       sizeof(working->flags[CAP_EFFECTIVE]));
	lcap_proc_write(working);
	errno = saved;
	return rc;
}
