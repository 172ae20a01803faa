/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* What every libFuzzer harness here shares: private input copies and asserts. */
#ifndef FUZZ_H
#define FUZZ_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * A property that does not hold aborts, which libFuzzer reports as a crash
 * and saves the input (unlike assert(), it survives -DNDEBUG).
 */
#define FUZZ_ASSERT(cond)                                               \
	do {                                                            \
		if (!(cond)) {                                          \
			fprintf(stderr, "%s:%d: property failed: %s\n", \
				__FILE__, __LINE__, #cond);             \
			abort();                                        \
		}                                                       \
	} while (0)

/* The input as a NUL-terminated string (it may hold NULs of its own). */
static inline char *fuzz_string(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);

	FUZZ_ASSERT(text != NULL);
	memcpy(text, data, size);
	text[size] = '\0';
	return text;
}

/* An exactly-sized heap copy, so any read past the end is an ASan report. */
static inline uint8_t *fuzz_bytes(const uint8_t *data, size_t size)
{
	uint8_t *copy = malloc(size ? size : 1);

	FUZZ_ASSERT(copy != NULL);
	if (size)
		memcpy(copy, data, size);
	return copy;
}

#endif
