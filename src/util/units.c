/* units.c: human-readable byte counts, binary prefixes, one decimal; and sizes as people
 * write them ("8MiB", "1.5G"), read exactly in integers. */
#include "units.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *units_bytes(char *out, size_t cap, int64_t bytes, int sign)
{
    static const char *unit[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    const char *pre = bytes < 0 ? "-" : sign && bytes > 0 ? "+" : "";
    uint64_t mag = bytes < 0 ? (uint64_t)0 - (uint64_t)bytes : (uint64_t)bytes;
    if (mag < 1024) {
        snprintf(out, cap, "%s%llu B", pre, (unsigned long long)mag);
        return out;
    }
    int u = 0;
    double v = (double)mag;
    while (v >= 1024 && u < 6) {
        v /= 1024;
        u++;
    }
    if (v >= 1023.95 && u < 6) {
        v /= 1024;
        u++;
    } /* "1024.0 KiB" reads as 1.0 MiB */
    snprintf(out, cap, "%s%.1f %s", pre, v, unit[u]);
    return out;
}

char *units_bytes_beside(char *out, size_t cap, int64_t x, int64_t y)
{
    char other[32];
    units_bytes(out, cap, x, 0);
    units_bytes(other, sizeof other, y, 0);
    size_t n = strlen(out);
    if (x != y && !strcmp(out, other)) snprintf(out + n, cap - n, " (%lld bytes)", (long long)x);
    return out;
}

/* The shift of a unit's binary prefix ("" and B: 0, K/KB/KiB: 10, ... E/EB/EiB: 60, case
 * ignored), or -1 for anything else. */
static int unit_shift(const char *u)
{
    static const char prefix[] = "kmgtpe";
    char low[4] = {0};
    size_t n = strlen(u);
    if (n > 3) return -1;
    for (size_t i = 0; i < n; i++) low[i] = (char)tolower((unsigned char)u[i]);
    if (!n || !strcmp(low, "b")) return 0;
    const char *at = strchr(prefix, low[0]);
    if (!at || (n >= 2 && strcmp(low + 1, n == 2 ? "b" : "ib"))) return -1;
    return 10 * (int)(at - prefix + 1);
}

/* floor(0.DIGITS * 2^shift) for the n decimal digits at d, exactly: the fraction doubled shift
 * times in decimal, each carry a bit. Digits past the 64th cannot change it (a fraction m/2^s
 * has at most s <= 60 decimals), so they are dropped. */
static uint64_t fraction_bits(const char *d, size_t n, int shift)
{
    char x[64];
    if (n > sizeof x) n = sizeof x;
    for (size_t i = 0; i < n; i++) x[i] = (char)(d[i] - '0');
    uint64_t bits = 0;
    for (int k = 0; k < shift; k++) {
        int carry = 0;
        for (size_t i = n; i-- > 0;) {
            int v = x[i] * 2 + carry;
            x[i] = (char)(v % 10);
            carry = v / 10;
        }
        bits = bits * 2 + (uint64_t)carry;
    }
    return bits;
}

int64_t units_parse(const char *s)
{
    const char *p = s;
    uint64_t whole = 0;
    while (*p == ' ') p++;
    if (!isdigit((unsigned char)*p)) return -1; /* no sign, point or empty text first */
    for (; isdigit((unsigned char)*p); p++) {
        if (whole > (uint64_t)INT64_MAX / 10) return -1;
        whole = whole * 10 + (uint64_t)(*p - '0');
    }
    const char *frac = NULL;
    size_t nfrac = 0;
    if (*p == '.') {
        frac = ++p;
        while (isdigit((unsigned char)*p)) p++;
        nfrac = (size_t)(p - frac);
        if (!nfrac) return -1;
    }
    while (*p == ' ') p++; /* "8 MiB", as memtris writes sizes */
    char unit[8];
    size_t n = strlen(p);
    while (n && p[n - 1] == ' ') n--;
    if (n >= sizeof unit) return -1;
    memcpy(unit, p, n);
    unit[n] = 0;
    int shift = unit_shift(unit);
    if (shift < 0 || (frac && !shift)) return -1; /* bytes are whole */
    if (whole > (uint64_t)INT64_MAX >> shift) return -1;
    uint64_t v = whole << shift, part = frac ? fraction_bits(frac, nfrac, shift) : 0;
    if (part > (uint64_t)INT64_MAX - v) return -1;
    return (int64_t)(v + part);
}

char *units_ms(char *out, size_t cap, double ms)
{
    if (!(ms > 0)) snprintf(out, cap, "0 ms");
    else if (ms < 1) snprintf(out, cap, "%.3g ms", ms);
    else if (ms < 10) snprintf(out, cap, "%.2f ms", ms);
    else if (ms < 1000) snprintf(out, cap, "%.1f ms", ms);
    else if (ms < 60000) snprintf(out, cap, "%.2f s", ms / 1000);
    else if (ms < 6e7) snprintf(out, cap, "%.1f min", ms / 60000);
    else if (ms < 3.6e11) snprintf(out, cap, "%.0f h", ms / 3600000);
    else snprintf(out, cap, "%.3g h", ms / 3600000);
    return out;
}
