/* app_place.c: the TUI's background job: a thread makes a policy's run (s, o: exact's search) and
 * places it, or places the stepped run anew (a, big graphs); Esc stops it; the app takes what it
 * made when it polls. Exports the app_place_* of app_place.h. */
#include "app_place.h"
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include "sched/graph/solve_watch.h"

struct app_place_job {
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
    uint32_t ms; /* time run, counted in the polls' intervals */
};
typedef struct app_place_job app_place_job;

static void *place_main(void *arg)
{
    app_place_job *j = arg;
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

void app_place_init(app_place *pp)
{
    pp->job = NULL;
    pp->async_min = APP_PLACE_ASYNC_MIN;
}

void app_place_start(app_place *pp, const graph *g, const run *r, const policy *pol, int other,
                     const placer *p, const solve_ctx *c, char *msg, size_t cap)
{
    app_place_job *j = calloc(1, sizeof *j);
    const char *what = pol ? pol->name : p->name;
    if (!j) {
        snprintf(msg, cap, "cannot run %s: out of memory", what);
        return;
    }
    j->g = g;
    j->pol = pol;
    j->other = other;
    j->p = p;
    j->r = r;
    j->rc = PLACE_OK;
    j->ctx = *c; /* the thread runs with the command line's */
    atomic_store(&j->placing, pol == NULL);
    atomic_store(&j->ctl.doing, p->name);
    if (pthread_create(&j->thread, NULL, place_main, j)) {
        free(j);
        snprintf(msg, cap, "cannot run %s: no thread", what);
        return;
    }
    pp->job = j;
}

int app_place_other(const app_place *pp) { return pp->job && pp->job->other; }

/* Waits for the thread and frees the job, with what it made. */
static void finish(app_place_job *j)
{
    pthread_join(j->thread, NULL);
    if (j->rc == PLACE_OK) place_free(&j->pl);
    if (j->has_side) step_free(&j->side);
    free(j);
}

int app_place_poll(app_place *pp, int ms, app_placed *out, char *msg, size_t cap)
{
    app_place_job *j = pp->job;
    *out = (app_placed){.kind = APP_PLACED_NOTHING}; /* until it has finished */
    if (!atomic_load(&j->finished)) {
        j->ms += (uint32_t)ms;
        return j->ms % 500 == 0; /* the time shown, twice a second */
    }
    pthread_join(j->thread, NULL);
    pp->job = NULL;
    *out = (app_placed){.kind = APP_PLACED_NOTHING, .pol = j->pol, .p = j->p};
    if (j->rc != PLACE_OK) {
        if (j->pol && !j->has_side)
            snprintf(msg, cap, "cannot switch to %s: %.150s", j->pol->name, j->err);
        else snprintf(msg, cap, "cannot place with %s: %.150s", j->p->name, j->err);
        if (j->has_side) step_free(&j->side);
    } else if (j->other) {
        out->kind = APP_PLACED_OTHER;
        out->side = j->side;
    } else if (j->has_side) {
        out->kind = APP_PLACED_MAIN;
        out->side = j->side;
        out->pl = j->pl;
    } else {
        out->kind = APP_PLACED_PLAN;
        out->pl = j->pl;
    }
    free(j);
    return 1;
}

int app_place_cancel(app_place *pp, char *msg, size_t cap)
{
    app_place_job *j = pp->job;
    if (!j) return 0;
    atomic_store(&j->ctl.cancel, 1);
    atomic_store(&j->pctl.cancel, 1);
    const char *what = j->pol ? j->pol->name : j->p->name;
    int side = j->pol != NULL;
    finish(j);
    pp->job = NULL;
    snprintf(msg, cap, "%s %s cancelled; %s", side ? "policy" : "placer", what,
             side ? "the schedules are as they were" : "the arena is as it was");
    return 1;
}

void app_place_free(app_place *pp)
{
    if (!pp->job) return;
    atomic_store(&pp->job->ctl.cancel, 1);
    atomic_store(&pp->job->pctl.cancel, 1);
    finish(pp->job);
    pp->job = NULL;
}

int app_place_progress(const app_place *pp, app_job_view *v)
{
    const app_place_job *j = pp->job;
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
