/* policy_weighted.c: policy "weighted", a weighted sum of two objectives
 * (the weighted-sum method of multi-objective optimization, Marler and Arora
 * 2004; man memtris, POLICIES): alpha x memory_score + (1 - alpha) x
 * latency_score, with
 * memory_score = -change and latency_score = 1 / latency (0 without one),
 * each scaled to [0, 1] over the graph's nodes so the weights mean what they
 * say: memory = (largest change - change) / (largest - smallest change),
 * latency = (1 / latency) / (1 / the smallest latency). The highest score
 * runs first; ties go to the smaller change, then to priority's (type, id),
 * so alpha 1 is exactly priority's order (at alpha 0, to the first ready). Exports
 * policy_weighted and policy_weighted_score. */
#include "policy_internal.h"
#include <math.h>
#include <stdio.h>

static void weighted_prepare(const graph *g, const solve_ctx *c, run *r)
{
    r->alpha = solve_alpha(c);
    int64_t lo = 0, hi = 0;
    double fastest = 0; /* the smallest positive latency */
    for (uint32_t i = 0; i < g->n; i++) {
        if (i == 0 || g->change[i] < lo) lo = g->change[i];
        if (i == 0 || g->change[i] > hi) hi = g->change[i];
        double l = graph_latency(g, i);
        if (l > 0 && (fastest == 0 || l < fastest)) fastest = l;
    }
    r->kscale[0] = (double)hi;
    r->kscale[1] = (double)hi - (double)lo; /* 0: every change is the same */
    r->kscale[2] = fastest;                 /* 0: no node has a latency */
}

double policy_weighted_score(const graph *g, const run *r, uint32_t i, double *mem, double *lat)
{
    double m = r->kscale[1] > 0 ? (r->kscale[0] - (double)g->change[i]) / r->kscale[1] : 0;
    /* (1 / l) / (1 / fastest), as fastest / l: in (0, 1], never inf / inf */
    double l = graph_latency(g, i);
    l = l > 0 && r->kscale[2] > 0 ? r->kscale[2] / l : 0;
    if (m > 1) m = 1; /* rounding */
    if (l > 1) l = 1;
    if (mem) *mem = m;
    if (lat) *lat = l;
    return r->alpha * m + (1 - r->alpha) * l;
}

/* Scores are compared at 2^-52. Ties go to the smaller change, then to
 * priority's (type, id): at alpha 1 the score falls as change rises, and
 * the change that breaks its ties keeps priority's order exactly. At alpha
 * 0 memory plays no part, not even in ties: they go to the node that became
 * ready first, as in fifo. */
static void weighted_key(POLICY_KEY_ARGS)
{
    double s = policy_weighted_score(g, r, i, NULL, NULL);
    if (!(s >= 0 && s <= 1)) s = 0; /* both terms are in [0, 1]: this is only a guard */
    k[0] = -(int64_t)llround(s * 4503599627370496.0);
    k[1] = r->alpha > 0 ? g->change[i] : 0;
    k[2] = r->alpha > 0 ? ((int64_t)g->kind[i] << 53) | g->id[i] /* Ids are below 2^53 */
                        : (int64_t)seq;
}

static void weighted_why(POLICY_WHY_ARGS)
{
    double m, l, s = policy_weighted_score(g, r, u, &m, &l);
    char lb[GRAPH_LABEL_MAX];
    if (v == GRAPH_NONE || nready < 2) {
        snprintf(out, cap, "score %.3f (memory %.3f, latency %.3f, alpha %.2g)", s, m, l, r->alpha);
        return;
    }
    double vm, vl, vs = policy_weighted_score(g, r, v, &vm, &vl);
    int64_t ku[3], kv[3];
    weighted_key(g, r, u, 0, ku);
    weighted_key(g, r, v, 0, kv);
    snprintf(out, cap,
             "the highest score of %u ready, %.3f (memory %.3f, latency %.3f, alpha %.2g); "
             "next best node %lld (%s) scores %.3f%s",
             nready, s, m, l, r->alpha, (long long)g->id[v], graph_label(g, v, lb, sizeof lb), vs,
             ku[0] != kv[0] ? ""
             : r->alpha > 0 ? ", a tie broken by change, type and id"
                            : ", a tie: the first ready wins");
}

/* The ready queue's key: the score (3 decimals), then what breaks its ties. */
static void weighted_show(const graph *g, const run *r, uint32_t i, const int64_t k[3], char *out,
                          size_t cap)
{
    (void)g;
    if (i == GRAPH_NONE)
        snprintf(out, cap, r->alpha > 0 ? "(score,change,type,id)" : "(score,queued)");
    else if (r->alpha > 0)
        snprintf(out, cap, "(%.3f,%lld,%d,%lld)", (double)-k[0] / 4503599627370496.0,
                 (long long)k[1], (int)(k[2] >> 53), (long long)(k[2] & (((int64_t)1 << 53) - 1)));
    else /* queued counts from 1, as the why's "queued 5th" */
        snprintf(out, cap, "(%.3f,%lld)", (double)-k[0] / 4503599627370496.0, (long long)k[2] + 1);
}

const policy policy_weighted = {
    .name = "weighted",
    .desc = "memory weighed against latency: alpha x memory + (1 - alpha) x latency, each "
            "scaled to [0, 1]; the highest runs first (--alpha, default 0.7; 1 is priority)",
    .key = weighted_key,
    .prepare = weighted_prepare,
    .show = weighted_show,
    .kind = POLICY_TIMED,
    .nkeys = 3,
    .key_names = {"score", "change", "type,id"},
    .why = weighted_why};
