/* cmd_gen.c: "memtris gen": writes a synthetic graph of a given kind, node
 * count and seed as memtris JSON, to standard output or a file. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "sched/gen.h"

static void print_help(void)
{
    fputs("Usage: memtris gen KIND [--nodes N] [--seed S] [-o FILE]\n"
          "Write a synthetic graph of exactly N nodes as memtris JSON; the same KIND, N\n"
          "and S give the same bytes on every machine. Each op has one ALLOC per output\n"
          "(ready when the op could run), a compute node listing its buffers in Inputs,\n"
          "and a FREE after the buffer's last reader; the network input is an ALLOC and\n"
          "an Input node, the final output is freed after an Output node.\n"
          "\n"
          "Kinds:\n",
          stdout);
    for (size_t i = 0; gen_kind_at(i); i++) {
        const gen_kind *k = gen_kind_at(i);
        printf("  %-12s %s; N >= %" PRIu32 "\n", k->name, k->desc, k->min_nodes);
    }
    printf("\n"
           "  -n, --nodes N        exactly N nodes, at most %u (default 1000)\n"
           "  -s, --seed S         the seed, an integer from 0 to 2^64-1 (default 1)\n"
           "  -o, --output FILE    write to FILE; '-' or none: standard output\n"
           "  -h, --help           show this help and exit\n"
           "  -V, --version        show the version and exit\n"
           "\n"
           "Example: memtris gen random --nodes 100000 --seed 7 -o random.json\n",
           GEN_MAX_NODES);
}

/* Parses a decimal integer of digits only (no sign, no spaces) up to max. */
static int parse_u64(const char *s, uint64_t max, uint64_t *out)
{
    if (!*s) return -1;
    uint64_t v = 0;
    for (; *s; s++) {
        if (*s < '0' || *s > '9') return -1;
        unsigned d = (unsigned)(*s - '0');
        if (v > (max - d) / 10) return -1;
        v = v * 10 + d;
    }
    *out = v;
    return 0;
}

typedef struct sink {
    FILE *f;
    int err; /* errno of the first failed write */
} sink;

static int write_sink(void *ctx, const char *data, size_t len)
{
    sink *s = ctx;
    if (fwrite(data, 1, len, s->f) == len) return 0;
    s->err = errno ? errno : EIO;
    return -1;
}

static void kind_list(FILE *f)
{
    for (size_t i = 0; gen_kind_at(i); i++) fprintf(f, "%s%s", i ? ", " : "", gen_kind_at(i)->name);
}

int cmd_gen(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"nodes", required_argument, 0, 'n'},
        {"seed", required_argument, 0, 's'},
        {"output", required_argument, 0, 'o'},
        {0, 0, 0, 0},
    };
    static const cli_opts opts = {"gen", "n:s:o:", longopts, NULL, print_help};
    const char *nodes_arg = NULL, *seed_arg = NULL, *path = "-";
    int c, status;
    while ((c = cli_opt(&opts, argc, argv, &status)) >= 0) {
        switch (c) {
        case 'n': nodes_arg = optarg; break;
        case 's': seed_arg = optarg; break;
        case 'o': path = optarg; break;
        }
    }
    if (c == CLI_OPT_STOP) return status;
    if (optind != argc - 1) {
        if (optind == argc) {
            fprintf(stderr, "memtris gen: missing KIND (one of: ");
            kind_list(stderr);
            fprintf(stderr, ")\nTry 'memtris gen --help'.\n");
            return EXIT_USAGE;
        }
        return cli_usage_error("gen", "expected one KIND, got %d arguments", argc - optind);
    }
    const gen_kind *k = gen_kind_find(argv[optind]);
    if (!k) {
        fprintf(stderr, "memtris gen: unknown kind '%s'; kinds: ", argv[optind]);
        kind_list(stderr);
        fprintf(stderr, "\nTry 'memtris gen --help'.\n");
        return EXIT_USAGE;
    }
    uint64_t nodes = 1000, seed = 1;
    if (nodes_arg && (parse_u64(nodes_arg, UINT64_MAX, &nodes) || nodes == 0))
        return cli_usage_error("gen", "--nodes wants a positive integer, not '%s'", nodes_arg);
    if (nodes > GEN_MAX_NODES)
        return cli_usage_error("gen", "--nodes %s is too large: at most %u", nodes_arg,
                               GEN_MAX_NODES);
    if (nodes < k->min_nodes)
        return cli_usage_error("gen", "kind '%s' needs --nodes %" PRIu32 " or more, not %" PRIu64,
                               k->name, k->min_nodes, nodes);
    if (seed_arg && parse_u64(seed_arg, UINT64_MAX, &seed))
        return cli_usage_error("gen", "--seed wants an integer from 0 to 2^64-1, not '%s'",
                               seed_arg);

    cli_out out;
    if (cli_out_open(&out, "gen", path)) return EXIT_BAD;
    out.stdout_name = "standard output"; /* as cli_main says it */
    char err[256] = "";
    sink s = {out.f, 0};
    if (gen_write(k, (uint32_t)nodes, seed, write_sink, &s, err, sizeof err) && !s.err) {
        fprintf(stderr, "memtris gen: %s\n", err);
        cli_out_abandon(&out);
        return EXIT_BAD;
    }
    return cli_out_close(&out, s.err);
}
