/* budget_arg.c: a budget as the user writes it: bytes or N% of the budget-free peak, and what
 * may be used to fit, read the same way by memtris budget and the TUI. Exports budget_arg_*. */
#include "budget_arg.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "budget.h"
#include "util/units.h"

int budget_arg_parse(const char *arg, int64_t *bytes, double *pct)
{
    size_t n = strlen(arg);
    *bytes = 0;
    *pct = 0;
    if (n > 1 && arg[n - 1] == '%' && arg[n - 2] != ' ') {
        char *end;
        double v = strtod(arg, &end);
        if (end == arg + n - 1 && isfinite(v) && v > 0 && v <= 1e6 &&
            (arg[0] >= '0' && arg[0] <= '9')) {
            *pct = v;
            return 0;
        }
        return -1;
    }
    int64_t v = units_parse(arg);
    if (v < 1) return -1;
    *bytes = v;
    return 0;
}

int64_t budget_arg_of_pct(int64_t free_peak, double pct)
{
    return (int64_t)floor((double)free_peak * pct / 100);
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
