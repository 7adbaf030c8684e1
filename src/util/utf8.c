/* utf8.c: the UTF-8 decoder and printable text (utf8.h). */
#include "utf8.h"
#include <string.h>

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

const char *utf8_fit_left(const char *s, int width, char *out, size_t cap)
{
    if (!cap) return out;
    int n = utf8_count(s);
    const char *from = s;
    size_t at = 0;
    out[0] = 0;
    if (width < 1) return out;
    if (n > width) {
        static const char ell[] = "\xe2\x80\xa6";
        if (cap < sizeof ell) return out;
        memcpy(out, ell, sizeof ell - 1);
        at = sizeof ell - 1;
        for (int skip = n - (width - 1); *from && skip; from++)
            skip -= ((unsigned char)from[1] & 0xC0) != 0x80;
    }
    size_t len = strlen(from);
    if (at + len >= cap) {
        len = cap - 1 - at;
        while (len && ((unsigned char)from[len] & 0xC0) == 0x80) len--;
    }
    memcpy(out + at, from, len);
    out[at + len] = 0;
    return out;
}

/* The printable text of the character at p (before end) into out (room for
 * 16 bytes, no NUL): its bytes, or \xNN for each of them; *took: the bytes
 * of p it covers. Returns the bytes written. */
static size_t piece(const char *p, const char *end, int lines, char *out, size_t *took)
{
    static const char hex[] = "0123456789abcdef";
    uint32_t cp = 0;
    int n = utf8_decode(p, end, &cp);
    int shown = n > 0 && (cp >= 0x20 || (lines && cp == '\n')) && !(cp >= 0x7f && cp < 0xa0);
    if (n == 0) n = 1; /* an ill-formed byte: itself */
    *took = (size_t)n;
    if (shown) {
        memcpy(out, p, (size_t)n);
        return (size_t)n;
    }
    for (int i = 0; i < n; i++) {
        unsigned char c = (unsigned char)p[i];
        out[4 * i] = '\\';
        out[4 * i + 1] = 'x';
        out[4 * i + 2] = hex[c >> 4];
        out[4 * i + 3] = hex[c & 15];
    }
    return 4 * (size_t)n;
}

const char *utf8_printable_n(const char *s, size_t len, char *out, size_t cap)
{
    const char *p = s, *end = s + len;
    size_t k = 0, dots = 0; /* dots: where "..." goes if the rest does not fit */
    while (p < end) {
        char tmp[16];
        size_t took, w = piece(p, end, 0, tmp, &took);
        if (k + w + 1 > cap) { /* full: cut at the last character that leaves room */
            memcpy(out + dots, "...", 4);
            return out;
        }
        memcpy(out + k, tmp, w);
        k += w;
        if (k + 4 <= cap) dots = k;
        p += took;
    }
    out[k] = 0;
    return out;
}

const char *utf8_printable(const char *s, char *out, size_t cap)
{
    return utf8_printable_n(s, strlen(s), out, cap);
}

int utf8_fputs_printable(const char *s, FILE *f, int lines)
{
    return utf8_fwrite_printable(s, strlen(s), f, lines);
}

int utf8_fwrite_printable(const char *s, size_t len, FILE *f, int lines)
{
    const char *end = s + len;
    while (s < end) {
        const char *run = s; /* the bytes shown as they are, written at once */
        char tmp[16];
        size_t took = 0, w = 0;
        while (s < end && (w = piece(s, end, lines, tmp, &took)) == took)
            s += took; /* shown as it is: only an escape differs in length */
        if (s > run && fwrite(run, 1, (size_t)(s - run), f) != (size_t)(s - run)) return EOF;
        if (s < end) {
            if (fwrite(tmp, 1, w, f) != w) return EOF;
            s += took;
        }
    }
    return 0;
}

int utf8_encode(uint32_t cp, char *out)
{
    unsigned char *o = (unsigned char *)out;
    int n = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) n = 0;
    static const unsigned char lead[] = {0, 0, 0xC0, 0xE0, 0xF0};
    for (int i = n - 1; i > 0; i--, cp >>= 6) o[i] = (unsigned char)(0x80 | (cp & 0x3F));
    if (n) o[0] = (unsigned char)(n == 1 ? cp : lead[n] | cp);
    o[n] = 0;
    return n;
}
