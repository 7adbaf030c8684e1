/* policy_best.c: policy "best", a portfolio as XLA's and Inductor's are: it
 * runs every heuristic of the table and keeps the order with the smallest
 * peak (the first in the table on a tie), so it is never worse than any of
 * them. Exports policy_best. */
#include "policy_internal.h"
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>

/* Moves m's whole run into r, the plan's (r's arrays go to m, to be freed),
 * with its ranks: policy_run makes no run of it again. */
static void take_run(run *r, run *m)
{
    uint32_t *o = r->order, *pos = r->pos, *seq = r->seq, *pmax = r->pmax;
    int64_t *mem = r->memory;
    r->order = m->order;
    r->pos = m->pos;
    r->seq = m->seq;
    r->pmax = m->pmax;
    r->memory = m->memory;
    m->order = o;
    m->pos = pos;
    m->seq = seq;
    m->pmax = pmax;
    m->memory = mem;
    r->peak = m->peak;
    r->peak_step = m->peak_step;
    for (uint32_t s = 0; s < r->n; s++) r->rank[r->order[s]] = s;
    r->plan_ran = 1;
}

int policy_best_until(const graph *g, const solve_ctx *c, run *r, double deadline, double *first,
                      char *err, size_t errcap)
{
    double longest = 0;
    int ran = 0;    /* members run */
    run keep = {0}; /* the best member's run */
    r->found_by = NULL;
    *first = 0;
    for (size_t i = 0; policy_at(i); i++) {
        const policy *p = policy_at(i);
        if (p->kind != POLICY_HEURISTIC) continue;
        double t = solve_now(c);
        if (r->found_by && solve_cancelled(c)) r->search.stopped = SOLVE_CANCELLED;
        if (r->found_by && (solve_cancelled(c) || t + longest > deadline)) break;
        run m; /* under a finite deadline each member stops at it (a whole order still) */
        int rc = policy_run_until(g, p, c, deadline, &m, err, errcap);
        if (rc < 0) {
            policy_run_free(&keep);
            return -1;
        }
        if (rc == POLICY_PLAN_CUT) { /* a plan cut short has no order: the best whole one stands */
            if (solve_cancelled(c)) r->search.stopped = SOLVE_CANCELLED;
            if (!r->found_by && policy_run_until(g, policy_baseline(), c, -HUGE_VAL, &keep, err,
                                                 errcap) == 0) { /* none yet: fifo's, at once */
                r->found_by = policy_baseline();
                r->search.stopped = solve_cancelled(c) ? SOLVE_CANCELLED : SOLVE_TIME;
            }
            break;
        }
        double took = solve_now(c) - t;
        if (!ran++) *first = took;
        if (took > longest) longest = took;
        solve_stop stopped = m.search.stopped;
        if (!r->found_by || m.peak < keep.peak) {
            r->found_by = p;
            policy_run_free(&keep);
            keep = m;
        } else {
            policy_run_free(&m);
        }
        if (stopped) { /* the first cut short (its order the answer), or a later one */
            if (ran == 1 || stopped == SOLVE_CANCELLED) r->search.stopped = stopped;
            break;
        }
    }
    if (r->found_by) take_run(r, &keep);
    policy_run_free(&keep);
    return 0;
}

/* best alone: --time-limit (or a caller's deadline) bounds it as it does
 * exact's; without one, a watcher may still cancel it (DBL_MAX: a deadline
 * never met, so the members read the watcher). */
static int best_plan(const graph *g, const solve_ctx *c, run *r, char *err, size_t errcap)
{
    double first, deadline = c && c->deadline > 0  ? c->deadline
                             : c && c->seconds > 0 ? solve_now(c) + c->seconds
                             : c && c->watch       ? DBL_MAX
                                                   : HUGE_VAL;
    return policy_best_until(g, c, r, deadline, &first, err, errcap);
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
