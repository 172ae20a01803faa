/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * Where capaudit's checks come from: the capability:cap_capable tracepoint
 * (Linux 6.14+), else a kprobe on cap_capable() through the kprobe PMU or
 * tracefs kprobe_events; and, when none can be used, exactly what is
 * missing (perfdoctor-style), so the user knows what to change.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "capaudit.h"
#include "capaudit_counting.h"
#include "capaudit_source.h"
#include "kernel.h"
#include "mask.h"
#include "number.h"
#include "perf.h"
#include "textfile.h"

#define MAX_MISSING 8

static const char *const tracefs_dirs[] = {
	"/sys/kernel/tracing",
	"/sys/kernel/debug/tracing", /* debugfs's automount, older systems */
};
#define NTRACEFS (sizeof(tracefs_dirs) / sizeof(tracefs_dirs[0]))

struct missing {
	char line[MAX_MISSING][400 + COUNTER_WHY_MAX];
	int n;
};

static void miss(struct missing *m, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void miss(struct missing *m, const char *fmt, ...)
{
	va_list ap;

	if (m->n >= MAX_MISSING)
		return;
	va_start(ap, fmt);
	vsnprintf(m->line[m->n++], sizeof(m->line[0]), fmt, ap);
	va_end(ap);
}

static int read_number(const char *path, unsigned long long max,
		       unsigned long long *value)
{
	char buf[64];
	int rc;

	if (text_file_read(path, buf, sizeof(buf)) < 0)
		return -1;
	buf[strcspn(buf, "\n")] = '\0';
	rc = number_parse(buf, 10, max, value);
	if (rc != 0) {
		errno = rc;
		return -1;
	}
	return 0;
}

static void sys_path(const struct sysview *sv, char *buf, size_t size,
		     const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void sys_path(const struct sysview *sv, char *buf, size_t size,
		     const char *fmt, ...)
{
	size_t len;
	va_list ap;

	len = (size_t)snprintf(buf, size, "%s", sv->root);
	if (len >= size)
		len = size - 1;
	va_start(ap, fmt);
	vsnprintf(buf + len, size - len, fmt, ap);
	va_end(ap);
}

/*
 * A line of a tracefs format file reads
 *	field:int cap;	offset:32;	size:4;	signed:1;
 * The name is the declaration's last word.
 */
int format_field(const char *format, const char *name, struct field *f)
{
	const char *line = format;

	while (line != NULL && *line != '\0') {
		const char *end = strchr(line, '\n');
		const char *decl = strstr(line, "field:");
		unsigned long long off, size, sgn;

		if (end == NULL)
			end = line + strlen(line);
		if (decl != NULL && decl < end) {
			const char *semi =
				memchr(decl, ';', (size_t)(end - decl));
			const char *word = semi;

			while (word != NULL && word > decl && word[-1] != ' ' &&
			       word[-1] != '*' && word[-1] != ':')
				word--;
			if (semi != NULL &&
			    (size_t)(semi - word) == strlen(name) &&
			    strncmp(word, name, (size_t)(semi - word)) == 0 &&
			    sscanf(semi,
				   "; offset:%llu; size:%llu; signed:%llu;",
				   &off, &size, &sgn) == 3 &&
			    (size == 1 || size == 2 || size == 4 ||
			     size == 8) &&
			    off < 65536) {
				f->off = (size_t)off;
				f->size = (size_t)size;
				f->is_signed = sgn != 0;
				return 0;
			}
		}
		line = *end != '\0' ? end + 1 : NULL;
	}
	errno = ENOENT;
	return -1;
}

int tracepoint_fields(const char *format, struct event_spec *ev)
{
	if (format_field(format, "cap", &ev->cap) < 0 ||
	    format_field(format, "ret", &ev->ret) < 0)
		return -1;
	/*
	 * Who asked and against which user namespace: without them no check
	 * can be told to be the command's own (capaudit_tally.c), and none
	 * is suggested. Pointers: 8 bytes on a 64-bit kernel.
	 */
	if (format_field(format, "cred", &ev->cred) < 0)
		ev->cred.size = 0;
	if (format_field(format, "target_ns", &ev->target_ns) < 0)
		ev->target_ns.size = 0;
	if (format_field(format, "capable_ns", &ev->capable_ns) < 0)
		ev->capable_ns.size = 0;
	return 0;
}

/* Reads one tracefs event's id and its format text. */
static int read_event(const char *dir, const char *event, char *format,
		      size_t size, uint64_t *id)
{
	char path[512];
	unsigned long long v;

	snprintf(path, sizeof(path), "%s/events/%s/id", dir, event);
	if (read_number(path, UINT32_MAX, &v) < 0)
		return -1;
	snprintf(path, sizeof(path), "%s/events/%s/format", dir, event);
	if (text_file_read(path, format, size) < 0)
		return -1;
	*id = v;
	return 0;
}

enum tracefs_state { TFS_ABSENT, TFS_DENIED, TFS_NO_EVENT, TFS_OK };

/*
 * A directory is a tracefs when it holds tracefs's files; an empty
 * /sys/kernel/tracing is where one would be mounted.
 */
static enum tracefs_state try_tracepoint(const char *dir, struct source *src,
					 int *err)
{
	struct event_spec *ev = &src->ev[0];
	char path[512], format[8192];
	struct stat st;

	snprintf(path, sizeof(path), "%s/events", dir);
	if (stat(path, &st) < 0) {
		*err = errno;
		if (errno == EACCES)
			return TFS_DENIED;
		snprintf(path, sizeof(path), "%s/kprobe_events", dir);
		return stat(path, &st) == 0 ? TFS_NO_EVENT : TFS_ABSENT;
	}
	memset(ev, 0, sizeof(*ev));
	if (read_event(dir, "capability/cap_capable", format, sizeof(format),
		       &ev->config) < 0) {
		*err = errno;
		return errno == EACCES ? TFS_DENIED : TFS_NO_EVENT;
	}
	if (tracepoint_fields(format, ev) < 0) {
		*err = errno;
		return TFS_NO_EVENT;
	}
	ev->type = 2; /* PERF_TYPE_TRACEPOINT */
	ev->role = ROLE_CHECK;
	src->kind = SOURCE_TRACEPOINT;
	src->nevents = 1;
	snprintf(src->tracefs, sizeof(src->tracefs), "%s", dir);
	return TFS_OK;
}

/*
 * Appends one line to kprobe_events: O_APPEND, as O_TRUNC deletes every
 * probe.
 */
static int kprobe_write(const char *dir, const char *line)
{
	char path[512];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/kprobe_events", dir);
	fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = write(fd, line, strlen(line));
	if (n < 0) {
		int saved = errno;

		close(fd);
		errno = saved;
		return -1;
	}
	return close(fd);
}

/*
 * Two probes of our own on cap_capable(cred, ns, cap, opts): the entry
 * records the credential, the namespace and the capability, the return
 * probe the result. $argN needs Linux 4.20; the group name carries our
 * pid so two runs never collide. Returns 0, -2 when dir has no
 * kprobe_events, -1 with errno otherwise.
 */
static int try_kprobe_events(const char *dir, struct source *src, int check)
{
	char line[256], event[128], format[8192];
	struct event_spec *entry = &src->ev[0], *ret = &src->ev[1];
	struct stat st;

	snprintf(line, sizeof(line), "%s/kprobe_events", dir);
	if (stat(line, &st) < 0)
		return -2;
	src->kind = SOURCE_KPROBE_EVENTS;
	src->nevents = 2;
	snprintf(src->tracefs, sizeof(src->tracefs), "%s", dir);
	if (check)
		return 0; /* nothing created, nothing to remove */
	snprintf(src->group, sizeof(src->group), "capaudit_%ld",
		 (long)getpid());
	memset(src->ev, 0, sizeof(src->ev));
	snprintf(
		line, sizeof(line),
		"p:%s/cap cap_capable cred=$arg1:x64 ns=$arg2:x64 cap=$arg3:s32\n",
		src->group);
	if (kprobe_write(dir, line) < 0)
		goto fail;
	snprintf(line, sizeof(line), "r:%s/ret cap_capable ret=$retval:s32\n",
		 src->group);
	if (kprobe_write(dir, line) < 0)
		goto fail;
	snprintf(event, sizeof(event), "%s/cap", src->group);
	if (read_event(dir, event, format, sizeof(format), &entry->config) < 0)
		goto fail;
	if (format_field(format, "cap", &entry->cap) < 0 ||
	    format_field(format, "cred", &entry->cred) < 0 ||
	    format_field(format, "ns", &entry->target_ns) < 0)
		goto fail;
	snprintf(event, sizeof(event), "%s/ret", src->group);
	if (read_event(dir, event, format, sizeof(format), &ret->config) < 0 ||
	    format_field(format, "ret", &ret->ret) < 0)
		goto fail;
	entry->type = ret->type = 2; /* PERF_TYPE_TRACEPOINT */
	entry->role = ROLE_ENTRY;
	ret->role = ROLE_RETURN;
	return 0;
fail : {
	int saved = errno;
	struct sysview none = { "" };

	source_release(&none, src);
	errno = saved;
}
	return -1;
}

/*
 * perf's register numbers (asm/perf_regs.h) of the first three arguments
 * and the result.
 */
#if defined(__x86_64__)
#define ARG1_REG 5 /* PERF_REG_X86_DI */
#define ARG2_REG 4 /* PERF_REG_X86_SI */
#define ARG3_REG 3 /* PERF_REG_X86_DX */
#define RET_REG	 0 /* PERF_REG_X86_AX */
#elif defined(__aarch64__)
#define ARG1_REG 0 /* PERF_REG_ARM64_X0 */
#define ARG2_REG 1 /* PERF_REG_ARM64_X1 */
#define ARG3_REG 2 /* PERF_REG_ARM64_X2 */
#define RET_REG	 0 /* PERF_REG_ARM64_X0 */
#endif

#ifdef ARG3_REG
/* A register's place in a sample: the registers come lowest number first. */
static int reg_slot(uint64_t regs, int reg)
{
	return __builtin_popcountll(regs & ((1ULL << reg) - 1));
}
#endif

/*
 * The kprobe PMU (Linux 4.17): config1 points at the symbol's name, the
 * "retprobe" bit of config makes it a return probe; the arguments come
 * from the registers at the probe (PERF_SAMPLE_REGS_INTR).
 */
static int try_kprobe_pmu(const struct sysview *sv, struct source *src,
			  struct missing *m)
{
	static const char symbol[] = "cap_capable";
	unsigned long long type, bit = 0;
	char path[512], fmt[64];

	sys_path(sv, path, sizeof(path),
		 "/sys/bus/event_source/devices/kprobe/type");
	if (read_number(path, UINT32_MAX, &type) < 0)
		return -1;
	sys_path(sv, path, sizeof(path),
		 "/sys/bus/event_source/devices/kprobe/format/retprobe");
	if (text_file_read(path, fmt, sizeof(fmt)) < 0 ||
	    sscanf(fmt, "config:%llu", &bit) != 1 || bit > 63) {
		miss(m, "%s: cannot read which config bit makes a return probe",
		     path);
		return -1;
	}
#ifdef ARG3_REG
	{
		struct event_spec *entry = &src->ev[0], *ret = &src->ev[1];

		memset(src->ev, 0, sizeof(src->ev));
		src->kind = SOURCE_KPROBE_PMU;
		src->nevents = 2;
		src->tracefs[0] = '\0';
		entry->type = ret->type = (uint32_t)type;
		entry->config1 = ret->config1 = (uint64_t)(uintptr_t)symbol;
		ret->config = 1ULL << bit;
		entry->regs = (1ULL << ARG1_REG) | (1ULL << ARG2_REG) |
			      (1ULL << ARG3_REG);
		ret->regs = 1ULL << RET_REG;
		entry->reg.cred = reg_slot(entry->regs, ARG1_REG);
		entry->reg.ns = reg_slot(entry->regs, ARG2_REG);
		entry->reg.cap = reg_slot(entry->regs, ARG3_REG);
		entry->reg.ret = -1;
		ret->reg.cred = ret->reg.ns = ret->reg.cap = -1;
		ret->reg.ret = 0;
		entry->role = ROLE_ENTRY;
		ret->role = ROLE_RETURN;
	}
	return 0;
#else
	(void)symbol;
	(void)src;
	miss(m,
	     "kprobe PMU: capaudit does not know this architecture's argument registers");
	return -1;
#endif
}

static int kernel_version(const struct sysview *sv, char *rel, size_t size,
			  int *major, int *minor)
{
	char path[512];
	struct utsname u;

	sys_path(sv, path, sizeof(path), "/proc/sys/kernel/osrelease");
	if (text_file_read(path, rel, size) < 0) {
		if (uname(&u) < 0)
			return -1;
		snprintf(rel, size, "%s", u.release);
	}
	rel[strcspn(rel, "\n")] = '\0';
	return kernel_version_parse(rel, major, minor);
}

/*
 * What the perf policy says is enough for system-wide monitoring on this
 * kernel (CAP_PERFMON or CAP_SYS_ADMIN, or CAP_SYS_ADMIN alone before
 * CAP_PERFMON), in E.
 */
static int perfmon_capable(void)
{
	cap_t caps = cap_get_proc();
	uint64_t effective;

	if (caps == NULL)
		return 0;
	effective = mask_of_flag(caps, CAP_EFFECTIVE);
	cap_free(caps);
	return (effective & perf_enough(cap_max_bits())) != 0;
}

static int admin_capable(void)
{
	cap_flag_value_t sa = CAP_CLEAR;
	cap_t caps = cap_get_proc();

	if (caps == NULL)
		return 0;
	cap_get_flag(caps, CAP_SYS_ADMIN, CAP_EFFECTIVE, &sa);
	cap_free(caps);
	return sa == CAP_SET;
}

/*
 * Raw tracepoint samples: the kernel allows them with CAP_PERFMON (or
 * CAP_SYS_ADMIN) in the effective set, or to everyone at
 * perf_event_paranoid -1 (kernel/events/core.c, perf_allow_tracepoint()).
 */
static void check_permission(const struct sysview *sv, const char *rel,
			     struct missing *m)
{
	char path[512];
	int paranoid;

	sys_path(sv, path, sizeof(path),
		 "/proc/sys/kernel/perf_event_paranoid");
	if (kernel_perf_paranoid(path, &paranoid) < 0) {
		miss(m, "%s: %s (a kernel without perf events?)", path,
		     strerror(errno));
		return;
	}
	if (paranoid <= -1)
		return;
	/*
	 * perf asks capable() of the initial user namespace: capabilities
	 * held in any other (unshare -U, a rootless container) do not count,
	 * however full the effective set looks. Unknown counts as another.
	 */
	if (kernel_in_initial_userns() != 1) {
		miss(m,
		     "perf_event_paranoid is %d and capaudit runs in a user namespace other than the initial one: capabilities held there do not count for perf events (run capaudit in the initial user namespace, or set perf_event_paranoid -1)",
		     paranoid);
		return;
	}
	if (perfmon_capable())
		return;
	miss(m,
	     "perf_event_paranoid is %d and capaudit's effective set lacks %s: tracing another process's capability checks needs it, or perf_event_paranoid -1 (kernel %s)",
	     paranoid,
	     perf_knows_perfmon(cap_max_bits())
		     ? "CAP_PERFMON"
		     : "CAP_SYS_ADMIN (this kernel predates CAP_PERFMON)",
	     rel);
}

/*
 * Mounting tracefs where none is mounted is done in a child of ours in a
 * mount namespace of its own, made private first so nothing propagates
 * back: the host's mount table never changes, the command runs in ours
 * untouched, and the mount vanishes with the child. The child finds the
 * source there and sends it back through a pipe.
 */
static int in_private_tracefs(const struct sysview *sv, struct source *src,
			      int check, int release, char *why, size_t whylen)
{
	const char *dir = tracefs_dirs[0];
	enum tracefs_state state;
	int fds[2], status, err = 0;
	struct {
		int rc, err;
		struct source src;
	} msg;
	ssize_t n;
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC) < 0)
		return -1;
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (pid == 0) {
		close(fds[0]);
		memset(&msg, 0, sizeof(msg));
		msg.src = *src;
		if (unshare(CLONE_NEWNS) < 0 ||
		    mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL) < 0 ||
		    mount("nodev", dir, "tracefs",
			  MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) < 0) {
			msg.rc = -1;
			msg.err = errno;
		} else if (release) {
			snprintf(msg.src.tracefs, sizeof(msg.src.tracefs), "%s",
				 dir);
			source_release(sv, &msg.src);
		} else if ((state = try_tracepoint(dir, &msg.src, &err)) ==
			   TFS_DENIED) {
			/* Its mode is the machine's tracefs's: no way round. */
			msg.rc = -1;
			msg.err = err;
		} else if (state != TFS_OK) {
			msg.rc = try_kprobe_events(dir, &msg.src, check);
			msg.err = errno;
		}
		n = write(fds[1], &msg, sizeof(msg));
		_exit(n == (ssize_t)sizeof(msg) ? 0 : 1);
	}
	close(fds[1]);
	do
		n = read(fds[0], &msg, sizeof(msg));
	while (n < 0 && errno == EINTR);
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (n != (ssize_t)sizeof(msg)) {
		snprintf(why, whylen, "the helper process failed");
		return -1;
	}
	if (msg.rc == -2) {
		snprintf(
			why, whylen,
			"it has neither events/capability/cap_capable nor kprobe_events");
		return -1;
	}
	if (msg.rc < 0 && msg.err == EACCES) {
		snprintf(why, whylen, "%s", strerror(msg.err));
		return -3; /* mounted, but root's: the machine's options */
	}
	if (msg.rc < 0) {
		snprintf(why, whylen, "%s", strerror(msg.err));
		return -1;
	}
	if (!release) {
		*src = msg.src;
		src->private_mount = 1;
	}
	return 0;
}

int source_find(const struct sysview *sv, struct source *src, int check,
		int use_bpf, FILE *err)
{
	enum tracefs_state state[NTRACEFS];
	char rel[128] = "?", dir[512], why[256] = "";
	char bpf_why[COUNTER_WHY_MAX] = "";
	int major = 0, minor = 0, found = 0, any_mounted = 0, e[NTRACEFS], rc;
	struct missing m = { .n = 0 };
	size_t i;

	memset(src, 0, sizeof(*src));
	kernel_version(sv, rel, sizeof(rel), &major, &minor);
	for (i = 0; i < NTRACEFS && !found; i++) {
		sys_path(sv, dir, sizeof(dir), "%s", tracefs_dirs[i]);
		e[i] = 0;
		state[i] = try_tracepoint(dir, src, &e[i]);
		found = state[i] == TFS_OK;
		any_mounted |= state[i] != TFS_ABSENT;
	}
	if (!found && !any_mounted && sv->root[0] == '\0' && admin_capable()) {
		rc = in_private_tracefs(sv, src, check, 0, why, sizeof(why));
		if (rc == 0) {
			found = 1;
		} else if (rc == -3) {
			/* Mounted there, and as unreadable as anywhere. */
			state[0] = TFS_DENIED;
			e[0] = EACCES;
			any_mounted = 1;
		}
	}
	/*
	 * Where tracefs cannot be read (systemd mounts it root's, mode
	 * 0700), counting in the kernel still can: it names its raw
	 * tracepoints to bpf(2). Before the kprobes: the tracepoint's
	 * arguments are stable where a probed function's are not. Not with
	 * a fake /sys (tests), which the kernel's eBPF knows nothing of.
	 */
	if (!found && use_bpf && sv->root[0] == '\0' &&
	    raw_tracepoint_find(sv, src, bpf_why, sizeof(bpf_why)) == 0)
		found = 1;
	if (!found && try_kprobe_pmu(sv, src, &m) == 0)
		found = 1;
	for (i = 0; i < NTRACEFS && !found; i++) {
		if (state[i] != TFS_NO_EVENT)
			continue;
		sys_path(sv, dir, sizeof(dir), "%s", tracefs_dirs[i]);
		rc = try_kprobe_events(dir, src, check);
		if (rc == 0)
			found = 1;
		else if (rc == -1)
			miss(&m,
			     "%s/kprobe_events: cannot probe cap_capable: %s",
			     dir, strerror(errno));
	}
	if (!found) {
		if (!kernel_at_least(major, minor, 6, 14))
			miss(&m,
			     "kernel %s has no capability:cap_capable tracepoint (it came with Linux 6.14)",
			     rel);
		for (i = 0; i < NTRACEFS; i++) {
			sys_path(sv, dir, sizeof(dir), "%s", tracefs_dirs[i]);
			if (state[i] == TFS_DENIED)
				miss(&m,
				     "%s: %s (tracefs is root's; let a group read it: mount -o remount,gid=GROUP,mode=0750 %s, and at boot: \"tracefs %s tracefs gid=GROUP,mode=0750 0 0\" in /etc/fstab)",
				     dir, strerror(e[i]), dir, dir);
			else if (state[i] == TFS_NO_EVENT &&
				 kernel_at_least(major, minor, 6, 14))
				miss(&m, "%s/events/capability/cap_capable: %s",
				     dir, strerror(e[i]));
		}
		if (!any_mounted) {
			sys_path(sv, dir, sizeof(dir), "%s", tracefs_dirs[0]);
			miss(&m,
			     "tracefs is not mounted at %s%s%s (mount -t tracefs nodev %s, or run capaudit as root: it mounts one in a private mount namespace)",
			     dir,
			     why[0] ? "; mounted in a private mount namespace: "
				    : "",
			     why, dir);
		}
		if (bpf_why[0] != '\0')
			miss(&m,
			     "counting in the kernel, which needs no tracefs, cannot be used: %s (it needs a caller who holds CAP_BPF and CAP_PERFMON: root, or a user given them as ambient capabilities)",
			     bpf_why);
		sys_path(sv, dir, sizeof(dir),
			 "/sys/bus/event_source/devices/kprobe");
		miss(&m,
		     "no kprobe to fall back on: no kprobe PMU (%s) and no kprobe_events in a mounted tracefs (CONFIG_KPROBE_EVENTS)",
		     dir);
	}
	check_permission(sv, rel, &m);
	for (i = 0; i < (size_t)m.n; i++)
		fprintf(err, "%s: %s\n", PROG, m.line[i]);
	if (m.n == 0) {
		if (src->kind != SOURCE_RAW_TRACEPOINT)
			counting_try(sv, src, use_bpf);
		return 0;
	}
	if (found)
		source_release(sv, src);
	return -1;
}

void source_release(const struct sysview *sv, struct source *src)
{
	char line[128], why[64];

	counting_release(&src->counting);
	if (src->kind != SOURCE_KPROBE_EVENTS || src->group[0] == '\0')
		return;
	if (src->private_mount) {
		src->private_mount = 0;
		in_private_tracefs(sv, src, 0, 1, why, sizeof(why));
		src->group[0] = '\0';
		return;
	}
	snprintf(line, sizeof(line), "-:%s/cap\n", src->group);
	kprobe_write(src->tracefs, line);
	snprintf(line, sizeof(line), "-:%s/ret\n", src->group);
	kprobe_write(src->tracefs, line);
	src->group[0] = '\0';
}

void source_describe(const struct source *src, FILE *out)
{
	switch (src->kind) {
	case SOURCE_TRACEPOINT:
		fprintf(out,
			"tracepoint capability:cap_capable (id %llu) from %s%s\n",
			(unsigned long long)src->ev[0].config, src->tracefs,
			src->private_mount
				? " (mounted in a private mount namespace)"
				: "");
		break;
	case SOURCE_KPROBE_EVENTS:
		fprintf(out,
			"kprobes on cap_capable written to %s/kprobe_events%s\n",
			src->tracefs,
			src->private_mount
				? " (mounted in a private mount namespace)"
				: "");
		break;
	case SOURCE_KPROBE_PMU:
		fprintf(out,
			"kprobe PMU (type %u) on cap_capable, arguments from registers\n",
			src->ev[0].type);
		break;
	case SOURCE_RAW_TRACEPOINT:
		fprintf(out,
			"raw tracepoint cap_capable, attached by eBPF (no tracefs needed)\n");
		break;
	}
}
