/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * capmanifest: a file's content, read from the very inode its O_PATH
 * descriptor holds. The path is never resolved again: the descriptor is
 * reopened for reading through its /proc/thread-self/fd magic link
 * (reopen.h), which the kernel resolves to the descriptor's own file, not
 * to whatever now has its name. The O_PATH descriptor was opened without
 * following links and checked to be a regular file, and an inode's type
 * never changes, so a FIFO or device is never opened.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capmanifest.h"
#include "reopen.h"

int content_open(int fd)
{
	return reopen_regular_rdonly(fd);
}

int content_lease(int cfd)
{
	/*
	 * A read lease is granted only while no process has the file open
	 * for writing (fs/locks.c, check_conflicting_open(): i_writecount,
	 * which a shared writable mapping keeps raised after its descriptor
	 * is closed), and while it is held, an open for writing or a
	 * truncate(2) by anyone else first has to break it (the opener
	 * waits up to lease-break-time, /proc/sys/fs/lease-break-time). So
	 * between taking it and checking it is still held
	 * (content_lease_held()), nobody but root through our own calls can
	 * write to the content: what was hashed is what gets the
	 * capabilities. One way past it: open(O_RDONLY | O_TRUNC), by
	 * someone who may write the file, empties it without breaking a
	 * read lease (only opens for writing break one); restore_one()
	 * checks the size once it is done. EAGAIN: some process has the
	 * file open for writing now. Closing cfd ends the lease.
	 */
	return fcntl(cfd, F_SETLEASE, F_RDLCK) < 0 ? -1 : 0;
}

int content_lease_held(int cfd)
{
	/* A lease being broken reads as F_UNLCK, the type it is going to. */
	return fcntl(cfd, F_GETLEASE) == F_RDLCK;
}

/*
 * Reading a file to its digest takes as long as the file is large, and a
 * user can make a file as large as she likes at no cost: "truncate -s 8E"
 * on any filesystem (a sparse file), or clones of one extent on XFS and
 * btrfs; and she can give it capabilities of her own (setcap in a user
 * namespace of hers writes namespaced ones). "capmanifest record /" then
 * read it for ever. So the content of files a user may have made (not
 * owned by root, or that others than root may write) is read up to a
 * budget per run, 1 GiB in all, far more than all such capable programs
 * of a system; past it, such a file is not read (EFBIG): record names it
 * unread, verify cannot compare it, restore refuses it. A per-file limit
 * alone would not do: she can make many files, under as many user ids as
 * her subordinate ids give her. Root's files are root's doing and read
 * whole. Atomic: record's walk reads on several threads.
 */
#define USER_CONTENT_BUDGET ((unsigned long long)1 << 30)
static unsigned long long user_content_read;

static int take_budget(off_t size)
{
	unsigned long long was =
		__atomic_load_n(&user_content_read, __ATOMIC_RELAXED);

	do {
		if ((unsigned long long)size > USER_CONTENT_BUDGET - was)
			return -1;
	} while (!__atomic_compare_exchange_n(
		&user_content_read, &was, was + (unsigned long long)size, 0,
		__ATOMIC_RELAXED, __ATOMIC_RELAXED));
	return 0;
}

int content_digest(int cfd, unsigned char out[SHA256_SIZE], off_t *size)
{
	char why[WHY_SIZE];
	struct stat st;
	int rc;

	if (fstat(cfd, &st) < 0)
		return -1;
	rc = writers_besides(cfd, &st, 0, why);
	if (rc < 0)
		return -1;
	if (rc > 0 && take_budget(st.st_size) < 0) {
		errno = EFBIG;
		return -1;
	}
	if (size != NULL)
		*size = st.st_size;
	/* That size and no more: she may grow the file meanwhile. */
	return sha256_fd_size(cfd, st.st_size, out);
}

const char *content_strerror(int err)
{
	if (err == EFBIG)
		return "content not read: larger than what is left of the 1 GiB a run reads from files users may change (a user can make one as large as she likes)";
	if (err == EBADMSG)
		return "its access ACL is not one the kernel would hold beside its mode (undecodable, out of order, or disagreeing with the mode), so who may run it is unknown";
	return strerror(err);
}

int entry_digest(int fd, unsigned char out[SHA256_SIZE])
{
	int cfd = content_open(fd), rc, saved;

	if (cfd < 0)
		return -1;
	rc = content_digest(cfd, out, NULL);
	saved = errno;
	close(cfd);
	errno = saved;
	return rc;
}
