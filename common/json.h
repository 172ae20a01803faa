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

/*
 * Opens one output line's object: '{', "schema":JSON_SCHEMA and, when type
 * is not NULL, "type":"<type>" (for outputs whose lines come in several
 * kinds), each field followed by its comma, so the caller writes its own
 * fields next and closes the object. Every program opens its objects
 * here, so the field that tells a script which rules the line follows is
 * written one way everywhere.
 */
void json_object_open(FILE *out, const char *type);

/*
 * A JSON string, safe for whoever displays it: C0 controls, DEL, C1
 * controls (U+0080..U+009F), U+061C, U+200E, U+200F, U+2028..U+202E and
 * U+2066..U+2069 are written as \uXXXX escapes, so the output stays one
 * line of valid JSON and no viewer acts on or reorders what it shows.
 * Other valid UTF-8 passes through. A byte that is not part of valid
 * UTF-8 cannot be carried by a JSON string at all: each becomes \ufffd
 * (U+FFFD, the replacement character). Where the exact bytes matter (a
 * path, a command name), use json_path(), which adds them in hex.
 */
void json_string(FILE *out, const char *s);

/* 1 when s is valid UTF-8 (json_string() then keeps every character). */
int json_is_utf8(const char *s);

/*
 * The length of the well-formed UTF-8 sequence at s (1 to 4 bytes), or 0
 * when none starts there: a stray byte, an overlong form, a surrogate, a
 * code point past U+10FFFF. It reads no further than a NUL byte.
 */
size_t json_utf8_length(const char *s);

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
