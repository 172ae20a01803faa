/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * capaudit: which capabilities a command asks the kernel for, observed
 * through the capability:cap_capable tracepoint (Linux 6.14+) or a kprobe
 * on cap_capable(), with perf_event_open(2). Private declarations, one
 * block per file.
 */
#ifndef CAPAUDIT_H
#define CAPAUDIT_H

#include <stddef.h>
#include <stdint.h>
#include <signal.h>
#include <stdio.h>
#include <sys/capability.h>
#include <sys/types.h>

#include "capaudit_counting.h"

#define PROG  "capaudit"
#define NCAPS 64 /* every value a capability mask can name */

/* ---- capaudit_table.c: a hash table of fixed-size keys and values ---- */

struct table {
	size_t keysize, valsize;
	unsigned char *slots;
	size_t size, used;   /* size: a power of two, or 0 */
	unsigned generation; /* grows when the slots move: old pointers die */
};

void table_init(struct table *tb, size_t keysize, size_t valsize);
/*
 * The value stored under key (keysize bytes, compared as bytes: zero the
 * padding of a struct key), or with create a new zeroed one. NULL when
 * absent, or with errno ENOMEM. A pointer is good until the next create.
 */
void *table_get(struct table *tb, const void *key, int create);
/* Iteration: start *it at 0; 1 while there is an entry, then 0. */
int table_next(const struct table *tb, size_t *it, const void **key,
	       void **val);
void table_free(struct table *tb);

/* ---- capaudit_source.c: where the checks come from ---- */

/* Where one integer field sits in a tracepoint's raw record. */
struct field {
	size_t off, size; /* size 0: not in the record */
	int is_signed;
};

enum event_role {
	ROLE_CHECK,  /* a whole check (the tracepoint) */
	ROLE_ENTRY,  /* a kprobe on entry: cred, namespace, cap */
	ROLE_RETURN, /* a kretprobe: ret only */
};

/* A kprobe PMU event's registers: which set bit of regs holds what (-1: none). */
struct reg_slots {
	int cred, ns, cap, ret;
};

/* One perf event to open per CPU and target thread. */
struct event_spec {
	uint32_t type; /* PERF_TYPE_TRACEPOINT or the kprobe PMU */
	uint64_t config, config1;
	uint64_t regs;	      /* sample_regs_intr (kprobe PMU only) */
	struct reg_slots reg; /* kprobe PMU only */
	enum event_role role;
	/* In the raw record (tracefs events); capable_ns only in the tracepoint. */
	struct field cap, ret, cred, target_ns, capable_ns;
};

enum source_kind {
	SOURCE_TRACEPOINT,    /* capability:cap_capable */
	SOURCE_KPROBE_EVENTS, /* probes we wrote into tracefs kprobe_events */
	SOURCE_KPROBE_PMU,    /* the kprobe PMU, arguments from registers */
	/* cap_capable named to eBPF, counted in the kernel; no tracefs */
	SOURCE_RAW_TRACEPOINT,
};

struct source {
	enum source_kind kind;
	int nevents;
	struct event_spec ev[2];
	char tracefs[256]; /* the tracefs used, "" for the kprobe PMU */
	char group[64];	   /* kprobe_events group to remove at the end */
	int private_mount; /* tracefs mounted in a private namespace */
	struct counting counting;
};

/* The machine as capaudit sees it; root is "" except in tests. */
struct sysview {
	const char *root; /* CAPAUDIT_SYSROOT: a fake /sys and /proc */
};

/*
 * Finds the best source the running kernel offers. Returns 0, or -1
 * after one "capaudit: ..." line on err for everything missing.
 * With check set, only says which source would be used (no kprobe is
 * created). With use_bpf, a tracepoint source counts in the kernel
 * where eBPF works here (src->counting, tried once for real).
 */
int source_find(const struct sysview *sv, struct source *src, int check,
		int use_bpf, FILE *err);
/* Removes what source_find() created (kprobe_events probes). */
void source_release(const struct sysview *sv, struct source *src);
/* One line naming the source, for the report and --check. */
void source_describe(const struct source *src, FILE *out);

/* ---- capaudit_privilege.c: whether capaudit's privileges are its caller's ---- */

/*
 * 1 when capaudit's capabilities may have come from its own file rather
 * than from its caller (AT_SECURE, or uid 0 under SECBIT_NOROOT running a
 * file with capabilities), or when that cannot be told; else 0.
 */
int privileged_by_own_file(void);
/* getenv(3), or NULL when privileged_by_own_file(): for test variables. */
const char *caller_getenv(const char *name);

/* ---- capaudit_source.c: a tracepoint's format text ---- */

/* Parses a tracefs "format" file's text for field name (exported for tests). */
int format_field(const char *format, const char *name, struct field *f);
/*
 * Reads the tracepoint's fields from its format text into ev: cap and ret
 * must be there; cred, target_ns and capable_ns are read when they are
 * (exported for tests). Returns 0, or -1 with errno ENOENT.
 */
int tracepoint_fields(const char *format, struct event_spec *ev);

/* ---- capaudit_perf.c: the events and their ring buffer ---- */

struct sample {
	pid_t pid, tid;
	uint64_t time;
	int idx; /* which event_spec */
	int have_cap, have_ret, have_cred, have_ns, have_capable_ns;
	int cap;	     /* -1 for a value no capability has */
	int ret;	     /* 0 granted, -1 refused */
	uint64_t cred;	     /* the credential checked (a kernel pointer) */
	uint64_t target_ns;  /* the user namespace checked against */
	uint64_t capable_ns; /* where it was granted; 0 when refused */
	/*
	 * Identical checks right after this one in the same buffer, made
	 * one sample by tracer_drain(), and the time of the last of them
	 * (when more > 0): a tight loop is counted without a record each.
	 */
	uint64_t more, last;
	int counted; /* counted in the kernel (capaudit_bpf.c), not read */
	/*
	 * Counted in the kernel, which says whether the credential was the
	 * thread's own (task_struct.real_cred) or lent: 1 when lent. A
	 * sample cannot say, and its credential's spans are judged instead.
	 */
	int lent;
};

/* What the ring buffer said besides samples. */
enum record_kind {
	REC_SAMPLE,
	REC_COMM,
	REC_FORK,
	REC_EXIT,
	REC_LOST,
	REC_EXEC_MAP, /* a file mapped executable (PERF_RECORD_MMAP2) */
	REC_OTHER,
};

struct record {
	enum record_kind kind;
	struct sample s;      /* REC_SAMPLE; s.time for every kind */
	pid_t pid, tid, ppid; /* COMM, FORK (ppid), EXIT, EXEC_MAP */
	int exec;	      /* REC_COMM caused by execve */
	char comm[16];
	uint64_t lost;	     /* REC_LOST: checks */
	uint64_t unfollowed; /* REC_LOST: threads the kernel did not follow */
	uint64_t signals;    /* REC_LOST: signals sent in from outside */
	uint32_t maj, min;   /* REC_EXEC_MAP: the file's device and inode */
	uint64_t ino;
	char *file; /* REC_EXEC_MAP: its path (record_release()) */
	size_t seq; /* reading order, for a stable sort */
};

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

/*
 * Decodes one perf record (header included) read with the sample layout
 * capaudit asks for. ids[0..nids) are the ids of the events, ascending;
 * idx[i] is the event_spec of ids[i]; with nids 0 every sample is of
 * spec 0. Returns 0, or -1 for a record too short for what it claims or
 * not one of ours (exported for tests). Release r after a 0.
 */
int record_decode(const void *buf, size_t len, const struct source *src,
		  const uint64_t *ids, const int *idx, size_t nids,
		  struct record *r);
void record_release(struct record *r);
/*
 * Runs of the same check: a tight loop read as one sample (more, last).
 * record_whole_check(): a sample with both capability and result, which
 * a run may be made of (never half a kprobe pair).
 * record_extend_run(): 1 after adding one more check at time to the run
 * last; 0 when last is no whole check, or the run would cross horizon
 * (what a drain releases stays exactly what was read before it: see
 * tracer_drain()), or time would go back.
 * record_merge_repeat(): the same, when r is the same check as last
 * (thread, event, capability, result, credential and namespaces): a new
 * credential makes a new run, and an execve always brings one, so a
 * file's checks never join those of the file run before it. The caller
 * makes sure nothing was between them in their buffer.
 */
int record_whole_check(const struct record *r);
int record_extend_run(struct record *last, uint64_t time, uint64_t horizon);
int record_merge_repeat(struct record *last, const struct record *r,
			uint64_t horizon);
/*
 * 1 and rec's time in *time when the sample rec (len bytes) is the
 * sample prev again, byte for byte but for its time (same event, thread
 * and data): it decodes the same, so it need not be decoded.
 */
int sample_again(const void *prev, const void *rec, size_t len, uint64_t *time);

/*
 * The reordering behind tracer_drain(): sorts recs[0..n) by time (reading
 * order on ties), then calls fn for those at or before horizon and
 * releases them. Returns how many that was: the rest stay after them
 * (exported for tests).
 */
size_t records_release(struct record *recs, size_t n, uint64_t horizon,
		       void (*fn)(const struct record *, void *), void *arg);

/* ---- capaudit_tally.c: checks per process, file and credential ---- */

/*
 * What a check tells about the command's needs. Only CLASS_OWN checks can
 * be needs: made with the process's own credential against the user
 * namespace capaudit runs in, the only ones a file capability answers.
 */
enum check_class {
	CLASS_OWN,
	CLASS_USERNS, /* against, or with a credential of, another user namespace */
	CLASS_CRED, /* under a credential not the process's own (access(2), a helper) */
	CLASS_UNKNOWN, /* capaudit could not learn its own namespace */
	NCLASSES,
};

/* One execve(): the file a process ran, as the kernel mapped it. */
struct exec_image {
	pid_t pid;
	char comm[16]; /* the name it was started by */
	char *file;    /* the kernel's path; NULL when not seen */
	uint32_t maj, min;
	uint64_t ino;
	size_t *libs; /* what else it mapped executable: in maps */
	size_t nlibs, libs_size;
};

/*
 * A file a process mapped executable besides the one it runs: its
 * loader, its libraries, what it dlopen()s. Their code runs with the
 * capabilities of the file that loads them.
 */
struct mapped_file {
	char *path; /* the kernel's name for it */
	uint32_t maj, min;
	uint64_t ino;
};

struct proc {
	pid_t pid, ppid;
	char comm[16];
	int image;	  /* in images; -1: not yet exec'd (our launcher) */
	int awaiting_map; /* exec'd; which file is still to come */
	int exited;
};

/* A report row: the checks of one capability in one process and class. */
struct row {
	int cap;
	enum check_class cls;
	pid_t pid, ppid;
	int image;
	char comm[16];
	uint64_t granted, refused;
};

/* The last key found in a table: a busy command repeats one check. */
struct table_cache {
	void *val;
	unsigned generation;
	unsigned char key[32];
};

struct tally {
	struct proc *procs;
	size_t nprocs, procs_size;
	struct table pid_index; /* pid -> index in procs */
	struct exec_image *images;
	size_t nimages, images_size;
	struct mapped_file *maps; /* every one, once */
	size_t nmaps, maps_size;
	struct table map_index; /* (device, inode) -> index in maps, plus one */
	struct table checks;  /* (tid, cred, image, namespace, cap) -> counts */
	struct table spans;   /* (tid, image, cred) -> when it was used */
	struct table pending; /* kprobe entries waiting for their return */
	struct table_cache last_check, last_span;
	pid_t last_pid; /* and its index in procs, plus one */
	size_t last_pid_at;
	pid_t self;	   /* capaudit: its own checks are not counted */
	uint64_t init_ns;  /* capaudit's user namespace, from its calibration */
	int init_ns_state; /* 0 not seen, 1 known, -1 two different answers */
	uint64_t lost;	   /* samples the kernel could not write */
	uint64_t unfollowed; /* threads the kernel's programs did not follow */
	/*
	 * Signals a process outside the command sent to its threads (kill(2),
	 * tgkill(2), sigqueue(3); not the kernel's own, nor capaudit's),
	 * counted in the kernel: 0 where nothing counts them.
	 */
	uint64_t outside_signals;
	uint64_t launcher;     /* checks by our launcher before the exec */
	uint64_t out_of_range; /* cap values beyond NCAPS */
	uint64_t unpaired;     /* kprobe returns without an entry */
	int nomem;
	/* tally_finish(): */
	struct row *rows; /* by capability, then process */
	size_t nrows;
	uint64_t class_checks[NCLASSES];
	/*
	 * The capabilities of checks taken for a lent credential from
	 * samples alone (a guess: a credential's address is reused), not
	 * from what the kernel said of it.
	 */
	uint64_t lent_guessed;
};

/* root_comm NULL: root is our launched child; else the attached process. */
void tally_init(struct tally *t, pid_t root, const char *root_comm);
/* --pid: the file the attached process runs (from /proc/PID/exe). */
void tally_set_file(struct tally *t, pid_t pid, const char *file, uint32_t maj,
		    uint32_t min, uint64_t ino);
void tally_record(const struct record *r, void *tally);
/* Classifies every check and builds the rows. 0, or -1 (ENOMEM). */
int tally_finish(struct tally *t);
void tally_free(struct tally *t);
/* Processes that were followed: the command and its descendants. */
size_t tally_followed(const struct tally *t);
size_t tally_running(const struct tally *t);
/* A class's name for the report and --json. */
const char *class_name(enum check_class c);
const char *class_reason(enum check_class c);

/* ---- capaudit_report.c: the table and --json ---- */

/* Why capaudit ended a trial itself: its status says nothing then. */
enum run_cut {
	CUT_NONE,
	CUT_TIME, /* it ran past its time limit */
	CUT_STOP, /* SIGINT, SIGTERM or SIGQUIT */
};

struct run_result {
	int attached; /* --pid: no exit status */
	int status;   /* wait(2) status of the command */
	double seconds;
	enum run_cut cut; /* trials only */
	size_t left;	  /* trials: processes it left behind, ended */
	int left_running; /* trials: some could not be ended */
	size_t left_out;  /* --pid: threads that ended as capaudit attached */
};

/* The capability's name (cap_to_name()), into buf. */
void capability_name(int cap, char *buf, size_t size);
/* "exited with status 1", "killed by signal 9". */
void describe_status(int status, char *buf, size_t size);
void report_table(const struct tally *t, const struct source *src,
		  const struct run_result *rr, FILE *out);
void report_json(const struct tally *t, const struct source *src,
		 const struct run_result *rr, FILE *out);

/* ---- capaudit_suggest.c: the least grant ---- */

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
void suggest_free(struct suggestion *sg);

/* ---- capaudit_advice.c: the least grant as people deploy it ---- */

void suggest_print(const struct suggestion *sg, const struct tally *t,
		   const struct run_result *rr, const char *command,
		   const char *user, FILE *out);
void suggest_json(const struct suggestion *sg, const struct tally *t,
		  const char *command, FILE *out);

/* ---- capaudit_warn.c: what a grant hands out besides ---- */

/* 1 when path names a program that runs code it is given (python3.11, sh). */
int is_interpreter(const char *path);
/*
 * "# WARNING:" lines for caps granted on path (the file the command ran,
 * device and inode as the kernel said): root-equivalent capabilities,
 * a file every user may run, an interpreter, a file the kernel would not
 * honour file capabilities on.
 */
void warn_grant(const char *path, uint32_t maj, uint32_t min, uint64_t ino,
		uint64_t caps, FILE *out);
/*
 * "# WARNING:" lines for each library f loaded (its loader, what it
 * dlopen()s) that someone other than root may change: their code runs
 * with caps too.
 */
void warn_libraries(const struct need_file *f, uint64_t caps, FILE *out);
/* The command itself is a script: its grant goes on its interpreter. */
void warn_script(const char *command, FILE *out);

/* ---- capaudit_prove.c: the grant shown by experiment ---- */

/*
 * Runs the command once with grant[i] on sg->files[i] (every file of
 * sg, each with exactly those capabilities), into rr and t (which the
 * runner initialises and finishes). 0, or -1 with the reason in
 * sg->unproven (and t left free): the trials stop.
 */
struct trial_runner {
	int (*run)(void *ctx, struct suggestion *sg, const uint64_t *grant,
		   struct run_result *rr, struct tally *t);
	void *ctx;
};

/* The most runs one --suggest makes, every trial counted. */
#define TRIALS_MAX 100

/*
 * Grants every candidate and runs again until no new one appears (the
 * reference run), then runs without each candidate in turn, the most
 * dangerous first, and keeps only those without which the run does not
 * succeed. Sets sg->grant, proven or unproven (with the reason).
 * Returns 0, or -1 when a run could not be made (after a message).
 */
int suggest_prove(struct suggestion *sg, const struct success *succ,
		  const struct trial_runner *runner);
/* Whether wait status st is a success. */
int success_of(const struct success *succ, int have_reference, int reference,
	       int st);

/* ---- capaudit_identity.c: the file a record of the run names ---- */

struct stat;

enum file_match {
	FILE_OTHER,	  /* another file */
	FILE_SAME,	  /* stat(2) gives the record's device and inode */
	FILE_SAME_MAPPED, /* a mapping does, stat(2) not (overlayfs, btrfs):
			   * numbers another file there may share */
	FILE_UNKNOWN,	  /* stat(2) does not, and no mapping could be made
			   * or read: errno says why */
};

/*
 * Opens the regular file at path for reading (never a FIFO or device put
 * there, never a last symbolic link), its fstat(2) into st. The fd, or
 * -1 with errno (EINVAL: not a regular file).
 */
int identity_open(const char *path, struct stat *st);
/*
 * Whether fd (opened by identity_open(), st its fstat(2)) is the file a
 * record names by maj:min ino.
 */
enum file_match identity_match(int fd, const struct stat *st, uint32_t maj,
			       uint32_t min, uint64_t ino);
/*
 * Whether path names the file a record names by maj:min ino: 1, or 0
 * with why it does not (a clause: "another file now") in why. Where only
 * a mapping gives the record's numbers, also that only root may change
 * what the path names (path_dirs_problem()); never on FUSE, whose daemon
 * gives the numbers.
 */
int identity_names(const char *path, uint32_t maj, uint32_t min, uint64_t ino,
		   char *why, size_t len);

/* ---- capaudit_trial.c: a run with file capabilities on copies ---- */

/* One file of a trial: a copy with these capabilities, bound over it. */
struct grant_file {
	int src_fd;		 /* the original, checked by the parent */
	char target[4096];	 /* its path, bound over in the child */
	uint64_t dev, ino;	 /* what target must still be */
	char copy[4200];	 /* the copy's name in the trial's tmpfs */
	unsigned char xattr[20]; /* security.capability, revision 2 */
	size_t xattr_len;	 /* 0: no capabilities */
};

struct grant_plan {
	char dir[4096]; /* where the child mounts its tmpfs */
	struct grant_file *files;
	size_t n;
	int quiet; /* stdin, stdout and stderr to /dev/null */
	int devnull;
	int noroot; /* uid 0 (no --user, or a --user of uid 0):
				 * SECBIT_NOROOT, so only file caps count */
};

/* A revision 2 security.capability value granting caps =ep into buf. */
size_t filecap_encode(uint64_t caps, unsigned char buf[20]);
/*
 * Whether the trials can grant file capabilities here: 1, or 0 with the
 * reason in why (capaudit not root, a file-capability capaudit).
 */
int trials_possible(char *why, size_t len);
/*
 * Opens path for the trials and checks it: the same file the run mapped
 * (device and inode), a regular ELF file the kernel would honour file
 * capabilities on, root's and writable by root only. Returns the fd, or
 * -1 with the reason in why.
 */
int trial_open_file(const char *path, uint32_t maj, uint32_t min, uint64_t ino,
		    char *why, size_t len);
/*
 * Whether the trials may run the command at path: a script (and a
 * script its "#!" line names) is read afresh by its interpreter in
 * each trial, whose copy runs it with capabilities, so it and every
 * directory above it must be root's and writable by root alone (as
 * trial_open_file() asks of a file). 1, or 0 with the reason in why.
 */
int trial_command_allowed(const char *path, char *why, size_t len);
/*
 * Why someone other than root may change what the file at path holds
 * (it, or a directory above it, is not root's or is writable by others
 * and not sticky; a symbolic link on the way), as a clause that follows
 * its name; NULL when only root may.
 */
const char *trial_path_problem(const char *path);
/*
 * The same of the directories above path alone (and FUSE for the file
 * too): whether only root decides which file the name is, whoever owns
 * the file. NULL, or the problem.
 */
const char *path_dirs_problem(const char *path);
/*
 * Whether the trials may run f with capabilities as far as what it
 * loads goes: each library (and loader, and plugin) it mapped in the
 * runs so far still that file, and only root's to change, as its code
 * runs with f's capabilities. 1, or 0 with the reason in why.
 */
int trial_libraries_allowed(const struct need_file *f, char *why, size_t len);
/* The plan, with /dev/null open: 0, or -1 with errno. */
int plan_init(struct grant_plan *p);
/*
 * A new directory for the next trial's copies, in TMPDIR (or /tmp), the
 * last one removed: 0, or -1 with the reason in why (a TMPDIR others
 * than root may change is refused). The trial's launched child
 * removes it once its tmpfs is gone (plan_apply()); plan_dir_drop()
 * removes it if it is still there.
 */
int plan_dir_make(struct grant_plan *p, char *why, size_t len);
void plan_dir_drop(struct grant_plan *p);
void plan_release(struct grant_plan *p);
/*
 * In the launched child, before its execve: a mount namespace of its own
 * where each file is a copy carrying its capabilities (then
 * trial_contain() makes the PID namespace). Only async-signal-safe
 * calls. Returns 0, or -1 with the failed step in *step and errno set.
 */
int plan_apply(const struct grant_plan *p, const char **step);

/* ---- capaudit_contain.c: a trial's processes end with it, and with capaudit ---- */

/* How a trial's command ended, as its namespace's init saw it. */
struct trial_end {
	int status;    /* the command's wait(2) status */
	unsigned left; /* processes of the trial still there then, ended */
};
/*
 * First thing in a trial's launched child: it dies with the thread of
 * capaudit (pid capaudit) that forked it, which must live until it is
 * reaped. 0, or -1 with errno (ESRCH: capaudit is gone already).
 */
int trial_tie(pid_t capaudit);
/*
 * In a trial's launched child, once plan_apply() is done: a new PID
 * namespace, whose init (a process of capaudit's, pid 1 there, with the
 * namespace's /proc: nsproc_mount()) forks the command's process and
 * ends the namespace when the command ends. Returns 0 in the command's
 * process only; the launched child writes the struct trial_end to
 * report and ends as the command did (exit status or signal). -1 with
 * the failed step in *step and errno set (in the launched child or the
 * init). sigchld_ignored: the command gets SIGCHLD ignored. Only
 * async-signal-safe calls.
 */
int trial_contain(int report, int sigchld_ignored, const char **step);

/* ---- capaudit_nsproc.c: a trial's /proc ---- */

/*
 * In a trial's init, in the trial's mount namespace: where /proc is a
 * proc, a proc of this PID namespace over it, with the mounts that were
 * below the old one and its options. 0, or -1 with the failed step in
 * *step and errno set. Only async-signal-safe calls.
 */
int nsproc_mount(const char **step);

/* ---- capaudit_reap.c: what capaudit ends itself after a trial ---- */

/* capaudit as the child subreaper (on) or not: 0, or -1 with errno. */
int trial_reaper(int on);
/*
 * Once a trial's launched child has been reaped: kills and reaps every
 * child capaudit has (a trial's init whose launched child capaudit
 * killed, handed to it as the subreaper), until none is left. *ended
 * says how many. 0, or -1 with errno (EAGAIN: some still there after a
 * while of this).
 */
int trial_end_leftovers(size_t *ended);

/* ---- capaudit_tty.c: --user's command may not type into root's terminal ---- */

/*
 * In the launched child, still root: refuses TIOCSTI and TIOCLINUX to
 * the command and all it runs (a seccomp filter), or else gives it a
 * session of its own. 0, or -1 with errno. Only async-signal-safe calls.
 */
int tty_guard(void);

/* ---- capaudit_launch.c: running the command ---- */

struct launch {
	char **argv;
	const char *path; /* resolved; the launcher runs it */
	const char *user; /* --user's name, or NULL */
	uid_t uid;
	gid_t gid;
	char **envp;		       /* the command's environment */
	cap_iab_t iab;		       /* --iab, or NULL; copied for each run */
	const struct grant_plan *plan; /* a trial, or NULL */
	double limit;		       /* a trial's time limit in seconds */
};

/*
 * The environment for --user: ours, with HOME, USER, LOGNAME, SHELL and
 * PATH for that user; root's own places (XDG_RUNTIME_DIR, MAIL, TMPDIR,
 * the XDG homes, its agents' sockets) and what the C library ignores in
 * a program that gained capabilities (LD_*, glibc's other unsecure
 * variables) gone. Caller frees with env_free(). NULL with errno ENOMEM.
 */
/*
 * Why l's command could not start: as l's user, the first directory on
 * l->path it may not search, or the file it may not run. The errno (and
 * that path, in path), 0 when nothing was found, or -1 when the look did
 * not end within a few seconds (a file system that does not answer) or
 * capaudit was told to stop.
 */
int why_not_started(const struct launch *l, char *path, size_t size);
char **env_for_user(const char *const *environ_, const char *name, uid_t uid,
		    const char *home, const char *shell);
void env_free(char **env);
/*
 * Runs the command under the tracer into t and rr. A trial (l->plan) is
 * ended when it runs past l->limit or capaudit is asked to stop (rr->cut
 * says so), and what it leaves behind is ended after it (rr->left,
 * rr->left_running; capaudit must be the subreaper). Returns 0, or the
 * exit status for main() after a message.
 */
int launch_run(const struct launch *l, const struct source *src,
	       struct tally *t, struct run_result *rr);
/* Set by SIGINT, SIGTERM and SIGQUIT: the command gets them too. */
extern volatile sig_atomic_t launch_stop;
/*
 * capaudit waits for its children itself, so it takes SIGCHLD back to
 * its default if its caller left it ignored (the kernel would reap them
 * first); the command and the trials get it ignored again, as they would
 * have without capaudit. Call once, first.
 */
void launch_keep_children(void);

/* ---- capaudit_attach.c: --pid ---- */

/*
 * ptrace(2)'s PTRACE_MODE_READ_REALCREDS rule for the process whose
 * /proc directory is open on dfd, with capaudit's own privileges (not the
 * file capabilities it holds to trace): 1 allowed, 0 refused (why says
 * why), -1 with errno when it cannot be read (ESRCH: gone).
 */
int ptrace_read_allowed(int dfd, pid_t pid, char *why, size_t len);
int attach_run(pid_t pid, unsigned long long duration, const struct source *src,
	       struct tally *t, struct run_result *rr);

#endif
