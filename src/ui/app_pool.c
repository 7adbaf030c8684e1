/* app_pool.c: the TUI's pool view (I): the pools of 'memtris iterate' simulated over the stepped
 * policy's run, with the same options and code, kept while the view shows them. Exports
 * app_pool_toggle, app_pool_refresh and app_pool_free. */
#include <stdio.h>
#include <stdlib.h>
#include "app_internal.h"

void app_pool_free(app *a)
{
    if (a->pool) pool_sim_free(a->pool);
    free(a->pool);
    a->pool = NULL;
}

/* Simulates the pools for the stepped run; 0, or -1 with a->msg set. */
static int simulate(app *a)
{
    char err[200];
    app_pool_free(a);
    /* On the UI's own thread: a bounded amount of work, so a key never hangs it. */
    double work = (double)a->poolp.iterations * ((double)a->g->n + 1);
    if (work > APP_POOL_MAX_WORK) {
        snprintf(a->msg, sizeof a->msg,
                 "the pool view simulates at most %.0e node-iterations, not %.1e: fewer "
                 "--iterations, or memtris iterate",
                 APP_POOL_MAX_WORK, work);
        return -1;
    }
    pool_sim *s = malloc(sizeof *s);
    if (!s || pool_simulate(a->g, &a->st[0].r, &a->poolp, s, err, sizeof err)) {
        snprintf(a->msg, sizeof a->msg, "cannot simulate the pools: %.150s",
                 s ? err : "out of memory");
        free(s);
        return -1;
    }
    a->pool = s;
    return 0;
}

app_reaction app_pool_toggle(app *a)
{
    if (a->curve == CURVE_POOL) {
        a->curve = CURVE_MEMORY;
        app_pool_free(a);
        snprintf(a->msg, sizeof a->msg, "the memory curve again");
        return APP_REDRAW;
    }
    if (simulate(a)) return APP_REDRAW;
    a->curve = CURVE_POOL;
    snprintf(a->msg, sizeof a->msg,
             "pools over %u iterations of %s, buffers scaled by [%g, %g) (seed %llu); I: back",
             a->poolp.iterations, a->pol->name, a->poolp.min, a->poolp.max,
             (unsigned long long)a->poolp.seed);
    return APP_REDRAW;
}

void app_pool_refresh(app *a)
{
    if (a->curve == CURVE_POOL && simulate(a)) a->curve = CURVE_MEMORY;
}
