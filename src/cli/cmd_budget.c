/* cmd_budget.c: "memtris budget": fit a graph into a memory budget by freeing buffers and
 * running their producers again, or offloading them to the host, with the least extra time
 * the solver finds; the plan checked by the independent replay (budget_check), then written as
 * text or JSON. Exports cmd_budget. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "cli_cmds.h"
#include "cli_opts.h"
#include "cli_proof.h"
#include "cli_sigint.h"
#include "cli_time.h"
#include "cli_budget.h"
#include "defaults.h"
#include "sched/budget/budget.h"
#include "sched/budget/budget_arg.h"
#include "sched/budget/budget_fit.h"
#include "sched/budget/budget_say.h"
#include "util/units.h"
#include "util/utf8.h"

static const char help_options[] =
    "Usage: memtris budget FILE --budget SIZE [--solver NAME]\n"
    "                           [--allow recompute,offload] [--bandwidth B]\n"
    "                           [--time-limit S] [--max-states N] [--format text|json]\n"
    "                           [-o PLAN.json]\n"
    "   or: memtris budget FILE --sweep [--points N] [--svg FILE.svg] [options]\n"
    "Fit one training step (any graph) into SIZE bytes of device memory: free\n"
    "buffers and run their producers again when they are next needed\n"
    "(recompute), or copy them to the host and back (offload: weights and\n"
    "optimizer state may also start and end there, as ZeRO-Offload keeps them),\n"
    "with the least extra time the solver finds. Prints the plan, event by\n"
    "event, its peak and its extra time; every plan is checked by an\n"
    "independent replay first.\n"
    "\n"
    "  -b, --budget SIZE   bytes (1048576, 8MiB, 1.5G; whole bytes, at most 2^63-1)\n"
    "                      or N% of the budget-free peak (the given order's, each\n"
    "                      buffer freed after its last reader), as 60% or 12.5%\n"
    "                      (at most 6 decimals; rounded down to a whole byte)\n"
    "  -s, --solver NAME   one of the solvers below (default " DEFAULT_BUDGET_SOLVER "; with\n"
    "                      --sweep " DEFAULT_SWEEP_SOLVER ")\n"
    "      --allow LIST    recompute (the default), offload, or both: recompute,offload\n"
    "                      (never worse than either alone: the solver solves each\n"
    "                      alone first, a quarter of --time-limit each, and both\n"
    "                      together from the better plan for the rest)\n"
    "      --bandwidth B   bytes a second each way between device and host, a whole\n"
    "                      number or a size (16G: 16 GiB/s; default 16000000000)\n"
    "      --time-limit S  stop after S seconds (default 10): greedy without a plan,\n"
    "                      exact and best with the best plan found and a gap\n"
    "      --max-states N  exact: stop after keeping N states (default 4000000)\n"
    "  -f, --format FMT    text (default) or json\n"
    "  -o, --output FILE   also write the plan as a memtris graph that every command\n"
    "                      and the TUI open ('-': to standard output, instead of the\n"
    "                      report): reruns as new nodes \"NAME (rerun)\", buffers made\n"
    "                      again as new ALLOC/FREE nodes, offloads and fetches as\n"
    "                      Offload and Fetch nodes on Stream 1, Ids in the plan's\n"
    "                      order (policy given replays it); nothing without a plan\n"
    "      --sweep         instead of one budget, the trade-off: the extra time of\n"
    "                      the solver's plan at N budgets from the bound every plan\n"
    "                      needs to the budget-free peak (a point takes the least\n"
    "                      extra time of the plans found at or under its budget),\n"
    "                      beside Chen's sqrt(n) and the claim \"65% less memory for\n"
    "                      15% more time\"; no --budget then; --time-limit is\n"
    "                      each budget's; without --allow, two series side by side,\n"
    "                      recompute only and with offload (recompute,offload),\n"
    "                      from the lower of their bounds, and the least budget a\n"
    "                      plan was found for in each (--allow: that series alone)\n"
    "      --points N      the sweep's budgets, 2 to 1000 (default 16)\n"
    "      --svg FILE      also draw the sweep as an SVG curve, the two marks\n"
    "                      labelled ('-': the SVG alone to standard output)\n"
    "  -h, --help          show this help and exit\n"
    "\n";

static const char help_model[] =
    "The model (memtris(1), BUDGETS): a compute node reads its Inputs and writes\n"
    "the buffers it produces (it is the first compute node its ALLOC has an edge\n"
    "to); Input ops, optimizer updates and nodes with \"Rerun\": false never run\n"
    "again; a random op (rand, dropout, bernoulli, multinomial) runs again from\n"
    "its generator state, saved before its first run and kept to its last rerun\n"
    "(5072 bytes: torch.get_rng_state() and a CUDA Philox seed and offset), as\n"
    "torch.utils.checkpoint(preserve_rng_state=True) does; a buffer changed in\n"
    "place (\"InPlace\") has a version for each change, each node reads the\n"
    "version the changes before it (in the given order) made, and a version is\n"
    "made again by rerunning its producer, then its changers in order;\n"
    "the buffers the graph never frees end present, at their last version.\n"
    "Beside the plan, the baselines to beat (graphs with Phases), their peak,\n"
    "reruns and extra time: Chen's sqrt(n) checkpointing as published (the f\n"
    "forward nodes cut into segments of ceil(sqrt(f)), each segment's last node\n"
    "keeps its outputs, the others are freed after the forward and the segment\n"
    "runs again just before its backward, one at a time; a segment whose rerun\n"
    "would pass the budget-free peak keeps its outputs: never above that peak),\n"
    "and recomputing every cheap op (the forward's pointwise ops and\n"
    "views make their outputs again in the backward, the others keep theirs).\n"
    "JSON: {\"budget\", \"budget_free_peak\", \"solver\", \"latency\" (a compute node\n"
    "       takes time), \"warning\" (without: \"the graph has no Latency: ...\") or\n"
    "       null, \"chen_sqrt_n\": {\"peak\",\n"
    "       \"extra_ms\", \"reruns\"} or null, \"cheap_recompute\" (the same),\n"
    "       \"feasible\", \"peak\",\n"
    "       \"extra_ms\", \"reruns\", \"offloaded_bytes\", \"rng_states\",\n"
    "       \"rng_state_bytes\" (random ops rerun, their generator states' bytes),\n"
    "       \"proven_optimal\",\n"
    "       \"lower_bound_ms\", \"gap\" ((extra - bound) / bound; null: unknown),\n"
    "       \"stopped\" (why the search for better ended: \"done\" (proven),\n"
    "       \"time\", \"states\", \"memory\", \"cancelled\" (exact's limits), \"too-large\"\n"
    "       (exact not run), \"offload-bound\" (exact's search ended, but with\n"
    "       offload its bound counts the reruns alone), \"no-search\" (greedy,\n"
    "       chain and repair prove no bound of their own)),\n"
    "       \"bandwidth\", \"initial\" (bytes on the device at the start),\n"
    "       \"events\": [[\"run\", Id] | [\"free\", BufId] | [\"offload\", BufId] |\n"
    "       [\"fetch\", BufId] | [\"host\", BufId] (starts on the host), ...],\n"
    "       \"memory\": [bytes after each event]}; without a plan\n"
    "       {\"budget\", \"budget_free_peak\", \"solver\", \"latency\", \"warning\",\n"
    "       \"chen_sqrt_n\",\n"
    "       \"cheap_recompute\", \"feasible\": false,\n"
    "       \"proven_infeasible\", \"least_budget\" (null unless known),\n"
    "       \"least_budget_bound\", \"least_budget_fill\": {\"at\": Id, \"bytes\":\n"
    "       {CATEGORY: bytes, ...}} (what fills it) or null, \"why\", \"stopped\"}.\n"
    "Sweep JSON: {\"source\", \"budget_free_peak\", \"step_ms\", \"solver\", \"latency\",\n"
    "       \"warning\" (as above), \"allow\",\n"
    "       \"least_budget_bound\", \"least_plan_budget\" (null: none found),\n"
    "       \"points\": [{\"budget\", \"feasible\",\n"
    "       \"solver_found\", \"plan_budget\", \"peak\", \"extra_ms\", \"reruns\",\n"
    "       \"offloaded_bytes\", \"lower_bound_ms\", \"gap\"}, ...] (the first\n"
    "       series: --allow's, or recompute only), \"with_offload\": {\"allow\",\n"
    "       \"least_budget_bound\", \"least_plan_budget\", \"points\"} (the second\n"
    "       series at the same budgets; null with --allow), \"chen_sqrt_n\",\n"
    "       \"seed_claim\": {\"budget\",\n"
    "       \"extra_ms\", \"says\", \"judged\" (false without Latency: at 0 ms every\n"
    "       plan would meet it)}}.\n"

    "\"proven optimal\" only when no plan takes less extra time (exact's search\n"
    "ended, the plan meets the lower bound, which holds for any order, or the\n"
    "extra time is 0), else \"within N% of optimal (lower bound Y ms)\"; with\n"
    "offload exact's bound is the reruns' time alone (transfers may hide under\n"
    "compute), so it proves less; the line says why the search stopped short of a\n"
    "proof (a limit, that bound, or a solver that proves none). Exit status 1 when\n"
    "no plan is found: \"no plan fits in X\" only when none can (X is below a\n"
    "bound every plan's peak reaches, or exact's search went through every way to\n"
    "fit), else \"SOLVER found no plan\".\n"
    "\n"
    "Run a plan on the real model in PyTorch, measured event by event against\n"
    "\"memory\" and its results bit for bit the plain step's (memtris(1), PLANS IN\n"
    "PYTORCH; the tools run with Debian's /usr/bin/python3 and python3-torch):\n"
    "  tools/fx2memtris.py MODEL --train --measure [--batch N ...] -o G.json\n"
    "  memtris budget G.json -b 60% --allow recompute,offload -f json >plan.json\n"
    "  tools/runplan.py MODEL --graph G.json --budget-plan plan.json \\\n"
    "      [--batch N ...] -o run.json\n"
    "  memtris view G.json --replay run.json\n";

static void print_help(void)
{
    fputs(help_options, stdout);
    printf("Solvers (memtris(1), BUDGETS, says more):\n");
    for (size_t i = 0; i < budget_solver_count(); i++)
        cli_help_entry(budget_solver_at(i)->name, budget_solver_at(i)->about);
    printf("\n");
    fputs(help_model, stdout);
}

typedef struct budget_job {
    const char *file;
    graph *g;
    budget_request rq;
    budget_result res;
    const char *output; /* -o: the plan as a graph */
    int64_t bandwidth;  /* --bandwidth's bytes a second, exactly (rq's: for the timeline) */
} budget_job;

/* --budget: bytes, or N% (no space) of the budget-free peak (budget_arg.h). */
static int parse_budget(const char *arg, budget_job *j)
{
    if (budget_arg_parse(arg, &j->rq.budget, &j->rq.pct_micro) == 0) return 0;
    cli_usage_error("budget", "--budget wants " BUDGET_ARG_WANTS ", not '%s'", arg);
    return -1;
}

static int parse_allow(const char *arg, unsigned *allow)
{
    if (budget_arg_allow(arg, allow) == 0) return 0;
    cli_usage_error("budget", "--allow wants recompute, offload or recompute,offload, not '%s'",
                    arg);
    return -1;
}

static void text_event(const budget_job *j, size_t k)
{
    const graph *g = j->g;
    const budget_event *e = &j->res.plan.ev[k];
    char name[40], sz[32];
    if (e->op == BUDGET_RUN)
        printf("%8zu  %-8s Id %-10" PRId64 " %s\n", k + 1, "run", g->id[e->x],
               utf8_printable(graph_name(g, e->x), name, sizeof name));
    else
        printf("%8zu  %-8s BufId %-7" PRId64 " %s\n", k + 1, budget_op_word(e->op), g->buf_id[e->x],
               units_bytes(sz, sizeof sz, g->buf_size[e->x], 0));
}

/* Whether the plan's extra time is the least: exact's proof, or 0. */
static int proven(const budget_result *r) { return r->proof.proven || r->st.extra_ms <= 0; }

static double lower_bound(const budget_result *r)
{
    return proven(r) ? r->st.extra_ms : r->proof.lower_bound_ms;
}

/* "recompute", "offload" or "recompute,offload". */
static const char *allow_words(unsigned allow)
{
    return allow == BUDGET_ALLOW_RECOMPUTE ? "recompute"
           : allow == BUDGET_ALLOW_OFFLOAD ? "offload"
                                           : "recompute,offload";
}

static void print_proof(const budget_job *j)
{
    const budget_result *r = &j->res;
    char t[32], g[96], why[160];
    units_ms(t, sizeof t, r->st.extra_ms);
    printf("extra time %s: %s%s\n", t,
           budget_gap_words(g, sizeof g, r->st.extra_ms, lower_bound(r), proven(r)),
           budget_stop_words(why, sizeof why, r, j->rq.solver->name));
}

static void print_text(const budget_job *j)
{
    const budget_result *r = &j->res;
    char src[1024], a[32], b[32], t[32];
    printf("%s: budget %s", utf8_printable(j->g->source, src, sizeof src),
           units_bytes(a, sizeof a, r->budget, 0));
    if (j->rq.pct_micro > 0)
        printf(" (%s of the budget-free peak)", budget_arg_pct_words(t, sizeof t, j->rq.pct_micro));
    printf(", budget-free peak %s, solver %s, allow %s\n",
           units_bytes(b, sizeof b, r->free_peak, 0), j->rq.solver->name, allow_words(j->rq.allow));
    for (size_t k = 0; k < r->plan.n; k++) text_event(j, k);
    printf("peak %s (%" PRId64 " bytes), %" PRIu64 " reruns, %s offloaded, %" PRIu64 " events\n",
           units_bytes(a, sizeof a, r->st.peak, 0), r->st.peak, r->st.reruns,
           units_bytes(b, sizeof b, r->st.offloaded_bytes, 0), r->st.events);
    if (r->st.rng_states)
        printf("%" PRIu64 " random op%s rerun from %s generator state, kept from the first run "
               "to the last rerun (%s)\n",
               r->st.rng_states, r->st.rng_states == 1 ? "" : "s",
               r->st.rng_states == 1 ? "its" : "their",
               units_bytes(a, sizeof a, r->st.rng_bytes, 0));
    print_proof(j);
    if (!budget_has_latency(j->g)) printf("%s\n", budget_no_latency_words(j->rq.allow, 0));
    if (j->rq.solver == &budget_solver_chain && r->out.found) printf("chain: %s\n", r->out.why);
    if (r->chen)
        printf("beside: Chen's sqrt(n) checkpointing peaks at %s with %" PRIu64 " reruns, %s "
               "extra\n",
               units_bytes(a, sizeof a, r->chen_st.peak, 0), r->chen_st.reruns,
               units_ms(t, sizeof t, r->chen_st.extra_ms));
    if (r->cheap)
        printf("beside: recomputing every cheap op peaks at %s with %" PRIu64 " reruns, %s "
               "extra\n",
               units_bytes(a, sizeof a, r->cheap_st.peak, 0), r->cheap_st.reruns,
               units_ms(t, sizeof t, r->cheap_st.extra_ms));
}

/* A baseline's figures, or null. */
static void json_baseline(jw *w, const char *key, int found, const budget_stats *st)
{
    jw_key(w, key);
    if (!found) {
        jw_null(w);
        return;
    }
    jw_object(w);
    jw_kint(w, "peak", st->peak);
    jw_key(w, "extra_ms");
    cli_jw_ms(w, st->extra_ms);
    jw_kuint(w, "reruns", st->reruns);
    jw_object_end(w);
}

static void json_head(jw *w, const budget_job *j)
{
    const budget_result *r = &j->res;
    jw_kint(w, "budget", r->budget);
    jw_kint(w, "budget_free_peak", r->free_peak);
    jw_kstring(w, "solver", j->rq.solver->name);
    int timed = budget_has_latency(j->g);
    jw_kbool(w, "latency", timed);
    jw_key(w, "warning");
    if (timed) jw_null(w);
    else jw_string(w, budget_no_latency_words(j->rq.allow, 0));
    json_baseline(w, "chen_sqrt_n", r->chen, &r->chen_st);
    json_baseline(w, "cheap_recompute", r->cheap, &r->cheap_st);
}

/* "least_budget_fill": what fills least_budget_bound at the node where it is forced, by
 * Category: {"at": Id, "bytes": {"CATEGORY": bytes, ...}}, or null. */
static void json_fill(jw *w, const budget_result *r)
{
    int64_t bytes[GRAPH_NCAT];
    uint32_t v = budget_fill(r, bytes);
    jw_key(w, "least_budget_fill");
    if (v == GRAPH_NONE) {
        jw_null(w);
        return;
    }
    jw_object(w);
    jw_kint(w, "at", r->bm.g->id[v]);
    jw_key(w, "bytes");
    jw_object(w);
    for (int c = 0; c < GRAPH_NCAT; c++)
        if (bytes[c] > 0) jw_kint(w, c ? graph_category_word(c) : "other", bytes[c]);
    jw_object_end(w);
    jw_object_end(w);
}

/* "gap": (extra_ms - lower_bound_ms) / lower_bound_ms, 0 proven, null unknown. */
static void json_gap(jw *w, double extra, double lb, int proven)
{
    double gap = budget_gap(extra, lb, proven);
    jw_key(w, "gap");
    if (gap < 0) jw_null(w);
    else jw_g(w, gap, 6);
}

static void print_json(const budget_job *j)
{
    const graph *g = j->g;
    const budget_result *r = &j->res;
    int found = r->found;
    jw w;
    jw_file(&w, stdout);
    jw_object(&w);
    json_head(&w, j);
    jw_kbool(&w, "feasible", found);
    if (!found) {
        jw_kbool(&w, "proven_infeasible", r->proven_infeasible);
        jw_key(&w, "least_budget");
        if (r->least >= 0) jw_int(&w, r->least);
        else jw_null(&w);
        jw_kint(&w, "least_budget_bound", r->bound);
        json_fill(&w, r);
        jw_kstring(&w, "why", r->out.why);
        jw_kstring(&w, "stopped", budget_stop_name(r));
        jw_object_end(&w);
        jw_end(&w);
        return;
    }
    jw_kint(&w, "peak", r->st.peak);
    jw_key(&w, "extra_ms");
    cli_jw_ms(&w, r->st.extra_ms);
    jw_kuint(&w, "reruns", r->st.reruns);
    jw_kint(&w, "offloaded_bytes", r->st.offloaded_bytes);
    jw_kuint(&w, "rng_states", r->st.rng_states);
    jw_kint(&w, "rng_state_bytes", r->st.rng_bytes);
    jw_kbool(&w, "proven_optimal", proven(r));
    jw_key(&w, "lower_bound_ms");
    cli_jw_ms(&w, lower_bound(r));
    json_gap(&w, r->st.extra_ms, lower_bound(r), proven(r));
    jw_kstring(&w, "stopped", budget_stop_name(r));
    jw_kint(&w, "bandwidth", j->bandwidth);
    jw_kint(&w, "initial", r->st.start);
    jw_key(&w, "events");
    jw_array(&w);
    for (size_t k = 0; k < r->plan.n; k++) {
        const budget_event *e = &r->plan.ev[k];
        jw_array(&w);
        jw_string(&w, budget_op_word(e->op));
        jw_int(&w, e->op == BUDGET_RUN ? g->id[e->x] : g->buf_id[e->x]);
        jw_array_end(&w);
    }
    jw_array_end(&w);
    /* The bytes present after each event, as the checker replays the plan (a runner's
     * prediction: tools/runplan.py). */
    int64_t *after = malloc((r->plan.n + 1) * sizeof *after);
    budget_stats st;
    char err[256];
    jw_key(&w, "memory");
    if (after &&
        !budget_check_memory(&r->bm, &r->plan, j->rq.bandwidth, &st, after, err, sizeof err)) {
        jw_array(&w);
        for (size_t k = 0; k < r->plan.n; k++) jw_int(&w, after[k]);
        jw_array_end(&w);
    } else jw_null(&w); /* out of memory: the plan was checked before */
    free(after);
    jw_object_end(&w);
    jw_end(&w);
}

static void say_none(const budget_job *j)
{
    const budget_result *r = &j->res;
    char a[64], b[32], fill[320];
    units_bytes_beside(a, sizeof a, r->budget, r->bound); /* its bytes where both read 8.0 PiB */
    units_bytes(b, sizeof b, r->bound, 0);
    budget_fill_words(fill, sizeof fill, r);
    if (r->exact_none)
        cli_eprintf("memtris budget: %s: no plan fits in %s (exact proves it: %s); no plan can "
                    "fit under %s\n",
                    j->g->source, a, r->out.why, b);
    else if (r->proven_infeasible && r->least >= 0)
        cli_eprintf("memtris budget: %s: no plan fits in %s; the least budget any plan fits in "
                    "is %s (%" PRId64 " bytes)\n",
                    j->g->source, a, b, r->least);
    else if (r->proven_infeasible)
        cli_eprintf("memtris budget: %s: no plan fits in %s; every plan needs at least %s (%" PRId64
                    " bytes), and greedy found none there either\n",
                    j->g->source, a, b, r->bound);
    else
        cli_eprintf("memtris budget: %s: %s found no plan that fits in %s (%s); a plan may "
                    "still exist: no plan can fit under %s\n",
                    j->g->source, j->rq.solver->name, a, r->out.why, b);
    if (fill[0]) cli_eprintf("memtris budget: %s: what fills %s: %s\n", j->g->source, b, fill);
}

static int run_budget(budget_job *j, const solve_ctx *ctx, int format)
{
    solve_ctx c = cli_search_begin(ctx);
    j->rq.c = &c;
    int failed = budget_fit(&j->rq, &j->res), found = j->res.found;
    cli_search_end(failed || !found);
    if (failed) return cli_budget_fit_failed(&j->rq, &j->res, 0);
    if (!found) say_none(j);
    if (found && j->output &&
        cli_budget_write_graph(&j->res.bm, &j->res.plan, j->rq.bandwidth, j->output))
        return EXIT_BAD;
    if (j->output && !strcmp(j->output, "-")) return found ? EXIT_OK : EXIT_BAD;
    if (format == CLI_JSON) print_json(j);
    else if (found) print_text(j);
    return found ? EXIT_OK : EXIT_BAD;
}

static int run_sweep(budget_job *j, const solve_ctx *ctx, int format, uint32_t points,
                     const char *svg, int both)
{
    solve_ctx c = cli_search_begin(ctx);
    j->rq.c = &c;
    cli_budget_sweep s = {.rq = &j->rq,
                          .res = &j->res,
                          .allow = allow_words(j->rq.allow),
                          .both = both,
                          .points = points,
                          .format = format,
                          .svg = svg};
    int status = cli_budget_sweep_run(&s);
    cli_search_end(status);
    return status;
}

/* --budget or --sweep, and the options of each: 0, or EXIT_USAGE after a usage error. */
static int sweep_usage(int sweep, const char *barg, const char *parg, const char *svg,
                       const char *output, uint32_t *points)
{
    const char *only = parg ? "--points" : svg ? "--svg" : NULL;
    if (!sweep && only) return cli_usage_error("budget", "%s goes with --sweep", only);
    if (!sweep && !barg) return cli_usage_error("budget", "--budget SIZE is required");
    if (sweep && (barg || output))
        return cli_usage_error("budget", "--sweep takes no %s: it tries budgets of its own",
                               barg ? "--budget" : "-o");
    char *end = NULL;
    unsigned long v = parg ? strtoul(parg, &end, 10) : DEFAULT_SWEEP_POINTS;
    if (parg && (*end || parg[0] < '0' || parg[0] > '9' || v < 2 || v > CLI_BUDGET_MAX_POINTS))
        return cli_usage_error("budget", "--points wants a whole number from 2 to %d, not '%s'",
                               CLI_BUDGET_MAX_POINTS, parg);
    *points = (uint32_t)v;
    return 0;
}

int cmd_budget(int argc, char **argv)
{
    enum { OPT_ALLOW = 1100, OPT_BANDWIDTH, OPT_SWEEP, OPT_POINTS, OPT_SVG };
    static const struct option longopts[] = {
        {"budget", required_argument, 0, 'b'},
        {"solver", required_argument, 0, 's'},
        {"format", required_argument, 0, 'f'},
        {"allow", required_argument, 0, OPT_ALLOW},
        {"bandwidth", required_argument, 0, OPT_BANDWIDTH},
        {"time-limit", required_argument, 0, CLI_OPT_TIME_LIMIT},
        {"max-states", required_argument, 0, CLI_OPT_MAX_STATES},
        {"output", required_argument, 0, 'o'},
        {"sweep", no_argument, 0, OPT_SWEEP},
        {"points", required_argument, 0, OPT_POINTS},
        {"svg", required_argument, 0, OPT_SVG},
        {0, 0, 0, 0},
    };
    static const cli_opts opts = {"budget", "b:s:f:o:", longopts, NULL, print_help};
    budget_job j = {.bandwidth = (int64_t)BUDGET_BANDWIDTH,
                    .rq = {.allow = BUDGET_ALLOW_RECOMPUTE,
                           .bandwidth = BUDGET_BANDWIDTH,
                           .solver = budget_solver_find(DEFAULT_BUDGET_SOLVER),
                           .want = BUDGET_WANT_BASELINES | BUDGET_WANT_LEAST}};
    solve_ctx ctx = {0};
    const char *fname = DEFAULT_FORMAT, *barg = NULL, *parg = NULL, *svg = NULL;
    int c, status, sweep = 0, solver_given = 0, allow_given = 0;
    while ((c = cli_opt(&opts, argc, argv, &status)) >= 0) {
        switch (c) {
        case 'b': barg = optarg; break;
        case 's':
            if (!(j.rq.solver = budget_solver_find(optarg))) {
                char names[128];
                return cli_usage_error("budget", "unknown solver '%s' (%s)", optarg,
                                       budget_arg_solvers(names, sizeof names, ", "));
            }
            solver_given = 1;
            break;
        case 'f': fname = optarg; break;
        case OPT_ALLOW:
            if (parse_allow(optarg, &j.rq.allow)) return EXIT_USAGE;
            allow_given = 1;
            break;
        case OPT_BANDWIDTH: {
            int64_t v = units_parse(optarg);
            if (v < 1)
                return cli_usage_error("budget",
                                       "--bandwidth wants bytes a second, a whole number from 1 "
                                       "to 2^63-1 or a size (as 16G), not '%s'",
                                       optarg);
            j.bandwidth = v;
            j.rq.bandwidth = (double)v;
            break;
        }
        case CLI_OPT_TIME_LIMIT:
        case CLI_OPT_MAX_STATES:
            if (cli_limit("budget", c, optarg, &ctx)) return EXIT_USAGE;
            break;
        case 'o': j.output = optarg; break;
        case OPT_SWEEP: sweep = 1; break;
        case OPT_POINTS: parg = optarg; break;
        case OPT_SVG: svg = optarg; break;
        }
    }
    if (c == CLI_OPT_STOP) return status;
    if (!(j.file = cli_file("budget", argc, argv))) return EXIT_USAGE;
    uint32_t points = DEFAULT_SWEEP_POINTS;
    if (sweep_usage(sweep, barg, parg, svg, j.output, &points)) return EXIT_USAGE;
    if (!sweep && parse_budget(barg, &j)) return EXIT_USAGE;
    if (sweep && !solver_given) j.rq.solver = budget_solver_find(DEFAULT_SWEEP_SOLVER);
    int format = cli_format("budget", fname, (1u << CLI_TEXT) | (1u << CLI_JSON));
    if (format < 0) return EXIT_USAGE;
    if ((status = cli_out_check("budget", "-o", j.output)) ||
        (status = cli_out_check("budget", "--svg", svg)))
        return status;
    if (!(j.g = cli_load(j.file, 0))) return EXIT_BAD;
    j.rq.g = j.g;
    status = sweep ? run_sweep(&j, &ctx, format, points, svg, !allow_given)
                   : run_budget(&j, &ctx, format);
    budget_result_free(&j.res);
    graph_free(j.g);
    return status;
}
