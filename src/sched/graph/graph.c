/* graph.c: freeing and simple lookups on the immutable graph. */
#include "graph.h"
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/utf8.h"

void graph_free(graph *g)
{
    if (!g) return;
    free(g->source);
    free(g->id);
    free(g->change);
    free(g->kind);
    free(g->buf);
    free(g->op);
    free(g->name);
    free(g->succ_off);
    free(g->succ);
    free(g->pred_off);
    free(g->pred);
    free(g->in_off);
    free(g->inputs);
    free(g->latency);
    free(g->time);
    free(g->tag);
    free(g->rerun);
    free(g->inplace);
    free(g->measured_how);
    free(g->stream);
    free(g->buf_id);
    free(g->buf_size);
    free(g->buf_alloc);
    free(g->buf_free);
    for (uint32_t i = 0; i < g->nops; i++) free(g->ops[i]);
    free(g->ops);
    free(g->strpool);
    imap_free(&g->ids);
    imap_free(&g->bufids);
    free(g);
}

uint32_t graph_find(const graph *g, int64_t id)
{
    uint32_t v = imap_get(&g->ids, id);
    return v == IMAP_NONE ? GRAPH_NONE : v;
}

uint32_t graph_find_buf(const graph *g, int64_t bufid)
{
    uint32_t v = imap_get(&g->bufids, bufid);
    return v == IMAP_NONE ? GRAPH_NONE : v;
}

const char *graph_op(const graph *g, uint32_t i) { return g->ops[g->op[i]]; }

const char *graph_name(const graph *g, uint32_t i)
{
    return g->name[i] ? g->strpool + g->name[i] : graph_op(g, i);
}

const char *graph_kind_word(int kind)
{
    switch (kind) {
    case NODE_FREE: return "FREE";
    case NODE_ALLOC: return "ALLOC";
    default: return "compute";
    }
}

/* "alloc b1" / "free b1": what an ALLOC or FREE node does, to its buffer by
 * its name where its ALLOC has one ("free layer1.0.conv1.weight", shortened
 * from the left past GRAPH_BUF_WORDS columns), else by its BufId. */
static const char *buffer_deed(const graph *g, uint32_t i, char *buf, size_t cap)
{
    uint32_t b = g->buf[i];
    if (b == GRAPH_NONE) return graph_kind_word(g->kind[i]);
    const char *verb = g->kind[i] == NODE_ALLOC ? "alloc" : "free";
    uint32_t a = g->buf_alloc[b];
    if (a != GRAPH_NONE && g->name[a]) {
        char nm[256], fit[GRAPH_LABEL_MAX];
        graph_buf_display(g, b, nm, sizeof nm);
        snprintf(buf, cap, "%s %s", verb, utf8_fit_left(nm, GRAPH_BUF_WORDS, fit, sizeof fit));
    } else snprintf(buf, cap, "%s b%" PRId64, verb, g->buf_id[b]);
    return buf;
}

const char *graph_label(const graph *g, uint32_t i, char *buf, size_t cap)
{
    return g->kind[i] == NODE_COMPUTE ? graph_name(g, i) : buffer_deed(g, i, buf, cap);
}

const char *graph_display(const graph *g, uint32_t i, char *buf, size_t cap)
{
    if (g->name[i]) return g->strpool + g->name[i];
    if (g->kind[i] != NODE_COMPUTE) return buffer_deed(g, i, buf, cap);
    snprintf(buf, cap, "%s %" PRId64, graph_op(g, i), g->id[i]);
    return buf;
}

const char *graph_buf_display(const graph *g, uint32_t b, char *buf, size_t cap)
{
    uint32_t a = g->buf_alloc[b];
    if (!cap) return buf;
    if (a == GRAPH_NONE || !g->name[a]) {
        snprintf(buf, cap, "b%" PRId64, g->buf_id[b]);
        return buf;
    }
    const char *name = g->strpool + g->name[a];
    size_t n = strlen(name);
    if (n > 4 && !strcmp(name + n - 4, ".out")) n -= 4;
    if (n >= cap) n = cap - 1;
    while (n && ((unsigned char)name[n] & 0xC0) == 0x80) n--; /* at a character */
    memcpy(buf, name, n);
    buf[n] = 0;
    return buf;
}

int graph_stream(const graph *g, uint32_t i)
{
    if (g->kind[i] != NODE_COMPUTE) return -1;
    return g->stream && g->stream[i] >= 0 ? (int)g->stream[i] : 0;
}

double graph_latency(const graph *g, uint32_t i)
{
    if (g->kind[i] != NODE_COMPUTE || !g->latency || isnan(g->latency[i])) return 0;
    return g->latency[i];
}

static const char *const cat_words[GRAPH_NCAT] = {
    "", "input", "weight", "gradient", "optimizer", "activation", "workspace", "output"};
static const char *const phase_words[GRAPH_NPHASE] = {"", "forward", "backward", "optimizer"};

int graph_category(const graph *g, uint32_t i)
{
    if (!g->tag || g->kind[i] == NODE_COMPUTE) return GRAPH_CAT_NONE;
    return g->kind[i] == NODE_ALLOC ? g->tag[i] : g->tag[g->buf_alloc[g->buf[i]]];
}

int graph_buf_category(const graph *g, uint32_t b)
{
    return g->tag ? g->tag[g->buf_alloc[b]] : GRAPH_CAT_NONE;
}

int graph_input_inplace(const graph *g, uint32_t i, uint32_t k)
{
    return g->inplace && g->inplace[g->in_off[i] + k];
}

int graph_rerun(const graph *g, uint32_t i)
{
    return g->rerun && g->kind[i] == NODE_COMPUTE ? g->rerun[i] : GRAPH_RERUN_NONE;
}

int graph_phase(const graph *g, uint32_t i)
{
    return g->tag && g->kind[i] == NODE_COMPUTE ? g->tag[i] : GRAPH_PHASE_NONE;
}

const char *graph_category_word(int cat)
{
    return cat > 0 && cat < GRAPH_NCAT ? cat_words[cat] : "";
}

const char *graph_phase_word(int phase)
{
    return phase > 0 && phase < GRAPH_NPHASE ? phase_words[phase] : "";
}

int graph_category_parse(const char *word)
{
    for (int c = 1; c < GRAPH_NCAT; c++)
        if (!strcmp(word, cat_words[c])) return c;
    return -1;
}

int graph_phase_parse(const char *word)
{
    for (int p = 1; p < GRAPH_NPHASE; p++)
        if (!strcmp(word, phase_words[p])) return p;
    return -1;
}
