/* budget_check.c: the independent replay of a memory budget's plan: every event legal, every
 * compute node run, the never-freed buffers present at the end (on the device or the host); the
 * peak, the reruns, the
 * offloaded bytes and the time in the plan's timeline model. Knows nothing of the solver that
 * made the plan. Exports budget_check and budget_plan_extra. */
#define _GNU_SOURCE
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "budget.h"

typedef struct replay {
    const budget_model *bm;
    const graph *g;
    uint8_t *present, *host;
    uint8_t *hosted;    /* [nbufs] started on the host (BUDGET_HOST) */
    uint32_t *ver;      /* [nbufs] the version present (changes in place it holds) */
    uint32_t *host_ver; /* [nbufs] the version of its copy on the host */
    uint32_t *runs;     /* [n] how often each node ran */
    size_t *first;      /* [n] the event of its first run */
    double *ready;      /* [nbufs] when its bytes on the device are whole (made or fetched) */
    double *used;       /* [nbufs] when the last run so far that reads or writes it ends */
    double *host_ready; /* [nbufs] when its copy out has finished */
    double comp, xfer;  /* when the compute and the transfer stream are free */
    double freed;       /* when every offload so far has finished (its bytes free) */
    double bw;          /* bytes a second */
    int transfers;      /* the plan moves a buffer */
    int64_t mem;
    size_t *lastrun; /* [n] a random op's last run's event, where it runs more than once */
    int64_t *after;  /* [events] the bytes present after each event, or NULL */
    budget_stats *st;
    char *err;
    size_t errcap;
} replay;

static int fail(replay *r, size_t k, const budget_event *e, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int fail(replay *r, size_t k, const budget_event *e, const char *fmt, ...)
{
    char what[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (e && e->op == BUDGET_RUN)
        snprintf(r->err, r->errcap, "event %zu (run Id %" PRId64 "): %s", k + 1, r->g->id[e->x],
                 what);
    else if (e)
        snprintf(r->err, r->errcap, "event %zu (%s BufId %" PRId64 "): %s", k + 1,
                 budget_op_word(e->op), r->g->buf_id[e->x], what);
    else snprintf(r->err, r->errcap, "the end of the plan: %s", what);
    return -1;
}

/* A version in words: "as made", "after 1 change in place", "after 2 changes in place". */
static const char *version_words(uint32_t k, char *out, size_t cap)
{
    if (!k) snprintf(out, cap, "as made");
    else snprintf(out, cap, "after %" PRIu32 " change%s in place", k, k == 1 ? "" : "s");
    return out;
}

static int do_run(replay *r, size_t k, const budget_event *e)
{
    const budget_model *bm = r->bm;
    const graph *g = r->g;
    uint32_t v = e->x;
    if (v >= g->n || g->kind[v] != NODE_COMPUTE) return fail(r, k, NULL, "not a compute node");
    if (r->runs[v] && !bm->rerunnable[v]) return fail(r, k, e, "this node cannot be rerun");
    double start = r->comp;
    for (uint32_t i = bm->rd_off[v]; i < bm->rd_off[v + 1]; i++) {
        uint32_t l = bm->rd[i], b = bm->phys[l];
        if (!r->present[b])
            return fail(r, k, e, "it reads BufId %" PRId64 ", which is not present", g->buf_id[b]);
        if (r->ver[b] != bm->ver[l]) {
            char want[48], have[48];
            return fail(r, k, e, "it reads BufId %" PRId64 " %s, but the buffer holds it %s",
                        g->buf_id[b], version_words(bm->ver[l], want, sizeof want),
                        version_words(r->ver[b], have, sizeof have));
        }
        if (r->ready[b] > start) start = r->ready[b];
    }
    int takes = 0;
    for (uint32_t i = bm->wr_off[v]; i < bm->wr_off[v + 1]; i++) {
        uint32_t l = bm->wr[i], b = bm->phys[l];
        takes |= !r->present[b] && !(r->hosted[b] && l == b && bm->producer[l] == v);
    }
    if (takes && r->freed > start) start = r->freed;
    double end = start + graph_latency(g, v);
    for (uint32_t i = bm->wr_off[v]; i < bm->wr_off[v + 1]; i++) {
        uint32_t l = bm->wr[i], b = bm->phys[l];
        if (r->hosted[b] && l == b && bm->producer[l] == v)
            continue; /* its Input leaves it on the host */
        if (!r->present[b]) r->mem += g->buf_size[b];
        r->present[b] = 1;
        r->ver[b] = bm->ver[l]; /* a change in place, or what was there overwritten */
        r->ready[b] = end;
        r->used[b] = end;
    }
    for (uint32_t i = bm->rd_off[v]; i < bm->rd_off[v + 1]; i++) {
        uint32_t b = bm->phys[bm->rd[i]];
        if (r->used[b] < end) r->used[b] = end;
    }
    r->comp = end;
    if (r->runs[v]++) r->st->reruns++;
    else r->first[v] = k;
    /* a random op that runs again: its generator state, saved before its first run, is present
     * from then to its last rerun */
    if (bm->rng[v] && r->runs[v] == 1 && r->lastrun[v] > k) {
        r->mem += BUDGET_RNG_BYTES;
        r->st->rng_states++;
        r->st->rng_bytes += BUDGET_RNG_BYTES;
    }
    return 0;
}

static int do_buffer(replay *r, size_t k, const budget_event *e)
{
    const graph *g = r->g;
    uint32_t b = e->x;
    if (b >= g->nbufs) return fail(r, k, NULL, "no such buffer");
    int64_t size = g->buf_size[b];
    double dur = (double)size / r->bw * 1000;
    if (e->op == BUDGET_FETCH) {
        if (r->present[b]) return fail(r, k, e, "it is present already");
        if (!r->host[b]) return fail(r, k, e, "it was never offloaded");
        double start = r->xfer > r->host_ready[b] ? r->xfer : r->host_ready[b];
        if (r->freed > start) start = r->freed;
        r->xfer = r->ready[b] = start + dur;
        r->present[b] = 1;
        r->ver[b] = r->host_ver[b];
        r->mem += size;
        r->transfers = 1;
        return 0;
    }
    if (!r->present[b]) return fail(r, k, e, "it is not present");
    r->present[b] = 0;
    r->mem -= size;
    if (e->op == BUDGET_FREE) { /* its bytes are free once the runs that use it have ended */
        if (r->used[b] > r->freed) r->freed = r->used[b];
        return 0;
    }
    double start = r->xfer > r->ready[b] ? r->xfer : r->ready[b];
    r->xfer = start + dur;
    double done = r->xfer > r->used[b] ? r->xfer : r->used[b];
    r->host_ready[b] = r->xfer;
    r->host_ver[b] = r->ver[b];
    if (done > r->freed) r->freed = done;
    r->host[b] = 1;
    r->st->offloaded_bytes += size;
    r->transfers = 1;
    return 0;
}

/* The first runs in the Edges' order: when[x] is the event by which node x is done (a
 * compute node's first run; an ALLOC or FREE: its predecessors'), in a topological order. */
static int check_order(replay *r)
{
    const graph *g = r->g;
    const budget_model *bm = r->bm;
    int64_t *when = malloc(((size_t)g->n + 1) * sizeof *when);
    uint32_t *indeg = calloc((size_t)g->n + 1, sizeof *indeg),
             *queue = malloc(((size_t)g->n + 1) * sizeof *queue);
    int bad = !when || !indeg || !queue ? -2 : 0;
    size_t head = 0, tail = 0;
    for (uint32_t v = 0; !bad && v < g->n; v++) {
        indeg[v] = g->pred_off[v + 1] - g->pred_off[v];
        if (!indeg[v]) queue[tail++] = v;
    }
    while (!bad && head < tail) {
        uint32_t x = queue[head++];
        int64_t w = -1;
        for (uint32_t e = g->pred_off[x]; e < g->pred_off[x + 1]; e++)
            if (when[g->pred[e]] > w) w = when[g->pred[e]];
        if (g->kind[x] == NODE_COMPUTE) {
            if (w >= (int64_t)r->first[x]) {
                fail(r, r->first[x], &(budget_event){BUDGET_RUN, x},
                     "its first run comes before that of a node the Edges put first");
                bad = -1;
            }
            w = (int64_t)r->first[x];
        }
        when[x] = w;
        for (uint32_t e = g->succ_off[x]; e < g->succ_off[x + 1]; e++)
            if (--indeg[g->succ[e]] == 0) queue[tail++] = g->succ[e];
    }
    (void)bm;
    free(when);
    free(indeg);
    free(queue);
    if (bad == -2) snprintf(r->err, r->errcap, "out of memory");
    return bad ? -1 : 0;
}

/* The plan's first events that start buffers on the host: each a buffer present from the start
 * and on the device still; its copy there is version 0, whole from the start. The count. */
static size_t start_on_host(replay *r, const budget_plan *p)
{
    size_t k = 0;
    for (; k < p->n && p->ev[k].op == BUDGET_HOST; k++) {
        const budget_event *e = &p->ev[k];
        const char *why = e->x >= r->g->nbufs      ? "no such buffer"
                          : !r->bm->hostable[e->x] ? "it is neither present from the start nor "
                                                     "made by an Input node"
                          : r->host[e->x]          ? "it starts on the host already"
                                                   : NULL;
        if (why) {
            fail(r, k, e->x >= r->g->nbufs ? NULL : e, "%s", why);
            return SIZE_MAX;
        }
        if (r->present[e->x]) r->mem -= r->g->buf_size[e->x];
        r->present[e->x] = 0;
        r->host[e->x] = r->hosted[e->x] = 1;
        r->transfers = 1;
    }
    return k;
}

static int replay_all(replay *r, const budget_plan *p)
{
    const graph *g = r->g;
    const budget_model *bm = r->bm;
    for (uint32_t b = 0; b < g->nbufs; b++)
        if (bm->producer[b] == GRAPH_NONE) r->present[b] = 1;
    for (size_t k = 0; k < p->n; k++)
        if (p->ev[k].op == BUDGET_RUN && p->ev[k].x < g->n) r->lastrun[p->ev[k].x] = k;
    r->mem = bm->initial;
    size_t k0 = start_on_host(r, p);
    if (k0 == SIZE_MAX) return -1;
    r->st->peak = r->st->start = r->mem;
    for (size_t k = 0; k < p->n; k++) {
        const budget_event *e = &p->ev[k];
        int bad = k < k0                  ? 0
                  : e->op == BUDGET_RUN   ? do_run(r, k, e)
                  : e->op == BUDGET_HOST  ? fail(r, k, e,
                                                 "a buffer starts on the host only "
                                                  "before every other event")
                  : e->op <= BUDGET_FETCH ? do_buffer(r, k, e)
                                          : fail(r, k, NULL, "an unknown event");
        if (bad) return -1;
        if (r->mem > r->st->peak) r->st->peak = r->mem;
        if (r->after) r->after[k] = r->mem;
        if (e->op == BUDGET_RUN && bm->rng[e->x] && r->runs[e->x] > 1 && r->lastrun[e->x] == k)
            r->mem -= BUDGET_RNG_BYTES; /* its last rerun is over: the state goes */
    }
    for (uint32_t s = 0; s < bm->m; s++)
        if (!r->runs[bm->order[s]])
            return fail(r, 0, NULL, "node Id %" PRId64 " never runs", g->id[bm->order[s]]);
    for (uint32_t b = 0; b < g->nbufs; b++) {
        uint32_t l = budget_last_version(bm, b);
        if (!bm->keep[l]) continue;
        if (!r->present[b] && r->host[b] && r->host_ver[b] == bm->ver[l]) continue; /* hosted */
        if (!r->present[b])
            return fail(
                r, 0, NULL, "BufId %" PRId64 ", which the graph never frees, is not present%s",
                g->buf_id[b], r->host[b] ? " (its copy on the host is of another version)" : "");
        if (r->ver[b] != bm->ver[l]) {
            char want[48], have[48];
            return fail(r, 0, NULL,
                        "BufId %" PRId64 ", which the graph never frees, must end %s but ends %s",
                        g->buf_id[b], version_words(bm->ver[l], want, sizeof want),
                        version_words(r->ver[b], have, sizeof have));
        }
    }
    return check_order(r);
}

int budget_check(const budget_model *bm, const budget_plan *p, double bandwidth, budget_stats *st,
                 char *err, size_t errcap)
{
    return budget_check_memory(bm, p, bandwidth, st, NULL, err, errcap);
}

int budget_check_memory(const budget_model *bm, const budget_plan *p, double bandwidth,
                        budget_stats *st, int64_t *after, char *err, size_t errcap)
{
    const graph *g = bm->g;
    memset(st, 0, sizeof *st);
    replay r = {
        .bm = bm, .g = g, .st = st, .err = err, .errcap = errcap, .bw = bandwidth, .after = after};
    size_t nb = (size_t)g->nbufs + 1, n = (size_t)g->n + 1;
    r.present = calloc(nb, 1);
    r.host = calloc(nb, 1);
    r.hosted = calloc(nb, 1);
    r.ver = calloc(nb, sizeof *r.ver);
    r.host_ver = calloc(nb, sizeof *r.host_ver);
    r.runs = calloc(n, sizeof *r.runs);
    r.first = calloc(n, sizeof *r.first);
    r.ready = calloc(nb, sizeof *r.ready);
    r.used = calloc(nb, sizeof *r.used);
    r.host_ready = calloc(nb, sizeof *r.host_ready);
    r.lastrun = calloc(n, sizeof *r.lastrun);
    int bad = -1;
    if (!r.present || !r.host || !r.hosted || !r.ver || !r.host_ver || !r.runs || !r.first ||
        !r.ready || !r.used || !r.host_ready || !r.lastrun)
        snprintf(err, errcap, "out of memory");
    else if (!(bandwidth > 0)) snprintf(err, errcap, "the bandwidth must be above 0");
    else bad = replay_all(&r, p);
    if (!bad) {
        double base = 0, reruns = 0;
        for (uint32_t s = 0; s < bm->m; s++) base += graph_latency(g, bm->order[s]);
        for (uint32_t s = 0; s < bm->m; s++)
            reruns += (r.runs[bm->order[s]] - 1) * graph_latency(g, bm->order[s]);
        st->makespan_ms = r.comp > r.xfer ? r.comp : r.xfer;
        /* Recompute alone: the reruns' latencies, added in one order so that sums agree. */
        st->extra_ms = r.transfers ? st->makespan_ms - base : reruns;
        if (st->extra_ms < 0) st->extra_ms = 0;
        st->events = p->n;
    }
    free(r.present);
    free(r.host);
    free(r.hosted);
    free(r.ver);
    free(r.host_ver);
    free(r.runs);
    free(r.first);
    free(r.ready);
    free(r.used);
    free(r.host_ready);
    free(r.lastrun);
    return bad;
}

double budget_plan_extra(const budget_model *bm, const budget_plan *p, int64_t budget, double bw)
{
    budget_stats st;
    char err[8];
    if (budget_check(bm, p, bw, &st, err, sizeof err) || st.peak > budget) return HUGE_VAL;
    return st.extra_ms;
}
