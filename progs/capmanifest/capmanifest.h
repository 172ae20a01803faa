/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* capmanifest: entries of a capability manifest, and the modules that make and use them. */
#ifndef CAPMANIFEST_H
#define CAPMANIFEST_H

#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/capability.h>
#include <sys/stat.h>

#include "sha256.h"

/*
 * Version 4 records the entries of each file's access ACL, not only that
 * it has one (capmanifest_acl.c); 3 added each file's content digest
 * (what the file is, not only where it is); 2 owner, group, mode and ACL
 * presence. 1 to 3 are still read.
 */
#define MANIFEST_VERSION  4
#define MANIFEST_MAGIC	  "# capmanifest 4"
#define MANIFEST_MAGIC_V3 "# capmanifest 3"
#define MANIFEST_MAGIC_V2 "# capmanifest 2"
#define MANIFEST_MAGIC_V1 "# capmanifest 1"
/* Room for a reason in a message: who may write a file, and how. */
#define WHY_SIZE 256

/*
 * Whether the directories on a file's way are root's alone: writable by
 * nobody but root and the user running capmanifest (who, if not root,
 * cannot grant capabilities or root's set-user-ID anyway).
 */
struct way {
	int root_only;	    /* 1: each is writable by root alone */
	char dir[PATH_MAX]; /* else the first that is not: "./app", "/tmp" */
	char why[WHY_SIZE]; /* and who besides root may write it */
	int link;	    /* dir is a symbolic link (way_to()) */
	int holder;	    /* dir is the one holding the file (way_to()) */
};

/*
 * Where the Debian package's trigger (debian/libcap2-bin.postinst) finds
 * the manifests it restores after an upgrade: the files of TRIGGER_DIR
 * whose names end in TRIGGER_SUFFIX, as sh expands that pattern (no name
 * starting with a dot, nothing in a subdirectory). add refuses a manifest
 * it would never read there, and says which files it would not take new
 * content for.
 */
#define TRIGGER_DIR    "/etc/capmanifest.d"
#define TRIGGER_SUFFIX ".manifest"
/*
 * The trees the trigger watches (debian/libcap2-bin.triggers has one
 * "interest-noawait" line for each, and for TRIGGER_DIR; the two lists
 * are compared by tests/cli/capmanifest_add.sh): wherever Debian puts
 * programs and their helpers. A package replacing a file elsewhere does
 * not run it: add warns about such a file.
 */
#define TRIGGER_PATHS \
	"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/opt"

/* Starts a line naming a path record could not read (capmanifest_io.c). */
#define UNREAD_TAG "!unread"

/*
 * Who may run a file: a capability is only as narrow as the set of people
 * who can execute the file carrying it. acl is 1 when the file has a POSIX
 * access ACL with entries beyond the mode bits (named users or groups, or
 * a mask), and acl_text is then its entries (capmanifest_acl.c), unless
 * the meta comes from a manifest older than version 4, which recorded
 * only that there was one. A meta owns its acl_text: meta_free().
 */
struct meta {
	uid_t uid;
	gid_t gid;
	mode_t mode; /* permission bits, setuid/setgid/sticky too */
	int acl;
	int acl_named;	/* with acl_text: it has named entries */
	char *acl_text; /* "user::rwx,user:1000:r-x,...", or NULL */
};

/* One file carrying capabilities: its path relative to the tree's root. */
struct entry {
	char *path;   /* "./usr/bin/ping": raw bytes, unescaped */
	char *text;   /* canonical cap_to_text() form */
	uid_t rootid; /* 0 unless a v3 (namespaced) capability */
	int has_meta; /* 0: from a version 1 manifest */
	struct meta meta;
	int has_digest; /* 0: from a version 1 or 2 manifest */
	unsigned char digest[SHA256_SIZE]; /* SHA-256 of the content */
};

struct manifest {
	struct entry *entries;
	size_t count, alloc;
	int version; /* of the manifest read: 1 to 4 */
	/*
	 * Paths ("./dir", raw bytes) record could not read: a directory
	 * not listed or a file whose capabilities could not be read. The
	 * manifest says nothing about them or what lies below, so verify
	 * and restore leave the tree's files there alone ("!unread" lines).
	 */
	char **unread;
	size_t nunread, aunread;
};

/* The options, built once in main() (capmanifest.c). */
struct opts {
	int one_fs;
	int pseudo; /* walk pseudo filesystems (proc, sysfs, ...) too */
	int dry_run;
	int fix_owner;	 /* restore: re-apply owner, group and mode */
	int accept_new;	 /* restore: new content where only root put it */
	int allow_v1;	 /* restore: accept a manifest without them */
	int listed_only; /* verify, restore: the manifest's files only */
	const char *command;
	const char *manifest;
	const char *root;
	char *const *files; /* record FILE..., add MANIFEST FILE... */
	int nfiles;
};

/* A path in the manifest compared with the tree. */
enum change { SAME, MISSING, EXTRA, DIFFERS };

/* What verify and restore share over one run. */
struct ctx {
	const struct opts *o;
	int rootfd; /* O_PATH, the tree's root */
	int manifest_version;
	int above_checked; /* above holds the directories above the root */
	struct way above;
	FILE *out, *err; /* restore's reports and refusals (stdout, stderr) */
	int accepted;	 /* accept_new() took new content */
	/* Refusals that named --fix-owner, --accept-new-content, --allow-v1: */
	int hint_fix, hint_accept, hint_v1; /* print_repair() adds them */
};

/* capmanifest_restore.c: makes one file match; 1 on a failure or refusal. */
int restore_one(enum change c, const struct entry *want,
		const struct entry *have, struct ctx *ctx);
/*
 * After restore: the command line that adds the options refusals named
 * ("capmanifest: to restore them: capmanifest restore --fix-owner ..."),
 * when any did, on stderr.
 */
void print_repair(const struct ctx *ctx);
/* "<label> <path> <caps>[ [rootid=N]]" on stdout, or on out. */
void print_entry(const char *label, const struct entry *e);
void print_entry_to(FILE *out, const char *label, const struct entry *e);
/* "capmanifest: cannot <what> <path>: <reason>" */
void fail_entry(const char *what, const char *path, int err);

/* capmanifest_io.c */
int manifest_add(struct manifest *m, const struct entry *e);
int manifest_take(struct manifest *to, struct manifest *from);
int manifest_add_unread(struct manifest *m, const char *path);
/* The unread path path is, or lies below; NULL if none. */
const char *manifest_unread_above(const struct manifest *m, const char *path);
void manifest_sort(struct manifest *m);
void manifest_free(struct manifest *m);
/* The sorted m's entry for path, or NULL. */
struct entry *manifest_find(const struct manifest *m, const char *path);
/*
 * Writes m in the current format: every entry must have its metadata and
 * digest (EINVAL, nothing written, when one has not). 0, or -1 with
 * errno when out could not take it all (its error flag set).
 */
int manifest_write(const struct manifest *m, FILE *out);
int manifest_read(struct manifest *m, FILE *in, const char *name);
/* 1 when path is a path a manifest may hold: "./" and components that
 * are neither empty, "." nor "..". */
int manifest_path_ok(const char *path);
void print_escaped(FILE *out, const char *path);
/* "capmanifest: <operand>: <what>" on stderr, escaped as say.h says. */
void warn_operand(const char *operand, const char *what);
void print_meta(FILE *out, const struct meta *m, const struct meta *only);
/* "sha256=<64 hex digits>" */
void print_digest(FILE *out, const unsigned char d[SHA256_SIZE]);

/*
 * Whose content digests a record computes: every file's (DIGEST_ALL,
 * record), only those of files a given manifest lists with a digest
 * (DIGEST_LISTED, verify: reading every capable file of a system to
 * compare none of them would be waste), or none (DIGEST_NONE, restore,
 * which reads a file's content only under the lease it writes under).
 */
enum digest_want { DIGEST_ALL, DIGEST_LISTED, DIGEST_NONE };
struct digest_for {
	enum digest_want want;
	const struct manifest *listed; /* for DIGEST_LISTED, sorted */
};

/*
 * capmanifest_walk.c: every regular file under root with capabilities.
 * Returns 0 (all read), 1 (some paths could not be read: each reported on
 * stderr and listed in m->unread, the rest recorded) or -1 (nothing: the
 * root itself could not be read). Pseudo filesystems below root are left
 * out unless pseudo is set.
 */
int manifest_record(struct manifest *m, const char *root, int one_fs,
		    int pseudo, const struct digest_for *d);
/* The same for only the files want lists, below rootfd, without a walk. */
int manifest_record_listed(struct manifest *m, const struct manifest *want,
			   int rootfd, const struct digest_for *d);
/*
 * The entry of the regular file open as fd (O_PATH; st fstat()ed on it)
 * at path rel: 1 with *e filled (e->path is rel itself, e->text the
 * caller's to cap_free()), 0 when it has no capabilities, -1 with errno.
 * Its content digest is read when digest is set.
 */
int entry_record(int fd, const struct stat *st, const char *rel, int digest,
		 struct entry *e);

/*
 * capmanifest_files.c: single files, named as record / would name them
 * ("./usr/bin/perf" for /usr/bin/perf or, on a merged /usr, /bin/perf).
 * Records each into m (digests included); 0, or -1 after naming on
 * stderr each file that could not be recorded (no capabilities, not a
 * regular file, unreadable): then m holds only the others.
 */
int manifest_record_files(struct manifest *m, char *const *files, int n);
/* capmanifest add: records files and merges them into the manifest at
 * path, written anew. Returns the exit status (0, 1, 2). */
int manifest_add_files(const char *path, char *const *files, int n);

/*
 * capmanifest_target.c: the manifest file, which grants capabilities as
 * root: read (restore, add) and written (add) only where nobody but its
 * owner could have put a line in it. Each returns 0, or the exit status
 * add gives (1: refused or failed, 2: not a file name, an invalid
 * manifest) once reported on stderr.
 */
struct target {
	const char *path; /* as given */
	char *dir, *base;
	int dirfd;  /* O_RDONLY | O_DIRECTORY: renameat, fsync */
	int lockfd; /* target_lock()'s, or -1 */
	char lockname[NAME_MAX + 1];
};
/* Splits path, opens its directory, refuses one others may write, or
 * one below a directory others may write (way_to(), sticky rule). */
int target_open(struct target *t, const char *path);
/*
 * Reads the manifest into m: a regular file (not a link; a FIFO is never
 * opened), that nobody but root and this user may write. Without
 * must_exist, none there is 0 with m empty (version 0).
 */
int target_read(const struct target *t, struct manifest *m, int must_exist);
/* Holds the manifest's lock (one add at a time) until target_unlock(). */
int target_lock(struct target *t);
void target_unlock(struct target *t);
/*
 * Writes m to a new file beside the manifest and renames it over the
 * manifest: readers see the old manifest or the new one, never a part;
 * fsync before the rename and of the directory after it.
 */
int target_write(const struct target *t, const struct manifest *m);
/* Unlocks and closes; t may be half opened (dirfd, lockfd -1). */
void target_free(struct target *t);

/*
 * capmanifest_register.c: add into TRIGGER_DIR. register_check_name()
 * sets *for_trigger when t's directory is TRIGGER_DIR or below it, and
 * returns 1 (refused, said why) for a name the trigger never reads
 * there, else 0. register_check_files() warns, on stderr, about each
 * added file whose new content the trigger would not take after an
 * upgrade, and why.
 */
int register_check_name(const struct target *t, int *for_trigger);
void register_check_files(const struct manifest *added);

/*
 * capmanifest_apply.c: one file, always through a descriptor of its own
 * (O_PATH, opened without following any link), so its type, owner, mode,
 * ACL and capabilities all belong to one inode and no FIFO or device is
 * ever opened for reading.
 */
cap_t entry_caps(int fd);
/* Removes its capabilities: 0, or -1 with errno (ENODATA: none). */
int entry_remove_caps(int fd);
/*
 * Owner, group, mode (from st, fstat()ed on fd) and access ACL into *out
 * (meta_free() it): 0, or -1 with errno (EBADMSG: an ACL that is not one
 * the kernel would hold beside that mode).
 */
int entry_meta(int fd, const struct stat *st, struct meta *out);
/*
 * Makes the file's owner, group, mode and access ACL want's (have: as
 * they are), its capabilities taken off first (the caller writes them
 * after): 0, or -1 with errno (EIO: it did not end up as asked).
 */
int entry_fix_meta(int fd, const struct meta *want, const struct meta *have);
void meta_free(struct meta *m);
/* A copy of from into *to (its own acl_text): 0, or -1 (ENOMEM). */
int meta_copy(struct meta *to, const struct meta *from);
/* 1 when a and b are the same, field by field, ACL entries too. */
int meta_equal(const struct meta *a, const struct meta *b);
/*
 * 1 when the file's have is what the manifest's want records. Where want
 * comes from a manifest that recorded only that there is an ACL, an ACL
 * with named entries does not match it: whom those entries let run the
 * file was never recorded, so they are not taken as the recorded ones.
 */
int meta_matches(const struct meta *have, const struct meta *want);
/* 1 when the ACLs of a and b match, as meta_matches() judges them. */
int acl_matches(const struct meta *a, const struct meta *b);
/*
 * The raw system.posix_acl_access value of fd's inode (any kind of
 * descriptor, O_PATH too) in *raw (caller frees), its length in *len:
 * 1, or 0 when it has none (or the filesystem has no ACLs), or -1 with
 * errno.
 */
int entry_acl(int fd, unsigned char **raw, size_t *len);

/*
 * capmanifest_acl.c: an access ACL's entries as one word of canonical
 * text, in the kernel's order with numeric ids:
 * "user::rwx,user:1000:r-x,group::r-x,mask::r-x,other::---".
 */
/*
 * The ACL of the inode open as fd, whose mode is mode: 1 with *text (the
 * caller frees it) and *named (whether it has named entries), 0 with
 * *text NULL when it has none or base entries alone (nothing beyond the
 * mode), -1 with errno (EBADMSG: not an ACL the kernel would hold beside
 * mode: undecodable, out of order, or disagreeing with the mode).
 */
int acl_text_of_file(int fd, mode_t mode, char **text, int *named);
/* 0 when text is an ACL that grants beyond mode in the canonical
 * spelling, *named set; else -1 (EINVAL). */
int acl_text_check(const char *text, mode_t mode, int *named);
/* text's entries (the caller frees *entries): 0, or -1 (EINVAL, ENOMEM). */
struct acl_entry;
int acl_text_parse(const char *text, struct acl_entry **entries, int *count);
/* text as a system.posix_acl_access value (the caller frees *raw). */
int acl_text_xattr(const char *text, unsigned char **raw, size_t *len);

/*
 * capmanifest_content.c: a file's content, read through its O_PATH
 * descriptor's inode and no other (see there).
 */
/* An O_RDONLY descriptor of fd's inode (a regular file: else EINVAL),
 * or -1 with errno. */
int content_open(int fd);
/* Takes a read lease on cfd: 0, or -1 with errno (EAGAIN: some process
 * has the file open for writing). */
int content_lease(int cfd);
/* 1 while the lease content_open() took is unbroken: nobody has asked
 * to open the file for writing or to truncate it since. */
int content_lease_held(int cfd);
/*
 * The digest of the content open as cfd (content_open()'s), and in *size
 * (unless NULL) the size it read: 0, or -1 with errno; EFBIG when a file a user may have made (not root's, or
 * writable by others than root) is larger than what is left of the
 * run's budget for them (see there), its content then not read.
 */
int content_digest(int cfd, unsigned char out[SHA256_SIZE], off_t *size);
/* strerror(), but for content_digest()'s EFBIG and entry_meta()'s
 * EBADMSG, what they mean. */
const char *content_strerror(int err);
/* The digest of fd's content, without a lease (record, verify). */
int entry_digest(int fd, unsigned char out[SHA256_SIZE]);

/*
 * capmanifest_trust.c: who besides root may change a file or a
 * directory, or the way to it, as common/path_trust.h judges it.
 */
/*
 * 0 when nobody but root and allowed (a uid; 0 for root alone) may write
 * the inode open as fd (st fstat()ed on it), 1 when someone else may
 * (*why then says who and how: "uid 65534 owns it"; on a FUSE file system
 * always, its daemon having the say: fsowner.h; or when who may is
 * unknown, its ACL unread), -1 with errno.
 */
int writers_besides(int fd, const struct stat *st, uid_t allowed,
		    char why[WHY_SIZE]);
/*
 * The same for the file as entry_fix_meta() will leave it: owned as want
 * says, its mode want's, and its ACL want's (or, from a manifest that
 * recorded only that there is one, the file's chmodded to that mode),
 * with want's owner allowed to write it.
 */
int writers_after_fix(int fd, const struct stat *st, const struct meta *want,
		      char why[WHY_SIZE]);
/* "directory <dir, escaped>: <why>" (or "symbolic link ...") */
void print_way(FILE *out, const struct way *w);
/*
 * walk_open_beneath()'s way to relpath below rootfd, which also checks
 * every directory on it, rootfd's included (way->dir: "." for it), a
 * sticky one as any other. The O_PATH descriptor, or -1 with errno as
 * walk_open_beneath() sets it.
 */
int open_checked_beneath(int rootfd, const char *relpath, struct stat *st,
			 struct way *way);
/*
 * The way to path, the directory open as fd, followed from "/" as the
 * kernel follows it (path_trust_way()): every directory on it, fd's
 * included, writable by nobody but root and the user running capmanifest,
 * every symbolic link on it theirs, and path still leading to fd's. 0
 * (way->root_only set as found, way->dir an absolute path, way->holder
 * when it is fd's directory itself), or -1 with errno. With sticky_above,
 * a sticky directory of root's (or of the user running capmanifest)
 * counts as root's alone above fd's, since nobody else may rename the
 * next directory on the way, theirs too, away, though they may add names
 * beside it. Without it (the way to new content, which could be any
 * name), or for fd's own directory (where add makes the manifest's new
 * name), it does not.
 */
int way_to(const char *path, int fd, int sticky_above, struct way *way);

#endif
