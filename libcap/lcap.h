/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* Internal declarations shared by the library's source files; never installed. */
#ifndef LCAP_H
#define LCAP_H

#include <stddef.h>
#include <stdint.h>

/*
 * Only what the public header declares may be exported: the library is
 * compiled with -fvisibility=hidden and this pragma makes the public
 * declarations the exception. libcap.map then lists the same names.
 */
#pragma GCC visibility push(default)
#include <sys/capability.h>
#pragma GCC visibility pop

/* A cap_t holds 64 bits per flag, as two 32-bit words (libcap's layout). */
#define LCAP_WORDS	2
#define LCAP_BITS	64
/* Capabilities this library can name: 0 (cap_chown) .. 40 (cap_checkpoint_restore). */
#define LCAP_NAMED	41
#define LCAP_FLAGS	3	/* CAP_EFFECTIVE, CAP_PERMITTED, CAP_INHERITABLE */

#define LCAP_WORD(cap)	((unsigned)(cap) >> 5)
#define LCAP_MASK(cap)	(UINT32_C(1) << ((unsigned)(cap) & 31))

struct _cap_struct {
	uint32_t flags[LCAP_FLAGS][LCAP_WORDS];	/* [cap_flag_t][word] */
	uid_t rootid;		/* namespace owner for a v3 file capability; 0 = none */
};

/* An IAB tuple: Inheritable, Ambient, and Bounding bits to be dropped. */
struct cap_iab_s {
	uint32_t i[LCAP_WORDS];
	uint32_t a[LCAP_WORDS];
	uint32_t nb[LCAP_WORDS];	/* set = drop from the bounding set */
};

/* Kinds of object handed out by the allocator, told apart by cap_free(). */
enum lcap_kind {
	LCAP_KIND_SET,
	LCAP_KIND_IAB,
	LCAP_KIND_LAUNCH,
	LCAP_KIND_STRING,
};

/* cap_alloc.c */
void *lcap_alloc(enum lcap_kind kind, size_t size);
int lcap_is(const void *obj, enum lcap_kind kind);
char *lcap_strdup(const char *text);
char *lcap_strndup(const char *text, size_t len);

/* cap_maxbits.c: number of capabilities the running kernel knows (cached). */
int lcap_kernel_bits(void);

/* cap_names.c */
const char *lcap_name_of(unsigned cap);	/* NULL above the named range */
size_t lcap_name_len(unsigned cap);	/* strlen of that name; 0 above it */
int lcap_scan_value(const char *text, const char **end);	/* errno untouched */

/* cap_sys.c: the only file that issues raw system calls. */
long lcap_sys_prctl_read(long option, long arg2, long arg3);

#endif
