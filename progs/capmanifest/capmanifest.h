/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* capmanifest: entries of a capability manifest, and the modules that make and use them. */
#ifndef CAPMANIFEST_H
#define CAPMANIFEST_H

#include <stddef.h>
#include <stdio.h>
#include <sys/capability.h>
#include <sys/stat.h>

/* Version 2 adds owner, group, mode and ACL presence; 1 is still read. */
#define MANIFEST_MAGIC		"# capmanifest 2"
#define MANIFEST_MAGIC_V1	"# capmanifest 1"
/* Starts a line naming a path record could not read (capmanifest_io.c). */
#define UNREAD_TAG		"!unread"

/*
 * Who may run a file: a capability is only as narrow as the set of people
 * who can execute the file carrying it. acl is 1 when the file has a POSIX
 * access ACL with entries beyond the mode bits (named users or groups).
 */
struct meta {
	uid_t uid;
	gid_t gid;
	mode_t mode;		/* permission bits, setuid/setgid/sticky too */
	int acl;
};

/* One file carrying capabilities: its path relative to the tree's root. */
struct entry {
	char *path;		/* "./usr/bin/ping": raw bytes, unescaped */
	char *text;		/* canonical cap_to_text() form */
	uid_t rootid;		/* 0 unless a v3 (namespaced) capability */
	int has_meta;		/* 0: from a version 1 manifest */
	struct meta meta;
};

struct manifest {
	struct entry *entries;
	size_t count, alloc;
	int version;		/* of the manifest read: 1 or 2 */
	/*
	 * Paths ("./dir", raw bytes) record could not read: a directory
	 * not listed or a file whose capabilities could not be read. The
	 * manifest says nothing about them or what lies below, so verify
	 * and restore leave the tree's files there alone ("!unread" lines).
	 */
	char **unread;
	size_t nunread, aunread;
};

/* capmanifest_io.c */
int manifest_add(struct manifest *m, const struct entry *e);
int manifest_take(struct manifest *to, struct manifest *from);
int manifest_add_unread(struct manifest *m, const char *path);
/* The unread path path is, or lies below; NULL if none. */
const char *manifest_unread_above(const struct manifest *m, const char *path);
void manifest_sort(struct manifest *m);
void manifest_free(struct manifest *m);
void manifest_write(const struct manifest *m, FILE *out);
int manifest_read(struct manifest *m, FILE *in, const char *name);
void print_escaped(FILE *out, const char *path);
void print_meta(FILE *out, const struct meta *m, const struct meta *only);

/*
 * capmanifest_walk.c: every regular file under root with capabilities.
 * Returns 0 (all read), 1 (some paths could not be read: each reported on
 * stderr and listed in m->unread, the rest recorded) or -1 (nothing: the
 * root itself could not be read). Pseudo filesystems below root are left
 * out unless pseudo is set.
 */
int manifest_record(struct manifest *m, const char *root, int one_fs,
		    int pseudo);
/* The same for only the files want lists, below rootfd, without a walk. */
int manifest_record_listed(struct manifest *m, const struct manifest *want,
			   int rootfd);

/*
 * capmanifest_apply.c: one file, always through a descriptor of its own
 * (O_PATH, opened without following any link), so its type, owner, mode,
 * ACL and capabilities all belong to one inode and no FIFO or device is
 * ever opened for reading.
 */
int entry_open_at(int dirfd, const char *name, struct stat *st);
int entry_open_beneath(int rootfd, const char *relpath, struct stat *st);
cap_t entry_caps(int fd);
int entry_meta(int fd, const struct stat *st, struct meta *out);
int entry_fix_meta(int fd, const struct meta *want, const struct meta *have);
int meta_equal(const struct meta *a, const struct meta *b);

#endif
