/* json.c: JSON string literals and type words (json.h). */
#include "json.h"
#include "utf8.h"
#include <stdint.h>
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
        if (c >= 0x80) { /* C1 as U+009B (CSI); each ill-formed byte as U+FFFD */
            uint32_t cp;
            int len = utf8_decode((const char *)p, NULL, &cp);
            if (len > 1 && cp > 0x9F) {
                p += len - 1;
                continue;
            }
            c = len ? cp : 0xFFFD;
            took = len ? (size_t)len : 1;
        }
        if (c == '"' || c == '\\') {
            esc[0] = '\\';
            esc[1] = (char)c;
            n = 2;
        } else if (c < 0x20 || c >= 0x7F) { /* no control reaches a terminal */
            char u[6] = {'\\', 'u', hex[c >> 12], hex[c >> 8 & 15], hex[c >> 4 & 15], hex[c & 15]};
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
