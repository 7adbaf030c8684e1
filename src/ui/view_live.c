/* view_live.c: "what is live here" (l): the buffers live at the cursor (compare: either side's),
 * largest first (grouped by Category under a header with its bytes, biggest first, when the
 * graph has Categories): size, the ALLOC that made them and when, age, what frees them; in the
 * arena's place or the summary's. Exports view_live, view_by_size. */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sched/policy/bycat.h"
#include "util/units.h"
#include "util/utf8.h"
#include "view.h"

static int larger_first(const void *x, const void *y, void *ctx)
{
    const graph *g = ctx;
    uint32_t i = *(const uint32_t *)x, j = *(const uint32_t *)y;
    if (g->buf_size[i] != g->buf_size[j]) return g->buf_size[i] < g->buf_size[j] ? 1 : -1;
    return (g->buf_id[i] > g->buf_id[j]) - (g->buf_id[i] < g->buf_id[j]);
}

void view_by_size(const graph *g, uint32_t *bufs, uint32_t n)
{
    qsort_r(bufs, n, sizeof *bufs, larger_first, (void *)(uintptr_t)g);
}

enum { L_BUF, L_SIZE, L_LIVE, L_ALLOC, L_FREE, NLCOL };

/* The list's rows from live[0..n) (largest first): the buffers, or, when g has Categories, a
 * header row per category (biggest first; -1 - cat) and its buffers under it. Returns how many
 * rows it wrote to out (room for n + GRAPH_NCAT); cat_bytes, cat_n: each category's bytes and
 * buffers. */
static uint32_t live_rows(const graph *g, const uint32_t *live, uint32_t n, int64_t *out,
                          int64_t cat_bytes[GRAPH_NCAT], uint32_t cat_n[GRAPH_NCAT])
{
    uint32_t k = 0;
    if (!bycat_any(g)) {
        for (uint32_t i = 0; i < n; i++) out[k++] = live[i];
        return k;
    }
    memset(cat_bytes, 0, GRAPH_NCAT * sizeof *cat_bytes);
    memset(cat_n, 0, GRAPH_NCAT * sizeof *cat_n);
    for (uint32_t i = 0; i < n; i++) {
        int c = graph_buf_category(g, live[i]);
        cat_bytes[c] += g->buf_size[live[i]];
        cat_n[c]++;
    }
    int order[GRAPH_NCAT], nc = 0;
    int64_t key[GRAPH_NCAT]; /* a category of 0-byte buffers still has its header */
    for (int c = 0; c < GRAPH_NCAT; c++) key[c] = cat_n[c] ? cat_bytes[c] + 1 : 0;
    nc = bycat_order(key, order);
    for (int j = 0; j < nc; j++) {
        out[k++] = -1 - order[j];
        for (uint32_t i = 0; i < n; i++)
            if (graph_buf_category(g, live[i]) == order[j]) out[k++] = live[i];
    }
    return k;
}

/* A category's header row: "activation: 3 buffers, 6.0 MiB", else the word alone. */
static void cat_header(canvas *cv, int x, int y, int w, int cat, int64_t bytes, uint32_t n)
{
    char line[96], b[32];
    snprintf(line, sizeof line, "%s: %u buffer%s, %s", bycat_word(cat), n, n == 1 ? "" : "s",
             units_bytes(b, sizeof b, bytes, 0));
    if (utf8_count(line) > w) snprintf(line, sizeof line, "%s", bycat_word(cat));
    if (utf8_count(line) <= w) canvas_text(cv, x, y, w, ST_HEADER, line);
}

/* Buffer b's cells in the list at s's step. */
static void buf_cells(char txt[NLCOL][96], const graph *g, const stepper *s, uint32_t b)
{
    uint32_t al = g->buf_alloc[b], fr = g->buf_free[b];
    uint32_t at = s->r.pos[al] + 1;
    snprintf(txt[L_BUF], 96, "b%" PRId64, g->buf_id[b]);
    units_bytes(txt[L_SIZE], 96, g->buf_size[b], 0);
    snprintf(txt[L_LIVE], 96, "%u step%s", s->k - at, s->k - at == 1 ? "" : "s");
    if (g->name[al])
        snprintf(txt[L_ALLOC], 96, "node %" PRId64 " at step %u (%.40s)", g->id[al], at,
                 g->strpool + g->name[al]);
    else snprintf(txt[L_ALLOC], 96, "node %" PRId64 " at step %u", g->id[al], at);
    if (fr == GRAPH_NONE) snprintf(txt[L_FREE], 96, "never");
    else snprintf(txt[L_FREE], 96, "node %" PRId64 " at step %u", g->id[fr], s->r.pos[fr] + 1);
}

void view_live(canvas *cv, const app *a, rect r)
{
    const graph *g = a->g;
    const stepper *s = a->live_side == 2 && a->cmp.have ? &a->st[1] : &a->st[0];
    char title[96], b1[32];
    snprintf(title, sizeof title, " Live at step %u of %s ", s->k, s->pol->name);
    int focused = a->focus == P_TETRIS || a->focus == P_SUMMARY;
    canvas_box(cv, r, title, focused ? ST_FOCUS : ST_BORDER, focused ? ST_FOCUS : ST_TITLE);
    int x0 = r.x + 2, w = r.w - 4, rows = r.h - 4;
    if (w < 8 || rows < 0) return;
    uint32_t *live = malloc(((size_t)g->nbufs + 1) * sizeof *live), n = 0;
    if (!live) return;
    int64_t total = 0;
    for (uint32_t b = 0; b < g->nbufs; b++)
        if (step_buf_live(s, b)) {
            live[n++] = b;
            total += g->buf_size[b];
        }
    view_by_size(g, live, n);
    int64_t *row = malloc(((size_t)n + GRAPH_NCAT) * sizeof *row), cat_bytes[GRAPH_NCAT];
    uint32_t cat_n[GRAPH_NCAT], nrow = row ? live_rows(g, live, n, row, cat_bytes, cat_n) : 0;
    char line[160];
    snprintf(line, sizeof line, "%u buffer%s, %s: the live memory", n, n == 1 ? "" : "s",
             units_bytes(b1, sizeof b1, total, 0));
    canvas_fit(cv, x0, r.y + 1, w, ST_AXIS, line);
    if (!n || rows < 1 || !row) {
        free(row);
        free(live);
        return;
    }
    /* Columns as wide as their cells; from the right they go whole when the
     * panel is narrow. */
    static const char *const head[NLCOL] = {"buffer", "size", "live for", "allocated by",
                                            "freed by"};
    uint32_t shown = nrow < (uint32_t)rows ? nrow : (uint32_t)rows;
    if (shown < nrow && shown > 0) shown--;       /* the last row says how many more */
    if (shown > 0 && row[shown - 1] < 0) shown--; /* no header without a buffer under it */
    char(*txt)[NLCOL][96] = calloc(shown + 1, sizeof *txt);
    if (!txt) {
        free(row);
        free(live);
        return;
    }
    int cw[NLCOL];
    for (int c = 0; c < NLCOL; c++) cw[c] = utf8_count(head[c]);
    for (uint32_t i = 0; i < shown; i++) {
        if (row[i] < 0) continue; /* a category's header */
        buf_cells(txt[i], g, s, (uint32_t)row[i]);
        for (int c = 0; c < NLCOL; c++)
            if (utf8_count(txt[i][c]) > cw[c]) cw[c] = utf8_count(txt[i][c]);
    }
    int show = NLCOL, need = 0;
    for (int c = 0; c < NLCOL; c++) need += cw[c] + (c ? 2 : 0);
    if (need > w) { /* the allocating node's name goes before its column does */
        int was = cw[L_ALLOC];
        cw[L_ALLOC] = utf8_count(head[L_ALLOC]);
        for (uint32_t i = 0; i < shown; i++) {
            if (row[i] < 0) continue;
            char *paren = strstr(txt[i][L_ALLOC], " (");
            if (paren) *paren = 0;
            if (utf8_count(txt[i][L_ALLOC]) > cw[L_ALLOC])
                cw[L_ALLOC] = utf8_count(txt[i][L_ALLOC]);
        }
        need -= was - cw[L_ALLOC];
    }
    while (show > 2 && need > w) {
        show--;
        need -= cw[show] + 2;
    }
    int x = x0;
    for (int c = 0; c < show; c++) {
        int pad = c == L_SIZE ? cw[c] - utf8_count(head[c]) : 0;
        canvas_text(cv, x + pad, r.y + 2, cw[c], ST_HEADER, head[c]);
        x += cw[c] + 2;
    }
    for (uint32_t i = 0; i < shown; i++) {
        int y = r.y + 3 + (int)i;
        if (row[i] < 0) {
            int c = (int)(-1 - row[i]);
            cat_header(cv, x0, y, w, c, cat_bytes[c], cat_n[c]);
            continue;
        }
        uint32_t b = (uint32_t)row[i];
        x = x0;
        for (int c = 0; c < show; c++) {
            int pad = c == L_SIZE ? cw[c] - utf8_count(txt[i][c]) : 0;
            int st = c == L_BUF ? (b == a->sel ? ST_NEXT : style_buf((int)b)) : ST_NORMAL;
            canvas_fit(cv, x + pad, y, x0 + w - x - pad, st, txt[i][c]);
            x += cw[c] + 2;
        }
    }
    if (shown < nrow) {
        int64_t rest = 0;
        uint32_t more = 0;
        for (uint32_t i = shown; i < nrow; i++)
            if (row[i] >= 0) {
                rest += g->buf_size[row[i]];
                more++;
            }
        snprintf(line, sizeof line, "and %u more, %s", more, units_bytes(b1, sizeof b1, rest, 0));
        canvas_fit(cv, x0, r.y + 3 + (int)shown, w, ST_DIM, line);
    }
    free(txt);
    free(row);
    free(live);
}
