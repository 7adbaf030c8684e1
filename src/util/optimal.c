/* optimal.c: the optimality phrases and the one percentage of optimal.h.
 * Exports optimal_tenths, optimal_gap_tenths, optimal_pct, optimal_phrase,
 * optimal_frag_bytes, optimal_frag. */
#include "optimal.h"
#include <inttypes.h>
#include <stdio.h>
#include "units.h"

int64_t optimal_tenths(int64_t num, int64_t den)
{
    if (den <= 0 || num < 0) return -1;
    __int128 t = ((__int128)num * 2000 + den) / ((__int128)den * 2);
    return t > INT64_MAX ? INT64_MAX : (int64_t)t;
}

int64_t optimal_gap_tenths(int64_t value, int64_t bound)
{
    if (bound <= 0 || value < bound) return -1;
    return optimal_tenths(value - bound, bound); /* both >= 0: no overflow */
}

const char *optimal_pct(char *out, size_t cap, int64_t num, int64_t den)
{
    const char *sign = num < 0 ? "-" : "";
    /* -INT64_MIN does not fit: a share that large is INT64_MAX's */
    int64_t mag = num >= 0 ? num : num == INT64_MIN ? INT64_MAX : -num;
    int64_t t = optimal_tenths(mag, den);
    if (t < 0) snprintf(out, cap, "-");
    else if (t == 0 && mag > 0) snprintf(out, cap, "%s<0.1%%", sign);
    else snprintf(out, cap, "%s%" PRId64 ".%" PRId64 "%%", t ? sign : "", t / 10, t % 10);
    return out;
}

/* A value above a bound of 0: no share to give. */
static const char *over_zero(char *out, size_t cap, const char *value, int proven, int style)
{
    if (style == OPTIMAL_CELL) snprintf(out, cap, "-");
    else if (proven) snprintf(out, cap, "above the optimum 0 B");
    else if (style == OPTIMAL_SEARCH) snprintf(out, cap, "not proven: %s, bound 0 B", value);
    else if (style == OPTIMAL_TERSE || style == OPTIMAL_TINY)
        snprintf(out, cap, "not proven optimal");
    else snprintf(out, cap, "not proven optimal (lower bound 0 B)");
    return out;
}

const char *optimal_phrase(char *out, size_t cap, int64_t value, int64_t bound, int proven,
                           int style)
{
    char v[32], b[32], p[32];
    if (!cap) return out;
    if (value <= bound) { /* a proven bound reached: nothing peaks lower */
        if (style == OPTIMAL_CELL) snprintf(out, cap, "optimal");
        else if (style == OPTIMAL_SEARCH || style == OPTIMAL_VALUE)
            snprintf(out, cap, "optimal: %s (proven)", units_bytes(v, sizeof v, value, 0));
        else snprintf(out, cap, "optimal (proven)");
        return out;
    }
    units_bytes(v, sizeof v, value, 0);
    if (style == OPTIMAL_VALUE && !proven) {
        snprintf(out, cap, "not proven: %s", v);
        return out;
    }
    if (bound <= 0) return over_zero(out, cap, v, proven, style);
    optimal_pct(p, sizeof p, value - bound, bound);
    units_bytes(b, sizeof b, bound, 0);
    if (style == OPTIMAL_CELL && !proven) snprintf(out, cap, "-");
    else if (style == OPTIMAL_CELL) snprintf(out, cap, "+%s", p);
    else if (style == OPTIMAL_TINY)
        snprintf(out, cap, "+%s vs %s", p, proven ? "optimum" : "bound");
    else if (proven && style == OPTIMAL_TERSE) snprintf(out, cap, "%s above the optimum", p);
    else if (proven && style == OPTIMAL_VALUE) snprintf(out, cap, "%s, %s above the optimum", v, p);
    else if (proven) snprintf(out, cap, "%s above the optimum %s", p, b);
    else if (style == OPTIMAL_LONG)
        snprintf(out, cap, "not proven optimal: %s above the lower bound %s", p, b);
    else if (style == OPTIMAL_SHORT) snprintf(out, cap, "%s above the bound %s", p, b);
    else if (style == OPTIMAL_TERSE) snprintf(out, cap, "%s above the bound", p);
    else snprintf(out, cap, "not proven: %s, bound %s, gap %s", v, b, p);
    return out;
}

int64_t optimal_frag_bytes(int64_t arena, int64_t live_peak)
{
    return arena > live_peak && live_peak >= 0 ? arena - live_peak : 0;
}

const char *optimal_frag(char *out, size_t cap, int64_t arena, int64_t live_peak, int style)
{
    char v[32], p[32];
    int64_t f = optimal_frag_bytes(arena, live_peak);
    if (!cap) return out;
    units_bytes(v, sizeof v, f, 0);
    optimal_pct(p, sizeof p, f, arena);
    if (style == OPTIMAL_CELL) snprintf(out, cap, "%s", f ? p : "0.0%");
    else if (!f || style == OPTIMAL_TINY) snprintf(out, cap, "%s", v);
    else if (style == OPTIMAL_TERSE) snprintf(out, cap, "%s (%s)", v, p);
    else if (style == OPTIMAL_SHORT) snprintf(out, cap, "%s (%s of the arena)", v, p);
    else snprintf(out, cap, "%s (%" PRId64 " bytes), %s of the arena", v, f, p);
    return out;
}
