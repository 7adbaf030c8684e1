/* app_start.h: the work of making the app's sides, spread over threads so
 * that the first frame of a large graph comes sooner: the lower bound, a
 * side's placement (checked), each on a thread of its own while the caller
 * goes on (the timeline, the other side, the painting order), or at once
 * where no thread starts. The answers are those of the same calls made one
 * after the other. Knows nothing of the app. Exports app_task_* and
 * app_bounding_* and app_placing_*. */
#ifndef MEMTRIS_APP_START_H
#define MEMTRIS_APP_START_H
#include <pthread.h>
#include <stdint.h>
#include "sched/place/place.h"

/* fn(arg) on a thread of its own, or at once when none starts. */
typedef struct app_task {
    pthread_t thread;
    int on; /* a thread runs it: app_task_wait joins it */
} app_task;
void app_task_start(app_task *t, void *(*fn)(void *), void *arg);
void app_task_wait(app_task *t);

/* policy_lower_bound(g), started; app_bounding_wait gives it. */
typedef struct app_bounding {
    app_task task;
    const graph *g;
    int64_t lb;
} app_bounding;
void app_bounding_start(app_bounding *b, const graph *g);
int64_t app_bounding_wait(app_bounding *b);

/* place_run_checked(g, r, p, PLACE_ALIGN_DEFAULT, c, ...), started (with
 * check 0: place_run's plan, unchecked, for app_checking); r and c stay the
 * caller's, unchanged, until app_placing_wait, which gives its answer: 0
 * with *pl the plan, or -1 with err set. */
typedef struct app_placing {
    app_task task;
    const graph *g;
    const run *r;
    const placer *p;
    const solve_ctx *c;
    placement pl;
    int check;
    int rc;
    char err[256];
} app_placing;
void app_placing_start(app_placing *s, const graph *g, const run *r, const placer *p,
                       const solve_ctx *c, int check);
int app_placing_wait(app_placing *s, placement *pl, char *err, size_t cap);

/* place_verify(g, r, pl), started: a plan's check beside the first frame.
 * g, r and *pl stay the caller's, unchanged, until app_checking_wait, which
 * says 0 (passed, or never started) or -1 with err place_run_checked's
 * message for an invalid plan of placer pname; it may be asked again. */
typedef struct app_checking {
    app_task task;
    const graph *g;
    const run *r;
    const placement *pl;
    const char *pname;
    int started, bad;
    char err[512];
} app_checking;
void app_checking_start(app_checking *k, const graph *g, const run *r, const placement *pl,
                        const char *pname);
int app_checking_wait(app_checking *k, char *err, size_t cap);

/* The next app_init checks the stepped side's plan after it returns, beside
 * the first frame, not before (app_check_wait); app_start_take_defer reads
 * and clears the request. */
void app_start_defer_check(void);
int app_start_take_defer(void);
/* Tests only: called on a deferred check's plan before the check starts. */
extern void (*app_start_check_hook)(placement *pl);

#endif
