/* app_export.c: the TUI's export (e): the curve and the arena of the stepped
 * policy as an SVG picture, drawn as plan --svg draws them, with the cursor's
 * step marked (in compare mode the other policy's curve too, and the why
 * lines; a training step's categories stacked as C shows them, its measured
 * line, the backward's first step and the budget's line as the screen has
 * them), whole or absent (atomic_out). Exports app_export_name,
 * app_export_svg. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "app.h"
#include "svg/svg.h"
#include "util/units.h"
#include "util/atomic_out.h"

void app_export_name(const app *a, char *out, size_t cap)
{
    const char *slash = strrchr(a->title, '/'), *base = slash && slash[1] ? slash + 1 : a->title;
    size_t len = strlen(base);
    if (len > 5 && !strcmp(base + len - 5, ".json")) len -= 5;
    if (len > 64) len = 64;
    if (a->cmp.shown)
        snprintf(out, cap, "%.*s-%s-vs-%s-step%u.svg", (int)len, base, a->pol->name,
                 a->st[1].pol->name, a->st[0].k);
    else snprintf(out, cap, "%.*s-%s-step%u.svg", (int)len, base, a->pol->name, a->st[0].k);
}

/* The step of the first backward node (the curve's mark), or 0. */
static uint32_t backward_step(const graph *g, const run *r)
{
    if (!g->tag) return 0;
    for (uint32_t t = 0; t < r->n; t++)
        if (graph_phase(g, r->order[t]) == GRAPH_PHASE_BACKWARD) return t + 1;
    return 0;
}

int app_export_svg(app *a, const char *path)
{
    atomic_out out;
    if (atomic_out_open(&out, path)) {
        snprintf(a->msg, sizeof a->msg, "cannot write %.120s: %s", path, strerror(errno));
        return -1;
    }
    char err[160] = "", line[4][320], b1[32], b2[32], words[256];
    const char *notes[4];
    uint32_t nn = 0;
    if (a->cmp.shown) { /* the why list: the peaks (w: at the worse one's), the parting, the pops */
        const stepper *m = &a->st[0], *o = &a->st[1];
        const stepper *worse = o->r.peak > m->r.peak ? o : m, *better = worse == o ? m : o;
        uint32_t k = worse->r.peak_step, d = a->cmp.diverge;
        int64_t wm = k ? worse->r.memory[k - 1] : 0, bm = k ? better->r.memory[k - 1] : 0;
        if (a->better)
            snprintf(line[nn], sizeof line[nn],
                     "why %s is lower: at step %u, %s's peak, %s holds %s, %s %s",
                     better->pol->name, k, worse->pol->name, worse->pol->name,
                     units_bytes(b1, sizeof b1, wm, 0), better->pol->name,
                     units_bytes(b2, sizeof b2, bm, 0));
        else
            snprintf(line[nn], sizeof line[nn], "peaks: %s %s, %s %s", m->pol->name,
                     units_bytes(b1, sizeof b1, m->r.peak, 0), o->pol->name,
                     units_bytes(b2, sizeof b2, o->r.peak, 0));
        nn++;
        if (d >= a->g->n) snprintf(line[nn++], sizeof line[0], "the two orders are the same");
        else
            snprintf(line[nn++], sizeof line[0], "the orders part at step %u: %s", d + 1,
                     app_compare_words(a->g, m, o, d, words, sizeof words));
        for (int i = 0; i < 2; i++)
            if (a->why[i][0]) snprintf(line[nn++], sizeof line[0], "%s", a->why[i]);
        for (uint32_t i = 0; i < nn; i++) notes[i] = line[i];
    }
    svg_plan sp = {.g = a->g,
                   .r = &a->st[0].r,
                   .pl = &a->pl,
                   .policy = a->pol->name,
                   .has_cursor = 1,
                   .cursor = a->st[0].k,
                   .r2 = a->cmp.shown ? &a->st[1].r : NULL,
                   .policy2 = a->cmp.shown ? a->st[1].pol->name : NULL,
                   .notes = nn ? notes : NULL,
                   .nnotes = nn,
                   .stacked = a->stacked && a->g->tag,
                   .measured = a->g->measured_peak > 0 ? a->g->measured_peak : 0,
                   .backward = backward_step(a->g, &a->st[0].r),
                   .budget = a->bud.on ? a->bud.budget : 0};
    int rc = svg_write_plan(out.f, &sp, err, sizeof err), e = 0;
    if (rc) atomic_out_abandon(&out);
    else if (atomic_out_commit(&out)) e = errno ? errno : EIO;
    if (rc || e) {
        snprintf(a->msg, sizeof a->msg, "cannot write %.120s: %s", path, rc ? err : strerror(e));
        return -1;
    }
    if (a->cmp.shown)
        snprintf(a->msg, sizeof a->msg,
                 "wrote %.120s: the curves of %s and %s, the %s arena of %s at step %u", path,
                 a->pol->name, a->st[1].pol->name, a->pl.placer, a->pol->name, a->st[0].k);
    else
        snprintf(a->msg, sizeof a->msg, "wrote %.120s: the curve and the %s arena of %s at step %u",
                 path, a->pl.placer, a->pol->name, a->st[0].k);
    return 0;
}
