/* app_place.h: the TUI's background job (s, o, c against exact, a on big graphs): a policy's run
 * made and placed in a thread, its progress, cancelling it, and what it made, which the app takes
 * when it polls. Knows nothing of the app. Exports app_place_*, app_job_view, app_placed. */
#ifndef MEMTRIS_APP_PLACE_H
#define MEMTRIS_APP_PLACE_H
#include <stddef.h>
#include <stdint.h>
#include "sched/graph/graph.h"
#include "sched/place/place.h"
#include "sched/policy/step.h"

/* Graphs with this many buffers are placed in the background (a, s): a
 * progress line, Esc cancels. */
#define APP_PLACE_ASYNC_MIN 50000

struct app_place_job; /* the thread and what it shares (app_place.c) */

typedef struct app_place {
    struct app_place_job *job; /* the job running, or NULL */
    uint32_t async_min;        /* buffers from which a and s place in the background */
} app_place;

/* The background job's progress for the key line. */
typedef struct app_job_view {
    int searching;     /* making a policy's run (exact's search); else placing */
    const char *name;  /* that policy, or the placer */
    const char *doing; /* the placer's phase ("the hill-climb"), or its name */
    uint32_t nbufs;    /* the graph's buffers and nodes */
    uint32_t nodes;
    uint32_t ms;     /* milliseconds it has run (counted in ticks) */
    uint64_t states; /* the search: states kept (exact placer: nodes visited) so far */
    int64_t best;    /* the search: the least peak (arena) found so far (0: none yet) */
    int64_t bound;   /* and the bound it proved */
} app_job_view;

/* What a finished job made, for the app to take. */
typedef enum {
    APP_PLACED_NOTHING, /* still running (or failed: the message says why) */
    APP_PLACED_MAIN,    /* side and pl: the new stepped side for pol, placed with p */
    APP_PLACED_OTHER,   /* side: compare's other side for pol */
    APP_PLACED_PLAN     /* pl: the stepped run placed with p */
} app_placed_kind;
typedef struct app_placed {
    app_placed_kind kind;
    stepper side;
    placement pl;
    const policy *pol;
    const placer *p;
} app_placed;

/* Nothing running; async_min APP_PLACE_ASYNC_MIN. */
void app_place_init(app_place *pp);
/* Starts the job on g: makes pol's run (with c's limits and parameters,
 * copied) and places it with p as the new stepped side, or, when other,
 * makes it compare's other side; with pol NULL, places r (the stepped
 * side's run, which must outlive the job) with p. Says why it cannot start
 * in msg. */
void app_place_start(app_place *pp, const graph *g, const run *r, const policy *pol, int other,
                     const placer *p, const solve_ctx *c, char *msg, size_t cap);
/* Whether a job making compare's other side runs. */
int app_place_other(const app_place *pp);
/* Called every poll interval (ms) while a job runs. When it has finished:
 * what it made goes to *out (the caller owns it; kind NOTHING when it
 * failed, msg saying why) and returns 1; also 1, with *out's kind NOTHING,
 * when the progress line's time changes; else 0 (and kind NOTHING). */
int app_place_poll(app_place *pp, int ms, app_placed *out, char *msg, size_t cap);
/* Esc: stops a running job and says so; 1 if there was one. */
int app_place_cancel(app_place *pp, char *msg, size_t cap);
/* Stops any, silently, and frees it. */
void app_place_free(app_place *pp);
/* Fills v; 0 when no job runs. */
int app_place_progress(const app_place *pp, app_job_view *v);

#endif
