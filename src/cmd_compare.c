/* cmd_compare.c: "memtris compare": peaks of several policies on one graph,
 * with the saving against fifo and where the orders first differ. */
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "sched/units.h"

#define MAX_POLICIES 16

static const char help[] =
    "Usage: memtris compare FILE [--policies NAME,NAME...] [--format text|json]\n"
    "Run several policies over the graph and compare their peak live memory.\n"
    "\n"
    "  -P, --policies LIST  comma-separated policies (default: all, fifo first)\n"
    "  -f, --format FMT     text (default) or json\n"
    "  -h, --help           show this help and exit\n"
    "\n"
    "JSON: {\"graph\", \"results\": [{\"policy\", \"peak\", \"steps\", \"vs_fifo\"}, ...]}\n"
    "vs_fifo is peak / fifo's peak (null when fifo's peak is 0 and this one's is not).\n";

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

static void ratio(char *out, size_t cap, int64_t peak, int64_t base)
{
    if (base > 0) snprintf(out, cap, "%.6f", (double)peak / (double)base);
    else snprintf(out, cap, peak == 0 ? "1.000000" : "null");
}

int cmd_compare(int argc, char **argv)
{
    static const struct option opts[] = {
        {"policies", required_argument, 0, 'P'},
        {"format", required_argument, 0, 'f'},
        {"help", no_argument, 0, 'h'}, {"version", no_argument, 0, 'V'},
        {0, 0, 0, 0},
    };
    const policy *pol[MAX_POLICIES];
    int npol = 0, c;
    char *list = NULL;
    const char *format = "text";
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":P:f:hV", opts, NULL)) != -1) {
        switch (c) {
        case 'P': list = optarg; break;
        case 'f': format = optarg; break;
        case 'h': fputs(help, stdout); return EXIT_OK;
        case 'V': return cli_version();
        case ':': return cli_usage_error("compare", "option '%s' needs a value", argv[optind - 1]);
        default: return cli_usage_error("compare", "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind != argc - 1)
        return cli_usage_error("compare", optind == argc ? "missing FILE" : "expected one FILE, got %d",
                               argc - optind);
    if (strcmp(format, "text") && strcmp(format, "json"))
        return cli_usage_error("compare", "unknown format '%s' (text or json)", format);
    if (list) {
        char *copy = strdup(list);
        npol = copy ? parse_list(copy, pol) : -1;
        free(copy);
        if (npol < 0) return EXIT_USAGE;
    } else {
        for (size_t i = 0; policy_at(i) && npol < MAX_POLICIES; i++) pol[npol++] = policy_at(i);
    }

    graph *g = cli_load(argv[optind], 0);
    if (!g) return EXIT_BAD;
    run runs[MAX_POLICIES], own;   /* own: fifo's run when fifo is not in the list */
    const run *base = NULL;
    int have_own = 0;
    char err[256];
    int status = EXIT_OK, done = 0;
    for (; done < npol; done++) {
        if (policy_run(g, pol[done], &runs[done], err, sizeof err)) goto fail;
        if (!base && !strcmp(pol[done]->name, "fifo")) base = &runs[done];
    }
    if (!base) {
        if (policy_run(g, policy_find("fifo"), &own, err, sizeof err)) goto fail;
        have_own = 1;
        base = &own;
    }

    char a[32], b[32], r[32];
    if (!strcmp(format, "json")) {
        printf("{\"graph\": ");
        cli_json_string(stdout, g->source);
        printf(", \"results\": [");
        for (int i = 0; i < npol; i++) {
            ratio(r, sizeof r, runs[i].peak, base->peak);
            printf("%s{\"policy\": ", i ? ", " : "");
            cli_json_string(stdout, pol[i]->name);
            printf(", \"peak\": %" PRId64 ", \"steps\": %" PRIu32 ", \"vs_fifo\": %s}",
                   runs[i].peak, runs[i].n, r);
        }
        printf("]}\n");
    } else {
        printf("%s: %u nodes, %u edges, %u buffers\n", g->source, g->n, g->nedges, g->nbufs);
        printf("%-10s  %12s  %10s  %8s  %-22s  %s\n", "policy", "peak", "peak step", "vs fifo",
               "saving vs fifo", "order vs fifo");
        for (int i = 0; i < npol; i++) {
            const run *x = &runs[i];
            int64_t save = base->peak - x->peak;
            char saving[64], div[64];
            int is_base = x == base;
            if (is_base)
                snprintf(saving, sizeof saving, "(baseline)");
            else if (base->peak > 0)
                snprintf(saving, sizeof saving, "%.1f%% (%s)", 100.0 * (double)save / (double)base->peak,
                         units_bytes(b, sizeof b, save, 0));
            else
                snprintf(saving, sizeof saving, "-");
            uint32_t d = policy_diverge(base, x);
            if (is_base) snprintf(div, sizeof div, "-");
            else if (d == g->n) snprintf(div, sizeof div, "same order");
            else snprintf(div, sizeof div, "differs from step %" PRIu32, d + 1);
            if (base->peak > 0) snprintf(r, sizeof r, "%.3f", (double)x->peak / (double)base->peak);
            else snprintf(r, sizeof r, "-");
            printf("%-10s  %12s  %10" PRIu32 "  %8s  %-22s  %s\n", pol[i]->name,
                   units_bytes(a, sizeof a, x->peak, 0), x->peak_step, r, saving, div);
        }
        for (int i = 0; i < npol; i++) {
            uint32_t d = policy_diverge(base, &runs[i]);
            if (d == g->n || !strcmp(pol[i]->name, "fifo")) continue;
            printf("step %" PRIu32 ": fifo pops node %" PRId64 ", %s pops node %" PRId64 "\n", d + 1,
                   g->id[base->order[d]], pol[i]->name, g->id[runs[i].order[d]]);
        }
    }
    goto out;
fail:
    fprintf(stderr, "%s: error: %s\n", g->source, err);
    status = EXIT_BAD;
out:
    for (int i = 0; i < done; i++) policy_run_free(&runs[i]);
    if (have_own) policy_run_free(&own);
    graph_free(g);
    if (fflush(stdout)) status = EXIT_BAD;
    return status;
}
