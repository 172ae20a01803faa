/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * The tree walker getcap -r and capmanifest record share: parallel,
 * descriptor-relative, never following a link. Every directory is opened
 * relative to its parent's descriptor with O_NOFOLLOW, and every entry is
 * handed to the caller as (parent descriptor, name), so nothing is ever
 * resolved again by path: a directory swapped for a symlink mid-walk is
 * not entered, and nothing outside the tree is reached.
 *
 * Descriptors are bounded. A listed directory keeps its descriptor while
 * subdirectories are waiting to be opened; past a budget (from the
 * RLIMIT_NOFILE hard limit) it gives it back, and its subdirectories are
 * later reached from the nearest ancestor still holding one, component by
 * component with O_NOFOLLOW | O_DIRECTORY, each reopened directory checked
 * against the device and inode it had when it was listed.
 */
#ifndef COMMON_WALK_H
#define COMMON_WALK_H

#include <dirent.h> /* DT_* */
#include <stddef.h>

/* One entry of a listed directory (never "." or ".."). */
struct walk_ent {
	int dirfd;	 /* the directory holding it, open for the call */
	const char *dir; /* that directory's printed path (NUL-ended) */
	size_t dirlen;
	const char *name; /* the entry's name in it */
	/*
	 * DT_* from getdents64, or from fstatat(AT_SYMLINK_NOFOLLOW) where
	 * the filesystem leaves it out; DT_UNKNOWN when that lookup failed
	 * (the entry vanished or the directory may not be searched).
	 */
	unsigned char type;
	void *dir_data; /* the directory's data (see visit) */
	int *dir_note;	/* 0 when each listing starts; the caller's */
};

/* What failed, for walk_ops.error. */
enum walk_error {
	WALK_ERR_OPEN,	/* a directory could not be opened */
	WALK_ERR_READ,	/* reading a directory failed */
	WALK_ERR_MOVED, /* reopened, it was another directory */
	WALK_ERR_NOMEM, /* out of memory: a directory was skipped */
};

/*
 * Callbacks; each gets walk_config.arg and the context of the thread it
 * runs on (walk_config.main_tctx on the calling thread). Calls for one
 * directory's entries come from one thread, in getdents64 order; different
 * directories are listed at the same time on different threads.
 */
struct walk_ops {
	/*
	 * A context for a new worker thread, or NULL to run without it.
	 * thread_end() gets it back on the calling thread after that
	 * worker has stopped, so it may merge results without a lock.
	 * Either may be NULL when the walk runs on one thread.
	 */
	void *(*thread_start)(void *arg);
	void (*thread_end)(void *arg, void *tctx);
	/*
	 * Every entry. For a directory (type DT_DIR), returning 1 enters
	 * it; *child_data then becomes the dir_data of its entries, and
	 * dir_done() gets it back once, whatever happens to the directory.
	 * (Returning 1 for anything else just hands *child_data straight
	 * to dir_done().)
	 */
	int (*visit)(void *arg, void *tctx, const struct walk_ent *e,
		     void **child_data);
	/*
	 * Once per directory entered (and the root), after its listing or
	 * after it could not be opened or read; its data is the caller's
	 * to free from here on. May be NULL.
	 */
	void (*dir_done)(void *arg, void *tctx, void *dir_data);
	/*
	 * A directory that could not be opened, read or reached; err is
	 * the errno (ENOENT, ENOTDIR and ELOOP: it vanished or was replaced
	 * by something else since it was listed).
	 */
	void (*error)(void *arg, void *tctx, const char *path,
		      enum walk_error what, int err);
};

struct walk_config {
	const struct walk_ops *ops;
	void *arg;
	void *main_tctx; /* the calling thread's context */
	void *root_data; /* dir_data for the root's own entries */
	int max_threads; /* 0: one per CPU we may run on */
	int one_fs;	 /* do not list directories on other devices */
	/*
	 * Do not list directories on a pseudo filesystem (proc, sysfs,
	 * cgroup, debugfs, ...: walk_pseudo_fs()) below the root, unless
	 * it is the root's own kind. They hold no programs, and /proc's
	 * per-task directories come and go, some unreadable even to root.
	 */
	int skip_pseudo;
	/*
	 * Descriptors the process may have open: 0 asks RLIMIT_NOFILE (and
	 * raises the soft limit to the hard one). The walk keeps under half
	 * of it. Tests set a small one.
	 */
	int fd_limit;
};

/*
 * The name of the pseudo filesystem with this statfs f_type ("proc",
 * "sysfs", ...), or NULL for any other: one that can hold regular files
 * with capabilities. tmpfs is no pseudo filesystem (it holds real files),
 * and devtmpfs reports tmpfs's number, so /dev is walked like a tmpfs.
 */
const char *walk_pseudo_fs(unsigned long f_type);

/*
 * Walks the directory root (opened by that path, without following a
 * final symlink; its printed path is root as given). Returns 0 once the
 * walk has ended, or -1 with errno when root could not be opened (also
 * reported through ops->error).
 */
int walk_run(const char *root, const struct walk_config *c);

struct stat;

/*
 * Opens the regular file name in dirfd as an O_PATH descriptor without
 * following a link, and fstat()s it into st. Returns the descriptor, or
 * -1 with errno: EINVAL when it is not a regular file (a link is opened
 * as itself, so it is EINVAL too), else openat's or fstat's (st is then
 * undefined).
 */
int walk_open_file(int dirfd, const char *name, struct stat *st);

/*
 * The same for relpath ("./a/b/file", or "a/b/file") below rootfd, one
 * component at a time: directories with O_PATH | O_DIRECTORY |
 * O_NOFOLLOW, the last with walk_open_file(), so no link anywhere on the
 * way is followed and nothing outside rootfd is reached (a link where a
 * directory should be is ENOTDIR). An empty, "." or ".." component is
 * EINVAL; one over NAME_MAX is ENAMETOOLONG.
 */
int walk_open_beneath(int rootfd, const char *relpath, struct stat *st);

/*
 * The same, calling check(fd, relpath, len, arg) on each directory opened
 * on the way below rootfd (fd is that directory, the first len bytes of
 * relpath name it); a check that returns -1 ends the walk with its errno.
 * rootfd itself is not checked: the caller has it already.
 */
typedef int walk_dir_check(int fd, const char *relpath, size_t len, void *arg);
int walk_open_beneath_checked(int rootfd, const char *relpath, struct stat *st,
			      walk_dir_check *check, void *arg);

#endif
