/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * libFuzzer harness for cap_iab_from_text(). Property: text that parses
 * renders through cap_iab_to_text() to a text that parses to an IAB equal
 * to it on every bit below cap_max_bits (libcap prints only those, so
 * "!63" renders as ""), that rendering is a fixed point and parses back to
 * an IAB equal per cap_iab_compare(); text that does not parse
 * fails with EINVAL (or ENOMEM).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>

#include "fuzz.h"

static const cap_iab_vector_t vectors[] = {
	CAP_IAB_INH,
	CAP_IAB_AMB,
	CAP_IAB_BOUND,
};

/* Do a and b agree on every vector below cap_max_bits? */
static int same_below_max(cap_iab_t a, cap_iab_t b)
{
	cap_value_t v;
	size_t i;

	for (v = 0; v < cap_max_bits(); v++)
		for (i = 0; i < sizeof(vectors) / sizeof(vectors[0]); i++)
			if (cap_iab_get_vector(a, vectors[i], v) !=
			    cap_iab_get_vector(b, vectors[i], v))
				return 0;
	return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_string(data, size);
	cap_iab_t iab, again, again2;
	char *out, *out2;

	errno = 0;
	iab = cap_iab_from_text(text);
	if (iab == NULL) {
		FUZZ_ASSERT(errno == EINVAL || errno == ENOMEM);
		free(text);
		return 0;
	}
	out = cap_iab_to_text(iab);
	FUZZ_ASSERT(out != NULL);
	again = cap_iab_from_text(out);
	FUZZ_ASSERT(again != NULL);
	FUZZ_ASSERT(same_below_max(iab, again));
	out2 = cap_iab_to_text(again);
	FUZZ_ASSERT(out2 != NULL && strcmp(out, out2) == 0);
	/* The rendered form is canonical: parsing it again changes nothing. */
	again2 = cap_iab_from_text(out2);
	FUZZ_ASSERT(again2 != NULL && cap_iab_compare(again, again2) == 0);
	cap_free(again2);
	cap_free(out2);
	cap_free(again);
	cap_free(out);
	cap_free(iab);
	free(text);
	return 0;
}
