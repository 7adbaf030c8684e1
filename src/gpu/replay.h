/* replay.h: runs a schedule for real on a device and records the memory it
 * measures after every step next to the predicted live bytes: the engine
 * (replay_run), the backends behind a table of functions (host, cuda), the
 * background job the TUI uses, and saved replays (JSON). Exports replay_*. */
#ifndef MEMTRIS_REPLAY_H
#define MEMTRIS_REPLAY_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "sched/graph/graph.h"
#include "sched/place/place.h"
#include "sched/policy/policy.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How buffers get their memory. */
enum {
    REPLAY_RAW,   /* one allocation per ALLOC, given back at its FREE */
    REPLAY_ARENA, /* one allocation of the plan's arena, buffers at their planned offsets */
    REPLAY_POOL,  /* the size-class pool: 2^n blocks, freed blocks kept for reuse, never given back
                   */
    REPLAY_ASYNC, /* cuda: cudaMallocAsync / cudaFreeAsync on a stream's memory pool */
    REPLAY_NMODES
};
const char *replay_mode_name(int mode);
int replay_mode_find(const char *name); /* REPLAY_*, or -1 if unknown */

/* What a backend says about its device; empty strings and 0 when unknown
 * (the views print "n/a"). */
typedef struct replay_info {
    char device[128];  /* "NVIDIA H200", "host: Linux 6.1 x86_64" */
    int64_t total;     /* bytes of memory on the device */
    char versions[96]; /* "driver 13.0, runtime 13.0" */
} replay_info;

/* A piece of one allocation that a compute step writes. */
typedef struct replay_region {
    uint32_t slot;
    int64_t off, bytes;
} replay_region;

typedef struct replay_dev replay_dev; /* a backend's opened device */

/* What a backend is, for every decision made about one (never its name). */
enum {
    REPLAY_CAP_MEASURES_SELF = 1u << 0, /* reads this process's memory: what the process
                                         * allocates meanwhile is measured too */
    REPLAY_CAP_NEEDS_DEVICE = 1u << 1,  /* needs hardware a machine may not have */
    REPLAY_CAP_FALLS_BACK = 1u << 2, /* not named and not opening: the local backend runs instead */
    REPLAY_CAP_NOT_BUILT = 1u << 3   /* this build lacks it: opening it says so */
};

/* A backend: one entry of the table in replay_backends.c (nvtop's vendor
 * table), its name and words, the modes it runs, its capabilities and its
 * functions. alloc, release, touch, read and trim return 0, or -1 with the
 * reason in error(d); open returns NULL with the reason in err; info, error
 * and close cannot fail. A backend that is not built (REPLAY_CAP_NOT_BUILT)
 * has only open, which says so. Slots are small integers chosen by the
 * engine (fewer than open's nslots), each holding at most one allocation. */
typedef struct replay_backend {
    const char *name;
    const char *label; /* in sentences: "CUDA", "the host" */
    const char *desc;
    unsigned modes; /* bit (1u << REPLAY_*) per mode it can run */
    unsigned caps;  /* REPLAY_CAP_* */
    /* NULL with err set when the device cannot be used. */
    replay_dev *(*open)(int mode, uint32_t nslots, char *err, size_t errcap);
    void (*info)(replay_dev *d, replay_info *out);
    /* Allocates bytes (> 0) for slot; *oom = 1 when the failure is the
     * device being out of memory. */
    int (*alloc)(replay_dev *d, uint32_t slot, int64_t bytes, int *oom);
    int (*release)(replay_dev *d, uint32_t slot);
    /* Writes (every byte or, on the host, every page of) each region. */
    int (*touch)(replay_dev *d, const replay_region *rg, uint32_t n);
    /* Waits for the device to finish, then reads the bytes in use on it. */
    int (*read)(replay_dev *d, int64_t *used);
    /* Gives memory that the backend caches but no slot holds back to the
     * device (cuda async: the stream pool); NULL when it caches nothing.
     * The engine calls it after giving every slot back, before the last
     * reading (the residual). */
    int (*trim)(replay_dev *d);
    const char *(*error)(replay_dev *d);
    void (*close)(replay_dev *d); /* releases every slot still held */
} replay_backend;

const replay_backend *replay_backend_find(const char *name); /* NULL if unknown */
const replay_backend *replay_backend_at(size_t i);           /* NULL past the end */
/* 1 if this build has a backend for a device (CUDA) compiled in. */
int replay_have_cuda(void);
/* The backend a replay runs on when none is named: the first of the table
 * that this build has (a device's, else the local one). */
const replay_backend *replay_backend_default(void);
/* The backend that measures this machine (the host). */
const replay_backend *replay_backend_local(void);
/* The one rule of falling back, for the CLI, the view and the TUI: after be
 * could not be opened (replay_result.unavailable), the backend to run
 * instead: the local one, when be was not named by the user and falls back;
 * else NULL. The caller checks the mode is one the fallback has. */
const replay_backend *replay_fallback(const replay_backend *be, int named);

/* One step: 0-based position in the schedule here (users see it from 1, as
 * step s + 1 of 'memtris schedule': replay_step_shown), the node's Id, the live bytes
 * the schedule predicts after it, the bytes measured after it (the reading
 * minus the baseline taken before the first step), and its time. */
typedef struct replay_sample {
    uint32_t step;
    int64_t node;
    int64_t predicted, measured;
    double ms;
} replay_sample;

typedef struct replay_result {
    char backend[16], mode[16], policy[32], placer[32]; /* placer: arena mode only, else "" */
    replay_info info;
    uint32_t total;   /* steps in the schedule */
    uint32_t n;       /* steps replayed: total, or fewer when it stopped */
    replay_sample *s; /* [n] at least */
    int64_t baseline; /* the reading before the first step */
    int64_t predicted_peak, measured_peak;
    uint32_t predicted_peak_step, measured_peak_step; /* 0-based (shown: replay_step_shown) */
    int64_t max_excess;                               /* max over steps of measured - predicted */
    uint32_t max_excess_step;
    /* The reading after everything was given back (and the backend's cache
     * trimmed), minus the baseline; meaningful only when residual_known.
     * Unknown (0 here) when that reading, or the trim before it, failed,
     * or the replay stopped before its baseline: residual_error says why
     * (not saved; a loaded replay says only "unknown"). */
    int64_t residual;
    int residual_known;
    char residual_error[320];
    int64_t held;   /* arena: the arena; pool: bytes reserved at the end; raw/async: 0 */
    double seconds; /* all steps */
    /* A memory budget's plan that the replay ran (tools/runplan.py --budget-plan): one step an
     * event, its events over the graph in Ids (a run) and BufIds (free, offload, fetch); plan_n
     * is 0 for a schedule's replay. plan_start: measured before the first event. */
    size_t plan_n;
    uint8_t *plan_op; /* [plan_n] BUDGET_RUN, BUDGET_FREE, BUDGET_OFFLOAD, BUDGET_FETCH */
    int64_t *plan_x;  /* [plan_n] */
    int64_t plan_budget, plan_start;
    double plan_bandwidth; /* bytes a second */
    int opened;            /* the device opened (a failure with 0 here: it could not be used) */
    char unavailable[256]; /* why the device could not be opened (the backend's words, without
                            * its name), or "" */
} replay_result;

/* The step a user sees for 0-based position `step` of res: counted from 1,
 * as 'memtris schedule' and the TUI count them (the state after that many
 * pops); 0 when res has no steps. */
static inline uint32_t replay_step_shown(const replay_result *res, uint32_t step)
{
    return res->n ? step + 1 : 0;
}

typedef struct replay_opts {
    const replay_backend *backend;
    int mode;
    const placement *pl; /* arena mode: the plan (offsets and arena); else unused */
    /* Called once with done = 0 as soon as the device is open, then after
     * each step; nonzero cancels the replay. May be NULL. */
    int (*progress)(void *ctx, uint32_t done, uint32_t total);
    void *ctx;
} replay_opts;

/* How far a cuda residual may sit from 0 and still mean "nothing left
 * behind": cudaMemGetInfo is device-wide, the driver maps device memory in
 * 2 MiB pages and may account a release late, so one page either way is
 * noise, not a leak (tests/test_replay.c and scripts/gpu-check use it). */
#define REPLAY_RESIDUAL_TOLERANCE ((int64_t)2 << 20)

/* What replay_run and replay_job_finish return. */
enum { REPLAY_OK = 0, REPLAY_FAILED = -1, REPLAY_CANCELLED = -2 };

/* Replays run r of g. REPLAY_OK when every step ran; REPLAY_FAILED with err
 * set when the device could not be opened or a step failed (err names the
 * step, the node and the request; res keeps the steps before it);
 * REPLAY_CANCELLED when progress cancelled. Everything allocated is given
 * back on every path. */
int replay_run(const graph *g, const run *r, const policy *pol, const replay_opts *o,
               replay_result *res, char *err, size_t errcap);
void replay_result_free(replay_result *res);
/* Makes n bytes at p resident (a write in every page that the compiler
 * keeps); for arrays a backend or the engine writes while measuring. */
void replay_prefault(void *p, size_t n);
/* Recomputes the peaks, the largest excess and the time from res->s[0..n). */
void replay_summarize(replay_result *res);

/* Saved replays: the JSON of `memtris replay --format json`. */
int replay_write_json(FILE *f, const replay_result *res);
/* Loads a saved replay; 0, or -1 with err naming the file and the place. */
int replay_load_json(const char *path, replay_result *res, char *err, size_t errcap);
/* Checks that a replay belongs to run r of g: the same number of steps and
 * the same node at each. 0, or -1 with err naming the first difference. */
int replay_check_run(const replay_result *res, const graph *g, const run *r, char *err,
                     size_t errcap);

/* The TUI's background replay: a thread that schedules g with pol (and for
 * arena mode places it with plc), then replays it. */
typedef struct replay_job replay_job;
/* The job's run and placement take c's limits and parameters (NULL: the
 * defaults). NULL with err set (out of memory, no thread). */
replay_job *replay_job_start(const graph *g, const policy *pol, const placer *plc,
                             const replay_backend *b, int mode, const solve_ctx *c, char *err,
                             size_t errcap);
/* Steps done and in all so far (total 0 until the schedule is known);
 * returns 1 once the job has finished (replay_job_finish will not wait). */
int replay_job_poll(replay_job *j, uint32_t *done, uint32_t *total);
void replay_job_cancel(replay_job *j); /* asks it to stop; it gives everything back */
/* Waits for the job, moves its result into res and frees it; returns what
 * replay_run returned (REPLAY_*), with err set on REPLAY_FAILED. */
int replay_job_finish(replay_job *j, replay_result *res, char *err, size_t errcap);

#ifdef __cplusplus
}
#endif
#endif
