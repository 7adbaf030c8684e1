/* app_play.c: auto-play and the teaching flow built on it: play until the
 * peak (u), until the two orders part next (d), and breakpoints on a node
 * or a memory threshold (b, B) that stop any play where they hold.
 * Exports the app_play_* and app_break_* of app_internal.h. */
#include "app_internal.h"
#include <inttypes.h>
#include <stdio.h>
#include "find.h"
#include "util/units.h"

static const uint32_t speeds[APP_SPEEDS] = {1, 2, 5, 10, 25, 50, 100, 250, 1000, 5000, 20000};

uint32_t app_steps_per_sec(const app *a) { return speeds[a->speed]; }

int app_play_ms(const app *a)
{
    uint32_t sps = speeds[a->speed];
    return sps >= 50 ? 20 : (int)(1000 / sps);
}

void app_say_speed(app *a)
{
    uint32_t sps = speeds[a->speed];
    snprintf(a->msg, sizeof a->msg, "auto-play speed %u step%s/s", sps, sps == 1 ? "" : "s");
    a->msg_moment = 1;
}

static int64_t live_at(const run *r, uint32_t k) { return k ? r->memory[k - 1] : 0; }

/* Whether breakpoint i holds at step k (k >= 1); says what it saw in out. */
static int break_holds(const app *a, int i, uint32_t k, char *out, size_t cap)
{
    const graph *g = a->g;
    const run *r = &a->st[0].r;
    const app_break *b = &a->brk[i];
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

void app_play_start(app *a, uint32_t to, const char *goal)
{
    a->playing = 1;
    a->play_to = to;
    snprintf(a->play_goal, sizeof a->play_goal, "%s", goal ? goal : "");
    a->play_wait = 0;
}

void app_play_stop(app *a)
{
    a->playing = 0;
    a->play_to = GRAPH_NONE;
    a->play_goal[0] = 0;
}

app_reaction app_play_step(app *a)
{
    uint32_t n = a->g->n, k = a->st[0].k, sps = speeds[a->speed];
    uint32_t per = sps >= 50 ? sps / 50 : 1, to = k + per > n ? n : k + per;
    char said[sizeof a->msg] = "";
    if (k >= n) {
        app_play_stop(a);
        return APP_REDRAW;
    }
    /* Every step on the way is looked at: a stop is never jumped over. */
    for (uint32_t j = k + 1; j <= to && !said[0]; j++) {
        if (j == a->play_to) { /* u's goal says what it is; d's (none) is a parting */
            char b1[32];
            if (a->play_goal[0] || !app_part_text(a, j, said, sizeof said))
                snprintf(said, sizeof said, "at %s: step %u, %s live", a->play_goal, j,
                         units_bytes(b1, sizeof b1, live_at(&a->st[0].r, j), 0));
            to = j;
        }
        for (int i = 0; i < a->nbrk && !said[0]; i++)
            if (break_holds(a, i, j, said, sizeof said)) to = j;
    }
    app_jump(a, to);
    if (a->msg_moment) a->msg[0] = 0; /* the pop's explanation now */
    a->msg_moment = 0;
    if (said[0]) snprintf(a->msg, sizeof a->msg, "%s", said);
    if (said[0] || to >= n || to == a->play_to) app_play_stop(a);
    return APP_REDRAW;
}

void app_play_peak(app *a)
{
    const stepper *s = &a->st[0];
    uint32_t at = s->r.peak_step;
    if (!at) {
        snprintf(a->msg, sizeof a->msg, "%s holds no memory at any step: no peak to play to",
                 a->pol->name);
        return;
    }
    if (s->k >= at) app_jump(a, 0); /* from the start again */
    char goal[64];
    snprintf(goal, sizeof goal, "the peak of %s", a->pol->name);
    app_play_start(a, at, goal);
}

const char *app_part_words(const app *a, uint32_t s, char *out, size_t cap)
{
    const graph *g = a->g;
    const stepper *m = &a->st[0], *o = &a->st[1];
    char l1[GRAPH_LABEL_MAX], l2[GRAPH_LABEL_MAX];
    uint32_t u = o->r.order[s], v = m->r.order[s];
    snprintf(out, cap, "%s pops node %" PRId64 " (%s), %s pops node %" PRId64 " (%s)", o->pol->name,
             g->id[u], graph_label(g, u, l1, sizeof l1), m->pol->name, g->id[v],
             graph_label(g, v, l2, sizeof l2));
    return out;
}

void app_play_part(app *a)
{
    if (!a->compare) {
        snprintf(a->msg, sizeof a->msg, "d plays to where two orders part: compare two first (c)");
        return;
    }
    uint32_t k = a->st[0].k, i = 0;
    while (i < a->nparts && a->parts[i] + 1 <= k) i++;
    if (i == a->nparts) {
        if (!a->nparts) snprintf(a->msg, sizeof a->msg, "the two orders are the same");
        else
            snprintf(a->msg, sizeof a->msg,
                     "the orders do not part after step %u (%u parting%s, the last at step %u); "
                     "Home goes back",
                     k, a->nparts, a->nparts == 1 ? "" : "s", a->parts[a->nparts - 1] + 1);
        return;
    }
    app_play_start(a, a->parts[i] + 1, NULL); /* the stop says which parting */
}

const char *app_part_text(const app *a, uint32_t k, char *out, size_t cap)
{
    for (uint32_t i = 0; i < a->nparts; i++)
        if (a->parts[i] + 1 == k) {
            char what[160];
            app_part_words(a, a->parts[i], what, sizeof what);
            snprintf(out, cap, "the orders part at step %u (%u of %u): %s", k, i + 1, a->nparts,
                     what);
            return out;
        }
    return NULL;
}

int app_break_add(app *a, const char *text)
{
    while (*text == ' ') text++;
    if (!*text) return 0;
    if (a->nbrk == APP_BREAKS) {
        snprintf(a->msg, sizeof a->msg, "%d breakpoints already: B clears them", APP_BREAKS);
        return -1;
    }
    app_break b = {.bytes = 0};
    char b1[32];
    if (*text == '>') {
        const char *size = text + 1 + (text[1] == '=');
        b.bytes = units_parse(size);
        if (b.bytes <= 0) {
            snprintf(a->msg, sizeof a->msg,
                     "'%.60s' is not a size: write a number and a unit, as in >8MiB", size);
            return -1;
        }
        a->brk[a->nbrk++] = b;
        snprintf(a->msg, sizeof a->msg,
                 "breakpoint %d: where live memory reaches %s (r, u and d stop there; B clears)",
                 a->nbrk, units_bytes(b1, sizeof b1, b.bytes, 0));
        return 0;
    }
    snprintf(b.node, sizeof b.node, "%s", text);
    uint32_t count = 0;
    for (uint32_t u = 0; u < a->g->n; u++) count += (uint32_t)find_match(a->g, u, b.node);
    if (!count) {
        snprintf(a->msg, sizeof a->msg,
                 "no node matches '%.60s' (ids, names and ops are searched): no breakpoint",
                 b.node);
        return -1;
    }
    a->brk[a->nbrk++] = b;
    snprintf(a->msg, sizeof a->msg,
             "breakpoint %d: where a node matching '%.60s' pops (%u node%s; B clears)", a->nbrk,
             b.node, count, count == 1 ? "" : "s");
    return 0;
}

void app_break_clear(app *a)
{
    if (!a->nbrk) snprintf(a->msg, sizeof a->msg, "no breakpoints to clear");
    else
        snprintf(a->msg, sizeof a->msg, "%d breakpoint%s cleared", a->nbrk,
                 a->nbrk == 1 ? "" : "s");
    a->nbrk = 0;
}
