/* live_rows.c: the live list's rows (live_rows.h): the buffers live at a step grouped by
 * Category, every header first, the room shared out among the fitted groups one row at a time,
 * biggest group first. Exports live_rows_build, live_rows_free, live_rows_by_size. */
#define _GNU_SOURCE
#include "live_rows.h"
#include <stdlib.h>
#include <string.h>
#include "sched/policy/bycat.h"

static int larger_first(const void *x, const void *y, void *ctx)
{
    const graph *g = ctx;
    uint32_t i = *(const uint32_t *)x, j = *(const uint32_t *)y;
    if (g->buf_size[i] != g->buf_size[j]) return g->buf_size[i] < g->buf_size[j] ? 1 : -1;
    return (g->buf_id[i] > g->buf_id[j]) - (g->buf_id[i] < g->buf_id[j]);
}

void live_rows_by_size(const graph *g, uint32_t *bufs, uint32_t n)
{
    qsort_r(bufs, n, sizeof *bufs, larger_first, (void *)(uintptr_t)g);
}

/* The rows each group takes under its header (want[j]: the group's buffers; fold[j] its
 * state) when left rows are shared out: all of them when open, none folded, else in turns
 * while rows are left: a share short of the whole ends in "and N more", so a group's first
 * turn takes two rows (one buffer and that line) unless one buffer is all it has. */
static void share(int ng, const uint32_t *want, const uint8_t *fold, int64_t left, uint32_t *got)
{
    for (int j = 0; j < ng; j++) {
        got[j] = fold[j] == LIVE_OPEN ? want[j] : 0;
        if (fold[j] == LIVE_OPEN) left -= want[j];
    }
    for (int more = 1; more && left > 0;) {
        more = 0;
        for (int j = 0; j < ng && left > 0; j++) {
            uint32_t need = !got[j] && want[j] > 1 ? 2 : 1;
            if (fold[j] != LIVE_FIT || got[j] >= want[j] || need > left) continue;
            got[j] += need;
            left -= need;
            more = 1;
        }
    }
}

/* Writes group cat's rows, its buffers bufs[0..n) taking `got` rows (n: every one). */
static void group_rows(live_rows *lr, const graph *g, int cat, const uint32_t *bufs, uint32_t n,
                       uint32_t got)
{
    uint32_t show = got >= n ? n : got ? got - 1 : 0;
    for (uint32_t i = 0; i < show; i++)
        lr->row[lr->n++] = (live_row){LIVE_BUF, cat, bufs[i], 0, g->buf_size[bufs[i]]};
    if (show == n || !got) return;
    int64_t rest = 0;
    for (uint32_t i = show; i < n; i++) rest += g->buf_size[bufs[i]];
    lr->row[lr->n++] = (live_row){LIVE_MORE, cat, GRAPH_NONE, n - show, rest};
}

int live_rows_build(live_rows *lr, const graph *g, const stepper *s,
                    const uint8_t fold[LIVE_NGROUP], int room)
{
    memset(lr, 0, sizeof *lr);
    uint32_t *live = malloc(((size_t)g->nbufs + 1) * sizeof *live);
    lr->row = malloc(((size_t)g->nbufs + 2 * LIVE_NGROUP) * sizeof *lr->row);
    if (!live || !lr->row) {
        free(live);
        live_rows_free(lr);
        return -1;
    }
    for (uint32_t b = 0; b < g->nbufs; b++)
        if (step_buf_live(s, b)) {
            live[lr->nlive++] = b;
            lr->total += g->buf_size[b];
        }
    live_rows_by_size(g, live, lr->nlive);
    lr->grouped = bycat_any(g);
    uint32_t got[GRAPH_NCAT], want[GRAPH_NCAT] = {0};
    if (!lr->grouped) {
        uint8_t f = fold[LIVE_FLAT] == LIVE_FOLDED ? LIVE_FIT : fold[LIVE_FLAT];
        share(1, &lr->nlive, &f, room, got);
        group_rows(lr, g, LIVE_FLAT, live, lr->nlive, got[0]);
        lr->whole[LIVE_FLAT] = lr->n == lr->nlive;
        free(live);
        return 0;
    }
    /* By category, biggest first (a category of 0-byte buffers still has its header). */
    int64_t bytes[GRAPH_NCAT] = {0}, key[GRAPH_NCAT];
    uint32_t *sorted = malloc(((size_t)lr->nlive + 1) * sizeof *sorted), at[GRAPH_NCAT + 1];
    if (!sorted) {
        free(live);
        live_rows_free(lr);
        return -1;
    }
    for (uint32_t i = 0; i < lr->nlive; i++) {
        int c = graph_buf_category(g, live[i]);
        bytes[c] += g->buf_size[live[i]];
        want[c]++;
    }
    for (int c = 0; c < GRAPH_NCAT; c++) key[c] = want[c] ? bytes[c] + 1 : 0;
    int order[GRAPH_NCAT], nc = bycat_order(key, order);
    if (nc > GRAPH_NCAT) nc = GRAPH_NCAT; /* never: GCC's -O2 cannot see it (stringop-overflow) */
    uint32_t gw[GRAPH_NCAT] = {0};
    uint8_t gf[GRAPH_NCAT] = {0};
    at[0] = 0;
    for (int j = 0; j < nc; j++) { /* each group's buffers, still largest first */
        int c = order[j];
        gw[j] = want[c];
        gf[j] = fold[c];
        at[j + 1] = at[j];
        for (uint32_t i = 0; i < lr->nlive; i++)
            if (graph_buf_category(g, live[i]) == c) sorted[at[j + 1]++] = live[i];
    }
    share(nc, gw, gf, (int64_t)room - nc, got);
    for (int j = 0; j < nc; j++) {
        int c = order[j];
        lr->row[lr->n++] = (live_row){LIVE_HEAD, c, GRAPH_NONE, gw[j], bytes[c]};
        if (gf[j] != LIVE_FOLDED) group_rows(lr, g, c, sorted + at[j], gw[j], got[j]);
        lr->whole[c] = gf[j] != LIVE_FOLDED && got[j] >= gw[j];
    }
    free(sorted);
    free(live);
    return 0;
}

void live_rows_free(live_rows *lr)
{
    free(lr->row);
    lr->row = NULL;
    lr->n = 0;
}
