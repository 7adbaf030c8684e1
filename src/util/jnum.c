/* jnum.c: JSON numbers without the locale. Integers digit by digit; doubles
 * by Clinger's fast path (a mantissa of at most 2^53 and a power of ten of
 * at most 22 either way are both exact doubles, so one IEEE multiply or
 * divide rounds the exact value once, correctly) and else strtod_l in a "C"
 * locale object made once (glibc's rounds correctly). Exports jnum_*. */
#define _GNU_SOURCE
#include "jnum.h"
#include <float.h>
#include <locale.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static int digit(const char *p, const char *end) { return p < end && *p >= '0' && *p <= '9'; }

/* Where the JSON number at p ends, or NULL when there is none. */
static const char *number_end(const char *p, const char *end)
{
    if (p < end && *p == '-') p++;
    if (!digit(p, end)) return NULL;
    if (*p == '0') p++;
    else
        while (digit(p, end)) p++;
    if (p < end && *p == '.') {
        if (!digit(++p, end)) return NULL;
        while (digit(p, end)) p++;
    }
    if (p < end && (*p == 'e' || *p == 'E')) {
        p++;
        if (p < end && (*p == '+' || *p == '-')) p++;
        if (!digit(p, end)) return NULL;
        while (digit(p, end)) p++;
    }
    return p;
}

static const double pow10_exact[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                       1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                       1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* Clinger's fast path over the number [p, q): 0 with *out, or -1 when it
 * does not apply. */
static int fast_path(const char *p, const char *q, double *out)
{
#if FLT_EVAL_METHOD != 0 /* wider intermediates would round twice */
    (void)p;
    (void)q;
    (void)out;
    return -1;
#else
    int neg = *p == '-';
    if (neg) p++;
    uint64_t w = 0;
    int sig = 0, point = 0;
    long e10 = 0; /* the value is w * 10^e10 */
    for (; p < q && *p != 'e' && *p != 'E'; p++) {
        if (*p == '.') {
            point = 1;
            continue;
        }
        if (point) e10--;
        if (w == 0 && *p == '0') continue; /* leading zeros are not significant */
        if (++sig > 19) return -1;
        w = w * 10 + (uint64_t)(*p - '0');
    }
    if (p < q) { /* the exponent */
        int eneg = *++p == '-';
        if (*p == '+' || *p == '-') p++;
        long x = 0;
        for (; p < q; p++)
            if ((x = x * 10 + (*p - '0')) > 100000) return -1;
        e10 += eneg ? -x : x;
    }
    if (w > ((uint64_t)1 << 53)) return -1;
    double v = (double)w;
    if (w == 0) v = 0;
    else if (e10 < -22 || e10 > 22) return -1;
    else v = e10 < 0 ? v / pow10_exact[-e10] : v * pow10_exact[e10];
    *out = neg ? -v : v;
    return 0;
#endif
}

static locale_t c_locale;
static pthread_once_t c_locale_once = PTHREAD_ONCE_INIT;
static void make_c_locale(void) { c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0); }

int jnum_double(const char *p, const char *end, double *out, const char **after)
{
    const char *q = number_end(p, end);
    if (!q) return -1;
    if (fast_path(p, q, out)) {
        char small[64], *buf = q - p < 64 ? small : malloc((size_t)(q - p) + 1);
        pthread_once(&c_locale_once, make_c_locale);
        if (!buf || !c_locale) { /* out of memory */
            if (buf != small) free(buf);
            return -1;
        }
        memcpy(buf, p, (size_t)(q - p));
        buf[q - p] = '\0';
        *out = strtod_l(buf, NULL, c_locale);
        if (buf != small) free(buf);
    }
    *after = q;
    return 0;
}
