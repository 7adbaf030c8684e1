/* json.c: JSON string literals and type words (json.h). */
#include "json.h"
#include <string.h>

void json_string_to(const char *s, void (*put)(void *ctx, const char *p, size_t n), void *ctx)
{
    static const char hex[] = "0123456789abcdef";
    put(ctx, "\"", 1);
    const char *run = s; /* the bytes written as they are, since the last escape */
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        char esc[6];
        size_t n, took = 1;
        unsigned c = *p;
        if (c == 0xC2 && p[1] >= 0x80 && p[1] <= 0x9F) { /* C1, as U+009B (CSI) */
            c = p[1];
            took = 2;
        }
        if (c == '"' || c == '\\') {
            esc[0] = '\\';
            esc[1] = (char)c;
            n = 2;
        } else if (c < 0x20 || c == 0x7F || took == 2) { /* no control reaches a terminal */
            char u[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
            for (n = 0; n < 6; n++) esc[n] = u[n];
        } else continue;
        if ((const char *)p > run) put(ctx, run, (size_t)((const char *)p - run));
        put(ctx, esc, n);
        run = (const char *)p + took;
        p += took - 1;
    }
    if (*run) put(ctx, run, strlen(run));
    put(ctx, "\"", 1);
}

const char *json_type_word(const cJSON *v)
{
    if (!v) return "nothing";
    if (cJSON_IsNull(v)) return "null";
    if (cJSON_IsBool(v)) return "a boolean";
    if (cJSON_IsNumber(v)) return "a number";
    if (cJSON_IsString(v)) return "a string";
    if (cJSON_IsArray(v)) return "an array";
    if (cJSON_IsObject(v)) return "an object";
    return "an invalid value";
}
