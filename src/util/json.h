/* json.h: JSON for every layer that reads or writes it: string literals out
 * (the one escaping, which jw.h's writer uses too), and the words messages use
 * for a parsed value's type. (The strict syntax check that decides what is
 * JSON is jscan.h.) Exports json_*. */
#ifndef MEMTRIS_JSON_H
#define MEMTRIS_JSON_H
#include <stdio.h>
#include <cjson/cJSON.h>

/* s as a JSON string literal, in pieces handed to put(ctx, bytes, len):
 * '"' and '\\' escaped, control characters (C0, DEL and C1, U+0080..U+009F)
 * as \u00XX, each byte that is not part of well-formed UTF-8 (a file name
 * from the command line) as \ufffd, everything else as it is: the same
 * string when it is UTF-8, always valid JSON, none of whose bytes can drive
 * a terminal. */
void json_string_to(const char *s, void (*put)(void *ctx, const char *p, size_t n), void *ctx);
/* "a string", "a number", "a boolean", "null", "an array", "an object",
 * "nothing" (NULL) or "an invalid value". */
const char *json_type_word(const cJSON *v);

#endif
