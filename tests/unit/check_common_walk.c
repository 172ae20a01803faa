/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* common/walk.c: every entry once, links never entered, bounded descriptors, moves caught. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "check_run.h"
#include "walk.h"

/* What a walk saw; shared by all its threads under the lock. */
struct seen {
	pthread_mutex_t lock;
	char *list; /* "type path\n" lines, in visit order */
	size_t len;
	int dirs_done, moved, other_errors, bad_data, max_fd;
	const char *swap_at; /* when this name is first seen, swap a, b */
	char *swap_a, *swap_b;
};

static char *join(const char *dir, const char *name)
{
	char *p = NULL;

	ck_assert_int_ge(asprintf(&p, "%s/%s", dir, name), 0);
	return p;
}

static int visit(void *arg, void *tctx, const struct walk_ent *e,
		 void **child_data)
{
	struct seen *s = arg;
	char *path = join(e->dir, e->name), *line = NULL;
	int n;

	ck_assert_ptr_eq(tctx, s);
	pthread_mutex_lock(&s->lock);
	/* Each directory's data is its own printed path (see below). */
	if (e->dir_data == NULL || strcmp(e->dir_data, e->dir) != 0)
		s->bad_data++;
	if (e->dirfd > s->max_fd)
		s->max_fd = e->dirfd;
	n = asprintf(&line, "%c %s\n",
		     e->type == DT_DIR	 ? 'd'
		     : e->type == DT_LNK ? 'l'
		     : e->type == DT_REG ? 'f'
					 : '?',
		     path);
	ck_assert_int_ge(n, 0);
	s->list = realloc(s->list, s->len + (size_t)n + 1);
	ck_assert_ptr_nonnull(s->list);
	memcpy(s->list + s->len, line, (size_t)n + 1);
	s->len += (size_t)n;
	free(line);
	if (s->swap_at != NULL && strcmp(e->name, s->swap_at) == 0) {
		ck_assert_int_eq(renameat2(AT_FDCWD, s->swap_a, AT_FDCWD,
					   s->swap_b, RENAME_EXCHANGE),
				 0);
		s->swap_at = NULL;
	}
	pthread_mutex_unlock(&s->lock);
	if (e->type != DT_DIR) {
		free(path);
		return 0;
	}
	*child_data = path;
	return 1;
}

static void dir_done(void *arg, void *tctx, void *dir_data)
{
	struct seen *s = arg;

	(void)tctx;
	pthread_mutex_lock(&s->lock);
	s->dirs_done++;
	pthread_mutex_unlock(&s->lock);
	free(dir_data);
}

static void failed(void *arg, void *tctx, const char *path,
		   enum walk_error what, int err)
{
	struct seen *s = arg;

	(void)tctx;
	pthread_mutex_lock(&s->lock);
	if (what == WALK_ERR_MOVED) {
		s->moved++;
	} else {
		fprintf(stderr, "walk error %d on %s: %s\n", (int)what, path,
			strerror(err));
		s->other_errors++;
	}
	pthread_mutex_unlock(&s->lock);
}

static void *thread_start(void *arg)
{
	return arg;
}

static const struct walk_ops ops = {
	.thread_start = thread_start,
	.visit = visit,
	.dir_done = dir_done,
	.error = failed,
};

/* fd_limit: as walk_config's (0: RLIMIT_NOFILE). */
static int run_walk(struct seen *s, const char *root, int threads, int fd_limit)
{
	struct walk_config c = {
		.ops = &ops,
		.arg = s,
		.main_tctx = s,
		.root_data = strdup(root),
		.max_threads = threads,
		.fd_limit = fd_limit,
	};

	ck_assert_ptr_nonnull(c.root_data);
	return walk_run(root, &c);
}

static char *make_root(void)
{
	char *dir = strdup("/tmp/check_walk.XXXXXX");

	ck_assert_ptr_nonnull(dir);
	ck_assert_ptr_nonnull(mkdtemp(dir));
	return dir;
}

static void make_file(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);

	ck_assert_int_ge(fd, 0);
	close(fd);
}

static void make_dir(const char *dir, const char *name)
{
	char *p = join(dir, name);

	ck_assert_int_eq(mkdir(p, 0755), 0);
	free(p);
}

static int remove_one(const char *path, const struct stat *st, int type,
		      struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return type == FTW_DP ? rmdir(path) : unlink(path);
}

static void remove_tree(char *root)
{
	ck_assert_int_eq(nftw(root, remove_one, 16, FTW_DEPTH | FTW_PHYS), 0);
	free(root);
}

static int by_string(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Lines of s->list, sorted and joined again: the walk order is not fixed. */
static char *sorted(const struct seen *s)
{
	char *copy = strdup(s->list != NULL ? s->list : ""), *line, *save;
	char **lines = NULL, *out;
	size_t n = 0, i, len = 0;

	ck_assert_ptr_nonnull(copy);
	for (line = strtok_r(copy, "\n", &save); line != NULL;
	     line = strtok_r(NULL, "\n", &save)) {
		lines = realloc(lines, (n + 1) * sizeof(*lines));
		ck_assert_ptr_nonnull(lines);
		lines[n++] = line;
		len += strlen(line) + 1;
	}
	if (n > 1)
		qsort(lines, n, sizeof(*lines), by_string);
	out = malloc(len + 1);
	ck_assert_ptr_nonnull(out);
	out[0] = '\0';
	for (i = 0; i < n; i++) {
		strcat(out, lines[i]);
		strcat(out, "\n");
	}
	free(lines);
	free(copy);
	return out;
}

static int count(const char *list, const char *needle)
{
	int n = 0;

	for (; list != NULL && (list = strstr(list, needle)) != NULL; list++)
		n++;
	return n;
}

START_TEST(every_entry_once_links_not_entered)
{
	char *root = make_root(), *p, *want = NULL, *got;
	int threads;

	make_dir(root, "a");
	make_dir(root, "b");
	make_dir(root, "b/c");
	p = join(root, "a/x");
	make_file(p);
	free(p);
	p = join(root, "a/y");
	make_file(p);
	free(p);
	p = join(root, "b/c/z");
	make_file(p);
	free(p);
	p = join(root, "f");
	make_file(p);
	free(p);
	p = join(root, "l");
	ck_assert_int_eq(symlink("a", p), 0);
	free(p);
	ck_assert_int_ge(
		asprintf(
			&want,
			"d %1$s/a\nd %1$s/b\nd %1$s/b/c\nf %1$s/a/x\nf %1$s/a/y\n"
			"f %1$s/b/c/z\nf %1$s/f\nl %1$s/l\n",
			root),
		0);
	for (threads = 1; threads <= 4; threads++) {
		struct seen s = { .lock = PTHREAD_MUTEX_INITIALIZER };

		ck_assert_int_eq(run_walk(&s, root, threads, 0), 0);
		got = sorted(&s);
		ck_assert_str_eq(got, want);
		ck_assert_int_eq(s.dirs_done, 4); /* root, a, b, b/c */
		ck_assert_int_eq(s.bad_data, 0);
		ck_assert_int_eq(s.other_errors + s.moved, 0);
		free(got);
		free(s.list);
	}
	free(want);
	remove_tree(root);
}
END_TEST

START_TEST(root_symlink_refused)
{
	char *root = make_root(), *link = join(root, "link");
	struct seen s = { .lock = PTHREAD_MUTEX_INITIALIZER };

	ck_assert_int_eq(symlink(root, link), 0);
	errno = 0;
	ck_assert_int_eq(run_walk(&s, link, 1, 0), -1);
	ck_assert(errno == ENOTDIR || errno == ELOOP); /* O_DIRECTORY first */
	ck_assert_int_eq(s.other_errors, 1);
	ck_assert_int_eq(s.dirs_done, 1); /* the root's data given back */
	ck_assert_ptr_null(s.list);
	free(link);
	remove_tree(root);
}
END_TEST

#define DEPTH 60

/*
 * A comb: levels top, top/n, top/n/n, ...; at each, teeth t1 and t2 (t1
 * with a file named mark) wait while the next level is walked.
 */
static void make_comb(const char *top, const char *mark)
{
	char *d = strdup(top);
	int i;

	ck_assert_ptr_nonnull(d);
	for (i = 0; i < DEPTH; i++) {
		char *f = join(d, "t1"), *n = join(d, "n"), *file;

		make_dir(d, "t1");
		make_dir(d, "t2");
		make_dir(d, "n");
		file = join(f, mark);
		make_file(file);
		free(file);
		free(f);
		free(d);
		d = n;
	}
	free(d);
}

/*
 * A walk that may use 40 descriptors through a comb that would keep more
 * waiting: every file seen, each directory done once, and no descriptor
 * number reaching 40 (so it never held that many).
 */
START_TEST(deep_tree_bounded_descriptors)
{
	char *root = make_root();
	int threads;

	make_comb(root, "f");
	for (threads = 1; threads <= 3; threads++) {
		struct seen s = { .lock = PTHREAD_MUTEX_INITIALIZER };

		ck_assert_int_eq(run_walk(&s, root, threads, 40), 0);
		ck_assert_int_eq(s.other_errors + s.moved, 0);
		ck_assert_int_eq(count(s.list, "/t1/f\n"), DEPTH);
		ck_assert_int_lt(s.max_fd, 40);
		ck_assert_int_eq(s.bad_data, 0);
		ck_assert_int_eq(s.dirs_done, 3 * DEPTH + 1);
		free(s.list);
	}
	remove_tree(root);
}
END_TEST

/*
 * One thread, 40 descriptors: deep directories are reached again through
 * their ancestors. When level 50 is listed, level 30 (given back by then)
 * is exchanged with the same level of a decoy comb: the walk must notice
 * (WALK_ERR_MOVED) and never list the decoy under the tree's names.
 */
/*
 * The pseudo filesystems capmanifest leaves out, by statfs magic: the
 * kernel's own (statfs of /proc and /sys here), none of the file systems
 * that hold programs, and not tmpfs, whose files are real.
 */
START_TEST(pseudo_fs_by_magic)
{
	struct statfs sf;

	ck_assert_str_eq(walk_pseudo_fs(0x9fa0), "proc");
	ck_assert_str_eq(walk_pseudo_fs(0x62656572), "sysfs");
	ck_assert_str_eq(walk_pseudo_fs(0x63677270), "cgroup2");
	ck_assert_str_eq(walk_pseudo_fs(0x74726163), "tracefs");
	ck_assert_ptr_null(walk_pseudo_fs(0x01021994)); /* tmpfs, devtmpfs */
	ck_assert_ptr_null(walk_pseudo_fs(0xef53));	/* ext2/3/4 */
	ck_assert_ptr_null(walk_pseudo_fs(0x58465342)); /* xfs */
	ck_assert_ptr_null(walk_pseudo_fs(0x794c7630)); /* overlayfs */
	if (statfs("/proc", &sf) == 0)
		ck_assert_str_eq(walk_pseudo_fs((unsigned long)sf.f_type),
				 "proc");
}
END_TEST

START_TEST(moved_directory_caught)
{
	char *root = make_root(), *tree = join(root, "tree");
	char *decoy = join(root, "decoy"), *a = strdup(tree),
	     *b = strdup(decoy);
	char *mark;
	struct seen s = { .lock = PTHREAD_MUTEX_INITIALIZER };
	int i;

	ck_assert_int_eq(mkdir(tree, 0755), 0);
	ck_assert_int_eq(mkdir(decoy, 0755), 0);
	make_comb(tree, "f");
	make_comb(decoy, "DECOY");
	for (i = 0; i < 50; i++) {
		char *na = join(a, "n"), *nb = join(b, "n");

		free(a);
		free(b);
		a = na;
		b = nb;
		if (i == 29) {
			s.swap_a = strdup(a);
			s.swap_b = strdup(b);
		}
	}
	mark = join(a, "MARK");
	make_file(mark);
	s.swap_at = "MARK";
	ck_assert_int_eq(run_walk(&s, tree, 1, 40), 0);
	ck_assert_ptr_null(s.swap_at); /* the swap happened */
	ck_assert_int_ge(s.moved, 1);
	ck_assert_int_eq(s.other_errors, 0);
	ck_assert_int_eq(count(s.list, "DECOY"), 0);
	free(s.list);
	free(s.swap_a);
	free(s.swap_b);
	free(mark);
	free(a);
	free(b);
	free(tree);
	free(decoy);
	remove_tree(root);
}
END_TEST

/*
 * fstat() as the walker calls it (linked with --wrap=fstat): the real one,
 * unless fail_fstat is set; then it scribbles a directory's mode into st
 * and fails with EIO, as nothing promises st is untouched on failure.
 */
static int fail_fstat;
int __real_fstat(int fd, struct stat *st);
int __wrap_fstat(int fd, struct stat *st);

int __wrap_fstat(int fd, struct stat *st)
{
	if (!fail_fstat)
		return __real_fstat(fd, st);
	st->st_mode = S_IFDIR | 0755;
	errno = EIO;
	return -1;
}

/* A failed fstat() decides by its errno, never by what st then holds. */
START_TEST(open_file_after_failed_fstat)
{
	char tmp[] = "/tmp/check_walk_fstat.XXXXXX", *p;
	struct stat st;
	int root, fd;

	ck_assert_ptr_nonnull(mkdtemp(tmp));
	p = join(tmp, "f");
	fd = open(p, O_WRONLY | O_CREAT, 0644);
	ck_assert_int_ge(fd, 0);
	close(fd);
	root = open(tmp, O_PATH | O_DIRECTORY | O_CLOEXEC);
	ck_assert_int_ge(root, 0);
	fail_fstat = 1;
	errno = 0;
	fd = walk_open_file(root, "f", &st);
	fail_fstat = 0;
	ck_assert_int_eq(fd, -1);
	ck_assert_int_eq(errno, EIO); /* not EINVAL from st's mode */
	fd = walk_open_file(root, "f", &st);
	ck_assert_int_ge(fd, 0);
	close(fd);
	close(root);
	unlink(p);
	free(p);
	rmdir(tmp);
}
END_TEST

/* walk_open_beneath() refuses relpath with errno err. */
static void refused(int root, const char *relpath, int err)
{
	struct stat st;

	errno = 0;
	ck_assert_msg(walk_open_beneath(root, relpath, &st) == -1, "opened %s",
		      relpath);
	ck_assert_int_eq(errno, err);
}

/* walk_open_beneath(): no link on the way, nothing but a regular file at the end. */
START_TEST(open_beneath_follows_no_link)
{
	char tmp[] = "/tmp/check_walk_open.XXXXXX", *p;
	struct stat st;
	int root, fd;

	ck_assert_ptr_nonnull(mkdtemp(tmp));
	p = join(tmp, "d");
	ck_assert_int_eq(mkdir(p, 0755), 0);
	free(p);
	p = join(tmp, "d/f");
	fd = open(p, O_WRONLY | O_CREAT, 0644);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, "x", 1), 1);
	close(fd);
	free(p);
	p = join(tmp, "link");
	ck_assert_int_eq(symlink("d", p), 0);
	free(p);
	p = join(tmp, "d/flink");
	ck_assert_int_eq(symlink("f", p), 0);
	free(p);
	root = open(tmp, O_PATH | O_DIRECTORY | O_CLOEXEC);
	ck_assert_int_ge(root, 0);

	fd = walk_open_beneath(root, "./d/f", &st);
	ck_assert_int_ge(fd, 0);
	ck_assert(S_ISREG(st.st_mode));
	ck_assert_int_eq(st.st_size, 1);
	close(fd);
	fd = walk_open_beneath(root, "d/f", &st);
	ck_assert_int_ge(fd, 0);
	close(fd);
	refused(root, "./link/f", ENOTDIR); /* a link where a directory was */
	refused(root, "./d/flink",
		EINVAL); /* O_PATH opens the link: not regular */
	refused(root, "./d", EINVAL);
	refused(root, "./d/../d/f", EINVAL);
	refused(root, "./d//f", EINVAL);
	refused(root, "./d/none", ENOENT);
	errno = 0;
	ck_assert_int_eq(walk_open_file(root, "d", &st), -1);
	ck_assert_int_eq(errno, EINVAL);
	{
		char longname[300];

		memset(longname, 'n', sizeof(longname) - 1);
		longname[sizeof(longname) - 1] = '\0';
		refused(root, longname, ENAMETOOLONG);
	}
	close(root);
	p = join(tmp, "d/flink");
	unlink(p);
	free(p);
	p = join(tmp, "d/f");
	unlink(p);
	free(p);
	p = join(tmp, "link");
	unlink(p);
	free(p);
	p = join(tmp, "d");
	rmdir(p);
	free(p);
	rmdir(tmp);
}
END_TEST

static Suite *walk_suite(void)
{
	Suite *s = suite_create("common_walk");
	TCase *tc = tcase_create("walk");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, every_entry_once_links_not_entered);
	tcase_add_test(tc, root_symlink_refused);
	tcase_add_test(tc, deep_tree_bounded_descriptors);
	tcase_add_test(tc, moved_directory_caught);
	tcase_add_test(tc, pseudo_fs_by_magic);
	tcase_add_test(tc, open_beneath_follows_no_link);
	tcase_add_test(tc, open_file_after_failed_fstat);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(walk_suite)
