/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * Another process's IAB, read from procfs: cap_iab_get_pid and
 * cap_proc_root.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lcap.h"

/*
 * Where procfs is mounted; NULL means "/proc". Owned by this module and
 * swapped atomically, so concurrent callers never see a torn pointer; a
 * program that changes it while another thread reads a pid's IAB must
 * order the two itself (the old string is handed back to the caller).
 */
static char *proc_root;

/*
 * Returns the previous root (NULL meaning the default "/proc"), which the
 * caller frees with cap_free(). A non-NULL root replaces it with a copy;
 * NULL restores the default. On ENOMEM nothing changes and NULL is
 * returned.
 */
char *cap_proc_root(const char *root)
{
	char *copy = NULL;

	if (root != NULL) {
		copy = lcap_strdup(root);
		if (copy == NULL)
			return NULL;
	}
	return __atomic_exchange_n(&proc_root, copy, __ATOMIC_ACQ_REL);
}

/*
 * Parses the hex value of a "CapXxx:\t%016llx" line into two words: 1 to
 * 16 hex digits, then the end of the line. strtoull() alone would also
 * take blanks, a sign and "0x", and negate "-1" into all 64 bits: a
 * status file under a relocated root (cap_proc_root) that says so would
 * read as every capability.
 */
static int scan_vector(const char *text, uint32_t out[LCAP_WORDS])
{
	unsigned long long value = 0;
	size_t n;

	for (n = 0; isxdigit((unsigned char)text[n]); n++) {
		if (n == 16)
			return -1;
		value = value << 4 |
			(unsigned)(isdigit((unsigned char)text[n])
					   ? text[n] - '0'
					   : (tolower((unsigned char)text[n]) -
					      'a' + 10));
	}
	if (n == 0 || (text[n] != '\n' && text[n] != '\0'))
		return -1;
	out[0] = (uint32_t)value;
	out[1] = (uint32_t)(value >> 32);
	return 0;
}

#define SEEN_INH 1
#define SEEN_BND 2
#define SEEN_AMB 4
#define SEEN_ALL (SEEN_INH | SEEN_BND | SEEN_AMB)

static int parse_status(FILE *file, cap_iab_t iab)
{
	char line[256];
	uint32_t bound[LCAP_WORDS];
	int seen = 0, w, bits = lcap_kernel_bits();

	while (fgets(line, sizeof(line), file) != NULL) {
		if (strncmp(line, "CapInh:\t", 8) == 0 &&
		    scan_vector(line + 8, iab->i) == 0)
			seen |= SEEN_INH;
		else if (strncmp(line, "CapBnd:\t", 8) == 0 &&
			 scan_vector(line + 8, bound) == 0)
			seen |= SEEN_BND;
		else if (strncmp(line, "CapAmb:\t", 8) == 0 &&
			 scan_vector(line + 8, iab->a) == 0)
			seen |= SEEN_AMB;
	}
	if (seen != SEEN_ALL) {
		/* Not a status file of a kernel with ambient support. */
		errno = EINVAL;
		return -1;
	}
	/* Blocked = not in the bounding set, among the capabilities known. */
	for (w = 0; w < LCAP_WORDS; w++) {
		int low = w * 32;
		uint32_t known = bits >= low + 32 ? UINT32_MAX
				 : bits <= low
					 ? 0
					 : (UINT32_C(1) << (bits - low)) - 1;

		iab->nb[w] = ~bound[w] & known;
	}
	return 0;
}

/*
 * Returns a new IAB (caller frees with cap_free), or NULL with errno:
 * that of open() (ENOENT for a missing pid or no procfs at the root),
 * or EINVAL when the file lacks the CapInh, CapBnd and CapAmb lines.
 */
cap_iab_t cap_iab_get_pid(pid_t pid)
{
	char *root = __atomic_load_n(&proc_root, __ATOMIC_ACQUIRE);
	char path[4096];
	cap_iab_t iab;
	FILE *file;
	int fd, n, saved;

	n = snprintf(path, sizeof(path), "%s/%d/status",
		     root != NULL ? root : "/proc", (int)pid);
	if (n < 0 || (size_t)n >= sizeof(path)) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	/*
	 * Opened through the seam, so a test's fake kernel supplies the file.
	 */
	fd = lcap_sys_open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	file = fdopen(fd, "r");
	if (file == NULL) {
		saved = errno; /* ENOMEM */
		lcap_sys_close(fd);
		errno = saved;
		return NULL;
	}
	iab = cap_iab_init();
	if (iab != NULL && parse_status(file, iab) < 0) {
		saved = errno;
		cap_free(iab);
		errno = saved;
		iab = NULL;
	}
	saved = errno;
	fclose(file);
	errno = saved;
	return iab;
}
