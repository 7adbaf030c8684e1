/* app_play.c: auto-play and the teaching flow built on it: the play's pace, its stops (the peak
 * for u, the partings for d) and the breakpoints (b, B) that stop any play where they hold.
 * Exports the app_play_* and app_break_* of app_play.h. */
#include "app_play.h"
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "find.h"
#include "util/units.h"

static const uint32_t speeds[APP_SPEEDS] = {1, 2, 5, 10, 25, 50, 100, 250, 1000, 5000, 20000};

void app_play_init(app_play *p) { *p = (app_play){.speed = 3, .to = GRAPH_NONE}; }

uint32_t app_play_sps(const app_play *p)
{
    uint32_t sps = speeds[p->speed];
    return p->playing && p->fit > sps ? p->fit : sps;
}

/* From 50 steps a second on, a tick every 20 ms makes ceil(sps / 50) steps. */
#define TICK_MS 20
int app_play_ms(const app_play *p)
{
    uint32_t sps = app_play_sps(p);
    return sps >= 1000 / TICK_MS ? TICK_MS : (int)(1000 / sps);
}

static uint32_t per_tick(const app_play *p)
{
    uint32_t sps = app_play_sps(p), hz = 1000 / TICK_MS;
    return sps >= hz ? (sps + hz - 1) / hz : 1;
}

void app_play_say_speed(const app_play *p, char *msg, size_t cap)
{
    uint32_t sps = speeds[p->speed];
    snprintf(msg, cap, "auto-play speed %u step%s/s", sps, sps == 1 ? "" : "s");
}

static int64_t live_at(const run *r, uint32_t k) { return k ? r->memory[k - 1] : 0; }

/* Whether breakpoint i holds at step k (k >= 1) of r; says what it saw in out. */
static int break_holds(const app_play *p, const graph *g, const run *r, int i, uint32_t k,
                       char *out, size_t cap)
{
    const app_break *b = &p->brk[i];
    char b1[32], b2[32], lb[GRAPH_LABEL_MAX];
    if (b->bytes > 0) {
        if (!(live_at(r, k) >= b->bytes && live_at(r, k - 1) < b->bytes)) return 0;
        snprintf(out, cap, "breakpoint %d: %s live at step %u reaches %s", i + 1,
                 units_bytes(b1, sizeof b1, live_at(r, k), 0), k,
                 units_bytes(b2, sizeof b2, b->bytes, 0));
        return 1;
    }
    uint32_t u = r->order[k - 1];
    if (!find_match(g, u, b->node)) return 0;
    snprintf(out, cap, "breakpoint %d ('%s'): node %" PRId64 " (%s) popped at step %u", i + 1,
             b->node, g->id[u], graph_display(g, u, lb, sizeof lb), k);
    return 1;
}

/* The first step after k, up to `to` (n for GRAPH_NONE), where a breakpoint
 * holds; GRAPH_NONE when none does. */
static uint32_t next_break(const app_play *p, const graph *g, const run *r, uint32_t k, uint32_t to)
{
    char scratch[256];
    uint32_t end = to < g->n ? to : g->n;
    for (uint32_t j = k + 1; p->nbrk && j <= end; j++)
        for (int i = 0; i < p->nbrk; i++)
            if (break_holds(p, g, r, i, j, scratch, sizeof scratch)) return j;
    return GRAPH_NONE;
}

void app_play_start(app_play *p, const graph *g, const run *r, uint32_t k, uint32_t to,
                    const char *goal)
{
    p->playing = 1;
    p->to = to;
    snprintf(p->goal, sizeof p->goal, "%s", goal ? goal : "");
    p->wait = 0;
    uint32_t stop = next_break(p, g, r, k, to);
    if (stop == GRAPH_NONE) stop = to;
    p->fit = 0; /* free play (r) with no breakpoint ahead: the user's pace */
    if (stop != GRAPH_NONE && stop > k) {
        uint64_t ms = APP_PLAY_FIT_MS, need = ((uint64_t)(stop - k) * 1000 + ms - 1) / ms;
        p->fit = need > UINT32_MAX ? UINT32_MAX : (uint32_t)need;
    }
}

void app_play_stop(app_play *p)
{
    p->playing = 0;
    p->fit = 0;
    p->to = GRAPH_NONE;
    p->goal[0] = 0;
}

int app_play_next(app_play *p, const graph *g, const stepper st[2], const app_compare *c,
                  uint32_t *to_out, char *said, size_t cap)
{
    const run *r = &st[0].r;
    uint32_t n = g->n, k = st[0].k, per = per_tick(p), to = per > n - k ? n : k + per;
    said[0] = 0;
    if (k >= n) {
        app_play_stop(p);
        return 0;
    }
    /* Every step on the way is looked at: a stop is never jumped over. */
    for (uint32_t j = k + 1; j <= to && !said[0]; j++) {
        if (j == p->to) { /* u's goal says what it is; d's (none) is a parting */
            char b1[32];
            if (p->goal[0] || !app_compare_part_text(c, g, st, j, said, cap))
                snprintf(said, cap, "at %s: step %u, %s live", p->goal, j,
                         units_bytes(b1, sizeof b1, live_at(r, j), 0));
            to = j;
        }
        for (int i = 0; i < p->nbrk && !said[0]; i++)
            if (break_holds(p, g, r, i, j, said, cap)) to = j;
    }
    if (said[0] || to >= n || to == p->to) app_play_stop(p);
    *to_out = to;
    return 1;
}

void app_play_part(app_play *p, const app_compare *c, const graph *g, const run *r, uint32_t k,
                   char *msg, size_t cap)
{
    if (!c->shown) {
        snprintf(msg, cap, "d plays to where two orders part: compare two first (c)");
        return;
    }
    uint32_t i = 0;
    while (i < c->nparts && c->parts[i] + 1 <= k) i++;
    if (i == c->nparts) {
        if (!c->nparts) snprintf(msg, cap, "the two orders are the same");
        else
            snprintf(msg, cap,
                     "the orders do not part after step %u (%u parting%s, the last at step %u); "
                     "Home goes back",
                     k, c->nparts, c->nparts == 1 ? "" : "s", c->parts[c->nparts - 1] + 1);
        return;
    }
    app_play_start(p, g, r, k, c->parts[i] + 1, NULL); /* the stop says which parting */
}

int app_break_add(app_play *p, const graph *g, const char *text, char *msg, size_t cap)
{
    while (*text == ' ') text++;
    if (!*text) return 0;
    if (p->nbrk == APP_BREAKS) {
        snprintf(msg, cap, "%d breakpoints already: B clears them", APP_BREAKS);
        return -1;
    }
    app_break b = {.bytes = 0};
    char b1[32];
    if (*text == '>') {
        const char *size = text + 1 + (text[1] == '=');
        char exact[64]; /* the size without the spaces around it, read exactly */
        while (*size == ' ') size++;
        size_t n = strlen(size);
        while (n && size[n - 1] == ' ') n--;
        snprintf(exact, sizeof exact, "%.*s", (int)(n < sizeof exact ? n : sizeof exact - 1), size);
        b.bytes = n < sizeof exact ? units_parse(exact) : -1;
        if (b.bytes <= 0) {
            snprintf(msg, cap, "'%.60s' is not a size: write a number and a unit, as in >8MiB",
                     size);
            return -1;
        }
        p->brk[p->nbrk++] = b;
        snprintf(msg, cap,
                 "breakpoint %d: where live memory reaches %s (r, u and d stop there; B clears)",
                 p->nbrk, units_bytes(b1, sizeof b1, b.bytes, 0));
        return 0;
    }
    snprintf(b.node, sizeof b.node, "%s", text);
    uint32_t count = 0;
    for (uint32_t u = 0; u < g->n; u++) count += (uint32_t)find_match(g, u, b.node);
    if (!count) {
        snprintf(msg, cap,
                 "no node matches '%.60s' (ids, names and ops are searched): no breakpoint",
                 b.node);
        return -1;
    }
    p->brk[p->nbrk++] = b;
    snprintf(msg, cap, "breakpoint %d: where a node matching '%.60s' pops (%u node%s; B clears)",
             p->nbrk, b.node, count, count == 1 ? "" : "s");
    return 0;
}

void app_break_clear(app_play *p, char *msg, size_t cap)
{
    if (!p->nbrk) snprintf(msg, cap, "no breakpoints to clear");
    else snprintf(msg, cap, "%d breakpoint%s cleared", p->nbrk, p->nbrk == 1 ? "" : "s");
    p->nbrk = 0;
}
