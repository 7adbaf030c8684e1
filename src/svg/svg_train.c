/* svg_train.c: a training step's curve stacked by Category, as the TUI's C draws it (each
 * column the live bytes of its highest step split into bands, what lives longest at the
 * bottom), each category in the colour the TUI gives it, and their legend. Exports svg_stack
 * and svg_stack_legend. */
#include <stdlib.h>
#include <string.h>
#include "sched/policy/bycat.h"
#include "svg.h"
#include "svg_internal.h"

/* Bottom up: what lives longest first (view_stack.c's order). */
static const int stack_order[GRAPH_NCAT] = {
    GRAPH_CAT_WEIGHT,   GRAPH_CAT_OPTIMIZER,  GRAPH_CAT_INPUT,     GRAPH_CAT_OUTPUT,
    GRAPH_CAT_GRADIENT, GRAPH_CAT_ACTIVATION, GRAPH_CAT_WORKSPACE, GRAPH_CAT_NONE};

/* The TUI's colours (style.c's buffer styles: input blue, weight green, gradient magenta,
 * optimizer cyan, activation yellow, workspace red, output blue; none grey). */
static const char *colour(int cat)
{
    static const char *const c[GRAPH_NCAT] = {
        [GRAPH_CAT_NONE] = "#bab0ac",      [GRAPH_CAT_INPUT] = "#4e79a7",
        [GRAPH_CAT_WEIGHT] = "#59a14f",    [GRAPH_CAT_GRADIENT] = "#b07aa1",
        [GRAPH_CAT_OPTIMIZER] = "#76b7b2", [GRAPH_CAT_ACTIVATION] = "#edc948",
        [GRAPH_CAT_WORKSPACE] = "#e15759", [GRAPH_CAT_OUTPUT] = "#a0cbe8"};
    return cat >= 0 && cat < GRAPH_NCAT ? c[cat] : c[GRAPH_CAT_NONE];
}

static void add_step(const graph *g, uint32_t u, int64_t live[GRAPH_NCAT])
{
    if (g->kind[u] == NODE_COMPUTE || g->buf[u] == GRAPH_NONE) return;
    live[graph_buf_category(g, g->buf[u])] += g->change[u];
}

int svg_stack(FILE *f, const svg_strip *s, const graph *g, const run *r)
{
    uint32_t n = r->n, ncol = n < (uint32_t)s->w ? n : (uint32_t)s->w;
    if (!ncol) return 0;
    int64_t *at = calloc((size_t)ncol * GRAPH_NCAT, sizeof *at), cur[GRAPH_NCAT] = {0};
    if (!at) return -1;
    uint32_t t = 0; /* cur: the live bytes after t steps */
    for (uint32_t c = 0; c < ncol; c++) {
        uint32_t s0 = (uint32_t)((uint64_t)c * n / ncol),
                 s1 = (uint32_t)((uint64_t)(c + 1) * n / ncol);
        int64_t best = -1;
        for (uint32_t k = s0; k < s1; k++) { /* step k's state: after k + 1 pops */
            for (; t <= k; t++) add_step(g, r->order[t], cur);
            if (r->memory[k] > best) {
                best = r->memory[k];
                memcpy(at + (size_t)c * GRAPH_NCAT, cur, sizeof cur);
            }
        }
    }
    int64_t *base = calloc(ncol, sizeof *base);
    if (!base) {
        free(at);
        return -1;
    }
    for (int i = 0; i < GRAPH_NCAT; i++) {
        int cat = stack_order[i], any = 0;
        for (uint32_t c = 0; c < ncol && !any; c++)
            any = at[(size_t)c * GRAPH_NCAT + (size_t)cat] > 0;
        if (!any) continue;
        /* the band: its top left to right, then its bottom right to left */
        fprintf(f, "<path class=\"cat cat-%s\" fill=\"%s\" d=\"M%.1f,%.1f", bycat_word(cat),
                colour(cat), svg_strip_x(s, 0), svg_strip_y(s, (double)base[0]));
        for (uint32_t c = 0; c < ncol; c++) {
            int64_t v = at[(size_t)c * GRAPH_NCAT + (size_t)cat];
            fprintf(f, "V%.1fH%.1f", svg_strip_y(s, (double)(base[c] + (v > 0 ? v : 0))),
                    svg_strip_x(s, (uint64_t)(c + 1) * n / ncol));
        }
        for (uint32_t c = ncol; c-- > 0;)
            fprintf(f, "V%.1fH%.1f", svg_strip_y(s, (double)base[c]),
                    svg_strip_x(s, (uint64_t)c * n / ncol));
        fprintf(f, "Z\"/>\n");
        for (uint32_t c = 0; c < ncol; c++) {
            int64_t v = at[(size_t)c * GRAPH_NCAT + (size_t)cat];
            base[c] += v > 0 ? v : 0;
        }
    }
    free(base);
    free(at);
    return 0;
}

void svg_stack_legend(FILE *f, const graph *g, const run *r, int x, int y)
{
    int has[GRAPH_NCAT] = {0}, order[GRAPH_NCAT], in[GRAPH_NCAT] = {0};
    for (uint32_t b = 0; b < g->nbufs; b++) has[graph_buf_category(g, b)] = 1;
    int64_t pk[GRAPH_NCAT];
    run_peak_by_category(g, r, pk);
    int k = bycat_order(pk, order);
    for (int i = 0; i < k; i++) in[order[i]] = 1;
    for (int i = 0; i < GRAPH_NCAT; i++)
        if (has[stack_order[i]] && !in[stack_order[i]]) order[k++] = stack_order[i];
    fprintf(f, "<g class=\"legend-cat\" font-size=\"11\" fill=\"#333333\">");
    for (int i = 0; i < k; i++) {
        const char *w = bycat_word(order[i]);
        fprintf(f,
                "<rect class=\"swatch-%s\" x=\"%d\" y=\"%d\" width=\"12\" height=\"10\" "
                "fill=\"%s\"/><text x=\"%d\" y=\"%d\">%s</text>",
                w, x, y - 9, colour(order[i]), x + 16, y, w);
        x += 16 + 7 * (int)strlen(w) + 14;
    }
    fprintf(f, "</g>\n");
}
