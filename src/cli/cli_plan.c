/* cli_plan.c: a plan as plan and place show it: the summary and table, JSON,
 * plan's CSV, MiniMalloc's CSV and the SVG picture. A plan of place's names
 * its buffers by the CSV's ids and times, one of plan's by BufIds and steps.
 * cli_plan_write writes any of them (and cli_memviz.c's snapshot) to a file.
 * Exports cli_plan_* and cli_bufid_order. */
#include "cli_plan.h"
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "cli_bycat.h"
#include "cli_opts.h"
#include "cli_proof.h"
#include "util/optimal.h"
#include "util/units.h"
#include "svg/svg.h"
#include "util/utf8.h"

typedef struct bufkey {
    int64_t id;
    uint32_t b;
} bufkey;

static int by_bufid(const void *x, const void *y)
{
    const bufkey *a = x, *b = y;
    return a->id < b->id ? -1 : a->id > b->id;
}

uint32_t *cli_bufid_order(const graph *g)
{
    bufkey *k = malloc(((size_t)g->nbufs + 1) * sizeof *k);
    uint32_t *out = malloc(((size_t)g->nbufs + 1) * sizeof *out);
    if (!k || !out) {
        free(k);
        free(out);
        return NULL;
    }
    for (uint32_t b = 0; b < g->nbufs; b++) k[b] = (bufkey){g->buf_id[b], b};
    qsort(k, g->nbufs, sizeof *k, by_bufid);
    for (uint32_t b = 0; b < g->nbufs; b++) out[b] = k[b].b;
    free(k);
    return out;
}

/* A buffer's free step as plan writes it: numbered from 1, or none (null, "",
 * "never") for a buffer never freed. */
static void free_step_text(char *out, size_t cap, const cli_plan *cp, uint32_t b, const char *none)
{
    if (cp->g->buf_free[b] == GRAPH_NONE) snprintf(out, cap, "%s", none);
    else snprintf(out, cap, "%" PRIu32, cp->lt->free_step[b] + 1);
}

/* The buffer's display name: its ALLOC's Name, or "". */
static const char *buf_name(const graph *g, uint32_t b)
{
    uint32_t u = g->buf_alloc[b];
    return g->name[u] ? graph_name(g, u) : "";
}

/* place's row of buffer b (its BufId). */
static uint32_t row_of(const cli_plan *cp, uint32_t b) { return (uint32_t)cp->g->buf_id[b]; }

/* One buffer of the JSON's "buffers": place's by the CSV's id and times,
 * plan's by BufId and steps. */
static void buffer_json(jw *w, const cli_plan *cp, uint32_t b)
{
    const graph *g = cp->g;
    jw_object(w);
    if (cp->prob) {
        uint32_t row = row_of(cp, b);
        jw_kstring(w, "id", problem_id(cp->prob, row));
        jw_kint(w, "offset", cp->pl->offset[b]);
        jw_kint(w, "size", g->buf_size[b]);
        jw_kint(w, "lower", cp->prob->lower[row]);
        jw_kint(w, "upper", cp->prob->upper[row]);
    } else {
        jw_kint(w, "buf", g->buf_id[b]);
        jw_kint(w, "offset", cp->pl->offset[b]);
        jw_kint(w, "size", g->buf_size[b]);
        jw_kuint(w, "alloc_step", cp->lt->alloc_step[b] + 1);
        jw_key(w, "free_step"); /* free_step_text's, without a printf a buffer */
        if (g->buf_free[b] == GRAPH_NONE) jw_null(w);
        else jw_uint(w, cp->lt->free_step[b] + 1);
    }
    jw_object_end(w);
}

void cli_plan_json(FILE *f, const cli_plan *cp)
{
    const placement *pl = cp->pl;
    jw w;
    jw_file_big(&w, f);
    jw_object(&w);
    if (cp->policy) jw_kstring(&w, "policy", cp->policy);
    jw_kstring(&w, "placer", pl->placer);
    if (cp->prob) jw_kint(&w, "align", pl->align);
    jw_kint(&w, "arena", pl->arena);
    jw_kint(&w, "lower_bound", pl->bound);
    jw_kint(&w, "live_peak", cp->r->peak);
    if (!cp->prob) cli_bycat_json(&w, cp->g, cp->r);
    jw_kbool(&w, "proven_optimal", pl->proven);
    if (pl->capacity) {
        jw_kint(&w, "capacity", pl->capacity);
        jw_kbool(&w, "fits", pl->fits == PLACE_FITS_YES);
    }
    jw_key(&w, "fragmentation");
    jw_f(&w, place_fragmentation(pl, cp->r->peak), 6);
    jw_kint(&w, "fragmentation_bytes", optimal_frag_bytes(pl->arena, cp->r->peak));
    if (pl->search.ran) {
        jw_key(&w, "search");
        jw_object(&w);
        jw_kstring(&w, "stopped", cli_place_stop_word(pl->search.stopped));
        jw_kuint(&w, "states", pl->search.states);
        jw_kuint(&w, "probes", pl->search.probes);
        jw_object_end(&w);
    }
    if (cp->by_arena) {
        jw_kstring(&w, "ranked_by", "arena");
        jw_kstring(&w, "found_by", cp->by_arena->name);
        jw_key(&w, "by_peak");
        jw_object(&w);
        jw_kstring(&w, "policy", cp->by_peak->name);
        jw_kint(&w, "peak", cp->by_peak_peak);
        jw_kint(&w, "arena", cp->by_peak_arena);
        jw_object_end(&w);
    }
    jw_key(&w, "buffers");
    jw_array(&w);
    for (uint32_t i = 0; i < cp->g->nbufs; i++) buffer_json(&w, cp, cp->order[i]);
    jw_array_end(&w);
    jw_object_end(&w);
    jw_end(&w);
}

void cli_plan_csv(FILE *f, const cli_plan *cp)
{
    const graph *g = cp->g;
    fprintf(f, "buf,offset,size,alloc_step,free_step,name\n");
    for (uint32_t i = 0; i < g->nbufs; i++) {
        uint32_t b = cp->order[i];
        char fs[16];
        free_step_text(fs, sizeof fs, cp, b, "");
        fprintf(f, "%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRIu32 ",%s,", g->buf_id[b],
                cp->pl->offset[b], g->buf_size[b], cp->lt->alloc_step[b] + 1, fs);
        cli_csv_field(f, buf_name(g, b));
        fputc('\n', f);
    }
}

int cli_write_file(void *ctx, const char *data, size_t len)
{
    return fwrite(data, 1, len, ctx) == len ? 0 : -1;
}

int cli_plan_minimalloc(FILE *f, const cli_plan *cp)
{
    if (cp->prob) {
        /* The CSV's rows as read, each with its buffer's offset. */
        int64_t *off = malloc(((size_t)cp->prob->n + 1) * sizeof *off);
        if (!off) return -1;
        for (uint32_t b = 0; b < cp->g->nbufs; b++) off[row_of(cp, b)] = cp->pl->offset[b];
        int rc = problem_write_csv(cp->prob, off, cli_write_file, f);
        free(off);
        return rc;
    }
    problem *p = problem_from_plan(cp->g, cp->lt, cp->pl, cp->order);
    if (!p) return -1;
    int rc = problem_write_csv(p, p->offset, cli_write_file, f);
    problem_free(p);
    return rc;
}

/* The first lines of the text: what was placed, and how. */
static void text_head(FILE *f, const cli_plan *cp)
{
    const graph *g = cp->g;
    const placement *pl = cp->pl;
    char a[32], src[1024];
    utf8_printable(g->source, src, sizeof src);
    if (cp->prob) {
        int64_t t0 = 0, t1 = 0;
        for (uint32_t i = 0; i < cp->prob->n; i++) {
            if (!i || cp->prob->lower[i] < t0) t0 = cp->prob->lower[i];
            if (!i || cp->prob->upper[i] > t1) t1 = cp->prob->upper[i];
        }
        fprintf(f,
                "%s: placer %s, align %s; %" PRIu32 " buffers, times %" PRId64 " to %" PRId64 "\n",
                src, pl->placer, units_bytes(a, sizeof a, pl->align, 0), g->nbufs, t0, t1);
    } else
        fprintf(f, "%s: policy %s, placer %s, align %s; %" PRIu32 " steps, %" PRIu32 " buffers\n",
                src, cp->policy, pl->placer, units_bytes(a, sizeof a, pl->align, 0), cp->r->n,
                g->nbufs);
    fprintf(f, "  arena          %s (%" PRId64 " bytes)\n", units_bytes(a, sizeof a, pl->arena, 0),
            pl->arena);
    int64_t lb = pl->bound;
    if (lb > place_lower_bound(g, cp->r, pl->align))
        fprintf(f, "  lower bound    %s (%" PRId64 " bytes): proved by exact's search\n",
                units_bytes(a, sizeof a, lb, 0), lb);
    else if (!cp->r->peak_step)
        fprintf(f, "  lower bound    0 B: live memory never rises above zero\n");
    else if (lb != cp->r->peak)
        fprintf(
            f, "  lower bound    %s (%" PRId64 " bytes): the most aligned bytes live at one step\n",
            units_bytes(a, sizeof a, lb, 0), lb);
    else if (cp->prob) {
        /* The peak follows an ALLOC: its buffer's lower is the time. */
        uint32_t b = g->buf[cp->r->order[cp->r->peak_step - 1]];
        fprintf(f,
                "  lower bound    %s (%" PRId64 " bytes): the peak of live bytes, at time %" PRId64
                "\n",
                units_bytes(a, sizeof a, lb, 0), lb, cp->prob->lower[row_of(cp, b)]);
    } else
        fprintf(f,
                "  lower bound    %s (%" PRId64 " bytes): the peak of live bytes, at step %" PRIu32
                "\n",
                units_bytes(a, sizeof a, lb, 0), lb, cp->r->peak_step);
    /* The one excess figure; the gap to the bound only where the bound is not
     * the peak (where it is, that gap is the fragmentation again). */
    char gap[96];
    int64_t peak = cp->r->peak;
    fprintf(f, "  fragmentation  %s: the arena less the live peak\n",
            optimal_frag(gap, sizeof gap, pl->arena, peak, OPTIMAL_LONG));
    if (!cp->prob) cli_bycat_text(f, "  at the peak:  ", g, cp->r);
    if (pl->arena > lb && lb == peak) fprintf(f, "  optimality     not proven optimal\n");
    else
        fprintf(f, "  optimality     %s\n",
                optimal_phrase(gap, sizeof gap, pl->arena, lb, pl->proven, OPTIMAL_LONG));
    if (pl->fits == PLACE_FITS_YES)
        fprintf(f, "  capacity       %s (%" PRId64 " bytes): the plan fits\n",
                units_bytes(a, sizeof a, pl->capacity, 0), pl->capacity);
    if (pl->search.ran)
        fprintf(f, "  search         %s after %" PRIu64 " node%s over %" PRIu32 " capacit%s\n",
                cli_place_stop_word(pl->search.stopped), pl->search.states,
                pl->search.states == 1 ? "" : "s", pl->search.probes,
                pl->search.probes == 1 ? "y" : "ies");
    /* The pool takes memory from the system and keeps it: say how much, even when it is the arena.
     */
    if (cp->pc->keeps_memory || pl->reserved != pl->arena)
        fprintf(f, "  reserved       %s (%" PRId64 " bytes) taken from the system and kept\n",
                units_bytes(a, sizeof a, pl->reserved, 0), pl->reserved);
    if (pl->detail) fprintf(f, "  found by       %s\n", pl->detail);
    if (cp->by_arena) {
        char b[32], c[32];
        fprintf(f, "  schedule       %s's, the least arena of best's members", cp->by_arena->name);
        if (cp->by_peak != cp->by_arena)
            fprintf(f,
                    "; by live peak best takes %s's (peak %s), which places in %s: the live-peak "
                    "winner loses after placement",
                    cp->by_peak->name, units_bytes(b, sizeof b, cp->by_peak_peak, 0),
                    units_bytes(c, sizeof c, cp->by_peak_arena, 0));
        else fprintf(f, ", also the least live peak");
        fputc('\n', f);
    }
}

void cli_plan_text(FILE *f, const cli_plan *cp)
{
    const graph *g = cp->g;
    const placement *pl = cp->pl;
    char a[32], c[32], d[32];
    text_head(f, cp);
    if (cp->prob)
        fprintf(f, "\n%12s  %12s  %12s  %12s  %10s  %10s\n", "id", "offset", "size", "held",
                "lower", "upper");
    else
        fprintf(f, "\n%12s  %12s  %12s  %12s  %10s  %10s  %s\n", "buf", "offset", "size", "held",
                "alloc step", "free step", "name");
    for (uint32_t i = 0; i < g->nbufs; i++) {
        uint32_t b = cp->order[i];
        int64_t held = pl->block ? pl->block[b] : place_span(g->buf_size[b], pl->align);
        units_bytes(a, sizeof a, pl->offset[b], 0);
        units_bytes(c, sizeof c, g->buf_size[b], 0);
        units_bytes(d, sizeof d, held, 0);
        if (cp->prob) {
            uint32_t row = row_of(cp, b);
            fprintf(f, "%12s  %12s  %12s  %12s  %10" PRId64 "  %10" PRId64 "\n",
                    problem_id(cp->prob, row), a, c, d, cp->prob->lower[row], cp->prob->upper[row]);
            continue;
        }
        char fs[16];
        free_step_text(fs, sizeof fs, cp, b, "never");
        fprintf(f, "%12" PRId64 "  %12s  %12s  %12s  %10" PRIu32 "  %10s  ", g->buf_id[b], a, c, d,
                cp->lt->alloc_step[b] + 1, fs);
        utf8_fputs_printable(buf_name(g, b), f, 0);
        fputc('\n', f);
    }
    const char *block = pl->block ? ", or the block it was given" : "";
    if (cp->prob)
        fprintf(f,
                "A buffer is live from its lower time up to, not including, its upper time.\n"
                "held: the bytes the placer keeps for the buffer (its size rounded up to the\n"
                "alignment%s).\n",
                block);
    else
        fprintf(f,
                "Steps are numbered from 1 as in 'memtris schedule': a buffer is live from its\n"
                "alloc step up to, not including, its free step. held: the bytes the placer\n"
                "keeps for the buffer (its size rounded up to the alignment%s).\n",
                block);
}

/* Writes the plan in FORMAT to o, open: EXIT_OK, or EXIT_BAD after a
 * message (o left open, for the caller to abandon). */
static int plan_emit(cli_out *o, int format, const cli_plan *cp)
{
    int rc = 0;
    if (format == CLI_JSON) cli_plan_json(o->f, cp);
    else if (format == CLI_TEXT) cli_plan_text(o->f, cp);
    else if (format == CLI_MINIMALLOC || (format == CLI_CSV && cp->prob))
        rc = cli_plan_minimalloc(o->f, cp);
    else if (format == CLI_CSV) cli_plan_csv(o->f, cp);
    else rc = cli_plan_memviz(o->f, cp);
    if (rc && !ferror(o->f)) {
        cli_eprintf("memtris %s: out of memory writing %u buffers\n", o->cmd, cp->g->nbufs);
        return EXIT_BAD;
    }
    return EXIT_OK;
}

/* Writes the SVG picture to o, as plan_emit does the plan. */
static int svg_emit(cli_out *o, int format, const cli_plan *cp)
{
    (void)format;
    char err[256];
    svg_plan sp = {.g = cp->g,
                   .r = cp->r,
                   .pl = cp->pl,
                   .policy = cp->policy ? cp->policy : "the CSV's time order"};
    if (svg_write_plan(o->f, &sp, err, sizeof err)) {
        cli_eprintf("memtris %s: %s\n", o->cmd, err);
        return EXIT_BAD;
    }
    return EXIT_OK;
}

/* One output of cli_plan_write. */
typedef struct plan_output {
    const char *path;
    int (*emit)(cli_out *o, int format, const cli_plan *cp);
    cli_out out;
} plan_output;

/* Closes o (a file: renamed over its target), an error already on the
 * stream a write error. */
static int out_close(cli_out *o)
{
    return cli_out_close(o, ferror(o->f) ? (errno ? errno : EIO) : 0);
}

int cli_plan_write(const char *cmd, const char *path, int format, const char *svg,
                   const cli_plan *cp)
{
    /* What the format cannot hold is refused before any output. */
    if (path) {
        int st = format == CLI_MINIMALLOC ? cli_plan_minimalloc_check(cmd, cp)
                 : format == CLI_MEMVIZ   ? cli_plan_memviz_check(cmd, cp)
                                          : EXIT_OK;
        if (st) return st;
    }
    plan_output w[2];
    int n = 0, files = 0, status = EXIT_OK;
    /* The files first, standard output last. */
    for (int to_stdout = 0; to_stdout < 2; to_stdout++) {
        if (path && (strcmp(path, "-") == 0) == to_stdout)
            w[n++] = (plan_output){.path = path, .emit = plan_emit};
        if (svg && (strcmp(svg, "-") == 0) == to_stdout)
            w[n++] = (plan_output){.path = svg, .emit = svg_emit};
        if (!to_stdout) files = n;
    }
    /* Every file written whole before any is renamed over its target. */
    int open = 0;
    while (!status && open < files) {
        plan_output *o = &w[open];
        if (cli_out_open(&o->out, cmd, o->path)) {
            status = EXIT_BAD;
            break;
        }
        open++;
        status = o->emit(&o->out, format, cp);
    }
    /* Each file flushed (a device's write error shows now) before any is renamed. */
    for (int i = 0; i < open && !status; i++)
        if (fflush(w[i].out.f) || ferror(w[i].out.f)) {
            status = cli_out_close(&w[i].out, errno ? errno : EIO); /* removed */
            w[i].path = NULL;
        }
    /* Then standard output, and the files renamed over their targets only
     * when it was written too (else none is). */
    for (int i = files; !status && i < n; i++) {
        cli_out *o = &w[i].out;
        if (cli_out_open(o, cmd, "-")) status = EXIT_BAD;
        o->stdout_name = "standard output"; /* as cli_main says it */
        if (!status) status = w[i].emit(o, format, cp);
        if (!status) status = out_close(o);
    }
    for (int i = 0; i < open; i++)
        if (!w[i].path) continue;
        else if (status) cli_out_abandon(&w[i].out);
        else status = out_close(&w[i].out);
    return status;
}
