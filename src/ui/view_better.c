/* view_better.c: why one order is lower (w, compare mode), in the summary's place: at the worse
 * peak's step, the buffers each side holds that the other does not, their sums (the curves' gap),
 * their ALLOC names, and where the orders part. Exports view_better. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/optimal.h"
#include "util/units.h"
#include "util/utf8.h"
#include "util/wrap.h"
#include "view.h"

/* Whether buffer b is live after k pops of run r. */
static int live_after(const graph *g, const run *r, uint32_t b, uint32_t k)
{
    uint32_t fr = g->buf_free[b];
    return r->pos[g->buf_alloc[b]] < k && (fr == GRAPH_NONE || r->pos[fr] >= k);
}

/* The buffers live in has's run after k pops and not in not's, largest
 * first, into buf; returns how many, their sum in *sum. */
static uint32_t held(const graph *g, const stepper *has, const stepper * not, uint32_t k,
                     uint32_t *buf, int64_t *sum)
{
    uint32_t n = 0;
    *sum = 0;
    for (uint32_t b = 0; b < g->nbufs; b++)
        if (live_after(g, &has->r, b, k) && !live_after(g, &not ->r, b, k)) {
            buf[n++] = b;
            *sum += g->buf_size[b];
        }
    view_by_size(g, buf, n);
    return n;
}

/* One side's list: the buffers it holds that the other does not, largest first, and the
 * sentence that heads them. */
typedef struct held_list {
    const stepper *has, *lacks; /* the side that holds them, the side that does not */
    uint32_t *buf, n;
    int64_t sum;
    int style;
    char head[200];
} held_list;

static void held_make(held_list *l, const graph *g, const stepper *has, const stepper *lacks,
                      uint32_t k, uint32_t *buf, int style)
{
    char b1[32];
    l->has = has;
    l->lacks = lacks;
    l->buf = buf;
    l->style = style;
    l->n = held(g, has, lacks, k, buf, &l->sum);
    snprintf(l->head, sizeof l->head, "%s holds %u buffer%s %s does not, %s%s", has->pol->name,
             l->n, l->n == 1 ? "" : "s", lacks->pol->name, units_bytes(b1, sizeof b1, l->sum, 0),
             l->n ? ":" : "");
}

/* "   2.0 MiB  block1.b2" (its ALLOC's name, shortened from the left to fit), " from step 7"
 * where the row has room, and a tail ("and 3 more (4.5 MiB)") after it. */
static void buffer_row(canvas *cv, int x, int y, int w, const held_list *l, const graph *g,
                       uint32_t b, const char *tail)
{
    char size[32], name[GRAPH_LABEL_MAX], fit[GRAPH_LABEL_MAX + 8], from[48], row[400];
    units_bytes(size, sizeof size, g->buf_size[b], 0);
    graph_buf_display(g, b, name, sizeof name);
    snprintf(from, sizeof from, " from step %u", l->has->r.pos[g->buf_alloc[b]] + 1);
    int room = w - 13 - utf8_count(tail);
    if (utf8_count(name) + utf8_count(from) > room) from[0] = 0;
    utf8_fit_left(name, room - utf8_count(from), fit, sizeof fit);
    snprintf(row, sizeof row, "  %9s  %s%s%s", size, fit, from, tail);
    canvas_text(cv, x, y, w, l->style, row);
}

/* The list's head and rows rows of its buffers from y; past the rows, the last says how many
 * more and their sum. Returns the next y. */
static int held_lines(canvas *cv, int x, int y, int w, int ymax, int rows, const held_list *l,
                      const graph *g)
{
    char head[sizeof l->head];
    snprintf(head, sizeof head, "%s", l->head);
    if (rows <= 0 && l->n) head[strlen(head) - 1] = 0; /* no list under it: no colon */
    if (y < ymax) y += layout_wrap(cv, x, y, w, ymax - y, l->style, head);
    if (rows > ymax - y) rows = ymax - y;
    for (uint32_t i = 0; i < l->n && rows > 0; i++, rows--) {
        char tail[96] = "", b1[32];
        if (rows == 1 && i + 1 < l->n) { /* the rest in one row */
            int64_t more = 0;
            for (uint32_t j = i + (i ? 0 : 1); j < l->n; j++) more += g->buf_size[l->buf[j]];
            snprintf(tail, sizeof tail, "%sand %u more (%s)", i ? "" : ", ", l->n - i - (i ? 0 : 1),
                     units_bytes(b1, sizeof b1, more, 0));
            if (i) { /* a row of its own after the names shown */
                char row[120];
                snprintf(row, sizeof row, "  %s", tail);
                canvas_text(cv, x, y++, w, ST_DIM, row);
                break;
            }
        }
        buffer_row(cv, x, y++, w, l, g, l->buf[i], tail);
        if (tail[0]) break;
    }
    return y;
}

/* The rows of each list (rows in all): the worse side's first, most of them, what one does not
 * use to the other. */
static void share_rows(int rows, const held_list *l1, const held_list *l2, int *r1, int *r2)
{
    int n1 = (int)l1->n, n2 = (int)l2->n;
    *r1 = rows - rows / 3;
    *r2 = rows - *r1;
    if (*r1 > n1) {
        *r2 += *r1 - n1;
        *r1 = n1;
    }
    if (*r2 > n2) {
        *r1 += *r2 - n2;
        *r2 = n2;
    }
    if (*r1 > n1) *r1 = n1;
}

void view_better(canvas *cv, const app *a, rect r)
{
    const graph *g = a->g;
    const stepper *m = &a->st[0], *o = &a->st[1];
    const stepper *worse = o->r.peak > m->r.peak ? o : m, *better = worse == o ? m : o;
    uint32_t k = worse->r.peak_step;
    char title[96], b1[32], b2[32], line[320], words[256];
    snprintf(title, sizeof title, " Why %s is lower ", better->pol->name);
    if (worse->r.peak == better->r.peak) snprintf(title, sizeof title, " Same peak ");
    int focused = a->focus == P_SUMMARY;
    canvas_box(cv, r, title, focused ? ST_FOCUS : ST_BORDER, focused ? ST_FOCUS : ST_TITLE);
    int x = r.x + 2, w = r.w - 4, y = r.y + 1, ymax = r.y + r.h - 1;
    if (w < 4) return;
    uint32_t *buf = malloc(((size_t)g->nbufs * 2 + 1) * sizeof *buf);
    if (!buf) return;
    int64_t wm = k ? worse->r.memory[k - 1] : 0, bm = k ? better->r.memory[k - 1] : 0;
    /* Both peaks, each against the optimum, and the saving: the punchline
     * stays on screen while the buffers explain it. */
    char p1[32], p2[32], g1[128], g2[128], pct[32];
    units_bytes(p1, sizeof p1, worse->r.peak, 0);
    units_bytes(p2, sizeof p2, better->r.peak, 0);
    snprintf(line, sizeof line, "%s peak %s%s, %s peak %s%s: saving %s (%s)", worse->pol->name, p1,
             view_peak_gap(a, worse, g1, sizeof g1), better->pol->name, p2,
             view_peak_gap(a, better, g2, sizeof g2),
             units_bytes(b1, sizeof b1, worse->r.peak - better->r.peak, 0),
             optimal_pct(pct, sizeof pct, worse->r.peak - better->r.peak, worse->r.peak));
    /* Rows by worth: the peaks and the lists' heads, then the buffers (ALLOC names, largest
     * first), then the worse peak's step, where the orders part and why the better side took its
     * node: each whole or not at all (the last row marked where even the first do not fit). */
    held_list l1, l2;
    held_make(&l1, g, worse, better, k, buf, worse == o ? ST_CURVE2 : ST_CURVE);
    held_make(&l2, g, better, worse, k, buf + g->nbufs, better == o ? ST_CURVE2 : ST_CURVE);
    char at[200], why[320];
    snprintf(at, sizeof at, "at step %u (%s's peak: %s) %s holds %s", k, worse->pol->name,
             units_bytes(b1, sizeof b1, wm, 0), better->pol->name,
             units_bytes(b2, sizeof b2, bm, 0));
    uint32_t d = a->cmp.diverge;
    char part[320];
    why[0] = 0;
    if (d >= g->n) snprintf(part, sizeof part, "the two orders are the same");
    else {
        snprintf(part, sizeof part, "the orders part at step %u: %s", d + 1,
                 app_part_words(a, d, words, sizeof words));
        app_part_why(a, better == m ? 0 : 1, why, sizeof why);
    }
    /* the other side's head is worth a row of its own where it lists buffers; "holds 0
     * buffers" comes last */
    int h2 = wrap_count(l2.head, w), h2_first = l2.n > 0;
    int avail = ymax - y - wrap_count(line, w) - wrap_count(l1.head, w) - (h2_first ? h2 : 0);
    int want = (int)(l1.n + l2.n), lists = want < avail ? want : avail > 0 ? avail : 0;
    int left = avail - lists, s_at = wrap_count(at, w), s_part = wrap_count(part, w);
    int show_at = left >= s_at;
    left -= show_at ? s_at : 0;
    int show_part = left >= s_part;
    left -= show_part ? s_part : 0;
    int show_why = why[0] && show_part && left >= wrap_count(why, w);
    left -= show_why ? wrap_count(why, w) : 0;
    y += layout_wrap(cv, x, y, w, ymax - y, ST_NORMAL, line);
    if (show_at) y += layout_wrap(cv, x, y, w, ymax - y, ST_NORMAL, at);
    int r1, r2;
    share_rows(lists, &l1, &l2, &r1, &r2);
    y = held_lines(cv, x, y, w, ymax, r1, &l1, g);
    if (h2_first || left >= h2) y = held_lines(cv, x, y, w, ymax, r2, &l2, g);
    if (show_part) y += layout_wrap(cv, x, y, w, ymax - y, ST_WHY, part);
    if (show_why) layout_wrap(cv, x, y, w, ymax - y, ST_WHY, why);
    free(buf);
}
