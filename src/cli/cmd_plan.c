/* cmd_plan.c: "memtris plan": where every buffer lives in one arena for a
 * policy's schedule, by one placer: a summary and table, JSON or CSV, and the
 * picture as SVG (svg.c). Every plan is verified before it is shown. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "defaults.h"
#include "util/json.h"
#include "sched/units.h"
#include "ui/svg.h"

static void print_help(void)
{
    printf("Usage: memtris plan FILE [--policy NAME] [--placer NAME] [--align N]\n"
           "                         [--format text|json|csv] [--svg OUT.svg]\n"
           "                         [--time-limit S] [--max-states N]\n"
           "Schedule the graph with one policy, then place every buffer in one arena with\n"
           "one placer: print the arena it needs, the lower bound (no plan of this schedule\n"
           "is smaller: the largest sum of the aligned sizes live at one step, or more\n"
           "where exact proved more), whether the plan is proven optimal (its arena is\n"
           "the bound), the fragmentation (arena - lower bound) / arena, and each\n"
           "buffer's offset and lifetime. Every plan is checked (no two buffers live at\n"
           "the same step overlap, every offset aligned) before it is printed.\n"
           "\n"
           "  -p, --policy NAME   the schedule (default priority; POLICIES below)\n"
           "  -l, --placer NAME   the placer (default best), one of:\n");
    for (size_t i = 0; placer_at(i); i++)
        printf("        %-12s %s\n", placer_at(i)->name, placer_at(i)->desc);
    printf("  -a, --align N       offsets and sizes rounded up to N bytes, a power of two\n"
           "                      from 1 to 2^30 (default %d)\n"
           "  -f, --format FMT    text (default), json or csv\n"
           "      --time-limit S  the exact policy and placer: each stops searching after\n"
           "                      S seconds (default 10)\n"
           "      --max-states N  exact policy: stop after keeping N states (default\n"
           "                      4000000); exact placer: after N search nodes (default:\n"
           "                      the time limit alone)\n"
           "      --svg OUT.svg   also write the plan as an SVG picture: the memory curve\n"
           "                      above the lifetime x address chart; '-' writes it to\n"
           "                      standard output instead of the plan\n"
           "  -h, --help          show this help and exit\n"
           "  -V, --version       show the version and exit\n"
           "\n"
           "JSON: {\"policy\", \"placer\", \"arena\", \"lower_bound\", \"live_peak\",\n"
           "       \"proven_optimal\", \"fragmentation\", \"search\" (exact placer: {\"ran\",\n"
           "       \"stopped\", \"states\", \"probes\"}), \"buffers\": [{\"buf\", \"offset\",\n"
           "       \"size\", \"alloc_step\", \"free_step\"}, ...]}\n"
           "in bytes, buffers in BufId order; steps are numbered from 1 as in 'memtris\n"
           "schedule': a buffer is live from alloc_step (its ALLOC) up to free_step (its\n"
           "FREE); free_step is null for a buffer never freed.\n"
           "CSV: buf,offset,size,alloc_step,free_step,name, one row per buffer (free_step\n"
           "empty for a buffer never freed).\n",
           PLACE_ALIGN_DEFAULT);
    cli_policy_help();
}

typedef struct bufkey {
    int64_t id;
    uint32_t b;
} bufkey;

static int by_bufid(const void *x, const void *y)
{
    const bufkey *a = x, *b = y;
    return a->id < b->id ? -1 : a->id > b->id;
}

/* The buffer indices in BufId order; NULL when out of memory. */
static uint32_t *bufid_order(const graph *g)
{
    bufkey *k = malloc(((size_t)g->nbufs + 1) * sizeof *k);
    uint32_t *out = malloc(((size_t)g->nbufs + 1) * sizeof *out);
    if (!k || !out) {
        free(k);
        free(out);
        return NULL;
    }
    for (uint32_t b = 0; b < g->nbufs; b++) k[b] = (bufkey){g->buf_id[b], b};
    qsort(k, g->nbufs, sizeof *k, by_bufid);
    for (uint32_t b = 0; b < g->nbufs; b++) out[b] = k[b].b;
    free(k);
    return out;
}

/* A buffer's free step as the outputs write it: numbered from 1, or none
 * (null, "", "never") for a buffer never freed. */
static void free_step_text(char *out, size_t cap, const graph *g, const lifetimes *lt, uint32_t b,
                           const char *none)
{
    if (g->buf_free[b] == GRAPH_NONE) snprintf(out, cap, "%s", none);
    else snprintf(out, cap, "%" PRIu32, lt->free_step[b] + 1);
}

/* The buffer's display name: its ALLOC's Name, or "". */
static const char *buf_name(const graph *g, uint32_t b)
{
    uint32_t u = g->buf_alloc[b];
    return g->name[u] ? graph_name(g, u) : "";
}

static void print_json(const graph *g, const policy *p, const run *r, const placement *pl,
                       const lifetimes *lt, const uint32_t *order)
{
    printf("{\"policy\": ");
    json_string(stdout, p->name);
    printf(", \"placer\": ");
    json_string(stdout, pl->placer);
    printf(", \"arena\": %" PRId64 ", \"lower_bound\": %" PRId64 ", \"live_peak\": %" PRId64
           ", \"proven_optimal\": %s, \"fragmentation\": %.6f",
           pl->arena, pl->bound, r->peak, pl->proven ? "true" : "false",
           place_fragmentation(pl, pl->bound));
    if (pl->search.ran)
        printf(", \"search\": {\"stopped\": \"%s\", \"states\": %" PRIu64 ", \"probes\": %" PRIu32
               "}",
               cli_place_stop_word(pl->search.stopped), pl->search.states, pl->search.probes);
    printf(", \"buffers\": [");
    for (uint32_t i = 0; i < g->nbufs; i++) {
        uint32_t b = order[i];
        char fs[16];
        free_step_text(fs, sizeof fs, g, lt, b, "null");
        printf("%s{\"buf\": %" PRId64 ", \"offset\": %" PRId64 ", \"size\": %" PRId64
               ", \"alloc_step\": %" PRIu32 ", \"free_step\": %s}",
               i ? ", " : "", g->buf_id[b], pl->offset[b], g->buf_size[b], lt->alloc_step[b] + 1,
               fs);
    }
    printf("]}\n");
}

static void print_csv(const graph *g, const placement *pl, const lifetimes *lt,
                      const uint32_t *order)
{
    printf("buf,offset,size,alloc_step,free_step,name\n");
    for (uint32_t i = 0; i < g->nbufs; i++) {
        uint32_t b = order[i];
        char fs[16];
        free_step_text(fs, sizeof fs, g, lt, b, "");
        printf("%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRIu32 ",%s,", g->buf_id[b], pl->offset[b],
               g->buf_size[b], lt->alloc_step[b] + 1, fs);
        cli_csv_field(stdout, buf_name(g, b));
        putchar('\n');
    }
}

static void print_text(const graph *g, const policy *p, const run *r, const placer *pc,
                       const placement *pl, const lifetimes *lt, const uint32_t *order)
{
    char a[32], c[32], d[32];
    int64_t lb = pl->bound;
    printf("%s: policy %s, placer %s, align %s; %" PRIu32 " steps, %" PRIu32 " buffers\n",
           g->source, p->name, pl->placer, units_bytes(a, sizeof a, pl->align, 0), r->n, g->nbufs);
    printf("  arena          %s (%" PRId64 " bytes)\n", units_bytes(a, sizeof a, pl->arena, 0),
           pl->arena);
    if (lb > place_lower_bound(g, r, pl->align))
        printf("  lower bound    %s (%" PRId64 " bytes): proved by exact's search\n",
               units_bytes(a, sizeof a, lb, 0), lb);
    else if (r->peak_step)
        printf("  lower bound    %s (%" PRId64
               " bytes): the most %s live at one step, at step %" PRIu32 "\n",
               units_bytes(a, sizeof a, lb, 0), lb, pl->align > 1 ? "aligned bytes" : "bytes",
               r->peak_step);
    else printf("  lower bound    0 B: live memory never rises above zero\n");
    char gap[96];
    printf("  optimal        %s\n", place_gap_words(pl, gap, sizeof gap));
    if (pl->search.ran)
        printf("  search         %s after %" PRIu64 " nodes over %" PRIu32 " capacities\n",
               cli_place_stop_word(pl->search.stopped), pl->search.states, pl->search.probes);
    printf("  fragmentation  %.1f%% (%s above the lower bound)\n",
           100 * place_fragmentation(pl, lb), units_bytes(a, sizeof a, pl->arena - lb, 0));
    /* The pool takes memory from the system and keeps it: say how much, even when it is the arena.
     */
    if (pc->keeps_memory || pl->reserved != pl->arena)
        printf("  reserved       %s (%" PRId64 " bytes) taken from the system and kept\n",
               units_bytes(a, sizeof a, pl->reserved, 0), pl->reserved);
    if (pl->detail) printf("  found by       %s\n", pl->detail);
    printf("\n%12s  %12s  %12s  %12s  %10s  %10s  %s\n", "buf", "offset", "size", "held",
           "alloc step", "free step", "name");
    for (uint32_t i = 0; i < g->nbufs; i++) {
        uint32_t b = order[i];
        int64_t held = pl->block ? pl->block[b] : place_span(g->buf_size[b], pl->align);
        char fs[16];
        free_step_text(fs, sizeof fs, g, lt, b, "never");
        printf("%12" PRId64 "  %12s  %12s  %12s  %10" PRIu32 "  %10s  %s\n", g->buf_id[b],
               units_bytes(a, sizeof a, pl->offset[b], 0),
               units_bytes(c, sizeof c, g->buf_size[b], 0), units_bytes(d, sizeof d, held, 0),
               lt->alloc_step[b] + 1, fs, buf_name(g, b));
    }
    printf("Steps are numbered from 1 as in 'memtris schedule': a buffer is live from its\n"
           "alloc step up to, not including, its free step. held: the bytes the placer\n"
           "keeps for the buffer (its size rounded up to the alignment%s).\n",
           pl->block ? ", or the block it was given" : "");
}

/* Writes the SVG to path ('-': standard output); EXIT_OK or EXIT_BAD with a message. */
static int write_svg(const char *path, const graph *g, const run *r, const placement *pl,
                     const policy *p)
{
    cli_out out;
    if (cli_out_open(&out, "plan", path)) return EXIT_BAD;
    char err[256];
    svg_plan sp = {.g = g, .r = r, .pl = pl, .policy = p->name};
    if (svg_write_plan(out.f, &sp, err, sizeof err)) {
        fprintf(stderr, "memtris plan: %s\n", err);
        cli_out_abandon(&out);
        return EXIT_BAD;
    }
    return cli_out_close(&out, 0);
}

int cmd_plan(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"policy", required_argument, 0, 'p'},
        {"placer", required_argument, 0, 'l'},
        {"align", required_argument, 0, 'a'},
        {"format", required_argument, 0, 'f'},
        {"svg", required_argument, 0, 'S'},
        CLI_LIMIT_OPTIONS,
        {0, 0, 0, 0},
    };
    static const cli_opts opts = {"plan", "p:l:a:f:", longopts, NULL, print_help};
    const char *pname = DEFAULT_POLICY, *lname = DEFAULT_PLAN_PLACER, *fname = DEFAULT_FORMAT,
               *align_arg = NULL, *svg = NULL, *file;
    int c, status;
    policy_limits lim = {0};
    while ((c = cli_opt(&opts, argc, argv, &status)) >= 0) {
        switch (c) {
        case 'p': pname = optarg; break;
        case 'l': lname = optarg; break;
        case 'a': align_arg = optarg; break;
        case 'f': fname = optarg; break;
        case 'S': svg = optarg; break;
        case CLI_OPT_TIME_LIMIT:
        case CLI_OPT_MAX_STATES:
            if (cli_limit("plan", c, optarg, &lim)) return EXIT_USAGE;
            break;
        }
    }
    if (c == CLI_OPT_STOP) return status;
    if (!(file = cli_file("plan", argc, argv))) return EXIT_USAGE;
    int format = cli_format("plan", fname, CLI_FORMATS_ALL);
    if (format < 0) return EXIT_USAGE;
    if (svg && !*svg)
        return cli_usage_error("plan", "--svg needs a file name ('-' for standard output)");
    int64_t align = PLACE_ALIGN_DEFAULT;
    if (align_arg && cli_align("plan", align_arg, &align)) return EXIT_USAGE;
    const policy *p = cli_policy(pname);
    if (!p) return EXIT_USAGE;
    const placer *pc = cli_placer("plan", lname);
    if (!pc) return EXIT_USAGE;
    policy_set_limits(&lim);

    graph *g = cli_load(file, 0);
    if (!g) return EXIT_BAD;
    run r;
    placement pl = {0};
    lifetimes lt = {0};
    uint32_t *order = NULL;
    char err[256];
    int have_run = 0;
    status = EXIT_OK;
    if (policy_run(g, p, &r, err, sizeof err)) goto fail;
    have_run = 1;
    if ((status = cli_place("plan", g, &r, NULL, pc, align, &pl))) goto out;
    order = bufid_order(g);
    if (!order || place_lifetimes(g, &r, &lt)) {
        snprintf(err, sizeof err, "out of memory listing %u buffers", g->nbufs);
        goto fail;
    }
    if (svg) {
        status = write_svg(svg, g, &r, &pl, p);
        if (status != EXIT_OK || !strcmp(svg, "-")) goto out;
    }
    if (format == CLI_JSON) print_json(g, p, &r, &pl, &lt, order);
    else if (format == CLI_CSV) print_csv(g, &pl, &lt, order);
    else print_text(g, p, &r, pc, &pl, &lt, order);
    goto out;
fail:
    fprintf(stderr, "%s: error: %s\n", g->source, err);
    status = EXIT_BAD;
out:
    free(order);
    place_lifetimes_free(&lt);
    place_free(&pl);
    if (have_run) policy_run_free(&r);
    graph_free(g);
    return status; /* cli_main checks that standard output was written */
}
