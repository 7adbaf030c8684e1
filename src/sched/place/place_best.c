/* place_best.c: placer "best": the smallest plan of every other placer and of the greedy in
 * the ways of greedy-size, xla and greedy-conflicts (and five more), then a bounded hill-climb
 * and place_climb over the winning greedy order, and last a bounded run of
 * exact's search from the plan (place_exact_improve). Exports place_best_limited,
 * place_best_greedy_budget, placer_best. */
#include "place_internal.h"
#include <stdlib.h>
#include <string.h>

static uint64_t xorshift(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* Hill-climb over a greedy order (TVM USMP's idea): take a buffer at the top
 * of the plan, move it to an earlier place in the order, swap it with an
 * earlier buffer, or swap two neighbours before it; place again from the
 * first changed position; keep the change when the arena does not grow
 * (equal plans let the walk cross plateaus). Deterministic: a fixed seed, and
 * the work (buffers placed plus overlaps scanned) is bounded, not the time.
 * Improves jobs and off (by position) in place; returns the arena, or
 * CLIMB_OOM. */
static int64_t hill_climb(place_greedy *G, place_job *jobs, int64_t *off, int64_t arena,
                          int64_t goal, uint64_t budget)
{
    uint32_t nb = G->nb;
    if (nb < 2 || arena <= goal) return arena;
    place_job *jobs2 = malloc((size_t)nb * sizeof *jobs2);
    uint32_t *top = malloc((size_t)nb * sizeof *top);
    int64_t *off2 = malloc((size_t)nb * sizeof *off2);
    if (!jobs2 || !top || !off2) {
        free(jobs2);
        free(top);
        free(off2);
        return CLIMB_OOM;
    }
    memcpy(jobs2, jobs, (size_t)nb * sizeof *jobs);
    memcpy(off2, off, (size_t)nb * sizeof *off);
    uint64_t seed = 0x2545F4914F6CDD1DULL;
    while (G->work < budget && arena > goal && !solve_cancelled(G->ctx) && !solve_expired(G->ctx)) {
        /* The positions of the buffers at the top. */
        uint32_t ntop = 0;
        for (uint32_t i = 0; i < nb; i++)
            if (off[i] + jobs[i].span == arena) top[ntop++] = i;
        G->work += nb / 8 + 1;
        uint32_t pt = top[xorshift(&seed) % ntop];
        uint64_t move = xorshift(&seed) % 3;
        if (pt == 0) { /* the first buffer: move a later one up instead */
            pt = 1 + (uint32_t)(xorshift(&seed) % (nb - 1));
            move = 1;
        }
        uint32_t p = (uint32_t)(xorshift(&seed) % pt);
        place_job t;
        if (move == 0) { /* move the top buffer to position p */
            t = jobs2[pt];
            memmove(jobs2 + p + 1, jobs2 + p, (size_t)(pt - p) * sizeof *jobs2);
            jobs2[p] = t;
        } else if (move == 1) { /* swap it with the buffer at p */
            t = jobs2[pt];
            jobs2[pt] = jobs2[p];
            jobs2[p] = t;
        } else { /* swap the neighbours p, p+1 */
            t = jobs2[p];
            jobs2[p] = jobs2[p + 1];
            jobs2[p + 1] = t;
        }
        uint32_t bad;
        int64_t a = place_greedy_run(G, jobs2, p, off2, arena, &bad);
        if (a == GREEDY_OOM) {
            arena = CLIMB_OOM;
            break;
        }
        size_t rest = (size_t)(nb - p);
        if (a >= 0) { /* accepted: not larger */
            arena = a;
            memcpy(jobs + p, jobs2 + p, rest * sizeof *jobs);
            memcpy(off + p, off2 + p, rest * sizeof *off);
        } else { /* rejected: undo */
            memcpy(jobs2 + p, jobs + p, rest * sizeof *jobs);
            memcpy(off2 + p, off + p, rest * sizeof *off);
        }
        G->work += rest / 8;
    }
    free(jobs2);
    free(top);
    free(off2);
    return arena;
}

/* The work a hill-climb may do, in buffers placed plus overlaps scanned, as
 * a number of whole greedy runs: up to BEST_SMALL_RUNS for small graphs
 * (a model's few hundred buffers take well under a second) while that stays
 * under BEST_MIN_WORK, and at least BEST_RUNS for large ones (a few seconds
 * for a million nodes). */
#define BEST_RUNS       3u
#define BEST_SMALL_RUNS 1000u
#define BEST_MIN_WORK   50000000u
/* The climb has at most this much; the three extra orders are tried only
 * when the first two cost less than BEST_EXTRA_WORK (the climb does more
 * for large graphs). */
#define BEST_MAX_WORK   100000000u
#define BEST_EXTRA_WORK 10000000u
/* Then place_climb, on graphs of modest size: BEST_CLIMB_RUNS placings of
 * every buffer for each buffer (larger problems need more steps), at most
 * BEST_CLIMB_WORK of work (under a second for 450 buffers that meet a
 * hundred others each). */
#define BEST_CLIMB_RUNS 8u
#define BEST_CLIMB_WORK 50000000u
/* The greedy runs of best have at most BEST_GREEDY_NLOGN x n log2 n work
 * (n buffers), or BEST_GREEDY_MIN_WORK when that is more: a few times what
 * any graph of the benchmarks but randwire needs; on graphs where hundreds
 * of thousands of buffers overlap the greedy is quadratic (as TFLite's and
 * XLA's are), and best gives up on it rather than run for minutes. */
#define BEST_GREEDY_NLOGN    32u
#define BEST_GREEDY_MIN_WORK 50000000u

/* How best's plan was found when the greedy gave up and placer p won. */
static const char *cut_detail(const placer *p)
{
    static const struct {
        const placer *p;
        const char *text;
    } text[] = {
        {&placer_first_fit, "first-fit (greedy by size passed its work limit and was stopped)"},
        {&placer_best_fit, "best-fit (greedy by size passed its work limit and was stopped)"},
        {&placer_pool, "pool (greedy by size passed its work limit and was stopped)"},
        {&placer_coloring, "coloring (greedy by size passed its work limit and was stopped)"},
    };
    for (size_t i = 0; i < sizeof text / sizeof *text; i++)
        if (text[i].p == p) return text[i].text;
    return "the smallest other placer (greedy by size passed its work limit and was stopped)";
}

uint64_t place_best_greedy_budget(uint32_t nbufs)
{
    uint64_t lg = 1;
    while (lg < 63 && ((uint64_t)1 << lg) < nbufs) lg++;
    uint64_t w = (uint64_t)BEST_GREEDY_NLOGN * nbufs * lg;
    return w > BEST_GREEDY_MIN_WORK ? w : BEST_GREEDY_MIN_WORK;
}

/* TFLite's rule: greedy-size's two ways, then (after the placers of the
 * table, which are quick) three more for graphs of modest size; the other
 * rules: xla's two ways and greedy-conflicts', then two more for graphs of
 * modest size. */
static const place_way ways[] = {
    {PLACE_ORDER_SIZE, PLACE_FIT_BEST},    {PLACE_ORDER_LIFETIME, PLACE_FIT_BEST},
    {PLACE_ORDER_SPATIAL, PLACE_FIT_BEST}, {PLACE_ORDER_AREA, PLACE_FIT_BEST},
    {PLACE_ORDER_START, PLACE_FIT_BEST},
};
static const place_way ways2[] = {
    {PLACE_ORDER_SPATIAL, PLACE_FIT_XLA},     {PLACE_ORDER_LIFETIME, PLACE_FIT_XLA},
    {PLACE_ORDER_CONFLICTS, PLACE_FIT_FIRST}, {PLACE_ORDER_SIZE, PLACE_FIT_FIRST},
    {PLACE_ORDER_AREA, PLACE_FIT_FIRST},
};

/* The hill-climb's work, from one greedy run's. */
static uint64_t climb_budget(uint64_t one_run)
{
    uint64_t budget = one_run * BEST_SMALL_RUNS;
    if (budget > BEST_MIN_WORK) budget = BEST_MIN_WORK;
    if (budget < one_run * BEST_RUNS) budget = one_run * BEST_RUNS;
    if (budget > BEST_MAX_WORK) budget = BEST_MAX_WORK;
    return budget;
}

/* The placers of the table marked in_best, while *arena is above goal: a
 * smaller plan replaces pl's offsets and *arena (its detail says when the
 * greedy was cut). 0, or -1 out of memory (err says so) or cancelled
 * (place_run says so); a member that fails leaves its message in err. */
static int best_members(const graph *g, const run *r, const lifetimes *lt, int64_t align,
                        const solve_ctx *c, int64_t goal, int greedy_cut, int64_t *arena,
                        placement *pl, char *err, size_t errcap)
{
    for (size_t i = 0; *arena > goal && placer_at(i); i++) {
        const placer *p = placer_at(i);
        if (!p->in_best) continue;
        /* cancelled or past the caller's deadline: the plan it has stands */
        if (solve_cancelled(c) || solve_expired(c)) return *arena < INT64_MAX ? 0 : -1;
        solve_doing(c, p->name);
        placement o = {0};
        o.align = align;
        o.offset = calloc((size_t)g->nbufs + 1, sizeof *o.offset);
        if (!o.offset) return place_oom(g, err, errcap);
        int64_t a = p->place(g, r, lt, align, c, &o, err, errcap)
                        ? INT64_MAX
                        : place_plan_top(g, o.offset, align);
        free(o.block);
        if (a < *arena) {
            *arena = a;
            memcpy(pl->offset, o.offset, ((size_t)g->nbufs + 1) * sizeof *o.offset);
            pl->detail = greedy_cut ? cut_detail(p) : p->name;
        }
        free(o.offset);
    }
    return 0;
}

/* Best: the greedy in greedy-size's two ways, every placer of the table
 * marked in_best (quick ones), then, unless a plan is at the lower bound
 * already, the ways of xla and greedy-conflicts and, for graphs of modest
 * size, five more; the smallest plan wins, then the hill-climb and
 * place_climb over the best greedy order try to shrink it further. Stops
 * early at the lower bound (the largest sum of live spans), which no plan
 * can beat; so best is never larger than any placer. */
static int best_place(PLACE_ARGS)
{
    /* under --time-limit place_run gives c a deadline: a greedy cut at it
     * stacks the rest, and the later steps are skipped */
    return place_best_limited(g, r, lt, align, c, place_best_greedy_budget(g->nbufs),
                              PLACE_BEST_EXACT_NODES, pl, err, errcap);
}

int place_best_limited(const graph *g, const run *r, const lifetimes *lt, int64_t align,
                       const solve_ctx *c, uint64_t greedy_work, uint64_t exact_nodes,
                       placement *pl, char *err, size_t errcap)
{
    int64_t goal = place_lower_bound(g, r, align);
    place_greedy *G = place_greedy_new(g, r, lt, align, c);
    if (!G) return solve_cancelled(c) ? -1 : place_oom(g, err, errcap); /* place_run: cancelled */
    G->max_work = greedy_work;
    /* order, off: the best plan of TFLite's rule (the hill-climb's start);
     * order2, off2: the best of the other rules, when smaller */
    place_job *order = malloc(((size_t)G->nb + 1) * sizeof *order),
              *order2 = malloc(((size_t)G->nb + 1) * sizeof *order2);
    int64_t *off = malloc(((size_t)G->nb + 1) * sizeof *off),
            *off2 = malloc(((size_t)G->nb + 1) * sizeof *off2);
    size_t offsets = ((size_t)g->nbufs + 1) * sizeof *off;
    placement gpl = {.align = align, .offset = calloc(1, offsets)}; /* the greedy's plans */
    int rc = -1;
    if (!order || !off || !order2 || !off2 || !gpl.offset) {
        place_oom(g, err, errcap);
        goto out;
    }
    place_way won = ways[0], won2 = ways2[0];
    /* A plan that would pass 2^63-1 bytes is no plan: another may fit. */
    int64_t greedy_arena = INT64_MAX;
    solve_doing(c, "the greedy by size");
    int grc =
        place_greedy_orders(G, ways, 2, goal, &greedy_arena, &gpl, &won, order, off, err, errcap);
    uint64_t one_run = G->work / 2;
    int greedy_cut = G->work > G->max_work, extra = G->work < BEST_EXTRA_WORK;
    if (grc == GREEDY_ORDERS_OOM) goto out;
    int64_t arena = greedy_arena;
    if (arena < INT64_MAX) {
        memcpy(pl->offset, gpl.offset, offsets);
        pl->detail = gpl.detail;
    }
    /* The other placers of the table. */
    if (best_members(g, r, lt, align, c, goal, greedy_cut, &arena, pl, err, errcap)) goto out;
    if (arena == INT64_MAX) goto out; /* err says why the last placer failed */
    /* The other ways, unless a plan is at the bound already: TFLite's rule
     * in three more orders (the hill-climb starts from the best plan of that
     * rule), then the other rules (place_climb starts from the best plan of
     * all when they win). */
    int64_t arena2 = INT64_MAX;
    if (arena > goal && !grc && !greedy_cut && !solve_expired(c)) {
        if (extra && place_greedy_orders(G, ways + 2, 3, goal, &greedy_arena, &gpl, &won, order,
                                         off, err, errcap) == GREEDY_ORDERS_OOM)
            goto out;
        if (greedy_arena < arena) {
            arena = greedy_arena;
            memcpy(pl->offset, gpl.offset, offsets);
            pl->detail = gpl.detail;
        }
        arena2 = arena;
        if (place_greedy_orders(G, ways2, extra ? 5 : 3, goal, &arena2, &gpl, &won2, order2, off2,
                                err, errcap) == GREEDY_ORDERS_OOM)
            goto out;
        greedy_cut = G->work > G->max_work;
        if (arena2 < arena) {
            arena = arena2;
            memcpy(pl->offset, gpl.offset, offsets);
            pl->detail = gpl.detail;
        } else {
            arena2 = INT64_MAX;
        }
    }
    /* The hill-climb, from the best greedy plan. */
    if (arena > goal && greedy_arena < INT64_MAX && !greedy_cut && !solve_expired(c)) {
        uint64_t budget = climb_budget(one_run);
        G->work = 0;
        G->max_work = UINT64_MAX; /* a step costs at most one greedy run, under the limit above */
        solve_doing(c, "the hill-climb");
        G->fit = won.fit;
        int64_t a = hill_climb(G, order, off, greedy_arena, goal, budget);
        const char *how = "greedy by size, improved by the hill-climb over its order";
        if (a >= 0 && arena2 < a) { /* another rule's plan is smaller: place_climb starts there */
            memcpy(order, order2, G->nb * sizeof *order);
            memcpy(off, off2, G->nb * sizeof *off);
            a = arena2;
            how = gpl.detail;
        }
        if (a >= 0 && a > goal && !solve_cancelled(c) &&
            !solve_expired(c)) { /* then the first-fit climb */
            solve_doing(c, "the late-acceptance climb");
            int64_t cl = place_climb(G, c, order, off, a, goal, BEST_CLIMB_RUNS, BEST_CLIMB_WORK);
            if (cl >= 0 && cl < a)
                how = "greedy, improved by the hill-climb and the late-acceptance climb over its "
                      "order (lowest fitting offsets)";
            if (cl != CLIMB_DECLINED) a = cl;
        }
        if (a == CLIMB_OOM) {
            place_oom(g, err, errcap);
            goto out;
        }
        if (a < arena) {
            for (uint32_t i = 0; i < G->nb; i++) pl->offset[order[i].b] = off[i];
            pl->detail = how;
            arena = a;
        }
    }
    /* Last, exact's search from the plan, within exact_nodes nodes a
     * buffer and the nodes the context allows (exact's --max-states: best's
     * plan, which exact starts from, is within them too); not where the
     * greedy was cut (a graph too large for it). */
    if (arena > goal && exact_nodes && !greedy_cut && !solve_cancelled(c) && !solve_expired(c)) {
        solve_doing(c, "exact's search (bounded)");
        uint64_t n = exact_nodes <= UINT64_MAX / (G->nb + 1) ? exact_nodes * G->nb : UINT64_MAX;
        if (c && c->max_states && c->max_states < n) n = c->max_states; /* --max-states */
        place_exact_improve(g, r, lt, align, c, n, pl, NULL);
    }
    pl->reserved = 0;
    rc = 0;
out:
    free(order);
    free(off);
    free(order2);
    free(off2);
    free(gpl.offset);
    place_greedy_free(G);
    return rc;
}

const placer placer_best = {
    .name = "best",
    .place = best_place,
    .desc = "offline: the smallest plan of all the others, then a hill-climb, a "
            "late-acceptance search over the greedy order and a bounded run of exact's search, "
            "bounded in work (the greedy stopped past 32 n log n work)"};
