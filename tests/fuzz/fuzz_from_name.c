/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * libFuzzer harness for cap_from_name(). Properties: it agrees with a
 * plain linear look-up written here (the library's is a hash index), and
 * a name it accepts survives cap_to_name() and back.
 */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/capability.h>

#include "fuzz.h"

/* cap_to_name() of every value, asked once. */
static char *names[64];

/* What cap_from_name() should say, the slow and obvious way. */
static int oracle(const char *text)
{
	size_t len = 0;
	int cap;

	if (isdigit((unsigned char)text[0])) {
		unsigned long value;
		char *end;

		errno = 0;
		value = strtoul(text, &end, 0);
		return errno == 0 && value < 64 ? (int)value : -1;
	}
	while (isalpha((unsigned char)text[len]) || text[len] == '_')
		len++;
	for (cap = 0; cap < 64; cap++) {
		if (names[cap] == NULL)
			names[cap] = cap_to_name(
				cap); /* kept: LSan ignores globals */
		FUZZ_ASSERT(names[cap] != NULL);
		if (strlen(names[cap]) == len &&
		    strncasecmp(names[cap], text, len) == 0)
			return cap;
	}
	return -1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_string(data, size);
	cap_value_t value = -99, back = -99;
	int saved, rc, want = oracle(text);
	char *name;

	errno = saved = 12345;
	rc = cap_from_name(text, &value);
	FUZZ_ASSERT(errno == saved); /* like libcap, errno is not touched */
	FUZZ_ASSERT(rc == (want >= 0 ? 0 : -1));
	if (rc == 0) {
		FUZZ_ASSERT(value == want);
		name = cap_to_name(value);
		FUZZ_ASSERT(name != NULL);
		FUZZ_ASSERT(cap_from_name(name, &back) == 0 && back == value);
		cap_free(name);
	} else {
		FUZZ_ASSERT(value == -99);
	}
	free(text);
	return 0;
}
