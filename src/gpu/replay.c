/* replay.c: the replay engine: walks a schedule, performs each step on a
 * backend (allocations as the mode says, compute steps writing their
 * buffers), reads the memory after it (the backends' table: replay_backends.c).
 * Exports replay_run, replay_summarize, replay_prefault, replay_mode_*. */
#define _GNU_SOURCE
#include "replay.h"
#include "util/clock.h"
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "sched/time/pool.h"
#include "util/units.h"

static const char *const mode_names[REPLAY_NMODES] = {"raw", "arena", "pool", "async"};

const char *replay_mode_name(int mode)
{
    return mode >= 0 && mode < REPLAY_NMODES ? mode_names[mode] : "?";
}

int replay_mode_find(const char *name)
{
    for (int m = 0; name && m < REPLAY_NMODES; m++)
        if (!strcmp(name, mode_names[m])) return m;
    return -1;
}

void replay_result_free(replay_result *res)
{
    free(res->s);
    free(res->plan_op);
    free(res->plan_x);
    memset(res, 0, sizeof *res);
}

void replay_summarize(replay_result *res)
{
    res->predicted_peak = res->measured_peak = 0;
    res->predicted_peak_step = res->measured_peak_step = res->max_excess_step = 0;
    res->max_excess = INT64_MIN;
    res->seconds = 0;
    for (uint32_t i = 0; i < res->n; i++) {
        const replay_sample *x = &res->s[i];
        if (x->predicted > res->predicted_peak) {
            res->predicted_peak = x->predicted;
            res->predicted_peak_step = i;
        }
        if (x->measured > res->measured_peak) {
            res->measured_peak = x->measured;
            res->measured_peak_step = i;
        }
        if (x->measured - x->predicted > res->max_excess) {
            res->max_excess = x->measured - x->predicted;
            res->max_excess_step = i;
        }
        res->seconds += x->ms / 1e3;
    }
    if (!res->n) res->max_excess = 0;
}

/* The engine's state for one replay. */
typedef struct eng {
    const graph *g;
    const run *r;
    const replay_backend *be;
    replay_dev *dev;
    int mode;
    const placement *pl;
    uint32_t *slot; /* [nbufs] raw/async/pool: the slot holding buffer b, GRAPH_NONE if none */
    uint8_t *live;  /* [nbufs] */
    /* pool: per 2^c class, a stack of free slots; the size of each slot */
    uint32_t *pool_next; /* [nslots] link in its class's stack */
    uint32_t pool_head[64];
    uint32_t nslots_used;
    int64_t held;      /* bytes held on the device by the replay */
    replay_region *rg; /* [nbufs] a compute step's regions */
    uint8_t *seen;     /* [nbufs] scratch for collecting regions: marks, */
    uint32_t *rbuf;    /* [nbufs] and the buffers marked */
    char *err;
    size_t errcap;
} eng;

/* Makes n bytes at p resident now: a write the compiler cannot drop (it
 * may fold malloc + memset into calloc, and drop a memset of calloc'ed
 * memory) in every page. The engine's arrays are written during the replay;
 * on the host backend, their first writes would count as measured memory. */
void replay_prefault(void *p, size_t n)
{
    volatile unsigned char *v = p;
    for (size_t i = 0; i < n; i += 4096) v[i] = v[i];
    if (n) v[n - 1] = v[n - 1];
}

/* "step 12 (node 40, ALLOC of buffer 7)": s + 1, the step users see */
static void step_words(const eng *e, uint32_t s, char *out, size_t cap)
{
    const graph *g = e->g;
    uint32_t u = e->r->order[s], b = g->buf[u];
    if (b != GRAPH_NONE)
        snprintf(out, cap, "step %u (node %" PRId64 ", %s of buffer %" PRId64 ")", s + 1, g->id[u],
                 graph_kind_word(g->kind[u]), g->buf_id[b]);
    else {
        char lb[GRAPH_LABEL_MAX];
        snprintf(out, cap, "step %u (node %" PRId64 ", %s)", s + 1, g->id[u],
                 graph_display(g, u, lb, sizeof lb));
    }
}

static int fail(eng *e, uint32_t s, const char *what)
{
    char where[160];
    step_words(e, s, where, sizeof where);
    snprintf(e->err, e->errcap, "%s backend, mode %s: %s: %s: %s", e->be->name,
             replay_mode_name(e->mode), where, what, e->be->error(e->dev));
    return -1;
}

/* What an allocation is for, in error messages. */
enum { FOR_BUFFER, FOR_ARENA, FOR_POOL };

/* Allocates bytes for slot at step s: a buffer, the plan's arena, or a pool
 * block for a request of `asked` bytes. */
static int do_alloc(eng *e, uint32_t s, uint32_t slot, int64_t bytes, int what_for, int64_t asked)
{
    int oom = 0;
    if (e->be->alloc(e->dev, slot, bytes, &oom)) {
        char what[256], sz[32], held[32], req[64] = "";
        if (what_for == FOR_POOL)
            snprintf(req, sizeof req, " for a request of %" PRId64 " bytes", asked);
        snprintf(what, sizeof what, "%s %s%s (%" PRId64 " bytes)%s with %s held by the replay",
                 oom ? "out of memory allocating" : "cannot allocate",
                 what_for == FOR_ARENA  ? "the arena of "
                 : what_for == FOR_POOL ? "a pool block of "
                                        : "",
                 units_bytes(sz, sizeof sz, bytes, 0), bytes, req,
                 units_bytes(held, sizeof held, e->held, 0));
        return fail(e, s, what);
    }
    e->held += bytes;
    return 0;
}

/* Adds live buffer b (once) to the regions of the compute step being built. */
static void add_region(eng *e, uint32_t b, uint32_t *n)
{
    const graph *g = e->g;
    if (b == GRAPH_NONE || !e->live[b] || e->seen[b] || g->buf_size[b] <= 0) return;
    e->seen[b] = 1;
    e->rbuf[*n] = b;
    e->rg[(*n)++] = e->mode == REPLAY_ARENA ? (replay_region){0, e->pl->offset[b], g->buf_size[b]}
                                            : (replay_region){e->slot[b], 0, g->buf_size[b]};
}

/* The regions a compute node writes: the live buffers its Inputs name, or
 * when it names none, the live buffers of its neighbourhood (the ALLOCs
 * before it and the FREEs after it). */
static uint32_t regions(eng *e, uint32_t u)
{
    const graph *g = e->g;
    uint32_t n = 0;
    if (g->in_off[u] < g->in_off[u + 1]) {
        for (uint32_t j = g->in_off[u]; j < g->in_off[u + 1]; j++)
            add_region(e, graph_find_buf(g, g->inputs[j]), &n);
    } else {
        for (uint32_t j = g->pred_off[u]; j < g->pred_off[u + 1]; j++)
            if (g->kind[g->pred[j]] == NODE_ALLOC) add_region(e, g->buf[g->pred[j]], &n);
        for (uint32_t j = g->succ_off[u]; j < g->succ_off[u + 1]; j++)
            if (g->kind[g->succ[j]] == NODE_FREE) add_region(e, g->buf[g->succ[j]], &n);
    }
    for (uint32_t i = 0; i < n; i++) e->seen[e->rbuf[i]] = 0;
    return n;
}

/* Performs step s; 0 or -1 with e->err set. */
static int do_step(eng *e, uint32_t s)
{
    const graph *g = e->g;
    uint32_t u = e->r->order[s], b = g->buf[u];
    if (g->kind[u] == NODE_COMPUTE) {
        uint32_t n = regions(e, u);
        if (n && e->be->touch(e->dev, e->rg, n)) return fail(e, s, "writing its buffers failed");
        return 0;
    }
    if (b == GRAPH_NONE) return 0;
    int64_t size = g->buf_size[b];
    if (g->kind[u] == NODE_ALLOC) {
        e->live[b] = 1;
        if (size == 0 || e->mode == REPLAY_ARENA) return 0;
        if (e->mode == REPLAY_POOL) {
            int c = pool_class(size);
            if (e->pool_head[c] != GRAPH_NONE) {
                e->slot[b] = e->pool_head[c];
                e->pool_head[c] = e->pool_next[e->slot[b]];
                return 0;
            }
            if (do_alloc(e, s, e->nslots_used, (int64_t)1 << c, FOR_POOL, size)) return -1;
            e->slot[b] = e->nslots_used++;
            return 0;
        }
        if (do_alloc(e, s, b, size, FOR_BUFFER, 0)) return -1;
        e->slot[b] = b;
        return 0;
    }
    /* FREE */
    if (!e->live[b]) return 0;
    e->live[b] = 0;
    if (size == 0 || e->mode == REPLAY_ARENA || e->slot[b] == GRAPH_NONE) return 0;
    uint32_t sl = e->slot[b];
    e->slot[b] = GRAPH_NONE;
    if (e->mode == REPLAY_POOL) {
        int c = pool_class(size);
        e->pool_next[sl] = e->pool_head[c];
        e->pool_head[c] = sl;
        return 0;
    }
    if (e->be->release(e->dev, sl)) return fail(e, s, "giving the buffer back failed");
    e->held -= size;
    return 0;
}

/* Gives back everything the replay holds (pool blocks and the arena too). */
static void release_all(eng *e)
{
    const graph *g = e->g;
    if (e->mode == REPLAY_POOL || e->mode == REPLAY_ARENA) {
        for (uint32_t sl = 0; sl < e->nslots_used; sl++) e->be->release(e->dev, sl);
    } else {
        for (uint32_t b = 0; b < g->nbufs; b++)
            if (e->slot[b] != GRAPH_NONE) e->be->release(e->dev, e->slot[b]);
    }
    for (uint32_t b = 0; b < g->nbufs; b++) e->slot[b] = GRAPH_NONE;
    e->nslots_used = 0;
    e->held = 0;
}

/* The residual, after release_all: trims the backend's cache, then reads.
 * A failure of either leaves it unknown, with the backend's reason (a
 * reading taken over an untrimmed pool would blame the replay for what
 * the pool keeps). */
static void read_residual(eng *e, replay_result *res)
{
    int64_t used = 0;
    const char *what = "giving the backend's cached memory back failed";
    if (!e->be->trim || !e->be->trim(e->dev)) {
        what = "the reading after giving everything back failed";
        if (!e->be->read(e->dev, &used)) {
            res->residual = used - res->baseline;
            res->residual_known = 1;
            return;
        }
    }
    snprintf(res->residual_error, sizeof res->residual_error, "%s: %s", what, e->be->error(e->dev));
}

int replay_run(const graph *g, const run *r, const policy *pol, const replay_opts *o,
               replay_result *res, char *err, size_t errcap)
{
    memset(res, 0, sizeof *res);
    const replay_backend *be = o->backend;
    snprintf(res->backend, sizeof res->backend, "%s", be->name);
    snprintf(res->mode, sizeof res->mode, "%s", replay_mode_name(o->mode));
    snprintf(res->policy, sizeof res->policy, "%s", pol ? pol->name : "");
    if (o->mode < 0 || o->mode >= REPLAY_NMODES || !(be->modes & (1u << o->mode))) {
        snprintf(err, errcap, "the %s backend has no %s mode", be->name, replay_mode_name(o->mode));
        return -1;
    }
    if (o->mode == REPLAY_ARENA && !o->pl) {
        snprintf(err, errcap, "arena mode needs a placement");
        return -1;
    }
    if (o->mode == REPLAY_ARENA) snprintf(res->placer, sizeof res->placer, "%s", o->pl->placer);
    res->total = r->n;
    size_t nb = (size_t)g->nbufs + 1;
    eng e = {.g = g, .r = r, .be = be, .mode = o->mode, .pl = o->pl, .err = err, .errcap = errcap};
    res->s = calloc((size_t)r->n + 1, sizeof *res->s);
    e.slot = malloc(nb * sizeof *e.slot);
    e.live = calloc(nb, 1);
    e.seen = calloc(nb, 1);
    e.rbuf = malloc(nb * sizeof *e.rbuf);
    e.rg = malloc(nb * sizeof *e.rg);
    e.pool_next = malloc(nb * sizeof *e.pool_next);
    int rc = -1;
    if (!res->s || !e.slot || !e.live || !e.seen || !e.rbuf || !e.rg || !e.pool_next) {
        snprintf(err, errcap, "out of memory replaying %u steps", r->n);
        goto out;
    }
    for (size_t b = 0; b < nb; b++) e.slot[b] = GRAPH_NONE;
    /* Resident now, so that the host backend's reading does not grow with
     * the samples and the marks while it measures. */
    replay_prefault(res->s, ((size_t)r->n + 1) * sizeof *res->s);
    replay_prefault(e.live, nb);
    replay_prefault(e.seen, nb);
    replay_prefault(e.rbuf, nb * sizeof *e.rbuf);
    replay_prefault(e.rg, nb * sizeof *e.rg);
    replay_prefault(e.pool_next, nb * sizeof *e.pool_next);
    for (int c = 0; c < 64; c++) e.pool_head[c] = GRAPH_NONE;
    char oerr[256];
    e.dev = be->open(o->mode, (uint32_t)nb, oerr, sizeof oerr);
    if (!e.dev) {
        snprintf(err, errcap, "%s backend: %s", be->name, oerr);
        snprintf(res->unavailable, sizeof res->unavailable, "%s", oerr);
        goto out;
    }
    res->opened = 1;
    be->info(e.dev, &res->info);
    if (o->progress && o->progress(o->ctx, 0, r->n)) {
        rc = REPLAY_CANCELLED;
        goto out;
    }
    if (be->read(e.dev, &res->baseline)) {
        snprintf(err, errcap, "%s backend: cannot read the memory in use: %s", be->name,
                 be->error(e.dev));
        goto out;
    }
    for (uint32_t s = 0; s < r->n; s++) {
        double t0 = clock_seconds();
        if (s == 0 && o->mode == REPLAY_ARENA && o->pl->arena > 0) {
            if (do_alloc(&e, 0, 0, o->pl->arena, FOR_ARENA, 0))
                goto stop; /* the arena, with the first step */
            e.nslots_used = 1;
        }
        if (do_step(&e, s)) goto stop;
        int64_t used;
        /* read waits for the device first: a fault of the step's kernels shows here */
        if (be->read(e.dev, &used)) {
            fail(&e, s, "finishing the step or reading the memory in use failed");
            goto stop;
        }
        replay_sample *x = &res->s[s];
        x->step = s;
        x->node = g->id[r->order[s]];
        x->predicted = r->memory[s];
        x->measured = used - res->baseline;
        x->ms = (clock_seconds() - t0) * 1e3;
        res->n = s + 1;
        if (o->progress && o->progress(o->ctx, s + 1, r->n)) {
            rc = REPLAY_CANCELLED;
            goto stop;
        }
    }
    rc = 0;
stop:
    if (o->mode == REPLAY_ARENA) res->held = o->pl->arena;
    else if (o->mode == REPLAY_POOL) res->held = e.held;
    release_all(&e);
    read_residual(&e, res);
out:
    if (!res->residual_known && !res->residual_error[0])
        snprintf(res->residual_error, sizeof res->residual_error,
                 "the replay stopped before its first reading");
    if (e.dev) be->close(e.dev);
    replay_summarize(res);
    free(e.slot);
    free(e.live);
    free(e.seen);
    free(e.rbuf);
    free(e.rg);
    free(e.pool_next);
    return rc;
}
