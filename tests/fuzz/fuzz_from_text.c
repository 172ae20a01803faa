/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * libFuzzer harness for cap_from_text(). Property: text that parses renders
 * through cap_to_text() to a text that parses to an equal set, and that
 * rendering is a fixed point; text that does not parse fails with EINVAL.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>

#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_string(data, size);
	cap_t caps, again;
	char *out, *out2;
	ssize_t len = -1;

	errno = 0;
	caps = cap_from_text(text);
	if (caps == NULL) {
		FUZZ_ASSERT(errno == EINVAL || errno == ENOMEM);
		free(text);
		return 0;
	}
	out = cap_to_text(caps, &len);
	FUZZ_ASSERT(out != NULL);
	FUZZ_ASSERT(len == (ssize_t)strlen(out));
	again = cap_from_text(out);
	FUZZ_ASSERT(again != NULL);
	FUZZ_ASSERT(cap_compare(caps, again) == 0);
	out2 = cap_to_text(again, NULL);
	FUZZ_ASSERT(out2 != NULL && strcmp(out, out2) == 0);
	cap_free(out2);
	cap_free(again);
	cap_free(out);
	cap_free(caps);
	free(text);
	return 0;
}
