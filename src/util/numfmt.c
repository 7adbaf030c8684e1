/* numfmt.c: integers and %.*g doubles as text (numfmt.h).
 * numfmt_g_fast proves its digits equal printf's: for 1 <= P <= 15 and
 * 1e-4 <= |v| < 1e15, take X = floor(log10|v|) and d = P-1-X; s = |v|*10^d is
 * one correctly rounded product (10^d is exact) with s < 10^P < 2^53, so it is
 * within s*2^-53 of the exact product. Away from a half (by more than twice
 * that) it rounds to the exact product's nearest integer r, which printf's
 * P-digit rounding makes too; when 10^(P-1) <= r < 10^P, X is %g's exponent,
 * so %g writes style f with d decimals: r with the point d digits from its
 * right, trailing zeros and a bare point removed. Anything else goes to
 * snprintf. */
#include "numfmt.h"
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static const char pairs[201] = "00010203040506070809101112131415161718192021222324"
                               "25262728293031323334353637383940414243444546474849"
                               "50515253545556575859606162636465666768697071727374"
                               "75767778798081828384858687888990919293949596979899";

static const uint64_t pow10u[20] = {1u,
                                    10u,
                                    100u,
                                    1000u,
                                    10000u,
                                    100000u,
                                    1000000u,
                                    10000000u,
                                    100000000u,
                                    1000000000u,
                                    10000000000u,
                                    100000000000u,
                                    1000000000000u,
                                    10000000000000u,
                                    100000000000000u,
                                    1000000000000000u,
                                    10000000000000000u,
                                    100000000000000000u,
                                    1000000000000000000u,
                                    10000000000000000000u};

/* The number of decimal digits of v (1 for 0), without a loop: log10 from
 * the bit length (1233/4096 ~ log10(2)), one less below that power of ten
 * (10^k is even, so v | 1 has v's digits). */
static int digits_of(uint64_t v)
{
    v |= 1; /* the same number of digits, and a bit for clz */
    int t = (64 - __builtin_clzll(v)) * 1233 >> 12;
    return t + 1 - (v < pow10u[t]);
}

char *numfmt_u64(char *out, uint64_t v)
{
    int n = digits_of(v);
    char *p = out + n;
    if (v <= UINT32_MAX) { /* the common case, in cheaper 32-bit arithmetic */
        uint32_t u = (uint32_t)v;
        while (u >= 100) {
            unsigned k = u % 100 * 2;
            u /= 100;
            *--p = pairs[k + 1];
            *--p = pairs[k];
        }
        v = u;
    }
    while (v >= 100) {
        unsigned k = (unsigned)(v % 100) * 2;
        v /= 100;
        *--p = pairs[k + 1];
        *--p = pairs[k];
    }
    if (v >= 10) {
        *--p = pairs[v * 2 + 1];
        *--p = pairs[v * 2];
    } else *--p = (char)('0' + v);
    return out + n;
}

static const double pow10d[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,
                                1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19};

size_t numfmt_g_fast(char *out, double v, int prec)
{
#if FLT_EVAL_METHOD != 0
    return 0; /* products in wider registers: the proof above does not hold */
#endif
    if (prec < 1 || prec > 15) return 0;
    if (v == 0) { /* %g writes 0 and -0 */
        size_t n = 0;
        if (signbit(v)) out[n++] = '-';
        out[n++] = '0';
        out[n] = 0;
        return n;
    }
    double a = fabs(v);
    if (!(a >= 1e-4 && a < 1e15)) return 0;     /* NaN, infinities and style e */
    int x;                                      /* floor(log10(a)), or one off near 10^x */
    if (a >= 1) x = digits_of((uint64_t)a) - 1; /* a < 1e15: exact */
    else {
        x = -1;
        while (x > -4 && a < 1 / pow10d[-x]) x--;
    }
    int d = prec - 1 - x;
    if (d < 0) return 0;                                             /* style e */
    double s = a * pow10d[d], f = (double)(uint64_t)s, frac = s - f; /* 0 <= s < 2^53 */
    if (fabs(frac - 0.5) <= s * 0x1p-52) return 0;                   /* too near a half to tell */
    uint64_t r = (uint64_t)f + (frac > 0.5);
    uint64_t lo = (uint64_t)pow10d[prec - 1], hi = (uint64_t)pow10d[prec];
    if (r < lo || r >= hi) return 0; /* x was one off, or rounding carried */
    /* trailing zeros, 8, 4, 2 and 1 at a time (constant divisors: no division) */
    if (d >= 8 && r % 100000000u == 0) {
        r /= 100000000u;
        d -= 8;
    }
    if (d >= 4 && r % 10000u == 0) {
        r /= 10000u;
        d -= 4;
    }
    if (d >= 2 && r % 100u == 0) {
        r /= 100u;
        d -= 2;
    }
    if (d >= 1 && r % 10u == 0) {
        r /= 10u;
        d -= 1;
    }
    size_t n = 0;
    if (v < 0) out[n++] = '-';
    int nd = digits_of(r);
    if (nd > d) { /* an integer part: r's digits, then the point moved in */
        char *e = numfmt_u64(out + n, r);
        if (d) {
            for (int k = 0; k < d; k++) e[-k] = e[-k - 1];
            e[-d] = '.';
            e++;
        }
        n = (size_t)(e - out);
    } else { /* 0.000ddd */
        out[n++] = '0';
        out[n++] = '.';
        for (int k = nd; k < d; k++) out[n++] = '0';
        n = (size_t)(numfmt_u64(out + n, r) - out);
    }
    out[n] = 0;
    return n;
}

size_t numfmt_g(char *out, double v, int prec)
{
    size_t n = numfmt_g_fast(out, v, prec);
    if (n) return n;
    int k = snprintf(out, NUMFMT_G_CAP, "%.*g", prec, v);
    return k > 0 ? (size_t)k : 0;
}
