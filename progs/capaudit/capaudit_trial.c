/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * A trial run: the command as it will run once the suggestion is applied,
 * each file of the suggestion carrying exactly the capabilities under
 * test, as a file capability. Nothing on the host changes: the launched
 * child makes a mount namespace of its own, copies each file into a
 * tmpfs mounted there, writes the capabilities on the copy and binds it
 * over the file's own path, so the command and everything it runs find
 * the copy where they look for the file. File capabilities do not cross
 * execve, and neither do these: a wrapper (timeout, env, sh -c) runs
 * without them, the file named with them gets them. An ambient
 * capability would instead reach every program the command starts.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/securebits.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "cap_xattr.h"
#include "capaudit_identity.h"
#include "capaudit_noexec.h"
#include "capaudit_privilege.h"
#include "capaudit_suggest.h"
#include "capaudit_tally.h"
#include "capaudit_trial.h"
#include "capaudit_trust.h"
#include "escape.h"
#include "exec_target.h"
#include "mask.h"
#include "names.h"
#include "why.h"

/*
 * Revision 2 with the effective flag, by the library's own codec (the
 * rootid stays 0, so it writes no more than the 20 bytes of buf).
 */
size_t filecap_encode(uint64_t caps, unsigned char buf[20])
{
	struct lcap_xattr x = {
		.permitted = { (uint32_t)caps, (uint32_t)(caps >> 32) },
		.effective = 1,
	};
	unsigned char raw[LCAP_XATTR_MAX];
	size_t n;

	memset(buf, 0, 20);
	if (caps == 0)
		return 0;
	n = lcap_xattr_encode(&x, raw);
	memcpy(buf, raw, n);
	return n;
}

size_t filecap_encode_none(unsigned char buf[20])
{
	struct lcap_xattr x = { .effective = 0 };
	unsigned char raw[LCAP_XATTR_MAX];
	size_t n = lcap_xattr_encode(&x, raw);

	memcpy(buf, raw, n);
	return n;
}

int trials_possible(char *why, size_t len)
{
	static const cap_value_t needed[] = {
		CAP_SYS_ADMIN, CAP_SETFCAP, CAP_SETUID, CAP_SETGID, CAP_SETPCAP,
	};
	cap_flag_value_t v;
	cap_t self;
	size_t i;

	if (privileged_by_own_file()) {
		snprintf(
			why, len,
			"capaudit runs with file capabilities and grants nothing: run it as root with --user=USER to prove a grant");
		return 0;
	}
	if (geteuid() != 0) {
		snprintf(
			why, len,
			"capaudit is not root, so it cannot run the command again with each grant: run it as root with --user=USER to prove one");
		return 0;
	}
	self = cap_get_proc();
	for (i = 0; i < sizeof(needed) / sizeof(needed[0]); i++) {
		v = CAP_CLEAR;
		if (self == NULL ||
		    cap_get_flag(self, needed[i], CAP_EFFECTIVE, &v) < 0 ||
		    v != CAP_SET) {
			char name[64];

			names_cap(needed[i], name, sizeof(name));
			snprintf(
				why, len,
				"capaudit lacks %s, which the trials need (a mount namespace, file capabilities on a copy, the user's ids)",
				name);
			cap_free(self);
			return 0;
		}
	}
	cap_free(self);
	return 1;
}

int trial_open_file(const char *path, uint32_t maj, uint32_t min, uint64_t ino,
		    char *why, size_t len)
{
	struct exec_target et;
	enum file_match match;
	const char *problem;
	char reason[200], clause[400];
	struct stat st;
	int fd;

	if (path[0] != '/') {
		snprintf(why, len,
			 "the kernel named it relative to another root");
		return -1;
	}
	fd = identity_open(path, &st);
	if (fd < 0 && errno == EINVAL) {
		snprintf(why, len, "the path names no regular file now");
		return -1;
	}
	if (fd < 0) {
		snprintf(why, len, "cannot open it: %s", strerror(errno));
		return -1;
	}
	match = identity_match(fd, &st, maj, min, ino);
	switch (match) {
	case FILE_SAME:
	case FILE_SAME_MAPPED: /* and the path root's alone: below */
		break;
	case FILE_UNKNOWN:
		snprintf(
			why, len,
			"cannot tell it is the file the command ran (a mapping of it: %s)",
			strerror(errno));
		goto refuse;
	default:
		snprintf(
			why, len,
			"the path names another file now than the one the command ran");
		goto refuse;
	}
	/*
	 * The trials run the copy with capabilities; whoever may change the
	 * file decides what that copy does with them. Its owner, mode and
	 * ACL must be the kernel's word, not a daemon's or a mapping's, for
	 * the mode and the set-id bits below to mean anything.
	 */
	switch (trust_file(fd, &st, clause, sizeof(clause))) {
	case TRUST_ROOTS:
		break;
	case TRUST_OTHERS:
		trust_clause_escape(clause, sizeof(clause));
		snprintf(
			why, len,
			"it %s: capaudit runs no copy of it with capabilities, as someone other than root decides what it does",
			clause);
		goto refuse;
	default:
		trust_clause_escape(clause, sizeof(clause));
		snprintf(why, len, "it %s", clause);
		goto refuse;
	}
	if (exec_target_inspect(fd, &et) < 0) {
		snprintf(why, len, "cannot tell how the kernel runs it: %s",
			 strerror(errno));
		goto refuse;
	}
	problem = exec_target_problem(&et, reason, sizeof(reason));
	if (problem != NULL) {
		snprintf(why, len, "it %s", problem);
		goto refuse;
	}
	/* A copy runs without its set-id bit: not the same program. */
	if (st.st_mode & (S_ISUID | S_ISGID)) {
		snprintf(
			why, len,
			"it is set-user-ID or set-group-ID, which its copy would not be");
		goto refuse;
	}
	/*
	 * Each trial binds the copy over the path and the command finds it
	 * there by name. Whoever may change a directory on the way can put
	 * another file at that name once the copy is bound (a rename takes
	 * the bind along with the old name), and the trial then runs that
	 * file and judges the grant by it: a run that fails there keeps a
	 * capability the command never needed. Where only a mapping gave
	 * the kernel's numbers (a btrfs subvolume, an overlay's layer), they
	 * may be another file's, and only a way root alone may change says
	 * the path still names the file the command ran.
	 */
	if (trust_way(path, &st, TRUST_NOW, clause, sizeof(clause)) !=
	    TRUST_ROOTS) {
		trust_clause_escape(clause, sizeof(clause));
		if (match == FILE_SAME_MAPPED)
			snprintf(
				why, len,
				"it %s, and on this file system its device and inode numbers may be another file's: no trial can tell it is still the file the command ran",
				clause);
		else
			snprintf(
				why, len,
				"it %s: another file could take its place at that path during a trial",
				clause);
		goto refuse;
	}
	return fd;
refuse:
	close(fd);
	return -1;
}

/*
 * Whether only root decides what the script at path (open on fd) says: 1,
 * or 0 and why.
 */
static int script_guarded(const char *path, int fd, char *why, size_t len)
{
	char clause[400], *shown;

	if (trust_path(path, fd, TRUST_NOW, clause, sizeof(clause)) ==
	    TRUST_ROOTS)
		return 1;
	trust_clause_escape(clause, sizeof(clause));
	shown = escape_dup(path);
	snprintf(
		why, len,
		"the script %s %s: no trial runs it with capabilities, as someone other than root decides what it says",
		shown != NULL ? shown : "", clause);
	free(shown);
	return 0;
}

int trial_libraries_allowed(const struct need_file *f, char *why, size_t len)
{
	enum file_match match;
	char clause[400], *shown;
	struct stat st;
	size_t i;
	int fd;

	for (i = 0; i < f->nlibs; i++) {
		const struct mapped_file *m = &f->libs[i];

		/*
		 * Numbers only a mapping gives (overlayfs, btrfs) may be
		 * another file's there; the path's check below, that only
		 * root may change it, settles that as well.
		 */
		fd = identity_open(m->path, &st);
		match = fd < 0 ? FILE_OTHER
			       : identity_match(fd, &st, m->maj, m->min,
						m->ino);
		if (match == FILE_OTHER || match == FILE_UNKNOWN)
			why_say(clause, sizeof(clause),
				"names another file now than the one it loaded");
		else if (trust_path(m->path, fd, TRUST_NOW, clause,
				    sizeof(clause)) == TRUST_ROOTS)
			clause[0] = '\0';
		if (fd >= 0)
			close(fd);
		if (clause[0] == '\0')
			continue;
		trust_clause_escape(clause, sizeof(clause));
		shown = escape_dup(m->path);
		snprintf(
			why, len,
			"it loads %s, which %s: no trial runs it with capabilities, as someone other than root decides what that code does",
			shown != NULL ? shown : "a file", clause);
		free(shown);
		return 0;
	}
	return 1;
}

/* The interpreter's path on a "#!" line, resolved; NULL when there is none. */
static char *interpreter_of(const struct exec_target *et)
{
	char word[sizeof(et->interp)];
	const char *p = et->interp + 2;
	size_t n;

	p += strspn(p, " \t");
	n = strcspn(p, " \t");
	if (n == 0)
		return NULL;
	memcpy(word, p, n);
	word[n] = '\0';
	return realpath(word, NULL);
}

/* The kernel follows at most this many "#!" lines (binfmt_script). */
#define SCRIPT_DEPTH 5

int trial_command_allowed(const char *path, char *why, size_t len)
{
	struct exec_target et;
	char *next = NULL, *cur;
	int depth, fd, ok = 1;

	cur = strdup(path);
	for (depth = 0; ok && cur != NULL && depth < SCRIPT_DEPTH; depth++) {
		fd = open(cur, O_PATH | O_CLOEXEC);
		if (fd < 0)
			break; /* nothing to run: the trials will say */
		if (exec_target_inspect(fd, &et) < 0 ||
		    et.kind != EXEC_TARGET_SCRIPT) {
			close(fd);
			break; /* an ELF file: trial_open_file() judges it */
		}
		ok = script_guarded(cur, fd, why, len);
		close(fd);
		/* Its interpreter may be a script too: the kernel reads both. */
		next = interpreter_of(&et);
		free(cur);
		cur = next;
	}
	if (cur == NULL && ok && depth == 0) {
		snprintf(why, len, "%s", strerror(ENOMEM));
		ok = 0;
	}
	free(cur);
	return ok;
}

int plan_init(struct grant_plan *p)
{
	memset(p, 0, sizeof(*p));
	p->devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
	return p->devnull < 0 ? -1 : 0;
}

void plan_dir_drop(struct grant_plan *p)
{
	/* ENOENT: the trial's launched child removed it (plan_apply()). */
	if (p->dir[0])
		rmdir(p->dir);
	p->dir[0] = '\0';
}

int plan_dir_make(struct grant_plan *p, char *why, size_t len)
{
	const char *tmp = caller_getenv("TMPDIR");
	char clause[400], *shown;
	struct stat st;
	int fd;

	plan_dir_drop(p);
	if (tmp == NULL || tmp[0] != '/' || strlen(tmp) > 200)
		tmp = "/tmp";
	snprintf(p->dir, sizeof(p->dir), "%s/capaudit.XXXXXX", tmp);
	if (mkdtemp(p->dir) == NULL) {
		p->dir[0] = '\0';
		snprintf(why, len, "%s", strerror(errno));
		return -1;
	}
	/*
	 * The trial's launched child mounts, fills, unmounts and removes
	 * it by its path, as root. Whoever may rename what TMPDIR holds
	 * could put a link to a directory of theirs at that name between
	 * those steps, and the copy carrying the grant would be written
	 * there, on their file system, for them to run at any time.
	 */
	fd = open(p->dir, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0)
		why_say(clause, sizeof(clause), "cannot be checked (%s)",
			strerror(errno));
	else if (trust_way(p->dir, &st, TRUST_NOW, clause, sizeof(clause)) ==
		 TRUST_ROOTS)
		clause[0] = '\0';
	if (fd >= 0)
		close(fd);
	if (clause[0] == '\0')
		return 0;
	trust_clause_escape(clause, sizeof(clause));
	shown = escape_dup(tmp);
	snprintf(
		why, len,
		"%.200s/capaudit.XXXXXX %s: another user could swap it during a trial",
		shown != NULL ? shown : "TMPDIR", clause);
	free(shown);
	plan_dir_drop(p);
	return -1;
}

void plan_release(struct grant_plan *p)
{
	plan_dir_drop(p);
	if (p->devnull >= 0)
		close(p->devnull);
	free(p->files);
	memset(p, 0, sizeof(*p));
	p->devnull = -1;
}

/* "/proc/self/fd/N" without snprintf, which is not async-signal-safe. */
static void fd_path(int fd, char buf[32])
{
	static const char lead[] = "/proc/self/fd/";
	char digits[12];
	int n = 0;
	unsigned v = (unsigned)fd;

	do
		digits[n++] = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	memcpy(buf, lead, sizeof(lead) - 1);
	buf += sizeof(lead) - 1;
	while (n > 0)
		*buf++ = digits[--n];
	*buf = '\0';
}

static int copy_file(const struct grant_file *f)
{
	off_t off = 0;
	ssize_t n;
	int out;

	out = open(f->copy, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0700);
	if (out < 0)
		return -1;
	do
		n = sendfile(out, f->src_fd, &off, 1 << 30);
	while (n > 0 || (n < 0 && errno == EINTR));
	/* Written first: a write after the xattr would clear it. */
	if (n < 0 ||
	    (f->xattr_len &&
	     fsetxattr(out, LCAP_XATTR_NAME, f->xattr, f->xattr_len, 0) < 0) ||
	    fchmod(out, 0755) < 0) {
		int saved = errno;

		close(out);
		errno = saved;
		return -1;
	}
	return close(out);
}

/* Binds the copy over the target, if the target is still that file. */
static int bind_over(const struct grant_file *f)
{
	char proc[32];
	struct stat st;
	int tfd, rc;

	tfd = open(f->target, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (tfd < 0)
		return -1;
	if (fstat(tfd, &st) < 0 || st.st_dev != f->dev || st.st_ino != f->ino) {
		close(tfd);
		errno = ESTALE;
		return -1;
	}
	/* Through the descriptor: the very file checked, whatever its path does now. */
	fd_path(tfd, proc);
	rc = mount(f->copy, proc, NULL, MS_BIND, NULL);
	close(tfd);
	return rc;
}

#define FAIL(what)              \
	do {                    \
		*step = (what); \
		return -1;      \
	} while (0)

int plan_apply(const struct grant_plan *p, const char **step)
{
	size_t i;

	/*
	 * Private first: a new mount namespace shares the propagation of
	 * the old one, and a mount made in a shared one would appear on the
	 * host too.
	 */
	if (unshare(CLONE_NEWNS) < 0)
		FAIL("unshare(CLONE_NEWNS)");
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		FAIL("making the mount namespace private");
	/*
	 * The ambient run: nothing may be executed or mapped executable
	 * but the copies, bound next from a mount made after this one, and
	 * the files of keep, once the copies are in place.
	 */
	if (p->confine && noexec_all(step) < 0)
		return -1;
	/*
	 * Neither nosuid nor noexec: the copies must run with their file
	 * capabilities. Only this namespace sees it, and it is unmounted
	 * before the command starts (the binds keep the copies).
	 */
	if (mount("capaudit", p->dir, "tmpfs", MS_NODEV, "mode=0700") < 0)
		FAIL("mounting a tmpfs for the copies");
	for (i = 0; i < p->n; i++) {
		if (copy_file(&p->files[i]) < 0)
			FAIL("copying a file with its capabilities");
		if (bind_over(&p->files[i]) < 0)
			FAIL("binding a copy over its file");
	}
	if (umount2(p->dir, MNT_DETACH) < 0)
		FAIL("unmounting the tmpfs of the copies");
	/*
	 * Nothing needs the directory now: gone at once, it is not left
	 * behind if capaudit is killed while the trial runs.
	 */
	rmdir(p->dir);
	if (p->confine && noexec_keep(p->keep, p->nkeep, step) < 0)
		return -1;
	if (p->quiet && (dup2(p->devnull, 0) < 0 || dup2(p->devnull, 1) < 0 ||
			 dup2(p->devnull, 2) < 0))
		FAIL("sending the trial's output to /dev/null");
	/*
	 * Root without --user: uid 0 would get every capability at execve
	 * whatever the file says. SECBIT_NOROOT takes that away (locked, so
	 * the command cannot undo it), leaving the file capabilities.
	 */
	if (p->noroot &&
	    prctl(PR_SET_SECUREBITS, SECBIT_NOROOT | SECBIT_NOROOT_LOCKED, 0, 0,
		  0) < 0)
		FAIL("setting SECBIT_NOROOT");
	/*
	 * A container run whose runtime sets no_new_privs (podman's and
	 * docker's no-new-privileges, Kubernetes' allowPrivilegeEscalation
	 * false) before its command's execve: then a file capability or a
	 * set-user-ID file gains the command nothing, as in the container.
	 */
	if (p->no_new_privs && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		FAIL("setting no_new_privs");
	return 0;
}
