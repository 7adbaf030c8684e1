/* cmd_compare.c: "memtris compare": peaks of several policies on one graph,
 * with the saving against fifo and where the orders first differ; with
 * --placers, the arena each placer needs for each policy's schedule. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "defaults.h"
#include "util/json.h"
#include "util/units.h"

#define MAX_POLICIES 16
#define MAX_PLACERS  32

static const char help[] =
    "Usage: memtris compare FILE [--policies NAME,NAME...|all] [--placers NAME,NAME...|all]\n"
    "                            [--align N] [--format text|json|csv]\n"
    "                            [--time-limit S] [--max-states N] [--alpha A]\n"
    "                            [--queue-order Q]\n"
    "       memtris compare FILE --pareto [--svg OUT.svg] [--format text|json|csv]\n"
    "Run several policies over the graph and compare their peak live memory with\n"
    "fifo's and with the least peak of any order when it is known, and their\n"
    "makespans; with --placers, also the arena each placer needs for each policy's\n"
    "schedule. With --pareto, the memory/time trade-off: fifo, priority,\n"
    "multiqueue, best and weighted at alpha 0, 0.1, ..., 1, each a (peak, makespan)\n"
    "point, those no other point beats on both marked as the Pareto front.\n"
    "\n"
    "  -P, --policies LIST  comma-separated policies (below), or 'all' (default: all\n"
    "                       but exact, fifo first; 'all' adds exact's search)\n"
    "  -L, --placers LIST   comma-separated placers, or 'all' (default: none); see\n"
    "                       'memtris plan --help' for the list\n"
    "  -a, --align N        the placers' alignment, a power of two (default 64)\n"
    "  -f, --format FMT     text (default), json or csv\n" CLI_LIMIT_HELP CLI_PARAM_HELP
    "      --pareto         the memory/time points and their Pareto front instead\n"
    "      --svg OUT.svg    with --pareto: also draw the plane as an SVG picture ('-':\n"
    "                       to standard output, instead of the points)\n"
    "  -h, --help           show this help and exit\n"
    "\n"
    "JSON: {\"graph\", \"lower_bound\", \"optimum\", \"results\": [{\"policy\", \"peak\",\n"
    "       \"steps\", \"vs_fifo\", \"vs_optimum\", \"proven_optimal\", \"peak_step\",\n"
    "       \"diverges_at\", \"makespan\"}, ...]}; best's result adds \"found_by\".\n"
    "vs_fifo is peak / fifo's peak (null when fifo's peak is 0 and this one's is not);\n"
    "lower_bound: no order peaks below it; optimum: the least peak when a policy\n"
    "reached the bound (proven), else null, and then vs_optimum is null too;\n"
    "peak_step the first step at the peak (0 for a peak of 0); diverges_at the first step\n"
    "where the order differs from fifo's (null for fifo and for the same order).\n"
    "With --placers each result also has \"arenas\": {\"PLACER\": BYTES, ...}, and the\n"
    "object \"least_arena\": {\"PLACER\": POLICY, ...}, the policy whose schedule each\n"
    "placer places smallest (the text says when that is not the least live peak's).\n"
    "makespan: the order's timeline on the graph's streams, in ms (memtris(1),\n"
    "TIMELINE).\n"
    "CSV: policy,peak,peak_step,vs_fifo,diverges_at,vs_optimum,proven_optimal,\n"
    "makespan_ms, then one column per placer (arena_PLACER); empty where JSON says\n"
    "null.\n"
    "--pareto JSON: {\"graph\", \"critical_path\", \"makespan_bound\", \"points\":\n"
    "       [{\"policy\", \"alpha\" (weighted's, else null), \"peak\", \"makespan\",\n"
    "       \"pareto\"}, ...]}; CSV: policy,alpha,peak,makespan_ms,pareto.\n";

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
        const policy *p = cli_policy(tok);
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

/* An arena column: as wide as the placer's name, at least 10. */
static int col_width(const placer *p)
{
    int w = (int)strlen(p->name);
    return w < 10 ? 10 : w;
}

static void ratio(char *out, size_t cap, int64_t peak, int64_t base)
{
    if (base > 0) snprintf(out, cap, "%.6f", (double)peak / (double)base);
    else snprintf(out, cap, peak == 0 ? "1.000000" : "null");
}

enum { OPT_PARETO = 1200, OPT_SVG };

int cmd_compare(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"policies", required_argument, 0, 'P'},
        {"placers", required_argument, 0, 'L'},
        {"align", required_argument, 0, 'a'},
        {"format", required_argument, 0, 'f'},
        {"pareto", no_argument, 0, OPT_PARETO},
        {"svg", required_argument, 0, OPT_SVG},
        CLI_LIMIT_OPTIONS,
        CLI_PARAM_OPTIONS,
        {0, 0, 0, 0},
    };
    solve_ctx ctx = {0}; /* --time-limit, --max-states, --alpha, --queue-order */
    static const cli_opts opts = {"compare", "P:L:a:f:", longopts, NULL, print_help};
    const policy *pol[MAX_POLICIES];
    int npol = 0, c, status;
    char *list = NULL, *plist = NULL;
    const char *fname = DEFAULT_FORMAT, *align_arg = NULL, *svg = NULL, *file;
    int pareto = 0;
    const placer *plc[MAX_PLACERS];
    int npl = 0;
    int64_t align = PLACE_ALIGN_DEFAULT;
    while ((c = cli_opt(&opts, argc, argv, &status)) >= 0) {
        switch (c) {
        case 'P': list = optarg; break;
        case 'L': plist = optarg; break;
        case 'a': align_arg = optarg; break;
        case 'f': fname = optarg; break;
        case OPT_PARETO: pareto = 1; break;
        case OPT_SVG: svg = optarg; break;
        case CLI_OPT_TIME_LIMIT:
        case CLI_OPT_MAX_STATES:
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
    /* --pareto sweeps alpha itself and runs no search and no placer. */
    const char *not_with = list              ? "--policies"
                           : plist           ? "--placers"
                           : align_arg       ? "--align"
                           : ctx.has_alpha   ? "--alpha"
                           : ctx.seconds > 0 ? "--time-limit"
                           : ctx.max_states  ? "--max-states"
                                             : NULL;
    if (pareto && not_with)
        return cli_usage_error("compare", "--pareto runs its own policies: it takes no %s",
                               not_with);
    if (svg && !pareto) return cli_usage_error("compare", "--svg draws --pareto's points only");
    if (pareto) {
        graph *g = cli_load(file, 0);
        if (!g) return EXIT_BAD;
        status = cli_pareto(g, &ctx, format, svg);
        graph_free(g);
        return status;
    }
    if (list && !strcmp(list, "all")) {
        for (size_t i = 0; policy_at(i) && npol < MAX_POLICIES; i++) pol[npol++] = policy_at(i);
    } else if (list) {
        char *copy = strdup(list);
        npol = copy ? parse_list(copy, pol) : -1;
        free(copy);
        if (npol < 0) return EXIT_USAGE;
    } else {
        for (size_t i = 0; policy_at(i) && npol < MAX_POLICIES; i++)
            if (policy_at(i)->kind != POLICY_EXACT) pol[npol++] = policy_at(i);
    }
    if (align_arg && cli_align("compare", align_arg, &align)) return EXIT_USAGE;
    if (plist) {
        char *copy = strdup(plist);
        npl = copy ? parse_placers(copy, plc) : -1;
        free(copy);
        if (npl < 0) return EXIT_USAGE;
    }

    graph *g = cli_load(file, 0);
    if (!g) return EXIT_BAD;
    run runs[MAX_POLICIES], own; /* own: fifo's run when fifo is not in the list */
    const run *base = NULL;
    int have_own = 0;
    char err[256];
    int done = 0;
    int64_t *arena = NULL; /* [npol * npl] */
    status = EXIT_OK;
    for (; done < npol; done++) {
        if (policy_run(g, pol[done], &ctx, &runs[done], err, sizeof err)) goto fail;
        if (!base && pol[done] == policy_baseline()) base = &runs[done];
    }
    if (npl) {
        arena = malloc((size_t)npol * (size_t)npl * sizeof *arena);
        if (!arena) {
            snprintf(err, sizeof err, "out of memory");
            goto fail;
        }
        for (int i = 0; i < npol; i++)
            for (int j = 0; j < npl; j++) {
                placement pl;
                if ((status = cli_place("compare", g, &runs[i], pol[i], plc[j], align, &ctx, &pl)))
                    goto out;
                arena[i * npl + j] = pl.arena;
                place_free(&pl);
            }
    }
    if (!base) {
        if (policy_run(g, policy_baseline(), &ctx, &own, err, sizeof err)) goto fail;
        have_own = 1;
        base = &own;
    }

    /* Each order's makespan on the graph's streams. */
    double span[MAX_POLICIES];
    for (int i = 0; i < npol; i++) {
        timeline t;
        if ((status = cli_timeline(g, &runs[i], &t))) goto out;
        span[i] = t.makespan;
        timeline_free(&t);
    }

    /* With placers: for each, the policy whose schedule places smallest and
     * the one with the least live peak (the first in the list on ties). */
    int least_arena[MAX_PLACERS], least_peak = 0;
    for (int i = 1; i < npol; i++)
        if (runs[i].peak < runs[least_peak].peak) least_peak = i;
    for (int j = 0; j < npl; j++) {
        least_arena[j] = 0;
        for (int i = 1; i < npol; i++)
            if (arena[i * npl + j] < arena[least_arena[j] * npl + j]) least_arena[j] = i;
    }

    /* The bound every run is proven against; the optimum when one reaches it. */
    int64_t lb = cli_prove(g, runs, npol), opt = -1;
    for (int i = 0; i < npol; i++)
        if (runs[i].optimal) opt = runs[i].peak;
    char a[32], b[32], r[32], vo[32];
    if (format == CLI_JSON) {
        printf("{\"graph\": ");
        json_string(stdout, g->source);
        printf(", \"lower_bound\": %" PRId64 ", \"optimum\": ", lb);
        if (opt >= 0) printf("%" PRId64, opt);
        else printf("null");
        printf(", \"results\": [");
        for (int i = 0; i < npol; i++) {
            ratio(r, sizeof r, runs[i].peak, base->peak);
            printf("%s{\"policy\": ", i ? ", " : "");
            json_string(stdout, pol[i]->name);
            printf(", \"peak\": %" PRId64 ", \"steps\": %" PRIu32 ", \"vs_fifo\": %s", runs[i].peak,
                   runs[i].n, r);
            if (opt >= 0) ratio(vo, sizeof vo, runs[i].peak, opt);
            printf(", \"vs_optimum\": %s, \"proven_optimal\": %s", opt >= 0 ? vo : "null",
                   runs[i].optimal ? "true" : "false");
            if (runs[i].found_by) {
                printf(", \"found_by\": ");
                json_string(stdout, runs[i].found_by->name);
            }
            uint32_t d = policy_diverge(base, &runs[i]);
            printf(", \"peak_step\": %" PRIu32 ", \"diverges_at\": ", runs[i].peak_step);
            if (&runs[i] == base || d == g->n) printf("null");
            else printf("%" PRIu32, d + 1);
            printf(", \"makespan\": ");
            cli_json_ms(stdout, span[i]);
            if (npl) {
                printf(", \"arenas\": {");
                for (int j = 0; j < npl; j++) {
                    if (j) printf(", ");
                    json_string(stdout, plc[j]->name);
                    printf(": %" PRId64, arena[i * npl + j]);
                }
                printf("}");
            }
            printf("}");
        }
        printf("]");
        if (npl) {
            printf(", \"least_arena\": {");
            for (int j = 0; j < npl; j++) {
                if (j) printf(", ");
                json_string(stdout, plc[j]->name);
                printf(": ");
                json_string(stdout, pol[least_arena[j]]->name);
            }
            printf("}");
        }
        printf("}\n");
    } else if (format == CLI_CSV) {
        printf("policy,peak,peak_step,vs_fifo,diverges_at,vs_optimum,proven_optimal,makespan_ms");
        for (int j = 0; j < npl; j++) printf(",arena_%s", plc[j]->name);
        printf("\n");
        for (int i = 0; i < npol; i++) {
            ratio(r, sizeof r, runs[i].peak, base->peak);
            uint32_t d = policy_diverge(base, &runs[i]);
            printf("%s,%" PRId64 ",%" PRIu32 ",%s,", pol[i]->name, runs[i].peak, runs[i].peak_step,
                   strcmp(r, "null") ? r : "");
            if (&runs[i] != base && d < g->n) printf("%" PRIu32, d + 1);
            if (opt >= 0) ratio(vo, sizeof vo, runs[i].peak, opt);
            printf(",%s,%s,", opt >= 0 ? vo : "", runs[i].optimal ? "true" : "false");
            cli_json_ms(stdout, span[i]);
            for (int j = 0; j < npl; j++) printf(",%" PRId64, arena[i * npl + j]);
            printf("\n");
        }
    } else {
        printf("%s: %u nodes, %u edges, %u buffers\n", g->source, g->n, g->nedges, g->nbufs);
        printf("%-10s  %12s", "policy", "peak");
        for (int j = 0; j < npl; j++) printf("  %*s", col_width(plc[j]), plc[j]->name);
        printf("  %10s  %8s  %-22s  %-10s  %10s  %s\n", "peak step", "vs fifo", "saving vs fifo",
               "vs optimum", "makespan", "order vs fifo");
        for (int i = 0; i < npol; i++) {
            const run *x = &runs[i];
            int64_t save = base->peak - x->peak;
            char saving[64], div[64];
            int is_base = x == base;
            if (is_base) snprintf(saving, sizeof saving, "(baseline)");
            else if (base->peak > 0)
                snprintf(saving, sizeof saving, "%.1f%% (%s)",
                         100.0 * (double)save / (double)base->peak,
                         units_bytes(b, sizeof b, save, 0));
            else snprintf(saving, sizeof saving, "-");
            uint32_t d = policy_diverge(base, x);
            if (is_base) snprintf(div, sizeof div, "-");
            else if (d == g->n) snprintf(div, sizeof div, "same order");
            else snprintf(div, sizeof div, "differs from step %" PRIu32, d + 1);
            if (base->peak > 0) snprintf(r, sizeof r, "%.3f", (double)x->peak / (double)base->peak);
            else snprintf(r, sizeof r, "-");
            printf("%-10s  %12s", pol[i]->name, units_bytes(a, sizeof a, x->peak, 0));
            for (int j = 0; j < npl; j++)
                printf("  %*s", col_width(plc[j]), units_bytes(b, sizeof b, arena[i * npl + j], 0));
            if (x->optimal) snprintf(vo, sizeof vo, "optimal");
            else if (opt > 0)
                snprintf(vo, sizeof vo, "+%.1f%%", 100.0 * (double)(x->peak - opt) / (double)opt);
            else snprintf(vo, sizeof vo, "-");
            char ms[24];
            printf("  %10" PRIu32 "  %8s  %-22s  %-10s  %10s  %s\n", x->peak_step, r, saving, vo,
                   units_ms(ms, sizeof ms, span[i]), div);
        }
        if (opt >= 0)
            printf("optimum %s: no order peaks lower (proven)\n", units_bytes(a, sizeof a, opt, 0));
        else
            printf("no optimum proven; no order peaks below %s (add exact: --policies all)\n",
                   units_bytes(a, sizeof a, lb, 0));
        for (int i = 0; i < npol; i++)
            if (runs[i].found_by)
                printf("%s: the order of %s\n", pol[i]->name, runs[i].found_by->name);
        if (npl)
            printf("the %s: the arena a placer needs for that policy's schedule (align %s)\n",
                   npl == 1 ? "column after peak" : "columns after peak",
                   units_bytes(a, sizeof a, align, 0));
        for (int j = 0; j < npl; j++) {
            int w = least_arena[j];
            printf("least arena with %s: %s's schedule (%s)", plc[j]->name, pol[w]->name,
                   units_bytes(a, sizeof a, arena[w * npl + j], 0));
            if (arena[least_peak * npl + j] > arena[w * npl + j])
                printf("; %s, the least live peak, places in %s", pol[least_peak]->name,
                       units_bytes(b, sizeof b, arena[least_peak * npl + j], 0));
            printf("\n");
        }
        for (int i = 0; i < npol; i++) {
            uint32_t d = policy_diverge(base, &runs[i]);
            if (d == g->n || pol[i] == policy_baseline()) continue;
            printf("step %" PRIu32 ": %s pops node %" PRId64 ", %s pops node %" PRId64 "\n", d + 1,
                   policy_baseline()->name, g->id[base->order[d]], pol[i]->name,
                   g->id[runs[i].order[d]]);
        }
    }
    goto out;
fail:
    fprintf(stderr, "%s: error: %s\n", g->source, err);
    status = EXIT_BAD;
out:
    free(arena);
    for (int i = 0; i < done; i++) policy_run_free(&runs[i]);
    if (have_own) policy_run_free(&own);
    graph_free(g);
    return status; /* cli_main checks that standard output was written */
}
