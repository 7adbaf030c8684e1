/* budget_graph.c: a memory budget's plan as a memtris graph whose Ids ascend in the plan's
 * event order, so that policy given replays the plan and peaks where budget_check says: first
 * runs keep their node, reruns, offloads and fetches are new compute nodes, every buffer made
 * again a new ALLOC (and FREE) with a BufId of its own (sched/graph/graph_write.h writes it).
 * Exports budget_plan_graph and budget_graph_map_free. */
#define _GNU_SOURCE
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "budget.h"
#include "sched/graph/diag.h"
#include "sched/graph/graph_build.h"
#include "sched/graph/validate.h"

#define NO_USER UINT32_MAX

typedef struct pgraph {
    const budget_model *bm;
    const graph *g;
    double bw;
    graph_builder b;
    diag d;
    uint32_t *kind, *of, *event; /* the map, grown with the nodes */
    uint32_t cur;                /* the event being made into nodes (GRAPH_NONE: the start) */
    size_t mapcap;
    int64_t next_bufid;
    /* Each input buffer's current incarnation: */
    int64_t *bufid;  /* its BufId in the plan graph */
    uint32_t *alloc; /* its ALLOC's Id */
    uint32_t *maker; /* the Id of what made its contents (a run, a fetch, else its ALLOC) */
    uint32_t *offl;  /* the Id of the buffer's last Offload, or NO_USER */
    uint32_t *incs;  /* incarnations so far */
    uint32_t *head;  /* the Ids that used the incarnation: a list through unext/uid */
    uint32_t *unext, *uid;
    size_t nu, ucap;
    uint32_t *first; /* [n] the Id of a compute node's first run, or NO_USER */
    /* A random op that runs again: its generator state, an ALLOC before its first run read by
     * its runs, freed after its last rerun: */
    size_t *lastrun;   /* [n] the event of its last run */
    uint32_t *prevrun; /* [n] the Id of its run before (the state's users, in a line) */
    int64_t *rngbuf;   /* [n] the state's BufId */
    uint32_t *reads;   /* room for one node's reads */
    uint32_t *writes;  /* room for one node's writes */
    char *name;        /* the last name made by named() */
    size_t namecap;
    int oom;
} pgraph;

void budget_graph_map_free(budget_graph_map *map)
{
    if (!map) return;
    free(map->kind);
    free(map->of);
    free(map->event);
    map->kind = map->of = map->event = NULL;
}

/* Adds node s (its Inputs: ins[0..s->ninputs)) mapped to (kind, of): its Id, or NO_USER. */
static uint32_t add_node(pgraph *q, graph_node_spec *s, const int64_t *ins, uint32_t kind,
                         uint32_t of)
{
    if (q->oom) return NO_USER;
    uint32_t id = q->b.n, dup;
    if (id + 1 > q->mapcap) {
        size_t nc = q->mapcap ? q->mapcap * 2 : 1024;
        uint32_t *k = realloc(q->kind, nc * sizeof *k);
        if (k) q->kind = k;
        uint32_t *o = realloc(q->of, nc * sizeof *o);
        if (o) q->of = o;
        uint32_t *e = realloc(q->event, nc * sizeof *e);
        if (e) q->event = e;
        if (!k || !o || !e) {
            q->oom = 1;
            return NO_USER;
        }
        q->mapcap = nc;
    }
    s->id = id;
    int64_t *in;
    if (graph_build_node(&q->b, s, id, &dup, &in) == GRAPH_NONE) {
        q->oom = 1;
        return NO_USER;
    }
    if (s->ninputs) memcpy(in, ins, s->ninputs * sizeof *in);
    q->kind[id] = kind;
    q->of[id] = of;
    q->event[id] = q->cur;
    return id;
}

/* prefix, node i's Name (else "bBUFID" for an ALLOC, its display for the others) and suffix,
 * in q->name; NULL out of memory. */
static const char *named(pgraph *q, const char *prefix, uint32_t i, const char *suffix)
{
    const graph *g = q->g;
    char shown[GRAPH_LABEL_MAX];
    const char *base = g->name[i] ? g->strpool + g->name[i] : shown;
    if (!g->name[i] && g->kind[i] == NODE_ALLOC) /* "b7" for BufId 7 */
        snprintf(shown, sizeof shown, "b%" PRId64, g->buf_id[g->buf[i]]);
    else if (!g->name[i]) base = graph_display(g, i, shown, sizeof shown);
    size_t need = strlen(prefix) + strlen(base) + strlen(suffix) + 1;
    if (need > q->namecap) {
        char *s = realloc(q->name, need);
        if (!s) {
            q->oom = 1;
            return NULL;
        }
        q->name = s;
        q->namecap = need;
    }
    snprintf(q->name, q->namecap, "%s%s%s", prefix, base, suffix);
    return q->name;
}

static void edge(pgraph *q, uint32_t u, uint32_t v)
{
    if (!q->oom && u != NO_USER && u < v && graph_build_edge(&q->b, u, v)) q->oom = 1;
}

/* Records that node id used buffer x's current incarnation (its FREE comes after). */
static void use(pgraph *q, uint32_t x, uint32_t id)
{
    if (q->oom) return;
    if (q->nu == q->ucap) {
        size_t nc = q->ucap ? q->ucap * 2 : 1024;
        uint32_t *a = realloc(q->unext, nc * sizeof *a);
        if (a) q->unext = a;
        uint32_t *b = realloc(q->uid, nc * sizeof *b);
        if (b) q->uid = b;
        if (!a || !b) {
            q->oom = 1;
            return;
        }
        q->ucap = nc;
    }
    q->uid[q->nu] = id;
    q->unext[q->nu] = q->head[x];
    q->head[x] = (uint32_t)q->nu++;
}

/* A new incarnation of buffer x: its ALLOC, named after the input's and suffix ("" first). */
static void make_buffer(pgraph *q, uint32_t x, const char *suffix)
{
    const graph *g = q->g;
    uint32_t a = g->buf_alloc[x];
    int again = q->incs[x]++ > 0;
    q->bufid[x] = again ? q->next_bufid++ : g->buf_id[x];
    graph_node_spec s = {.kind = NODE_ALLOC,
                         .op = "ALLOC",
                         .name = again || g->name[a] ? named(q, "", a, suffix) : NULL,
                         .size = g->buf_size[x],
                         .bufid = q->bufid[x],
                         .stream = -1,
                         .tag = graph_buf_category(g, x)};
    uint32_t id = add_node(q, &s, NULL, BPG_ALLOC, x), other;
    if (id != NO_USER && graph_build_buffer(&q->b, id, q->bufid[x], s.size, &other)) q->oom = 1;
    q->alloc[x] = q->maker[x] = id;
    q->head[x] = NO_USER;
}

static void free_buffer(pgraph *q, uint32_t x)
{
    graph_node_spec s = {
        .kind = NODE_FREE, .op = "FREE", .size = -1, .bufid = q->bufid[x], .stream = -1};
    uint32_t id = add_node(q, &s, NULL, BPG_FREE, x), other;
    if (id == NO_USER) return;
    if (graph_build_buffer(&q->b, id, q->bufid[x], -1, &other)) q->oom = 1;
    edge(q, q->maker[x], id);
    for (uint32_t k = q->head[x]; k != NO_USER && !q->oom; k = q->unext[k]) edge(q, q->uid[k], id);
}

/* The edges that put v's first run after the first runs the input's Edges put before it: from
 * a compute predecessor, or one behind an ALLOC or FREE. */
static void order_edges(pgraph *q, uint32_t v, uint32_t id)
{
    const graph *g = q->g;
    for (uint32_t e = g->pred_off[v]; e < g->pred_off[v + 1]; e++) {
        uint32_t x = g->pred[e];
        if (g->kind[x] == NODE_COMPUTE) {
            edge(q, q->first[x], id);
            continue;
        }
        for (uint32_t f = g->pred_off[x]; f < g->pred_off[x + 1]; f++)
            if (g->kind[g->pred[f]] == NODE_COMPUTE) edge(q, q->first[g->pred[f]], id);
    }
}

/* Whether run v leaves l, which it makes, on the host (present 2: it starts there). */
static int left_on_host(const budget_model *bm, const uint8_t *present, uint32_t v, uint32_t l)
{
    return present[bm->phys[l]] == 2 && bm->producer[l] == v;
}

/* Node v's run (state: the BufId of its generator state that it reads, or -1): its Id, or
 * NO_USER. */
static uint32_t run_node(pgraph *q, uint32_t v, uint8_t *present, int64_t *ins, int64_t state)
{
    const budget_model *bm = q->bm;
    const graph *g = q->g;
    int again = q->first[v] != NO_USER;
    uint32_t nw = 0, nr = 0, *writes = q->writes;
    for (uint32_t e = bm->wr_off[v]; e < bm->wr_off[v + 1]; e++) {
        uint32_t x = bm->phys[bm->wr[e]];
        if (left_on_host(bm, present, v, bm->wr[e])) { /* an Input's, on the host: not made */
            present[x] = 0;
            continue;
        }
        if (!present[x]) make_buffer(q, x, again ? " (rerun)" : "");
        writes[nw] = x;
        ins[nw++] = q->bufid[x];
    }
    /* reads[]: the buffers it reads but changes in place (those are among its writes) */
    uint32_t *reads = q->reads;
    for (uint32_t e = bm->rd_off[v]; e < bm->rd_off[v + 1]; e++) {
        uint32_t x = bm->phys[bm->rd[e]], mine = 0;
        for (uint32_t i = 0; i < nw; i++) mine |= writes[i] == x;
        if (!mine) reads[nr++] = x;
    }
    for (uint32_t i = 0; i < nr; i++) ins[nw + i] = q->bufid[reads[i]];
    if (state >= 0) ins[nw + nr++] = state;
    double lat = g->latency ? g->latency[v] : (double)NAN;
    graph_node_spec s = {.kind = NODE_COMPUTE,
                         .op = graph_op(g, v),
                         .name = again        ? named(q, "", v, " (rerun)")
                                 : g->name[v] ? g->strpool + g->name[v]
                                              : NULL,
                         .has_latency = !isnan(lat),
                         .latency = lat,
                         .stream = g->stream ? g->stream[v] : -1,
                         .tag = graph_phase(g, v),
                         .rerun = graph_rerun(g, v),
                         .ninputs = nw + nr};
    uint32_t id = add_node(q, &s, ins, again ? BPG_RERUN : BPG_RUN, v);
    if (id == NO_USER) return NO_USER;
    if (state >= 0) nr--; /* the state's edges are the caller's */
    for (uint32_t i = 0; i < nw; i++) {
        uint32_t x = writes[i];
        present[x] = 1;
        edge(q, q->maker[x], id);
        if (q->maker[x] != q->alloc[x]) use(q, x, q->maker[x]); /* overwritten: its FREE after */
        q->maker[x] = id;
    }
    for (uint32_t i = 0; i < nr; i++) {
        uint32_t x = reads[i];
        edge(q, q->maker[x], id);
        use(q, x, id);
    }
    if (!again) order_edges(q, v, id);
    if (!again) q->first[v] = id;
    return id;
}

/* Run event k of random op v, which runs again in the plan, with its generator state: an
 * ALLOC "rng state of NAME" before its first run, read by every run of it (each after the
 * one before), freed after its last. */
static void rng_run(pgraph *q, size_t k, uint32_t v, uint8_t *present, int64_t *ins)
{
    uint32_t prev;
    if (q->first[v] == NO_USER) {
        q->rngbuf[v] = q->next_bufid++;
        graph_node_spec a = {.kind = NODE_ALLOC,
                             .op = "ALLOC",
                             .name = named(q, "rng state of ", v, ""),
                             .size = BUDGET_RNG_BYTES,
                             .bufid = q->rngbuf[v],
                             .stream = -1};
        uint32_t other;
        prev = add_node(q, &a, NULL, BPG_ALLOC, GRAPH_NONE);
        if (prev != NO_USER && graph_build_buffer(&q->b, prev, a.bufid, a.size, &other)) q->oom = 1;
    } else prev = q->prevrun[v];
    uint32_t id = run_node(q, v, present, ins, q->rngbuf[v]);
    edge(q, prev, id);
    q->prevrun[v] = id;
    if (k != q->lastrun[v] || id == NO_USER) return;
    graph_node_spec f = {
        .kind = NODE_FREE, .op = "FREE", .size = -1, .bufid = q->rngbuf[v], .stream = -1};
    uint32_t fid = add_node(q, &f, NULL, BPG_FREE, GRAPH_NONE), other;
    if (fid == NO_USER) return;
    if (graph_build_buffer(&q->b, fid, f.bufid, -1, &other)) q->oom = 1;
    edge(q, id, fid);
}

/* An offload (then the FREE) or a fetch (after its ALLOC) of buffer x: a transfer node. */
static void transfer(pgraph *q, uint32_t x, int fetch)
{
    const graph *g = q->g;
    if (fetch) make_buffer(q, x, " (fetched)");
    int64_t in = q->bufid[x];
    graph_node_spec s = {.kind = NODE_COMPUTE,
                         .op = fetch ? "Fetch" : "Offload",
                         .name = named(q, fetch ? "fetch " : "offload ", g->buf_alloc[x], ""),
                         .has_latency = 1,
                         .latency = (double)g->buf_size[x] / q->bw * 1000,
                         .stream = 1,
                         .rerun = GRAPH_RERUN_NO,
                         .ninputs = 1};
    uint32_t id = add_node(q, &s, &in, fetch ? BPG_FETCH : BPG_OFFLOAD, x);
    if (id == NO_USER) return;
    edge(q, q->maker[x], id);
    if (fetch) {
        edge(q, q->offl[x], id);
        q->maker[x] = id;
        return;
    }
    use(q, x, id);
    q->offl[x] = id;
    free_buffer(q, x);
}

/* The nodes and edges of plan p, after the buffers present from the start. */
static int build_nodes(pgraph *q, const budget_plan *p)
{
    const graph *g = q->g;
    const budget_model *bm = q->bm;
    uint8_t *present = calloc((size_t)g->nbufs + 1, 1);
    int64_t *ins = malloc(((size_t)bm->rd_off[g->n] + g->nbufs + 2) * sizeof *ins);
    if (!present || !ins) q->oom = 1;
    q->cur = GRAPH_NONE;
    for (size_t k = 0; !q->oom && k < p->n && p->ev[k].op == BUDGET_HOST; k++)
        present[p->ev[k].x] = 2; /* starts on the host: no ALLOC until its first fetch */
    for (uint32_t x = 0; !q->oom && x < g->nbufs; x++)
        if (bm->producer[x] == GRAPH_NONE && !present[x]) {
            make_buffer(q, x, "");
            present[x] = 1;
        }
    for (size_t k = 0; !q->oom && k < p->n; k++) {
        uint32_t x = p->ev[k].x;
        q->cur = (uint32_t)k;
        switch (p->ev[k].op) {
        case BUDGET_RUN:
            if (bm->rng[x] && (q->first[x] != NO_USER || q->lastrun[x] > k))
                rng_run(q, k, x, present, ins); /* it runs again: with its generator state */
            else run_node(q, x, present, ins, -1);
            break;
        case BUDGET_FREE:
            free_buffer(q, x);
            present[x] = 0;
            break;
        case BUDGET_HOST: /* done above */ break;
        default:
            transfer(q, x, p->ev[k].op == BUDGET_FETCH);
            present[x] = p->ev[k].op == BUDGET_FETCH;
        }
    }
    free(present);
    free(ins);
    return q->oom ? -1 : 0;
}

/* The graph from the builder, its edges resolved and validated: NULL with err. */
static graph *take_graph(pgraph *q, char *err, size_t errcap)
{
    char source[1024];
    snprintf(source, sizeof source, "%s (plan)", q->g->source ? q->g->source : "graph");
    graph *out = graph_build_take(&q->b, source);
    if (!out) {
        snprintf(err, errcap, "out of memory");
        return NULL;
    }
    graph_build_free_changes(out);
    diag d;
    diag_init(&d, source);
    int bad = graph_build_edges(&q->b, out) || q->b.oom || q->d.nerrors ||
              validate_graph(out, &d) != VALIDATE_OK;
    if (bad) {
        const char *why = q->b.oom ? "out of memory" : "the plan graph does not validate";
        for (size_t k = 0; k < d.nlines && !q->b.oom; k++)
            if (d.severity[k] == DIAG_ERROR) {
                why = d.lines[k];
                break;
            }
        snprintf(err, errcap, "internal error: %s", why);
        graph_free(out);
        out = NULL;
    }
    diag_free(&d);
    return out;
}

static void pgraph_free(pgraph *q)
{
    graph_build_free(&q->b);
    diag_free(&q->d);
    free(q->kind);
    free(q->of);
    free(q->event);
    free(q->bufid);
    free(q->alloc);
    free(q->maker);
    free(q->offl);
    free(q->incs);
    free(q->head);
    free(q->unext);
    free(q->uid);
    free(q->first);
    free(q->lastrun);
    free(q->prevrun);
    free(q->rngbuf);
    free(q->reads);
    free(q->writes);
    free(q->name);
}

/* The state's arrays and the first BufId past the input's: 0, or -1 with err. */
static int pgraph_init(pgraph *q, const budget_plan *p, char *err, size_t errcap)
{
    const graph *g = q->g;
    size_t nb = (size_t)g->nbufs + 1;
    q->bufid = malloc(nb * sizeof *q->bufid);
    q->alloc = malloc(nb * sizeof *q->alloc);
    q->maker = malloc(nb * sizeof *q->maker);
    q->offl = malloc(nb * sizeof *q->offl);
    q->incs = calloc(nb, sizeof *q->incs);
    q->head = malloc(nb * sizeof *q->head);
    q->first = malloc(((size_t)g->n + 1) * sizeof *q->first);
    q->reads = malloc(((size_t)q->bm->rd_off[g->n] + 1) * sizeof *q->reads);
    q->writes = malloc(((size_t)q->bm->wr_off[g->n] + 1) * sizeof *q->writes);
    q->lastrun = calloc((size_t)g->n + 1, sizeof *q->lastrun);
    q->prevrun = malloc(((size_t)g->n + 1) * sizeof *q->prevrun);
    q->rngbuf = malloc(((size_t)g->n + 1) * sizeof *q->rngbuf);
    if (!q->bufid || !q->alloc || !q->maker || !q->offl || !q->incs || !q->head || !q->first ||
        !q->reads || !q->writes || !q->lastrun || !q->prevrun || !q->rngbuf) {
        snprintf(err, errcap, "out of memory");
        return -1;
    }
    for (uint32_t x = 0; x < g->nbufs; x++) q->offl[x] = q->head[x] = NO_USER;
    for (uint32_t v = 0; v < g->n; v++) q->first[v] = NO_USER;
    for (size_t k = 0; k < p->n; k++)
        if (p->ev[k].op == BUDGET_RUN) q->lastrun[p->ev[k].x] = k;
    int64_t most = 0;
    for (uint32_t x = 0; x < g->nbufs; x++)
        if (g->buf_id[x] > most) most = g->buf_id[x];
    if ((uint64_t)most + p->n + g->n + 1 > (uint64_t)GRAPH_MAX_SIZE ||
        p->n + g->nbufs + 2 * (size_t)g->n >= GRAPH_MAX_NODES) {
        snprintf(err, errcap, "the plan graph would need BufIds or Ids past 2^53 - 1");
        return -1;
    }
    q->next_bufid = most + 1;
    for (uint32_t x = 0; x < g->nbufs; x++)
        if ((double)g->buf_size[x] / q->bw * 1000 > GRAPH_MAX_LATENCY) {
            snprintf(err, errcap,
                     "moving BufId %" PRId64 " at this bandwidth takes longer than a Latency "
                     "may be (%g ms)",
                     g->buf_id[x], GRAPH_MAX_LATENCY);
            return -1;
        }
    return 0;
}

int budget_plan_graph(const budget_model *bm, const budget_plan *p, double bandwidth, graph **out,
                      budget_graph_map *map, char *err, size_t errcap)
{
    *out = NULL;
    if (map) map->kind = map->of = map->event = NULL;
    budget_stats st;
    if (budget_check(bm, p, bandwidth, &st, err, errcap)) return -1;
    pgraph q = {.bm = bm, .g = bm->g, .bw = bandwidth};
    diag_init(&q.d, "plan");
    graph_build_init(&q.b, &q.d, GRAPH_MAX_NODES);
    int bad = pgraph_init(&q, p, err, errcap);
    if (!bad && build_nodes(&q, p)) {
        snprintf(err, errcap, "out of memory");
        bad = -1;
    }
    if (!bad && !(*out = take_graph(&q, err, errcap))) bad = -1;
    if (!bad && map) {
        map->kind = q.kind;
        map->of = q.of;
        map->event = q.event;
        q.kind = q.of = q.event = NULL;
    }
    pgraph_free(&q);
    return bad;
}
