/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * Does a session's seccomp filter let perf_event_open() reach the kernel?
 * A filter is inherited across fork() and execve() and never removed, so
 * perf runs under the filters of the session that starts it; and a
 * filter decides before any capability is looked at, so CAP_PERFMON
 * means nothing to a call the filter refuses.
 *
 * perfdoctor's own session is probed: a child calls perf_event_open()
 * with the arguments perf passes for a CPU-wide event but an attribute
 * the kernel refuses before it looks at anything else (size 1, below the
 * first published size), so no counter can ever be opened. The kernel's
 * own refusal is E2BIG *and* writing its attribute size back into the
 * caller's memory, which no filter can do: that mark, and nothing else,
 * tells that the call got through. Another process's filters are read
 * (root only, perfdoctor_ptrace.c) and run (perfdoctor_cbpf.c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "perfdoctor.h"
#include "perfdoctor_cbpf.h"
#include "perfdoctor_ptrace.h"

/* How long a probe may wait for a call a supervisor holds. */
#define PROBE_MS 2000

/* The most CPUs a probe or an evaluation goes through, one by one. */
#define MAX_CPUS 4096

const char *errno_name(int e)
{
	switch (e) {
	case EPERM:
		return "EPERM";
	case ENOENT:
		return "ENOENT";
	case ESRCH:
		return "ESRCH";
	case EINTR:
		return "EINTR";
	case E2BIG:
		return "E2BIG";
	case EBADF:
		return "EBADF";
	case EAGAIN:
		return "EAGAIN";
	case ENOMEM:
		return "ENOMEM";
	case EACCES:
		return "EACCES";
	case EFAULT:
		return "EFAULT";
	case EBUSY:
		return "EBUSY";
	case ENODEV:
		return "ENODEV";
	case EINVAL:
		return "EINVAL";
	case ENOSYS:
		return "ENOSYS";
	case EOPNOTSUPP:
		return "EOPNOTSUPP";
	}
	return NULL;
}

/* "EPERM (Operation not permitted)", or "errno 531" for one it lacks. */
static void describe_errno(char *buf, size_t len, int e)
{
	const char *name = errno_name(e);

	if (name != NULL)
		put(buf, len, "%s (%s)", name, strerror(e));
	else
		put(buf, len, "errno %d", e);
}

static unsigned cpu_count(void)
{
	int n = get_nprocs_conf();

	return n < 1 ? 1 : n > MAX_CPUS ? MAX_CPUS : (unsigned)n;
}

/* One probe's answer, as the child sends it. */
struct probe_answer {
	int64_t ret;
	int32_t err;
	uint32_t size; /* attr.size after the call */
	int32_t trapped;
	uint32_t cpu;
	uint64_t flags;
};

static volatile sig_atomic_t trapped;

static void on_sigsys(int sig)
{
	(void)sig;
	trapped = 1;
}

/*
 * The child: each call's answer down the pipe as soon as it is made, so
 * a filter that kills on the way is seen at the call that died.
 */
static void probe_child(int out, unsigned ncpu)
{
	static const uint64_t flags[] = { PERF_FLAG_FD_CLOEXEC, 0 };
	struct rlimit none = { 0, 0 };
	struct sigaction sa;
	sigset_t all;
	unsigned f, cpu;

	/* A kill by the filter is the answer, not a crash to keep. */
	setrlimit(RLIMIT_CORE, &none);
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigsys;
	sigaction(SIGSYS, &sa, NULL);
	/* A trap must reach the handler, whatever mask perfdoctor got. */
	sigemptyset(&all);
	sigprocmask(SIG_SETMASK, &all, NULL);
	for (f = 0; f < 2; f++)
		for (cpu = 0; cpu < (f == 0 ? ncpu : 1); cpu++) {
			struct perf_event_attr attr;
			struct probe_answer a;

			memset(&attr, 0, sizeof(attr));
			attr.size = 1;
			trapped = 0;
			errno = 0;
			a.ret = syscall(SYS_perf_event_open, &attr, -1L,
					(long)cpu, -1L,
					(unsigned long)flags[f]);
			a.err = errno;
			a.size = attr.size;
			a.trapped = trapped;
			a.cpu = cpu;
			a.flags = flags[f];
			if (write(out, &a, sizeof(a)) != (ssize_t)sizeof(a))
				_exit(2);
		}
	_exit(0);
}

/* The kernel's mark: E2BIG, and its own attribute size written back. */
static int kernel_answered(const struct probe_answer *a)
{
	return a->ret == -1 && a->err == E2BIG &&
	       a->size >= PERF_ATTR_SIZE_VER0;
}

/* "for cpu 3 with PERF_FLAG_FD_CLOEXEC" */
static void variant_text(char *buf, size_t len, uint32_t cpu, uint64_t flags)
{
	put(buf, len, "pid -1, cpu %u, flags %s", (unsigned)cpu,
	    flags == PERF_FLAG_FD_CLOEXEC ? "PERF_FLAG_FD_CLOEXEC" : "0");
}

/* How the filter refused a probe, into buf. */
static void refusal_text(char *buf, size_t len, const struct probe_answer *a)
{
	char e[80];

	if (a->trapped) {
		put(buf, len,
		    "the filter sent SIGSYS instead (SECCOMP_RET_TRAP)");
	} else if (a->ret == -1) {
		describe_errno(e, sizeof(e), a->err);
		put(buf, len, "%s from the filter, not the kernel%s", e,
		    a->err == E2BIG
			    ? " (which would have written the size back)"
			    : "");
	} else {
		put(buf, len,
		    "the filter returned %lld without the kernel running it",
		    (long long)a->ret);
	}
}

/* Milliseconds left until deadline. */
static int ms_left(const struct timespec *deadline)
{
	struct timespec now;
	long ms;

	clock_gettime(CLOCK_MONOTONIC, &now);
	ms = (deadline->tv_sec - now.tv_sec) * 1000 +
	     (deadline->tv_nsec - now.tv_nsec) / 1000000;
	return ms < 0 ? 0 : (int)ms;
}

/* Reads the child's answers; returns how many, up to max. */
static unsigned read_answers(int in, struct probe_answer *got, unsigned max,
			     int *timed_out)
{
	struct timespec deadline;
	size_t have = 0, want = (size_t)max * sizeof(*got);
	char *p = (char *)got;

	*timed_out = 0;
	clock_gettime(CLOCK_MONOTONIC, &deadline);
	deadline.tv_sec += PROBE_MS / 1000;
	while (have < want) {
		struct pollfd pfd = { in, POLLIN, 0 };
		int r = poll(&pfd, 1, ms_left(&deadline));
		ssize_t n;

		if (r == 0) {
			*timed_out = 1;
			break;
		}
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			break;
		n = read(in, p + have, want - have);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		have += (size_t)n;
	}
	return (unsigned)(have / sizeof(*got));
}

static void probe_self(struct seccomp_view *v, const struct perf_arch *perf)
{
	struct perf_arch self;
	struct probe_answer *got;
	unsigned ncpu = cpu_count(), want = ncpu + 1, n, i, j;
	int pipefd[2], st, timed_out, err;
	char what[160], how[300];
	pid_t child;

	v->allows = ANSWER_UNKNOWN;
	if (perf_arch_self(&self) < 0) {
		put(v->why, sizeof(v->why),
		    "perfdoctor cannot tell its own architecture: %s",
		    strerror(errno));
		put(v->line, sizeof(v->line), "a filter: %s", v->why);
		return;
	}
	if (perf->name == NULL || perf->audit_arch != self.audit_arch ||
	    perf->nr != self.nr) {
		/* A filter may answer another convention otherwise. */
		put(v->why, sizeof(v->why),
		    "perf is %s%s, and perfdoctor can probe only its own calling convention (%s)",
		    perf->name != NULL
			    ? "a binary for "
			    : "not a binary whose architecture perfdoctor can read",
		    perf->name != NULL ? perf->name : "", self.name);
		put(v->line, sizeof(v->line), "a filter: %s", v->why);
		return;
	}
	got = calloc(want, sizeof(*got));
	if (got == NULL || pipe2(pipefd, O_CLOEXEC) < 0) {
		put(v->why, sizeof(v->why), "cannot probe it: %s",
		    strerror(errno));
		put(v->line, sizeof(v->line), "a filter: %s", v->why);
		free(got);
		return;
	}
	fflush(NULL);
	child = fork_child();
	err = errno;
	if (child == 0) {
		close(pipefd[0]);
		probe_child(pipefd[1], ncpu);
	}
	close(pipefd[1]);
	if (child < 0) {
		put(v->why, sizeof(v->why), "cannot probe it: fork(): %s%s",
		    strerror(err),
		    err == EPERM
			    ? " (the filter answers clone() or getpid() in the kernel's place)"
			    : "");
		put(v->line, sizeof(v->line), "a filter: %s", v->why);
		close(pipefd[0]);
		free(got);
		return;
	}
	n = read_answers(pipefd[0], got, want, &timed_out);
	close(pipefd[0]);
	if (timed_out)
		kill(child, SIGKILL);
	while (waitpid(child, &st, 0) < 0 && errno == EINTR)
		;
	put(how, sizeof(how),
	    "a filter; perf_event_open() (%s, number %u) probed with an attribute the kernel refuses (size 1), for each of %u CPUs",
	    self.name, (unsigned)self.nr, ncpu);
	for (i = 0; i < n && kernel_answered(&got[i]); i++)
		;
	/*
	 * Every answer in: with PERF_FLAG_FD_CLOEXEC (the calls before
	 * ncpu) refused but 0 let through, or the other way round, perf's
	 * own fallback from one to the other decides.
	 */
	for (j = ncpu; n == want && j < n && kernel_answered(&got[j]); j++)
		;
	if (i < n && n == want && (i < ncpu) != (j < n) && !got[i].trapped) {
		variant_text(what, sizeof(what), got[i].cpu, got[i].flags);
		refusal_text(v->why, sizeof(v->why), &got[i]);
		put(v->line, sizeof(v->line),
		    "%s: refused (%s) but let through with the other flags: %s",
		    how, what, v->why);
		put(v->why, sizeof(v->why),
		    "its answer depends on the flags (refused with %s, let through with the other ones); perf falls back from one to the other",
		    what);
	} else if (i < n) {
		variant_text(what, sizeof(what), got[i].cpu, got[i].flags);
		refusal_text(v->why, sizeof(v->why), &got[i]);
		put(v->line, sizeof(v->line), "%s: refused (%s): %s", how, what,
		    v->why);
		v->allows = ANSWER_NO;
	} else if (n == want) {
		put(v->line, sizeof(v->line),
		    "%s: the kernel answered every call itself (E2BIG, with its size written back): the filter lets it through",
		    how);
		v->allows = ANSWER_YES;
	} else if (timed_out) {
		put(v->why, sizeof(v->why),
		    "a probe got no answer within %d seconds: a supervisor (SECCOMP_RET_USER_NOTIF) may be holding the call",
		    PROBE_MS / 1000);
		put(v->line, sizeof(v->line), "%s: %s", how, v->why);
	} else if (WIFSIGNALED(st) && WTERMSIG(st) == SIGSYS) {
		/* Killed at the call it never answered. */
		put(v->why, sizeof(v->why),
		    "the filter killed the caller (SECCOMP_RET_KILL)");
		put(v->line, sizeof(v->line), "%s: refused: %s", how, v->why);
		v->allows = ANSWER_NO;
	} else {
		put(v->why, sizeof(v->why),
		    "the probe ended after %u of %u calls (%s %d)", n, want,
		    WIFSIGNALED(st) ? "signal" : "exit status",
		    WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
		put(v->line, sizeof(v->line), "%s: %s", how, v->why);
	}
	free(got);
}

/* The role of a word of struct seccomp_data, for "it needs ...". */
static void word_text(char *buf, size_t len, int word)
{
	static const char *const args[] = {
		"the attribute's address",
		"pid",
		"cpu",
		"group_fd",
		"flags",
		"an argument perf does not pass",
	};

	if (word == CBPF_WORD_NR)
		put(buf, len, "the system call number");
	else if (word == CBPF_WORD_ARCH)
		put(buf, len, "the architecture");
	else if (word == CBPF_WORD_IP || word == CBPF_WORD_IP + 1)
		put(buf, len, "the instruction pointer");
	else if (word >= 4 && word < CBPF_WORDS)
		put(buf, len, "the %s word of argument %d (%s)",
		    (word - 4) % 2 ? "high" : "low", (word - 4) / 2,
		    args[(word - 4) / 2]);
	else
		put(buf, len, "an input");
}

/*
 * What perf passes for a CPU-wide event, as far as it is fixed: pid -1
 * and the flags in the low words (an int's high word is whatever the
 * caller's register held), the cpu given or unknown; the attribute's
 * address, group_fd and the instruction pointer are never known.
 */
static void perf_input(struct cbpf_input *in, const struct perf_arch *a,
		       int cpu, uint64_t flags)
{
	memset(in, 0, sizeof(*in));
	in->word[CBPF_WORD_NR] = a->nr;
	in->word[CBPF_WORD_ARCH] = a->audit_arch;
	in->word[CBPF_WORD_ARG(1, 0)] = 0xffffffffU;
	in->word[CBPF_WORD_ARG(4, 0)] = (uint32_t)flags;
	in->word[CBPF_WORD_ARG(4, 1)] = (uint32_t)(flags >> 32);
	in->known = 1U << CBPF_WORD_NR | 1U << CBPF_WORD_ARCH |
		    1U << CBPF_WORD_ARG(1, 0) | 1U << CBPF_WORD_ARG(4, 0) |
		    1U << CBPF_WORD_ARG(4, 1);
	if (cpu >= 0) {
		in->word[CBPF_WORD_ARG(2, 0)] = (uint32_t)cpu;
		in->known |= 1U << CBPF_WORD_ARG(2, 0);
	}
}

/* The outcome that decides, of all the calls perf would make. */
struct decision {
	struct cbpf_outcome o;
	int cpu;
	uint64_t flags;
	int have;
	/*
	 * The call goes through with one value of the flags, not with the
	 * other: o is the refusal. perf tries PERF_FLAG_FD_CLOEXEC first
	 * and 0 after an error, so whether it works is perf's business.
	 */
	int flags_differ;
};

/* Keeps the outcome that says most: a refusal, then doubt, then the rest. */
static void keep(struct decision *d, const struct cbpf_outcome *o, int cpu,
		 uint64_t flags)
{
	static const int rank[] = {
		[CBPF_REFUSED] = 5,  [CBPF_TRACER] = 4,	 [CBPF_UNDECIDED] = 3,
		[CBPF_NOTIFIED] = 2, [CBPF_ALLOWED] = 1,
	};

	if (d->have && rank[o->verdict] <= rank[d->o.verdict])
		return;
	d->o = *o;
	d->cpu = cpu;
	d->flags = flags;
	d->have = 1;
}

/* The filters run on every call perf would make for a CPU-wide event. */
static void evaluate(const struct cbpf_filter *f, size_t n,
		     const struct perf_arch *a, struct decision *d)
{
	static const uint64_t flags[] = { PERF_FLAG_FD_CLOEXEC, 0 };
	struct decision each[2];
	unsigned ncpu = cpu_count(), i, cpu;
	struct cbpf_input in;
	struct cbpf_outcome o;
	int pass0, pass1;

	memset(each, 0, sizeof(each));
	for (i = 0; i < 2; i++) {
		perf_input(&in, a, -1, flags[i]);
		cbpf_combine(f, n, &in, &o);
		/*
		 * Any CPU: unless a filter needs the cpu to decide, this
		 * holds for all of them; if one does, each is run (a
		 * CPU-wide session opens an event on every one).
		 */
		if (o.verdict != CBPF_UNDECIDED ||
		    o.undecided.status != CBPF_DEPENDS ||
		    o.undecided.word != CBPF_WORD_ARG(2, 0)) {
			keep(&each[i], &o, -1, flags[i]);
			continue;
		}
		for (cpu = 0; cpu < ncpu; cpu++) {
			perf_input(&in, a, (int)cpu, flags[i]);
			cbpf_combine(f, n, &in, &o);
			keep(&each[i], &o, (int)cpu, flags[i]);
		}
	}
	pass0 = each[0].o.verdict == CBPF_ALLOWED;
	pass1 = each[1].o.verdict == CBPF_ALLOWED;
	/* A kill or trap of the first call perf makes ends perf. */
	if (pass0 != pass1 && !(each[0].o.verdict == CBPF_REFUSED &&
				cbpf_action_kills(each[0].o.action))) {
		*d = pass0 ? each[1] : each[0];
		d->flags_differ = 1;
		return;
	}
	*d = each[0];
	keep(d, &each[1].o, each[1].cpu, each[1].flags);
}

static void judge_filters(struct seccomp_view *v, const struct filter_set *fs,
			  const struct perf_arch *a, const char *source)
{
	struct decision d;
	char act[120], what[160], word[120], how[400];

	evaluate(fs->filters, fs->n, a, &d);
	/* Numbered as installed: filter 1 is the oldest. */
	put(how, sizeof(how),
	    "%zu filter%s %s, run on perf_event_open() (%s, number %u)", fs->n,
	    fs->n == 1 ? "" : "s", source, a->name, (unsigned)a->nr);
	if (d.cpu >= 0)
		variant_text(what, sizeof(what), (uint32_t)d.cpu, d.flags);
	else
		put(what, sizeof(what), "pid -1, any cpu, flags %s",
		    d.flags ? "PERF_FLAG_FD_CLOEXEC" : "0");
	cbpf_action_name(d.o.action, act, sizeof(act));
	if (d.flags_differ) {
		v->allows = ANSWER_UNKNOWN;
		put(v->why, sizeof(v->why),
		    "its answer depends on the flags: %s (%s) from filter %zu of %zu, while the other flags get through; perf falls back from one to the other",
		    d.o.verdict == CBPF_UNDECIDED ? "undecided" : act, what,
		    fs->n - (d.o.verdict == CBPF_UNDECIDED
				     ? d.o.undecided_filter
				     : d.o.filter),
		    fs->n);
		put(v->line, sizeof(v->line), "%s: %s", how, v->why);
		return;
	}
	switch (d.o.verdict) {
	case CBPF_ALLOWED:
		v->allows = ANSWER_YES;
		put(v->line, sizeof(v->line),
		    "%s: %s (%s): it reaches the kernel", how, act, what);
		return;
	case CBPF_REFUSED:
		v->allows = ANSWER_NO;
		put(v->why, sizeof(v->why), "%s from filter %zu of %zu (%s)",
		    act, fs->n - d.o.filter, fs->n, what);
		break;
	case CBPF_TRACER:
		v->allows = ANSWER_NO;
		put(v->why, sizeof(v->why),
		    "%s from filter %zu of %zu (%s): without a tracer that asked for seccomp events the call fails with ENOSYS",
		    act, fs->n - d.o.filter, fs->n, what);
		break;
	case CBPF_NOTIFIED:
		v->allows = ANSWER_UNKNOWN;
		put(v->why, sizeof(v->why),
		    "%s from filter %zu of %zu (%s): a supervisor process decides",
		    act, fs->n - d.o.filter, fs->n, what);
		break;
	case CBPF_UNDECIDED:
		v->allows = ANSWER_UNKNOWN;
		if (d.o.undecided.status == CBPF_DEPENDS) {
			word_text(word, sizeof(word), d.o.undecided.word);
			put(v->why, sizeof(v->why),
			    "filter %zu of %zu needs %s, which perf's caller decides, at instruction %u (%s)",
			    fs->n - d.o.undecided_filter, fs->n, word,
			    d.o.undecided.pc, what);
		} else {
			put(v->why, sizeof(v->why),
			    "filter %zu of %zu %s at instruction %u",
			    fs->n - d.o.undecided_filter, fs->n,
			    d.o.undecided.why, d.o.undecided.pc);
		}
		break;
	}
	put(v->line, sizeof(v->line), "%s: %s", how, v->why);
}

static void read_pid(struct seccomp_view *v, int dfd, pid_t pid,
		     const struct perf_arch *perf)
{
	struct filter_set fs;
	struct perf_arch own;
	char why[400], src[64];

	v->allows = ANSWER_UNKNOWN;
	if (read_seccomp_filters(dfd, pid, &fs, why, sizeof(why)) < 0) {
		put(v->why, sizeof(v->why), "%s", why);
		put(v->line, sizeof(v->line), "a filter, not read: %s", why);
		return;
	}
	put(src, sizeof(src), "read from process %d", (int)pid);
	if (perf->name != NULL) {
		judge_filters(v, &fs, perf, src);
	} else if (perf_arch_of_process(dfd, &own) == 0) {
		/*
		 * The process's own convention shows what the filters do;
		 * perf's may differ, so no answer rests on it but a refusal.
		 */
		judge_filters(v, &fs, &own, src);
		if (v->allows == ANSWER_YES) {
			v->allows = ANSWER_UNKNOWN;
			put(v->why, sizeof(v->why),
			    "they let the process's own convention (%s) through, and perf's is unknown",
			    own.name);
		}
	} else {
		put(v->why, sizeof(v->why),
		    "neither perf's architecture nor the process's is known");
		put(v->line, sizeof(v->line), "%zu filters read: %s", fs.n,
		    v->why);
	}
	release_filter_set(&fs);
}

void gather_seccomp(struct session_facts *s, int dfd,
		    const struct perf_arch *arch)
{
	struct seccomp_view *v = &s->sc;

	memset(v, 0, sizeof(*v));
	if (s->seccomp != 2) {
		/* None: nothing between perf and the kernel (strict mode is judged apart). */
		v->allows = s->seccomp == 0 ? ANSWER_YES : ANSWER_UNKNOWN;
		return;
	}
	if (s->pid <= 0 || s->pid == getpid())
		probe_self(v, arch);
	else
		read_pid(v, dfd, s->pid, arch);
}
