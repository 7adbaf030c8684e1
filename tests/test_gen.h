/* test_gen.h: what test_gen.c (each kind's shape) and test_gen_bytes.c (the
 * JSON's bytes, latencies and streams) share: a growable write target, the
 * generated JSON of a kind, and the tests test_gen_bytes.c defines. */
#ifndef MEMTRIS_TEST_GEN_H
#define MEMTRIS_TEST_GEN_H
#include <math.h>
#include "testutil.h"
#include "sched/gen/gen.h"

/* ------------------------------------------------------------ helpers */

typedef struct membuf {
    char *p;
    size_t len, cap;
    int calls, fail_at; /* fail_at > 0: the fail_at-th write fails */
} membuf;

static inline int mem_write(void *ctx, const char *data, size_t len)
{
    membuf *m = ctx;
    if (++m->calls == m->fail_at) return -1;
    if (m->len + len + 1 > m->cap) { /* room for a NUL after the text: strstr reads it */
        size_t nc = m->cap ? m->cap : 4096;
        while (nc < m->len + len + 1) nc *= 2;
        char *q = realloc(m->p, nc);
        if (!q) return -1;
        m->p = q;
        m->cap = nc;
    }
    memcpy(m->p + m->len, data, len);
    m->len += len;
    m->p[m->len] = 0;
    return 0;
}

static inline const gen_kind *kind(const char *name)
{
    const gen_kind *k = gen_kind_find(name);
    if (!k) fail_msg("no kind '%s'", name);
    return k;
}

/* The JSON of (kind, n, seed); the caller frees m->p. */
static inline membuf gen_json(const char *name, uint32_t n, uint64_t seed)
{
    membuf m = {0};
    char err[256] = "";
    if (gen_write(kind(name), n, seed, mem_write, &m, err, sizeof err))
        fail_msg("gen %s %u seed %llu failed: %s", name, n, (unsigned long long)seed, err);
    return m;
}

static inline const char *name_of(const graph *g, uint32_t i)
{
    return g->name[i] ? g->strpool + g->name[i] : "";
}

static inline int starts(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* Buffer index of the k-th Inputs entry of node c. */
static inline uint32_t input_buf(const graph *g, uint32_t c, uint32_t k)
{
    uint32_t b = graph_find_buf(g, g->inputs[g->in_off[c] + k]);
    assert_int_not_equal(b, GRAPH_NONE);
    return b;
}

/* test_gen_bytes.c's tests, listed in test_gen.c's main. */
void same_seed_same_bytes(void **state);
void golden_hashes(void **state);
void latencies(void **state);
void streams(void **state);
void huge_peak_is_exact(void **state);
void writer_failure_is_reported(void **state);

#endif
