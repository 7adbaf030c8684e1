/* cmd_plan.c: "memtris plan": where every buffer lives in one arena for a
 * policy's schedule, by one placer: a summary and table, JSON, CSV or
 * MiniMalloc's CSV, PyTorch's memory snapshot (a pickle), and the picture as
 * SVG (cli_plan.c and cli_memviz.c write them).
 * Every plan is verified before it is shown. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "cli_cmds.h"
#include "cli_job.h"
#include "cli_opts.h"
#include "cli_plan.h"
#include "cli_proof.h"
#include "defaults.h"

static void print_help(void)
{
    printf("Usage: memtris plan FILE [--policy NAME] [--placer NAME] [--align N]\n"
           "                         [--format text|json|csv|minimalloc|memory-viz]\n"
           "                         [-o OUT] [--svg OUT.svg] [--rank-by peak|arena]\n"
           "                         [--time-limit S] [--max-states N] [--max-memory SIZE]\n"
           "                         [--capacity SIZE]\n"
           "Schedule the graph with one policy, then place every buffer in one arena with\n"
           "one placer: print the arena it needs, the lower bound (no plan of this schedule\n"
           "is smaller: the largest sum of the aligned sizes live at one step, or more\n"
           "where exact proved more), whether the plan is proven optimal (its arena is\n"
           "the bound) or how far above the bound it is, (arena - bound) / bound, and\n"
           "each buffer's offset and lifetime. Every plan is checked (no two buffers live at\n"
           "the same step overlap, every offset aligned) before it is printed.\n"
           "\n"
           "  -p, --policy NAME   the schedule (default priority; POLICIES below)\n"
           "  -l, --placer NAME   the placer (default best), one of:\n");
    for (size_t i = 0; placer_at(i); i++)
        printf("        %-12s %s\n", placer_at(i)->name, placer_at(i)->desc);
    printf("  -a, --align N       offsets and sizes rounded up to N bytes, a power of two\n"
           "                      from 1 to 2^30 (default %d)\n"
           "  -f, --format FMT    text (default), json, csv, minimalloc or memory-viz\n"
           "  -o, --output OUT    write the plan to OUT ('-', the default: standard output;\n"
           "                      memory-viz, binary, is not written to a terminal)\n"
           "      --rank-by WHAT  peak (default) or arena: with --policy best, schedule with\n"
           "                      the member whose order places in the least arena (each\n"
           "                      member placed with --placer), saying when the live-peak\n"
           "                      winner loses after placement\n"
           "      --time-limit S  the exact policy and placer: each stops searching after\n"
           "                      S seconds (default 10), the whole of their solving;\n"
           "                      best (policy or placer): at most S, when given\n"
           "      --max-states N  exact policy: stop after keeping N states (default\n"
           "                      4000000); exact placer: after N search nodes (default:\n"
           "                      the time limit alone)\n"
           "      --max-memory SIZE each search's own memory (default a quarter of the\n"
           "                      machine's, at most 2GiB); at a limit or at Ctrl-C,\n"
           "                      the best answer found and the bound proven\n"
           "      --capacity SIZE does the plan fit in SIZE bytes? exact searches that\n"
           "                      capacity alone; the plan (status 0), or status 1 and\n"
           "                      why not: proven that none fits, or not known at a limit\n"
           "      --svg OUT.svg   also write the plan as an SVG picture: the memory curve\n"
           "                      above the lifetime x address chart; '-' writes it to\n"
           "                      standard output instead of the plan\n"
           "  -h, --help          show this help and exit\n"
           "  -V, --version       show the version and exit\n"
           "\n"
           "JSON: {\"policy\", \"placer\", \"arena\", \"lower_bound\", \"live_peak\",\n"
           "       \"peak_by_category\" (with Categories in the graph; the text's\n"
           "       \"at the peak:\" line),\n"
           "       \"proven_optimal\", \"fragmentation\", \"fragmentation_bytes\", \"search\"\n"
           "       (exact placer: {\"stopped\", \"states\", \"probes\"}), \"buffers\":\n"
           "       [{\"buf\", \"offset\", \"size\", \"alloc_step\", \"free_step\"}, ...]};\n"
           "       --rank-by arena adds, before\n"
           "       \"buffers\": \"ranked_by\": \"arena\", \"found_by\" (the member placed) and\n"
           "       \"by_peak\": {\"policy\", \"peak\", \"arena\"} (the live-peak winner's)\n"
           "in bytes, buffers in BufId order; steps are numbered from 1 as in 'memtris\n"
           "schedule': a buffer is live from alloc_step (its ALLOC) up to free_step (its\n"
           "FREE); free_step is null for a buffer never freed. The fragmentation is\n"
           "the arena less the peak of live bytes (as XLA's heap simulator counts it):\n"
           "fragmentation_bytes = arena - live_peak, fragmentation that share of the\n"
           "arena, (arena - live_peak) / arena; the text and the TUI give the same.\n"
           "CSV: buf,offset,size,alloc_step,free_step,name, one row per buffer (free_step\n"
           "empty for a buffer never freed).\n"
           "minimalloc: google/minimalloc's CSV, id,lower,upper,size,offset, one row per\n"
           "buffer in BufId order: id the BufId, lower and upper its alloc and free steps\n"
           "numbered from 0 (upper the number of steps for a buffer never freed), size\n"
           "the bytes it takes (its Size rounded up to --align), so that 'memtris place'\n"
           "(or MiniMalloc) reads the same problem; place with the same placer finds the\n"
           "same arena. A rounded size past 2^53-1 is an error (status 1), nothing written.\n"
           "memory-viz: PyTorch's memory snapshot, a pickle (protocol 2, written by memtris,\n"
           "no Python needed) that pytorch.org/memory_viz opens: {\"segments\": [the arena\n"
           "as one segment at 0x7f0000000000, its blocks as they are at the end, as a\n"
           "snapshot's], \"device_traces\": [[\"segment_alloc\", then per ALLOC an \"alloc\" and\n"
           "per FREE a \"free_requested\" and a \"free_completed\" at base + offset, of\n"
           "the held size, in schedule order, time_us the step]]}; each event's frame\n"
           "names its node: filename the graph, line its Id, name its Name. An address\n"
           "past 2^63-1 is an error naming the buffer (status 1), nothing written.\n",
           PLACE_ALIGN_DEFAULT);
    cli_policy_help();
}

enum { OPT_RANK_BY = 1100 };

/* --rank-by arena: best's members each scheduled and placed; r and pl become
 * the least arena's (the live-peak winner's on a tie), cp says who won. 0,
 * or an exit status after a message. */
static int rank_by_arena(const graph *g, const placer *pc, int64_t align, const solve_ctx *ctx,
                         run *r, placement *pl, cli_plan *cp)
{
    cp->by_peak = cp->by_arena = r->found_by;
    cp->by_peak_peak = r->peak;
    cp->by_peak_arena = pl->arena;
    for (size_t i = 0; policy_at(i); i++) {
        const policy *m = policy_at(i);
        if (m->kind != POLICY_HEURISTIC || m == r->found_by) continue;
        run rm;
        placement pm = {0};
        char err[256];
        if (policy_run(g, m, ctx, &rm, err, sizeof err)) {
            cli_eprintf("%s: error: %s\n", g->source, err);
            return EXIT_BAD;
        }
        int st = cli_place("plan", g, &rm, m, pc, align, ctx, &pm);
        if (st) {
            policy_run_free(&rm);
            return st;
        }
        if (pm.arena < pl->arena) {
            run t = *r;
            *r = rm;
            rm = t;
            placement q = *pl;
            *pl = pm;
            pm = q;
            cp->by_arena = m;
        }
        place_free(&pm);
        policy_run_free(&rm);
    }
    return 0;
}

int cmd_plan(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"policy", required_argument, 0, 'p'},
        {"placer", required_argument, 0, 'l'},
        {"align", required_argument, 0, 'a'},
        {"format", required_argument, 0, 'f'},
        {"svg", required_argument, 0, 'S'},
        {"output", required_argument, 0, 'o'},
        {"rank-by", required_argument, 0, OPT_RANK_BY},
        CLI_LIMIT_OPTIONS,
        {"capacity", required_argument, 0, CLI_OPT_CAPACITY},
        CLI_PARAM_OPTIONS,
        {0, 0, 0, 0},
    };
    static const cli_opts opts = {"plan", "p:l:a:f:o:", longopts, NULL, print_help};
    const char *pname = DEFAULT_POLICY, *lname = DEFAULT_PLAN_PLACER, *fname = DEFAULT_FORMAT,
               *align_arg = NULL, *svg = NULL, *path = "-", *file;
    int c, status;
    solve_ctx ctx = {0}; /* --time-limit, --max-states, --alpha, --queue-order */
    int by_arena = 0;
    while ((c = cli_opt(&opts, argc, argv, &status)) >= 0) {
        switch (c) {
        case 'p': pname = optarg; break;
        case 'l': lname = optarg; break;
        case 'a': align_arg = optarg; break;
        case 'f': fname = optarg; break;
        case 'S': svg = optarg; break;
        case 'o': path = optarg; break;
        case OPT_RANK_BY:
            if (strcmp(optarg, "peak") && strcmp(optarg, "arena"))
                return cli_usage_error("plan", "--rank-by wants peak or arena, not '%s'", optarg);
            by_arena = !strcmp(optarg, "arena");
            break;
        case CLI_OPT_TIME_LIMIT:
        case CLI_OPT_MAX_STATES:
        case CLI_OPT_MAX_MEMORY:
            if (cli_limit("plan", c, optarg, &ctx)) return EXIT_USAGE;
            break;
        case CLI_OPT_CAPACITY:
            if (cli_capacity("plan", optarg, &ctx)) return EXIT_USAGE;
            break;
        case CLI_OPT_ALPHA:
        case CLI_OPT_QUEUE_ORDER:
            if (cli_param("plan", c, optarg, &ctx)) return EXIT_USAGE;
            break;
        }
    }
    if (c == CLI_OPT_STOP) return status;
    if (!(file = cli_file("plan", argc, argv))) return EXIT_USAGE;
    int format =
        cli_format("plan", fname, CLI_FORMATS_ALL | (1u << CLI_MINIMALLOC) | (1u << CLI_MEMVIZ));
    if (format < 0) return EXIT_USAGE;
    if (!*path) return cli_out_check("plan", "-o", path);
    int to_stdout = !strcmp(path, "-");
    if (format == CLI_MEMVIZ && to_stdout && (!svg || strcmp(svg, "-")) && isatty(STDOUT_FILENO))
        return cli_usage_error("plan", "--format memory-viz is binary (a pickle): not written to a "
                                       "terminal; give -o FILE, or pipe standard output");
    if (svg && !*svg) return cli_out_check("plan", "--svg", svg);
    int64_t align = PLACE_ALIGN_DEFAULT;
    if (align_arg && cli_align("plan", align_arg, &align)) return EXIT_USAGE;
    const policy *p = cli_policy("plan", pname);
    if (!p) return EXIT_USAGE;
    const placer *pc = cli_placer("plan", lname);
    if (!pc) return EXIT_USAGE;
    if (by_arena && p->kind != POLICY_PORTFOLIO)
        return cli_usage_error(
            "plan", "--rank-by arena ranks best's members; policy %s is one order", p->name);
    if ((status = cli_out_check("plan", "-o", path)) ||
        (status = cli_out_check("plan", "--svg", svg)))
        return status;

    cli_job j;
    cli_plan cp = {0};
    status = cli_job_load(&j, file);
    if (!status) status = cli_job_run(&j, p, &ctx);
    if (!status) status = cli_job_place(&j, "plan", pc, align, &ctx);
    if (!status && by_arena) status = rank_by_arena(j.g, pc, align, &ctx, &j.r, &j.pl, &cp);
    if (!status) status = cli_job_plan(&j, &cp);
    /* --svg - and no -o: the picture instead of the plan */
    if (!status)
        status = cli_plan_write("plan", svg && !strcmp(svg, "-") && to_stdout ? NULL : path, format,
                                svg, &cp);
    cli_job_free(&j);
    return status; /* cli_main checks that standard output was written */
}
