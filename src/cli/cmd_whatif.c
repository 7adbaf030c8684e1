/* cmd_whatif.c: "memtris whatif": a well-known table of training-memory techniques for BERT
 * made real on one training graph (whatif_run): the peak and time as given, under checkpointing,
 * mixed precision, gradient accumulation and fusion, alone and combined, beside the claims of
 * that table (man memtris, whatif);
 * as text or JSON. Exports cmd_whatif. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "cli_cmds.h"
#include "cli_opts.h"
#include "cli_sigint.h"
#include "cli_time.h"
#include "defaults.h"
#include "sched/budget/budget_arg.h"
#include "sched/budget/budget_say.h"
#include "sched/whatif/whatif.h"
#include "util/units.h"
#include "util/utf8.h"

static const char help[] =
    "Usage: memtris whatif FILE [-k K] [-p POLICY] [--format text|json]\n"
    "For a training graph (ALLOCs with a Category, compute nodes with a Phase),\n"
    "the peak (and, where the graph has Latency, the step's time) as given and\n"
    "under the techniques of a well-known table for BERT, each beside what it\n"
    "claims (memory saved; a training speed-up, or the time it costs):\n"
    "  checkpointing   the budget solver (greedy) at 50% of the budget-free peak\n"
    "                  (as memtris budget --budget 50%): the plan's peak; time\n"
    "                  plus the reruns' latency (claim: 65% less memory for 15%\n"
    "                  more time)\n"
    "  mixed precision activations, gradients and the workspaces of forward and\n"
    "                  backward at half size; weights, optimizer state, inputs and\n"
    "                  outputs unchanged (fp32 master weights, as AMP keeps them);\n"
    "                  time unchanged: memtris has no speed model for precision\n"
    "                  (claim: 50% less memory, 40% faster)\n"
    "  accumulation    K micro-batches: activation, workspace and input bytes / K\n"
    "                  (rounded up), the gradients present from the start (they\n"
    "                  accumulate); each forward and backward node runs K times at\n"
    "                  1/K of its latency (compute unchanged), the update once\n"
    "                  (claim: 75% less memory, 22% faster)\n"
    "  fusion          an elementwise op (relu, add, mul, sigmoid, gelu, ...: the\n"
    "                  list of tools/graphkit.py's --inplace) whose input is made\n"
    "                  by the compute node just before it and read by no other\n"
    "                  joins that node: the input buffer is gone, the latencies\n"
    "                  are summed (claim: 30% less memory, 18% faster)\n"
    "and mixed + accumulation + fusion together, then with checkpointing at 50%\n"
    "of that graph's budget-free peak. Every graph runs the same policy.\n"
    "A graph without Categories gets the rows that need none (baseline,\n"
    "checkpointing, fusion); the others say what is missing.\n"
    "\n"
    "  -k K                micro-batches, 1 to 65536 (default 4)\n"
    "  -p, --policy NAME   the policy run on every graph (default given: the order\n"
    "                      the framework ran)\n"
    "  -f, --format FMT    text (default) or json\n"
    "  -h, --help          show this help and exit\n"
    "\n"
    "JSON: {\"source\", \"policy\", \"k\", \"checkpoint_pct\", \"solver\",\n"
    "       \"has_categories\", \"has_phases\", \"has_latency\", \"warning\" (without\n"
    "       Latency: \"the graph has no Latency: ...\"; else null), \"rows\": [{\"name\",\n"
    "       \"peak\", \"saving_pct\", \"time_ms\", \"time_change_pct\" (null when not\n"
    "       known), \"budget\" (null when not worked out), \"extra_ms\", \"reruns\"\n"
    "       (checkpointing rows), \"fused\", \"why\" (a row without a peak: its\n"
    "       figures are null), \"claim\": {\"memory_saving_pct\", \"speedup_pct\" (null\n"
    "       for checkpointing), \"extra_time_pct\" (checkpointing's: more time; else\n"
    "       null)} or null}, ...]}; rows baseline, checkpointing, mixed_precision,\n"
    "       accumulation, fusion, combined, combined_checkpointing.\n";

static void print_help(void) { fputs(help, stdout); }

/* The claims of the table for BERT (man memtris, whatif), in %: the memory saved, and the
 * training speed-up or (checkpointing, which runs nodes again) the time it adds, as the sweep
 * says the claim: "65% less memory for 15% more time". 0: none. */
static const struct {
    int memory, speedup, extra_time;
} claims[WHATIF_NROWS] = {
    [WHATIF_ROW_CHECKPOINT] = {65, 0, 15},
    [WHATIF_ROW_MIXED] = {50, 40, 0},
    [WHATIF_ROW_ACCUM] = {75, 22, 0},
    [WHATIF_ROW_FUSION] = {30, 18, 0},
};

/* Row i's claim in words: "65% less memory for 15% more time", "50% less memory, 40% faster",
 * or "-". */
static const char *claim_words(int i, char *out, size_t cap)
{
    if (!claims[i].memory) snprintf(out, cap, "-");
    else if (claims[i].extra_time)
        snprintf(out, cap, "%d%% less memory for %d%% more time", claims[i].memory,
                 claims[i].extra_time);
    else snprintf(out, cap, "%d%% less memory, %d%% faster", claims[i].memory, claims[i].speedup);
    return out;
}

#define PCT DEFAULT_WHATIF_PCT /* checkpointing's budget, % of the budget-free peak */

typedef struct whatif_job {
    const graph *g;
    const policy *pol;
    uint32_t k;
    whatif_result r;
} whatif_job;

/* v against base in %, 0 within rounding (accumulation's k sums of base / k). */
static double change_pct(double v, double base)
{
    double r = base > 0 ? 100 * (v - base) / base : 0;
    return fabs(r) < 1e-6 ? 0 : r;
}

static double saving_pct(int64_t peak, int64_t base)
{
    return base > 0 ? 100 * (double)(base - peak) / (double)base : 0;
}

static const char *label(const whatif_job *j, int i, char *out, size_t cap)
{
    const whatif_row *w = &j->r.row[i];
    switch (i) {
    case WHATIF_ROW_BASELINE: snprintf(out, cap, "baseline (%s)", j->pol->name); break;
    case WHATIF_ROW_CHECKPOINT: snprintf(out, cap, "checkpointing %d%%", PCT); break;
    case WHATIF_ROW_ACCUM: snprintf(out, cap, "accumulation k=%" PRIu32, j->k); break;
    case WHATIF_ROW_FUSION: /* the count of a row with a peak (else the transform failed) */
        if (w->has_peak) snprintf(out, cap, "fusion (%" PRIu32 " ops)", w->fused);
        else snprintf(out, cap, "fusion");
        break;
    case WHATIF_ROW_THREE: snprintf(out, cap, "mixed+accum+fusion"); break;
    case WHATIF_ROW_ALL: snprintf(out, cap, "  + checkpointing %d%%", PCT); break;
    default: snprintf(out, cap, "%s", "mixed precision");
    }
    return out;
}

static void text_row(const whatif_job *j, int i)
{
    const whatif_row *w = &j->r.row[i], *b = &j->r.row[WHATIF_ROW_BASELINE];
    char name[48], peak[32], save[16] = "-", t[32] = "-", tc[16] = "-", claim[48];
    label(j, i, name, sizeof name);
    claim_words(i, claim, sizeof claim);
    if (!w->has_peak) {
        printf("%-24s n/a: %s\n", name, w->why);
        return;
    }
    units_bytes(peak, sizeof peak, w->peak, 0);
    if (i != WHATIF_ROW_BASELINE)
        snprintf(save, sizeof save, "%.1f%%", saving_pct(w->peak, b->peak));
    if (w->has_time) {
        units_ms(t, sizeof t, w->time_ms);
        if (i != WHATIF_ROW_BASELINE)
            snprintf(tc, sizeof tc, "%+.1f%%", change_pct(w->time_ms, b->time_ms));
    }
    printf("%-24s %10s %7s %10s %7s  %s\n", name, peak, save, t, tc, claim);
}

static void print_text(const whatif_job *j)
{
    const whatif_result *r = &j->r;
    const whatif_row *c = &r->row[WHATIF_ROW_CHECKPOINT], *a = &r->row[WHATIF_ROW_ALL];
    char src[1024], x[32], y[32];
    printf("%s: what-if, policy %s, k %" PRIu32 "\n", utf8_printable(j->g->source, src, sizeof src),
           j->pol->name, j->k);
    printf("%-24s %10s %7s %10s %7s  %s\n", "technique", "peak", "saving", "time", "change",
           "claimed (BERT)");
    for (int i = 0; i < WHATIF_NROWS; i++) text_row(j, i);
    printf("\n");
    if (c->has_peak)
        printf("checkpointing: greedy's plan within %s (%d%% of the budget-free peak, each\n"
               "  buffer freed after its last reader); %" PRIu64 " reruns, %s more time\n",
               units_bytes(x, sizeof x, c->budget, 0), PCT, c->reruns,
               units_ms(y, sizeof y, c->extra_ms));
    if (a->has_peak)
        printf("  + checkpointing: within %s, %" PRIu64 " reruns a micro-batch, %s more time\n",
               units_bytes(x, sizeof x, a->budget, 0), a->reruns,
               units_ms(y, sizeof y, a->extra_ms));
    printf("mixed precision: activations, gradients and forward/backward workspaces at half\n"
           "  size; weights, optimizer state, inputs and outputs unchanged (fp32 master\n"
           "  weights, as AMP keeps them); time unchanged: memtris has no speed model for\n"
           "  precision\n");
    printf("accumulation: activation, workspace and input bytes / %" PRIu32 " (rounded up),\n"
           "  gradients present from the start; each forward and backward node runs %" PRIu32
           "\n  times at 1/%" PRIu32 " of its latency (compute unchanged), the update once\n",
           j->k, j->k, j->k);
    printf("fusion: elementwise ops (graphkit's --inplace list) folded into the compute node\n"
           "  just before them, their input buffer gone, latencies summed\n");
    if (!r->has_latency) /* the words budget and its sweep say */
        printf("time: %s\n", budget_no_latency_words(BUDGET_ALLOW_RECOMPUTE, 0));
    printf("claimed: a published table for BERT (memory saved, training speed-up; for\n"
           "  checkpointing, which runs nodes again, the time it adds)\n");
}

static void json_opt_pct(jw *w, const char *k, int has, double v)
{
    jw_key(w, k);
    if (has) jw_f(w, v, 2);
    else jw_null(w);
}

/* A claim's figure, or null when 0 (none). */
static void json_opt_int(jw *w, const char *k, int v)
{
    jw_key(w, k);
    if (v) jw_int(w, v);
    else jw_null(w);
}

static void json_row(jw *w, const whatif_job *j, int i)
{
    const whatif_row *r = &j->r.row[i], *b = &j->r.row[WHATIF_ROW_BASELINE];
    jw_object(w);
    jw_kstring(w, "name", whatif_row_name(i));
    jw_key(w, "peak");
    if (r->has_peak) jw_int(w, r->peak);
    else jw_null(w);
    json_opt_pct(w, "saving_pct", r->has_peak, saving_pct(r->peak, b->peak));
    jw_key(w, "time_ms");
    if (r->has_peak && r->has_time) cli_jw_ms(w, r->time_ms);
    else jw_null(w);
    json_opt_pct(w, "time_change_pct", r->has_peak && r->has_time,
                 change_pct(r->time_ms, b->time_ms));
    if (i == WHATIF_ROW_CHECKPOINT || i == WHATIF_ROW_ALL) { /* null: not worked out, no plan */
        jw_key(w, "budget");
        if (r->has_budget) jw_int(w, r->budget);
        else jw_null(w);
        jw_key(w, "extra_ms");
        if (r->has_peak) cli_jw_ms(w, r->extra_ms);
        else jw_null(w);
        jw_key(w, "reruns");
        if (r->has_peak) jw_uint(w, r->reruns);
        else jw_null(w);
    }
    jw_key(w, "fused");
    if (r->has_peak) jw_uint(w, r->fused);
    else jw_null(w);
    if (!r->has_peak) jw_kstring(w, "why", r->why);
    jw_key(w, "claim");
    if (claims[i].memory) {
        jw_object(w);
        jw_kint(w, "memory_saving_pct", claims[i].memory);
        json_opt_int(w, "speedup_pct", claims[i].speedup);
        json_opt_int(w, "extra_time_pct", claims[i].extra_time);
        jw_object_end(w);
    } else jw_null(w);
    jw_object_end(w);
}

static void print_json(const whatif_job *j)
{
    jw w;
    jw_file(&w, stdout);
    jw_object(&w);
    jw_kstring(&w, "source", j->g->source);
    jw_kstring(&w, "policy", j->pol->name);
    jw_kuint(&w, "k", j->k);
    jw_kint(&w, "checkpoint_pct", PCT);
    jw_kstring(&w, "solver", "greedy");
    jw_kbool(&w, "has_categories", j->r.has_categories);
    jw_kbool(&w, "has_phases", j->r.has_phases);
    jw_kbool(&w, "has_latency", j->r.has_latency);
    jw_key(&w, "warning");
    if (j->r.has_latency) jw_null(&w);
    else jw_string(&w, budget_no_latency_words(BUDGET_ALLOW_RECOMPUTE, 0));
    jw_key(&w, "rows");
    jw_array(&w);
    for (int i = 0; i < WHATIF_NROWS; i++) json_row(&w, j, i);
    jw_array_end(&w);
    jw_object_end(&w);
    jw_end(&w);
}

/* -k: a whole number from 1 to WHATIF_MAX_K, digits only. */
static int parse_k(const char *arg, uint32_t *k)
{
    char *end = NULL;
    errno = 0;
    unsigned long v = arg[0] >= '0' && arg[0] <= '9' ? strtoul(arg, &end, 10) : 0;
    if (v >= 1 && v <= WHATIF_MAX_K && !errno && !*end) {
        *k = (uint32_t)v;
        return 0;
    }
    cli_usage_error("whatif", "-k wants a whole number of micro-batches from 1 to %d, not '%s'",
                    WHATIF_MAX_K, arg);
    return -1;
}

int cmd_whatif(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"policy", required_argument, 0, 'p'},
        {"format", required_argument, 0, 'f'},
        {0, 0, 0, 0},
    };
    static const cli_opts opts = {"whatif", "k:p:f:", longopts, NULL, print_help};
    whatif_job j = {.k = 4};
    const char *fname = DEFAULT_FORMAT, *pname = "given", *file;
    int c, status;
    while ((c = cli_opt(&opts, argc, argv, &status)) >= 0) {
        switch (c) {
        case 'k':
            if (parse_k(optarg, &j.k)) return EXIT_USAGE;
            break;
        case 'p': pname = optarg; break;
        case 'f': fname = optarg; break;
        }
    }
    if (c == CLI_OPT_STOP) return status;
    if (!(file = cli_file("whatif", argc, argv))) return EXIT_USAGE;
    if (!(j.pol = cli_policy("whatif", pname))) return EXIT_USAGE;
    int format = cli_format("whatif", fname, (1u << CLI_TEXT) | (1u << CLI_JSON));
    if (format < 0) return EXIT_USAGE;
    graph *g = cli_load(file, 0);
    if (!g) return EXIT_BAD;
    j.g = g;
    char err[512];
    whatif_opts o = {.pol = j.pol, .k = j.k, .pct_micro = PCT * BUDGET_PCT_ONE};
    solve_ctx ctx = cli_search_begin(NULL);
    o.c = &ctx;
    status = whatif_run(g, &o, &j.r, err, sizeof err);
    cli_search_end(status);
    if (status) cli_eprintf("%s: error: %s\n", g->source, err);
    else if (format == CLI_JSON) print_json(&j);
    else print_text(&j);
    graph_free(g);
    return status ? EXIT_BAD : EXIT_OK;
}
