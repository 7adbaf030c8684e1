/* units.c: human-readable byte counts, binary prefixes, one decimal. */
#include "units.h"
#include <stdio.h>

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
