/* jnum.h: JSON numbers from text without strtod's locale: plain integers
 * exactly, any number correctly rounded to a double. For the graph loader's
 * single pass (issue 46); the text need not end in a NUL. Exports jnum_*. */
#ifndef MEMTRIS_JNUM_H
#define MEMTRIS_JNUM_H
#include <stddef.h>
#include <stdint.h>

/* The largest integer jnum_uint takes: 2^53-1, so that every one is exactly a double. */
#define JNUM_UINT_MAX 9007199254740991ULL

/* A plain non-negative integer at p: 1 to 16 digits, at most JNUM_UINT_MAX, no leading zero
 * but "0" alone, and no fraction or exponent after it (so its value is the double cJSON
 * would make). 0 with *out and *after (just past it) set; -1 for anything else, with
 * nothing set. */
static inline int jnum_uint(const char *p, const char *end, uint64_t *out, const char **after)
{
    const char *q = p, *stop = end - p > 17 ? p + 17 : end;
    uint64_t v = 0;
    while (q < stop && (unsigned char)(*q - '0') < 10) v = v * 10 + (uint64_t)(*q++ - '0');
    size_t n = (size_t)(q - p);
    if (n == 0 || n > 16 || v > JNUM_UINT_MAX || (n > 1 && *p == '0')) return -1;
    if (q < end && (*q == '.' || *q == 'e' || *q == 'E')) return -1;
    *out = v;
    *after = q;
    return 0;
}

/* A JSON number (RFC 8259's grammar, any length) at p: 0 with *out set to
 * its value correctly rounded (to the nearest double, ties to even; +-inf
 * past the largest, as strtod) and *after just past it (a leading zero ends
 * it: "01" is 0, then "1"); -1 when p holds no such number (or, past 63
 * characters, memory is out). The same in every locale. */
int jnum_double(const char *p, const char *end, double *out, const char **after);

#endif
