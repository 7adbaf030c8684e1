/* view_better.c: why one order is lower (w, compare mode), in the summary's place: at the worse
 * peak's step, the buffers each side holds that the other does not, their sums (the curves' gap),
 * and where the orders part. Exports view_better. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include "util/optimal.h"
#include "util/units.h"
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

/* "fifo holds 4 buffers priority does not, 7.5 MiB:" and up to rows of
 * them, one a line; returns the next y. */
static int held_lines(canvas *cv, int x, int y, int w, int rows, int style, const graph *g,
                      const stepper *has, const stepper * not, uint32_t k, uint32_t *buf)
{
    int64_t sum;
    uint32_t n = held(g, has, not, k, buf, &sum);
    char line[160], b1[32];
    snprintf(line, sizeof line, "%s holds %u buffer%s %s does not, %s%s", has->pol->name, n,
             n == 1 ? "" : "s", not ->pol->name, units_bytes(b1, sizeof b1, sum, 0), n ? ":" : "");
    if (rows <= 0) return y;
    int head = layout_wrap(cv, x, y, w, rows > (int)n + 2 ? 2 : 1, style, line);
    y += head;
    rows -= head;
    for (uint32_t i = 0; i < n && rows > 0; i++, rows--) {
        if (rows == 1 && i + 1 < n) {
            snprintf(line, sizeof line, "  and %u more", n - i);
            canvas_fit(cv, x, y++, w, ST_DIM, line);
            break;
        }
        uint32_t b = buf[i], al = g->buf_alloc[b];
        snprintf(line, sizeof line, "  b%-5" PRId64 " %10s  from step %u", g->buf_id[b],
                 units_bytes(b1, sizeof b1, g->buf_size[b], 0), has->r.pos[al] + 1);
        canvas_fit(cv, x, y++, w, style, line);
    }
    return y;
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
    uint32_t *buf = malloc(((size_t)g->nbufs + 1) * sizeof *buf);
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
    int peaks = ymax - y > 7 ? 3 : 1;
    if (y < ymax) y += layout_wrap(cv, x, y, w, peaks, ST_NORMAL, line);
    snprintf(line, sizeof line, "at step %u (%s's peak: %s) %s holds %s", k, worse->pol->name,
             units_bytes(b1, sizeof b1, wm, 0), better->pol->name,
             units_bytes(b2, sizeof b2, bm, 0));
    /* The worse peak's sentence first, then where the orders part and why
     * the better side took its node (both wrapped while rows are free), and
     * the rows between to the buffers: most to the worse side's list. */
    if (y < ymax) y += layout_wrap(cv, x, y, w, ymax - y > 5 ? 3 : 1, ST_NORMAL, line);
    uint32_t d = a->cmp.diverge;
    char why[320];
    why[0] = 0;
    if (d >= g->n) snprintf(line, sizeof line, "the two orders are the same");
    else {
        snprintf(line, sizeof line, "the orders part at step %u: %s", d + 1,
                 app_part_words(a, d, words, sizeof words));
        app_part_why(a, better == m ? 0 : 1, why, sizeof why);
    }
    int part = ymax - y > 5 ? layout_wrap(NULL, 0, 0, w, 3, ST_WHY, line) : 1;
    int because = !why[0] ? 0 : ymax - y > 7 ? layout_wrap(NULL, 0, 0, w, 3, ST_WHY, why) : 1;
    int rows = ymax - y - part - because, half = rows - rows / 3;
    int stop =
        held_lines(cv, x, y, w, half, worse == o ? ST_CURVE2 : ST_CURVE, g, worse, better, k, buf);
    y = held_lines(cv, x, stop, w, ymax - part - because - stop, better == o ? ST_CURVE2 : ST_CURVE,
                   g, better, worse, k, buf);
    if (y < ymax)
        y +=
            layout_wrap(cv, x, y, w, ymax - y - because > 1 ? ymax - y - because : 1, ST_WHY, line);
    if (y < ymax && why[0]) layout_wrap(cv, x, y, w, ymax - y, ST_WHY, why);
    free(buf);
}
