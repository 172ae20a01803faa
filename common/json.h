/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * The --json output shared by getcap, getpcaps and capsh: one object per
 * line, a "schema" field first, masks as hex strings plus the names in
 * them, so scripts stop scraping text that was never meant to be parsed.
 */
#ifndef COMMON_JSON_H
#define COMMON_JSON_H

#include <stdint.h>
#include <stdio.h>
#include <sys/capability.h>

/* Bumped only when a field changes meaning or disappears; additions keep it. */
#define JSON_SCHEMA 1

/* A JSON string; bytes that are not UTF-8 become U+FFFD. */
void json_string(FILE *out, const char *s);

/*
 * "key":"<path>" and, when the path is not valid UTF-8, also
 * "key_hex":"<every byte in hex>" so the exact name is never lost.
 */
void json_path(FILE *out, const char *key, const char *path);

/* "key":{"hex":"0x%016llx","names":["cap_chown",...,"41"]} */
void json_vector(FILE *out, const char *key, uint64_t mask);

/* "effective":{...},"permitted":{...},"inheritable":{...} */
void json_capset(FILE *out, cap_t caps);

#endif
