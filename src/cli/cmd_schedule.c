/* cmd_schedule.c: "memtris schedule": one policy's order and memory curve (a
 * cli_job: run, proven, timed), then written as a table, JSON or CSV. */
#include <inttypes.h>
#include "cli.h"
#include "cli_bycat.h"
#include "cli_cmds.h"
#include "cli_job.h"
#include "cli_opts.h"
#include "cli_proof.h"
#include "cli_time.h"
#include "defaults.h"
#include "util/optimal.h"
#include "util/units.h"
#include "util/utf8.h"

static const char help[] =
    "Usage: memtris schedule FILE [--policy NAME] [--format text|json|csv]\n"
    "                             [--time-limit S] [--max-states N] [--alpha A]\n"
    "                             [--queue-order Q]\n"
    "Run one scheduling policy over the graph and print, for every step, the node\n"
    "popped and the live memory after it, then the peak and how far it is above\n"
    "the lower bound no order goes below (\"optimal (proven)\" when it is there,\n"
    "else \"not proven optimal: X% above the lower bound B\"; -p exact proves a\n"
    "higher bound), and the makespan of the order on the graph's streams.\n"
    "\n"
    "  -p, --policy NAME   one of the policies below (default priority)\n"
    "  -f, --format FMT    text (default), json or csv\n" CLI_LIMIT_HELP CLI_PARAM_HELP
    "  -h, --help          show this help and exit\n"
    "\n"
    "With Categories in the graph, the text's \"at the peak:\" line and JSON's\n"
    "\"peak_by_category\" (after \"peak\") give the peak's live bytes by Category.\n"
    "JSON: {\"policy\", \"nodes\", \"peak\", \"lower_bound\", \"proven_optimal\",\n"
    "       \"makespan\", \"critical_path\", \"makespan_bound\", \"stream_busy\": [ms],\n"
    "       \"order\": [ids], \"memory\": [bytes after each step], \"start\": [ms],\n"
    "       \"stream\": [stream, -1 for ALLOC and FREE]}; best adds \"found_by\" (the\n"
    "       heuristic whose order won), weighted \"alpha\", exact \"search\": {\"states\",\n"
    "       \"pieces\", \"solved\", \"stopped\": "
    "\"done\"|\"time\"|\"states\"|\"memory\"|\"cancelled\"}.\n"
    "lower_bound: no order of the graph peaks below it (bytes); proven_optimal: the\n"
    "peak equals it. Times are in ms (memtris(1), TIMELINE, says the model):\n"
    "makespan_bound: no order finishes sooner.\n"
    "CSV: step,id,op,name,change,memory,start_ms,finish_ms,stream.\n"
    "\n"
    "Run an order on the real model in PyTorch, measured step by step against\n"
    "\"memory\" and its results bit for bit the plain step's (memtris(1), PLANS IN\n"
    "PYTORCH; the tools run with Debian's /usr/bin/python3 and python3-torch):\n"
    "  tools/fx2memtris.py MODEL --train --measure [--batch N ...] -o G.json\n"
    "  memtris schedule G.json -p priority -f json >order.json\n"
    "  tools/runplan.py MODEL --graph G.json --order order.json \\\n"
    "      [--batch N ...] -o run.json\n"
    "  memtris view G.json --replay run.json\n";

static void print_help(void)
{
    fputs(help, stdout);
    cli_policy_help();
}

static void print_text(const cli_job *j)
{
    const graph *g = j->g;
    const policy *p = j->pol;
    const run *r = &j->r;
    char a[32], b[32], src[1024], op[13], name[29]; /* the columns' widths, made printable */
    printf("%s: policy %s, %u nodes\n", utf8_printable(g->source, src, sizeof src), p->name, g->n);
    printf("%8s  %12s  %-12s  %-28s  %12s  %12s\n", "step", "id", "op", "name", "change", "memory");
    for (uint32_t s = 0; s < r->n; s++) {
        uint32_t u = r->order[s];
        printf("%8" PRIu32 "  %12" PRId64 "  %-12s  %-28s  %12s  %12s%s\n", s + 1, g->id[u],
               utf8_printable(graph_op(g, u), op, sizeof op),
               utf8_printable(g->name[u] ? graph_name(g, u) : "", name, sizeof name),
               units_bytes(a, sizeof a, g->change[u], 1), units_bytes(b, sizeof b, r->memory[s], 0),
               s + 1 == r->peak_step ? "  <- peak" : "");
    }
    if (r->peak_step)
        printf("peak %s (%" PRId64 " bytes) at step %" PRIu32 " (node %" PRId64 ")\n",
               units_bytes(a, sizeof a, r->peak, 0), r->peak, r->peak_step,
               g->id[r->order[r->peak_step - 1]]);
    else printf("peak 0 B: live memory never rises above zero\n");
    cli_bycat_text(stdout, "at the peak:", g, r);
    char gap[128], sw[160];
    /* the run knows the cheap bound and its own search's: "optimal (proven)" or
     * "not proven optimal: 12.1% above the lower bound 16.5 MiB" */
    printf("%s\n",
           optimal_phrase(gap, sizeof gap, r->peak, r->lower_bound, r->optimal, OPTIMAL_LONG));
    if (r->found_by) printf("found by %s\n", r->found_by->name);
    if (p->kind == POLICY_EXACT) printf("%s\n", cli_search_words(r, sw, sizeof sw));
    cli_time_text(stdout, g, &j->t);
}

/* How many steps ahead print_json asks for a node's Id or start time: the
 * order jumps about the node arrays, and a cache miss per item would cost
 * more than writing it. */
#define AHEAD 16

static void print_json(const cli_job *j)
{
    const graph *g = j->g;
    const run *r = &j->r;
    jw w;
    jw_file_big(&w, stdout);
    jw_object(&w);
    jw_kstring(&w, "policy", j->pol->name);
    jw_kuint(&w, "nodes", g->n);
    jw_kint(&w, "peak", r->peak);
    cli_bycat_json(&w, g, r);
    jw_kint(&w, "lower_bound", r->lower_bound);
    jw_kbool(&w, "proven_optimal", r->optimal);
    if (r->found_by) jw_kstring(&w, "found_by", r->found_by->name);
    if (j->pol->kind == POLICY_EXACT) {
        jw_key(&w, "search");
        jw_object(&w);
        jw_kuint(&w, "states", r->search.states);
        jw_kuint(&w, "pieces", r->search.pieces);
        jw_kuint(&w, "solved", r->search.solved);
        jw_kstring(&w, "stopped", cli_search_stop_word(r));
        jw_object_end(&w);
    }
    if (j->pol->prepare) jw_kg(&w, "alpha", r->alpha, 12);
    cli_time_json(&w, &j->t);
    jw_key(&w, "order");
    jw_array(&w);
    for (uint32_t s = 0; s < r->n; s++) {
        if (s + AHEAD < r->n) __builtin_prefetch(&g->id[r->order[s + AHEAD]]);
        jw_int(&w, g->id[r->order[s]]);
    }
    jw_array_end(&w);
    jw_key(&w, "memory");
    jw_array(&w);
    for (uint32_t s = 0; s < r->n; s++) jw_int(&w, r->memory[s]);
    jw_array_end(&w);
    jw_key(&w, "start");
    jw_array(&w);
    for (uint32_t s = 0; s < r->n; s++) {
        if (s + AHEAD < r->n) __builtin_prefetch(&j->t.start[r->order[s + AHEAD]]);
        cli_jw_ms(&w, j->t.start[r->order[s]]);
    }
    jw_array_end(&w);
    jw_key(&w, "stream");
    jw_array(&w);
    for (uint32_t s = 0; s < r->n; s++) jw_int(&w, graph_stream(g, r->order[s]));
    jw_array_end(&w);
    jw_object_end(&w);
    jw_end(&w);
}

static void print_csv(const cli_job *j)
{
    const graph *g = j->g;
    const run *r = &j->r;
    const timeline *t = &j->t;
    printf("step,id,op,name,change,memory,start_ms,finish_ms,stream\n");
    for (uint32_t s = 0; s < r->n; s++) {
        uint32_t u = r->order[s];
        printf("%" PRIu32 ",%" PRId64 ",", s + 1, g->id[u]);
        cli_csv_field(stdout, graph_op(g, u));
        putchar(',');
        cli_csv_field(stdout, g->name[u] ? graph_name(g, u) : "");
        printf(",%" PRId64 ",%" PRId64 ",", g->change[u], r->memory[s]);
        cli_csv_ms(stdout, t->start[u]);
        putchar(',');
        cli_csv_ms(stdout, t->finish[u]);
        int st = graph_stream(g, u);
        putchar(',');
        if (st >= 0) printf("%d", st);
        putchar('\n');
    }
}

int cmd_schedule(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"policy", required_argument, 0, 'p'},
        {"format", required_argument, 0, 'f'},
        CLI_LIMIT_OPTIONS,
        CLI_PARAM_OPTIONS,
        {0, 0, 0, 0},
    };
    solve_ctx ctx = {0}; /* --time-limit, --max-states, --alpha, --queue-order */
    static const cli_opts opts = {"schedule", "p:f:", longopts, NULL, print_help};
    const char *pname = DEFAULT_POLICY, *fname = DEFAULT_FORMAT, *file;
    int c, status;
    while ((c = cli_opt(&opts, argc, argv, &status)) >= 0) {
        switch (c) {
        case 'p': pname = optarg; break;
        case 'f': fname = optarg; break;
        case CLI_OPT_TIME_LIMIT:
        case CLI_OPT_MAX_STATES:
        case CLI_OPT_MAX_MEMORY:
            if (cli_limit("schedule", c, optarg, &ctx)) return EXIT_USAGE;
            break;
        case CLI_OPT_ALPHA:
        case CLI_OPT_QUEUE_ORDER:
            if (cli_param("schedule", c, optarg, &ctx)) return EXIT_USAGE;
            break;
        }
    }
    if (c == CLI_OPT_STOP) return status;
    if (!(file = cli_file("schedule", argc, argv))) return EXIT_USAGE;
    int format = cli_format("schedule", fname, CLI_FORMATS_ALL);
    if (format < 0) return EXIT_USAGE;
    const policy *p = cli_policy("schedule", pname);
    if (!p) return EXIT_USAGE;

    cli_job j;
    status = cli_job_load(&j, file);
    if (!status) status = cli_job_run(&j, p, &ctx);
    if (!status) {
        cli_prove(j.g, &j.r, 1);
        status = cli_job_time(&j);
    }
    if (!status) {
        if (format == CLI_JSON) print_json(&j);
        else if (format == CLI_CSV) print_csv(&j);
        else print_text(&j);
    }
    cli_job_free(&j);
    return status; /* cli_main checks that standard output was written */
}
