/* part_why.c: why each of two orders took its node where they part: a greedy policy's key, field
 * by field (the fields that tied, then the one that decided), or a whole order's peak and what
 * is proven about the other node's best continuation. Exports part_why_took, part_why. */
#include "part_why.h"
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/units.h"

#define SCORE_ONE 4503599627370496.0 /* weighted keeps its scores at 2^-52 */

/* Appends to the text in out (cut at cap, as snprintf cuts). */
static void add(char *out, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void add(char *out, size_t cap, const char *fmt, ...)
{
    size_t len = strlen(out);
    if (len + 1 >= cap) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out + len, cap - len, fmt, ap);
    va_end(ap);
}

static const char *ordinal(int64_t v)
{
    if (v % 100 >= 11 && v % 100 <= 13) return "th";
    return v % 10 == 1 ? "st" : v % 10 == 2 ? "nd" : v % 10 == 3 ? "rd" : "th";
}

/* Field i of p's key as words: its name and the value v (for a run r of
 * p). 0 for a field that holds nothing in this run (weighted's change at
 * alpha 0). */
static int field(const policy *p, const run *r, int i, int64_t v, char *name, size_t ncap,
                 char *val, size_t vcap)
{
    const char *nm = p->key_names[i] ? p->key_names[i] : "key";
    int weighted = !strcmp(nm, "score") || !strcmp(nm, "type,id") || p->show;
    if (weighted && !(r->alpha > 0) && i == 1) return 0;
    if (weighted && !(r->alpha > 0) && i == 2) nm = "queued";
    if (!strcmp(nm, "first") || !strcmp(nm, "second")) /* bfs: predecessors' steps */
        snprintf(name, ncap, "%s predecessor", nm[0] == 'f' ? "earliest" : "second");
    else snprintf(name, ncap, "%s", nm);
    if (!strcmp(nm, "change")) units_bytes(val, vcap, v, 1);
    else if (!strcmp(nm, "type")) snprintf(val, vcap, "%s", graph_kind_word((int)v));
    else if (!strcmp(nm, "queued")) snprintf(val, vcap, "%" PRId64 "%s", v + 1, ordinal(v + 1));
    else if (!strcmp(nm, "score")) snprintf(val, vcap, "%.3f", (double)-v / SCORE_ONE);
    else if (!strcmp(nm, "type,id"))
        snprintf(val, vcap, "%s, id %" PRId64, graph_kind_word((int)(v >> 53)),
                 v & (((int64_t)1 << 53) - 1));
    else if (!strcmp(nm, "first") || !strcmp(nm, "second")) {
        if (v) snprintf(val, vcap, "step %" PRId64, v);
        else snprintf(val, vcap, "none");
    } else snprintf(val, vcap, "%" PRId64, v);
    return 1;
}

/* A greedy policy: its keys of x and y, the fields that tie, the one that decides. */
static void took_key(const graph *g, part_side a, uint32_t x, uint32_t y, char *out, size_t cap)
{
    int64_t kx[3], ky[3];
    a.pol->key(g, a.r, x, a.r->seq[x], kx);
    a.pol->key(g, a.r, y, a.r->seq[y], ky);
    int d = 0, nk = a.pol->nkeys > 0 && a.pol->nkeys <= 3 ? a.pol->nkeys : 3;
    while (d < nk && kx[d] == ky[d]) d++;
    char nm[48], vx[48], vy[48];
    int tied = 0;
    for (int i = 0; i < d; i++) {
        if (!field(a.pol, a.r, i, kx[i], nm, sizeof nm, vx, sizeof vx)) continue;
        add(out, cap, "%s%s %s", tied ? " and " : "", nm, vx);
        tied++;
    }
    if (tied) add(out, cap, " %s with node %" PRId64 "; ", tied == 1 ? "ties" : "tie", g->id[y]);
    if (d == nk) {
        add(out, cap, "its key ties with node %" PRId64 "'s", g->id[y]);
        return;
    }
    field(a.pol, a.r, d, kx[d], nm, sizeof nm, vx, sizeof vx);
    field(a.pol, a.r, d, ky[d], nm, sizeof nm, vy, sizeof vy);
    if (kx[d] > ky[d]) /* not at a parting: y was not ready for a */
        add(out, cap, "%s %s, node %" PRId64 "'s %s", nm, vx, g->id[y], vy);
    else if (!strcmp(nm, "id")) add(out, cap, "id %s beats %s", vx, vy);
    else add(out, cap, "%s %s beats node %" PRId64 "'s %s", nm, vx, g->id[y], vy);
}

/* The other node's continuation is searched (policy_best_after) in
 * windows of at most this many nodes, within these states: a few
 * milliseconds, the same answer on every machine (the time limit is only a
 * guard). */
#define AFTER_MAX_NODES  2048
#define AFTER_MAX_STATES 20000
static const solve_ctx after_limits = {
    .seconds = 0.5, .max_states = AFTER_MAX_STATES, .max_memory = 64 << 20};

/* A search of the best order that makes a's first s steps, then y: 1 with
 * *best (and *proven) when it ran, 0 when the window is too large or memory
 * ran out. */
static int search_after(const graph *g, part_side a, part_side b, uint32_t s, int64_t *best,
                        int *proven)
{
    uint32_t n = g->n;
    if (n - s > AFTER_MAX_NODES) return 0;
    uint32_t *order = malloc((size_t)n * sizeof *order);
    if (!order) return 0;
    memcpy(order, a.r->order, (size_t)s * sizeof *order); /* the same set as b's first s */
    memcpy(order + s, b.r->order + s, (size_t)(n - s) * sizeof *order);
    int rc = policy_best_after(g, order, s, &after_limits, best, proven);
    free(order);
    return rc == 0;
}

/* What is known of y's best continuation: the least peak of an order that
 * makes a's first s steps, then pops y (as b did, after the same set of
 * nodes). At least a's peak before s, the live bytes once y has run (the
 * same in every such order) and the graph's bound; at most that of a's
 * steps followed by b's from step s on, an order of that kind; exactly what
 * a bounded search of the rest finds, when it proves it. */
static void continuation(const graph *g, part_side a, part_side b, uint32_t s, uint32_t y,
                         char *out, size_t cap)
{
    int64_t lo = a.r->lower_bound > b.r->lower_bound ? a.r->lower_bound : b.r->lower_bound;
    int64_t pre = 0, up = 0, best = 0;
    for (uint32_t t = 0; t < s; t++)
        if (a.r->memory[t] > pre) pre = a.r->memory[t];
    for (uint32_t t = s; t < b.r->n; t++)
        if (b.r->memory[t] > up) up = b.r->memory[t];
    if (pre > up) up = pre;
    if (pre > lo) lo = pre;
    if (b.r->memory[s] > lo) lo = b.r->memory[s];
    char ups[32], los[32], who[64];
    snprintf(who, sizeof who, "%s's", b.pol->name);
    int proven = 0, searched = lo < up && search_after(g, a, b, s, &best, &proven);
    if (searched && proven) {
        add(out, cap, "; node %" PRId64 "'s best continuation peaks at %s (searched)", g->id[y],
            units_bytes(ups, sizeof ups, best, 0));
        return;
    }
    if (searched && best < up) {
        up = best;
        snprintf(who, sizeof who, "the best a search found");
    }
    units_bytes(ups, sizeof ups, up, 0);
    units_bytes(los, sizeof los, lo, 0);
    if (lo >= up)
        add(out, cap, "; node %" PRId64 "'s best continuation peaks at %s (proven: %s does)",
            g->id[y], ups, who);
    else if (lo > a.r->peak)
        add(out, cap,
            "; node %" PRId64 "'s best continuation peaks at %s or more (not computed exactly; "
            "%s peaks at %s)",
            g->id[y], los, who, ups);
    else
        add(out, cap, "; node %" PRId64 "'s best continuation: not computed (%s peaks at %s)",
            g->id[y], who, ups);
}

/* A whole-order policy: the order it leads to, and y's best continuation. */
static void took_plan(const graph *g, part_side a, part_side b, uint32_t s, uint32_t x, uint32_t y,
                      char *out, size_t cap)
{
    char pk[32];
    units_bytes(pk, sizeof pk, a.r->peak, 0);
    const char *proof = a.r->optimal ? " (proven least)" : "";
    if (a.pol->kind == POLICY_EXACT)
        add(out, cap, "it leads to a %s order (%s)", pk,
            a.r->optimal ? "proven least" : "the best found, not proven least");
    else if (a.r->found_by)
        add(out, cap, "next in %s's order, which peaks at %s%s", a.r->found_by->name, pk, proof);
    else if (a.r->rank)
        add(out, cap, "next in its whole order (node %" PRId64 " at place %u), which peaks at %s%s",
            g->id[y], a.r->rank[y] + 1, pk, proof);
    else add(out, cap, "next in its whole order, which peaks at %s%s", pk, proof);
    (void)x;
    continuation(g, a, b, s, y, out, cap);
}

const char *part_why_took(const graph *g, part_side a, part_side b, uint32_t s, char *out,
                          size_t cap)
{
    uint32_t x = a.r->order[s], y = b.r->order[s];
    snprintf(out, cap, "%s took node %" PRId64 ": ", a.pol->name, g->id[x]);
    if (x == y) add(out, cap, "so did %s", b.pol->name);
    else if (a.pol->plan || !a.pol->key) took_plan(g, a, b, s, x, y, out, cap);
    else took_key(g, a, x, y, out, cap);
    return out;
}

const char *part_why(const graph *g, part_side mine, part_side other, uint32_t s, char *out,
                     size_t cap)
{
    char b[512];
    part_why_took(g, mine, other, s, out, cap);
    add(out, cap, "; %s", part_why_took(g, other, mine, s, b, sizeof b));
    return out;
}
