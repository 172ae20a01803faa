/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * setcap's own diagnostics. libcap's messages ("Invalid file ...", "fatal
 * error: Invalid argument") are kept word for word by setcap.c; the lines
 * here come after them, start with "setcap:", and name the file or clause
 * and the actual cause, which libcap's messages leave the user to guess.
 * Nothing here decides anything: a failed call is already final, and the
 * lstat() and statx() below only describe what the path names now.
 */
#define _GNU_SOURCE /* statx */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "escape.h"
#include "say.h"
#include "mask.h"
#include "setcap.h"

#define WHITESPACE " \t\n\r\f\v"

static int text_parses(const char *text)
{
	cap_t caps = cap_from_text(text);

	cap_free(caps);
	return caps != NULL;
}

/*
 * The text may be binary garbage or megabytes long: quote at most
 * SHOW_MAX of its bytes, escaping anything a terminal might act on, so the
 * message stays one readable line.
 */
#define SHOW_MAX 64

static void put_quoted(const char *text, size_t len)
{
	size_t i, shown = len > SHOW_MAX ? SHOW_MAX : len;

	fputc('"', stderr);
	for (i = 0; i < shown; i++) {
		unsigned char c = (unsigned char)text[i];

		if (c == '"' || c == '\\')
			fprintf(stderr, "\\%c", c);
		else if (c < 0x20 || c > 0x7e)
			fprintf(stderr, "\\x%02x", c);
		else
			fputc(c, stderr);
	}
	fputs(shown < len ? "...\"" : "\"", stderr);
}

/* Is this one item of a capability list (a name, a number, "all") known? */
static int name_is_valid(const char *name, size_t len)
{
	char *probe;
	int ok;

	if (len == 0)
		return 0;
	/* Sized to the item: a long one (leading zeros) may still be valid. */
	probe = malloc(len + 3);
	if (probe == NULL)
		return 0;
	memcpy(probe, name, len);
	memcpy(probe + len, "=p", 3);
	ok = text_parses(probe);
	free(probe);
	return ok;
}

/* Why cap_from_text refused this one clause (which has no whitespace). */
static void explain_clause(int index, int count, const char *clause)
{
	size_t names_len = strcspn(clause, "=+-");
	const char *item = clause, *end = clause + names_len;

	/* Not the whole text: it may span lines (stdin); the clause cannot. */
	fprintf(stderr, "setcap: bad capability text, clause %d of %d ", index,
		count);
	put_quoted(clause, strlen(clause));
	fputs(": ", stderr);
	if (clause[names_len] == '\0') {
		fputs("no operator: write names=flags, names+flags or names-flags (flags e, i, p)\n",
		      stderr);
		return;
	}
	while (names_len > 0 && item <= end) {
		size_t len = strcspn(item, ",=+-");

		if (item + len > end)
			len = (size_t)(end - item);
		if (len == 0) {
			fputs("empty capability name (a stray comma?)\n",
			      stderr);
			return;
		}
		if (!name_is_valid(item, len)) {
			if (isdigit((unsigned char)*item)) {
				fputs("capability number ", stderr);
				put_quoted(item, len);
				fputs(" is out of range (0 to 63)\n", stderr);
			} else {
				fputs("unknown capability name ", stderr);
				put_quoted(item, len);
				fputc('\n', stderr);
			}
			return;
		}
		item += len + 1;
	}
	if (names_len == 0 && clause[0] != '=')
		fputs("only '=' may stand without capability names\n", stderr);
	else
		fputs("bad operator or flags after the names (operators =, +, -; flags e, i, p in lower case)\n",
		      stderr);
}

static int count_clauses(const char *text)
{
	int count = 0;

	for (;;) {
		text += strspn(text, WHITESPACE);
		if (*text == '\0')
			return count;
		count++;
		text += strcspn(text, WHITESPACE);
	}
}

void explain_text(const char *text)
{
	char *copy = strdup(text), *clause, *save = NULL;
	int index = 0, count = count_clauses(text);

	if (copy == NULL)
		return;
	for (clause = strtok_r(copy, WHITESPACE, &save); clause != NULL;
	     clause = strtok_r(NULL, WHITESPACE, &save)) {
		index++;
		if (!text_parses(clause)) {
			explain_clause(index, count, clause);
			free(copy);
			return;
		}
	}
	free(copy);
	fputs("setcap: bad capability text: each clause is valid alone, but not together\n",
	      stderr);
}

static uint64_t permitted_or_inheritable(cap_t caps)
{
	return mask_of_flags(caps,
			     (1u << CAP_PERMITTED) | (1u << CAP_INHERITABLE));
}

/*
 * E must be empty or cover P | I: does caps have some E bits yet leave a
 * P | I bit out of E? (Unlike setcap.c's effective_refused(), which
 * replays libcap's own pre-write check, this names the kernel's rule.)
 */
static int effective_leaves_granted_out(cap_t caps)
{
	uint64_t e = mask_of_flag(caps, CAP_EFFECTIVE);

	return e != 0 && (permitted_or_inheritable(caps) & ~e) != 0;
}

/* At most this many names in one line; "=e" alone would list them all. */
#define NAMES_MAX 4

void explain_effective(const char *file, cap_t caps, int forced)
{
	/* NAMES_MAX names of at most ~24 bytes, with commas and the tail. */
	char extra[160], missing[160];
	uint64_t e = mask_of_flag(caps, CAP_EFFECTIVE);
	uint64_t pi = permitted_or_inheritable(caps);
	/* Effective, but neither permitted nor inheritable: nothing to raise. */
	int n_extra = mask_names(extra, sizeof(extra), e & ~pi, NAMES_MAX);
	/* Permitted or inheritable, but left out of a non-empty effective set. */
	int n_missing =
		mask_names(missing, sizeof(missing), pi & ~e, NAMES_MAX);

	/*
	 * With -f, cap_set_file drops the extra bits (the file's flag can
	 * only make effective what it grants) and refuses missing ones.
	 */
	if (n_extra > 0 && forced && n_missing == 0)
		say(stderr, "setcap: ",
		    "%s: written anyway (-f), without %s: neither permitted nor inheritable, so never raised",
		    file, extra);
	else if (n_extra > 0)
		say(stderr, "setcap: ",
		    "%s: %s: effective but neither permitted nor inheritable, so there is nothing to raise: add p (=ep), or leave e out",
		    file, extra);
	if (n_missing > 0)
		say(stderr, "setcap: ",
		    "%s: %s: permitted or inheritable but not effective: a file has one effective flag, on for all its capabilities or for none",
		    file, missing);
}

static const char *kind_of(mode_t mode)
{
	if (S_ISLNK(mode))
		return "is a symbolic link: setcap never follows links, name the target file itself";
	if (S_ISDIR(mode))
		return "is a directory: only regular files carry file capabilities";
	if (S_ISFIFO(mode))
		return "is a FIFO (named pipe): only regular files carry file capabilities";
	if (S_ISCHR(mode))
		return "is a character device: only regular files carry file capabilities";
	if (S_ISBLK(mode))
		return "is a block device: only regular files carry file capabilities";
	if (S_ISSOCK(mode))
		return "is a socket: only regular files carry file capabilities";
	return NULL;
}

static void explain_einval(const char *file, const char *shown, cap_t caps)
{
	struct stat st;
	const char *kind;

	if (lstat(file, &st) == 0 && (kind = kind_of(st.st_mode)) != NULL) {
		fprintf(stderr, "setcap: %s: %s\n", shown, kind);
		return;
	}
	if (caps != NULL && effective_leaves_granted_out(caps)) {
		fprintf(stderr,
			"setcap: %s: the effective flags must be empty or include every permitted and inheritable capability (a file has one effective bit)\n",
			shown);
		return;
	}
	if (caps != NULL && cap_get_nsowner(caps) != 0) {
		fprintf(stderr,
			"setcap: %s: the kernel refused namespace root uid %u (not a uid mapped in this user namespace?)\n",
			shown, (unsigned)cap_get_nsowner(caps));
		return;
	}
	fprintf(stderr,
		"setcap: %s: the kernel refused this capability value\n",
		shown);
}

/* 1 when the effective set holds cap. */
static int effective_has(cap_value_t cap)
{
	cap_flag_value_t v = CAP_CLEAR;
	cap_t now = cap_get_proc();

	if (now == NULL)
		return 0;
	cap_get_flag(now, cap, CAP_EFFECTIVE, &v);
	cap_free(now);
	return v == CAP_SET;
}

/*
 * The kernel refuses any change of an immutable or append-only file, to
 * root as well: naming the capabilities there blames what root has.
 * statx(2) reports both flags without opening the file (opening a device
 * or a FIFO could do something).
 */
static void explain_eperm(const char *file, const char *shown)
{
	struct statx sx;

	if (statx(AT_FDCWD, file, AT_SYMLINK_NOFOLLOW, STATX_BASIC_STATS,
		  &sx) == 0) {
		if (sx.stx_attributes_mask & sx.stx_attributes &
		    STATX_ATTR_IMMUTABLE) {
			fprintf(stderr,
				"setcap: %s: permission denied: the file is immutable (chattr -i lets it change)\n",
				shown);
			return;
		}
		if (sx.stx_attributes_mask & sx.stx_attributes &
		    STATX_ATTR_APPEND) {
			fprintf(stderr,
				"setcap: %s: permission denied: the file is append-only (chattr -a lets it change)\n",
				shown);
			return;
		}
	}
	if (effective_has(CAP_SETFCAP) && effective_has(CAP_FOWNER)) {
		fprintf(stderr,
			"setcap: %s: permission denied, although setcap holds CAP_SETFCAP and CAP_FOWNER: a security module or the file system refused it\n",
			shown);
		return;
	}
	fprintf(stderr,
		"setcap: %s: permission denied: writing file capabilities needs CAP_SETFCAP, and ownership of the file or CAP_FOWNER\n",
		shown);
}

void explain_set_error(const char *file, int err, cap_t caps)
{
	/* The name as text: a control character in it must not forge or
	 * hide a line of ours. */
	char *escaped = escape_dup(file);
	const char *shown =
		escaped != NULL ? escaped : "(name not shown: out of memory)";

	switch (err) {
	case EINVAL:
		explain_einval(file, shown, caps);
		break;
	case ENODATA:
		fprintf(stderr,
			"setcap: %s: has no security.capability attribute, so there is nothing to remove (-f makes this non-fatal)\n",
			shown);
		break;
	case ENOTSUP:
		fprintf(stderr,
			"setcap: %s: this filesystem does not support security.capability extended attributes\n",
			shown);
		break;
	case EPERM:
		explain_eperm(file, shown);
		break;
	case EACCES:
		fprintf(stderr,
			"setcap: %s: permission denied: a directory on the path cannot be searched\n",
			shown);
		break;
	case ENOENT:
		fprintf(stderr, "setcap: %s: no such file: check the path\n",
			shown);
		break;
	case ENOTDIR:
		fprintf(stderr,
			"setcap: %s: a component of the path is not a directory\n",
			shown);
		break;
	case EROFS:
		fprintf(stderr,
			"setcap: %s: the filesystem is mounted read-only\n",
			shown);
		break;
	case ELOOP:
		fprintf(stderr,
			"setcap: %s: too many symbolic links in the directories of the path\n",
			shown);
		break;
	default:
		break;
	}
	free(escaped);
}

void explain_no_setfcap(void)
{
	fputs("setcap: writing file capabilities needs CAP_SETFCAP in the permitted set: run setcap as root\n",
	      stderr);
}

void explain_stdin_error(int err)
{
	fprintf(stderr,
		"setcap: cannot read capability text from standard input: %s\n",
		strerror(err));
}

/*
 * The kernel keeps bits above its last capability in the xattr but masks
 * them off at exec, so such a grant is silently worthless on this kernel.
 */
void warn_above_kernel(const char *file, cap_t caps)
{
	cap_value_t max = cap_max_bits(), v;
	char *last = cap_to_name(max - 1);
	/* E alone is never stored: only P | I reach the file. */
	uint64_t above = permitted_or_inheritable(caps) & ~mask_below(max);
	char *escaped = escape_dup(file);
	const char *shown =
		escaped != NULL ? escaped : "(name not shown: out of memory)";

	for (MASK_EACH(v, above)) {
		char *name = cap_to_name(v);

		if (name == NULL || isdigit((unsigned char)name[0]))
			fprintf(stderr, "setcap: warning: %s: capability %d",
				shown, v);
		else
			fprintf(stderr, "setcap: warning: %s: %s (%d)", shown,
				name, v);
		fprintf(stderr,
			" is above this kernel's last capability %s (%d); the kernel will ignore it at exec\n",
			last != NULL ? last : "?", max - 1);
		cap_free(name);
	}
	cap_free(last);
	free(escaped);
}
