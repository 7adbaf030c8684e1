/* solve.c: the solvers' context read with its defaults filled in, and the
 * names of why a search stopped. Exports solve_*. */
#include "solve.h"
#include "solve_watch.h"
#include "util/clock.h"
#include <unistd.h>

const char *solve_stop_name(solve_stop s)
{
    switch (s) {
    case SOLVE_DONE: return "done";
    case SOLVE_TIME: return "time";
    case SOLVE_STATES: return "states";
    case SOLVE_MEMORY: return "memory";
    case SOLVE_CANCELLED: return "cancelled";
    case SOLVE_TOO_LARGE: return "too-large";
    }
    return "done";
}

double solve_seconds(const solve_ctx *c)
{
    return c && c->seconds > 0 ? c->seconds : SOLVE_TIME_LIMIT;
}

uint64_t solve_max_states(const solve_ctx *c)
{
    return c && c->max_states ? c->max_states : SOLVE_MAX_STATES;
}

int64_t solve_max_memory(const solve_ctx *c)
{
    if (c && c->max_memory > 0) return c->max_memory;
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || page <= 0) return SOLVE_MAX_MEMORY_CAP;
    int64_t quarter = (int64_t)pages / 4 * page;
    return quarter < SOLVE_MAX_MEMORY_CAP ? quarter : SOLVE_MAX_MEMORY_CAP;
}

double solve_left(const solve_ctx *c, double start)
{
    double left = start + solve_seconds(c) - solve_now(c);
    return left > 0 ? left : 0;
}

double solve_alpha(const solve_ctx *c) { return c && c->has_alpha ? c->alpha : SOLVE_ALPHA; }

void solve_order(const solve_ctx *c, uint8_t order[QUEUE_COUNT])
{
    for (int q = 0; q < QUEUE_COUNT; q++) order[q] = c && c->has_order ? c->order[q] : (uint8_t)q;
}

double solve_now(const solve_ctx *c) { return c && c->clock ? c->clock() : clock_seconds(); }

int solve_cancelled(const solve_ctx *c)
{
    return c && c->watch && atomic_load_explicit(&c->watch->cancel, memory_order_relaxed);
}

int solve_expired(const solve_ctx *c) { return c && c->deadline > 0 && solve_now(c) > c->deadline; }

void solve_doing(const solve_ctx *c, const char *what)
{
    if (c && c->watch) atomic_store(&c->watch->doing, what);
}

void solve_progress(const solve_ctx *c, uint64_t states, int64_t best, int64_t bound)
{
    if (!c || !c->watch) return;
    atomic_store_explicit(&c->watch->states, states, memory_order_relaxed);
    atomic_store_explicit(&c->watch->best, best, memory_order_relaxed);
    atomic_store_explicit(&c->watch->bound, bound, memory_order_relaxed);
}
