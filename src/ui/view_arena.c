/* view_arena.c: the arena panel as the "Tetris" stack: live buffers as blocks at
 * their addresses, holes where freed ones were, the high-water mark as a line;
 * and the frame it shares with the timeline. Exports view_arena, view_arena_frame. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "defaults.h"
#include "arena_rows.h"
#include "geom.h"
#include "util/optimal.h"
#include "util/units.h"
#include "util/utf8.h"
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
    /* Its figures, each whole or not at all, in order of worth: the arena, its
     * fragmentation (arena - peak of live bytes: the one excess figure), the
     * gap to the bound where that is another quantity (a bound above the
     * peak) or the plan is proven optimal, the high-water mark. */
    char f[4][3][96], gap[64], frag[64];
    int64_t peak = a->st[0].r.peak;
    memset(f, 0, sizeof f);
    snprintf(f[0][0], sizeof f[0][0], "arena %s", units_bytes(b1, sizeof b1, pl->arena, 0));
    static const int fs[3] = {OPTIMAL_TERSE, OPTIMAL_TINY, -1},
                     gs[3] = {OPTIMAL_SHORT, OPTIMAL_TERSE, OPTIMAL_TINY};
    for (int k = 0; k < 2; k++)
        snprintf(f[1][k], sizeof f[1][k], ", fragmentation %s",
                 optimal_frag(frag, sizeof frag, pl->arena, peak, fs[k]));
    snprintf(f[1][2], sizeof f[1][2], ", frag. %s",
             optimal_frag(frag, sizeof frag, pl->arena, peak, OPTIMAL_TINY));
    if (pl->arena <= pl->bound || pl->bound != peak)
        for (int k = 0; k < 3; k++)
            snprintf(f[2][k], sizeof f[2][k], ", %s",
                     optimal_phrase(gap, sizeof gap, pl->arena, pl->bound, pl->proven, gs[k]));
    snprintf(f[3][0], sizeof f[3][0], "   high-water so far %s",
             units_bytes(b2, sizeof b2, hwm, 0));
    int x = r.x + 1, end = r.x + r.w - 1, room = end - x, pick[4] = {-1, -1, -1, -1};
    for (int i = 0; i < 4; i++) /* the longest form of each that fits, by worth */
        for (int k = 0; k < 3 && pick[i] < 0 && (i == 0 || pick[0] == 0); k++)
            if (f[i][k][0] && (int)strlen(f[i][k]) <= room) {
                pick[i] = k;
                room -= (int)strlen(f[i][k]);
            }
    for (int i = 0; i < 4; i++)
        if (pick[i] >= 0)
            x += canvas_text(cv, x, r.y + 1, end - x,
                             i == 3                 ? ST_HWM
                             : i == 2 && pl->proven ? ST_PEAK
                                                    : ST_AXIS,
                             f[i][pick[i]]);
}

/* A buffer's name (its ALLOC's, ids only without one) on its widest part: with its size, or
 * alone, or shortened from the left ("…conv2.weight", '~' in ASCII) to no fewer than 8
 * columns, or none. */
static int arena_label(canvas *cv, const app *a, rect area, const arena_rows *ar, uint32_t i)
{
    const graph *g = a->g;
    uint32_t b = ar->live_buf[i];
    int w = ar->lab_w[i];
    char lab[5][300], id[256], b1[32];
    graph_buf_display(g, b, id, sizeof id);
    units_bytes(b1, sizeof b1, g->buf_size[b], 0);
    snprintf(lab[0], sizeof lab[0], " %s %s ", id, b1);
    snprintf(lab[1], sizeof lab[1], "%s %s", id, b1);
    snprintf(lab[2], sizeof lab[2], " %s ", id);
    snprintf(lab[3], sizeof lab[3], "%s", id);
    lab[4][0] = 0;
    if (w - 1 >= 8 && utf8_count(id) > w - 1) view_fit_left(cv, id, w - 1, lab[4], sizeof lab[4]);
    for (int k = 0; k < 5; k++) { /* a bare name keeps a cell after it: "b5b7" reads as one */
        int len = utf8_count(lab[k]), pad = k == 0 && w > len;
        if (!len || len + (k & 1 || k == 4) > w) continue;
        canvas_text(cv, area.x + ar->lab_x[i] + pad, area.y + ar->ph - 1 - ar->lab_y[i], len,
                    b == a->sel ? ST_NEXT : style_buf((int)b), lab[k]);
        return 1;
    }
    return 0;
}

/* The bottom border's figures, each whole or not at all, by worth: the live
 * buffers not named on the panel ("+11 more": every live one is named or
 * counted), the holes, the live bytes, how many buffers are live. */
static void arena_totals(canvas *cv, rect r, const arena_rows *ar, uint32_t named)
{
    char f[4][48], b1[32], line[200];
    uint32_t more = ar->nlive - named;
    snprintf(f[0], sizeof f[0], "live %u buffer%s,", ar->nlive, ar->nlive == 1 ? "" : "s");
    snprintf(f[1], sizeof f[1], "%s", units_bytes(b1, sizeof b1, ar->live, 0));
    snprintf(f[2], sizeof f[2], "holes %s", units_bytes(b1, sizeof b1, ar->holes, 0));
    snprintf(f[3], sizeof f[3], "+%u more", more);
    static const int worth[4] = {3, 2, 1, 0};
    int on[4] = {0}, room = r.w - 4 - 2, n = 0;
    for (int i = 0; i < 4; i++) {
        int k = worth[i], w = (int)strlen(f[k]) + (k == 1 ? 5 : 0) + (n ? 2 : 0);
        if ((k == 3 && !more) || (k == 0 && !on[1]) || w > room) continue;
        on[k] = 1;
        room -= w;
        n++;
    }
    line[0] = 0;
    for (int k = 0; k < 4; k++) {
        if (!on[k]) continue;
        size_t at = strlen(line);
        snprintf(line + at, sizeof line - at, "%s%s%s", at && k != 1 ? ", " : " ",
                 k == 1 && !on[0] ? "live " : "", f[k]);
    }
    if (!line[0]) return;
    strncat(line, " ", sizeof line - strlen(line) - 1);
    canvas_text(cv, r.x + 2, r.y + r.h - 1, r.w - 4, ST_TITLE, line);
}

/* The live buffers as blocks at their addresses, holes where freed blocks
 * were, the high-water mark as a line, totals in the bottom border. A row
 * that holds more than one thing is split across among them in proportion
 * to their bytes (arena_rows.h), so a hole smaller than a row still shows. */
void view_arena(canvas *cv, const app *a, rect r)
{
    const stepper *s = &a->st[0];
    const placement *pl = &a->pl;
    char b1[32];
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
    arena_rows ar;
    if (arena_rows_build(&ar, a->g, pl, s, ph, area.w)) return;
    int jh = hwm > 0 ? geom_addr_row(hwm - 1, arena, ph) : -1;
    for (int j = 0; j < ph; j++)
        for (uint32_t i = ar.row0[j]; i < ar.row0[j + 1]; i++) {
            const arena_seg *sg = &ar.seg[i];
            rect c = {area.x + sg->x, area.y + ph - 1 - j, sg->w, 1};
            if (sg->kind == ARENA_SEG_BUF)
                canvas_fill(cv, c,
                            sg->buf == a->sel ? ' '
                                              : style_buf_glyph((int)sg->buf, a->mono, cv->utf8),
                            sg->buf == a->sel ? ST_NEXT : style_buf((int)sg->buf));
            else if (sg->kind == ARENA_SEG_HOLE)
                canvas_fill(cv, c, cv->utf8 ? 0x00B7 : '.', ST_HOLE);
            else if (j == jh) /* the high-water mark, a line across the room above it */
                canvas_fill(cv, c, cv->utf8 ? 0x2504 : '-', ST_HWM);
        }
    uint32_t named = 0;
    for (uint32_t i = 0; i < ar.nlive; i++)
        if (ar.lab_w[i] >= 3) named += (uint32_t)arena_label(cv, a, area, &ar, i);
    if (jh >= 0) { /* its value on the axis */
        int y = area.y + ph - 1 - jh;
        units_bytes(b1, sizeof b1, hwm, 0);
        canvas_text(cv, axis_x - (int)strlen(b1), y, GEOM_ARENA_LAB, ST_HWM, b1);
        canvas_put(cv, axis_x, y, cv->utf8 ? 0x2524 : '+', ST_HWM);
    }
    arena_totals(cv, r, &ar, named);
    arena_rows_free(&ar);
}
