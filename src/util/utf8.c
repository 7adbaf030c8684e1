/* utf8.c: the UTF-8 decoder (utf8.h). */
#include "utf8.h"
#include <stddef.h>

int utf8_decode(const char *s, const char *end, uint32_t *cp)
{
    const unsigned char *p = (const unsigned char *)s, *e = (const unsigned char *)end;
    if (e && p >= e) return 0;
    unsigned char c = p[0];
    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    int n;
    unsigned char lo = 0x80, hi = 0xBF; /* the second byte's range */
    if (c >= 0xC2 && c <= 0xDF) n = 2;
    else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        if (c == 0xE0) lo = 0xA0; /* overlong */
        if (c == 0xED) hi = 0x9F; /* UTF-16 surrogates */
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        if (c == 0xF0) lo = 0x90; /* overlong */
        if (c == 0xF4) hi = 0x8F; /* past U+10FFFF */
    } else return 0;
    uint32_t v = c & (0x7Fu >> n);
    for (int i = 1; i < n; i++) { /* a NUL ends the string: no read past it */
        if ((e && p + i >= e) || p[i] < (i == 1 ? lo : 0x80) || p[i] > (i == 1 ? hi : 0xBF))
            return 0;
        v = v << 6 | (p[i] & 0x3Fu);
    }
    *cp = v;
    return n;
}

int utf8_count(const char *s)
{
    int n = 0;
    for (; *s; s++) n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}
