/* load_unescape.c: escapes decoded as cJSON decodes them (load_unescape.h). Moved out of
 * load_fast.c unchanged but for its way of giving up. Exports load_unescape. */
#include "load_unescape.h"
#include <stdint.h>
#include <string.h>
#include "util/utf8.h"

#define BAD_HEX 0xFFFFFFFFu

/* The 4 hex digits at q, as cJSON's parse_hex4 reads them; BAD_HEX if they are not. */
static uint32_t hex4(const char *q, const char *end)
{
    uint32_t v = 0;
    if (end - q < 4) return BAD_HEX;
    for (int i = 0; i < 4; i++) {
        char c = q[i];
        int d = c >= '0' && c <= '9'   ? c - '0'
                : c >= 'a' && c <= 'f' ? c - 'a' + 10
                : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                       : -1;
        if (d < 0) return BAD_HEX;
        v = v * 16 + (uint32_t)d;
    }
    return v;
}

int load_unescape(const char *start, const char *q, const char *end, char *out, size_t room,
                  size_t *n, const char **close)
{
    char *o = out, *lim = out + room;
    if ((size_t)(q - start) > room) return -1;
    memcpy(o, start, (size_t)(q - start));
    o += q - start;
    for (;;) {
        if (q >= end || lim - o < 5) return -1;
        unsigned char c = (unsigned char)*q;
        uint32_t cp;
        if (c == '"') break;
        if (c < 0x20) return -1;
        if (c != '\\') {
            int k = c < 0x80 ? 1 : utf8_decode(q, end, &cp);
            if (!k) return -1;
            memcpy(o, q, (size_t)k);
            o += k;
            q += k;
            continue;
        }
        if (end - q < 2) return -1;
        if (q[1] != 'u') {
            char e = q[1] == '"' || q[1] == '\\' || q[1] == '/' ? q[1]
                     : q[1] == 'b'                              ? '\b'
                     : q[1] == 'f'                              ? '\f'
                     : q[1] == 'n'                              ? '\n'
                     : q[1] == 'r'                              ? '\r'
                     : q[1] == 't'                              ? '\t'
                                                                : 0;
            if (!e) return -1;
            *o++ = e;
            q += 2;
            continue;
        }
        cp = hex4(q + 2, end);
        q += 6;
        if (cp == BAD_HEX || cp == 0 || (cp >= 0xDC00 && cp <= 0xDFFF)) return -1;
        if (cp >= 0xD800 && cp <= 0xDBFF) {
            if (end - q < 6 || q[0] != '\\' || q[1] != 'u') return -1;
            uint32_t lo = hex4(q + 2, end);
            if (lo == BAD_HEX || lo < 0xDC00 || lo > 0xDFFF) return -1;
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            q += 6;
        }
        int k = utf8_encode(cp, o);
        if (!k) return -1;
        o += k;
    }
    *n = (size_t)(o - out);
    *close = q;
    return 0;
}
