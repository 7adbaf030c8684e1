/* place_exact_placer.c: placer "exact": the smallest arena for the schedule, proven: best's
 * plan (or a stack of every buffer, cold), then exact's capacity search (place_exact.c) from it
 * down toward the lower bound, or to the capacity asked. Exports placer_exact,
 * place_exact_cold. */
#include "place_exact_internal.h"

/* From best's plan (or a stack of every buffer, cold) down toward the
 * lower bound, or to the capacity asked. */
static int exact_run(const graph *g, const run *r, const lifetimes *lt, int64_t align,
                     const solve_ctx *c, placement *pl, int cold, char *err, size_t errcap)
{
    /* best's plan and the search share the limit: best stops at its end
     * too (place_run sets it as it begins, the setup counted) */
    solve_ctx sub = c ? *c : (solve_ctx){0};
    if (!(sub.deadline > 0)) sub.deadline = solve_now(c) + solve_seconds(c);
    c = &sub;
    if (cold) { /* every buffer stacked on the one before */
        int64_t top = 0;
        for (uint32_t b = 0; b < g->nbufs; b++) {
            pl->offset[b] = top;
            if (__builtin_add_overflow(top, place_span(g->buf_size[b], align), &top))
                return place_too_big(g, b, err, errcap);
        }
    } else if (placer_best.place(g, r, lt, align, c, pl, err, errcap)) {
        return -1;
    }
    if (cold) pl->detail = "a stack of every buffer";
    int64_t lo = place_lower_bound(g, r, align), hi = place_plan_top(g, pl->offset, align);
    pl->bound = lo;
    if (hi <= lo) return 0;                       /* best reached the bound: nothing to search */
    if (solve_cancelled(c) || solve_expired(c)) { /* no time left to search */
        pl->search.ran = 1;
        pl->search.stopped = solve_cancelled(c) ? SOLVE_CANCELLED : SOLVE_TIME;
        return 0;
    }
    if (c && c->capacity > 0 && (hi <= c->capacity || lo > c->capacity)) return 0; /* answered */
    solve_doing(c, "exact's search");
    pl->search.ran = 1;
    xp P;
    size_t cap = (size_t)solve_max_memory(c);
    int rc = xp_build(&P, g, lt, align, EXACT_MAX_BUFFERS, EXACT_MAX_OVERLAPS, cap);
    if (rc != XP_OK) { /* best's plan stands */
        xp_free(&P);
        pl->search.stopped = rc == XP_TOO_LARGE ? SOLVE_TOO_LARGE : SOLVE_MEMORY;
        return 0;
    }
    P.mem_cap = cap;
    P.ctx = c;
    P.deadline = sub.deadline;
    P.node_cap = c ? c->max_states : 0; /* 0: time alone */
    xp_capacity_search(&P, c, align, &lo, &hi, pl);
    pl->search.states = P.nodes;
    pl->search.stopped = P.stopped;
    pl->bound = lo;
    xp_free(&P);
    return 0;
}

static int exact_place(PLACE_ARGS) { return exact_run(g, r, lt, align, c, pl, 0, err, errcap); }

int place_exact_cold(const graph *g, const run *r, const lifetimes *lt, int64_t align,
                     const solve_ctx *c, placement *pl, char *err, size_t errcap)
{
    return exact_run(g, r, lt, align, c, pl, 1, err, errcap);
}

const placer placer_exact = {
    .name = "exact",
    .searches = 1,
    .place = exact_place,
    .desc = "offline: the smallest arena, proven: MiniMalloc's search over canonical plans, "
            "from best's plan down to the lower bound (best's plan past --time-limit)"};
