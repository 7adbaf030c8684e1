/* arena_rows.c: the rows of the arena stack, each split across among what
 * it holds (arena_rows.h). Exports arena_rows_build, arena_rows_free,
 * arena_rows_at. */
#define _GNU_SOURCE
#include "arena_rows.h"
#include "geom.h"
#include <stdlib.h>
#include <string.h>

/* One thing a row holds before it has columns: kind, its bytes in the row,
 * the live buffer (index into live_buf) for a buffer. */
typedef struct part {
    int kind, cols;
    uint32_t li;
    int64_t bytes;
    double want; /* its share of the columns */
} part;

static int by_offset(const void *x, const void *y, void *ctx)
{
    const int64_t *off = ctx;
    int64_t a = off[*(const uint32_t *)x], b = off[*(const uint32_t *)y];
    return (a > b) - (a < b);
}

/* Which parts keep a column when there are more than columns: holes
 * first (they are what the panel is for), then buffers, the larger first;
 * negative when a comes first. */
static int worth_cmp(const part *a, const part *b)
{
    int ra = a->kind == ARENA_SEG_HOLE  ? 0
             : a->kind == ARENA_SEG_BUF ? 1
                                        : 2,
        rb = b->kind == ARENA_SEG_HOLE  ? 0
             : b->kind == ARENA_SEG_BUF ? 1
                                        : 2;
    if (ra != rb) return ra - rb;
    return (a->bytes < b->bytes) - (a->bytes > b->bytes);
}

/* Puts the k parts of most worth in idx[0 .. k) (in no order): a quickselect,
 * linear on the rows of thousands of buffers a large graph has. */
static void select_top(const part *p, uint32_t *idx, uint32_t n, uint32_t k)
{
    uint32_t lo = 0, hi = n - 1;
    while (lo < hi) {
        const part *pv = &p[idx[lo + (hi - lo) / 2]];
        uint32_t i = lo, j = hi;
        while (i <= j) {
            while (worth_cmp(&p[idx[i]], pv) < 0) i++;
            while (worth_cmp(&p[idx[j]], pv) > 0) j--;
            if (i <= j) {
                uint32_t t = idx[i];
                idx[i++] = idx[j];
                idx[j] = t;
                if (j-- == 0) break;
            }
        }
        if (k - 1 <= j && j < hi) hi = j;
        else if (k - 1 >= i) lo = i;
        else break;
    }
}

/* Row j's addresses [*lo, *hi): those whose row geom_addr_row gives is j;
 * a row no address falls in (an arena of fewer bytes than rows) shows the
 * byte at its start. */
static void row_range(int64_t arena, int ph, int j, int64_t *lo, int64_t *hi)
{
    *lo = (int64_t)(((__int128)j * arena + ph - 1) / ph);
    *hi = (int64_t)(((__int128)(j + 1) * arena + ph - 1) / ph);
    if (*lo >= arena) *lo = arena - 1;
    if (*hi <= *lo) *hi = *lo + 1;
}

/* Appends the free bytes [a, b) of a row: a hole below the high-water mark,
 * room above it. */
static uint32_t add_gap(part *p, uint32_t np, int64_t a, int64_t b, int64_t hwm)
{
    if (a < b && a < hwm) p[np++] = (part){ARENA_SEG_HOLE, 0, 0, (b < hwm ? b : hwm) - a, 0};
    if (a < b && b > hwm) p[np++] = (part){ARENA_SEG_ABOVE, 0, 0, b - (a > hwm ? a : hwm), 0};
    return np;
}

/* Columns for np parts on pw: each kept part at least one, the rest in
 * proportion to bytes (the largest shortfall first); parts that do not get
 * one keep cols 0. */
static void share_columns(part *p, uint32_t np, int pw, uint32_t *idx)
{
    for (uint32_t i = 0; i < np; i++) idx[i] = i;
    uint32_t keep = np;
    if (np > (uint32_t)pw) {
        select_top(p, idx, np, (uint32_t)pw);
        keep = (uint32_t)pw;
    }
    int64_t total = 0;
    for (uint32_t i = 0; i < keep; i++) total += p[idx[i]].bytes;
    int used = 0;
    for (uint32_t i = 0; i < keep; i++) {
        part *q = &p[idx[i]];
        q->want = total > 0 ? (double)q->bytes * pw / (double)total : 1.0;
        q->cols = (int)q->want < 1 ? 1 : (int)q->want;
        used += q->cols;
    }
    while (used != pw) { /* too many: take from the widest; too few: give the most owed */
        part *best = NULL;
        for (uint32_t i = 0; i < keep; i++) {
            part *q = &p[idx[i]];
            if (used > pw ? q->cols > 1 && (!best || q->cols > best->cols)
                          : !best || q->want - q->cols > best->want - best->cols)
                best = q;
        }
        if (!best) break;
        best->cols += used > pw ? -1 : 1;
        used += used > pw ? -1 : 1;
    }
}

/* Gathers row j's parts from the live buffers by address, from *first on. */
static uint32_t row_parts(const arena_rows *ar, const graph *g, const placement *pl, int64_t lo,
                          int64_t hi, uint32_t *first, part *p)
{
    uint32_t np = 0, i = *first;
    while (i < ar->nlive) {
        uint32_t b = ar->live_buf[i];
        if (pl->offset[b] + place_span(g->buf_size[b], pl->align) > lo) break;
        i++;
    }
    *first = i;
    int64_t cur = lo;
    for (; i < ar->nlive && pl->offset[ar->live_buf[i]] < hi; i++) {
        uint32_t b = ar->live_buf[i];
        int64_t a = pl->offset[b] > cur ? pl->offset[b] : cur,
                e = pl->offset[b] + place_span(g->buf_size[b], pl->align);
        if (e > hi) e = hi;
        if (e <= a) continue;
        np = add_gap(p, np, cur, a, ar->hwm);
        p[np++] = (part){ARENA_SEG_BUF, 0, i, e - a, 0};
        cur = e;
    }
    return add_gap(p, np, cur, hi, ar->hwm);
}

/* Lays out row j: its parts as segments, each buffer's widest part kept
 * for its label (the row nearest its middle among equals). */
static void row_layout(arena_rows *ar, const graph *g, const placement *pl, int j, uint32_t *first,
                       part *p, uint32_t *idx)
{
    int64_t lo, hi;
    row_range(pl->arena, ar->ph, j, &lo, &hi);
    uint32_t np = row_parts(ar, g, pl, lo, hi, first, p);
    share_columns(p, np, ar->pw, idx);
    int x = 0;
    for (uint32_t i = 0; i < np; i++) {
        if (!p[i].cols) continue;
        uint32_t b = p[i].kind == ARENA_SEG_BUF ? ar->live_buf[p[i].li] : GRAPH_NONE;
        ar->seg[ar->row0[j + 1]++] = (arena_seg){p[i].kind, x, p[i].cols, b};
        if (b != GRAPH_NONE) {
            uint32_t li = p[i].li;
            int64_t mid = pl->offset[b] + place_span(g->buf_size[b], pl->align) / 2;
            int jm = (int)((__int128)mid * ar->ph / pl->arena);
            if (p[i].cols > ar->lab_w[li] ||
                (p[i].cols == ar->lab_w[li] && abs(j - jm) < abs(ar->lab_y[li] - jm))) {
                ar->lab_w[li] = p[i].cols;
                ar->lab_x[li] = x;
                ar->lab_y[li] = j;
            }
        }
        x += p[i].cols;
    }
}

/* The live buffers by address: counted into their first rows, then each
 * row's few sorted (one sort of them all took most of a frame with
 * thousands live). 0, or -1 out of memory. */
static int sort_by_address(arena_rows *ar, const placement *pl)
{
    uint32_t n = ar->nlive, *cnt = calloc((size_t)ar->ph + 1, sizeof *cnt),
             *out = malloc(((size_t)n + 1) * sizeof *out);
    if (!cnt || !out) {
        free(cnt);
        free(out);
        return -1;
    }
    for (uint32_t i = 0; i < n; i++)
        cnt[geom_addr_row(pl->offset[ar->live_buf[i]], pl->arena, ar->ph) + 1]++;
    for (int j = 0; j < ar->ph; j++) cnt[j + 1] += cnt[j];
    for (uint32_t i = 0; i < n; i++) {
        uint32_t b = ar->live_buf[i];
        out[cnt[geom_addr_row(pl->offset[b], pl->arena, ar->ph)]++] = b;
    }
    /* cnt[j] is now where row j + 1 starts */
    for (int j = 0; j < ar->ph; j++) {
        uint32_t lo = j ? cnt[j - 1] : 0;
        if (cnt[j] - lo > 1)
            qsort_r(out + lo, cnt[j] - lo, sizeof *out, by_offset, (void *)pl->offset);
    }
    memcpy(ar->live_buf, out, (size_t)n * sizeof *out);
    free(cnt);
    free(out);
    return 0;
}

int arena_rows_build(arena_rows *ar, const graph *g, const placement *pl, const stepper *s, int ph,
                     int pw)
{
    memset(ar, 0, sizeof *ar);
    ar->ph = ph;
    ar->pw = pw;
    ar->hwm = s->k ? pl->hwm[s->k - 1] : 0;
    ar->live_buf = malloc(((size_t)g->nbufs + 1) * sizeof *ar->live_buf);
    if (!ar->live_buf) return -1;
    for (uint32_t b = 0; b < g->nbufs; b++)
        if (step_buf_live(s, b)) ar->live_buf[ar->nlive++] = b;
    size_t nb = (size_t)ar->nlive + 1;
    ar->lab_y = malloc(nb * 3 * sizeof *ar->lab_y);
    ar->row0 = calloc((size_t)ph + 1, sizeof *ar->row0);
    /* segments: a row's parts have a column each, at most pw of them */
    ar->seg = malloc((size_t)ph * (size_t)pw * sizeof *ar->seg);
    part *p = malloc((2 * nb + 4) * sizeof *p);
    uint32_t *idx = malloc((2 * nb + 4) * sizeof *idx);
    if (!ar->lab_y || !ar->row0 || !ar->seg || !p || !idx || sort_by_address(ar, pl)) {
        free(p);
        free(idx);
        arena_rows_free(ar);
        return -1;
    }
    ar->lab_x = ar->lab_y + nb;
    ar->lab_w = ar->lab_x + nb;
    int64_t held = 0;
    for (uint32_t i = 0; i < ar->nlive; i++) {
        uint32_t b = ar->live_buf[i];
        int64_t off = pl->offset[b], end = off + place_span(g->buf_size[b], pl->align);
        ar->live += g->buf_size[b];
        held += (end < ar->hwm ? end : ar->hwm) - (off < ar->hwm ? off : ar->hwm);
        ar->lab_y[i] = -1;
        ar->lab_x[i] = ar->lab_w[i] = 0;
    }
    ar->holes = ar->hwm > held ? ar->hwm - held : 0;
    uint32_t first = 0;
    for (int j = 0; j < ph; j++) {
        ar->row0[j + 1] = ar->row0[j];
        row_layout(ar, g, pl, j, &first, p, idx);
    }
    free(p);
    free(idx);
    return 0;
}

void arena_rows_free(arena_rows *ar)
{
    free(ar->live_buf);
    free(ar->lab_y);
    free(ar->row0);
    free(ar->seg);
    memset(ar, 0, sizeof *ar);
}

const arena_seg *arena_rows_at(const arena_rows *ar, int j, int x)
{
    if (j < 0 || j >= ar->ph) return NULL;
    for (uint32_t i = ar->row0[j]; i < ar->row0[j + 1]; i++)
        if (x >= ar->seg[i].x && x < ar->seg[i].x + ar->seg[i].w) return &ar->seg[i];
    return NULL;
}
