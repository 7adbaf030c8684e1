/* view_ready.c: the ready-queue panel: the heap's contents in pop order with
 * rank, id, op or name, change, type and the policy's key; the next pop
 * highlighted; scrolls. Exports view_ready. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "sched/units.h"
#include "view.h"

#define READY_MAX_ROWS 512

static int kind_style(int kind)
{
    return kind == NODE_ALLOC ? ST_ALLOC : kind == NODE_FREE ? ST_FREE : ST_COMPUTE;
}

static void key_text(char *out, size_t cap, const policy *p, const heap_item *it)
{
    if (p->nkeys == 1) snprintf(out, cap, "(%" PRId64 ")", it->k[0]);
    else snprintf(out, cap, "(%" PRId64 ",%" PRId64 ",%" PRId64 ")", it->k[0], it->k[1], it->k[2]);
}

void view_ready(canvas *cv, const app *a, int panel, rect r)
{
    const stepper *s = app_ready_stepper(a, panel);
    const graph *g = a->g;
    uint32_t count = step_ready_count(s);
    char title[96];
    snprintf(title, sizeof title, " Ready %s (%u) ", s->pol->name, count);
    int focused = a->focus == panel;
    canvas_box(cv, r, title, focused ? ST_FOCUS : ST_BORDER, focused ? ST_FOCUS : ST_TITLE);
    int x0 = r.x + 1, w = r.w - 2, rows = r.h - 3;
    if (w < 10 || rows < 1) return;

    /* Columns: rank, id, type, change, key (when wide enough), name. */
    /* Columns: rank, id, type, change, op or name, then the key when it fits. */
    int keyw = s->pol->nkeys == 1 ? 7 : 16;
    int namew = w - 30;
    int show_key = namew - keyw - 1 >= 10;
    if (show_key) namew -= keyw + 1;
    if (namew < 4) namew = 4;
    char hdr[256];
    snprintf(hdr, sizeof hdr, "%3s %6s %-7s %10s %-*s %s", "#", "Id", "type", "change", namew,
             "op / name", show_key ? (s->pol->nkeys == 1 ? "queued" : "(change,type,id)") : "");
    canvas_fill(cv, (rect){x0, r.y + 1, w, 1}, ' ', ST_HEADER);
    canvas_text(cv, x0, r.y + 1, w, ST_HEADER, hdr);

    if (rows > READY_MAX_ROWS) rows = READY_MAX_ROWS;
    heap_item items[READY_MAX_ROWS];
    uint32_t skip = a->scroll[panel];
    uint32_t got = step_ready(s, skip, items, (uint32_t)rows);
    for (uint32_t i = 0; i < got; i++) {
        const heap_item *it = &items[i];
        uint32_t u = it->node, rank = skip + i + 1;
        int y = r.y + 2 + (int)i;
        int next = rank == 1;
        int base = next ? ST_NEXT : ST_NORMAL;
        char line[256], ch[32], key[64];
        units_bytes(ch, sizeof ch, g->change[u], 1);
        if (next) canvas_fill(cv, (rect){x0, y, w, 1}, ' ', ST_NEXT);
        snprintf(line, sizeof line, "%3u %6" PRId64 " ", rank, g->id[u]);
        int x = x0 + canvas_text(cv, x0, y, w, base, line);
        snprintf(line, sizeof line, "%-7s ", graph_kind_word(g->kind[u]));
        x += canvas_text(cv, x, y, x0 + w - x, next ? ST_NEXT : kind_style(g->kind[u]), line);
        snprintf(line, sizeof line, "%10s ", ch);
        x += canvas_text(cv, x, y, x0 + w - x, base, line);
        canvas_text(cv, x, y, namew < x0 + w - x ? namew : x0 + w - x, base, graph_name(g, u));
        x += namew + 1;
        if (show_key) {
            key_text(key, sizeof key, s->pol, it);
            canvas_text(cv, x, y, x0 + w - x, next ? ST_NEXT : ST_DIM, key);
        }
    }
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
