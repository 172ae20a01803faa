/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* capmanifest: entries of a capability manifest, and the modules that make and use them. */
#ifndef CAPMANIFEST_H
#define CAPMANIFEST_H

#include <stddef.h>
#include <stdio.h>
#include <sys/capability.h>

#define MANIFEST_MAGIC	"# capmanifest 1"

/* One file carrying capabilities: its path relative to the tree's root. */
struct entry {
	char *path;		/* "./usr/bin/ping": raw bytes, unescaped */
	char *text;		/* canonical cap_to_text() form */
	uid_t rootid;		/* 0 unless a v3 (namespaced) capability */
};

struct manifest {
	struct entry *entries;
	size_t count, alloc;
};

/* capmanifest_io.c */
int manifest_add(struct manifest *m, const char *path, const char *text,
		 uid_t rootid);
void manifest_sort(struct manifest *m);
void manifest_free(struct manifest *m);
void manifest_write(const struct manifest *m, FILE *out);
int manifest_read(struct manifest *m, FILE *in, const char *name);
void print_escaped(FILE *out, const char *path);

/* capmanifest_walk.c: every regular file under root with capabilities. */
int manifest_record(struct manifest *m, const char *root, int one_fs);

/* capmanifest_apply.c: race-free reads and writes below an open root. */
cap_t read_caps_beneath(int rootfd, const char *relpath);
int write_caps_beneath(int rootfd, const char *relpath, cap_t caps);

#endif
