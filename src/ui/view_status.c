/* view_status.c: the status bar: file name, policies, step, last pop, live and
 * measured bytes, peak (in compare mode both orders', each named by its policy), makespan,
 * auto-play, the replay's backend and device; pieces go whole when the line is too narrow,
 * lowest worth first. Exports view_status. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "sched/budget/budget_say.h"
#include "util/units.h"
#include "util/utf8.h"
#include "app_train.h"
#include "view.h"

/* The fields, in the order they are shown. */
enum {
    F_LABEL,
    F_NAME,
    F_POLICY,
    F_ORDER, /* " (the framework's order)": given on a training step */
    F_STEP,
    F_PHASE,
    F_POPPED,
    F_MEM,
    F_MEASURED,
    F_DIFF,
    F_PEAK,
    F_AT,
    F_OTHER,
    F_SPAN,
    F_BUDGET, /* the budget view's: "budget 8.0 MiB", " · extra +12.3 ms", " · 5 reruns" */
    F_EXTRA,
    F_RERUNS,
    F_GAP, /* " · within 13% of optimal", " · optimal": the plan against the lower bound */
    F_PLAY,
    F_TAG,
    NFIELD
};

/* Which field goes first when the line is too narrow, then the next...
 * (the replay's device has gone before, leaving its backend): the last pop,
 * the label, the file's name, the other order's numbers (compare mode; the
 * summary panel shows them too), the makespan, the peak's step, what the policy's order is (a
 * training step's given: the framework's; the opening message says it too), the
 * replay's backend (the curve's legend names it), the reading's difference,
 * the phase, the budget view's reruns and its gap to the optimum, the reading, auto-play, the peak,
 * the policy, the budget view's extra time and budget, the live bytes; the step last. Each goes
 * whole, never in part, and a field goes only after every field of less worth has gone: the peak
 * outranks the file name. */
static const int drop_order[] = {F_POPPED, F_LABEL,  F_NAME,  F_OTHER,  F_SPAN, F_AT,       F_ORDER,
                                 F_TAG,    F_DIFF,   F_PHASE, F_RERUNS, F_GAP,  F_MEASURED, F_PLAY,
                                 F_PEAK,   F_POLICY, F_EXTRA, F_BUDGET, F_MEM,  F_STEP};

/* Bytes as the status bar shows them; worst: as wide as any value from 0
 * to max can be ("1023.9 KiB" once max passes 1000 KiB), so that which
 * fields fit does not change as the numbers do and the title keeps still
 * while stepping. */
static const char *bytes(char *out, size_t cap, int64_t v, int64_t max, int sign, int worst)
{
    units_bytes(out, cap, v, sign);
    if (!worst) return out;
    if (max < 0) max = -max;
    char b[32];
    for (int64_t u = 1; u > 0 && u <= max && u <= INT64_MAX / 1024; u *= 1024) {
        int64_t c = 1023 * u < max ? 1023 * u : max; /* "1023.0 KiB", not rounded up */
        units_bytes(b, sizeof b, sign ? -c : c, sign);
        if (strlen(b) > strlen(out)) snprintf(out, cap, "%s", b);
    }
    return out;
}

/* Stepper s's live bytes, peak so far and its step, named by its policy in
 * compare mode ("priority mem 3.1 MiB", "fifo mem 6.9 MiB, peak so far 6.9
 * MiB @24"): whose each number is. */
static void side_fields(char *mem, char *peak, char *at, size_t cap, const app *a, const stepper *s,
                        int worst)
{
    char b1[32], b2[32];
    uint32_t pat, n = a->g->n;
    int64_t pk = step_peak(s, &pat);
    const char *who = a->cmp.shown ? s->pol->name : "", *sp = a->cmp.shown ? " " : "";
    snprintf(mem, cap, "  %s%smem %s", who, sp,
             bytes(b1, sizeof b1, step_memory(s), s->r.peak, 0, worst));
    snprintf(peak, cap, "%speak so far %s", a->cmp.shown ? ", " : "  ",
             bytes(b2, sizeof b2, pk, s->r.peak, 0, worst));
    at[0] = 0;
    if (pat || worst) snprintf(at, cap, " @%u", worst ? n : pat);
}

/* The Phase the cursor is in at step k of s: the last compute node with a Phase popped at or
 * before it, else (at the start) the first one after it; GRAPH_PHASE_NONE when the graph has
 * none. */
static int cursor_phase(const graph *g, const stepper *s)
{
    if (!g->tag) return GRAPH_PHASE_NONE;
    for (uint32_t t = s->k; t > 0; t--) {
        int ph = graph_phase(g, s->r.order[t - 1]);
        if (ph) return ph;
    }
    for (uint32_t t = s->k; t < s->r.n; t++) {
        int ph = graph_phase(g, s->r.order[t]);
        if (ph) return ph;
    }
    return GRAPH_PHASE_NONE;
}

/* Every field's text (the widest it can be, when worst); the replay's
 * backend alone into shorttag, for when the device does not fit. */
static void fields(char f[NFIELD][256], char *shorttag, const app *a, int utf8, int worst)
{
    const stepper *s = &a->st[0];
    const graph *g = a->g;
    char b1[32], b2[32], lb[GRAPH_LABEL_MAX];
    for (int i = 0; i < NFIELD; i++) f[i][0] = 0;
    uint32_t u = step_last(s);
    const char *slash = strrchr(a->title, '/'), *name = slash && slash[1] ? slash + 1 : a->title;
    snprintf(f[F_LABEL], 256, " memtris");
    snprintf(f[F_NAME], 256, " %s", name);
    if (!a->cmp.shown) /* compare mode names each number's policy instead */
        snprintf(f[F_POLICY], 256, "  %s", a->pol->name);
    if (!a->cmp.shown) snprintf(f[F_ORDER], 256, "%s", app_train_label(a));
    snprintf(f[F_STEP], 256, "  step %u/%u", worst ? g->n : s->k, g->n);
    int ph = cursor_phase(g, s);
    if (ph) /* as wide as the widest word, so that the fields keep still */
        snprintf(f[F_PHASE], 256, "  %s", worst ? "optimizer" : graph_phase_word(ph));
    if (u != GRAPH_NONE)
        snprintf(f[F_POPPED], 256, "  popped node %" PRId64 " (%s)", g->id[u],
                 graph_label(g, u, lb, sizeof lb));
    else snprintf(f[F_POPPED], 256, "  popped -");
    side_fields(f[F_MEM], f[F_PEAK], f[F_AT], 256, a, s, worst);
    if (a->cmp.shown) {
        char mem[96], peak[96], at[32];
        side_fields(mem, peak, at, sizeof mem, a, &a->st[1], worst);
        snprintf(f[F_OTHER], 256, "  |%s%s%s", mem + 1, peak, at);
    }
    /* The replay's reading at this step, next to the predicted bytes. */
    const replay_result *rp = app_overlay(a);
    if (rp && s->k > 0 && s->k <= rp->n) {
        const replay_sample *x = &rp->s[s->k - 1];
        int64_t top = rp->measured_peak > s->r.peak ? rp->measured_peak : s->r.peak;
        snprintf(f[F_MEASURED], 256, "  measured %s",
                 bytes(b1, sizeof b1, x->measured, top, 0, worst));
        snprintf(f[F_DIFF], 256, " (%s)",
                 bytes(b2, sizeof b2, x->measured - x->predicted, top, 1, worst));
    } else if (rp && s->k > 0) {
        snprintf(f[F_MEASURED], 256, "  measured n/a");
    }
    if (g->latency && a->tl.n)
        snprintf(f[F_SPAN], 256, "  makespan %s", units_ms(b1, sizeof b1, a->tl.makespan));
    if (a->bud.on) {
        const char *dot = utf8 ? " \u00b7 " : ", ";
        snprintf(f[F_BUDGET], 256, "  budget %s", units_bytes(b1, sizeof b1, a->bud.budget, 0));
        snprintf(f[F_EXTRA], 256, "%sextra +%s%s", dot, units_ms(b2, sizeof b2, a->bud.st.extra_ms),
                 a->bud.timeless ? " (no Latency)" : "");
        snprintf(f[F_RERUNS], 256, "%s%" PRIu64 " rerun%s", dot, a->bud.st.reruns,
                 a->bud.st.reruns == 1 ? "" : "s");
        /* without Latency no time to judge: "optimal" at 0 ms would mislead */
        double gap =
            a->bud.timeless ? -1 : budget_gap(a->bud.st.extra_ms, a->bud.lb_ms, a->bud.proven);
        if (gap == 0) snprintf(f[F_GAP], 256, "%soptimal", dot);
        else if (gap > 0)
            snprintf(f[F_GAP], 256, "%swithin %d%% of optimal", dot, budget_gap_pct(gap));
    }
    if (a->play.playing)
        snprintf(f[F_PLAY], 256, "  %s %u/s", utf8 ? "\u25b6" : ">", app_steps_per_sec(a));
    /* The replay's backend and device ("n/a" when the backend did not say);
     * the backend alone when the device does not fit. */
    shorttag[0] = 0;
    if (a->rp.running && a->rp.job_be) {
        snprintf(f[F_TAG], 256, "  | %s: replaying", a->rp.job_be->name);
        snprintf(shorttag, 64, "  | %s", a->rp.job_be->name);
    } else if (a->have_replay) {
        const replay_result *h = &a->replay;
        size_t bl = strlen(h->backend);
        if (!h->info.device[0]) snprintf(f[F_TAG], 256, "  | %s: n/a", h->backend);
        else if (!strncmp(h->info.device, h->backend, bl) && h->info.device[bl] == ':')
            snprintf(f[F_TAG], 256, "  | %.200s", h->info.device); /* "host: Linux ..." */
        else snprintf(f[F_TAG], 256, "  | %s: %.180s", h->backend, h->info.device);
        snprintf(shorttag, 64, "  | %s", h->backend);
    }
}

/* The status bar: the graph's file name (without its folders, as htop shows
 * a command: where the repository sits must not push the numbers off the
 * line), the policies, the step, the phase it is in (forward, backward, optimizer: a training
 * graph's), the last pop, the live bytes, the replay's
 * reading there, the peak so far and its step (in compare mode each named
 * by its policy, the other order's too), the makespan of the whole order
 * (when the graph has latencies), auto-play, the replay's backend and
 * device. Which fields fit is decided on their widest (the numbers' widest),
 * so that none comes and goes as the cursor moves but the last pop. */
void view_status(canvas *cv, const app *a, rect r)
{
    char f[NFIELD][256], wide[NFIELD][256], shorttag[64], wshort[64];
    fields(f, shorttag, a, cv->utf8, 0);
    fields(wide, wshort, a, cv->utf8, 1);
    int cols[NFIELD], w = 0;
    for (int i = 0; i < NFIELD; i++) {
        int n = utf8_count(f[i]), m = utf8_count(wide[i]);
        w += cols[i] = n > m ? n : m;
    }
    if (w > r.w && shorttag[0]) {
        w -= cols[F_TAG];
        snprintf(f[F_TAG], sizeof f[F_TAG], "%s", shorttag);
        w += cols[F_TAG] = utf8_count(f[F_TAG]);
    }
    /* Lowest worth first, whole fields, none back once a worthier one went. */
    for (size_t i = 0; i < sizeof drop_order / sizeof drop_order[0] && w > r.w; i++) {
        int d = drop_order[i];
        w -= cols[d];
        cols[d] = 0;
    }
    canvas_fill(cv, r, ' ', ST_STATUS);
    int x = r.x, end = r.x + r.w;
    for (int i = 0; i < NFIELD; i++) {
        if (!cols[i]) continue;
        int st = i == F_LABEL || i == F_PLAY ? ST_STATUS_KEY : ST_STATUS;
        x += canvas_text(cv, x, r.y, end - x, st, f[i]);
    }
}
