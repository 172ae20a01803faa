/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * capmanifest: a file's POSIX access ACL as a manifest records it, one
 * word of text ("user::rwx,user:1000:r-x,group::r-x,mask::r-x,other::---"),
 * so that verify can tell an entry added to an ACL that was already there,
 * and restore can put back exactly the ACL that was recorded.
 *
 * The text is the entries in the order the kernel keeps them, each as
 * tag:qualifier:permissions with numeric ids: one spelling for one ACL,
 * so two ACLs are the same exactly when their texts are. The kernel holds
 * an access ACL only beside a mode it agrees with (setting one rewrites
 * the mode's permission bits, chmod rewrites the owner's, the mask's or
 * the owning group's, and other's entries: fs/posix_acl.c), and one of
 * only the three base entries it does not keep at all. So an ACL read
 * from a file, and one read from a manifest, is taken only in the kernel's
 * order and agreeing with the mode; one with base entries alone is "no
 * ACL" (it grants nothing the mode does not), and anything else is refused
 * (EBADMSG from a file: a file system that is not the kernel's word, or a
 * damaged one), never passed as if it were understood.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl.h"
#include "capmanifest.h"

/* No uid or gid is this: the kernel's "no id" (ACL_UNDEFINED_ID). */
#define NO_ID 0xffffffffu

/* The longest entry's text, with its comma: "group:4294967294:rwx,". */
#define ENTRY_TEXT_MAX 22

static const char *tag_word(unsigned tag)
{
	switch (tag) {
	case ACL_USER_OBJ:
	case ACL_NAMED_USER:
		return "user";
	case ACL_GROUP_OBJ:
	case ACL_NAMED_GROUP:
		return "group";
	case ACL_MASK:
		return "mask";
	default:
		return "other";
	}
}

/*
 * Whether e (n entries) is an ACL the kernel would hold beside mode: in
 * its order (owner, named users, owning group, named groups, mask,
 * other; a mask whenever there is a named entry), permissions within
 * rwx, no named entry for the id that is none, and the owner's, the
 * mask's (or, without one, the owning group's) and other's permissions
 * those of mode. 1 when it also grants beyond mode (a named entry or a
 * mask: *named says whether there is a named one), 0 when it is base
 * entries alone, -1 when it is none the kernel would hold.
 */
static int acl_check(const struct acl_entry *e, int n, mode_t mode, int *named)
{
	/* Where the walk through the kernel's order is (posix_acl_valid()). */
	enum { AT_START, AT_USERS, AT_GROUPS, AT_MASK, AT_END } at = AT_START;
	unsigned group_bits = 0, mask_bits = 0;
	int i, masked = 0;

	*named = 0;
	for (i = 0; i < n; i++) {
		if (e[i].perm > 7)
			return -1;
		switch (e[i].tag) {
		case ACL_USER_OBJ:
			if (at != AT_START || e[i].perm != ((mode >> 6) & 7))
				return -1;
			at = AT_USERS;
			break;
		case ACL_NAMED_USER:
		case ACL_NAMED_GROUP:
			if (at != (e[i].tag == ACL_NAMED_USER ? AT_USERS
							      : AT_GROUPS) ||
			    e[i].id == NO_ID)
				return -1;
			*named = 1;
			break;
		case ACL_GROUP_OBJ:
			if (at != AT_USERS)
				return -1;
			group_bits = e[i].perm;
			at = AT_GROUPS;
			break;
		case ACL_MASK:
			if (at != AT_GROUPS)
				return -1;
			masked = 1;
			mask_bits = e[i].perm;
			at = AT_MASK;
			break;
		case ACL_OTHER:
			if ((at != AT_GROUPS && at != AT_MASK) ||
			    e[i].perm != (mode & 7))
				return -1;
			at = AT_END;
			break;
		default:
			return -1;
		}
	}
	if (at != AT_END || (*named && !masked))
		return -1;
	if ((masked ? mask_bits : group_bits) != ((mode >> 3) & 7))
		return -1;
	return *named || masked;
}

/* The canonical text of e (n entries): a new string, or NULL (ENOMEM). */
static char *acl_format(const struct acl_entry *e, int n)
{
	char *text = malloc((size_t)n * ENTRY_TEXT_MAX + 1), *p;
	int i;

	if (text == NULL)
		return NULL;
	p = text;
	for (i = 0; i < n; i++) {
		char id[16] = "";

		if (e[i].tag == ACL_NAMED_USER || e[i].tag == ACL_NAMED_GROUP)
			snprintf(id, sizeof(id), "%u", (unsigned)e[i].id);
		p += sprintf(p, "%s%s:%s:%c%c%c", i ? "," : "",
			     tag_word(e[i].tag), id, e[i].perm & 4 ? 'r' : '-',
			     e[i].perm & 2 ? 'w' : '-',
			     e[i].perm & 1 ? 'x' : '-');
	}
	*p = '\0';
	return text;
}

int acl_text_of_file(int fd, mode_t mode, char **text, int *named)
{
	struct acl_entry *e = NULL;
	unsigned char *raw;
	size_t len;
	int rc = entry_acl(fd, &raw, &len), n;

	*text = NULL;
	*named = 0;
	if (rc <= 0)
		return rc; /* none, or errno from getxattr(2) */
	e = calloc(len / 8 + 1, sizeof(*e));
	if (e == NULL) {
		free(raw);
		errno = ENOMEM;
		return -1;
	}
	n = acl_decode(raw, len, e, len / 8 + 1);
	free(raw);
	rc = n < 0 ? -1 : acl_check(e, n, mode, named);
	if (rc < 0) {
		errno = EBADMSG;
	} else if (rc > 0) {
		*text = acl_format(e, n);
		if (*text == NULL) {
			errno = ENOMEM;
			rc = -1;
		}
	}
	free(e);
	return rc;
}

/*
 * "rwx", "r-x", ...: the permissions at *p (moved past them) into *perm.
 * 0, or -1 when they are not three letters in that spelling.
 */
static int take_perm(const char **p, unsigned *perm)
{
	static const char letters[] = "rwx";
	int i;

	*perm = 0;
	for (i = 0; i < 3; i++) {
		if ((*p)[i] == letters[i])
			*perm |= 4u >> i;
		else if ((*p)[i] != '-')
			return -1;
	}
	*p += 3;
	return 0;
}

/* An id of a named entry: decimal, no leading zero, below NO_ID. */
static int take_id(const char **p, uint32_t *id)
{
	uint64_t v = 0;
	const char *q = *p;

	if (*q < '0' || *q > '9' || (*q == '0' && q[1] >= '0' && q[1] <= '9'))
		return -1;
	for (; *q >= '0' && *q <= '9'; q++) {
		v = v * 10 + (uint64_t)(*q - '0');
		if (v >= NO_ID)
			return -1;
	}
	*id = (uint32_t)v;
	*p = q;
	return 0;
}

/* One "tag:qualifier:perm" at *p into *e; 0, or -1. */
static int take_entry(const char **p, struct acl_entry *e)
{
	static const struct {
		const char *word;
		unsigned plain, named;
	} tags[] = {
		{ "user:", ACL_USER_OBJ, ACL_NAMED_USER },
		{ "group:", ACL_GROUP_OBJ, ACL_NAMED_GROUP },
		{ "mask:", ACL_MASK, 0 },
		{ "other:", ACL_OTHER, 0 },
	};
	size_t i, len;

	for (i = 0; i < sizeof(tags) / sizeof(tags[0]); i++) {
		len = strlen(tags[i].word);
		if (strncmp(*p, tags[i].word, len) == 0)
			break;
	}
	if (i == sizeof(tags) / sizeof(tags[0]))
		return -1;
	*p += len;
	e->id = NO_ID;
	if (**p == ':') {
		e->tag = tags[i].plain;
	} else {
		if (tags[i].named == 0 || take_id(p, &e->id) < 0 || **p != ':')
			return -1;
		e->tag = tags[i].named;
	}
	(*p)++;
	return take_perm(p, &e->perm);
}

int acl_text_parse(const char *text, struct acl_entry **entries, int *count)
{
	const char *p = text;
	struct acl_entry *e;
	size_t room = 1;
	int n = 0;

	for (p = text; *p != '\0'; p++)
		room += *p == ',';
	if (room > ACL_MAX_ENTRIES) {
		errno = EINVAL;
		return -1;
	}
	e = calloc(room, sizeof(*e));
	if (e == NULL)
		return -1;
	for (p = text;; p++) {
		if (take_entry(&p, &e[n++]) < 0 || (*p != ',' && *p != '\0')) {
			free(e);
			errno = EINVAL;
			return -1;
		}
		if (*p == '\0')
			break;
	}
	*entries = e;
	*count = n;
	return 0;
}

int acl_text_check(const char *text, mode_t mode, int *named)
{
	struct acl_entry *e;
	int n, rc;

	if (acl_text_parse(text, &e, &n) < 0)
		return -1;
	rc = acl_check(e, n, mode, named);
	free(e);
	/* Base entries alone are written "acl=no": one spelling. */
	if (rc <= 0) {
		errno = EINVAL;
		return -1;
	}
	return 0;
}

int acl_text_xattr(const char *text, unsigned char **raw, size_t *len)
{
	struct acl_entry *e;
	unsigned char *v;
	int n, i;

	if (acl_text_parse(text, &e, &n) < 0)
		return -1;
	v = malloc(4 + 8 * (size_t)n);
	if (v == NULL) {
		free(e);
		return -1;
	}
	/* Little endian: version 2, then tag, permissions and id. */
	memcpy(v, "\x02\x00\x00\x00", 4);
	for (i = 0; i < n; i++) {
		unsigned char *q = v + 4 + 8 * i;

		q[0] = (unsigned char)e[i].tag;
		q[1] = (unsigned char)(e[i].tag >> 8);
		q[2] = (unsigned char)e[i].perm;
		q[3] = 0;
		q[4] = (unsigned char)e[i].id;
		q[5] = (unsigned char)(e[i].id >> 8);
		q[6] = (unsigned char)(e[i].id >> 16);
		q[7] = (unsigned char)(e[i].id >> 24);
	}
	free(e);
	*raw = v;
	*len = 4 + 8 * (size_t)n;
	return 0;
}
