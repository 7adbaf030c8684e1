/* fuzz_write.c: libFuzzer harness of the plan writers at the edges of the
 * byte counts. The input is a placement problem whose numbers are drawn
 * near 0, 2^31, 2^32, 2^53 and (with many buffers live at once) 2^63, an
 * alignment and a placer; the problem is written as MiniMalloc's CSV and
 * read back (the same rows), placed as place places it, and the plan is
 * written in every format plan and place write, as both commands, and as
 * SVG. Every writer must answer 0 or 1 (an error naming the buffer, its file
 * absent); UBSan (no recovery) catches any wrapped sum; a snapshot written
 * has every block's end within 2^63-1; what minimalloc and place's CSV write
 * must read back as the plan's rows.
 *
 * Input: byte 0 the alignment (2^(b % 31)), byte 1 the placer (a fast one),
 * then rows of 5 bytes: lower, length, size (each an index into a table of
 * edges, plus a small step), a repeat count (the row repeated up to 1024
 * times under other ids) and flags (never freed: upper at the end of time).
 * Exports LLVMFuzzerTestOneInput and LLVMFuzzerInitialize. */
#define _GNU_SOURCE
#include <stdlib.h>
#include "cli/cli_job.h"
#include "cli/cli_opts.h"
#include "cli/cli_plan.h"
#include "fuzz_util.h"

#define MAX_ROWS 2048

static char dir[256], path[300];
static FILE *null_err;

static void remove_dir(void)
{
    unlink(path);
    rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    /* Every file is synced before its rename (atomic_out): on a tmpfs that
     * costs nothing, elsewhere it is most of an input's time. */
    const char *t = getenv("TMPDIR");
    if (access("/dev/shm", W_OK) == 0) t = "/dev/shm";
    snprintf(dir, sizeof dir, "%s/memtris-fuzz-write.XXXXXX", t && *t ? t : "/tmp");
    FUZZ_CHECK(mkdtemp(dir) != NULL, "mkdtemp %s", dir);
    snprintf(path, sizeof path, "%s/out", dir);
    atexit(remove_dir);
    /* Messages (an error naming the buffer) are not what is checked: the
     * stderr FILE points here while memtris runs (libFuzzer and the
     * sanitizers write to file descriptor 2 still). */
    null_err = fopen("/dev/null", "w");
    FUZZ_CHECK(null_err != NULL, "/dev/null");
    return 0;
}

static const int64_t edges[] = {0,
                                1,
                                2,
                                4096,
                                ((int64_t)1 << 31) - 1,
                                (int64_t)1 << 31,
                                (int64_t)1 << 32,
                                (int64_t)1 << 52,
                                GRAPH_MAX_SIZE - 1024,
                                GRAPH_MAX_SIZE - 1,
                                GRAPH_MAX_SIZE};
#define NEDGES (sizeof edges / sizeof edges[0])

/* An edge plus or minus a little, within 0..GRAPH_MAX_SIZE. */
static int64_t edge(unsigned byte)
{
    int64_t v = edges[(byte >> 3) % NEDGES], d = (int64_t)(byte & 7) - 3;
    v += d;
    return v < 0 ? 0 : v > GRAPH_MAX_SIZE ? GRAPH_MAX_SIZE : v;
}

static const char *const placers[] = {
    "first-fit", "best-fit", "pool", "coloring", "greedy-size", "xla", "greedy-conflicts"};

/* The problem of the input, with ids r0, r1, ...; NULL when it has no row. */
static problem *decode(fuzz_in *in)
{
    problem *p = calloc(1, sizeof *p);
    FUZZ_CHECK(p != NULL, "out of memory");
    p->max_align = 1;
    p->pool = malloc(MAX_ROWS * 8);
    p->id = malloc(MAX_ROWS * sizeof *p->id);
    p->lower = malloc(MAX_ROWS * sizeof *p->lower);
    p->upper = malloc(MAX_ROWS * sizeof *p->upper);
    p->size = malloc(MAX_ROWS * sizeof *p->size);
    FUZZ_CHECK(p->pool && p->id && p->lower && p->upper && p->size, "out of memory");
    size_t plen = 0;
    while (in->n >= 5 && p->n < MAX_ROWS) {
        int64_t lo = edge(fuzz_byte(in)), len = edge(fuzz_byte(in)), size = edge(fuzz_byte(in));
        unsigned rep = fuzz_byte(in), flags = fuzz_byte(in);
        rep = rep < 200 ? 1 : 1u << (rep % 11); /* up to 1024 copies */
        if (lo >= GRAPH_MAX_SIZE) lo = GRAPH_MAX_SIZE - 1;
        int64_t up = (flags & 1) || len > GRAPH_MAX_SIZE - lo ? GRAPH_MAX_SIZE : lo + len;
        if (up <= lo) up = lo + 1;
        for (unsigned k = 0; k < rep && p->n < MAX_ROWS; k++) {
            p->id[p->n] = plen;
            plen += (size_t)snprintf(p->pool + plen, 8, "r%u", p->n) + 1;
            p->lower[p->n] = lo;
            p->upper[p->n] = up;
            p->size[p->n] = size;
            p->n++;
        }
    }
    if (!p->n) {
        problem_free(p);
        return NULL;
    }
    return p;
}

typedef struct membuf {
    char *p;
    size_t len;
} membuf;

static int mem_write(void *ctx, const char *data, size_t len)
{
    membuf *m = ctx;
    char *a = realloc(m->p, m->len + len + 1);
    FUZZ_CHECK(a != NULL, "out of memory");
    memcpy(a + m->len, data, len);
    m->p = a;
    m->len += len;
    return 0;
}

/* p written as CSV (with offsets) and parsed back: the same rows. */
static void check_csv(const problem *p, const int64_t *off)
{
    membuf m = {0};
    FUZZ_CHECK(problem_write_csv(p, off, mem_write, &m) == 0, "problem_write_csv");
    diag d;
    diag_init(&d, "fuzz.csv");
    problem *q = problem_parse(m.p, m.len, &d);
    FUZZ_CHECK(q != NULL, "the CSV written does not read back: %s", d.nlines ? d.lines[0] : "");
    FUZZ_CHECK(q->n == p->n, "%u rows read back of %u", q->n, p->n);
    for (uint32_t i = 0; i < p->n; i++)
        FUZZ_CHECK(!strcmp(problem_id(p, i), problem_id(q, i)) && p->lower[i] == q->lower[i] &&
                       p->upper[i] == q->upper[i] && p->size[i] == q->size[i] &&
                       (!off || off[i] == q->offset[i]),
                   "row %u read back differs", i);
    problem_free(q);
    diag_free(&d);
    free(m.p);
}

/* A snapshot written: every block's end, 0x7f0000000000 + offset + the
 * bytes held, within 2^63-1 (else the writer had to refuse it). */
static void check_memviz(const cli_plan *cp)
{
    const placement *pl = cp->pl;
    for (uint32_t b = 0; b < cp->g->nbufs; b++) {
        int64_t held = pl->block ? pl->block[b] : place_span(cp->g->buf_size[b], pl->align), end;
        FUZZ_CHECK(!__builtin_add_overflow(pl->offset[b], held, &end) &&
                       !__builtin_add_overflow(end, MEMVIZ_BASE, &end),
                   "memory-viz written with buffer %u ending past 2^63-1", b);
    }
}

/* The file a writer left: absent after an error, else read back when it is
 * a MiniMalloc CSV (rows as many as buffers, every number in range). */
static void check_written(int status, int csv, const cli_plan *cp)
{
    FUZZ_CHECK(status == 0 || status == 1, "a writer's status %d", status);
    if (status) {
        FUZZ_CHECK(access(path, F_OK) != 0, "a file left after an error");
        return;
    }
    if (csv) {
        diag d;
        diag_init(&d, path);
        problem *q = problem_read(path, &d);
        FUZZ_CHECK(q != NULL, "a CSV written that does not read back: %s",
                   d.nlines ? d.lines[0] : "");
        FUZZ_CHECK(q->n == cp->g->nbufs && q->offset, "%u rows of %u", q->n, cp->g->nbufs);
        for (uint32_t i = 0; i < q->n; i++) {
            uint32_t b = cp->order[i];
            FUZZ_CHECK(q->offset[i] == cp->pl->offset[b], "row %u: offset", i);
            FUZZ_CHECK(q->size[i] == (cp->prob ? cp->prob->size[i]
                                               : place_span(cp->g->buf_size[b], cp->pl->align)),
                       "row %u: size", i);
        }
        problem_free(q);
        diag_free(&d);
    }
    unlink(path);
}

static void run_input(const uint8_t *data, size_t size)
{
    fuzz_in in = {data, size};
    int64_t align = (int64_t)1 << (fuzz_byte(&in) % 31);
    const placer *pc = placer_find(placers[fuzz_pick(&in, sizeof placers / sizeof *placers)]);
    FUZZ_CHECK(pc != NULL, "placer");
    cli_job j;
    memset(&j, 0, sizeof j);
    if (!(j.prob = decode(&in))) return;
    check_csv(j.prob, NULL);
    diag d;
    diag_init(&d, "fuzz.csv");
    j.g = problem_graph(j.prob, &d);
    diag_free(&d);
    FUZZ_CHECK(j.g != NULL, "the problem's graph does not load");
    cli_plan cp = {0};
    int st = cli_job_run(&j, policy_find("fifo"), NULL);
    if (!st) st = cli_job_place(&j, "place", pc, align, NULL);
    if (!st) st = cli_job_plan(&j, &cp);
    if (st) { /* live bytes or the arena past 2^63-1: refused, not wrapped */
        cli_job_free(&j);
        return;
    }
    int64_t *off = malloc(((size_t)j.prob->n + 1) * sizeof *off);
    FUZZ_CHECK(off != NULL, "out of memory");
    for (uint32_t b = 0; b < j.g->nbufs; b++) off[j.g->buf_id[b]] = j.pl.offset[b];
    check_csv(j.prob, off);
    free(off);
    /* As place writes it, then as plan would (BufIds, steps, every format). */
    for (int as_plan = 0; as_plan < 2; as_plan++) {
        if (as_plan) {
            cp.prob = NULL;
            cp.policy = "fifo";
        }
        for (int f = 0; f < CLI_NFORMATS; f++) {
            if (!as_plan && f != CLI_CSV && f != CLI_JSON && f != CLI_TEXT) continue;
            st = cli_plan_write(as_plan ? "plan" : "place", path, f, NULL, &cp);
            if (f == CLI_MEMVIZ && st == 0) check_memviz(&cp);
            check_written(st, f == CLI_MINIMALLOC || (!as_plan && f == CLI_CSV), &cp);
        }
        check_written(cli_plan_write("plan", NULL, CLI_TEXT, path, &cp), 0, &cp);
    }
    cli_job_free(&j);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *saved_err = stderr;
    stderr = null_err;
    run_input(data, size);
    stderr = saved_err;
    return 0;
}
