/* test_step.c: the stepper (forward, back, jump, ready set, memory, peak,
 * live buffers), a property test over random valid graphs against an
 * independent reference scheduler, and heap_sorted against a sorted copy. */
#include "testutil.h"
#include "util/heap.h"
#include "sched/policy/step.h"

#ifndef MEMTRIS_SOURCE_DIR
#error "MEMTRIS_SOURCE_DIR must point at the source tree"
#endif

static void init_stepper(stepper *s, const graph *g, const char *pname)
{
    char err[256] = "";
    if (step_init(s, g, policy_find(pname), tu_quick(), err, sizeof err))
        fail_msg("step_init: %s", err);
}

/* ------------------------------------------------------ hand-checked */

static void forward_back_jump(void **state)
{
    (void)state;
    graph *g = tu_load_path(TU_DATA("branches.json"), NULL);
    stepper s;
    init_stepper(&s, g, "priority");
    /* priority order: 0, 4, 5, 6, 1, 2, 3, 7, 8, 9, 10 */
    static const int64_t ids[] = {0, 4, 5, 6, 1, 2, 3, 7, 8, 9, 10};
    static const int64_t mem[] = {0, 300, 300, 0, 400, 400, 0, 500, 500, 0, 0};
    assert_int_equal(s.k, 0);
    assert_int_equal(step_last(&s), GRAPH_NONE);
    assert_true(step_memory(&s) == 0);
    assert_int_equal(step_back(&s), 0);
    assert_int_equal(s.k, 0);
    for (uint32_t k = 1; k <= 11; k++) {
        assert_int_equal(step_forward(&s), 1);
        assert_int_equal(s.k, k);
        assert_true(g->id[step_last(&s)] == ids[k - 1]);
        assert_true(step_memory(&s) == mem[k - 1]);
        assert_true(step_memory_at(&s, k) == mem[k - 1]);
    }
    assert_int_equal(step_forward(&s), 0); /* at the end */
    assert_int_equal(s.k, 11);
    assert_int_equal(step_ready_count(&s), 0);
    assert_int_equal(step_back(&s), 1);
    assert_int_equal(s.k, 10);
    assert_true(g->id[step_last(&s)] == 9);
    assert_int_equal(step_ready_count(&s), 1); /* node 10 again */
    step_jump(&s, 4);
    assert_int_equal(s.k, 4);
    assert_true(g->id[step_last(&s)] == 6);
    assert_true(step_memory(&s) == 0);
    step_jump(&s, 1000); /* clamps to n */
    assert_int_equal(s.k, 11);
    step_jump(&s, 0);
    assert_int_equal(s.k, 0);
    assert_int_equal(step_last(&s), GRAPH_NONE);
    assert_int_equal(step_ready_count(&s), 1);
    step_free(&s);
    graph_free(g);
}

static void ready_set_in_key_order_with_keys(void **state)
{
    (void)state;
    graph *g = tu_load_path(TU_DATA("branches.json"), NULL);
    stepper s;
    heap_item out[16];

    /* priority after node 0: ALLOCs 4 (300), 1 (400), 7 (500). */
    init_stepper(&s, g, "priority");
    step_forward(&s);
    assert_int_equal(step_ready_count(&s), 3);
    assert_int_equal(step_ready(&s, 0, out, 16), 3);
    static const int64_t want[3][3] = {
        {300, NODE_ALLOC, 4}, {400, NODE_ALLOC, 1}, {500, NODE_ALLOC, 7}};
    for (int i = 0; i < 3; i++) {
        assert_true(g->id[out[i].node] == want[i][2]);
        for (int j = 0; j < 3; j++) assert_true(out[i].k[j] == want[i][j]);
    }
    /* Paging: rank 1 only, then past the end. */
    assert_int_equal(step_ready(&s, 1, out, 1), 1);
    assert_true(g->id[out[0].node] == 1);
    assert_int_equal(step_ready(&s, 2, out, 5), 1);
    assert_true(g->id[out[0].node] == 7);
    assert_int_equal(step_ready(&s, 3, out, 5), 0);
    /* After 4 and 5: the FREE 6 (-300, FREE) comes first. */
    step_forward(&s);
    step_forward(&s);
    assert_int_equal(step_ready(&s, 0, out, 16), 3);
    assert_true(g->id[out[0].node] == 6);
    assert_true(out[0].k[0] == -300 && out[0].k[1] == NODE_FREE && out[0].k[2] == 6);
    assert_true(g->id[out[1].node] == 1 && g->id[out[2].node] == 7);
    step_free(&s);

    /* fifo after node 0: 1, 4, 7 in edge order, keyed by queue position. */
    init_stepper(&s, g, "fifo");
    step_forward(&s);
    assert_int_equal(step_ready(&s, 0, out, 16), 3);
    static const int64_t fifo_ready[] = {1, 4, 7};
    for (int i = 0; i < 3; i++) {
        assert_true(g->id[out[i].node] == fifo_ready[i]);
        assert_true(out[i].k[0] == i + 1);
        assert_true(out[i].k[1] == 0 && out[i].k[2] == 0);
    }
    step_free(&s);
    graph_free(g);
}

static void memory_peak_live_at_each_step(void **state)
{
    (void)state;
    graph *g = tu_load_path(TU_DATA("layers.json"), NULL);
    stepper s;
    init_stepper(&s, g, "fifo");
    /* fifo: 10 11 12 13 20 30 21 31 22 32 23 33
     * memory 100 300 600 1000 1000 900 900 700 700 400 400 0 */
    static const int64_t peak[] = {0,    100,  300,  600,  1000, 1000, 1000,
                                   1000, 1000, 1000, 1000, 1000, 1000};
    static const uint32_t at[] = {0, 1, 2, 3, 4, 4, 4, 4, 4, 4, 4, 4, 4};
    static const uint32_t nlive[] = {0, 1, 2, 3, 4, 4, 3, 3, 2, 2, 1, 1, 0};
    static const int64_t first[] = {0, 0, 0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 0};
    for (uint32_t k = 0; k <= 12; k++) {
        step_jump(&s, k);
        uint32_t a = 99;
        assert_true(step_peak(&s, &a) == peak[k]);
        assert_int_equal(a, at[k]);
        assert_true(step_memory(&s) == (k ? s.r.memory[k - 1] : 0));
        uint32_t bufs[8];
        uint32_t c = step_live(&s, bufs, 8);
        assert_int_equal(c, nlive[k]);
        /* Live buffers in allocation order, the oldest first: buffers
         * first[k] .. first[k] + nlive[k] - 1 (allocated 0, 1, 2, 3). */
        for (uint32_t i = 0; i < c; i++) assert_true(g->buf_id[bufs[i]] == first[k] + (int64_t)i);
    }
    step_free(&s);
    graph_free(g);
}

static void live_buffers_with_small_cap(void **state)
{
    (void)state;
    /* Three buffers allocated in the order 3, 2, 1 (the reverse of their
     * order in Nodes): with room for two, the two oldest come back. */
    diag d;
    graph *g = tu_load("{\"Nodes\": [{\"Id\": 1, \"Op\": \"ALLOC\", \"Size\": 1, \"BufId\": 1},"
                       " {\"Id\": 2, \"Op\": \"ALLOC\", \"Size\": 1, \"BufId\": 2},"
                       " {\"Id\": 3, \"Op\": \"ALLOC\", \"Size\": 1, \"BufId\": 3}],"
                       " \"Edges\": [[3, 2], [2, 1]]}",
                       &d);
    assert_non_null(g);
    diag_free(&d);
    stepper s;
    init_stepper(&s, g, "fifo");
    step_jump(&s, 3);
    uint32_t all[3], two[2] = {99, 99};
    assert_int_equal(step_live(&s, all, 3), 3);
    assert_true(g->buf_id[all[0]] == 3 && g->buf_id[all[1]] == 2 && g->buf_id[all[2]] == 1);
    assert_int_equal(step_live(&s, two, 2), 3);
    long long got0 = g->buf_id[two[0]], got1 = g->buf_id[two[1]];
    long long want0 = g->buf_id[all[0]], want1 = g->buf_id[all[1]];
    step_free(&s);
    graph_free(g);
    if (got0 != want0 || got1 != want1)
        fail_msg("step_live with cap 2 gave buffers %lld, %lld; the two oldest are %lld, %lld",
                 got0, got1, want0, want1);
}

static void live_buffer_count_only(void **state)
{
    (void)state;
    /* cap 0 asks for the count alone; nothing may be written or sorted. */
    graph *g = tu_load_path(TU_DATA("layers.json"), NULL);
    stepper s;
    init_stepper(&s, g, "fifo");
    step_jump(&s, 4);
    assert_int_equal(step_live(&s, NULL, 0), 4);
    step_free(&s);
    graph_free(g);
}

static void step_init_reports_overflow(void **state)
{
    (void)state;
    tu_str b = {0};
    tu_printf(&b, "{\"Nodes\": [");
    for (int i = 0; i < 1030; i++)
        tu_printf(&b,
                  "%s{\"Id\": %d, \"Op\": \"ALLOC\", \"Size\": 9007199254740991, \"BufId\": %d}",
                  i ? ", " : "", i, i);
    tu_printf(&b, "], \"Edges\": []}");
    diag d;
    graph *g = tu_load(b.s, &d);
    free(b.s);
    assert_non_null(g);
    diag_free(&d);
    stepper s;
    char err[256] = "";
    assert_int_equal(step_init(&s, g, policy_find("fifo"), tu_quick(), err, sizeof err), -1);
    assert_non_null(strstr(err, "2^63-1"));
    graph_free(g);
}

/* ------------------------------------------------------ property test */

/* Everything a user of the stepper can see at step k. */
typedef struct snap {
    uint32_t k, last, nready, nlive;
    int64_t memory, peak;
    uint32_t peak_at;
    uint32_t *rem;
    heap_item *ready;
    uint32_t *live;
} snap;

static void snap_take(const stepper *s, snap *x)
{
    uint32_t n = s->g->n;
    x->k = s->k;
    x->last = step_last(s);
    x->memory = step_memory(s);
    x->peak = step_peak(s, &x->peak_at);
    x->rem = malloc(((size_t)n + 1) * sizeof *x->rem);
    x->ready = calloc((size_t)n + 1, sizeof *x->ready);
    x->live = malloc(((size_t)s->g->nbufs + 1) * sizeof *x->live);
    assert_true(x->rem && x->ready && x->live);
    memcpy(x->rem, s->rem, (size_t)n * sizeof *x->rem);
    x->nready = step_ready_count(s);
    assert_int_equal(step_ready(s, 0, x->ready, n + 1), x->nready);
    x->nlive = step_live(s, x->live, s->g->nbufs + 1);
}

static void snap_free(snap *x)
{
    free(x->rem);
    free(x->ready);
    free(x->live);
}

static void snap_expect(const stepper *s, const snap *x, const char *what)
{
    snap y;
    snap_take(s, &y);
    uint32_t n = s->g->n;
    int same = y.k == x->k && y.last == x->last && y.memory == x->memory && y.peak == x->peak &&
               y.peak_at == x->peak_at && y.nready == x->nready && y.nlive == x->nlive &&
               !memcmp(y.rem, x->rem, (size_t)n * sizeof *y.rem) &&
               !memcmp(y.live, x->live, (size_t)y.nlive * sizeof *y.live);
    for (uint32_t i = 0; same && i < y.nready; i++)
        same = y.ready[i].node == x->ready[i].node &&
               !memcmp(y.ready[i].k, x->ready[i].k, sizeof y.ready[i].k);
    snap_free(&y);
    if (!same)
        fail_msg("%s: state at step %u differs from the one reached by stepping", what, x->k);
}

/* Checks one policy's run and stepper on generated graph t (loaded as g). */
static void check_policy(const tu_gen *t, const graph *g, const char *pname, uint64_t *rng)
{
    uint32_t n = t->n;
    int fifo = !strcmp(pname, "fifo");
    /* graph index <-> position in t */
    uint32_t *gi = malloc(((size_t)n + 1) * sizeof *gi), *tp = malloc(((size_t)n + 1) * sizeof *tp);
    uint32_t *ref = malloc(((size_t)n + 1) * sizeof *ref),
             *refseq = malloc(((size_t)n + 1) * sizeof *refseq);
    uint32_t *popped_at = malloc(((size_t)n + 1) * sizeof *popped_at);
    assert_true(gi && tp && ref && refseq && popped_at);
    for (uint32_t i = 0; i < n; i++) {
        gi[i] = graph_find(g, t->id[i]);
        assert_true(gi[i] < n);
        tp[gi[i]] = i;
        assert_true(g->change[gi[i]] == t->change[i]);
        assert_int_equal(g->kind[gi[i]], t->kind[i]);
    }
    tu_gen_reference(t, fifo, ref, refseq);

    stepper s;
    init_stepper(&s, g, pname);
    const run *r = &s.r;
    assert_int_equal(r->n, n);

    /* The order: every node once, edges respected, equal to the reference. */
    for (uint32_t i = 0; i < n; i++) popped_at[i] = UINT32_MAX;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t p = tp[r->order[k]];
        assert_int_equal(popped_at[p], UINT32_MAX);
        popped_at[p] = k;
        assert_int_equal(r->pos[r->order[k]], k);
        if (p != ref[k])
            fail_msg("%s, %u nodes: step %u pops Id %lld, the reference pops Id %lld", pname, n,
                     k + 1, (long long)t->id[p], (long long)t->id[ref[k]]);
    }
    for (uint32_t e = 0; e < t->ne; e++) assert_true(popped_at[t->eu[e]] < popped_at[t->ev[e]]);

    /* Memory recomputed from the order and the generator's own sizes. */
    int64_t mem = 0, peak = 0;
    uint32_t peak_step = 0;
    for (uint32_t k = 0; k < n; k++) {
        mem += t->change[tp[r->order[k]]];
        assert_true(r->memory[k] == mem);
        if (mem > peak) {
            peak = mem;
            peak_step = k + 1;
        }
    }
    assert_true(r->peak == peak);
    assert_int_equal(r->peak_step, peak_step);

    /* Predecessors of each position, from the generator's edges. */
    uint32_t *poff = calloc((size_t)n + 2, sizeof *poff),
             *preds = malloc(((size_t)t->ne + 1) * sizeof *preds);
    assert_true(poff && preds);
    for (uint32_t e = 0; e < t->ne; e++) poff[t->ev[e] + 2]++;
    for (uint32_t i = 0; i < n; i++) poff[i + 2] += poff[i + 1];
    for (uint32_t e = 0; e < t->ne; e++) preds[poff[t->ev[e] + 1]++] = t->eu[e];

    /* Step forward from 0, checking against the reference at every k. */
    snap *sn = calloc((size_t)n + 1, sizeof *sn);
    assert_non_null(sn);
    int64_t pk = 0;
    uint32_t pk_at = 0;
    for (uint32_t k = 0;; k++) {
        assert_int_equal(s.k, k);
        if (k) {
            int64_t m = r->memory[k - 1];
            if (m > pk) {
                pk = m;
                pk_at = k;
            }
        }
        snap_take(&s, &sn[k]);
        snap *x = &sn[k];
        assert_true(x->memory == (k ? r->memory[k - 1] : 0));
        assert_true(x->peak == pk);
        assert_int_equal(x->peak_at, pk_at);
        /* rem[] and the ready set from the definition. */
        uint32_t nready = 0;
        for (uint32_t v = 0; v < n; v++) {
            uint32_t rem = 0, p = tp[v];
            for (uint32_t e = poff[p]; e < poff[p + 1]; e++) rem += popped_at[preds[e]] >= k;
            assert_int_equal(x->rem[v], rem);
            nready += rem == 0 && popped_at[p] >= k;
        }
        assert_int_equal(x->nready, nready);
        for (uint32_t i = 0; i < x->nready; i++) {
            const heap_item *it = &x->ready[i];
            uint32_t p = tp[it->node];
            assert_true(popped_at[p] >= k);
            assert_int_equal(x->rem[it->node], 0);
            if (fifo) {
                assert_true(it->k[0] == refseq[p] && it->k[1] == 0 && it->k[2] == 0);
            } else {
                assert_true(it->k[0] == t->change[p] && it->k[1] == t->kind[p] &&
                            it->k[2] == t->id[p]);
            }
            if (i) assert_true(heap_less(&x->ready[i - 1], it));
        }
        if (k < n) assert_int_equal(x->ready[0].node, r->order[k]);
        /* Live buffers: allocated before k, not freed before k, oldest first. */
        uint32_t nlive = 0;
        for (uint32_t q = 0; q < n; q++) {
            uint32_t a = tp[r->order[q]];
            if (q >= k) break;
            if (t->kind[a] != NODE_ALLOC) continue;
            if (t->free_of[a] != UINT32_MAX && popped_at[t->free_of[a]] < k) continue;
            assert_true(nlive < x->nlive);
            assert_true(g->buf_id[x->live[nlive]] == t->bufid[a]);
            nlive++;
        }
        assert_int_equal(x->nlive, nlive);
        if (k == n) break;
        assert_int_equal(step_forward(&s), 1);
    }
    assert_int_equal(step_forward(&s), 0);
    snap_expect(&s, &sn[n], "forward at the end");

    /* Back then forward returns the identical state, at every k. */
    for (uint32_t k = n; k > 0; k--) {
        assert_int_equal(step_back(&s), 1);
        snap_expect(&s, &sn[k - 1], "step back");
        assert_int_equal(step_forward(&s), 1);
        snap_expect(&s, &sn[k], "step forward after back");
        assert_int_equal(step_back(&s), 1);
    }
    assert_int_equal(step_back(&s), 0);
    snap_expect(&s, &sn[0], "back at step 0");

    /* Jumps land on the state reached by stepping. */
    for (int j = 0; j < 24; j++) {
        uint32_t to = tu_below(rng, n + 1);
        step_jump(&s, to);
        snap_expect(&s, &sn[to], "jump");
        if (j % 3 == 0) { /* and stepping from there works */
            if (step_forward(&s)) snap_expect(&s, &sn[to + 1], "forward after jump");
            if (step_back(&s)) snap_expect(&s, &sn[s.k], "back after jump");
        }
    }

    for (uint32_t k = 0; k <= n; k++) snap_free(&sn[k]);
    free(sn);
    step_free(&s);
    free(gi);
    free(tp);
    free(ref);
    free(refseq);
    free(popped_at);
    free(poff);
    free(preds);
}

static void random_graphs_property(void **state)
{
    (void)state;
    uint64_t rng = 0x6d656d74726973ULL; /* "memtris" */
    for (int round = 0; round < 300; round++) {
        uint32_t n = 1 + tu_below(&rng, round < 20 ? 8 : 200);
        tu_gen t;
        tu_gen_make(&t, &rng, n);
        diag d;
        graph *g = tu_load(t.json, &d);
        if (!g || d.nerrors) {
            tu_print_diag(&d);
            fail_msg("round %d: generated graph of %u nodes did not load", round, n);
        }
        assert_int_equal(g->n, n);
        assert_int_equal(g->nedges, t.ne);
        diag_free(&d);
        check_policy(&t, g, "fifo", &rng);
        check_policy(&t, g, "priority", &rng);
        graph_free(g);
        tu_gen_free(&t);
    }
}

/* On a larger graph far jumps rebuild the state instead of stepping; a
 * digest of the state checks they agree. */
static uint64_t digest(const stepper *s)
{
    snap x;
    snap_take(s, &x);
    uint64_t h = 1469598103934665603ULL;
#define MIX(v) (h = (h ^ (uint64_t)(v)) * 1099511628211ULL)
    MIX(x.k);
    MIX(x.last);
    MIX(x.memory);
    MIX(x.peak);
    MIX(x.peak_at);
    MIX(x.nready);
    MIX(x.nlive);
    for (uint32_t i = 0; i < s->g->n; i++) MIX(x.rem[i]);
    for (uint32_t i = 0; i < x.nready; i++) {
        MIX(x.ready[i].node);
        MIX(x.ready[i].k[0]);
        MIX(x.ready[i].k[1]);
        MIX(x.ready[i].k[2]);
    }
    for (uint32_t i = 0; i < x.nlive; i++) MIX(x.live[i]);
#undef MIX
    snap_free(&x);
    return h;
}

static void far_jumps_on_a_large_graph(void **state)
{
    (void)state;
    uint64_t rng = 42;
    tu_gen t;
    tu_gen_make(&t, &rng, 3000);
    diag d;
    graph *g = tu_load(t.json, &d);
    assert_non_null(g);
    diag_free(&d);
    for (size_t pi = 0; pi < policy_count(); pi++) {
        stepper s;
        if (policy_at(pi)->kind == POLICY_BASELINE) continue; /* the Ids are no order here */
        init_stepper(&s, g, policy_at(pi)->name);
        uint32_t n = g->n;
        uint64_t *dg = malloc(((size_t)n + 1) * sizeof *dg);
        assert_non_null(dg);
        for (uint32_t k = 0;; k++) {
            dg[k] = digest(&s);
            if (!step_forward(&s)) break;
        }
        for (int j = 0; j < 60; j++) {
            uint32_t to = j % 4 == 0 ? n : j % 4 == 1 ? 0 : tu_below(&rng, n + 1);
            step_jump(&s, to);
            assert_int_equal(s.k, to);
            if (digest(&s) != dg[to])
                fail_msg("%s: jump to %u differs from stepping there", policy_at(pi)->name, to);
            if (step_back(&s)) assert_true(digest(&s) == dg[to - 1]);
        }
        free(dg);
        step_free(&s);
    }
    graph_free(g);
    tu_gen_free(&t);
}

/* ------------------------------------------------------ heap */

static int cmp_items(const void *a, const void *b)
{
    const heap_item *x = a, *y = b;
    return heap_less(x, y) ? -1 : heap_less(y, x) ? 1 : 0;
}

static void heap_sorted_matches_sorted_copy(void **state)
{
    (void)state;
    uint64_t rng = 7;
    enum { CAP = 600 };
    heap h;
    assert_int_equal(heap_init(&h, CAP, CAP), 0);
    heap_item *sorted = malloc(CAP * sizeof *sorted), *out = malloc((CAP + 1) * sizeof *out);
    heap_item *before = malloc(CAP * sizeof *before);
    uint8_t *in = calloc(CAP, 1);
    assert_true(sorted && out && before && in);
    for (int round = 0; round < 400; round++) {
        /* Random pushes, pops and removals; keys with many ties in k[0],
         * k[1] and negative values, unique through k[2]. */
        int ops = 1 + (int)tu_below(&rng, 60);
        for (int o = 0; o < ops; o++) {
            uint32_t r = tu_below(&rng, 10);
            if (r < 6 && h.len < CAP) {
                uint32_t node;
                do node = tu_below(&rng, CAP);
                while (in[node]);
                heap_item it = {.node = node};
                it.k[0] = (int64_t)tu_below(&rng, 7) - 3;
                it.k[1] = tu_below(&rng, 3);
                it.k[2] = node;
                heap_push(&h, it);
                in[node] = 1;
            } else if (r < 8 && h.len) {
                heap_item top = heap_pop(&h);
                for (uint32_t i = 0; i < h.len; i++) assert_false(heap_less(&h.a[i], &top));
                in[top.node] = 0;
            } else if (h.len) {
                uint32_t node = h.a[tu_below(&rng, h.len)].node;
                heap_remove(&h, node);
                in[node] = 0;
            }
        }
        /* Heap order and position index hold. */
        for (uint32_t i = 1; i < h.len; i++) assert_false(heap_less(&h.a[i], &h.a[(i - 1) / 2]));
        for (uint32_t i = 0; i < h.len; i++) assert_int_equal(h.pos[h.a[i].node], i);
        memcpy(sorted, h.a, h.len * sizeof *sorted);
        qsort(sorted, h.len, sizeof *sorted, cmp_items);
        memcpy(before, h.a, h.len * sizeof *before);
        uint32_t skips[] = {0, 1, 2, 5, h.len / 2, h.len ? h.len - 1 : 0, h.len, h.len + 3};
        uint32_t maxes[] = {0, 1, 3, 10, h.len, h.len + 5};
        for (size_t a = 0; a < sizeof skips / sizeof *skips; a++)
            for (size_t b = 0; b < sizeof maxes / sizeof *maxes; b++) {
                uint32_t skip = skips[a], max = maxes[b];
                uint32_t want = skip >= h.len ? 0 : (h.len - skip < max ? h.len - skip : max);
                out[want].node = 0xdeadbeef;
                uint32_t got = heap_sorted(&h, skip, out, max);
                assert_int_equal(got, want);
                assert_int_equal(out[want].node, 0xdeadbeef); /* nothing past max */
                for (uint32_t i = 0; i < got; i++) {
                    assert_int_equal(out[i].node, sorted[skip + i].node);
                    assert_memory_equal(out[i].k, sorted[skip + i].k, sizeof out[i].k);
                }
            }
        assert_memory_equal(before, h.a, h.len * sizeof *before); /* unchanged */
    }
    heap_free(&h);
    free(sorted);
    free(out);
    free(before);
    free(in);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(forward_back_jump),
        cmocka_unit_test(ready_set_in_key_order_with_keys),
        cmocka_unit_test(memory_peak_live_at_each_step),
        cmocka_unit_test(live_buffers_with_small_cap),
        cmocka_unit_test(live_buffer_count_only),
        cmocka_unit_test(step_init_reports_overflow),
        cmocka_unit_test(random_graphs_property),
        cmocka_unit_test(far_jumps_on_a_large_graph),
        cmocka_unit_test(heap_sorted_matches_sorted_copy),
    };
    if (argc > 1) cmocka_set_test_filter(argv[1]);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
