/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * Whole-text number parsing for the programs' options: a value that wraps
 * (capsh --uid=4294967296 was uid 0, setcap -n 4294967296 wrote a v2
 * capability) or carries junk is an error, never something else.
 */
#ifndef COMMON_NUMBER_H
#define COMMON_NUMBER_H

/*
 * Parses all of text as one unsigned number in base (0: C prefixes, 0x
 * hexadecimal and 0 octal, as strtoull(3) reads them). Leading blanks and
 * one '+' are accepted, as strtoull() accepts them; a '-' is not (strtoull
 * would negate the value). Returns 0 with *value set, EINVAL when text is
 * not a number (no digits, a '-', anything after the digits) or ERANGE
 * when the value is above max. *value is untouched on error; errno is
 * left alone.
 */
int number_parse(const char *text, int base, unsigned long long max,
		 unsigned long long *value);

#endif
