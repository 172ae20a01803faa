/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* One file's capabilities: a single xattr read, decoded and printed. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "cap_xattr.h"
#include "escape.h"
#include "getcap.h"
#include "json.h"
#include "mask.h"
#include "risk.h"

/*
 * getxattrat(2), Linux 6.13 (commit 6140be90ec70): the directory-relative
 * read that lets the walker spend exactly one system call per file. Numbers
 * from 424 on are shared by every architecture except alpha (+110).
 * glibc 2.36 has no wrapper and its headers no number, so both are here.
 */
#ifndef SYS_getxattrat
#if defined(__alpha__)
#define SYS_getxattrat 574
#else
#define SYS_getxattrat 464
#endif
#endif

/* The kernel's struct xattr_args (include/uapi/linux/xattr.h). */
struct getcap_xattr_args {
	uint64_t value;
	uint32_t size;
	uint32_t flags;
};

/*
 * 1 while getxattrat(2) is worth trying. Cleared once when the kernel lacks
 * it (ENOSYS) or a seccomp filter refuses it (EPERM where lgetxattr(2)
 * works); threads racing here store the same 0.
 */
static int use_getxattrat = 1;

static ssize_t getxattrat_once(const struct ent *e, void *buf, size_t size)
{
	struct getcap_xattr_args args = {
		.value = (uint64_t)(uintptr_t)buf,
		.size = (uint32_t)size,
		.flags = 0,
	};

	return syscall(SYS_getxattrat, e->dirfd, e->name, AT_SYMLINK_NOFOLLOW,
		       LCAP_XATTR_NAME, &args, sizeof(args));
}

/*
 * The pre-6.13 path: through the directory's descriptor in /proc, so the
 * directory is never looked up again by its path (a component swapped for
 * a symlink would lead outside the tree); lgetxattr(2) still does not
 * follow the entry itself. Only where /proc is not mounted is the name
 * read from the current directory, as libcap does.
 */
static ssize_t lgetxattr_fallback(const struct ent *e, void *buf, size_t size)
{
	char *path = NULL;
	ssize_t n;
	int saved;

	if (e->dir == NULL)
		return lgetxattr(e->name, LCAP_XATTR_NAME, buf, size);
	if (asprintf(&path, "/proc/self/fd/%d/%s", e->dirfd, e->name) < 0) {
		errno = ENOMEM;
		return -1;
	}
	n = lgetxattr(path, LCAP_XATTR_NAME, buf, size);
	if (n < 0 && errno == ENOENT && access("/proc/self/fd", F_OK) < 0) {
		free(path);
		path = ent_path(e);
		if (path == NULL)
			return -1;
		n = lgetxattr(path, LCAP_XATTR_NAME, buf, size);
	}
	saved = errno;
	free(path);
	errno = saved;
	return n;
}

ssize_t query_read(const struct ent *e, void *buf, size_t size)
{
	ssize_t n;

	if (__atomic_load_n(&use_getxattrat, __ATOMIC_RELAXED)) {
		n = getxattrat_once(e, buf, size);
		if (n >= 0 || (errno != ENOSYS && errno != EPERM))
			return n;
		if (errno == EPERM) {
			/* A real EPERM stays EPERM through lgetxattr too. */
			n = lgetxattr_fallback(e, buf, size);
			if (n >= 0 || errno != EPERM)
				__atomic_store_n(&use_getxattrat, 0,
						 __ATOMIC_RELAXED);
			return n;
		}
		__atomic_store_n(&use_getxattrat, 0, __ATOMIC_RELAXED);
	}
	return lgetxattr_fallback(e, buf, size);
}

/*
 * libcap's stderr line. Under --audit or --json (ours) the path is escaped
 * like every other path those modes print: it may hold a terminal's
 * control sequences.
 */
static void report_failure(const struct opts *o, const struct ent *e,
			   const char *what, int err)
{
	char *path = ent_path(e), *shown = NULL;

	if (path != NULL && (o->audit || o->json))
		shown = escape_dup(path);
	out_err("Failed to get capabilities of %s '%s' (%s)\n", what,
		shown != NULL  ? shown
		: path != NULL ? path
			       : e->name,
		strerror(err));
	free(shown);
	free(path);
}

/* Files and directories --audit or --json could not examine (atomic). */
static unsigned long unknown_files;

unsigned long query_unknown_count(void)
{
	return __atomic_load_n(&unknown_files, __ATOMIC_RELAXED);
}

/*
 * --audit and --json never leave out a regular file whose capabilities
 * could not be read: the kernel may grant them at exec all the same. It
 * reads revision 1 values and undefined flag bits straight from disk
 * (get_vfs_caps_from_disk) while getxattr(2) refuses to show them
 * (EINVAL from cap_inode_getsecurity), e.g. on a crafted image.
 */
static const char *unknown_reason(int err)
{
	return err == EINVAL
		       ? "security.capability is present but in a form getxattr(2) will not show (revision 1 or undefined flag bits); the kernel may still grant capabilities from it at exec: rewrite it with setcap, or remove it with setcap -r"
		       : "the capability xattr could not be read; the file may carry any capability";
}

void query_unknown(const struct opts *o, struct outbuf *ob, const struct ent *e,
		   const char *what, int err, const char *why)
{
	char *rest = NULL;

	__atomic_add_fetch(&unknown_files, 1, __ATOMIC_RELAXED);
	if (o->json) {
		char *fields = NULL;
		size_t len = 0;
		FILE *mem = open_memstream(&fields, &len);

		if (mem == NULL) {
			ob->failed = 1;
			return;
		}
		fprintf(mem, ",\"text\":null,\"error\":");
		json_string(mem, strerror(err));
		fprintf(mem,
			",\"errno\":%d,\"risk\":{\"tier\":\"unknown\",\"cap\":null,\"reason\":",
			err);
		json_string(mem, why);
		fputs("},\"suggestion\":null", mem);
		if (fclose(mem) != 0) {
			free(fields);
			ob->failed = 1;
			return;
		}
		out_json(ob, e, fields);
		free(fields);
		return;
	}
	if (asprintf(&rest, " (%s: %s)\n  risk: unknown: %s", what,
		     strerror(err), why) < 0) {
		ob->failed = 1;
		return;
	}
	out_line(ob, e, rest);
	free(rest);
}

/* The riskiest capability of a file and what to grant instead, if known. */
struct file_risk {
	cap_value_t worst; /* -1: the file grants nothing */
	const char *tier;
	char *name; /* cap_free() */
	const char *reason;
	char *suggestion; /* free(); NULL when none applies */
};

/* Returns 0, or -1 when out of memory. */
static int file_risk_of(struct file_risk *r, cap_t caps, const char *path)
{
	enum risk_tier tier = risk_highest(caps, ~0u, &r->worst);

	r->tier = risk_tier_name(tier);
	r->name = r->worst >= 0 ? cap_to_name(r->worst) : NULL;
	r->reason = risk_reason(r->worst);
	if (r->reason == NULL)
		r->reason = "no label for this capability";
	/* Its command names this file, quoted to be pasted as it is. */
	r->suggestion = risk_suggestion_dup(caps, path);
	return r->suggestion == NULL && errno == ENOMEM ? -1 : 0;
}

/*
 * --json: the fields after "path". Masks, names, the on-disk revision and
 * rootid, and the risk label; built in memory, NULL when out of memory.
 */
static char *json_fields(const struct lcap_xattr *x, cap_t caps,
			 const char *text, const struct file_risk *r)
{
	char *fields = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&fields, &len);

	if (mem == NULL)
		return NULL;
	fprintf(mem, ",\"text\":");
	json_string(mem, text);
	fprintf(mem, ",\"revision\":%d,\"rootid\":%u,", x->revision,
		(unsigned)x->rootid);
	json_capset(mem, caps);
	fprintf(mem, ",\"effective_flag\":%s,\"risk\":",
		x->effective ? "true" : "false");
	if (r->worst < 0) {
		fputs("null", mem);
	} else {
		fprintf(mem, "{\"tier\":\"%s\",\"cap\":", r->tier);
		json_string(mem, r->name != NULL ? r->name : "?");
		fputs(",\"reason\":", mem);
		json_string(mem, r->reason);
		fputc('}', mem);
	}
	fputs(",\"suggestion\":", mem);
	if (r->suggestion != NULL)
		json_string(mem, r->suggestion);
	else
		fputs("null", mem);
	if (fclose(mem) != 0) {
		free(fields);
		return NULL;
	}
	return fields;
}

/*
 * The text after the path: " <caps>", " [rootid=N]" with -n, and with
 * --audit "\n  risk: <tier>: <cap>: <reason>" and "\n  suggest: ...".
 * NULL when out of memory.
 */
static char *text_rest(const struct opts *o, const struct lcap_xattr *x,
		       const char *text, const struct file_risk *r)
{
	char rootid[32] = "";
	char *rest = NULL;
	int n;

	/*
	 * -n: rootid 0 is the initial namespace, -1 the "no owner" value.
	 * libcap prints the uid as a signed int, so one above 2^31 - 1
	 * shows negative ([rootid=-2] for 4294967294); this line is
	 * libcap's, to the byte. --json carries the uid itself.
	 */
	if (o->show_rootid && x->rootid != 0 && x->rootid != UINT32_MAX)
		snprintf(rootid, sizeof(rootid), " [rootid=%d]",
			 (int)x->rootid);
	if (!o->audit || r->worst < 0)
		n = asprintf(&rest, " %s%s", text, rootid);
	else
		n = asprintf(&rest, " %s%s\n  risk: %s: %s: %s%s%s", text,
			     rootid, r->tier, r->name != NULL ? r->name : "?",
			     r->reason, r->suggestion ? "\n  suggest: " : "",
			     r->suggestion ? r->suggestion : "");
	return n < 0 ? NULL : rest;
}

/*
 * cap_set_flag() takes fewer than 64 values per call (as libcap's does),
 * so a value with every bit set, which the kernel honours, is raised one
 * 32-bit word at a time: refusing it would hide a fully privileged file.
 */
static int set_words(cap_t caps, cap_flag_t flag, const uint32_t words[2])
{
	cap_value_t list[32], cap;
	int w, n;

	for (w = 0; w < 2; w++) {
		uint64_t part = (uint64_t)words[w] << (32 * w);

		n = 0;
		for (MASK_EACH(cap, part))
			list[n++] = cap;
		if (n > 0 && cap_set_flag(caps, flag, n, list, CAP_SET) < 0)
			return -1;
	}
	return 0;
}

/*
 * The value as cap_get_file() would return it: the one effective flag
 * raises E to P | I, and every one of the 64 bits counts. Caller frees
 * with cap_free(); NULL with errno (ENOMEM).
 */
static cap_t caps_of(const struct lcap_xattr *x)
{
	const uint32_t either[2] = {
		x->permitted[0] | x->inheritable[0],
		x->permitted[1] | x->inheritable[1],
	};
	cap_t caps = cap_init();
	int saved;

	if (caps == NULL)
		return NULL;
	if (set_words(caps, CAP_PERMITTED, x->permitted) < 0 ||
	    set_words(caps, CAP_INHERITABLE, x->inheritable) < 0 ||
	    (x->effective && set_words(caps, CAP_EFFECTIVE, either) < 0)) {
		saved = errno;
		cap_free(caps);
		errno = saved;
		return NULL;
	}
	return caps;
}

static void print_caps(const struct opts *o, struct outbuf *ob,
		       const struct ent *e, const struct lcap_xattr *x)
{
	cap_t caps = caps_of(x);
	char *text = caps != NULL ? cap_to_text(caps, NULL) : NULL;
	struct file_risk risk = { .worst = -1 };
	char *path = NULL, *rest;

	if (text == NULL) {
		report_failure(o, e, "human readable format at", errno);
		cap_free(caps);
		return;
	}
	/* Only the risk views need the full path (a perf binary is named). */
	if (o->json || o->audit) {
		path = ent_path(e);
		if (path == NULL)
			goto out_of_memory;
		if (file_risk_of(&risk, caps, path) < 0)
			goto out_of_memory;
	}
	rest = o->json ? json_fields(x, caps, text, &risk)
		       : text_rest(o, x, text, &risk);
	if (rest == NULL)
		goto out_of_memory;
	if (o->json)
		out_json(ob, e, rest);
	else
		out_line(ob, e, rest);
	free(rest);
	goto out;
out_of_memory:
	ob->failed = 1;
out:
	cap_free(risk.name);
	free(risk.suggestion);
	free(path);
	cap_free(text);
	cap_free(caps);
}

int query_report(const struct opts *o, struct outbuf *ob, const struct ent *e,
		 int in_walk)
{
	unsigned char raw[LCAP_XATTR_MAX];
	struct lcap_xattr x;
	ssize_t len = query_read(e, raw, sizeof(raw));
	int err;

	if (len < 0) {
		err = errno;
		if (err == ENODATA || err == ENOTSUP) {
			if (o->verbose)
				out_line(ob, e, "");
			return 0;
		}
		/*
		 * nftw lstat()s every entry first: a name that vanished, or
		 * sits in a directory we may list but not search, fails
		 * there and is shown as "(Not a regular file)" under -v.
		 */
		if (in_walk &&
		    (err == ENOENT || err == EACCES || err == ENOTDIR)) {
			/* Vanished is nothing; unsearchable is not seen. */
			if (err == EACCES && (o->audit || o->json))
				query_unknown(o, ob, e, "capabilities unknown",
					      err, unknown_reason(err));
			else if (o->verbose)
				out_line(ob, e, " (Not a regular file)");
			return err;
		}
		report_failure(o, e, "file", err);
		if (o->audit || o->json)
			query_unknown(o, ob, e, "capabilities unknown", err,
				      unknown_reason(err));
		return err;
	}
	if (lcap_xattr_decode(&x, raw, (size_t)len) < 0) {
		/* libcap leaves errno stale here; EINVAL says what happened. */
		report_failure(o, e, "file", EINVAL);
		if (o->audit || o->json)
			query_unknown(o, ob, e, "capabilities unknown", EINVAL,
				      unknown_reason(EINVAL));
		return EINVAL;
	}
	print_caps(o, ob, e, &x);
	return 0;
}
