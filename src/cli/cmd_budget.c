/* cmd_budget.c: "memtris budget": fit a graph into a memory budget by freeing buffers and
 * running their producers again, or offloading them to the host, with the least extra time
 * the solver finds; the plan checked by the independent replay (budget_check), then written as
 * text or JSON. Exports cmd_budget. */
#include <inttypes.h>
#include <math.h>
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
#include "util/units.h"
#include "util/utf8.h"

static const char help[] =
    "Usage: memtris budget FILE --budget SIZE [--solver best|exact|greedy|chain]\n"
    "                           [--allow recompute,offload] [--bandwidth B]\n"
    "                           [--time-limit S] [--max-states N] [--format text|json]\n"
    "                           [-o PLAN.json]\n"
    "   or: memtris budget FILE --sweep [--points N] [--svg FILE.svg] [options]\n"
    "Fit one training step (any graph) into SIZE bytes of device memory: free\n"
    "buffers and run their producers again when they are next needed\n"
    "(recompute), or copy them to the host and back (offload), with the least\n"
    "extra time the solver finds. Prints the plan, event by event, its peak and\n"
    "its extra time; every plan is checked by an independent replay first.\n"
    "\n"
    "  -b, --budget SIZE   bytes (1048576, 8MiB, 1.5G) or N% of the budget-free\n"
    "                      peak (the given order's, each buffer freed after its\n"
    "                      last reader), as 60%\n"
    "  -s, --solver NAME   best (the default: the least of greedy's and exact's, exact\n"
    "                      on graphs of at most 20000 compute nodes), exact (an A*\n"
    "                      search over states from greedy's plan: proven optimal, or\n"
    "                      a gap to its lower bound past a limit) or greedy (DTR's\n"
    "                      eviction by rerun time a byte, along the given order\n"
    "                      and priority's) or chain (rotor's\n"
    "                      dynamic programme where the graph is a chain of\n"
    "                      segments, recompute only; else it says what breaks it)\n"
    "      --allow LIST    recompute (the default), offload, or both: recompute,offload\n"
    "      --bandwidth B   bytes a second each way between device and host, as a size\n"
    "                      (16G: 16 GiB/s; default 16000000000)\n"
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
    "                      each budget's; greedy unless --solver says\n"
    "      --points N      the sweep's budgets, 2 to 1000 (default 16)\n"
    "      --svg FILE      also draw the sweep as an SVG curve, the two marks\n"
    "                      labelled ('-': the SVG alone to standard output)\n"
    "  -h, --help          show this help and exit\n"
    "\n"
    "The model (memtris(1), BUDGETS): a compute node reads its Inputs and writes\n"
    "the buffers it produces (it is the first compute node its ALLOC has an edge\n"
    "to); Input ops, optimizer updates, random ops and nodes with \"Rerun\": false\n"
    "never run again; a buffer changed in place (\"InPlace\") has a version for\n"
    "each change, each node reads the version the changes before it (in the given\n"
    "order) made, and a version is made again by rerunning its producer, then its\n"
    "changers in order;\n"
    "the buffers the graph never frees end present, at their last version.\n"
    "Beside the plan, the baselines to beat (graphs with Phases), their peak,\n"
    "reruns and extra time: Chen's sqrt(n) checkpointing (every ceil(sqrt(f))-th\n"
    "of the f forward nodes keeps its outputs, the backward makes the others\n"
    "again), and recomputing every cheap op (the forward's pointwise ops and\n"
    "views make their outputs again in the backward, the others keep theirs).\n"
    "JSON: {\"budget\", \"budget_free_peak\", \"solver\", \"chen_sqrt_n\": {\"peak\",\n"
    "       \"extra_ms\", \"reruns\"} or null, \"cheap_recompute\" (the same),\n"
    "       \"feasible\", \"peak\",\n"
    "       \"extra_ms\", \"reruns\", \"offloaded_bytes\", \"proven_optimal\",\n"
    "       \"lower_bound_ms\", \"bandwidth\", \"initial\" (bytes present at the start),\n"
    "       \"events\": [[\"run\", Id] | [\"free\", BufId] | [\"offload\", BufId] |\n"
    "       [\"fetch\", BufId], ...], \"memory\": [bytes after each event]}; without a plan\n"
    "       {\"budget\", \"budget_free_peak\", \"solver\", \"chen_sqrt_n\",\n"
    "       \"cheap_recompute\", \"feasible\": false,\n"
    "       \"proven_infeasible\", \"least_budget\" (null unless known),\n"
    "       \"least_budget_bound\", \"why\"}.\n"
    "Sweep JSON: {\"source\", \"budget_free_peak\", \"step_ms\", \"solver\", \"allow\",\n"
    "       \"least_budget_bound\", \"points\": [{\"budget\", \"feasible\",\n"
    "       \"solver_found\", \"plan_budget\", \"peak\", \"extra_ms\", \"reruns\",\n"
    "       \"offloaded_bytes\"}, ...], \"chen_sqrt_n\", \"seed_claim\": {\"budget\",\n"
    "       \"extra_ms\", \"says\"}}.\n"

    "\"proven optimal\" only when no plan takes less extra time (exact's search\n"
    "ended, or the extra time is 0), else \"gap X ms (lower bound Y ms)\"; with\n"
    "offload exact's bound is the reruns' time alone (transfers may hide under\n"
    "compute), so it proves less. Exit status 1 when no plan is found: \"no plan\n"
    "fits in X\" only when none can (X is below a bound every plan's peak reaches,\n"
    "or exact's search went through every way to fit), else \"SOLVER found no\n"
    "plan\".\n"
    "\n"
    "Run a plan on the real model in PyTorch, measured event by event against\n"
    "\"memory\" and its results bit for bit the plain step's (memtris(1), PLANS IN\n"
    "PYTORCH; the tools run with Debian's /usr/bin/python3 and python3-torch):\n"
    "  tools/fx2memtris.py MODEL --train --measure [--batch N ...] -o G.json\n"
    "  memtris budget G.json -b 60% --allow recompute,offload -f json >plan.json\n"
    "  tools/runplan.py MODEL --graph G.json --budget-plan plan.json \\\n"
    "      [--batch N ...] -o run.json\n"
    "  memtris view G.json --replay run.json\n";

static void print_help(void) { fputs(help, stdout); }

typedef struct budget_job {
    const char *file;
    graph *g;
    budget_model bm;
    budget_plan plan;
    budget_stats st;
    int64_t budget, free_peak, bound, least; /* least: -1 unknown */
    double pct;                              /* > 0: the budget was N% */
    unsigned allow;
    double bandwidth;
    budget_outcome out;
    int proven_infeasible;
    int chen; /* Chen's baseline has a plan: chen_st */
    budget_stats chen_st;
    int cheap; /* recompute-every-cheap-op has a plan: cheap_st */
    budget_stats cheap_st;
    const budget_solver *solver;
    budget_proof proof;
    int exact_none;     /* exact's search proved that no plan fits */
    const char *output; /* -o: the plan as a graph */
} budget_job;

/* --budget: bytes, or N% (no space) of the budget-free peak (budget_arg.h). */
static int parse_budget(const char *arg, budget_job *j)
{
    if (budget_arg_parse(arg, &j->budget, &j->pct) == 0) return 0;
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
    const budget_event *e = &j->plan.ev[k];
    char name[40], sz[32];
    if (e->op == BUDGET_RUN)
        printf("%8zu  %-8s Id %-10" PRId64 " %s\n", k + 1, "run", g->id[e->x],
               utf8_printable(graph_name(g, e->x), name, sizeof name));
    else
        printf("%8zu  %-8s BufId %-7" PRId64 " %s\n", k + 1, budget_op_word(e->op), g->buf_id[e->x],
               units_bytes(sz, sizeof sz, g->buf_size[e->x], 0));
}

/* Whether the plan's extra time is the least: exact's proof, or 0. */
static int proven(const budget_job *j) { return j->proof.proven || j->st.extra_ms <= 0; }

static double lower_bound(const budget_job *j)
{
    return proven(j) ? j->st.extra_ms : j->proof.lower_bound_ms;
}

static void print_proof(const budget_job *j)
{
    char t[32], g[32], l[32];
    units_ms(t, sizeof t, j->st.extra_ms);
    if (proven(j)) {
        printf("extra time %s: proven optimal\n", t);
        return;
    }
    printf("extra time %s: gap %s (lower bound %s)", t,
           units_ms(g, sizeof g, j->st.extra_ms - lower_bound(j)),
           units_ms(l, sizeof l, lower_bound(j)));
    if (j->proof.stopped == SOLVE_TOO_LARGE)
        printf(", exact not run (over %d compute nodes)", BUDGET_BEST_EXACT_NODES);
    else if (j->proof.stopped != SOLVE_DONE)
        printf(", exact stopped at the %s after %" PRIu64 " states",
               j->proof.stopped == SOLVE_TIME     ? "time limit"
               : j->proof.stopped == SOLVE_STATES ? "limit of states (--max-states)"
               : j->proof.stopped == SOLVE_MEMORY ? "limit of its memory"
                                                  : "cancel",
               j->proof.states);
    printf("\n");
}

static void print_text(const budget_job *j)
{
    char src[1024], a[32], b[32], t[32];
    printf("%s: budget %s", utf8_printable(j->g->source, src, sizeof src),
           units_bytes(a, sizeof a, j->budget, 0));
    if (j->pct > 0) printf(" (%g%% of the budget-free peak)", j->pct);
    printf(", budget-free peak %s, solver %s, allow %s\n",
           units_bytes(b, sizeof b, j->free_peak, 0), j->solver->name,
           j->allow == BUDGET_ALLOW_RECOMPUTE ? "recompute"
           : j->allow == BUDGET_ALLOW_OFFLOAD ? "offload"
                                              : "recompute,offload");
    for (size_t k = 0; k < j->plan.n; k++) text_event(j, k);
    printf("peak %s (%" PRId64 " bytes), %" PRIu64 " reruns, %s offloaded, %" PRIu64 " events\n",
           units_bytes(a, sizeof a, j->st.peak, 0), j->st.peak, j->st.reruns,
           units_bytes(b, sizeof b, j->st.offloaded_bytes, 0), j->st.events);
    print_proof(j);
    if (!strcmp(j->solver->name, "chain") && j->out.found) printf("chain: %s\n", j->out.why);
    if (j->chen)
        printf("beside: Chen's sqrt(n) checkpointing peaks at %s with %" PRIu64 " reruns, %s "
               "extra\n",
               units_bytes(a, sizeof a, j->chen_st.peak, 0), j->chen_st.reruns,
               units_ms(t, sizeof t, j->chen_st.extra_ms));
    if (j->cheap)
        printf("beside: recomputing every cheap op peaks at %s with %" PRIu64 " reruns, %s "
               "extra\n",
               units_bytes(a, sizeof a, j->cheap_st.peak, 0), j->cheap_st.reruns,
               units_ms(t, sizeof t, j->cheap_st.extra_ms));
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
    jw_kint(w, "budget", j->budget);
    jw_kint(w, "budget_free_peak", j->free_peak);
    jw_kstring(w, "solver", j->solver->name);
    json_baseline(w, "chen_sqrt_n", j->chen, &j->chen_st);
    json_baseline(w, "cheap_recompute", j->cheap, &j->cheap_st);
}

static void print_json(const budget_job *j, int found)
{
    const graph *g = j->g;
    jw w;
    jw_file(&w, stdout);
    jw_object(&w);
    json_head(&w, j);
    jw_kbool(&w, "feasible", found);
    if (!found) {
        jw_kbool(&w, "proven_infeasible", j->proven_infeasible);
        jw_key(&w, "least_budget");
        if (j->least >= 0) jw_int(&w, j->least);
        else jw_null(&w);
        jw_kint(&w, "least_budget_bound", j->bound);
        jw_kstring(&w, "why", j->out.why);
        jw_object_end(&w);
        jw_end(&w);
        return;
    }
    jw_kint(&w, "peak", j->st.peak);
    jw_key(&w, "extra_ms");
    cli_jw_ms(&w, j->st.extra_ms);
    jw_kuint(&w, "reruns", j->st.reruns);
    jw_kint(&w, "offloaded_bytes", j->st.offloaded_bytes);
    jw_kbool(&w, "proven_optimal", proven(j));
    jw_key(&w, "lower_bound_ms");
    cli_jw_ms(&w, lower_bound(j));
    jw_kint(&w, "bandwidth", (int64_t)j->bandwidth);
    jw_kint(&w, "initial", j->bm.initial);
    jw_key(&w, "events");
    jw_array(&w);
    for (size_t k = 0; k < j->plan.n; k++) {
        const budget_event *e = &j->plan.ev[k];
        jw_array(&w);
        jw_string(&w, budget_op_word(e->op));
        jw_int(&w, e->op == BUDGET_RUN ? g->id[e->x] : g->buf_id[e->x]);
        jw_array_end(&w);
    }
    jw_array_end(&w);
    /* The bytes present after each event, as the checker replays the plan (a runner's
     * prediction: tools/runplan.py). */
    int64_t *after = malloc((j->plan.n + 1) * sizeof *after);
    budget_stats st;
    char err[256];
    jw_key(&w, "memory");
    if (after &&
        !budget_check_memory(&j->bm, &j->plan, j->bandwidth, &st, after, err, sizeof err)) {
        jw_array(&w);
        for (size_t k = 0; k < j->plan.n; k++) jw_int(&w, after[k]);
        jw_array_end(&w);
    } else jw_null(&w); /* out of memory: the plan was checked before */
    free(after);
    jw_object_end(&w);
    jw_end(&w);
}

/* The budget-free plan and peak, the bound, the budget itself. */
static int prepare(budget_job *j)
{
    char err[512];
    if (budget_model_init(&j->bm, j->g, err, sizeof err)) {
        cli_eprintf("%s: error: %s\n", j->g->source, err);
        return EXIT_BAD;
    }
    if (budget_given_plan(&j->bm, &j->plan) ||
        budget_check(&j->bm, &j->plan, j->bandwidth, &j->st, err, sizeof err)) {
        cli_eprintf("memtris budget: %s: the given order's plan: %s\n", j->g->source, err);
        return EXIT_BAD;
    }
    j->free_peak = j->st.peak;
    budget_plan cp = {0};
    budget_outcome co;
    if (budget_chen(&j->bm, NULL, &cp, &co)) {
        budget_plan_free(&cp);
        cli_eprintf("memtris budget: out of memory\n");
        return EXIT_BAD;
    }
    j->chen = co.found && !budget_check(&j->bm, &cp, j->bandwidth, &j->chen_st, err, sizeof err);
    budget_plan_free(&cp);
    if (budget_cheap(&j->bm, NULL, &cp, &co)) {
        budget_plan_free(&cp);
        cli_eprintf("memtris budget: out of memory\n");
        return EXIT_BAD;
    }
    j->cheap = co.found && !budget_check(&j->bm, &cp, j->bandwidth, &j->cheap_st, err, sizeof err);
    budget_plan_free(&cp);
    j->bound = budget_lower_bound(&j->bm);
    if (j->pct > 0) j->budget = budget_arg_of_pct(j->free_peak, j->pct);
    return EXIT_OK;
}

/* Finds a plan in j->plan (found: 1), or says why not. */
static int solve(budget_job *j, const solve_ctx *c, int *found)
{
    *found = 0;
    if (j->budget >= j->free_peak) { /* the given order's plan */
        *found = 1;
        return EXIT_OK;
    }
    budget_plan_free(&j->plan);
    j->least = -1;
    if (j->budget < j->bound) {
        j->proven_infeasible = 1;
        budget_outcome o = {.found = j->bound >= j->free_peak}; /* the given order's plan */
        budget_plan p = {0};
        if (!o.found && budget_greedy(&j->bm, j->bound, j->allow, j->bandwidth, c, &p, &o))
            return EXIT_BAD;
        if (o.found) j->least = j->bound;
        budget_plan_free(&p);
        snprintf(j->out.why, sizeof j->out.why,
                 "a node's reads and writes, the buffers present at the start or those that "
                 "end present need more");
        return EXIT_OK;
    }
    const budget_solver *s = j->solver;
    int r = s->plain ? s->plain(&j->bm, j->budget, j->allow, j->bandwidth, c, &j->plan, &j->out)
                     : s->seeded(&j->bm, j->budget, j->allow, j->bandwidth, c, NULL, &j->plan,
                                 &j->out, &j->proof);
    if (r) return EXIT_BAD;
    *found = j->out.found;
    j->exact_none = !*found && j->proof.proven;
    j->proven_infeasible |= j->exact_none;
    return EXIT_OK;
}

static void say_none(const budget_job *j)
{
    char a[32], b[32];
    units_bytes(a, sizeof a, j->budget, 0);
    units_bytes(b, sizeof b, j->bound, 0);
    if (j->exact_none)
        cli_eprintf("memtris budget: %s: no plan fits in %s (exact proves it: %s); no plan can "
                    "fit under %s\n",
                    j->g->source, a, j->out.why, b);
    else if (j->proven_infeasible && j->least >= 0)
        cli_eprintf("memtris budget: %s: no plan fits in %s; the least budget any plan fits in "
                    "is %s (%" PRId64 " bytes)\n",
                    j->g->source, a, b, j->least);
    else if (j->proven_infeasible)
        cli_eprintf("memtris budget: %s: no plan fits in %s; every plan needs at least %s (%" PRId64
                    " bytes), and greedy found none there either\n",
                    j->g->source, a, b, j->bound);
    else
        cli_eprintf("memtris budget: %s: %s found no plan that fits in %s (%s); a plan may "
                    "still exist: no plan can fit under %s\n",
                    j->g->source, j->solver->name, a, j->out.why, b);
}

static int run_budget(budget_job *j, const solve_ctx *ctx, int format)
{
    int status = prepare(j), found = 0;
    if (!status) {
        solve_ctx c = cli_search_begin(ctx);
        status = solve(j, &c, &found);
        cli_search_end(status || !found);
    }
    if (status) return status;
    char err[512];
    if (found && (budget_check(&j->bm, &j->plan, j->bandwidth, &j->st, err, sizeof err) ||
                  j->st.peak > j->budget)) {
        cli_eprintf("memtris budget: internal error: %s made an invalid plan for %s: %s\n",
                    j->solver->name, j->g->source,
                    j->st.peak > j->budget ? "its peak passes the budget" : err);
        return EXIT_BAD;
    }
    if (!found) say_none(j);
    if (found && j->output && cli_budget_write_graph(&j->bm, &j->plan, j->bandwidth, j->output))
        return EXIT_BAD;
    if (j->output && !strcmp(j->output, "-")) return found ? EXIT_OK : EXIT_BAD;
    if (format == CLI_JSON) print_json(j, found);
    else if (found) print_text(j);
    return found ? EXIT_OK : EXIT_BAD;
}

/* --sweep's solver: the dispatch's plan at pt->budget, checked. */
typedef struct sweep_ctx {
    budget_job *j;
    const solve_ctx *c;
} sweep_ctx;

static int sweep_solve(void *ctx, cli_budget_point *pt)
{
    budget_job *j = ((sweep_ctx *)ctx)->j;
    char err[512];
    j->budget = pt->budget;
    j->proven_infeasible = 0;
    j->least = -1;
    j->exact_none = 0;
    memset(&j->out, 0, sizeof j->out);
    memset(&j->proof, 0, sizeof j->proof);
    if (j->budget >= j->free_peak) { /* solve keeps the given order's plan, made again here */
        budget_plan_free(&j->plan);
        if (budget_given_plan(&j->bm, &j->plan)) {
            cli_eprintf("memtris budget: out of memory\n");
            return EXIT_BAD;
        }
    }
    int found = 0, status = solve(j, ((sweep_ctx *)ctx)->c, &found);
    if (status) return status;
    pt->found = found;
    pt->stopped = j->out.stopped;
    if (found && (budget_check(&j->bm, &j->plan, j->bandwidth, &pt->st, err, sizeof err) ||
                  pt->st.peak > j->budget)) {
        cli_eprintf("memtris budget: internal error: the solver made an invalid plan for %s at "
                    "%" PRId64 " bytes: %s\n",
                    j->g->source, j->budget,
                    pt->st.peak > j->budget ? "its peak passes the budget" : err);
        return EXIT_BAD;
    }
    return EXIT_OK;
}

static int run_sweep(budget_job *j, const solve_ctx *ctx, int format, uint32_t points,
                     const char *svg)
{
    int status = prepare(j);
    if (status) return status;
    solve_ctx c = cli_search_begin(ctx);
    sweep_ctx sc = {j, &c};
    cli_budget_sweep s = {.bm = &j->bm,
                          .solver = j->solver->name,
                          .allow = j->allow == BUDGET_ALLOW_RECOMPUTE ? "recompute"
                                   : j->allow == BUDGET_ALLOW_OFFLOAD ? "offload"
                                                                      : "recompute,offload",
                          .free_peak = j->free_peak,
                          .bound = j->bound,
                          .step_ms = j->st.makespan_ms,
                          .chen = j->chen,
                          .chen_st = j->chen_st,
                          .points = points,
                          .format = format,
                          .svg = svg,
                          .solve = sweep_solve,
                          .ctx = &sc};
    status = cli_budget_sweep_run(&s);
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
    unsigned long v = parg ? strtoul(parg, &end, 10) : 16;
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
    budget_job j = {.allow = BUDGET_ALLOW_RECOMPUTE,
                    .bandwidth = BUDGET_BANDWIDTH,
                    .least = -1,
                    .solver = budget_solver_find("best")};
    solve_ctx ctx = {0};
    const char *fname = DEFAULT_FORMAT, *barg = NULL, *parg = NULL, *svg = NULL;
    int c, status, sweep = 0, solver_given = 0;
    while ((c = cli_opt(&opts, argc, argv, &status)) >= 0) {
        switch (c) {
        case 'b': barg = optarg; break;
        case 's':
            if (!(j.solver = budget_solver_find(optarg)))
                return cli_usage_error("budget", "unknown solver '%s' (best, exact, greedy, chain)",
                                       optarg);
            solver_given = 1;
            break;
        case 'f': fname = optarg; break;
        case OPT_ALLOW:
            if (parse_allow(optarg, &j.allow)) return EXIT_USAGE;
            break;
        case OPT_BANDWIDTH: {
            int64_t v = units_parse(optarg);
            if (v < 1)
                return cli_usage_error(
                    "budget", "--bandwidth wants bytes a second, at least 1 (as 16G), not '%s'",
                    optarg);
            j.bandwidth = (double)v;
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
    uint32_t points = 16;
    if (sweep_usage(sweep, barg, parg, svg, j.output, &points)) return EXIT_USAGE;
    if (!sweep && parse_budget(barg, &j)) return EXIT_USAGE;
    if (sweep && !solver_given) j.solver = budget_solver_find("greedy"); /* many budgets */
    int format = cli_format("budget", fname, (1u << CLI_TEXT) | (1u << CLI_JSON));
    if (format < 0) return EXIT_USAGE;
    if ((status = cli_out_check("budget", "-o", j.output)) ||
        (status = cli_out_check("budget", "--svg", svg)))
        return status;
    if (!(j.g = cli_load(j.file, 0))) return EXIT_BAD;
    status = sweep ? run_sweep(&j, &ctx, format, points, svg) : run_budget(&j, &ctx, format);
    budget_plan_free(&j.plan);
    if (j.bm.g) budget_model_free(&j.bm);
    graph_free(j.g);
    return status;
}
