/* view_arena.c: the arena panel as the "Tetris" stack: live buffers as blocks at
 * their addresses, holes where freed ones were, the high-water mark as a line;
 * and the frame it shares with the timeline. Exports view_arena, view_arena_frame. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "defaults.h"
#include "geom.h"
#include "util/optimal.h"
#include "util/units.h"
#include "view.h"

/* The header rows and the address axis, shared with the timeline. */
void view_arena_frame(canvas *cv, const app *a, rect r, rect area, int64_t hwm)
{
    const placement *pl = &a->pl;
    int focused = a->focus == P_TETRIS;
    char title[3][128], b1[32], b2[32];
    /* The placer shown, and plan's when it is another (the longest that fits). */
    const char *what = a->arena == ARENA_TIMELINE ? "Timeline" : "Arena",
               *plan = DEFAULT_PLAN_PLACER;
    int other = strcmp(pl->placer, plan) != 0;
    snprintf(title[0], sizeof title[0], " %s: %s, %" PRId64 " B align%s%s ", what, pl->placer,
             pl->align, other ? "; plan's default is " : "", other ? plan : "");
    if (other) snprintf(title[1], sizeof title[1], " %s: %s (plan: %s) ", what, pl->placer, plan);
    else snprintf(title[1], sizeof title[1], " %s: %s ", what, pl->placer);
    snprintf(title[2], sizeof title[2], " %s: %s ", what, pl->placer);
    int t = 0;
    while (t < 2 && (int)strlen(title[t]) > r.w - 4) t++;
    canvas_box(cv, r, title[t], focused ? ST_FOCUS : ST_BORDER, focused ? ST_FOCUS : ST_TITLE);
    int axis_x = area.x - 1;
    for (int y = area.y; y < area.y + area.h; y++)
        canvas_put(cv, axis_x, y, cv->utf8 ? 0x2502 : '|', ST_AXIS);
    units_bytes(b1, sizeof b1, 0, 0);
    canvas_text(cv, axis_x - (int)strlen(b1), area.y + area.h - 1, GEOM_ARENA_LAB, ST_AXIS, b1);
    /* Its figures, each whole or not at all, in order of worth: the arena,
     * how it stands against the bound, against the peak, the high-water. */
    char f[4][80], alt[2][80], gap[64], pct[32];
    int64_t peak = a->st[0].r.peak;
    snprintf(f[0], sizeof f[0], "arena %s", units_bytes(b1, sizeof b1, pl->arena, 0));
    snprintf(f[1], sizeof f[1], ", %s",
             optimal_phrase(gap, sizeof gap, pl->arena, pl->bound, pl->proven, OPTIMAL_SHORT));
    /* where that does not fit, shorter: "35.7% above the bound", "+35.7% vs bound" */
    for (int k = 0; k < 2; k++)
        snprintf(alt[k], sizeof alt[k], ", %s",
                 optimal_phrase(gap, sizeof gap, pl->arena, pl->bound, pl->proven,
                                k ? OPTIMAL_TINY : OPTIMAL_TERSE));
    f[2][0] = 0; /* the peak only where it is not the bound: one excess, one figure */
    if (peak > 0 && peak != pl->bound)
        snprintf(f[2], sizeof f[2], ", %s above the peak",
                 optimal_pct(pct, sizeof pct, pl->arena - peak, peak));
    snprintf(f[3], sizeof f[3], "   high-water so far %s", units_bytes(b2, sizeof b2, hwm, 0));
    int x = r.x + 1, end = r.x + r.w - 1, shown[4] = {0};
    for (int i = 0; i < 4; i++) {
        for (int k = 0; i == 1 && k < 2 && x + (int)strlen(f[1]) > end; k++)
            memcpy(f[1], alt[k], sizeof f[1]);
        int w = (int)strlen(f[i]);
        if (!w || ((i == 1 || i == 2) && !shown[0])) continue; /* these only after the arena */
        if (x + w > end) continue;
        shown[i] = 1;
        x += canvas_text(cv, x, r.y + 1, w,
                         i == 3                 ? ST_HWM
                         : i == 1 && pl->proven ? ST_PEAK
                                                : ST_AXIS,
                         f[i]);
    }
}

/* The live buffers as blocks at their addresses, holes where freed blocks
 * were, the high-water mark as a line, totals in the bottom border. */
void view_arena(canvas *cv, const app *a, rect r)
{
    const graph *g = a->g;
    const stepper *s = &a->st[0];
    const placement *pl = &a->pl;
    char title[96], b1[32], b2[32];
    rect area = geom_arena_area(r, 0);
    int64_t arena = pl->arena, hwm = s->k ? pl->hwm[s->k - 1] : 0;
    view_arena_frame(cv, a, r, area, hwm);
    if (area.w < 4 || area.h < 1) return;
    int ph = area.h, axis_x = area.x - 1;
    if (arena <= 0) {
        canvas_fit(cv, area.x + 1, area.y + ph / 2, area.w - 1, ST_DIM,
                   "no buffer is ever allocated");
        return;
    }

    /* Each row shows the smallest live block covering it (so small blocks
     * stay visible), and each block is labelled on its middle row (edge rows
     * can be shared with a neighbour). One pass over the buffers, no sort. */
    uint32_t *rowbuf = malloc((size_t)ph * 2 * sizeof *rowbuf);
    uint8_t *used = calloc((size_t)ph, 1);
    if (!rowbuf || !used) {
        free(rowbuf);
        free(used);
        return;
    }
    uint32_t *rowlab = rowbuf + ph;
    for (int j = 0; j < 2 * ph; j++) rowbuf[j] = GRAPH_NONE;
    int64_t live_bytes = 0;
    uint32_t nlive = 0;
    for (uint32_t b = 0; b < g->nbufs; b++) {
        if (!step_buf_live(s, b)) continue;
        nlive++;
        live_bytes += g->buf_size[b];
        int j0, j1;
        geom_buf_rows(g, pl, b, ph, &j0, &j1);
        for (int j = j0; j <= j1; j++)
            if (geom_buf_over(g, b, rowbuf[j])) rowbuf[j] = b;
        int jm = (j0 + j1 + 1) / 2;
        if (geom_buf_over(g, b, rowlab[jm])) rowlab[jm] = b;
    }
    for (int j = 0; j < ph; j++) {
        uint32_t b = rowbuf[j];
        if (b == GRAPH_NONE) continue;
        int st = b == a->sel ? ST_NEXT : style_buf((int)b);
        canvas_fill(cv, (rect){area.x, area.y + ph - 1 - j, area.w, 1},
                    b == a->sel ? ' ' : style_buf_glyph((int)b, a->mono, cv->utf8), st);
        used[j] = 1;
    }
    for (int j = 0; j < ph; j++) {
        uint32_t b = rowlab[j];
        if (b == GRAPH_NONE) continue;
        char lab[64];
        snprintf(lab, sizeof lab, " b%" PRId64 " %s ", g->buf_id[b],
                 units_bytes(b1, sizeof b1, g->buf_size[b], 0));
        if ((int)strlen(lab) > area.w - 2) /* the buffer's name alone, or nothing */
            snprintf(lab, sizeof lab, " b%" PRId64 " ", g->buf_id[b]);
        if ((int)strlen(lab) <= area.w - 2)
            canvas_text(cv, area.x + 1, area.y + ph - 1 - j, area.w - 2,
                        b == a->sel ? ST_NEXT : style_buf((int)b), lab);
    }

    /* Holes below the high-water mark, then the mark itself. */
    int jh = hwm > 0 ? geom_addr_row(hwm - 1, arena, ph) : -1;
    for (int j = 0; j <= jh && j < ph; j++)
        if (!used[j])
            canvas_fill(cv, (rect){area.x, area.y + ph - 1 - j, area.w, 1}, cv->utf8 ? 0x00B7 : '.',
                        ST_HOLE);
    if (jh >= 0) { /* value on the axis, a line across holes */
        int y = area.y + ph - 1 - jh;
        units_bytes(b1, sizeof b1, hwm, 0);
        int len = (int)strlen(b1);
        canvas_text(cv, axis_x - len, y, GEOM_ARENA_LAB, ST_HWM, b1);
        canvas_put(cv, axis_x, y, cv->utf8 ? 0x2524 : '+', ST_HWM);
        if (!used[jh])
            canvas_fill(cv, (rect){area.x, y, area.w, 1}, cv->utf8 ? 0x2504 : '-', ST_HWM);
    }
    /* Totals in the bottom border. */
    snprintf(title, sizeof title, " live %u buffer%s, %s ", nlive, nlive == 1 ? "" : "s",
             units_bytes(b2, sizeof b2, live_bytes, 0));
    if ((int)strlen(title) > r.w - 4)
        snprintf(title, sizeof title, " live %s ", units_bytes(b2, sizeof b2, live_bytes, 0));
    if ((int)strlen(title) <= r.w - 4)
        canvas_text(cv, r.x + 2, r.y + r.h - 1, r.w - 4, ST_TITLE, title);
    free(rowbuf);
    free(used);
}
