/* cmd_gen.c: "memtris gen": writes a synthetic graph of a given kind, node
 * count and seed as memtris JSON, or a placement problem of known optimum
 * (packing) as a graph or MiniMalloc's CSV, to standard output or a file. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "cli_cmds.h"
#include "cli_opts.h"
#include "cli_plan.h"
#include "cli_progress.h"
#include "sched/gen/gen.h"

static void print_help(void)
{
    fputs("Usage: memtris gen KIND [--nodes N] [--seed S] [--streams N] [-o FILE]\n"
          "       memtris gen packing [-n N] [--seed S] [--capacity B] [--format json|csv]\n"
          "                           [-o FILE]\n"
          "Write a synthetic graph of exactly N nodes as memtris JSON; the same KIND, N\n"
          "and S give the same bytes on every machine. Each op has one ALLOC per output\n"
          "(ready when the op could run), a compute node listing its buffers in Inputs,\n"
          "and a FREE after the buffer's last reader; the network input is an ALLOC and\n"
          "an Input node, the final output is freed after an Output node. Every compute\n"
          "node has a Latency: the bytes of its Inputs at 100 GB/s, times a jitter in\n"
          "[0.5, 1.5) drawn from the seed, in ms with six decimals.\n"
          "\n"
          "Kinds:\n",
          stdout);
    for (size_t i = 0; gen_kind_at(i); i++) {
        const gen_kind *k = gen_kind_at(i);
        printf("  %-12s %s; N >= %" PRIu32 "\n", k->name, k->desc, k->min_nodes);
    }
    printf("  %-12s %s;\n"
           "               N buffers, N >= 1\n",
           GEN_PACKING_NAME, GEN_PACKING_DESC);
    printf("\n"
           "  -n, --nodes N        exactly N nodes, at most %u (default 1000)\n"
           "  -s, --seed S         the seed, an integer from 0 to 2^64-1 (default 1)\n"
           "      --streams N      spread compute nodes over streams 0..N-1 by the fork\n"
           "                       rule, N from 1 to %u (default 1: no Stream field)\n"
           "  -c, --capacity B     packing: the capacity in bytes, from 1 to 2^53-1\n"
           "                       (default %" PRId64 ")\n"
           "  -f, --format FMT     packing: json (default), a memtris graph, or csv,\n"
           "                       google/minimalloc's CSV with the known packing's offsets\n"
           "  -o, --output FILE    write to FILE; '-' or none: standard output\n"
           "  -h, --help           show this help and exit\n"
           "  -V, --version        show the version and exit\n"
           "\n"
           "train is one SGD training step in PyTorch's order (memtris schedule -p given\n"
           "runs it as written): weights allocated before the Input node and freed after\n"
           "Output, a forward chain with branches and skips, a loss, the backward in\n"
           "reverse with the gradients, one update per weight; a Category on every ALLOC\n"
           "and a Phase on every compute node (memtris(1), GENERATED GRAPHS).\n"
           "\n"
           "packing cuts a capacity x time rectangle (time 0 to 2N) in two at random, one\n"
           "of its pieces again, and so on until there are N pieces; each piece is a buffer\n"
           "(its height the size, its time span the lifetime), so the live bytes at every\n"
           "time are the capacity and the smallest arena is exactly the capacity. The graph\n"
           "is a chain of ALLOC and FREE nodes in time order, as 'memtris place' makes of\n"
           "the CSV, so every policy gives the same schedule. The CSV's offset column is the\n"
           "rectangle's own packing.\n"
           "\n"
           "The fork rule (--streams, as tools/assign_streams.py): walking the compute\n"
           "nodes in order, a node continues the stream of a compute predecessor whose\n"
           "first compute consumer it is (of several, the oldest line: stream 0's first,\n"
           "then side branches in the order they forked); a node that is no such first\n"
           "consumer is a side branch of a fork: a new line, on the next of streams\n"
           "1..N-1 in turn; a node with no compute predecessor is on stream 0.\n"
           "\n"
           "Example: memtris gen random --nodes 100000 --seed 7 -o random.json\n"
           "         memtris gen train -n 1000000 | memtris schedule -p given -\n"
           "         memtris gen packing -n 300 --seed 2 --format csv -o p300.csv\n",
           GEN_MAX_NODES, GEN_MAX_STREAMS, GEN_PACKING_CAPACITY);
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
    int err;      /* errno of the first failed write */
    size_t bytes; /* written so far: the progress line, each MiB */
} sink;

static int write_sink(void *ctx, const char *data, size_t len)
{
    sink *s = ctx;
    if ((s->bytes + len) >> 20 != s->bytes >> 20)
        cli_progress("gen: %zu MiB written", (s->bytes + len) >> 20);
    s->bytes += len;
    if (fwrite(data, 1, len, s->f) == len) return 0;
    s->err = errno ? errno : EIO;
    return -1;
}

/* The kinds, "chain, branch, ..., packing", into out of cap bytes. */
static const char *kind_list(char *out, size_t cap)
{
    size_t n = 0;
    out[0] = 0;
    for (size_t i = 0; gen_kind_at(i) && n < cap; i++)
        n += (size_t)snprintf(out + n, cap - n, "%s, ", gen_kind_at(i)->name);
    if (n < cap) snprintf(out + n, cap - n, "%s", GEN_PACKING_NAME);
    return out;
}

/* gen packing: writes the problem as a graph or CSV to o. */
static int write_packing(cli_out *o, uint32_t n, int64_t capacity, uint64_t seed, int csv)
{
    char err[256] = "";
    problem *p = gen_packing(n, capacity, seed, err, sizeof err);
    if (!p) {
        cli_eprintf("memtris gen: %s\n", err);
        cli_out_abandon(o);
        return EXIT_BAD;
    }
    int failed = csv ? problem_write_csv(p, p->offset, cli_write_file, o->f)
                     : problem_write_graph(p, cli_write_file, o->f, err, sizeof err);
    problem_free(p);
    if (failed && !ferror(o->f)) {
        cli_eprintf("memtris gen: %s\n", err[0] ? err : "out of memory");
        cli_out_abandon(o);
        return EXIT_BAD;
    }
    return cli_out_close(o, failed ? (errno ? errno : EIO) : 0);
}

int cmd_gen(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"nodes", required_argument, 0, 'n'},
        {"seed", required_argument, 0, 's'},
        {"output", required_argument, 0, 'o'},
        {"capacity", required_argument, 0, 'c'},
        {"format", required_argument, 0, 'f'},
        {"streams", required_argument, 0, 'S'},
        {0, 0, 0, 0},
    };
    static const cli_opts opts = {"gen", "n:s:o:c:f:", longopts, NULL, print_help};
    char kinds[256];
    const char *nodes_arg = NULL, *seed_arg = NULL, *path = "-", *cap_arg = NULL, *fname = NULL,
               *streams_arg = NULL;
    int c, status;
    while ((c = cli_opt(&opts, argc, argv, &status)) >= 0) {
        switch (c) {
        case 'n': nodes_arg = optarg; break;
        case 's': seed_arg = optarg; break;
        case 'o': path = optarg; break;
        case 'c': cap_arg = optarg; break;
        case 'f': fname = optarg; break;
        case 'S': streams_arg = optarg; break;
        }
    }
    if (c == CLI_OPT_STOP) return status;
    if (optind != argc - 1) {
        if (optind == argc)
            return cli_usage_error("gen", "missing KIND (one of: %s)",
                                   kind_list(kinds, sizeof kinds));
        return cli_usage_error("gen", "expected one KIND, got %d arguments", argc - optind);
    }
    const gen_kind *k = gen_kind_find(argv[optind]);
    int packing = !k && !strcmp(argv[optind], GEN_PACKING_NAME);
    if (!k && !packing)
        return cli_usage_error("gen", "unknown kind '%s' (known: %s)", argv[optind],
                               kind_list(kinds, sizeof kinds));
    if (!packing && (cap_arg || fname))
        return cli_usage_error("gen", "--%s is for kind '%s' only", cap_arg ? "capacity" : "format",
                               GEN_PACKING_NAME);
    if (packing && streams_arg)
        return cli_usage_error("gen",
                               "--streams is for graph kinds, not '%s' (it has no compute "
                               "nodes)",
                               GEN_PACKING_NAME);
    uint64_t nodes = 1000, seed = 1, capacity = (uint64_t)GEN_PACKING_CAPACITY, streams = 1;
    if (nodes_arg && (parse_u64(nodes_arg, UINT64_MAX, &nodes) || nodes == 0))
        return cli_usage_error("gen", "--nodes wants a positive integer, not '%s'", nodes_arg);
    uint32_t most = packing ? GEN_MAX_NODES / 2 : GEN_MAX_NODES;
    if (nodes > most)
        return cli_usage_error("gen", "--nodes %s is too large: at most %u", nodes_arg, most);
    if (!packing && nodes < k->min_nodes)
        return cli_usage_error("gen", "kind '%s' needs --nodes %" PRIu32 " or more, not %" PRIu64,
                               k->name, k->min_nodes, nodes);
    if (seed_arg && parse_u64(seed_arg, UINT64_MAX, &seed))
        return cli_usage_error("gen", "--seed wants an integer from 0 to 2^64-1, not '%s'",
                               seed_arg);
    if (cap_arg && (parse_u64(cap_arg, (uint64_t)GRAPH_MAX_SIZE, &capacity) || capacity == 0))
        return cli_usage_error("gen", "--capacity wants an integer from 1 to 2^53-1, not '%s'",
                               cap_arg);
    if (streams_arg && (parse_u64(streams_arg, GEN_MAX_STREAMS, &streams) || streams == 0))
        return cli_usage_error("gen", "--streams wants an integer from 1 to %u, not '%s'",
                               GEN_MAX_STREAMS, streams_arg);
    int format = fname ? cli_format("gen", fname, (1u << CLI_JSON) | (1u << CLI_CSV)) : CLI_JSON;
    if (format < 0) return EXIT_USAGE;
    if ((status = cli_out_check("gen", "-o", path))) return status;

    cli_out out;
    if (cli_out_open(&out, "gen", path)) return EXIT_BAD;
    out.stdout_name = "standard output"; /* as cli_main says it */
    if (packing)
        return write_packing(&out, (uint32_t)nodes, (int64_t)capacity, seed, format == CLI_CSV);
    char err[256] = "";
    sink s = {out.f, 0, 0};
    cli_progress("gen: making %" PRIu64 " nodes of %s...", nodes, k->name);
    gen_graph *g = gen_build(k, (uint32_t)nodes, seed, err, sizeof err);
    int failed = !g || gen_emit_streams(g, (uint32_t)streams, write_sink, &s, err, sizeof err);
    cli_progress_clear();
    gen_free(g);
    if (failed && !s.err) {
        cli_eprintf("memtris gen: %s\n", err);
        cli_out_abandon(&out);
        return EXIT_BAD;
    }
    return cli_out_close(&out, s.err);
}
