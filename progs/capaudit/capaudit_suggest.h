/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* capaudit --suggest: the least grant, file by file, and its candidates. */
#ifndef CAPAUDIT_SUGGEST_H
#define CAPAUDIT_SUGGEST_H

#include <stddef.h>
#include <stdint.h>

#include "capaudit_container.h"

struct mapped_file;
struct run_result;
struct tally;

/* One file the command ran, with what its own checks asked for. */
struct need_file {
	char *path; /* the kernel's name for it */
	uint32_t maj, min;
	uint64_t ino;
	char comm[16];		   /* a name it ran by */
	uint64_t granted, refused; /* own checks, incidental ones left out */
	uint64_t candidates;	   /* what the trials may grant it */
	uint64_t grant;		   /* the suggestion */
	uint64_t apart; /* unproven root-equivalent candidates: in no grant */
	int fd;		/* the file, opened for the trials; -1 */
	int usable;	/* the trials may grant it (else why says why not) */
	char why[200];
	struct mapped_file *libs; /* what it loaded, in any run */
	size_t nlibs;
};

/* One trial, for the report. */
#define PLAIN_RUN (-2)
struct trial_log {
	int file; /* the file whose capability was left out; -1: all granted,
		   * PLAIN_RUN: none */
	int cap;
	int status; /* wait(2) status */
	int success;
	int again;   /* a need confirmed from the least grant found */
	size_t left; /* processes it left behind, which capaudit ended */
};

/* What counts as success: the listed exit statuses, or (n 0) the reference's. */
#define SUCCESS_MAX 16
struct success {
	int n;
	int status[SUCCESS_MAX]; /* exit statuses 0..255 */
};

struct suggestion {
	struct need_file *files;
	size_t nfiles, files_size;
	/*
	 * Every file the runs executed, checks or none (wrappers too), and
	 * what each loaded: whatever runs with ambient capabilities.
	 */
	struct need_file *programs;
	size_t nprograms, programs_size;
	uint64_t incidental;   /* checked, but asked by the kernel on its own */
	uint64_t unused;       /* unproven: refused, yet the run succeeded */
	uint64_t not_own;      /* checked only in CLASS_USERNS or CLASS_CRED */
	uint64_t lent_guessed; /* of those, taken for lent from samples alone */
	int failed;	       /* the first run did not exit 0 */
	int first;	       /* its wait status */
	int proven;	       /* the grant was shown by trials */
	char unproven[512];    /* why it was not, "" when it was */
	int reference; /* the wait status every candidate granted gave */
	int have_reference;
	int reference_run; /* the trial that gave it */
	struct trial_log *log;
	size_t nlog, log_size;
	int runs;	  /* trials run */
	const char *user; /* who the trials ran as */
	int noroot;	  /* as uid 0, under SECBIT_NOROOT */
	/* The grant in a container. */
	struct container_advice container;
};

/* The candidates of a run: every file with own checks. 0, or -1 ENOMEM. */
int suggest_build(struct suggestion *sg, const struct tally *t,
		  const struct run_result *rr);
/*
 * Adds a later run's own checks to the candidates; returns how many
 * (file, capability) pairs are new, or -1 (ENOMEM).
 */
int suggest_merge(struct suggestion *sg, const struct tally *t);
/*
 * Each file's own checks in a trial's tally t (capabilities asked,
 * granted or refused), into asked[0..sg->nfiles); a file not among sg's
 * is left out. seen, if not NULL, gets 1 for each file t saw run (perf
 * does not see one that gains capabilities at an exec another program
 * made).
 */
void suggest_asked(const struct suggestion *sg, const struct tally *t,
		   uint64_t *asked, unsigned char *seen);
/*
 * Unproven: the old rule, granted plus (after a failure) refused; its
 * root-equivalent capabilities are held apart (apart), not granted.
 */
void suggest_unproven(struct suggestion *sg, const char *why);
/* Every file's grant together, or (apart) what is held apart. */
uint64_t suggest_every_file(const struct suggestion *sg, int apart);
void suggest_free(struct suggestion *sg);

#endif
