/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* Whole-text, range-checked number parsing for the programs (number.h). */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>

#include "number.h"

int number_parse(const char *text, int base, unsigned long long max,
		 unsigned long long *value)
{
	const char *p = text;
	unsigned long long v;
	char *end;
	int saved = errno, rc = 0;

	while (isspace((unsigned char)*p))
		p++;
	if (*p == '+')
		p++;
	/* strtoull() would take another sign or blank here; we do not. */
	if (!isxdigit((unsigned char)*p))
		return EINVAL;
	errno = 0;
	v = strtoull(p, &end, base);
	if (end == p || *end != '\0')
		rc = EINVAL;
	else if (errno == ERANGE || v > max)
		rc = ERANGE;
	else if (errno != 0)
		rc = EINVAL;
	errno = saved;
	if (rc == 0)
		*value = v;
	return rc;
}
