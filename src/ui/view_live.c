/* view_live.c: "what is live here" (l): the buffers live at the cursor (compare: either side's),
 * largest first, by their names: size, age, the ALLOC that made them and the node that frees
 * them; grouped by Category when the graph has Categories (live_rows.h: every header first,
 * each group's largest buffers as the room allows, "and N more"); a cursor when it has the
 * focus, and the rows it shows in the bottom border when it scrolls. In the arena's place or
 * the summary's. Exports view_live, view_by_size, view_fit_left. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sched/policy/bycat.h"
#include "util/units.h"
#include "util/utf8.h"
#include "view.h"

void view_by_size(const graph *g, uint32_t *bufs, uint32_t n) { live_rows_by_size(g, bufs, n); }

enum { L_BUF, L_SIZE, L_LIVE, L_ALLOC, L_FREE, NLCOL };
#define CELL 160
static const char *const head[NLCOL] = {"buffer", "size", "live for", "allocated by", "freed by"};

const char *view_fit_left(const canvas *cv, const char *s, int w, char *out, size_t cap)
{
    utf8_fit_left(s, w, out, cap);
    if (!cv->utf8 && !strncmp(out, "\u2026", 3)) {
        out[0] = '~';
        memmove(out + 1, out + 3, strlen(out + 3) + 1);
    }
    return out;
}

/* Node i (an ALLOC or a FREE) and its step: "step 12 param.conv1.weight.out"; its Name, or
 * what it does where it has none ("alloc b5"); named 0: the step alone. */
static void node_cell(char *out, const graph *g, const stepper *s, uint32_t i, int named)
{
    char lb[GRAPH_LABEL_MAX];
    if (named)
        snprintf(out, CELL, "step %u %s", s->r.pos[i] + 1, graph_display(g, i, lb, sizeof lb));
    else snprintf(out, CELL, "step %u", s->r.pos[i] + 1);
}

/* Buffer b's cells at s's step (named 0: its ALLOC's and FREE's steps without their names). */
static void buf_cells(char txt[NLCOL][CELL], const graph *g, const stepper *s, uint32_t b,
                      int named)
{
    uint32_t al = g->buf_alloc[b], fr = g->buf_free[b];
    uint32_t at = s->r.pos[al] + 1;
    graph_buf_display(g, b, txt[L_BUF], CELL);
    units_bytes(txt[L_SIZE], CELL, g->buf_size[b], 0);
    snprintf(txt[L_LIVE], CELL, "%u step%s", s->k - at, s->k - at == 1 ? "" : "s");
    node_cell(txt[L_ALLOC], g, s, al, named);
    if (fr == GRAPH_NONE) snprintf(txt[L_FREE], CELL, "never");
    else node_cell(txt[L_FREE], g, s, fr, named);
}

/* The first of forms[0..n) that fits in w columns, drawn whole at (x, y); none when none does. */
static void draw_form(canvas *cv, int x, int y, int w, int st, char forms[][96], int n)
{
    for (int k = 0; k < n; k++)
        if (forms[k][0] && utf8_count(forms[k]) <= w) {
            canvas_text(cv, x, y, w, st, forms[k]);
            return;
        }
}

/* A header ("weight: 122 buffers, 44.6 MiB") or the rest of a group ("and 118 more
 * (40.1 MiB)"), in the longest form that fits. */
static void group_row(canvas *cv, int x, int y, int w, const live_row *r)
{
    char f[3][96], b[32];
    units_bytes(b, sizeof b, r->bytes, 0);
    if (r->kind == LIVE_HEAD) {
        const char *word = bycat_word(r->cat);
        snprintf(f[0], sizeof f[0], "%s: %u buffer%s, %s", word, r->n, r->n == 1 ? "" : "s", b);
        snprintf(f[1], sizeof f[1], "%s: %s", word, b);
        snprintf(f[2], sizeof f[2], "%s", word);
        draw_form(cv, x, y, w, ST_HEADER, f, 3);
        return;
    }
    snprintf(f[0], sizeof f[0], "and %u more (%s)", r->n, b);
    snprintf(f[1], sizeof f[1], "and %u more", r->n);
    snprintf(f[2], sizeof f[2], "+%u", r->n);
    draw_form(cv, x, y, w, ST_DIM, f, 3);
}

/* The columns' widths for rows row[0..n) (their cells in txt) in w columns: as wide as their
 * cells; where they do not fit, the nodes' names go first, then the columns from the right
 * (the size stays) unless the buffers' names can give up to 6 columns for the next one, and
 * only then are those names shortened. Returns how many show. */
static int col_widths(const graph *g, const stepper *s, const live_row *row, uint32_t n,
                      char (*txt)[NLCOL][CELL], int w, int cw[NLCOL])
{
    for (int named = 1; named >= 0; named--) {
        for (int c = 0; c < NLCOL; c++) cw[c] = utf8_count(head[c]);
        for (uint32_t i = 0; i < n; i++) {
            if (row[i].kind != LIVE_BUF) continue;
            buf_cells(txt[i], g, s, row[i].buf, named);
            for (int c = 0; c < NLCOL; c++)
                if (utf8_count(txt[i][c]) > cw[c]) cw[c] = utf8_count(txt[i][c]);
        }
        int need = 0;
        for (int c = 0; c < NLCOL; c++) need += cw[c] + (c ? 2 : 0);
        if (need <= w) return NLCOL;
    }
    int show = NLCOL, rest = 0; /* the columns right of the name, with their gaps */
    for (int c = 1; c < NLCOL; c++) rest += cw[c] + 2;
    while (show > 2 && cw[L_BUF] + rest > w) rest -= cw[--show] + 2;
    int over = show < NLCOL ? cw[L_BUF] + rest + cw[show] + 2 - w : 7;
    if (over <= 6 && cw[L_BUF] - over >= 16) rest += cw[show++] + 2; /* back, the names shorter */
    if (cw[L_BUF] + rest > w) cw[L_BUF] = w - rest;
    return cw[L_BUF] >= utf8_count(head[L_BUF]) ? show : 0;
}

/* The first line: how many are live and their bytes, the longest form that fits. */
static void live_totals(canvas *cv, int x, int y, int w, const live_rows *lr)
{
    char f[3][96], b[32];
    const char *s = lr->nlive == 1 ? "" : "s";
    units_bytes(b, sizeof b, lr->total, 0);
    snprintf(f[0], sizeof f[0], "%u buffer%s, %s: the live memory", lr->nlive, s, b);
    snprintf(f[1], sizeof f[1], "%u buffer%s live, %s", lr->nlive, s, b);
    snprintf(f[2], sizeof f[2], "%u buffer%s, %s", lr->nlive, s, b);
    draw_form(cv, x, y, w, ST_AXIS, f, 3);
}

/* The bottom border: the rows shown of how many when the list scrolls, and, with the focus on
 * a list of groups, what Enter does; the longest form that fits. */
static void live_border(canvas *cv, rect r, uint32_t top, uint32_t shown, uint32_t n, int hint)
{
    char f[3][96] = {"", "", ""};
    if (shown < n) {
        snprintf(f[1], sizeof f[1], " rows %u-%u of %u ", top + 1, top + shown, n);
        snprintf(f[2], sizeof f[2], " %u-%u/%u ", top + 1, top + shown, n);
        if (hint)
            snprintf(f[0], sizeof f[0], " rows %u-%u of %u, Enter folds ", top + 1, top + shown, n);
    } else if (hint) snprintf(f[0], sizeof f[0], " Enter folds ");
    draw_form(cv, r.x + 2, r.y + r.h - 1, r.w - 4, ST_TITLE, f, 3);
}

/* Buffer row i's cells at y in the columns' widths, its name shortened from the left. */
static void buf_row(canvas *cv, const app *a, int x0, int y, const live_row *r,
                    char txt[NLCOL][CELL], const int cw[NLCOL], int show)
{
    int x = x0;
    for (int c = 0; c < show; c++) {
        char fit[CELL];
        const char *t = txt[c];
        int len = utf8_count(t);
        if (len > cw[c]) t = view_fit_left(cv, t, cw[c], fit, sizeof fit);
        int pad = c == L_SIZE ? cw[c] - utf8_count(t) : 0;
        int st = c == L_BUF ? (r->buf == a->sel ? ST_NEXT : style_buf((int)r->buf)) : ST_NORMAL;
        canvas_text(cv, x + pad, y, cw[c] - pad, st, t);
        x += cw[c] + 2;
    }
}

void view_live(canvas *cv, const app *a, rect r)
{
    const stepper *s = app_live_stepper(a);
    char title[96];
    snprintf(title, sizeof title, " Live at step %u of %s ", s->k, s->pol->name);
    int panel = app_live_panel(a), focused = panel >= 0 && a->focus == panel;
    canvas_box(cv, r, title, focused ? ST_FOCUS : ST_BORDER, focused ? ST_FOCUS : ST_TITLE);
    int x0 = r.x + 2, w = r.w - 4, rows = r.h - 4;
    live_rows lr;
    if (w < 8 || rows < 0 || live_rows_build(&lr, a->g, s, a->live_fold, rows)) return;
    live_totals(cv, x0, r.y + 1, w, &lr);
    uint32_t n = lr.n, top = panel >= 0 ? a->scroll[panel] : 0;
    uint32_t most = n > (uint32_t)rows ? n - (uint32_t)rows : 0;
    if (top > most) top = most;
    uint32_t shown = n - top < (uint32_t)rows ? n - top : (uint32_t)rows;
    char(*txt)[NLCOL][CELL] = shown ? calloc(shown, sizeof *txt) : NULL;
    if (!txt) {
        live_rows_free(&lr);
        return;
    }
    int cw[NLCOL], show = col_widths(a->g, s, lr.row + top, shown, txt, w, cw);
    for (int c = 0, x = x0; c < show; x += cw[c] + 2, c++)
        canvas_text(cv, x + (c == L_SIZE ? cw[c] - utf8_count(head[c]) : 0), r.y + 2, cw[c],
                    ST_HEADER, head[c]);
    uint32_t cur = a->live_cur < n ? a->live_cur : n - 1;
    for (uint32_t i = 0; i < shown; i++) {
        const live_row *row = &lr.row[top + i];
        int y = r.y + 3 + (int)i;
        if (row->kind != LIVE_BUF) group_row(cv, x0, y, w, row);
        else if (show) buf_row(cv, a, x0, y, row, txt[i], cw, show);
        if (focused && top + i == cur)
            canvas_put(cv, r.x + 1, y, cv->utf8 ? 0x25B8 : '>', ST_FOCUS);
    }
    live_border(cv, r, top, shown, n, focused && lr.grouped);
    free(txt);
    live_rows_free(&lr);
}
