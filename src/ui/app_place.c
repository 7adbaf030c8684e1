/* app_place.c: placing in the background, for big graphs: a thread runs
 * the placer (a new placer, or the placement of a new policy's run) while
 * the screen shows its progress; Esc asks it to stop (the placers look
 * between phases and as they go); a finished plan is taken on a tick.
 * Exports the app_place_* of app_internal.h and app_place_progress. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include "app_internal.h"
#include "sched/place_ctl.h"

typedef struct app_place {
    pthread_t thread;
    place_ctl ctl;
    _Atomic int finished;
    const graph *g;
    const run *r; /* the run placed: new's, or the stepped side's */
    stepper side; /* the new stepped side (s), when has_side */
    int has_side;
    const policy *pol; /* its policy */
    const placer *p;
    placement pl; /* the result, when rc is PLACE_OK */
    int rc;
    char err[256];
    uint32_t ms; /* time run, counted in ticks of APP_POLL_MS */
} app_place;

static void *place_main(void *arg)
{
    app_place *j = arg;
    place_ctl_bind(&j->ctl);
    j->rc = place_run_checked(j->g, j->r, j->p, PLACE_ALIGN_DEFAULT, &j->pl, j->err, sizeof j->err);
    place_ctl_bind(NULL);
    atomic_store(&j->finished, 1);
    return NULL;
}

void app_place_start(app *a, stepper *st, const policy *pol, const placer *p)
{
    app_place *j = calloc(1, sizeof *j);
    if (!j) {
        if (st) step_free(st);
        snprintf(a->msg, sizeof a->msg, "cannot place with %s: out of memory", p->name);
        return;
    }
    j->g = a->g;
    j->pol = pol;
    j->p = p;
    if (st) {
        j->side = *st;
        j->has_side = 1;
        j->r = &j->side.r;
    } else {
        j->r = &a->st[0].r;
    }
    atomic_store(&j->ctl.doing, p->name);
    if (pthread_create(&j->thread, NULL, place_main, j)) {
        if (j->has_side) step_free(&j->side);
        free(j);
        snprintf(a->msg, sizeof a->msg, "cannot place with %s: no thread", p->name);
        return;
    }
    a->placing = j;
}

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
        snprintf(a->msg, sizeof a->msg, "cannot place with %s: %.150s", j->p->name, j->err);
        if (j->has_side) step_free(&j->side);
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
    const char *what = j->has_side ? j->pol->name : j->p->name;
    int side = j->has_side;
    finish(j);
    a->placing = NULL;
    snprintf(a->msg, sizeof a->msg, "%s %s cancelled; the arena is as it was",
             side ? "policy" : "placer", what);
    return 1;
}

void app_place_free(app *a)
{
    if (!a->placing) return;
    atomic_store(&a->placing->ctl.cancel, 1);
    finish(a->placing);
    a->placing = NULL;
}

int app_place_progress(const app *a, const char **name, const char **doing, uint32_t *nbufs,
                       uint32_t *ms)
{
    const app_place *j = a->placing;
    if (!j) return 0;
    *name = j->p->name;
    *doing = atomic_load(&j->ctl.doing);
    *nbufs = j->g->nbufs;
    *ms = j->ms;
    return 1;
}
