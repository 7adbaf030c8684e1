/* cmd_place.c: "memtris place": a pure placement problem in google/minimalloc's
 * CSV (id,lower,upper,size), made a chain graph (a cli_job), placed by one
 * placer, checked, and written back as that CSV with an offset column (or as
 * plan writes). */
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "cli_cmds.h"
#include "cli_job.h"
#include "cli_opts.h"
#include "cli_plan.h"
#include "cli_progress.h"
#include "cli_proof.h"
#include "defaults.h"

static void print_help(void)
{
    printf("Usage: memtris place CSV [--placer NAME] [--align N]\n"
           "                   [--format csv|json|text] [--svg OUT.svg] [-o FILE]\n"
           "                   [--time-limit S] [--max-states N] [--max-memory SIZE]\n"
           "                   [--capacity SIZE]\n"
           "Place a pure placement problem in google/minimalloc's CSV format: a header\n"
           "naming the columns id,lower,upper,size (any order), then one row a buffer of\n"
           "size bytes live on the half-open interval [lower, upper) of time. Every\n"
           "buffer is placed in one arena with one placer, the plan is checked (no two\n"
           "buffers live at the same time overlap, every offset aligned), and the same\n"
           "CSV is written with an offset column added, as MiniMalloc writes its output.\n"
           "\n"
           "  -l, --placer NAME   the placer (default %s), one of:\n",
           DEFAULT_PLAN_PLACER);
    for (size_t i = 0; placer_at(i); i++)
        printf("        %-12s %s\n", placer_at(i)->name, placer_at(i)->desc);
    printf("  -a, --align N       offsets and sizes rounded up to N bytes, a power of two\n"
           "                      from 1 to 2^30 (default %d: MiniMalloc has none)\n"
           "  -f, --format FMT    csv (default), json or text, as 'memtris plan' writes\n"
           "                      them, with the CSV's ids and times\n"
           "      --svg OUT.svg   also write the plan as an SVG picture ('-': standard\n"
           "                      output, instead of the plan)\n"
           "  -o, --output FILE   write the plan to FILE; '-' or none: standard output\n"
           "      --time-limit S  exact: stop after S seconds (default 10), best's plan\n"
           "                      it starts from included,\n"
           "                      keeping the smallest plan found and the bound proven;\n"
           "                      best: at most S seconds, when given\n"
           "      --max-states N  exact: stop after N search nodes (default: the time\n"
           "                      limit alone)\n"
           "      --max-memory SIZE exact: the memory its search may hold (default a\n"
           "                      quarter of the machine's, at most 2GiB)\n"
           "      --capacity SIZE does the plan fit in SIZE bytes? exact searches that\n"
           "                      capacity alone; the plan (status 0), or status 1 and\n"
           "                      why not: proven that none fits, or not known at a limit\n"
           "  -h, --help          show this help and exit\n"
           "  -V, --version       show the version and exit\n"
           "\n"
           "The CSV as MiniMalloc reads it: ids are any text without commas (memtris: printable\n"
           "ASCII without quotes or backslashes), lower, upper and size integers from 0 to\n"
           "2^53-1 with lower < upper; MiniMalloc's older headers buffer or buffer_id, begin\n"
           "or start, and end (an inclusive upper, at most 2^53-2) are read too. Optional\n"
           "columns: alignment (a power of two; the largest raises --align for every\n"
           "buffer), gaps (must be empty: a buffer is live on one interval) and offset (0\n"
           "to 2^63-1; read, then not kept: every buffer is placed anew, and a warning says\n"
           "so). CRLF line ends and blank lines at the end are fine. Bad input is reported\n"
           "as FILE:LINE:COL with status 1. What place writes, place reads back.\n"
           "\n"
           "The problem becomes a chain of ALLOC and FREE events in time order; at each\n"
           "time the FREEs of the buffers ending there come before the ALLOCs of those\n"
           "starting there, so [0, 5) and [5, 9) may share bytes. The lower bound is the\n"
           "largest sum of sizes live at one time.\n",
           DEFAULT_PLACE_ALIGN);
}

/* Reads the CSV into j->prob and its chain graph into j->g, the diagnostics
 * on stderr; raises *align to the CSV's largest alignment. EXIT_OK or EXIT_BAD. */
static int load_problem(cli_job *j, const char *file, int64_t *align)
{
    diag d;
    diag_init(&d, strcmp(file, "-") == 0 ? "<stdin>" : file);
    cli_progress_path("reading ", d.source, "...");
    j->prob = problem_read(file, &d);
    if (j->prob) cli_progress_path("making the graph of ", d.source, "...");
    j->g = j->prob ? problem_graph(j->prob, &d) : NULL;
    cli_progress_clear();
    for (size_t i = 0; i < d.nlines; i++) cli_eprintf("%s\n", d.lines[i]);
    if (j->g && j->prob->offset)
        cli_eprintf(
            "%s: warning: the offset column is not kept: memtris places every buffer anew\n",
            d.source);
    diag_free(&d);
    if (!j->g) return EXIT_BAD;
    if (j->prob->max_align > *align) *align = j->prob->max_align;
    return EXIT_OK;
}

int cmd_place(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"placer", required_argument, 0, 'l'},
        {"align", required_argument, 0, 'a'},
        {"format", required_argument, 0, 'f'},
        {"svg", required_argument, 0, 'S'},
        {"output", required_argument, 0, 'o'},
        CLI_LIMIT_OPTIONS,
        {"capacity", required_argument, 0, CLI_OPT_CAPACITY},
        {0, 0, 0, 0},
    };
    static const cli_opts opts = {"place", "l:a:f:o:", longopts, NULL, print_help};
    const char *lname = DEFAULT_PLAN_PLACER, *fname = DEFAULT_PLACE_FORMAT, *align_arg = NULL,
               *svg = NULL, *path = "-", *file;
    int c, status;
    solve_ctx ctx = {0}; /* --time-limit, --max-states */
    while ((c = cli_opt(&opts, argc, argv, &status)) >= 0) {
        switch (c) {
        case 'l': lname = optarg; break;
        case 'a': align_arg = optarg; break;
        case 'f': fname = optarg; break;
        case 'S': svg = optarg; break;
        case 'o': path = optarg; break;
        case CLI_OPT_TIME_LIMIT:
        case CLI_OPT_MAX_STATES:
        case CLI_OPT_MAX_MEMORY:
            if (cli_limit("place", c, optarg, &ctx)) return EXIT_USAGE;
            break;
        case CLI_OPT_CAPACITY:
            if (cli_capacity("place", optarg, &ctx)) return EXIT_USAGE;
            break;
        }
    }
    if (c == CLI_OPT_STOP) return status;
    if (!(file = cli_file("place", argc, argv))) return EXIT_USAGE;
    int format = cli_format("place", fname, (1u << CLI_CSV) | (1u << CLI_JSON) | (1u << CLI_TEXT));
    if (format < 0) return EXIT_USAGE;
    if (!*path) return cli_out_check("place", "-o", path);
    if (svg && !*svg) return cli_out_check("place", "--svg", svg);
    int64_t align = DEFAULT_PLACE_ALIGN;
    if (align_arg && cli_align("place", align_arg, &align)) return EXIT_USAGE;
    const placer *pc = cli_placer("place", lname);
    if (!pc) return EXIT_USAGE;
    if ((status = cli_out_check("place", "-o", path)) ||
        (status = cli_out_check("place", "--svg", svg)))
        return status;

    cli_job j;
    memset(&j, 0, sizeof j);
    if ((status = load_problem(&j, file, &align))) {
        cli_job_free(&j);
        return status;
    }
    cli_plan cp = {0};
    /* A chain: every policy gives its one order. */
    status = cli_job_run(&j, policy_find(DEFAULT_POLICY), &ctx);
    if (!status) status = cli_job_place(&j, "place", pc, align, &ctx);
    if (!status) status = cli_job_plan(&j, &cp); /* BufId i is row i */
    /* --svg -: the picture instead of the plan */
    if (!status)
        status = cli_plan_write("place", svg && !strcmp(svg, "-") ? NULL : path, format, svg, &cp);
    cli_job_free(&j);
    return status;
}
