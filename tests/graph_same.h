/* graph_same.h: where two loaded graphs differ, array by array (latency bit for bit), and
 * where two diags differ, line by line: the loader's single pass against its walk, shared by
 * tests/test_load_fast.c and tests/fuzz/fuzz_load.c. Exports graph_differs, diag_differs. */
#ifndef MEMTRIS_TESTS_GRAPH_SAME_H
#define MEMTRIS_TESTS_GRAPH_SAME_H
#include <stdint.h>
#include <string.h>
#include "sched/graph/diag.h"
#include "sched/graph/graph.h"

#define GRAPH_SAME_ARRAY(a, b, cnt, what)                                         \
    do {                                                                          \
        if (((a) == NULL) != ((b) == NULL) ||                                     \
            ((a) && (cnt) && memcmp((a), (b), (size_t)(cnt) * sizeof *(a)) != 0)) \
            return what;                                                          \
    } while (0)

/* NULL when a and b are the same graph, else the name of the first field that differs. */
static inline const char *graph_differs(const graph *a, const graph *b)
{
    if (a->n != b->n || a->nedges != b->nedges || a->nbufs != b->nbufs) return "sizes";
    uint32_t n = a->n;
    GRAPH_SAME_ARRAY(a->id, b->id, n, "id");
    GRAPH_SAME_ARRAY(a->change, b->change, n, "change");
    GRAPH_SAME_ARRAY(a->kind, b->kind, n, "kind");
    GRAPH_SAME_ARRAY(a->buf, b->buf, n, "buf");
    GRAPH_SAME_ARRAY(a->succ_off, b->succ_off, n + 1, "succ_off");
    GRAPH_SAME_ARRAY(a->succ, b->succ, a->nedges, "succ");
    GRAPH_SAME_ARRAY(a->pred_off, b->pred_off, n + 1, "pred_off");
    GRAPH_SAME_ARRAY(a->pred, b->pred, a->nedges, "pred");
    GRAPH_SAME_ARRAY(a->in_off, b->in_off, n + 1, "in_off");
    GRAPH_SAME_ARRAY(a->inputs, b->inputs, a->in_off[n], "inputs");
    GRAPH_SAME_ARRAY(a->latency, b->latency, n, "latency"); /* bit for bit, NANs included */
    GRAPH_SAME_ARRAY(a->stream, b->stream, n, "stream");
    GRAPH_SAME_ARRAY(a->tag, b->tag, n, "tag");
    GRAPH_SAME_ARRAY(a->rerun, b->rerun, n, "rerun");
    GRAPH_SAME_ARRAY(a->inplace, b->inplace, a->in_off[n], "inplace");
    GRAPH_SAME_ARRAY(a->buf_id, b->buf_id, a->nbufs, "buf_id");
    GRAPH_SAME_ARRAY(a->buf_size, b->buf_size, a->nbufs, "buf_size");
    GRAPH_SAME_ARRAY(a->buf_alloc, b->buf_alloc, a->nbufs, "buf_alloc");
    GRAPH_SAME_ARRAY(a->buf_free, b->buf_free, a->nbufs, "buf_free");
    for (uint32_t i = 0; i < n; i++)
        if (strcmp(a->ops[a->op[i]], b->ops[b->op[i]]) ||
            strcmp(graph_name(a, i), graph_name(b, i)))
            return "Op or Name";
    if (a->measured_peak != b->measured_peak ||
        (a->measured_how == NULL) != (b->measured_how == NULL) ||
        (a->measured_how && strcmp(a->measured_how, b->measured_how)))
        return "Measured";
    return NULL;
}

/* -1 when a and b hold the same messages (text, severity, order), else the first line that
 * differs (a's count of lines when only the counts do). */
static inline long diag_differs(const diag *a, const diag *b)
{
    for (size_t i = 0; i < a->nlines && i < b->nlines; i++)
        if (strcmp(a->lines[i], b->lines[i]) || a->severity[i] != b->severity[i]) return (long)i;
    if (a->nerrors != b->nerrors || a->nwarnings != b->nwarnings || a->nlines != b->nlines)
        return (long)a->nlines;
    return -1;
}

#endif
