/* app_place.c: the TUI's background job: a thread makes a policy's run (s,
 * o; exact's search can take seconds) and places it, or places the stepped
 * run with a new placer (a, on big graphs), while the key line shows its
 * progress; Esc asks it to stop (the search and the placers look as they
 * go); a finished job is taken on a tick. Exports the app_place_* of
 * app_internal.h and app_place_progress. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include "app_internal.h"
#include "sched/graph/solve_watch.h"

typedef struct app_place {
    pthread_t thread;
    solve_watch ctl;  /* the placement's progress and stop */
    solve_watch pctl; /* the search's progress and stop */
    solve_ctx ctx;    /* the command line's limits and parameters */
    _Atomic int finished;
    _Atomic int placing; /* the run is made: placing it now */
    const graph *g;
    const run *r;      /* the run placed: the new side's, or the stepped side's */
    const policy *pol; /* the new side's policy, or NULL: place the stepped run */
    int other;         /* the new side is compare's other (not placed) */
    stepper side;      /* the new side, when has_side */
    int has_side;
    const placer *p;
    placement pl; /* the result, when rc is PLACE_OK */
    int rc;       /* PLACE_OK, a placer's failure, or -1: the run failed */
    char err[256];
    uint32_t ms; /* time run, counted in ticks of APP_POLL_MS */
} app_place;

static void *place_main(void *arg)
{
    app_place *j = arg;
    if (j->pol) {
        solve_ctx c = j->ctx;
        c.watch = &j->pctl;
        int bad = step_init(&j->side, j->g, j->pol, &c, j->err, sizeof j->err);
        if (bad) j->rc = -1;
        j->has_side = !bad;
        j->r = &j->side.r;
    }
    if (j->rc == PLACE_OK && !j->other) {
        atomic_store(&j->placing, 1);
        solve_ctx c = j->ctx;
        c.watch = &j->ctl;
        j->rc = place_run_checked(j->g, j->r, j->p, PLACE_ALIGN_DEFAULT, &c, &j->pl, j->err,
                                  sizeof j->err);
    }
    atomic_store(&j->finished, 1);
    return NULL;
}

void app_place_start(app *a, const policy *pol, int other, const placer *p)
{
    app_place *j = calloc(1, sizeof *j);
    const char *what = pol ? pol->name : p->name;
    if (!j) {
        snprintf(a->msg, sizeof a->msg, "cannot run %s: out of memory", what);
        return;
    }
    j->g = a->g;
    j->pol = pol;
    j->other = other;
    j->p = p;
    j->r = &a->st[0].r;
    j->rc = PLACE_OK;
    j->ctx = a->ctx; /* the thread runs with the command line's */
    atomic_store(&j->placing, pol == NULL);
    atomic_store(&j->ctl.doing, p->name);
    if (pthread_create(&j->thread, NULL, place_main, j)) {
        free(j);
        snprintf(a->msg, sizeof a->msg, "cannot run %s: no thread", what);
        return;
    }
    a->placing = j;
}

int app_place_other(const app *a) { return a->placing && a->placing->other; }

/* Waits for the thread and frees the job, with what it made. */
static void finish(app_place *j)
{
    pthread_join(j->thread, NULL);
    if (j->rc == PLACE_OK) place_free(&j->pl);
    if (j->has_side) step_free(&j->side);
    free(j);
}

app_reaction app_place_poll(app *a)
{
    app_place *j = a->placing;
    if (!atomic_load(&j->finished)) {
        j->ms += APP_POLL_MS;
        return j->ms % 500 == 0 ? APP_REDRAW : 0; /* the time shown, twice a second */
    }
    pthread_join(j->thread, NULL);
    a->placing = NULL;
    if (j->rc != PLACE_OK) {
        if (j->pol && !j->has_side)
            snprintf(a->msg, sizeof a->msg, "cannot switch to %s: %.150s", j->pol->name, j->err);
        else snprintf(a->msg, sizeof a->msg, "cannot place with %s: %.150s", j->p->name, j->err);
        if (j->has_side) step_free(&j->side);
    } else if (j->other) {
        app_take_other(a, &j->side, j->pol);
    } else if (j->has_side) {
        a->placer = j->p;
        app_take_main(a, &j->side, &j->pl, j->pol);
    } else {
        app_take_plan(a, &j->pl, j->p);
    }
    free(j);
    return APP_REDRAW;
}

int app_place_cancel(app *a)
{
    app_place *j = a->placing;
    if (!j) return 0;
    atomic_store(&j->ctl.cancel, 1);
    atomic_store(&j->pctl.cancel, 1);
    const char *what = j->pol ? j->pol->name : j->p->name;
    int side = j->pol != NULL;
    finish(j);
    a->placing = NULL;
    snprintf(a->msg, sizeof a->msg, "%s %s cancelled; %s", side ? "policy" : "placer", what,
             side ? "the schedules are as they were" : "the arena is as it was");
    return 1;
}

void app_place_free(app *a)
{
    if (!a->placing) return;
    atomic_store(&a->placing->ctl.cancel, 1);
    atomic_store(&a->placing->pctl.cancel, 1);
    finish(a->placing);
    a->placing = NULL;
}

int app_place_progress(const app *a, app_job_view *v)
{
    const app_place *j = a->placing;
    if (!j) return 0;
    v->searching = !atomic_load(&j->placing);
    v->name = v->searching ? j->pol->name : j->p->name;
    v->doing = atomic_load(&j->ctl.doing);
    v->nbufs = j->g->nbufs;
    v->nodes = j->g->n;
    v->ms = j->ms;
    v->states = v->searching ? atomic_load(&j->pctl.states) : atomic_load(&j->ctl.states);
    v->best = v->searching ? atomic_load(&j->pctl.best) : atomic_load(&j->ctl.best);
    v->bound = v->searching ? atomic_load(&j->pctl.bound) : atomic_load(&j->ctl.bound);
    return 1;
}
