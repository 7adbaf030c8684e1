/* view_status.c: the status bar: file name, policies, step, last pop, live and
 * measured bytes, peak, auto-play, the replay's backend and device; pieces go
 * whole when the line is too narrow. Exports view_status. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "sched/units.h"
#include "util/utf8.h"
#include "view.h"

/* The graph, the policy, the step, the last pop, the live bytes, the
 * replay's reading there, the peak, auto-play; then the replay's backend
 * and device. When the line is too long the device goes first ("| host"
 * stays), then the peak and auto-play rather than the backend; when even
 * that is too long, the backend goes (the curve's legend names it) and the
 * line is cut at the edge as without a replay. */
void view_status(canvas *cv, const app *a, rect r)
{
    const stepper *s = &a->st[0];
    const graph *g = a->g;
    enum { BASE, MEASURED, PEAK, PLAY, NPIECE };
    char piece[NPIECE][512], now[32], pk[32], tag[192] = "", shorttag[32] = "";
    uint32_t pat;
    int64_t peak = step_peak(s, &pat);
    uint32_t u = step_last(s);
    char popped[96] = "-";
    if (u != GRAPH_NONE)
        snprintf(popped, sizeof popped, "%s %" PRId64, graph_label(g, u), g->id[u]);
    /* The file's name without its folders, as htop shows a command: where the
     * repository sits must not push the numbers off the line. */
    const char *slash = strrchr(a->title, '/'), *name = slash && slash[1] ? slash + 1 : a->title;
    snprintf(piece[BASE], sizeof piece[BASE], "%s  %s%s%s  step %u/%u  popped %s  mem %s", name,
             a->pol->name, a->compare ? " vs " : "", a->compare ? a->cmp_pol->name : "", s->k, g->n,
             popped, units_bytes(now, sizeof now, step_memory(s), 0));
    /* The replay's reading at this step, next to the predicted bytes. */
    const replay_result *rp = app_overlay(a);
    piece[MEASURED][0] = 0;
    if (rp && s->k > 0 && s->k <= rp->n) {
        char m[32], d[32];
        const replay_sample *x = &rp->s[s->k - 1];
        snprintf(piece[MEASURED], sizeof piece[MEASURED], "  measured %s (%s)",
                 units_bytes(m, sizeof m, x->measured, 0),
                 units_bytes(d, sizeof d, x->measured - x->predicted, 1));
    } else if (rp && s->k > 0) {
        snprintf(piece[MEASURED], sizeof piece[MEASURED], "  measured n/a");
    }
    int n =
        snprintf(piece[PEAK], sizeof piece[PEAK], "  peak %s", units_bytes(pk, sizeof pk, peak, 0));
    if (pat) snprintf(piece[PEAK] + n, sizeof piece[PEAK] - (size_t)n, " @%u", pat);
    piece[PLAY][0] = 0;
    if (a->playing)
        snprintf(piece[PLAY], sizeof piece[PLAY], "  %s %u/s", cv->utf8 ? "\u25b6" : ">",
                 app_steps_per_sec(a));
    /* The replay's backend and device ("n/a" when the backend did not say). */
    if (a->rp.running && a->rp.job_be) {
        snprintf(tag, sizeof tag, "  | %s: replaying", a->rp.job_be->name);
        snprintf(shorttag, sizeof shorttag, "  | %s", a->rp.job_be->name);
    } else if (a->have_replay) {
        const replay_result *h = &a->replay;
        size_t bl = strlen(h->backend);
        if (!h->info.device[0]) snprintf(tag, sizeof tag, "  | %s: n/a", h->backend);
        else if (!strncmp(h->info.device, h->backend, bl) && h->info.device[bl] == ':')
            snprintf(tag, sizeof tag, "  | %s", h->info.device); /* "host: Linux 6.1 x86_64" */
        else snprintf(tag, sizeof tag, "  | %s: %s", h->backend, h->info.device);
        snprintf(shorttag, sizeof shorttag, "  | %s", h->backend);
    }
    int cols[NPIECE], show[NPIECE], w = 9; /* 9: " memtris " */
    for (int i = 0; i < NPIECE; i++) {
        cols[i] = utf8_count(piece[i]);
        show[i] = 1;
        w += cols[i];
    }
    const char *t = tag;
    if (tag[0] && w + utf8_count(tag) > r.w) {
        static const int drop[] = {PEAK, PLAY};
        t = shorttag;
        for (size_t i = 0; i < sizeof drop / sizeof drop[0] && w + utf8_count(t) > r.w; i++) {
            show[drop[i]] = 0;
            w -= cols[drop[i]];
        }
        if (w + utf8_count(t) > r.w) { /* the reading before the backend (the legend names it) */
            t = "";
            /* whole pieces only: the reading without its difference, then none */
            char *paren = strstr(piece[MEASURED], " (");
            if (w > r.w && paren) {
                w -= cols[MEASURED];
                *paren = 0;
                cols[MEASURED] = utf8_count(piece[MEASURED]);
                w += cols[MEASURED];
            }
            if (w > r.w) show[MEASURED] = 0;
        }
    }
    canvas_fill(cv, r, ' ', ST_STATUS);
    int x = r.x, end = r.x + r.w;
    x += canvas_text(cv, x, r.y, end - x, ST_STATUS_KEY, " memtris ");
    for (int i = 0; i < NPIECE; i++)
        if (show[i])
            x += canvas_text(cv, x, r.y, end - x, i == PLAY ? ST_STATUS_KEY : ST_STATUS, piece[i]);
    canvas_text(cv, x, r.y, end - x, ST_STATUS, t);
}
