/* test_load_fast.c: the loader's single pass (load_fast.c) against the walk it speeds up
 * (load_opts.walk_only): on every graph of the fuzz corpus, tests/data and samples/, and on
 * each of them cut short and with a byte changed at a few places, both give the same messages
 * (text, place, order) and, when they accept, the same graph array for array; and the single
 * pass takes the common graph (every field load.c reads) by itself. */
#include <dirent.h>
#include <math.h>
#include <unistd.h>
#include "graph_same.h"
#include "sched/graph/load_fast.h"
#include "testutil.h"

#ifndef MEMTRIS_SOURCE_DIR
#error "MEMTRIS_SOURCE_DIR must point at the source tree"
#endif

static graph *load(const char *text, size_t len, int walk_only, diag *d, load_stats *st)
{
    load_opts o;
    memset(&o, 0, sizeof o);
    o.walk_only = walk_only;
    diag_init(d, TU_SOURCE);
    return load_buffer(text, len, TU_SOURCE, d, &o, st);
}

/* The walk's graph and messages (slow, d1) against the single pass's; frees them. */
static void same_load(graph *slow, diag *d1, graph *fast, diag *d2, const char *where)
{
    long line = diag_differs(d1, d2);
    if (line >= 0)
        fail_msg("%s: %zu errors, %zu warnings by the walk; %zu, %zu by the single pass; line %ld"
                 " \"%s\" by the walk, \"%s\" by the single pass",
                 where, d1->nerrors, d1->nwarnings, d2->nerrors, d2->nwarnings, line,
                 (size_t)line < d1->nlines ? d1->lines[line] : "",
                 (size_t)line < d2->nlines ? d2->lines[line] : "");
    if ((slow == NULL) != (fast == NULL)) fail_msg("%s: one way failed", where);
    const char *what = slow ? graph_differs(slow, fast) : NULL;
    if (what) fail_msg("%s: %s differs", where, what);
    graph_free(slow);
    graph_free(fast);
    diag_free(d1);
    diag_free(d2);
}

/* text[0, len) written to a temporary file, loaded by load_file (the single pass reading it
 * in windows of window bytes, then the walk if it gives up). */
/* text[0, len) written to a new temporary file, its name into path. */
static void temp_file(const char *text, size_t len, char *path, size_t cap)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(path, cap, "%s/memtris_load_fast.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_true(write(fd, text, len) == (ssize_t)len);
    close(fd);
}

static graph *load_via_file(const char *text, size_t len, size_t window, const load_opts *o,
                            diag *d, load_stats *st)
{
    char path[512];
    temp_file(text, len, path, sizeof path);
    diag_init(d, TU_SOURCE);
    load_fast_set_window(window);
    graph *g = load_file(path, d, o, st);
    load_fast_set_window(0);
    unlink(path);
    return g;
}

/* Both ways agree on text[0, len), the single pass given the text whole and read from a file
 * in windows (a few hundred bytes up to a few KB: elements cut at every place). */
static void agree(const char *text, size_t len, const char *where)
{
    for (int way = 0; way < 2; way++) {
        diag d1, d2;
        graph *slow = load(text, len, 1, &d1, NULL);
        graph *fast = way ? load_via_file(text, len, 256u << (len % 5), NULL, &d2, NULL)
                          : load(text, len, 0, &d2, NULL);
        same_load(slow, &d1, fast, &d2, where);
    }
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    char *buf = NULL;
    size_t cap = 0, n = 0, r;
    do {
        if (n + 4096 > cap) {
            cap = (n + 4096) * 2;
            buf = realloc(buf, cap);
            assert_non_null(buf);
        }
        r = fread(buf + n, 1, cap - n, f);
        n += r;
    } while (r);
    fclose(f);
    *len = n;
    return buf;
}

/* Every file of dir (ending in .json when json_only), whole, cut short and changed. */
static void agree_on_dir(const char *dir, int json_only)
{
    char path[1024], where[1100];
    snprintf(path, sizeof path, "%s/%s", MEMTRIS_SOURCE_DIR, dir);
    DIR *dp = opendir(path);
    assert_non_null(dp);
    struct dirent *e;
    int files = 0;
    while ((e = readdir(dp))) {
        size_t nl = strlen(e->d_name);
        if (e->d_name[0] == '.' || (json_only && (nl < 5 || strcmp(e->d_name + nl - 5, ".json"))))
            continue;
        snprintf(path, sizeof path, "%s/%s/%s", MEMTRIS_SOURCE_DIR, dir, e->d_name);
        size_t len;
        char *text = slurp(path, &len);
        snprintf(where, sizeof where, "%s/%s", dir, e->d_name);
        agree(text, len, where);
        static const char subst[] = "\"1-.x\\ }]{[,:0e";
        for (size_t k = 1; k <= 8 && len; k++) {
            size_t at = len * k / 9;
            snprintf(where, sizeof where, "%s/%s cut at %zu", dir, e->d_name, at);
            agree(text, at, where);
            char was = text[at];
            text[at] = subst[(k + at) % (sizeof subst - 1)];
            snprintf(where, sizeof where, "%s/%s byte %zu changed", dir, e->d_name, at);
            agree(text, len, where);
            text[at] = was;
        }
        free(text);
        files++;
    }
    closedir(dp);
    assert_true(files > 0);
}

static void agree_on_the_fuzz_corpus(void **state)
{
    (void)state;
    agree_on_dir("tests/fuzz/corpus/load", 0);
}

static void agree_on_test_data_and_samples(void **state)
{
    (void)state;
    agree_on_dir("tests/data", 1);
    agree_on_dir("samples", 1);
}

/* text loaded by the single pass alone (no syntax pass timed: load.c times that only for the
 * walk). */
static graph *taken(const char *text, size_t len, diag *d)
{
    load_stats st;
    graph *g = load(text, len, 0, d, &st);
    assert_non_null(g);
    assert_true(st.syntax_s == 0);
    return g;
}

/* Every field load.c reads, in the forms graph files use: the single pass takes it and both
 * ways agree. */
static void single_pass_takes_the_common_graph(void **state)
{
    (void)state;
    static const char text[] =
        "\xEF\xBB\xBF{\"Nodes\": [\n"
        " {\"Id\": 0, \"Op\": \"ALLOC\", \"Size\": 1048576, \"BufId\": 1, \"Name\": \"a.out\","
        " \"Category\": \"activation\", \"Extra\": {\"x\": [1, 2.5, null]}},\n"
        " {\"Id\": 1, \"Op\": \"relu_\", \"Name\": \"r\", \"Inputs\": [1, 1], \"InPlace\": [1],"
        " \"Latency\": 0.012421, \"Stream\": 2, \"Phase\": \"forward\", \"Rerun\": false},\n"
        " {\"Id\": 2, \"Op\": \"FREE\", \"BufId\": 1, \"Size\": 1048576, \"Id\": 9},\n"
        " {\"Id\": 3, \"Op\": \"Sum\", \"Latency\": 1e-3, \"Size\": \"ignored\"}\n"
        "], \"Edges\": [[0, 1], [1, 2], [ 1 , 3 ]], \"Comment\": \"\xC3\xA9\",\n"
        " \"Measured\": {\"how\": \"by hand\", \"peak\": 1048576, \"peak\": 5, \"x\": [[]]}}\n";
    diag d;
    graph *g = taken(text, sizeof text - 1, &d);
    assert_int_equal(g->n, 4);
    assert_true(g->latency[1] == 0.012421 && g->latency[3] == 1e-3 && isnan(g->latency[0]));
    assert_int_equal(g->id[2], 2); /* the first of a repeated key */
    assert_int_equal(g->measured_peak, 1048576);
    assert_string_equal(g->measured_how, "by hand");
    graph_free(g);
    diag_free(&d);
    agree(text, sizeof text - 1, "the common graph");
}

/* n nodes (Ids 0..n-1) and the edges e[0, 2m) into text. */
static size_t edges_text(char *text, size_t cap, uint32_t n, const uint32_t *e, size_t m)
{
    size_t k = (size_t)snprintf(text, cap, "{\"Nodes\": [");
    for (uint32_t i = 0; i < n; i++)
        k += (size_t)snprintf(text + k, cap - k, "%s{\"Id\": %u, \"Op\": \"X\"}", i ? ", " : "", i);
    k += (size_t)snprintf(text + k, cap - k, "], \"Edges\": [");
    for (size_t j = 0; j < m; j++)
        k += (size_t)snprintf(text + k, cap - k, "%s[%u, %u]", j ? ", " : "", e[2 * j],
                              e[2 * j + 1]);
    k += (size_t)snprintf(text + k, cap - k, "]}");
    assert_true(k < cap);
    return k;
}

/* The node lists (graph_build_edges) do not depend on the order of the edges: sorted or only
 * grouped by target (sources in any order within one: the one-pass way) or not, every
 * predecessor list is ascending and every successor list in input order; repeated edges, and a
 * target of 66 sources, give the same lists and warnings in target order as in another. */
static void edge_lists_in_any_order(void **state)
{
    (void)state;
    static char t1[8192], t2[8192];
    /* by target, sources descending / by source */
    static const uint32_t a[] = {2, 3, 1, 3, 0, 3, 3, 4, 0, 4, 1, 5, 0, 5, 4, 5};
    static const uint32_t b[] = {0, 3, 0, 4, 0, 5, 1, 3, 1, 5, 2, 3, 3, 4, 4, 5};
    static const uint32_t pred[] = {0, 1, 2, 0, 3, 0, 1, 4}, succ[] = {3, 4, 5, 3, 5, 3, 4, 5};
    diag d1, d2;
    graph *g = taken(t1, edges_text(t1, sizeof t1, 6, a, 8), &d1);
    graph *h = taken(t2, edges_text(t2, sizeof t2, 6, b, 8), &d2);
    assert_int_equal(g->nedges, 8);
    assert_memory_equal(g->pred, pred, sizeof pred);
    assert_memory_equal(g->succ, succ, sizeof succ);
    same_load(h, &d2, g, &d1, "edges by target and by source");
    /* grouped by target, targets not in order (5, 3, 4) / not grouped, same order per source */
    static const uint32_t c[] = {4, 5, 0, 5, 1, 5, 2, 3, 1, 3, 0, 3, 3, 4, 0, 4};
    static const uint32_t cs[] = {0, 5, 0, 3, 4, 5, 1, 5, 2, 3, 1, 3, 0, 4, 3, 4};
    static const uint32_t csucc[] = {5, 3, 4, 5, 3, 3, 4, 5};
    g = taken(t1, edges_text(t1, sizeof t1, 6, c, 8), &d1);
    assert_memory_equal(g->pred, pred, sizeof pred);
    assert_memory_equal(g->succ, csucc, sizeof csucc);
    h = taken(t2, edges_text(t2, sizeof t2, 6, cs, 8), &d2);
    same_load(h, &d2, g, &d1, "edges grouped by target and not");
    /* repeats in target order: [0, 3] and [1, 4] twice */
    static const uint32_t r[] = {0, 3, 1, 3, 0, 3, 0, 4, 1, 4, 1, 4};
    static const uint32_t rs[] = {0, 3, 0, 3, 1, 3, 0, 4, 1, 4, 1, 4};
    g = taken(t1, edges_text(t1, sizeof t1, 5, r, 6), &d1);
    assert_int_equal(g->nedges, 4);
    assert_int_equal(d1.nwarnings, 2);
    TU_ASSERT_LINE(&d1, "warning:", "edge [0, 3]", "more than once");
    TU_ASSERT_LINE(&d1, "warning:", "edge [1, 4]", "more than once");
    h = taken(t2, edges_text(t2, sizeof t2, 5, rs, 6), &d2);
    same_load(h, &d2, g, &d1, "repeated edges in two orders");
    /* 66 sources of node 66, descending (target order) and ascending */
    static uint32_t w[132], ws[132];
    for (uint32_t i = 0; i < 66; i++) {
        w[2 * i] = 65 - i;
        ws[2 * i] = i;
        w[2 * i + 1] = ws[2 * i + 1] = 66;
    }
    g = taken(t1, edges_text(t1, sizeof t1, 67, w, 66), &d1);
    for (uint32_t i = 0; i < 66; i++) assert_int_equal(g->pred[i], i);
    h = taken(t2, edges_text(t2, sizeof t2, 67, ws, 66), &d2);
    same_load(h, &d2, g, &d1, "a target of 66 sources");
}

/* Integers of 16 digits up to 2^53-1 stay on the single pass; 2^53 gets the walk's message. */
static void single_pass_takes_16_digits(void **state)
{
    (void)state;
    static const char text[] =
        "{\"Nodes\": [{\"Id\": 1000000000000000, \"Op\": \"ALLOC\", \"Size\": 9007199254740991,"
        " \"BufId\": 4503599627370496}, {\"Id\": 0, \"Op\": \"FREE\", \"BufId\": "
        "4503599627370496}],"
        " \"Edges\": [[1000000000000000, 0]]}";
    diag d;
    graph *g = taken(text, sizeof text - 1, &d);
    assert_true(g->id[0] == 1000000000000000LL && g->buf_id[0] == 4503599627370496LL);
    assert_true(g->buf_size[0] == 9007199254740991LL);
    graph_free(g);
    diag_free(&d);
    agree(text, sizeof text - 1, "16 digits");
    static const char over[] = "{\"Nodes\": [{\"Id\": 0, \"Op\": \"ALLOC\", \"Size\": "
                               "9007199254740992, \"BufId\": 1}], \"Edges\": []}";
    assert_null(load(over, sizeof over - 1, 0, &d, NULL));
    assert_true(d.nerrors == 1 && strstr(d.lines[0], "9007199254740992, which is above 2^53-1"));
    diag_free(&d);
    agree(over, sizeof over - 1, "2^53");
}

/* Escapes in the strings memtris keeps (Op, Name, Category, Phase, Measured.how) stay on the
 * single pass, decoded as cJSON decodes them; what cJSON or jscan refuse gets the walk's
 * message. */
static void single_pass_decodes_escapes(void **state)
{
    (void)state;
    static const char text[] =
        "{\"Nodes\": [{\"Id\": 0, \"Op\": \"\\u0041LLOC\", \"Size\": 8, \"BufId\": 1,"
        " \"Name\": \"a\\\"b\\\\c\\/d\\n\\t\\u00e9\\ud83d\\ude00\\b\\f\\r\","
        " \"Category\": \"activ\\u0061tion\"},"
        " {\"Id\": 1, \"Op\": \"FREE\", \"BufId\": 1, \"Name\": \"\\u00E9t\\u00e9\"}],"
        " \"Edges\": [[0, 1]], \"Measured\": {\"peak\": 8, \"how\": \"by \\\"hand\\\"\"}}";
    diag d;
    graph *g = taken(text, sizeof text - 1, &d);
    assert_int_equal(g->kind[0], NODE_ALLOC);
    assert_string_equal(graph_name(g, 0), "a\"b\\c/d\n\t\xC3\xA9\xF0\x9F\x98\x80\b\f\r");
    assert_string_equal(graph_name(g, 1), "\xC3\xA9t\xC3\xA9");
    assert_int_equal(g->tag[0], graph_category_parse("activation"));
    assert_string_equal(g->measured_how, "by \"hand\"");
    graph_free(g);
    diag_free(&d);
    agree(text, sizeof text - 1, "escapes");
    static const char *const refused[] = {
        "{\"Nodes\": [{\"Id\": 0, \"Op\": \"a\\ud83d\"}], \"Edges\": []}",
        "{\"Nodes\": [{\"Id\": 0, \"Op\": \"a\\ude00x\"}], \"Edges\": []}",
        "{\"Nodes\": [{\"Id\": 0, \"Op\": \"a\\ud83d\\u0041\"}], \"Edges\": []}",
        "{\"Nodes\": [{\"Id\": 0, \"Op\": \"a\\u0000\"}], \"Edges\": []}",
        "{\"Nodes\": [{\"Id\": 0, \"Op\": \"a\\u00g0\"}], \"Edges\": []}",
        "{\"Nodes\": [{\"Id\": 0, \"Op\": \"a\\x\"}], \"Edges\": []}",
        "{\"Nodes\": [{\"Id\": 0, \"Op\": \"a\\",
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        assert_null(load(refused[i], strlen(refused[i]), 0, &d, NULL));
        diag_free(&d);
        agree(refused[i], strlen(refused[i]), refused[i]);
    }
}

/* A graph of thousands of nodes read from a file in windows of 1 KiB: taken by the single
 * pass across every refill, the same graph as the walk's, progress to the end. */
static void progress_last(void *ctx, size_t done, size_t total)
{
    size_t *last = ctx;
    assert_true(done <= total && done >= last[0]);
    last[0] = done;
    last[1] = total;
}

/* A chain of 9000 nodes (3000 ALLOC, compute, FREE), about 400 KB: *len bytes. */
static char *chain_text(size_t *lenp)
{
    size_t cap = 1 << 20, len = 0;
    char *text = malloc(cap);
    assert_non_null(text);
    len += (size_t)snprintf(text + len, cap - len, "{\"Nodes\": [\n");
    for (int i = 0; i < 3000; i++)
        len += (size_t)snprintf(
            text + len, cap - len,
            "{\"Id\": %d, \"Op\": \"ALLOC\", \"Size\": %d, \"BufId\": %d},\n"
            "{\"Id\": %d, \"Op\": \"op%d\", \"Inputs\": [%d], \"Latency\": 0.0%d},\n"
            "{\"Id\": %d, \"Op\": \"FREE\", \"BufId\": %d}%s\n",
            3 * i, 64 + i, i, 3 * i + 1, i % 7, i, i + 1, 3 * i + 2, i, i < 2999 ? "," : "");
    len += (size_t)snprintf(text + len, cap - len, "], \"Edges\": [");
    for (int i = 0; i < 3000; i++)
        len += (size_t)snprintf(text + len, cap - len, "[%d, %d], [%d, %d]%s", 3 * i, 3 * i + 1,
                                3 * i + 1, 3 * i + 2, i < 2999 ? ", " : "]}\n");
    assert_true(len < cap);
    *lenp = len;
    return text;
}

static void single_pass_reads_a_file_in_windows(void **state)
{
    (void)state;
    size_t len;
    char *text = chain_text(&len);
    diag d1, d2;
    load_stats st;
    graph *slow = load(text, len, 1, &d1, NULL);
    size_t last[2] = {0, 0};
    load_opts o;
    memset(&o, 0, sizeof o);
    o.progress = progress_last;
    o.progress_ctx = last;
    graph *fast = load_via_file(text, len, 1024, &o, &d2, &st);
    assert_non_null(fast);
    assert_true(st.syntax_s == 0 && st.bytes == len);
    assert_true(last[0] == len && last[1] == len);
    assert_int_equal(fast->n, 9000);
    same_load(slow, &d1, fast, &d2, "windows of 1 KiB");
    free(text);
}

/* The file cut short by another process while the single pass reads it (from the progress
 * callback): the single pass gives up, and the walk reads what is left and says what is wrong
 * with it, exactly as with that text in a buffer. */
typedef struct cutter {
    const char *path;
    size_t at;
    int done;
} cutter;

static void cut_file(void *ctx, size_t done, size_t total)
{
    cutter *c = ctx;
    (void)total;
    if (c->done || !done) return;
    assert_int_equal(truncate(c->path, (off_t)c->at), 0);
    c->done = 1;
}

static void file_cut_while_read(void **state)
{
    (void)state;
    size_t len;
    char *text = chain_text(&len);
    char path[512];
    temp_file(text, len, path, sizeof path);
    cutter c = {path, len / 2, 0};
    load_opts o;
    memset(&o, 0, sizeof o);
    o.progress = cut_file;
    o.progress_ctx = &c;
    diag d, dw;
    load_fast_set_window(1024);
    diag_init(&d, TU_SOURCE);
    graph *g = load_file(path, &d, &o, NULL);
    load_fast_set_window(0);
    unlink(path);
    assert_true(c.done);
    assert_null(g);
    assert_null(load(text, len / 2, 1, &dw, NULL));
    assert_true(d.nerrors > 0 && diag_differs(&d, &dw) < 0);
    diag_free(&d);
    diag_free(&dw);
    free(text);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(agree_on_the_fuzz_corpus),
        cmocka_unit_test(agree_on_test_data_and_samples),
        cmocka_unit_test(single_pass_takes_the_common_graph),
        cmocka_unit_test(edge_lists_in_any_order),
        cmocka_unit_test(single_pass_takes_16_digits),
        cmocka_unit_test(single_pass_decodes_escapes),
        cmocka_unit_test(single_pass_reads_a_file_in_windows),
        cmocka_unit_test(file_cut_while_read),
    };
    if (argc > 1) cmocka_set_test_filter(argv[1]);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
