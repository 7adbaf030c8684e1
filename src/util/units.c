/* units.c: human-readable byte counts, binary prefixes, one decimal; and
 * sizes as people write them ("8 MiB"). */
#include "units.h"
#include <ctype.h>
#include <errno.h>
#include <math.h>
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

int64_t units_parse(const char *s)
{
    static const struct {
        const char *name;
        int shift;
    } unit[] = {{"", 0},    {"b", 0},    {"k", 10}, {"kb", 10}, {"kib", 10}, {"m", 20},
                {"mb", 20}, {"mib", 20}, {"g", 30}, {"gb", 30}, {"gib", 30}, {"t", 40},
                {"tb", 40}, {"tib", 40}, {"p", 50}, {"pb", 50}, {"pib", 50}};
    while (*s == ' ') s++;
    if (!isdigit((unsigned char)*s) && *s != '.') return -1;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || !(v >= 0)) return -1;
    while (*end == ' ') end++;
    char u[8];
    size_t n = strlen(end);
    while (n && end[n - 1] == ' ') n--;
    if (n >= sizeof u) return -1;
    for (size_t i = 0; i < n; i++) u[i] = (char)tolower((unsigned char)end[i]);
    u[n] = 0;
    for (size_t i = 0; i < sizeof unit / sizeof unit[0]; i++)
        if (!strcmp(u, unit[i].name)) {
            double bytes = ldexp(v, unit[i].shift);
            if (bytes >= 9.2e18) return -1;
            return (int64_t)(bytes + 0.5);
        }
    return -1;
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
