/* cmd_compare.c: "memtris compare": its options, and compare_run, which runs
 * several policies on one graph against fifo's (with --placers, placing each
 * schedule) into a compare_result that cli_compare.c writes. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "cli_cmds.h"
#include "cli_compare.h"
#include "cli_job.h"
#include "cli_opts.h"
#include "cli_progress.h"
#include "cli_proof.h"
#include "cli_sigint.h"
#include "cli_time.h"
#include "defaults.h"

#define MAX_POLICIES CLI_MAX_POLICIES
#define MAX_PLACERS  CLI_MAX_PLACERS

static const char help[] =
    "Usage: memtris compare FILE [--policies NAME,NAME...|all] [--placers NAME,NAME...|all]\n"
    "                            [--align N] [--format text|json|csv]\n"
    "                            [--time-limit S] [--max-states N] [--alpha A]\n"
    "                            [--queue-order Q]\n"
    "       memtris compare FILE --pareto [--exact [--time-limit S] [--max-states N]]\n"
    "                            [--svg OUT.svg] [--format text|json|csv]\n"
    "Run several policies over the graph and compare their peak live memory with\n"
    "fifo's and with the least peak of any order when it is known, and their\n"
    "makespans; with --placers, also the arena each placer needs for each policy's\n"
    "schedule. With --pareto, the memory/time trade-off: every policy below but\n"
    "exact and given (with --exact, exact too), weighted at alpha 0, 0.1, ..., 1, each a\n"
    "(peak, makespan) point, those no other point beats on both marked as the\n"
    "Pareto front.\n"
    "\n"
    "  -P, --policies LIST  comma-separated policies (below), or 'all' (default: all\n"
    "                       but exact and given, fifo first; 'all' adds exact's search\n"
    "                       and given, left out with a note where it refuses the graph);\n"
    "                       given listed first is the text's baseline column instead of\n"
    "                       fifo: what each policy saves over the framework's order\n"
    "  -L, --placers LIST   comma-separated placers, or 'all' (default: none); see\n"
    "                       'memtris plan --help' for the list\n"
    "  -a, --align N        the placers' alignment, a power of two (default 64)\n"
    "  -f, --format FMT     text (default), json or csv\n" CLI_LIMIT_HELP CLI_PARAM_HELP
    "      --pareto         the memory/time points and their Pareto front instead\n"
    "      --exact          with --pareto: exact's search is a point too (under\n"
    "                       --time-limit, --max-states and --max-memory)\n"
    "      --svg OUT.svg    with --pareto: also draw the plane as an SVG picture ('-':\n"
    "                       to standard output, instead of the points)\n"
    "  -h, --help           show this help and exit\n"
    "\n"
    "On a terminal, stderr shows the policy or the placing it is on, of how many.\n"
    "JSON: {\"graph\", \"lower_bound\", \"optimum\", \"results\": [{\"policy\", \"peak\",\n"
    "       \"steps\", \"vs_fifo\", \"vs_optimum\", \"proven_optimal\", \"peak_step\",\n"
    "       \"diverges_at\", \"makespan\"}, ...]}; best's result adds \"found_by\".\n"
    "With Categories in the graph, each result adds \"peak_by_category\" (the peak's\n"
    "live bytes by Category) and the text a line \"POLICY at the peak: ...\".\n"
    "vs_fifo is peak / fifo's peak (null when fifo's peak is 0 and this one's is not);\n"
    "with given among the policies each result adds \"vs_given\", peak / given's peak\n"
    "(the saving over the graph's own order), null as vs_fifo;\n"
    "lower_bound: no order peaks below it; optimum: the least peak when a policy\n"
    "reached the bound (proven), else null, and then vs_optimum is null too;\n"
    "peak_step the first step at the peak (0 for a peak of 0); diverges_at the first step\n"
    "where the order differs from fifo's (null for fifo and for the same order).\n"
    "With --placers each result also has \"arenas\": {\"PLACER\": BYTES, ...} and\n"
    "\"fragmentation_bytes\": {\"PLACER\": BYTES, ...} (that arena less the peak, as\n"
    "'memtris plan' gives it); the object \"least_arena\": {\"PLACER\": POLICY, ...}\n"
    "is the policy whose schedule each placer places smallest (the text says when\n"
    "that is not the least live peak's).\n"
    "makespan: the order's timeline on the graph's streams, in ms (memtris(1),\n"
    "TIMELINE); null when no node has a Latency (the text then has no makespan\n"
    "column and says \"no latencies\").\n"
    "CSV: policy,peak,peak_step,vs_fifo,diverges_at,vs_optimum,proven_optimal,\n"
    "makespan_ms, then one column per placer (arena_PLACER); empty where JSON says\n"
    "null.\n"
    "--pareto JSON: {\"graph\", \"critical_path\", \"makespan_bound\", \"points\":\n"
    "       [{\"policy\", \"alpha\" (weighted's, else null), \"peak\", \"makespan\",\n"
    "       \"pareto\"}, ...]}; CSV: policy,alpha,peak,makespan_ms,pareto; without\n"
    "latencies the times are null (CSV: empty) and the front is the least peak.\n";

static void print_help(void)
{
    fputs(help, stdout);
    cli_policy_help();
}

/* Parses a comma-separated list into out; returns the count or -1. */
static int parse_list(char *list, const policy **out)
{
    int n = 0;
    for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
        if (n == MAX_POLICIES) {
            cli_usage_error("compare", "at most %d policies", MAX_POLICIES);
            return -1;
        }
        const policy *p = cli_policy("compare", tok);
        if (!p) return -1;
        out[n++] = p;
    }
    if (!n) cli_usage_error("compare", "--policies needs at least one name");
    return n ? n : -1;
}

/* Parses --placers: "all" or a comma-separated list; returns the count or -1. */
static int parse_placers(char *list, const placer **out)
{
    int n = 0;
    if (!strcmp(list, "all")) {
        for (size_t i = 0; placer_at(i) && n < MAX_PLACERS; i++) out[n++] = placer_at(i);
        return n;
    }
    for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
        const placer *p = cli_placer("compare", tok);
        if (!p) return -1;
        for (int i = 0; i < n; i++)
            if (out[i] == p) {
                cli_usage_error("compare", "placer '%s' is listed twice", tok);
                return -1;
            }
        if (n == MAX_PLACERS) {
            cli_usage_error("compare", "at most %d placers", MAX_PLACERS);
            return -1;
        }
        out[n++] = p;
    }
    if (!n) cli_usage_error("compare", "--placers needs at least one name, or 'all'");
    return n ? n : -1;
}

/* a / b as compare shows it: 1 when both are 0, none (0) when only b is. */
static int ratio(double *out, int64_t a, int64_t b)
{
    *out = b > 0 ? (double)a / (double)b : 1.0;
    return b > 0 || a == 0;
}

/* Places every run with every placer, and finds each placer's least arena. */
static int place_all(compare_result *c, const solve_ctx *ctx)
{
    if (!c->npl) return EXIT_OK;
    c->arena = malloc((size_t)c->n * (size_t)c->npl * sizeof *c->arena);
    if (!c->arena) {
        cli_eprintf("%s: error: out of memory\n", c->job.g->source);
        return EXIT_BAD;
    }
    for (int i = 0; i < c->n; i++)
        for (int j = 0; j < c->npl; j++) {
            placement pl;
            cli_progress("compare: placing %d of %d (placer %s, policy %s's schedule)",
                         i * c->npl + j + 1, c->n * c->npl, c->plc[j]->name, c->pol[i]->name);
            int st = cli_place("compare", c->job.g, &c->runs[i], c->pol[i], c->plc[j], c->align,
                               ctx, &pl);
            if (st) return st;
            c->arena[i * c->npl + j] = pl.arena;
            place_free(&pl);
        }
    for (int j = 0; j < c->npl; j++)
        for (int i = 1; i < c->n; i++)
            if (c->arena[i * c->npl + j] < c->arena[c->least_arena[j] * c->npl + j])
                c->least_arena[j] = i;
    return EXIT_OK;
}

/* Runs every policy (and fifo, the baseline, when it is not listed), places
 * and times the runs, proves them and fills each row. */
static int compare_run(compare_result *c, const solve_ctx *ctx)
{
    const graph *g = c->job.g;
    char err[256];
    for (; c->nruns < c->n; c->nruns++) {
        int i = c->nruns;
        cli_progress("compare: policy %d of %d (%s)", i + 1, c->n, c->pol[i]->name);
        solve_ctx s = cli_search_begin(ctx);
        int rc = policy_run(g, c->pol[i], &s, &c->runs[i], err, sizeof err);
        cli_search_end(rc);
        if (rc && c->all && c->pol[i]->kind == POLICY_BASELINE) {
            /* --policies all: given, refused on this graph, is left out with a note */
            cli_eprintf("%s: note: %s left out: %s\n", g->source, c->pol[i]->name, err);
            memmove(&c->pol[i], &c->pol[i + 1], (size_t)(c->n - i - 1) * sizeof c->pol[0]);
            c->n--;
            c->nruns--;
            continue;
        }
        if (rc) goto fail;
        if (!c->base && c->pol[i] == policy_baseline()) c->base = &c->runs[i];
    }
    int st = place_all(c, ctx);
    if (st) return st;
    if (!c->base) {
        if (policy_run(g, policy_baseline(), ctx, &c->own, err, sizeof err)) goto fail;
        c->has_own = 1;
        c->base = &c->own;
    }
    cli_progress("compare: timing and proving the %d schedules", c->n);
    for (int i = 0; i < c->n; i++) {
        timeline t;
        if (cli_timeline(g, &c->runs[i], &t)) return EXIT_BAD;
        c->row[i].makespan = t.makespan;
        timeline_free(&t);
    }
    for (int i = 1; i < c->n; i++)
        if (c->runs[i].peak < c->runs[c->least_peak].peak) c->least_peak = i;
    c->lower_bound = cli_prove(g, c->runs, c->n);
    c->optimum = -1;
    for (int i = 0; i < c->n; i++)
        if (c->runs[i].optimal) c->optimum = c->runs[i].peak;
    for (int i = 0; i < c->n; i++) {
        compare_row *x = &c->row[i];
        const run *r = &c->runs[i];
        uint32_t d = policy_diverge(c->base, r);
        x->is_base = r == c->base;
        x->has_vs_fifo = ratio(&x->vs_fifo, r->peak, c->base->peak);
        x->has_vs_optimum = c->optimum >= 0 && ratio(&x->vs_optimum, r->peak, c->optimum);
        x->diverges_at = x->is_base || d == g->n ? 0 : d + 1;
    }
    return EXIT_OK;
fail:
    cli_eprintf("%s: error: %s\n", g->source, err);
    return EXIT_BAD;
}

/* --policies (default: all but exact), --placers and --align into c. */
static int parse_lists(const char *list, const char *plist, const char *align_arg,
                       compare_result *c)
{
    if (list && !strcmp(list, "all")) {
        c->all = 1;
        for (size_t i = 0; policy_at(i) && c->n < MAX_POLICIES; i++) c->pol[c->n++] = policy_at(i);
    } else if (list) {
        char *copy = strdup(list);
        c->n = copy ? parse_list(copy, c->pol) : -1;
        free(copy);
        if (c->n < 0) return EXIT_USAGE;
    } else {
        for (size_t i = 0; policy_at(i) && c->n < MAX_POLICIES; i++)
            if (policy_at(i)->kind != POLICY_EXACT && policy_at(i)->kind != POLICY_BASELINE)
                c->pol[c->n++] = policy_at(i);
    }
    if (align_arg && cli_align("compare", align_arg, &c->align)) return EXIT_USAGE;
    if (plist) {
        char *copy = strdup(plist);
        c->npl = copy ? parse_placers(copy, c->plc) : -1;
        free(copy);
        if (c->npl < 0) return EXIT_USAGE;
    }
    return EXIT_OK;
}

enum { OPT_PARETO = 1200, OPT_SVG, OPT_EXACT };

int cmd_compare(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"policies", required_argument, 0, 'P'},
        {"placers", required_argument, 0, 'L'},
        {"align", required_argument, 0, 'a'},
        {"format", required_argument, 0, 'f'},
        {"pareto", no_argument, 0, OPT_PARETO},
        {"svg", required_argument, 0, OPT_SVG},
        {"exact", no_argument, 0, OPT_EXACT},
        CLI_LIMIT_OPTIONS,
        CLI_PARAM_OPTIONS,
        {0, 0, 0, 0},
    };
    solve_ctx ctx = {0}; /* --time-limit, --max-states, --alpha, --queue-order */
    static const cli_opts opts = {"compare", "P:L:a:f:", longopts, NULL, print_help};
    int c, status;
    char *list = NULL, *plist = NULL;
    const char *fname = DEFAULT_FORMAT, *align_arg = NULL, *svg = NULL, *file;
    int pareto = 0, exact = 0;
    compare_result res = {.align = PLACE_ALIGN_DEFAULT};
    while ((c = cli_opt(&opts, argc, argv, &status)) >= 0) {
        switch (c) {
        case 'P': list = optarg; break;
        case 'L': plist = optarg; break;
        case 'a': align_arg = optarg; break;
        case 'f': fname = optarg; break;
        case OPT_PARETO: pareto = 1; break;
        case OPT_SVG: svg = optarg; break;
        case OPT_EXACT: exact = 1; break;
        case CLI_OPT_TIME_LIMIT:
        case CLI_OPT_MAX_STATES:
        case CLI_OPT_MAX_MEMORY:
            if (cli_limit("compare", c, optarg, &ctx)) return EXIT_USAGE;
            break;
        case CLI_OPT_ALPHA:
        case CLI_OPT_QUEUE_ORDER:
            if (cli_param("compare", c, optarg, &ctx)) return EXIT_USAGE;
            break;
        }
    }
    if (c == CLI_OPT_STOP) return status;
    if (!(file = cli_file("compare", argc, argv))) return EXIT_USAGE;
    int format = cli_format("compare", fname, CLI_FORMATS_ALL);
    if (format < 0) return EXIT_USAGE;
    /* --pareto sweeps alpha itself and runs no placer, and no search but
     * with --exact. */
    const char *not_with = list              ? "--policies"
                           : plist           ? "--placers"
                           : align_arg       ? "--align"
                           : ctx.has_alpha   ? "--alpha"
                           : exact           ? NULL
                           : ctx.seconds > 0 ? "--time-limit"
                           : ctx.max_states  ? "--max-states"
                                             : NULL;
    if (pareto && not_with)
        return cli_usage_error("compare", "--pareto runs its own policies: it takes no %s",
                               not_with);
    if (svg && !pareto) return cli_usage_error("compare", "--svg draws --pareto's points only");
    if (exact && !pareto)
        return cli_usage_error("compare", "--exact adds exact to --pareto's points (without "
                                          "--pareto: --policies all)");
    if (pareto && (status = cli_out_check("compare", "--svg", svg))) return status;
    if (pareto) {
        graph *g = cli_load(file, 0);
        if (!g) return EXIT_BAD;
        status = cli_pareto(g, &ctx, exact, format, svg);
        graph_free(g);
        return status;
    }
    if ((status = parse_lists(list, plist, align_arg, &res))) return status;
    if (cli_job_load(&res.job, file)) return EXIT_BAD;
    cli_search_sticky(); /* a second Ctrl-C ends it, in whichever search */
    status = compare_run(&res, &ctx);
    cli_progress_clear();
    if (!status) {
        if (format == CLI_JSON) compare_json(&res);
        else if (format == CLI_CSV) compare_csv(&res);
        else compare_text(&res);
    }
    compare_free(&res);
    return status; /* cli_main checks that standard output was written */
}
