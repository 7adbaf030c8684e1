/* cli_compare.c: compare's result written for people (a table and notes),
 * as JSON and as CSV, and freed. Exports compare_text, compare_json,
 * compare_csv, compare_free. */
#include "cli_compare.h"
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "cli_bycat.h"
#include "cli_job.h"
#include "cli_time.h"
#include "sched/policy/part_why.h"
#include "util/optimal.h"
#include "util/units.h"
#include "util/utf8.h"

void compare_free(compare_result *c)
{
    free(c->arena);
    for (int i = 0; i < c->nruns; i++) policy_run_free(&c->runs[i]);
    if (c->has_own) policy_run_free(&c->own);
    cli_job_free(&c->job);
}

/* The text's baseline: given's run when it is listed first ("what memtris saves over what the
 * framework does"), else fifo's. */
static int ref_of(const compare_result *c)
{
    return c->n > 0 && c->pol[0]->kind == POLICY_BASELINE ? 0 : -1;
}
static const run *ref_run(const compare_result *c)
{
    return ref_of(c) == 0 ? &c->runs[0] : c->base;
}
static const char *ref_name(const compare_result *c)
{
    return ref_of(c) == 0 ? c->pol[0]->name : policy_baseline()->name;
}

static int64_t arena_of(const compare_result *c, int i, int j) { return c->arena[i * c->npl + j]; }

/* given's run when it is among the policies, else NULL. */
static const run *given_run(const compare_result *c)
{
    for (int i = 0; i < c->n; i++)
        if (c->pol[i]->kind == POLICY_BASELINE) return &c->runs[i];
    return NULL;
}

void compare_json(const compare_result *c)
{
    const run *given = given_run(c);
    jw w;
    jw_file(&w, stdout);
    jw_object(&w);
    jw_kstring(&w, "graph", c->job.g->source);
    jw_kint(&w, "lower_bound", c->lower_bound);
    jw_key(&w, "optimum");
    if (c->optimum >= 0) jw_int(&w, c->optimum);
    else jw_null(&w);
    jw_key(&w, "results");
    jw_array(&w);
    for (int i = 0; i < c->n; i++) {
        const run *r = &c->runs[i];
        const compare_row *x = &c->row[i];
        jw_object(&w);
        jw_kstring(&w, "policy", c->pol[i]->name);
        jw_kint(&w, "peak", r->peak);
        cli_bycat_json(&w, c->job.g, r);
        jw_kuint(&w, "steps", r->n);
        jw_key(&w, "vs_fifo");
        if (x->has_vs_fifo) jw_f(&w, x->vs_fifo, 6);
        else jw_null(&w);
        if (given) {
            jw_key(&w, "vs_given");
            if (given->peak > 0) jw_f(&w, (double)r->peak / (double)given->peak, 6);
            else if (r->peak == 0) jw_f(&w, 1.0, 6);
            else jw_null(&w);
        }
        jw_key(&w, "vs_optimum");
        if (x->has_vs_optimum) jw_f(&w, x->vs_optimum, 6);
        else jw_null(&w);
        jw_kbool(&w, "proven_optimal", r->optimal);
        if (r->found_by) jw_kstring(&w, "found_by", r->found_by->name);
        jw_kuint(&w, "peak_step", r->peak_step);
        jw_key(&w, "diverges_at");
        if (x->diverges_at) jw_uint(&w, x->diverges_at);
        else jw_null(&w);
        jw_key(&w, "makespan"); /* null: no node has a Latency */
        if (c->job.g->latency) cli_jw_ms(&w, x->makespan);
        else jw_null(&w);
        if (c->npl) {
            jw_key(&w, "arenas");
            jw_object(&w);
            for (int j = 0; j < c->npl; j++) jw_kint(&w, c->plc[j]->name, arena_of(c, i, j));
            jw_object_end(&w);
            jw_key(&w, "fragmentation_bytes"); /* arena - peak, as plan gives it */
            jw_object(&w);
            for (int j = 0; j < c->npl; j++)
                jw_kint(&w, c->plc[j]->name, optimal_frag_bytes(arena_of(c, i, j), r->peak));
            jw_object_end(&w);
        }
        jw_object_end(&w);
    }
    jw_array_end(&w);
    if (c->npl) {
        jw_key(&w, "least_arena");
        jw_object(&w);
        for (int j = 0; j < c->npl; j++)
            jw_kstring(&w, c->plc[j]->name, c->pol[c->least_arena[j]]->name);
        jw_object_end(&w);
    }
    jw_object_end(&w);
    jw_end(&w);
}

void compare_csv(const compare_result *c)
{
    printf("policy,peak,peak_step,vs_fifo,diverges_at,vs_optimum,proven_optimal,makespan_ms");
    for (int j = 0; j < c->npl; j++) printf(",arena_%s", c->plc[j]->name);
    printf("\n");
    for (int i = 0; i < c->n; i++) {
        const run *r = &c->runs[i];
        const compare_row *x = &c->row[i];
        printf("%s,%" PRId64 ",%" PRIu32 ",", c->pol[i]->name, r->peak, r->peak_step);
        if (x->has_vs_fifo) printf("%.6f", x->vs_fifo);
        putchar(',');
        if (x->diverges_at) printf("%" PRIu32, x->diverges_at);
        putchar(',');
        if (x->has_vs_optimum) printf("%.6f", x->vs_optimum);
        else if (c->optimum >= 0) printf("null"); /* an optimum of 0 under a peak above it */
        printf(",%s,", r->optimal ? "true" : "false");
        if (c->job.g->latency) cli_csv_ms(stdout, x->makespan);
        for (int j = 0; j < c->npl; j++) printf(",%" PRId64, arena_of(c, i, j));
        printf("\n");
    }
}

/* An arena column: as wide as the placer's name, at least 10. */
static int col_width(const placer *p)
{
    int w = (int)strlen(p->name);
    return w < 10 ? 10 : w;
}

/* The table's row of run i. */
static void text_row(const compare_result *c, int i)
{
    const run *x = &c->runs[i], *base = ref_run(c);
    const compare_row *row = &c->row[i];
    char a[32], b[32], r[32], vo[32], pct[32], saving[64], div[64], ms[24];
    int64_t save = base->peak - x->peak;
    int is_base = x == base;
    uint32_t dv = is_base ? 0 : policy_diverge(base, x);
    if (is_base) snprintf(saving, sizeof saving, "(baseline)");
    else if (base->peak > 0)
        snprintf(saving, sizeof saving, "%s (%s)", optimal_pct(pct, sizeof pct, save, base->peak),
                 units_bytes(b, sizeof b, save, 0));
    else snprintf(saving, sizeof saving, "-");
    if (is_base) snprintf(div, sizeof div, "-");
    else if (dv == c->job.g->n) snprintf(div, sizeof div, "same order");
    else snprintf(div, sizeof div, "differs from step %" PRIu32, dv + 1);
    if (base->peak > 0) snprintf(r, sizeof r, "%.3f", (double)x->peak / (double)base->peak);
    else snprintf(r, sizeof r, "-");
    printf("%-10s  %12s", c->pol[i]->name, units_bytes(a, sizeof a, x->peak, 0));
    for (int j = 0; j < c->npl; j++)
        printf("  %*s", col_width(c->plc[j]), units_bytes(b, sizeof b, arena_of(c, i, j), 0));
    /* against the optimum when a run reached the bound, else "-" */
    optimal_phrase(vo, sizeof vo, x->peak, c->lower_bound, c->optimum >= 0, OPTIMAL_CELL);
    printf("  %10" PRIu32 "  %8s  %-22s  %-10s", x->peak_step, r, saving, vo);
    if (c->job.g->latency) printf("  %10s", units_ms(ms, sizeof ms, row->makespan));
    printf("  %s\n", div);
}

/* The notes under the table: the optimum, who found what, the arenas. */
static void text_notes(const compare_result *c)
{
    const graph *g = c->job.g;
    char a[32], b[32], pct[32], words[128];
    if (c->optimum >= 0)
        printf("optimum %s: no order peaks lower (proven)\n",
               units_bytes(a, sizeof a, c->optimum, 0));
    else {
        int exact = -1; /* exact's search ran and stopped short of a proof */
        for (int i = 0; i < c->n; i++)
            if (c->pol[i]->kind == POLICY_EXACT) exact = i;
        printf("no optimum proven; no order peaks below %s%s\n",
               units_bytes(a, sizeof a, c->lower_bound, 0),
               exact < 0 ? " (add exact: --policies all)" : "");
        if (exact >= 0)
            printf("%s, %s\n", c->pol[exact]->name,
                   optimal_phrase(words, sizeof words, c->runs[exact].peak, c->lower_bound, 0,
                                  OPTIMAL_SEARCH));
    }
    for (int i = 0; i < c->n; i++)
        if (c->runs[i].found_by)
            printf("%s: the order of %s\n", c->pol[i]->name, c->runs[i].found_by->name);
    for (int i = 0; i < c->n; i++) {
        char lead[64];
        snprintf(lead, sizeof lead, "%s at the peak:", c->pol[i]->name);
        cli_bycat_text(stdout, lead, g, &c->runs[i]);
    }
    if (c->npl)
        printf("the %s: the arena a placer needs for that policy's schedule (align %s)\n",
               c->npl == 1 ? "column after peak" : "columns after peak",
               units_bytes(a, sizeof a, c->align, 0));
    for (int j = 0; j < c->npl; j++) {
        int w = c->least_arena[j], lp = c->least_peak;
        int64_t fr = optimal_frag_bytes(arena_of(c, w, j), c->runs[w].peak);
        printf("least arena with %s: %s's schedule (%s; fragmentation %s, %s of the arena)",
               c->plc[j]->name, c->pol[w]->name, units_bytes(a, sizeof a, arena_of(c, w, j), 0),
               units_bytes(b, sizeof b, fr, 0),
               fr ? optimal_pct(pct, sizeof pct, fr, arena_of(c, w, j)) : "0.0%");
        if (arena_of(c, lp, j) > arena_of(c, w, j))
            printf("; %s, the least live peak, places in %s", c->pol[lp]->name,
                   units_bytes(b, sizeof b, arena_of(c, lp, j), 0));
        printf("\n");
    }
    const run *ref = ref_run(c);
    const policy *refp = ref_of(c) == 0 ? c->pol[0] : policy_baseline();
    for (int i = 0; i < c->n; i++) {
        uint32_t d = policy_diverge(ref, &c->runs[i]) + 1;
        if (&c->runs[i] == ref || d > g->n || c->pol[i] == refp) continue;
        printf("step %" PRIu32 ": %s pops node %" PRId64 ", %s pops node %" PRId64 "\n", d,
               refp->name, g->id[ref->order[d - 1]], c->pol[i]->name,
               g->id[c->runs[i].order[d - 1]]);
        /* why, as the TUI's compare panel says it */
        part_side me = {c->pol[i], &c->runs[i]}, base = {refp, ref};
        char why[1024];
        printf("  %s\n", part_why(g, me, base, d - 1, why, sizeof why));
    }
}

void compare_text(const compare_result *c)
{
    const graph *g = c->job.g;
    char src[1024];
    printf("%s: %u nodes, %u edges, %u buffers\n", utf8_printable(g->source, src, sizeof src), g->n,
           g->nedges, g->nbufs);
    printf("%-10s  %12s", "policy", "peak");
    for (int j = 0; j < c->npl; j++) printf("  %*s", col_width(c->plc[j]), c->plc[j]->name);
    char vs[32], sv[40], ov[40];
    snprintf(vs, sizeof vs, "vs %s", ref_name(c));
    snprintf(sv, sizeof sv, "saving vs %s", ref_name(c));
    snprintf(ov, sizeof ov, "order vs %s", ref_name(c));
    printf("  %10s  %8s  %-22s  %-10s", "peak step", vs, sv, "vs optimum");
    if (g->latency) printf("  %10s", "makespan");
    printf("  %s\n", ov);
    for (int i = 0; i < c->n; i++) text_row(c, i);
    if (!g->latency) printf("no latencies: no node has a Latency, so there is no makespan\n");
    text_notes(c);
}
