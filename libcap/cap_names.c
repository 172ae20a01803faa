/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* Capability names and numbers: cap_to_name, cap_from_name, cap_mode_name. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lcap.h"

/*
 * Every name is known whatever the running kernel: a file capability may
 * carry cap_perfmon before the kernel it runs on understands it, and text
 * naming it must still parse (as in libcap's gperf builds). Lengths are
 * kept beside the names (sizeof, not strlen) because look-ups and
 * cap_to_text() are on getcap's and capsh's hot paths.
 */
#define CAP_FACT(number, NAME, name, ...) \
	[number] = { "cap_" #name, sizeof("cap_" #name) - 1 },
static const struct {
	const char *text;
	unsigned char len;
} cap_names[] = {
#include "caps.def"
};
#undef CAP_FACT

/*
 * caps.def is the only list of capabilities: its entries must be numbered
 * 0, 1, 2, ... in order, each name must fit LCAP_NAME_MAX, and the public
 * header (installed, so self-contained) must define every CAP_<NAME> with
 * the same value. A new entry without its define fails to compile here.
 */
#define CAP_FACT(number, NAME, name, ...)                         \
	_Static_assert(LCAP_ORDER_##NAME == (number),             \
		       "caps.def: cap_" #name                     \
		       " is out of order or not " #number);       \
	_Static_assert(sizeof("cap_" #name) - 1 <= LCAP_NAME_MAX, \
		       "caps.def: cap_" #name                     \
		       " is longer than LCAP_NAME_MAX");          \
	_Static_assert(CAP_##NAME == (number),                    \
		       "sys/capability.h: CAP_" #NAME " is not " #number);
#include "caps.def"
#undef CAP_FACT
_Static_assert(sizeof(cap_names) / sizeof(cap_names[0]) == LCAP_NAMED,
	       "a name for every capability");

const char *lcap_name_of(unsigned cap)
{
	return cap < LCAP_NAMED ? cap_names[cap].text : NULL;
}

size_t lcap_name_len(unsigned cap)
{
	return cap < LCAP_NAMED ? cap_names[cap].len : 0;
}

/*
 * ASCII letters and underscore, the only characters in a name. A byte
 * above 0x7f that the locale calls a letter also continues the run (as
 * isalpha() always decided), but can never be part of a match.
 */
enum { NOT_NAME, NAME, ASK_LOCALE };
static const unsigned char name_class[256] = {
	['A' ... 'Z'] = NAME,
	['a' ... 'z'] = NAME,
	['_'] = NAME,
	[0x80 ... 0xff] = ASK_LOCALE,
};

static int is_name_char(unsigned char c)
{
	unsigned class = name_class[c];

	return class == NAME || (class == ASK_LOCALE && isalpha(c));
}

/* Eight bytes at p, in whatever order: only equality is asked of them. */
static uint64_t load8(const char *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/*
 * Case-insensitive equality of a run of name characters with a name of
 * the same length. Both hold only letters and '_' (a run may also hold
 * bytes above 0x7f, which match nothing): OR-ing 0x20 folds case and sends
 * '_' to 0x7f, which no letter becomes. Eight bytes at a time once a
 * name is that long, the last block overlapping the one before it.
 */
static int same_name(const char *run, const char *name, size_t len)
{
	const uint64_t fold = UINT64_C(0x2020202020202020);
	size_t i;

	if (len < 8) {
		for (i = 0; i < len; i++)
			if (((unsigned char)run[i] | 0x20) !=
			    ((unsigned char)name[i] | 0x20))
				return 0;
		return 1;
	}
	for (i = 0; i + 8 < len; i += 8)
		if ((load8(run + i) | fold) != (load8(name + i) | fold))
			return 0;
	return (load8(run + len - 8) | fold) == (load8(name + len - 8) | fold);
}

/*
 * Name look-up is an open-addressed hash table over the names, filled on
 * first use: it needs no generated data, so adding a name to cap_names[]
 * is all it takes. The hash reads the length and four folded characters
 * (the first after "cap_" and three near the end), which tells almost all
 * names apart; the rest are probing's business.
 */
#define INDEX_SIZE   128 /* a power of two, about 3x the names */
#define SHORTEST_RUN 5	 /* every name is "cap_" and something */
_Static_assert(LCAP_NAMED < INDEX_SIZE / 2, "probing needs empty slots");

static inline unsigned slot_of(const char *run, size_t len)
{
	unsigned hash = (unsigned)len * 37 +
			((unsigned char)run[4] | 0x20) * 11 +
			((unsigned char)run[len - 1] | 0x20) * 7 +
			((unsigned char)run[len - 3] | 0x20) * 3 +
			((unsigned char)run[len - 4] | 0x20);

	return (hash ^ hash >> 7) & (INDEX_SIZE - 1);
}

/*
 * cap + 1 per slot, 0 when empty. Thread safety: every thread that builds
 * the index stores the same bytes in the same order, and a slot only ever
 * goes from 0 to its final value, so concurrent builders agree; the byte
 * accesses are atomic to make that race well-defined, and index_ready is
 * published with release and read with acquire.
 */
static unsigned char name_index[INDEX_SIZE];
static int index_ready;

static void build_index(void)
{
	unsigned cap;

	for (cap = 0; cap < LCAP_NAMED; cap++) {
		unsigned slot =
			slot_of(cap_names[cap].text, cap_names[cap].len);

		for (;; slot = (slot + 1) & (INDEX_SIZE - 1)) {
			unsigned char seen = __atomic_load_n(&name_index[slot],
							     __ATOMIC_RELAXED);

			if (seen == 0 || seen == cap + 1)
				break;
		}
		__atomic_store_n(&name_index[slot], (unsigned char)(cap + 1),
				 __ATOMIC_RELAXED);
	}
	__atomic_store_n(&index_ready, 1, __ATOMIC_RELEASE);
}

static int lookup_name(const char *run, size_t len)
{
	unsigned slot;

	if (len < SHORTEST_RUN)
		return -1;
	if (!__atomic_load_n(&index_ready, __ATOMIC_ACQUIRE))
		build_index();
	for (slot = slot_of(run, len);; slot = (slot + 1) & (INDEX_SIZE - 1)) {
		unsigned entry =
			__atomic_load_n(&name_index[slot], __ATOMIC_RELAXED);

		if (entry == 0)
			return -1;
		if (cap_names[entry - 1].len == len &&
		    same_name(run, cap_names[entry - 1].text, len))
			return (int)entry - 1;
	}
}

/*
 * Read one capability, a name or a number, from the start of text.
 * A name is a run of letters and underscores matched without regard to
 * case; a number is anything strtoul() accepts in base 0 below 64.
 * Returns the value and sets *end past it, or -1 when text does not start
 * with a capability; errno is left alone. What follows is the caller's
 * business.
 */
int lcap_scan_value(const char *text, const char **end)
{
	const char *p = text;
	int cap;

	if (*p >= '0' && *p <= '9') {
		int saved = errno; /* only strtoul's verdict is wanted */
		unsigned long value;
		char *stop;

		errno = 0;
		value = strtoul(p, &stop, 0);
		cap = errno == 0 && value < LCAP_BITS ? (int)value : -1;
		errno = saved;
		if (cap >= 0)
			*end = stop;
		return cap;
	}
	while (is_name_char((unsigned char)*p))
		p++;
	cap = lookup_name(text, (size_t)(p - text));
	if (cap >= 0)
		*end = p;
	return cap;
}

/* Like libcap, this neither sets errno nor minds what follows the item. */
int cap_from_name(const char *name, cap_value_t *value)
{
	const char *end;
	int cap;

	if (name == NULL)
		return -1;
	cap = lcap_scan_value(name, &end);
	if (cap < 0)
		return -1;
	if (value != NULL)
		*value = cap;
	return 0;
}

char *cap_to_name(cap_value_t cap)
{
	char number[16];

	if (cap >= 0 && cap < LCAP_NAMED)
		return lcap_strndup(cap_names[cap].text, cap_names[cap].len);
	/* Unnamed values print unsigned, so -1 becomes 4294967295 as in libcap. */
	snprintf(number, sizeof(number), "%u", (unsigned)cap);
	return lcap_strdup(number);
}

const char *cap_mode_name(cap_mode_t mode)
{
	switch (mode) {
	case CAP_MODE_UNCERTAIN:
		return "UNCERTAIN";
	case CAP_MODE_NOPRIV:
		return "NOPRIV";
	case CAP_MODE_PURE1E_INIT:
		return "PURE1E_INIT";
	case CAP_MODE_PURE1E:
		return "PURE1E";
	case CAP_MODE_HYBRID:
		return "HYBRID";
	default:
		return "UNKNOWN";
	}
}
