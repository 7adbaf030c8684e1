/* json.h: JSON for every layer that reads or writes it: string literals out,
 * and the words messages use for a parsed value's type. (The strict syntax
 * check that decides what is JSON is jscan.h.) Exports json_*. */
#ifndef MEMTRIS_JSON_H
#define MEMTRIS_JSON_H
#include <stdio.h>
#include <cjson/cJSON.h>

/* Writes s as a JSON string literal: '"' and '\\' escaped, control
 * characters as \u00XX, everything else as it is. */
void json_string(FILE *f, const char *s);
/* "a string", "a number", "a boolean", "null", "an array", "an object",
 * "nothing" (NULL) or "an invalid value". */
const char *json_type_word(const cJSON *v);

#endif
