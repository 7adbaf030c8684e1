/* view_ready.c: the ready-queue panel: the heap's contents in pop order with
 * rank, id, op or name, change, type and the policy's key; the next pop
 * highlighted (in the budget view a rerun's type says so, in a colour of its own); scrolls.
 * Exports view_ready. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/units.h"
#include "util/utf8.h"
#include "view.h"

#define READY_MAX_ROWS 512
#define CELL           64 /* the longest cell: a key of three 2^53-sized numbers */

static int kind_style(int kind)
{
    return kind == NODE_ALLOC ? ST_ALLOC : kind == NODE_FREE ? ST_FREE : ST_COMPUTE;
}

static void key_text(char *out, size_t cap, const stepper *s, const heap_item *it)
{
    const policy *p = s->pol;
    if (p->show) p->show(s->g, &s->r, it->node, it->k, out, cap);
    /* one numbering, from 1: a whole-order policy's rank, as steps do, and fifo's queued, as
     * the why's "queued 5th" */
    else if (p->nkeys == 1) snprintf(out, cap, "(%" PRId64 ")", it->k[0] + 1);
    else snprintf(out, cap, "(%" PRId64 ",%" PRId64 ",%" PRId64 ")", it->k[0], it->k[1], it->k[2]);
}

/* Columns, in the order shown. */
enum { C_RANK, C_ID, C_TYPE, C_CHANGE, C_NAME, C_KEY, NCOL };

/* The columns' widths in w cells, from cw (what their cells need): roomy
 * widths first (the columns keep still while the queue changes), given back
 * when the panel is narrow; show says which columns stay. -1 when not even
 * the rank fits. */
static int fit_columns(int cw[NCOL], int show[NCOL], int w, int keyhead)
{
    static const int roomy[NCOL] = {3, 6, 7, 10, 0, 0};
    int need = 0, fit[NCOL];
    for (int c = 0; c < NCOL; c++) show[c] = 1;
    for (int c = 0; c < NCOL; c++) {
        fit[c] = cw[c];                                     /* what its cells need */
        if (c == C_KEY && cw[c] < keyhead) cw[c] = keyhead; /* the header whole, where it fits */
        if (cw[c] < roomy[c]) cw[c] = roomy[c];
        need += cw[c] + (c ? 1 : 0);
    }
    for (int c = 0; c < NCOL && need > w; c++) {
        int give = cw[c] - fit[c] < need - w ? cw[c] - fit[c] : need - w;
        cw[c] -= give;
        need -= give;
    }
    /* The key's header alone wider than its cells gives way first ("key"):
     * no name is shortened while the key column keeps room it does not use. */
    if (need > w && cw[C_KEY] > fit[C_KEY]) {
        int give = cw[C_KEY] - fit[C_KEY] < need - w ? cw[C_KEY] - fit[C_KEY] : need - w;
        cw[C_KEY] -= give;
        need -= give;
    }
    /* Then the name down to 10, the type, the name down to 7, the change (the key says it),
     * the id, the name down to 4 (marked), the name, the key: the name and the key the policy
     * pops by are the last to go. */
    static const int step[] = {10, -C_TYPE, 7, -C_CHANGE, -C_ID, 4};
    for (size_t i = 0; i < sizeof step / sizeof step[0] && need > w; i++) {
        if (step[i] <= 0) { /* a column goes */
            show[-step[i]] = 0;
            need -= cw[-step[i]] + 1;
            continue;
        }
        int cut = need - w < cw[C_NAME] - step[i] ? need - w : cw[C_NAME] - step[i];
        if (cut > 0) {
            cw[C_NAME] -= cut;
            need -= cut;
        }
    }
    static const int last[] = {C_NAME, C_KEY};
    for (size_t d = 0; d < sizeof last / sizeof last[0] && need > w; d++) {
        show[last[d]] = 0;
        need -= cw[last[d]] + 1;
    }
    if (need > w) return -1;
    if (show[C_NAME] && need < w) cw[C_NAME] += w - need; /* the rest to the name */
    return 0;
}

/* Node u's name in the queue: an ALLOC's or FREE's, its buffer's name (the ALLOC's Name less
 * ".out", graph_buf_display; the type column says which); else its Name, or what graph_display
 * calls it. */
static const char *queue_name(const graph *g, uint32_t u, char *buf, size_t cap)
{
    if (g->kind[u] != NODE_COMPUTE && g->buf[u] != GRAPH_NONE && g->name[g->buf_alloc[g->buf[u]]])
        return graph_buf_display(g, g->buf[u], buf, cap);
    return graph_display(g, u, buf, cap);
}

/* A name in w columns, shortened to fit: a buffer's (left) from the left, where names that
 * share a prefix ("param.layer4...") differ, an op's from the right; a name that ends in
 * " (rerun)" (the budget view's reruns) keeps that end whole where the column has room for
 * some of the name before it. */
static void name_cell(canvas *cv, int x, int y, int w, int st, const char *name, int left)
{
    static const char tail[] = " (rerun)";
    char head[GRAPH_LABEL_MAX + 256], fit[GRAPH_LABEL_MAX + 256];
    size_t n = strlen(name), t = sizeof tail - 1;
    int rerun = n > t && !strcmp(name + n - t, tail), keep = rerun && w >= (int)t + 4;
    if (utf8_count(name) <= w) keep = rerun = 0; /* whole */
    snprintf(head, sizeof head, "%.*s", (int)(rerun ? n - t : n), name);
    int room = keep ? w - (int)t : w, used;
    if (left) used = canvas_text(cv, x, y, room, st, utf8_fit_left(head, room, fit, sizeof fit));
    else used = canvas_fit(cv, x, y, room, st, head);
    if (keep) canvas_text(cv, x + used, y, w - used, st, tail);
}

void view_ready(canvas *cv, const app *a, int panel, rect r)
{
    const stepper *s = app_ready_stepper(a, panel);
    const graph *g = a->g;
    uint32_t count = step_ready_count(s);
    char title[96], lb[256];
    snprintf(title, sizeof title, " Ready %s (%u) ", s->pol->name, count);
    int focused = a->focus == panel;
    canvas_box(cv, r, title, focused ? ST_FOCUS : ST_BORDER, focused ? ST_FOCUS : ST_TITLE);
    int x0 = r.x + 1, w = r.w - 2, rows = r.h - 3;
    if (w < 4 || rows < 1) return;
    if (rows > READY_MAX_ROWS) rows = READY_MAX_ROWS;
    heap_item items[READY_MAX_ROWS];
    uint32_t skip = a->scroll[panel];
    uint32_t got = step_ready(s, skip, items, (uint32_t)rows);

    /* Each column as wide as its widest cell (header included), so no
     * number is ever cut; when the panel is narrow the name is shortened
     * (to 10), then the type goes (the colour and the key say it), the
     * name to 7, the change and the id go, the name is shortened to 4
     * (marked), then it goes, then the key. */
    static const char *const head[NCOL] = {"#", "Id", "type", "change", "op / name", NULL};
    char keyhead[48]; /* "queued", "rank", or "(change,type,id)": the policy's key names */
    if (s->pol->show) s->pol->show(g, &s->r, GRAPH_NONE, NULL, keyhead, sizeof keyhead);
    else if (s->pol->nkeys == 1) snprintf(keyhead, sizeof keyhead, "%s", s->pol->key_names[0]);
    else
        snprintf(keyhead, sizeof keyhead, "(%s,%s,%s)", s->pol->key_names[0], s->pol->key_names[1],
                 s->pol->key_names[2]);
    char(*txt)[NCOL][CELL] = calloc(got ? got : 1, sizeof *txt);
    if (!txt) return;
    int cw[NCOL];
    for (int c = 0; c < NCOL; c++) cw[c] = utf8_count(c == C_KEY ? keyhead : head[c]);
    cw[C_KEY] = 3; /* "key", the header's shortest; widened below to the cells and header */
    for (uint32_t i = 0; i < got; i++) {
        const heap_item *it = &items[i];
        uint32_t u = it->node;
        snprintf(txt[i][C_RANK], CELL, "%u", skip + i + 1);
        snprintf(txt[i][C_ID], CELL, "%" PRId64, g->id[u]);
        /* the budget view's reruns: "rerun" (their names end in "(rerun)"), in a colour of their
         * own */
        snprintf(txt[i][C_TYPE], CELL, "%s",
                 app_budget_is_rerun(&a->bud, u) ? "rerun" : graph_kind_word(g->kind[u]));
        units_bytes(txt[i][C_CHANGE], CELL, g->change[u], 1);
        txt[i][C_NAME][0] = 0; /* drawn from the graph, shortened to fit */
        key_text(txt[i][C_KEY], CELL, s, it);
        for (int c = 0; c < NCOL; c++) {
            int n =
                c == C_NAME ? utf8_count(queue_name(g, u, lb, sizeof lb)) : (int)strlen(txt[i][c]);
            if (n > cw[c]) cw[c] = n;
        }
    }
    int show[NCOL];
    if (fit_columns(cw, show, w, utf8_count(keyhead))) { /* not even the rank fits */
        free(txt);
        return;
    }

    canvas_fill(cv, (rect){x0, r.y + 1, w, 1}, ' ', ST_HEADER);
    int x = x0;
    for (int c = 0; c < NCOL; c++) {
        if (!show[c]) continue;
        const char *t = c == C_KEY ? keyhead : head[c];
        if (c == C_NAME && cw[c] < utf8_count(t)) t = "name"; /* 4 columns at least */
        if (c == C_KEY && cw[c] < utf8_count(t)) t = "key";   /* 3 columns at least */
        int pad = c == C_TYPE || c == C_NAME || c == C_KEY ? 0 : cw[c] - utf8_count(t);
        canvas_text(cv, x + pad, r.y + 1, cw[c], ST_HEADER, t);
        x += cw[c] + 1;
    }
    for (uint32_t i = 0; i < got; i++) {
        const heap_item *it = &items[i];
        uint32_t u = it->node;
        int y = r.y + 2 + (int)i, next = skip + i == 0;
        int base = next ? ST_NEXT : ST_NORMAL;
        if (next) canvas_fill(cv, (rect){x0, y, w, 1}, ' ', ST_NEXT);
        x = x0;
        for (int c = 0; c < NCOL; c++) {
            if (!show[c]) continue;
            int st = c == C_TYPE  ? (next ? ST_NEXT : kind_style(g->kind[u]))
                     : c == C_KEY ? (next ? ST_NEXT : ST_DIM)
                                  : base;
            if (!next && (c == C_TYPE || c == C_NAME) && app_budget_is_rerun(&a->bud, u))
                st = ST_CURVE2;
            if (c == C_NAME)
                name_cell(cv, x, y, cw[c], st, queue_name(g, u, lb, sizeof lb),
                          g->kind[u] != NODE_COMPUTE);
            else {
                int pad = c == C_TYPE || c == C_KEY ? 0 : cw[c] - (int)strlen(txt[i][c]);
                canvas_text(cv, x + pad, y, cw[c], st, txt[i][c]);
            }
            x += cw[c] + 1;
        }
    }
    free(txt);
    if (count == 0)
        canvas_text(cv, x0 + 1, r.y + 2, w - 1, ST_DIM,
                    s->k == g->n ? "empty: every node has run" : "empty");

    /* Scroll marks in the bottom border. */
    char more[64];
    int by = r.y + r.h - 1;
    if (skip + got < count) {
        snprintf(more, sizeof more, " %s %u more ", cv->utf8 ? "\u2193" : "v", count - skip - got);
        canvas_text(cv, r.x + r.w - 2 - (int)strlen(more) + (cv->utf8 ? 2 : 0), by, r.w - 4, ST_DIM,
                    more);
    }
    if (skip) {
        snprintf(more, sizeof more, " %s %u above ", cv->utf8 ? "\u2191" : "^", skip);
        canvas_text(cv, r.x + 2, by, r.w - 4, ST_DIM, more);
    }
}
