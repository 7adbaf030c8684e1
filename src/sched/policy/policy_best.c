/* policy_best.c: policy "best", a portfolio as XLA's and Inductor's are: it
 * runs every heuristic of the table and keeps the order with the smallest
 * peak (the first in the table on a tie), so it is never worse than any of
 * them. Exports policy_best. */
#include "policy_internal.h"
#include <inttypes.h>
#include <math.h>
#include <stdio.h>

int policy_best_until(const graph *g, const solve_ctx *c, run *r, double deadline, double *first,
                      char *err, size_t errcap)
{
    int64_t best = 0;
    double longest = 0;
    r->found_by = NULL;
    *first = 0;
    for (size_t i = 0; policy_at(i); i++) {
        const policy *p = policy_at(i);
        if (p->kind != POLICY_HEURISTIC) continue;
        double t = solve_now(c);
        if (r->found_by && (solve_cancelled(c) || t + longest > deadline)) break;
        run m;
        if (policy_run(g, p, c, &m, err, errcap)) return -1;
        double took = solve_now(c) - t;
        if (!r->found_by) *first = took;
        if (took > longest) longest = took;
        if (!r->found_by || m.peak < best) {
            best = m.peak;
            r->found_by = p;
            for (uint32_t s = 0; s < g->n; s++) r->rank[m.order[s]] = s;
        }
        policy_run_free(&m);
    }
    return 0;
}

static int best_plan(const graph *g, const solve_ctx *c, run *r, char *err, size_t errcap)
{
    double first;
    return policy_best_until(g, c, r, HUGE_VAL, &first, err, errcap);
}

static void best_why(POLICY_WHY_ARGS)
{
    char what[64];
    snprintf(what, sizeof what, "%s's order (the best of the heuristics)",
             r->found_by ? r->found_by->name : "?");
    policy_why_rank(what, g, r, u, v, nready, out, cap);
}

const policy policy_best = {
    .name = "best",
    .desc = "every heuristic above, keeping the smallest peak (the first in this list on a tie)",
    .plan = best_plan,
    .kind = POLICY_PORTFOLIO,
    RANK_KEYS,
    .why = best_why};
