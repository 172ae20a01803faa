/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* capaudit: the perf events that watch the command, and reading them. */
#ifndef CAPAUDIT_PERF_H
#define CAPAUDIT_PERF_H

#include <stddef.h>
#include <sys/types.h>

struct record;
struct source;

struct tracer;

/*
 * The threads to watch, by id. held, when set, says whether tid[i] still
 * names the thread it named when the caller listed it: a running
 * process's thread may end and its id go to another process, which the
 * id alone would then watch. NULL for our own child, not yet reaped,
 * whose id cannot change hands.
 */
struct watch_set {
	const pid_t *tid;
	size_t n;
	int (*held)(const struct watch_set *ws, size_t i);
	const void *ctx; /* the caller's, for held */
};

/*
 * Opens the source's events for each thread of ws on every online CPU,
 * inherited by children, all writing into one ring buffer. A thread
 * whose id held() no longer vouches for once everything is open is left
 * out, whatever was opened on its id: its events are disabled and what
 * they wrote is never read (tracer_left_out()). NULL after a message
 * naming what failed.
 */
struct tracer *tracer_open(const struct source *src,
			   const struct watch_set *ws);
/* Threads of the watch set left out, each said on stderr by tracer_open(). */
size_t tracer_left_out(const struct tracer *t);
/*
 * Waits up to timeout_ms for data, reads every buffer, and calls fn for
 * each record old enough that no CPU can still add an older one, in time
 * order (the rest waits for the next call or tracer_finish()).
 */
int tracer_drain(struct tracer *t, int timeout_ms,
		 void (*fn)(const struct record *, void *), void *arg);
/*
 * The end: makes every buffer write once more (so a loss at the end is
 * reported), then calls fn for every record left, in time order.
 */
void tracer_finish(struct tracer *t, void (*fn)(const struct record *, void *),
		   void *arg);
/* Ends tracer_drain()'s wait as soon as process pid ends. */
void tracer_wake_on(struct tracer *t, pid_t pid);
/*
 * Makes one capability check of capaudit's own that its events see: a
 * setuid(2) to its own real uid, which changes nothing (its ids are all
 * equal) and always asks about CAP_SETUID in its own user namespace.
 */
void tracer_calibrate(struct tracer *t);
/*
 * The check the calibration makes: setuid(2) to the real uid, which
 * changes nothing and always asks for CAP_SETUID.
 */
void setuid_check(void);
void tracer_close(struct tracer *t);

#endif
