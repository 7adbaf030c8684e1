/* view_status.c: the status bar: file name, policies, step, last pop, live and
 * measured bytes, peak, makespan, auto-play, the replay's backend and device; pieces go
 * whole when the line is too narrow. Exports view_status. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "util/units.h"
#include "util/utf8.h"
#include "view.h"

/* The fields, in the order they are shown. */
enum {
    F_LABEL,
    F_NAME,
    F_POLICY,
    F_STEP,
    F_POPPED,
    F_MEM,
    F_MEASURED,
    F_DIFF,
    F_PEAK,
    F_AT,
    F_SPAN,
    F_PLAY,
    F_TAG,
    NFIELD
};

/* Which field goes first when the line is too narrow, then the next...
 * (the replay's device has gone before, leaving its backend): the label,
 * the last pop, the file's name, the peak's step, the peak, auto-play, the
 * makespan, the replay's backend (the curve's legend names it), the reading's difference,
 * the reading, the policy, the live bytes; the step last. Each goes whole,
 * never in part. */
static const int drop_order[] = {F_LABEL, F_POPPED, F_NAME,     F_AT,     F_PEAK, F_PLAY, F_SPAN,
                                 F_TAG,   F_DIFF,   F_MEASURED, F_POLICY, F_MEM,  F_STEP};

/* The status bar: the graph's file name (without its folders, as htop shows
 * a command: where the repository sits must not push the numbers off the
 * line), the policies, the step, the last pop, the live bytes, the replay's
 * reading there, the peak so far and its step, the makespan of the whole
 * order (when the graph has latencies), auto-play, the replay's backend and
 * device. */
void view_status(canvas *cv, const app *a, rect r)
{
    const stepper *s = &a->st[0];
    const graph *g = a->g;
    char f[NFIELD][256], b1[32], b2[32], lb[GRAPH_LABEL_MAX];
    for (int i = 0; i < NFIELD; i++) f[i][0] = 0;
    uint32_t pat;
    int64_t peak = step_peak(s, &pat);
    uint32_t u = step_last(s);
    const char *slash = strrchr(a->title, '/'), *name = slash && slash[1] ? slash + 1 : a->title;
    snprintf(f[F_LABEL], sizeof f[F_LABEL], " memtris");
    snprintf(f[F_NAME], sizeof f[F_NAME], " %s", name);
    snprintf(f[F_POLICY], sizeof f[F_POLICY], "  %s%s%s", a->pol->name, a->cmp.shown ? " vs " : "",
             a->cmp.shown ? a->cmp.pol->name : "");
    snprintf(f[F_STEP], sizeof f[F_STEP], "  step %u/%u", s->k, g->n);
    if (u != GRAPH_NONE)
        snprintf(f[F_POPPED], sizeof f[F_POPPED], "  popped node %" PRId64 " (%s)", g->id[u],
                 graph_label(g, u, lb, sizeof lb));
    else snprintf(f[F_POPPED], sizeof f[F_POPPED], "  popped -");
    snprintf(f[F_MEM], sizeof f[F_MEM], "  mem %s", units_bytes(b1, sizeof b1, step_memory(s), 0));
    /* The replay's reading at this step, next to the predicted bytes. */
    const replay_result *rp = app_overlay(a);
    if (rp && s->k > 0 && s->k <= rp->n) {
        const replay_sample *x = &rp->s[s->k - 1];
        snprintf(f[F_MEASURED], sizeof f[F_MEASURED], "  measured %s",
                 units_bytes(b1, sizeof b1, x->measured, 0));
        snprintf(f[F_DIFF], sizeof f[F_DIFF], " (%s)",
                 units_bytes(b2, sizeof b2, x->measured - x->predicted, 1));
    } else if (rp && s->k > 0) {
        snprintf(f[F_MEASURED], sizeof f[F_MEASURED], "  measured n/a");
    }
    snprintf(f[F_PEAK], sizeof f[F_PEAK], "  peak so far %s", units_bytes(b1, sizeof b1, peak, 0));
    if (pat) snprintf(f[F_AT], sizeof f[F_AT], " @%u", pat);
    if (g->latency && a->tl.n)
        snprintf(f[F_SPAN], sizeof f[F_SPAN], "  makespan %s",
                 units_ms(b1, sizeof b1, a->tl.makespan));
    if (a->play.playing)
        snprintf(f[F_PLAY], sizeof f[F_PLAY], "  %s %u/s", cv->utf8 ? "\u25b6" : ">",
                 app_steps_per_sec(a));
    /* The replay's backend and device ("n/a" when the backend did not say);
     * the backend alone when the device does not fit. */
    char shorttag[64] = "";
    if (a->rp.running && a->rp.job_be) {
        snprintf(f[F_TAG], sizeof f[F_TAG], "  | %s: replaying", a->rp.job_be->name);
        snprintf(shorttag, sizeof shorttag, "  | %s", a->rp.job_be->name);
    } else if (a->have_replay) {
        const replay_result *h = &a->replay;
        size_t bl = strlen(h->backend);
        if (!h->info.device[0]) snprintf(f[F_TAG], sizeof f[F_TAG], "  | %s: n/a", h->backend);
        else if (!strncmp(h->info.device, h->backend, bl) && h->info.device[bl] == ':')
            snprintf(f[F_TAG], sizeof f[F_TAG], "  | %.200s",
                     h->info.device); /* "host: Linux ..." */
        else snprintf(f[F_TAG], sizeof f[F_TAG], "  | %s: %.180s", h->backend, h->info.device);
        snprintf(shorttag, sizeof shorttag, "  | %s", h->backend);
    }
    int cols[NFIELD], w = 0;
    for (int i = 0; i < NFIELD; i++) w += cols[i] = utf8_count(f[i]);
    if (w > r.w && shorttag[0]) {
        w -= cols[F_TAG];
        snprintf(f[F_TAG], sizeof f[F_TAG], "%s", shorttag);
        w += cols[F_TAG] = utf8_count(f[F_TAG]);
    }
    for (size_t i = 0; i < sizeof drop_order / sizeof drop_order[0] && w > r.w; i++) {
        int d = drop_order[i];
        if (d == F_MEASURED && cols[F_DIFF])
            continue; /* never the difference without the reading */
        w -= cols[d];
        cols[d] = 0;
        if (d == F_PEAK && cols[F_AT]) { /* nor the step without the peak */
            w -= cols[F_AT];
            cols[F_AT] = 0;
        }
    }
    /* A wide field gone may leave room for a narrower one dropped before it. */
    for (size_t i = sizeof drop_order / sizeof drop_order[0]; i-- > 0;) { /* worthiest first */
        int d = drop_order[i], need = utf8_count(f[d]);
        if (cols[d] || !need || w + need > r.w) continue;
        if ((d == F_AT && !cols[F_PEAK]) || (d == F_DIFF && !cols[F_MEASURED])) continue;
        cols[d] = need;
        w += need;
    }
    canvas_fill(cv, r, ' ', ST_STATUS);
    int x = r.x, end = r.x + r.w;
    for (int i = 0; i < NFIELD; i++) {
        if (!cols[i]) continue;
        int st = i == F_LABEL || i == F_PLAY ? ST_STATUS_KEY : ST_STATUS;
        x += canvas_text(cv, x, r.y, end - x, st, f[i]);
    }
}
