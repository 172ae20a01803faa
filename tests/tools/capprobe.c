/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * Differential probe: the same source is built against this project's
 * library and against the system's libcap; both read the same commands and
 * their outputs must be identical. Uses only the public API.
 *
 * Commands on stdin, one per line:
 *   T <text>          cap_from_text then cap_to_text (or "ERR <errno>")
 *   N <text>          cap_from_name
 *   V <number>        cap_to_name
 *   R <seed> <count>  random sets: cap_to_text and cap_copy_ext in hex
 *   G <seed> <count>  generated text, valid and broken, through T
 *   X <hex>           cap_copy_int_check then cap_to_text
 *   I <text>          cap_iab_from_text then cap_iab_to_text (if built with IAB)
 *   J <seed> <count>  generated IAB text through I (if built with IAB)
 *   K <seed> <count>  random IABs built with cap_iab_set_vector/fill: the
 *                     return codes, cap_iab_to_text, every vector bit and
 *                     the text read back (if built with IAB)
 *   P <pid>           cap_iab_get_pid then cap_iab_to_text, or "ERR <errno>"
 *                     (if built with IAB)
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>

static uint64_t rng_state;

static uint64_t next_random(void)
{
	/* xorshift64*: deterministic, identical in both builds */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * UINT64_C(2685821657736338717);
}

static void text_roundtrip(const char *text)
{
	cap_t caps;
	char *out;

	errno = 0;
	caps = cap_from_text(text);
	if (caps == NULL) {
		printf("ERR %d\n", errno);
		return;
	}
	out = cap_to_text(caps, NULL);
	printf("%s\n", out ? out : "(to_text failed)");
	cap_free(out);
	cap_free(caps);
}

#ifdef PROBE_IAB
static void iab_roundtrip(const char *text)
{
	cap_iab_t iab;
	char *out;

	errno = 0;
	iab = cap_iab_from_text(text);
	if (iab == NULL) {
		printf("ERR %d\n", errno);
		return;
	}
	out = cap_iab_to_text(iab);
	printf("[%s]\n", out ? out : "(to_text failed)");
	cap_free(out);
	cap_free(iab);
}
#endif

static void random_sets(unsigned long count)
{
	unsigned long n;

	for (n = 0; n < count; n++) {
		cap_t caps = cap_init();
		unsigned char ext[64];
		ssize_t len, i;
		char *text;
		int flag, shape = (int)(next_random() % 4);

		for (flag = 0; flag < 3; flag++) {
			uint64_t bits = next_random();
			cap_value_t cap;

			/* Mostly realistic sets: few bits, all bits, or random. */
			if (shape == 0)
				bits &= next_random() & next_random();
			else if (shape == 1)
				bits |= ~(next_random() & next_random());
			else if (shape == 2)
				bits &= (UINT64_C(1) << 41) - 1;
			for (cap = 0; cap < 64; cap++) {
				if (bits >> cap & 1)
					cap_set_flag(caps, (cap_flag_t)flag, 1,
						     &cap, CAP_SET);
			}
		}
		text = cap_to_text(caps, &len);
		printf("%s %zd ", text, len);
		len = cap_copy_ext(ext, caps, sizeof(ext));
		for (i = 0; i < len; i++)
			printf("%02x", ext[i]);
		printf("\n");
		cap_free(text);
		cap_free(caps);
	}
}

/* Fragments from which valid and broken capability text is assembled. */
static const char *const items[] = {
	"cap_chown",
	"CAP_KILL",
	"cap_perfmon",
	"cap_bpf",
	"Cap_Sys_Admin",
	"cap_checkpoint_restore",
	"all",
	"ALL",
	"0",
	"38",
	"40",
	"41",
	"63",
	"64",
	"0x26",
	"046",
	"cap_chownx",
	"cap_",
	"chown",
	"1e",
	"0x",
	"cap_setpcap",
	"cap_net_raw",
	"cap_sys_ptrace",
	"_",
	"-1",
	"",
	"cap_kill2",
	"99999999999999999999",
	"cap_syslog",
};
static const char *const actions[] = {
	"=",   "+",   "-",     "=e",	"=p",	"=i",	"=ep", "=eip",
	"+e",  "+p",  "+i",    "-e",	"-p",	"-i",	"+ep", "-ep",
	"=+p", "=-p", "=+e+p", "=ep-e", "+e-p", "=e=p", "==",  "+",
	"=E",  "=x",  "+pe-i", "=pie",	"=ee",
};
static const char *const seps[] = { " ", " ", "\t", "\n", "  ", ";", ",", "" };

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static const char *pick(const char *const *list, size_t n)
{
	return list[next_random() % n];
}

static void generated_text(unsigned long count)
{
	char text[512];
	unsigned long n;

	for (n = 0; n < count; n++) {
		int clauses = (int)(next_random() % 4), c;

		text[0] = '\0';
		for (c = 0; c <= clauses; c++) {
			int nitems = (int)(next_random() % 3), k;

			if (c > 0)
				strcat(text, pick(seps, COUNT(seps)));
			if (next_random() % 8 == 0)
				nitems = -1; /* no list */
			for (k = 0; k <= nitems; k++) {
				if (k > 0)
					strcat(text,
					       next_random() % 16 ? "," : ",,");
				strcat(text, pick(items, COUNT(items)));
			}
			strcat(text, pick(actions, COUNT(actions)));
			if (next_random() % 6 == 0)
				strcat(text, pick(actions, COUNT(actions)));
		}
		printf("G %s -> ", text);
		text_roundtrip(text);
	}
}

#ifdef PROBE_IAB
static const char *const prefixes[] = { "",   "",   "",	  "!",	"^",
					"%",  "!^", "^!", "!%", "%!",
					"%^", "!!", "^^", "=" };

static void generated_iab(unsigned long count)
{
	char text[512];
	unsigned long n;

	for (n = 0; n < count; n++) {
		int nitems = (int)(next_random() % 5), k;

		text[0] = '\0';
		for (k = 0; k <= nitems; k++) {
			if (k > 0)
				strcat(text, next_random() % 12 ? "," : ", ");
			strcat(text, pick(prefixes, COUNT(prefixes)));
			strcat(text, pick(items, COUNT(items)));
		}
		if (next_random() % 10 == 0)
			strcat(text, ",");
		printf("J %s -> ", text);
		iab_roundtrip(text);
	}
}
#endif

#ifdef PROBE_IAB
static void print_vectors(cap_iab_t iab)
{
	int vec;

	for (vec = CAP_IAB_INH; vec <= CAP_IAB_BOUND; vec++) {
		uint64_t bits = 0;
		cap_value_t cap;

		for (cap = 0; cap < 64; cap++) {
			if (cap_iab_get_vector(iab, (cap_iab_vector_t)vec, cap))
				bits |= UINT64_C(1) << cap;
		}
		printf(" %016llx", (unsigned long long)bits);
	}
}

static void random_iabs(unsigned long count)
{
	unsigned long n;

	for (n = 0; n < count; n++) {
		cap_iab_t iab = cap_iab_init(), back;
		int ops = (int)(next_random() % 12), k, rc;
		char *text, *again;

		for (k = 0; k < ops; k++) {
			uint64_t r = next_random();
			int vec = 1 + (int)(r % 5); /* 1 and 5 are invalid */
			/* libcap 2.66 crashes on negative values: 0..69 only. */
			cap_value_t cap = (cap_value_t)((r >> 8) % 70);
			int value =
				(r >> 16) % 9 == 0 ? 2 : (int)((r >> 20) & 1);

			if ((r >> 24) % 10 == 0) {
				/* Whole vectors from a random set's flag. */
				cap_t caps = cap_init();
				cap_value_t c;
				uint64_t bits = next_random() & next_random();

				for (c = 0; c < 64; c++) {
					if (bits >> c & 1)
						cap_set_flag(caps,
							     CAP_PERMITTED, 1,
							     &c, CAP_SET);
				}
				errno = 0;
				rc = cap_iab_fill(iab, (cap_iab_vector_t)vec,
						  caps, CAP_PERMITTED);
				printf("f%d:%d/%d ", vec, rc, errno);
				cap_free(caps);
				continue;
			}
			errno = 0;
			rc = cap_iab_set_vector(iab, (cap_iab_vector_t)vec, cap,
						(cap_flag_value_t)value);
			printf("s%d,%d,%d:%d/%d ", vec, cap, value, rc, errno);
		}
		text = cap_iab_to_text(iab);
		back = cap_iab_from_text(text);
		again = back ? cap_iab_to_text(back) : NULL;
		printf("-> [%s]", text);
		print_vectors(iab);
		printf(" back [%s] cmp %d\n", again ? again : "(null)",
		       back ? cap_iab_compare(iab, back) : -2);
		cap_free(again);
		cap_free(back);
		cap_free(text);
		cap_free(iab);
	}
}
#endif

#ifdef PROBE_IAB
static void iab_of_pid(pid_t pid)
{
	cap_iab_t iab;
	char *text;

	errno = 0;
	iab = cap_iab_get_pid(pid);
	if (iab == NULL) {
		printf("ERR %d\n", errno);
		return;
	}
	text = cap_iab_to_text(iab);
	printf("%s\n", text);
	cap_free(text);
	cap_free(iab);
}
#endif

static void copy_int_hex(const char *hex)
{
	unsigned char buf[256];
	size_t len = 0;
	unsigned byte;
	cap_t caps;
	char *out;

	while (len < sizeof(buf) && sscanf(hex, "%2x", &byte) == 1) {
		buf[len++] = (unsigned char)byte;
		hex += 2;
	}
	errno = 0;
	caps = cap_copy_int_check(buf, (ssize_t)len);
	if (caps == NULL) {
		printf("ERR %d\n", errno);
		return;
	}
	out = cap_to_text(caps, NULL);
	printf("%s\n", out);
	cap_free(out);
	cap_free(caps);
}

int main(void)
{
	char line[4096];

	while (fgets(line, sizeof(line), stdin) != NULL) {
		char *arg = line + 2;
		unsigned long seed, count;
		cap_value_t value;

		line[strcspn(line, "\n")] = '\0';
		if (strlen(line) < 2)
			arg = line + strlen(line);
		switch (line[0]) {
		case 'T':
			text_roundtrip(arg);
			break;
		case 'N': {
			int rc;

			value = -99;
			rc = cap_from_name(arg, &value);
			printf("%d %d\n", rc, value);
			break;
		}
		case 'V': {
			char *name = cap_to_name(atoi(arg));

			printf("%s\n", name);
			cap_free(name);
			break;
		}
		case 'R':
		case 'G':
		case 'J':
		case 'K':
			if (sscanf(arg, "%lu %lu", &seed, &count) != 2)
				return 2;
			rng_state = seed | 1;
			if (line[0] == 'R')
				random_sets(count);
			else if (line[0] == 'G')
				generated_text(count);
#ifdef PROBE_IAB
			else if (line[0] == 'J')
				generated_iab(count);
			else
				random_iabs(count);
#endif
			break;
		case 'X':
			copy_int_hex(arg);
			break;
#ifdef PROBE_IAB
		case 'I':
			iab_roundtrip(arg);
			break;
		case 'P':
			iab_of_pid(atoi(arg));
			break;
#endif
		default:
			return 2;
		}
	}
	return 0;
}
