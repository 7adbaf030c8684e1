/* replay_job.c: a replay on a thread of its own, for the TUI: it schedules
 * and places on its own copies (the UI may switch policy meanwhile), reports
 * progress through atomics and stops when asked. Exports replay_job_*. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "replay.h"
#include "defaults.h"

struct replay_job {
    pthread_t th;
    const graph *g;
    const policy *pol;
    const placer *plc;
    const replay_backend *be;
    int mode;
    solve_ctx ctx; /* the starter's limits and parameters: the job's run is the command line's */
    atomic_uint done, total;
    atomic_int cancel, finished;
    int rc;
    replay_result res;
    char err[512];
};

static int job_progress(void *ctx, uint32_t done, uint32_t total)
{
    replay_job *j = ctx;
    atomic_store(&j->total, total);
    atomic_store(&j->done, done);
    return atomic_load(&j->cancel);
}

static void *job_main(void *arg)
{
    replay_job *j = arg;
    run r;
    placement pl;
    int have_pl = 0;
    j->rc = REPLAY_FAILED;
    if (policy_run(j->g, j->pol, &j->ctx, &r, j->err, sizeof j->err) == 0) {
        /* Esc counts between the phases too (placing a big graph takes seconds). */
        if (atomic_load(&j->cancel)) {
            j->rc = REPLAY_CANCELLED;
        } else if (j->mode == REPLAY_ARENA) {
            if (place_run_checked(j->g, &r, j->plc, PLACE_ALIGN_DEFAULT, &j->ctx, &pl, j->err,
                                  sizeof j->err) == PLACE_OK)
                have_pl = 1;
            if (atomic_load(&j->cancel)) j->rc = REPLAY_CANCELLED;
        }
        if (j->rc != REPLAY_CANCELLED && (j->mode != REPLAY_ARENA || have_pl)) {
            replay_opts o = {.backend = j->be,
                             .mode = j->mode,
                             .pl = have_pl ? &pl : NULL,
                             .progress = job_progress,
                             .ctx = j};
            j->rc = replay_run(j->g, &r, j->pol, &o, &j->res, j->err, sizeof j->err);
        }
        if (have_pl) place_free(&pl);
        policy_run_free(&r);
    }
    atomic_store(&j->finished, 1);
    return NULL;
}

replay_job *replay_job_start(const graph *g, const policy *pol, const placer *plc,
                             const replay_backend *b, int mode, const solve_ctx *c, char *err,
                             size_t errcap)
{
    replay_job *j = calloc(1, sizeof *j);
    if (!j) {
        snprintf(err, errcap, "out of memory");
        return NULL;
    }
    j->g = g;
    j->pol = pol;
    j->plc = plc ? plc : placer_find(DEFAULT_TUI_PLACER);
    j->be = b;
    j->mode = mode;
    if (c) j->ctx = *c;
    j->ctx.watch = NULL; /* the job has its own cancel */
    int e = pthread_create(&j->th, NULL, job_main, j);
    if (e) {
        snprintf(err, errcap, "cannot start the replay thread: %s", strerror(e));
        free(j);
        return NULL;
    }
    return j;
}

int replay_job_poll(replay_job *j, uint32_t *done, uint32_t *total)
{
    *done = atomic_load(&j->done);
    *total = atomic_load(&j->total);
    return atomic_load(&j->finished);
}

void replay_job_cancel(replay_job *j) { atomic_store(&j->cancel, 1); }

int replay_job_finish(replay_job *j, replay_result *res, char *err, size_t errcap)
{
    pthread_join(j->th, NULL);
    int rc = j->rc;
    *res = j->res;
    if (rc == REPLAY_FAILED) snprintf(err, errcap, "%s", j->err);
    free(j);
    return rc;
}
