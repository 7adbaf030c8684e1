/* cmd_validate.c: "memtris validate": every error and warning, then a summary. */
#include <inttypes.h>
#include "cli.h"
#include "cli_cmds.h"
#include "cli_opts.h"
#include "util/units.h"
#include "util/utf8.h"

static const char help[] =
    "Usage: memtris validate FILE\n"
    "Check a graph: JSON syntax, fields, ids, buffers, edges, cycles and that every\n"
    "FREE depends on its ALLOC. Errors and warnings go to standard error; a valid\n"
    "graph gets a summary on standard output. Exit status 1 if there are errors.\n"
    "\n"
    "  -h, --help   show this help and exit\n";

int cmd_validate(int argc, char **argv)
{
    static const cli_opts opts = {"validate", "", NULL, help, NULL};
    int c, status;
    while ((c = cli_opt(&opts, argc, argv, &status)) >= 0) {} /* it has no options of its own */
    if (c == CLI_OPT_STOP) return status;
    const char *file = cli_file("validate", argc, argv);
    if (!file) return EXIT_USAGE;
    graph *g = cli_load(file, 0);
    if (!g) return EXIT_BAD;

    uint32_t nalloc = 0, nfree = 0;
    for (uint32_t i = 0; i < g->n; i++) {
        nalloc += g->kind[i] == NODE_ALLOC;
        nfree += g->kind[i] == NODE_FREE;
    }
    int64_t total = 0;
    int over = 0;
    uint32_t big = GRAPH_NONE;
    for (uint32_t b = 0; b < g->nbufs; b++) {
        if (__builtin_add_overflow(total, g->buf_size[b], &total)) over = 1;
        if (big == GRAPH_NONE || g->buf_size[b] > g->buf_size[big]) big = b;
    }
    char a[32], src[1024];
    printf("%s: valid\n", utf8_printable(g->source, src, sizeof src));
    printf("  nodes      %" PRIu32 " (%" PRIu32 " ALLOC, %" PRIu32 " FREE, %" PRIu32 " compute)\n",
           g->n, nalloc, nfree, g->n - nalloc - nfree);
    printf("  edges      %" PRIu32 "\n", g->nedges);
    printf("  buffers    %" PRIu32 "\n", g->nbufs);
    if (over) {
        printf("  allocated  more than 2^63-1 bytes in all\n");
        cli_eprintf(
            "%s: warning: the ALLOCs add up to more than 2^63-1 bytes; a schedule that keeps "
            "enough of them live at once cannot be accounted (schedule and compare say which)\n",
            g->source);
    } else
        printf("  allocated  %s (%" PRId64 " bytes)\n", units_bytes(a, sizeof a, total, 0), total);
    if (big != GRAPH_NONE)
        printf("  largest    buffer %" PRId64 ", %s (%" PRId64 " bytes), ALLOC node %" PRId64 "\n",
               g->buf_id[big], units_bytes(a, sizeof a, g->buf_size[big], 0), g->buf_size[big],
               g->id[g->buf_alloc[big]]);
    graph_free(g);
    return EXIT_OK; /* cli_main checks that standard output was written */
}
