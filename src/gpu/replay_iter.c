/* replay_iter.c: iterate's pools on a replay backend: the allocations that
 * pool_simulate counted, made for real, and the memory read after each
 * iteration. Exports replay_iterate. */
#include "replay_iter.h"
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* One pool's run on an open device. */
typedef struct iter_dev {
    const replay_backend *be;
    replay_dev *dev;
    int64_t held; /* the arena's bytes in slot 0 (static, elastic) */
    char *err;
    size_t errcap;
    int kind;
    uint32_t it; /* 0-based iteration */
} iter_dev;

static int dev_fail(iter_dev *d, const char *what, int64_t bytes)
{
    snprintf(d->err, d->errcap, "%s backend, %s pool, iteration %u: %s (%" PRId64 " bytes): %s",
             d->be->name, pool_kind_at(d->kind)->name, d->it + 1, what, bytes,
             d->be->error(d->dev));
    return -1;
}

/* Allocates and writes `bytes` in slot. */
static int dev_take(iter_dev *d, uint32_t slot, int64_t bytes)
{
    int oom = 0;
    if (d->be->alloc(d->dev, slot, bytes, &oom))
        return dev_fail(d, oom ? "out of memory allocating" : "cannot allocate", bytes);
    replay_region rg = {slot, 0, bytes};
    if (d->be->touch(d->dev, &rg, 1)) return dev_fail(d, "writing", bytes);
    return 0;
}

static int on_fresh(void *ctx, uint32_t block, int64_t bytes)
{
    return dev_take(ctx, block, bytes);
}

/* Iteration i of an arena pool: the arena becomes cap bytes when the pool
 * allocated in it, and the need is written. */
static int arena_iter(iter_dev *d, const pool_point *p, int64_t need)
{
    if (p->allocs && p->cap != d->held) {
        if (d->held && d->be->release(d->dev, 0)) return dev_fail(d, "giving back", d->held);
        d->held = 0;
        if (p->cap > 0) {
            if (dev_take(d, 0, p->cap)) return -1;
            d->held = p->cap;
        }
    }
    if (need <= 0) return 0;
    replay_region rg = {0, 0, need};
    return d->be->touch(d->dev, &rg, 1) ? dev_fail(d, "writing", need) : 0;
}

/* One pool, all its iterations, on a newly opened device. */
static int run_pool(const graph *g, const run *r, iter_dev *d, pool_sim *s, replay_info *info,
                    int *unavailable)
{
    pool_sc sc;
    pool_sc_init(&sc);
    uint32_t nblocks = d->kind == POOL_SIZECLASS ? (uint32_t)s->tot[POOL_SIZECLASS].reallocs : 1;
    pool_walk w = {g, r, 0, malloc(((size_t)g->nbufs + 1) * sizeof *w.slot)};
    int rc = -1;
    if (!w.slot || pool_sc_reserve(&sc, nblocks ? nblocks : 1)) {
        snprintf(d->err, d->errcap, "out of memory");
        goto out;
    }
    for (uint32_t b = 0; b <= g->nbufs; b++) w.slot[b] = GRAPH_NONE;
    /* Resident before the baseline: the host backend measures this process. */
    replay_prefault(w.slot, ((size_t)g->nbufs + 1) * sizeof *w.slot);
    replay_prefault(sc.next, (size_t)sc.cap * sizeof *sc.next);
    replay_prefault(sc.cls, sc.cap);
    char oerr[256];
    d->dev = d->be->open(REPLAY_RAW, nblocks ? nblocks : 1, oerr, sizeof oerr);
    if (!d->dev) {
        snprintf(d->err, d->errcap, "%s backend: %s", d->be->name, oerr);
        *unavailable = 1;
        goto out;
    }
    d->be->info(d->dev, info);
    int64_t base, used;
    if (d->be->read(d->dev, &base)) {
        snprintf(d->err, d->errcap, "%s backend: cannot read the memory in use: %s", d->be->name,
                 d->be->error(d->dev));
        goto out;
    }
    for (d->it = 0; d->it < s->n; d->it++) {
        pool_point *p = &s->pt[d->kind][d->it];
        if (d->kind == POOL_SIZECLASS) {
            w.f = s->factor[d->it];
            if (pool_sc_walk(&sc, &w, on_fresh, d) < 0) {
                if (!d->err[0]) snprintf(d->err, d->errcap, "out of memory");
                goto out;
            }
        } else if (arena_iter(d, p, s->need[d->it])) {
            goto out;
        }
        if (d->be->read(d->dev, &used)) {
            dev_fail(d, "reading the memory in use failed", 0);
            goto out;
        }
        p->measured = used - base;
    }
    rc = 0;
out:
    if (d->dev) d->be->close(d->dev); /* gives every slot back */
    d->dev = NULL;
    d->held = 0;
    free(w.slot);
    pool_sc_free(&sc);
    return rc;
}

int replay_iterate(const graph *g, const run *r, const replay_backend *be, pool_sim *s,
                   replay_info *info, int *unavailable, char *err, size_t errcap)
{
    *unavailable = 0;
    memset(info, 0, sizeof *info);
    if (err && errcap) err[0] = 0;
    for (int k = 0; k < POOL_NKINDS; k++) {
        iter_dev d = {.be = be, .err = err, .errcap = errcap, .kind = k};
        if (run_pool(g, r, &d, s, info, unavailable)) return -1;
    }
    s->measured = 1;
    pool_totals(s);
    return 0;
}
