/* cli_memviz.c: a plan as PyTorch's memory snapshot ('plan --format
 * memory-viz'), the pickle that pytorch.org/memory_viz and
 * torch.cuda._memory_viz read: the arena as one segment of device 0 at
 * MEMVIZ_BASE, its blocks as they are at the schedule's end (after every
 * event of the trace, as a snapshot is taken), and the trace of every ALLOC
 * and FREE in schedule order, each naming its node as
 * the frame (file: the graph, line: the node's Id, name: its Name). Every
 * address is checked first (cli_plan_memviz_check): a plan whose addresses
 * pass 2^63-1 is refused, never written wrapped. Exports cli_plan_memviz and
 * cli_plan_memviz_check. */
#include "cli_plan.h"
#include <inttypes.h>
#include <stdlib.h>
#include "cli.h"
#include "util/pickle.h"

/* One frame naming node u: {"filename": the graph, "line": Id, "name": Name}. */
static void frames(FILE *f, const graph *g, uint32_t u)
{
    char buf[GRAPH_LABEL_MAX];
    pk_list_begin(f);
    pk_dict_begin(f);
    pk_key_str(f, "filename", g->source);
    pk_key_int(f, "line", g->id[u]);
    pk_key_str(f, "name", graph_display(g, u, buf, sizeof buf));
    pk_dict_end(f);
    pk_list_end(f);
}

/* Bytes the placer holds for buffer b. */
static int64_t held(const cli_plan *cp, uint32_t b)
{
    const placement *pl = cp->pl;
    return pl->block ? pl->block[b] : place_span(cp->g->buf_size[b], pl->align);
}

/* One trace entry: action on buffer b at step s (from 0), frames naming node u. */
static void event(FILE *f, const cli_plan *cp, const char *action, uint32_t b, uint32_t s,
                  uint32_t u)
{
    pk_dict_begin(f);
    pk_key_str(f, "action", action);
    pk_key_int(f, "addr", MEMVIZ_BASE + cp->pl->offset[b]);
    pk_key_int(f, "size", held(cp, b));
    pk_key_int(f, "stream", 0);
    pk_key_int(f, "time_us", (int64_t)s + 1);
    pk_str(f, "frames");
    frames(f, cp->g, u);
    pk_dict_end(f);
}

/* The highest address of the segment: the arena (a pool: what it reserved),
 * raised to the end of any block past it. */
static int64_t segment_total(const cli_plan *cp)
{
    const placement *pl = cp->pl;
    int64_t total = pl->reserved > pl->arena ? pl->reserved : pl->arena;
    for (uint32_t b = 0; b < cp->g->nbufs; b++)
        if (pl->offset[b] + held(cp, b) > total) total = pl->offset[b] + held(cp, b);
    return total;
}

int cli_plan_memviz_check(const char *cmd, const cli_plan *cp)
{
    const graph *g = cp->g;
    const placement *pl = cp->pl;
    const int64_t room = INT64_MAX - MEMVIZ_BASE; /* the most bytes above the base */
    int64_t end, alloc = 0, req = 0;
    char who[GRAPH_LABEL_MAX + 64];
    for (uint32_t i = 0; i < g->nbufs; i++) {
        uint32_t b = cp->order[i];
        int64_t h = held(cp, b);
        if (pl->offset[b] < 0 || h < 0 || __builtin_add_overflow(pl->offset[b], h, &end) ||
            end > room ||
            (g->buf_free[b] == GRAPH_NONE && (__builtin_add_overflow(alloc, h, &alloc) ||
                                              __builtin_add_overflow(req, g->buf_size[b], &req)))) {
            cli_plan_buf_label(who, sizeof who, cp, b);
            cli_eprintf("memtris %s: %s at offset %" PRId64 " holding %" PRId64
                        " bytes ends past 2^63-1 bytes at memory-viz's base address "
                        "0x7f0000000000: a memory snapshot cannot hold it\n",
                        cmd, who, pl->offset[b], h);
            return EXIT_BAD;
        }
    }
    int64_t total = segment_total(cp);
    if (total > room) {
        cli_eprintf("memtris %s: the arena of %" PRId64 " bytes ends past 2^63-1 bytes at "
                    "memory-viz's base address 0x7f0000000000: a memory snapshot cannot hold it\n",
                    cmd, total);
        return EXIT_BAD;
    }
    return EXIT_OK;
}

static const cli_plan *sort_cp;

static int by_offset(const void *x, const void *y)
{
    int64_t a = sort_cp->pl->offset[*(const uint32_t *)x];
    int64_t b = sort_cp->pl->offset[*(const uint32_t *)y];
    return a < b ? -1 : a > b;
}

static void block(FILE *f, int64_t addr, int64_t size, int64_t requested, const char *state)
{
    pk_dict_begin(f);
    pk_key_int(f, "address", MEMVIZ_BASE + addr);
    pk_key_int(f, "size", size);
    pk_key_int(f, "requested_size", requested);
    pk_key_str(f, "state", state);
}

/* The segment: the arena, its blocks at the end (the buffers never freed,
 * with inactive blocks for the holes between them). */
static void segment(FILE *f, const cli_plan *cp, const uint32_t *live, uint32_t nlive,
                    int64_t total)
{
    const graph *g = cp->g;
    int64_t alloc = 0, req = 0;
    for (uint32_t i = 0; i < nlive; i++) {
        alloc += held(cp, live[i]);
        req += g->buf_size[live[i]];
    }
    pk_dict_begin(f);
    pk_key_int(f, "device", 0);
    pk_key_int(f, "address", MEMVIZ_BASE);
    pk_key_int(f, "total_size", total);
    pk_key_int(f, "allocated_size", alloc);
    pk_key_int(f, "active_size", alloc);
    pk_key_int(f, "requested_size", req);
    pk_key_int(f, "stream", 0);
    pk_key_str(f, "segment_type", "large");
    pk_str(f, "segment_pool_id");
    pk_tuple_begin(f);
    pk_int(f, 0);
    pk_int(f, 0);
    pk_tuple_end(f);
    pk_str(f, "is_expandable");
    pk_bool(f, 0);
    pk_str(f, "frames");
    pk_list_begin(f);
    pk_list_end(f);
    pk_str(f, "blocks");
    pk_list_begin(f);
    int64_t at = 0;
    for (uint32_t i = 0; i < nlive; i++) {
        uint32_t b = live[i];
        int64_t off = cp->pl->offset[b], end = off + held(cp, b);
        if (i + 1 < nlive && end > cp->pl->offset[live[i + 1]]) end = cp->pl->offset[live[i + 1]];
        if (end > total) end = total;
        if (end <= off) continue;
        if (off > at) {
            block(f, at, off - at, 0, "inactive");
            pk_str(f, "frames");
            pk_list_begin(f);
            pk_list_end(f);
            pk_dict_end(f);
        }
        block(f, off, end - off, g->buf_size[b], "active_allocated");
        pk_str(f, "frames");
        frames(f, g, g->buf_alloc[b]);
        pk_dict_end(f);
        at = end;
    }
    if (at < total) {
        block(f, at, total - at, 0, "inactive");
        pk_str(f, "frames");
        pk_list_begin(f);
        pk_list_end(f);
        pk_dict_end(f);
    }
    pk_list_end(f);
    pk_dict_end(f);
}

int cli_plan_memviz(FILE *f, const cli_plan *cp)
{
    /* Every address below, MEMVIZ_BASE + an offset + at most the bytes held
     * there, and every sum, is at most 2^63-1: cli_plan_memviz_check. */
    const graph *g = cp->g;
    const run *r = cp->r;
    uint32_t *live = malloc(((size_t)g->nbufs + 1) * sizeof *live), nlive = 0;
    if (!live) return -1;
    /* The segment: the memory taken (the arena; pool: what it reserved), and
     * every block within it. */
    int64_t total = segment_total(cp); /* within 2^63-1 from the base: checked */
    /* Live at the end, by offset: the buffers never freed. PyTorch's viewer
     * takes the blocks as the state after the trace's last event and walks
     * the trace back from there, so they must be the end's. */
    for (uint32_t b = 0; b < g->nbufs; b++)
        if (g->buf_free[b] == GRAPH_NONE && held(cp, b) > 0) live[nlive++] = b;
    sort_cp = cp;
    qsort(live, nlive, sizeof *live, by_offset);
    pk_begin(f);
    pk_dict_begin(f);
    pk_str(f, "segments");
    pk_list_begin(f);
    if (total) segment(f, cp, live, nlive, total);
    pk_list_end(f);
    pk_str(f, "device_traces");
    pk_list_begin(f);
    pk_list_begin(f);
    if (total) {
        pk_dict_begin(f);
        pk_key_str(f, "action", "segment_alloc");
        pk_key_int(f, "addr", MEMVIZ_BASE);
        pk_key_int(f, "size", total);
        pk_key_int(f, "stream", 0);
        pk_key_int(f, "time_us", 0);
        pk_str(f, "frames");
        pk_list_begin(f);
        pk_list_end(f);
        pk_dict_end(f);
    }
    for (uint32_t s = 0; s < r->n; s++) {
        uint32_t u = r->order[s];
        if (g->kind[u] == NODE_ALLOC) event(f, cp, "alloc", g->buf[u], s, u);
        else if (g->kind[u] == NODE_FREE) {
            event(f, cp, "free_requested", g->buf[u], s, u);
            event(f, cp, "free_completed", g->buf[u], s, u);
        }
    }
    pk_list_end(f);
    pk_list_end(f);
    pk_dict_end(f);
    pk_end(f);
    free(live);
    return 0;
}
