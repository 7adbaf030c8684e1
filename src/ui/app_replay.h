/* app_replay.h: the TUI's background replay (R): what R runs; starting, polling
 * and cancelling the job; its result; the fallback when an unnamed device does
 * not open (replay_fallback). Knows nothing of the app. Exports app_replay_*. */
#ifndef MEMTRIS_APP_REPLAY_H
#define MEMTRIS_APP_REPLAY_H
#include <stddef.h>
#include <stdint.h>
#include "gpu/replay.h"

typedef struct app_replay {
    /* What R runs (cmd_view's --backend and --mode). */
    const replay_backend *be;     /* NULL: the local backend */
    int be_auto;                  /* be was not named: fall back to host when it cannot open */
    int mode;                     /* REPLAY_* */
    replay_job *job;              /* the running replay, or NULL */
    int running;                  /* the hints line shows the replay's progress */
    const replay_backend *job_be; /* the running replay's backend and mode */
    int job_mode;
    int cancelled;        /* Esc asked the running replay to stop */
    uint32_t done, total; /* its progress at the last poll (total 0: not known yet) */
    char note[48];        /* "cuda unavailable" after falling back to host, for the final message */
} app_replay;

/* What app_replay_poll found. */
enum {
    APP_REPLAY_CHANGED = 1, /* the progress, the message or the result changed: redraw */
    APP_REPLAY_RESULT = 2,  /* *out holds a result for the curve's overlay */
    APP_REPLAY_STARTED = 4  /* a new job started (the fallback backend's) */
};

/* The local backend in raw mode, nothing running. */
void app_replay_init(app_replay *rp);
/* Starts replaying pol's schedule of g (arena mode: plc's plan), made with
 * c's limits and parameters, in the background; 0 with msg saying what runs,
 * or -1 with msg saying why not (one is running already, or it could not
 * start). */
int app_replay_start(app_replay *rp, const graph *g, const policy *pol, const placer *plc,
                     const solve_ctx *c, char *msg, size_t cap);
/* Polls the running job. Once it has finished: its result goes to *out
 * (APP_REPLAY_RESULT; else *out is untouched) and msg says how it went; or
 * when its device did not open and the backend falls back, the replay
 * starts again on the fallback, of g, pol, plc and c as they are now. */
unsigned app_replay_poll(app_replay *rp, const graph *g, const policy *pol, const placer *plc,
                         const solve_ctx *c, replay_result *out, char *msg, size_t cap);
/* Esc: asks the running job to stop; 1 if it did (and msg says so), 0 when
 * nothing runs or it was asked already. */
int app_replay_cancel(app_replay *rp, char *msg, size_t cap);
/* Stops the running job, waits for it and drops what it measured. */
void app_replay_stop(app_replay *rp);
/* 1 while a job runs whose backend reads this process's memory: what the
 * process allocates meanwhile would be measured as the replay's. */
int app_replay_measures_self(const app_replay *rp);

#endif
