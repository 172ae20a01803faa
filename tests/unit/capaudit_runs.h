/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * Runs of a command as capaudit's tally sees them, made up for the
 * check_capaudit_* suites that judge runs without making any: capaudit's
 * calibration, the exec of a file, and the checks made under it.
 */
#ifndef CAPAUDIT_RUNS_H
#define CAPAUDIT_RUNS_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "capaudit_decode.h"
#include "capaudit_tally.h"
#include "check_run.h"
#include "mask.h"

#define INIT_NS	  0xffffffff82a5c0e0ULL
#define CRED	  0xffff888001000000ULL
#define BIT(c)	  MASK_BIT(c)
#define EXITED(n) ((n) << 8)

static uint64_t clock_now = 1;

/* A check of cap by pid under credential cred, refused (ret -1) or not. */
static inline void feed_check_cred(struct tally *t, pid_t pid, int cap, int ret,
				   uint64_t cred)
{
	struct record r;

	memset(&r, 0, sizeof(r));
	r.kind = REC_SAMPLE;
	r.s.pid = r.s.tid = pid;
	r.s.time = clock_now++;
	r.s.cap = cap;
	r.s.ret = ret;
	r.s.have_cap = r.s.have_ret = r.s.have_cred = r.s.have_ns = 1;
	r.s.cred = cred;
	r.s.target_ns = INIT_NS;
	tally_record(&r, t);
}

/* The same, under the command's own credential CRED. */
static inline void feed_check(struct tally *t, pid_t pid, int cap, int ret)
{
	feed_check_cred(t, pid, cap, ret, CRED);
}

/* Each file an inode number of its own. */
static inline uint64_t ino_of(const char *file)
{
	uint64_t h = 77;

	while (*file)
		h = h * 31 + (unsigned char)*file++;
	return h;
}

/*
 * A tally begun: capaudit's calibration, then process 10, the command,
 * running file.
 */
static inline void start_run(struct tally *t, const char *file)
{
	struct record r;
	char name[256];
	struct stat st;

	tally_init(t, 10, NULL);
	feed_check(t, getpid(), CAP_SETUID, 0); /* the calibration */
	memset(&r, 0, sizeof(r));
	r.kind = REC_COMM;
	r.pid = r.tid = 10;
	r.exec = 1;
	r.s.time = clock_now++;
	snprintf(r.comm, sizeof(r.comm), "%s", strrchr(file, '/') + 1);
	tally_record(&r, t);
	r.kind = REC_EXEC_MAP;
	snprintf(name, sizeof(name), "%s", file);
	r.file = name;
	/* A file that is there is named as the kernel would name it. */
	if (stat(file, &st) == 0) {
		r.maj = major(st.st_dev);
		r.min = minor(st.st_dev);
		r.ino = st.st_ino;
	} else {
		r.maj = 254;
		r.ino = ino_of(file);
	}
	tally_record(&r, t);
}

/* A finished tally of one run of file: its checks, refused or granted. */
static inline void run_tally(struct tally *t, const char *file,
			     uint64_t refused, uint64_t granted)
{
	int c;

	start_run(t, file);
	feed_check(t, 10, CAP_SYS_ADMIN, -1); /* the overcommit reserve */
	for (MASK_EACH(c, refused))
		feed_check(t, 10, c, -1);
	for (MASK_EACH(c, granted))
		feed_check(t, 10, c, 0);
	ck_assert_int_eq(tally_finish(t), 0);
}

#endif
