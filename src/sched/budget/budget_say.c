/* budget_say.c: the gap of a plan to the lower bound and why the search stopped short of a
 * proof, what fills the least budget by Category, and a graph without Latency, in the words
 * every view shares. Exports budget_gap, budget_gap_pct, budget_gap_words, budget_stop_name,
 * budget_stop_words, budget_fill, budget_fill_words, budget_has_latency,
 * budget_no_latency_words. */
#include "budget_say.h"
#include <math.h>
#include <stdio.h>
#include <inttypes.h>
#include <stdlib.h>
#include "util/units.h"
#include "util/utf8.h"

double budget_gap(double extra_ms, double lb_ms, int proven)
{
    if (proven || extra_ms <= 0) return 0;
    if (lb_ms <= 0) return -1;
    return (extra_ms - lb_ms) / lb_ms;
}

int budget_gap_pct(double gap)
{
    double pct = ceil(gap * 100);
    return pct < 1 ? 1 : pct > 1e6 ? 1000000 : (int)pct;
}

char *budget_gap_words(char *out, size_t cap, double extra_ms, double lb_ms, int proven)
{
    char l[32];
    double gap = budget_gap(extra_ms, lb_ms, proven);
    units_ms(l, sizeof l, lb_ms > 0 ? lb_ms : 0);
    if (gap == 0) snprintf(out, cap, "proven optimal");
    else if (gap < 0) snprintf(out, cap, "gap unknown (lower bound %s)", l);
    else snprintf(out, cap, "within %d%% of optimal (lower bound %s)", budget_gap_pct(gap), l);
    return out;
}

/* Whether res's answer is proven: its plan optimal, or no plan fits. */
static int proven(const budget_result *res)
{
    return res->found ? res->proof.proven || res->st.extra_ms <= 0 : res->proven_infeasible;
}

/* The limit or cancel that stopped the search, or SOLVE_DONE. */
static solve_stop stop_of(const budget_result *res)
{
    if (!res->found && res->out.stopped != SOLVE_DONE) return res->out.stopped;
    return res->proof.stopped;
}

const char *budget_stop_name(const budget_result *res)
{
    if (proven(res)) return "done";
    solve_stop s = stop_of(res);
    if (s != SOLVE_DONE) return solve_stop_name(s);
    return res->proof.searched ? "offload-bound" : "no-search";
}

char *budget_stop_words(char *out, size_t cap, const budget_result *res, const char *solver)
{
    solve_stop s = stop_of(res);
    const char *who = res->proof.searched ? "exact" : solver;
    uint64_t n = res->proof.states;
    if (proven(res)) snprintf(out, cap, "%s", "");
    else if (s == SOLVE_TOO_LARGE)
        snprintf(out, cap, ", exact not run (over %d compute nodes)", BUDGET_BEST_EXACT_NODES);
    else if (s != SOLVE_DONE)
        snprintf(out, cap, ", %s stopped at the %s after %" PRIu64 " states", who,
                 s == SOLVE_TIME     ? "time limit"
                 : s == SOLVE_STATES ? "limit of states (--max-states)"
                 : s == SOLVE_MEMORY ? "limit of its memory"
                                     : "cancel",
                 n);
    else if (res->proof.searched)
        snprintf(out, cap,
                 ", exact's search ended after %" PRIu64 " states: with offload its bound counts "
                 "the reruns alone, not the copies' time",
                 n);
    else snprintf(out, cap, ", %s proves no bound of its own (exact searches for one)", solver);
    return out;
}

uint32_t budget_fill(const budget_result *res, int64_t bytes[GRAPH_NCAT])
{
    const budget_bound *bb = &res->bb;
    const graph *g = res->bm.g;
    for (int c = 0; c < GRAPH_NCAT; c++) bytes[c] = 0;
    if (bb->peak_at == GRAPH_NONE) return GRAPH_NONE;
    uint32_t n = bb->ent_off[bb->peak_at + 1] - bb->ent_off[bb->peak_at];
    uint32_t *f = malloc(((size_t)n + 1) * sizeof *f);
    if (!f) return GRAPH_NONE;
    size_t k = budget_bound_forced_at(bb, bb->peak_at, f, n);
    for (size_t i = 0; i < k; i++) bytes[graph_buf_category(g, f[i])] += g->buf_size[f[i]];
    free(f);
    return bb->node[bb->peak_at];
}

char *budget_fill_words(char *out, size_t cap, const budget_result *res)
{
    int64_t bytes[GRAPH_NCAT];
    uint32_t v = budget_fill(res, bytes);
    size_t len = 0;
    out[0] = 0;
    if (v == GRAPH_NONE || res->bb.peak <= 0) return out;
    int done[GRAPH_NCAT] = {0};
    for (;;) { /* biggest first */
        int c = -1;
        for (int k = 0; k < GRAPH_NCAT; k++)
            if (!done[k] && bytes[k] > 0 && (c < 0 || bytes[k] > bytes[c])) c = k;
        if (c < 0 || len >= cap) break;
        done[c] = 1;
        char sz[32];
        len += (size_t)snprintf(out + len, cap - len, "%s%s %s (%.0f%%)", len ? ", " : "",
                                c == GRAPH_CAT_NONE ? "other" : graph_category_word(c),
                                units_bytes(sz, sizeof sz, bytes[c], 0),
                                100.0 * (double)bytes[c] / (double)res->bb.peak);
    }
    if (len < cap) {
        char name[48];
        snprintf(out + len, cap - len, " at Id %lld (%s)", (long long)res->bm.g->id[v],
                 utf8_printable(graph_name(res->bm.g, v), name, sizeof name));
    }
    return out;
}

int budget_has_latency(const graph *g)
{
    if (!g->latency) return 0;
    for (uint32_t i = 0; i < g->n; i++)
        if (g->kind[i] == NODE_COMPUTE && graph_latency(g, i) > 0) return 1;
    return 0;
}

const char *budget_no_latency_words(unsigned allow, int terse)
{
    static const char *const words[2][2] = {
        {"the graph has no Latency: every plan costs 0 ms; export with --latency flops|measure",
         "the graph has no Latency: every rerun costs 0 ms, only copies take time; export with "
         "--latency flops|measure"},
        {"no Latency: every plan costs 0 ms; export with --latency flops|measure",
         "no Latency: reruns cost 0 ms; export with --latency flops|measure"}};
    return words[terse ? 1 : 0][allow & BUDGET_ALLOW_OFFLOAD ? 1 : 0];
}
