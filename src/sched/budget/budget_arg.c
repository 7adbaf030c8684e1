/* budget_arg.c: a budget as the user writes it: bytes or N% of the budget-free peak, read and
 * worked out in integers, and what may be used to fit, read the same way by memtris budget and
 * the TUI. Exports budget_arg_*. */
#include "budget_arg.h"
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "budget.h"
#include "util/units.h"

/* "N%" or "N.DDDDDD%" (at most 6 decimals) in millionths of a percent: 0, or -1. */
static int parse_pct(const char *arg, int64_t *pct)
{
    const char *p = arg;
    int64_t whole = 0, frac = 0, scale = BUDGET_PCT_ONE;
    if (!isdigit((unsigned char)*p)) return -1;
    for (; isdigit((unsigned char)*p); p++) {
        whole = whole * 10 + (*p - '0');
        if (whole > BUDGET_PCT_MAX / BUDGET_PCT_ONE) return -1;
    }
    if (*p == '.') {
        if (!isdigit((unsigned char)*++p)) return -1;
        for (; isdigit((unsigned char)*p); p++) {
            if (scale == 1) return -1; /* a seventh decimal */
            scale /= 10;
            frac += (*p - '0') * scale;
        }
    }
    if (strcmp(p, "%")) return -1;
    int64_t v = whole * BUDGET_PCT_ONE + frac;
    if (v < 1 || v > BUDGET_PCT_MAX) return -1;
    *pct = v;
    return 0;
}

int budget_arg_parse(const char *arg, int64_t *bytes, int64_t *pct)
{
    size_t n = strlen(arg);
    *bytes = 0;
    *pct = 0;
    if (n && arg[n - 1] == '%') return parse_pct(arg, pct);
    int64_t v = units_parse(arg);
    if (v < 1) return -1;
    *bytes = v;
    return 0;
}

int budget_arg_of_pct(int64_t free_peak, int64_t pct, int64_t *bytes)
{
    unsigned __int128 b = (unsigned __int128)(free_peak > 0 ? free_peak : 0) * (uint64_t)pct /
                          (uint64_t)(100 * BUDGET_PCT_ONE);
    if (pct < 0 || b > (unsigned __int128)INT64_MAX) return -1;
    *bytes = (int64_t)b;
    return 0;
}

const char *budget_arg_pct_words(char *out, size_t cap, int64_t pct)
{
    char frac[16];
    int64_t f = pct % BUDGET_PCT_ONE;
    snprintf(frac, sizeof frac, ".%06" PRId64, f);
    size_t n = strlen(frac);
    while (n > 1 && frac[n - 1] == '0') frac[--n] = 0;
    snprintf(out, cap, "%" PRId64 "%s%%", pct / BUDGET_PCT_ONE, f ? frac : "");
    return out;
}

int budget_arg_allow(const char *arg, unsigned *allow)
{
    *allow = 0;
    for (const char *w = arg;;) {
        size_t len = strcspn(w, ",");
        if (len == 9 && !strncmp(w, "recompute", 9)) *allow |= BUDGET_ALLOW_RECOMPUTE;
        else if (len == 7 && !strncmp(w, "offload", 7)) *allow |= BUDGET_ALLOW_OFFLOAD;
        else return -1;
        if (!w[len]) return 0;
        w += len + 1;
    }
}

const char *budget_arg_solvers(char *out, size_t cap, const char *sep)
{
    size_t len = 0;
    if (cap) out[0] = 0;
    for (size_t i = 0; i < budget_solver_count() && len < cap; i++) {
        int n = snprintf(out + len, cap - len, "%s%s", i ? sep : "", budget_solver_at(i)->name);
        if (n < 0) break;
        len += (size_t)n;
    }
    return out;
}
