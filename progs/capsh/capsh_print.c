/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* capsh's reports: --print, --current, --decode, --mode and --modes. */
#include <errno.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "capsh.h"
#include "groups.h"
#include "mask.h"
#include "number.h"

/* Securebits, from <linux/securebits.h>; spelled out to need no header. */
#define SB_NOROOT		0
#define SB_NO_SETUID_FIXUP	2
#define SB_KEEP_CAPS		4
#define SB_NO_CAP_AMBIENT_RAISE 6

static int print_text(const char *label)
{
	cap_t caps = cap_get_proc();
	char *text;

	if (caps == NULL) {
		capsh_perror("failed to get process capabilities");
		return 1;
	}
	text = cap_to_text(caps, NULL);
	cap_free(caps);
	if (text == NULL) {
		capsh_perror("failed to get process capabilities");
		return 1;
	}
	printf("%s%s\n", label, text);
	cap_free(text);
	return 0;
}

static int print_iab(void)
{
	cap_iab_t iab = cap_iab_get_proc();
	char *text;

	if (iab == NULL) {
		fprintf(stderr, "failed to get IAB for process\n");
		return 1;
	}
	text = cap_iab_to_text(iab);
	cap_free(iab);
	if (text == NULL) {
		fprintf(stderr, "failed to obtain text for IAB\n");
		return 1;
	}
	printf("Current IAB: %s\n", text);
	cap_free(text);
	return 0;
}

/*
 * "Bounding set =a,b,..." for the capabilities whose bit is set. The kernel
 * answers -1 past its last capability, which ends the list; -1 for bit 0
 * means the whole vector is unsupported.
 */
/* "a,b,41": the names of the set bits, numbers where there is no name. */
static void print_names(unsigned long long bits)
{
	const char *sep = "";
	cap_value_t c;

	for (MASK_EACH(c, bits)) {
		char *name = cap_to_name(c);

		if (name != NULL)
			printf("%s%s", sep, name);
		else
			printf("%s%d", sep, c);
		cap_free(name);
		sep = ",";
	}
}

static void print_vector(const char *label, int (*get)(cap_value_t))
{
	cap_value_t answered;
	uint64_t bits = mask_of_vector(get, &answered);

	printf("%s set =", label);
	if (answered == 0)
		printf(" <unsupported>");
	print_names(bits);
	putchar('\n');
}

static const char *yes_no(unsigned bits, int bit)
{
	return (bits >> bit) & 1 ? "yes" : "no";
}

static const char *locked(unsigned bits, int bit)
{
	return (bits >> (bit + 1)) & 1 ? "locked" : "unlocked";
}

static void print_secbits(void)
{
	unsigned bits = cap_get_secbits();
	int nnp = cap_prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0, 0);
	char binary[33];
	unsigned width = 1, i;

	/* Binary with no leading zeros, at least one digit: 8'b11101111. */
	for (i = 0; i < 32; i++)
		if ((bits >> i) & 1)
			width = i + 1;
	for (i = 0; i < width; i++)
		binary[i] = (bits >> (width - 1 - i)) & 1 ? '1' : '0';
	binary[width] = '\0';

	printf("Securebits: 0%lo/0x%lx/%u'b%s (no-new-privs=%d)\n",
	       (unsigned long)bits, (unsigned long)bits, width, binary, nnp);
	printf(" secure-noroot: %s (%s)\n", yes_no(bits, SB_NOROOT),
	       locked(bits, SB_NOROOT));
	printf(" secure-no-suid-fixup: %s (%s)\n",
	       yes_no(bits, SB_NO_SETUID_FIXUP),
	       locked(bits, SB_NO_SETUID_FIXUP));
	printf(" secure-keep-caps: %s (%s)\n", yes_no(bits, SB_KEEP_CAPS),
	       locked(bits, SB_KEEP_CAPS));
	/* Kernels without ambient capabilities have no such securebit. */
	if (CAP_AMBIENT_SUPPORTED())
		printf(" secure-no-ambient-raise: %s (%s)\n",
		       yes_no(bits, SB_NO_CAP_AMBIENT_RAISE),
		       locked(bits, SB_NO_CAP_AMBIENT_RAISE));
}

static const char *user_name(uid_t uid)
{
	struct passwd *pw = getpwuid(uid);

	return pw != NULL ? pw->pw_name : "???";
}

static const char *group_name(gid_t gid)
{
	struct group *gr = getgrgid(gid);

	return gr != NULL ? gr->gr_name : "???";
}

static int print_ids(void)
{
	uid_t uid = getuid(), euid = geteuid();
	gid_t gid = getgid();
	gid_t *groups;
	int n, i;

	/*
	 * getpwuid() reuses its buffer: print each name before the next
	 * look-up.
	 */
	printf("uid=%u(%s) ", (unsigned)uid, user_name(uid));
	printf("euid=%u(%s)\n", (unsigned)euid, user_name(euid));
	printf("gid=%u(%s)\n", (unsigned)gid, group_name(gid));

	n = groups_of_process(&groups);
	if (n < 0 && errno == ENOMEM) {
		fprintf(stderr, "No memory for gid list\n");
		return 1;
	}
	if (n < 0) {
		capsh_perror("unable to get groups");
		return 1;
	}
	printf("groups=");
	for (i = 0; i < n; i++)
		printf("%s%u(%s)", i ? "," : "", (unsigned)groups[i],
		       group_name(groups[i]));
	putchar('\n');
	free(groups);
	return 0;
}

int capsh_print(void)
{
	cap_mode_t mode;

	if (print_text("Current: ") != 0)
		return 1;
	print_vector("Bounding", cap_get_bound);
	print_vector("Ambient", cap_get_ambient);
	if (print_iab() != 0)
		return 1;
	print_secbits();
	if (print_ids() != 0)
		return 1;
	mode = cap_get_mode();
	printf("Guessed mode: %s (%d)\n", cap_mode_name(mode), (int)mode);
	return 0;
}

int capsh_current(void)
{
	if (print_text("Current: ") != 0)
		return 1;
	return print_iab();
}

/*
 * --decode=<hex> (with or without 0x). libcap reads it with strtoull()
 * and no check, so junk decodes as 0, "-1" and any overflow as all 64
 * bits, "10q" as 0x10; here each is an error, as a mask read wrong shows
 * another set of capabilities. Bits beyond the names this library knows
 * print as numbers (cap_to_name does that).
 */
int capsh_parse_hex(const char *hex, unsigned long long *bits)
{
	int rc = number_parse(hex, 16, ULLONG_MAX, bits);

	if (rc == 0)
		return 0;
	capsh_bad_value("invalid --decode value",
			"want a 64-bit hexadecimal number", hex);
	return -1;
}

int capsh_decode(const char *hex)
{
	unsigned long long bits;

	if (capsh_parse_hex(hex, &bits) != 0)
		return 1;
	printf("0x%016llx=", bits);
	print_names(bits);
	putchar('\n');
	return 0;
}

int capsh_show_mode(void)
{
	printf("Mode: %s\n", cap_mode_name(cap_get_mode()));
	return 0;
}

int capsh_show_modes(void)
{
	cap_mode_t m;

	printf("Supported modes:");
	for (m = CAP_MODE_NOPRIV; m <= CAP_MODE_HYBRID; m++)
		printf(" %s", cap_mode_name(m));
	putchar('\n');
	return 0;
}
