/* gen_train.c: kind "train" of memtris gen: one SGD training step of a synthetic network,
 * in the shape tools/fxtrain.py exports a real one: weights, the forward (a chain with
 * branches and skips, every layer reading its weight), a loss, the backward in reverse order,
 * one update per weight, with a Category on every ALLOC and a Phase on every compute node.
 * Exports gen_train. */
#include <stdlib.h>
#include "gen_internal.h"
#include "sched/graph/graph.h"

/*
 * The step, in the order gen builds it (its Ids: memtris's policy given runs it as written):
 *   - per layer a weight: an ALLOC (Category weight), freed after the Output node;
 *   - the network input (Category input) and the Input node, which waits for every weight;
 *   - the forward: layer K reads 1 or 2 activations and its weight and writes its
 *     activation (layerK.conv.out, Category activation) and, one layer in four, a workspace
 *     (.ws1, Category workspace, freed right after); Phase forward;
 *   - the loss (sum) reads the open branches' activations and writes the loss (Category
 *     output, 4 bytes, read by the Output node); Phase forward, as fxtrain counts it;
 *   - the backward: loss.backward writes the gradients of the open branches, then layer K's
 *     backward (layerK.conv.backward), for K from the last layer down, reads the gradient of
 *     its activation, its saved inputs and its weight, and writes the gradients of its
 *     inputs (.grad_input, .grad_input2: new, or added in place where a later layer made one
 *     already), its weight's gradient (.grad_weight, Category gradient) and, one in four, a
 *     workspace; Phase backward. Gradients of activations are Category workspace, as
 *     fxtrain writes them (PyTorch's MemTracker counts them as temporaries): made in the
 *     backward, freed after the backward of the layer that made the activation;
 *   - the optimizer: per weight in layer order, 0 or more layerK.decayJ (add_: the weight
 *     decay, in place on the gradient; the padding) and layerK.sgd (add_: the update, in
 *     place on the weight), after which the gradient is freed; Phase optimizer; then the
 *     Output node (Phase optimizer).
 * Sizes by depth, as in a CNN's five stages (the layers split in fifths of the count the
 * budget allows): activations of 64 KiB to 2 MiB in the first fifth, halving from one to
 * the next; weights of 4 to 256 KiB in the first, doubling. So given's peak is in the
 * backward (early activations, all weights, late gradients), and an order that updates each
 * weight as soon as its gradient exists peaks about a third lower.
 * The network input has no gradient. A layer takes 11 nodes (2 for its weight, 3 for its
 * activation, 2 for the gradient of its activation, 3 for its backward and weight
 * gradient, 1 for its update), 2 more per workspace; the input, loss, loss.backward and
 * Output take 8; the last 0 to 10 nodes are decay ops.
 */

#define TRAIN_FIXED   8u  /* input 3, loss 3, loss.backward 1, Output 1 */
#define TRAIN_LAYER   11u /* a layer without workspaces */
#define TRAIN_TIPS    3u  /* open branches at most */
#define TRAIN_WINDOW  16u /* forks and skips read one of the last 16 activations */
#define TRAIN_MAX_IN  2u  /* activations a layer reads */
#define TRAIN_LOSS_SZ 4   /* the loss: one float */
#define TRAIN_STAGES  5u  /* sizes by depth: see draw_plan */

enum { OP_CONV, OP_FC, OP_BILINEAR };
static const char *const op_names[][3] = {{"Conv2d", "conv", "Conv2dBackward"},
                                          {"Linear", "fc", "LinearBackward"},
                                          {"Bilinear", "bilinear", "BilinearBackward"}};

typedef struct layer {
    uint32_t in[TRAIN_MAX_IN]; /* the activations it reads: layer numbers, 0 the input */
    uint8_t nin, op;
    int64_t act, weight, fws, bws; /* bytes; a workspace of 0: none */
} layer;

typedef struct plan {
    layer *l; /* l[1..nl] */
    uint32_t nl, pad;
    int64_t input;                    /* the network input's bytes */
    uint32_t tips[TRAIN_TIPS], ntips; /* the open branches at the end, for the loss */
} plan;

static int64_t ws_size(uint64_t *rng)
{
    return gen_rng_below(rng, 4) == 0 ? 16 * GEN_KiB * (1 + gen_rng_below(rng, 16)) : 0;
}

static void drop_tip(plan *p, uint32_t t)
{
    for (uint32_t k = t; k + 1 < p->ntips; k++) p->tips[k] = p->tips[k + 1];
    p->ntips--;
}

static uint32_t tip_at(const plan *p, uint32_t layer_no)
{
    for (uint32_t t = 0; t < p->ntips; t++)
        if (p->tips[t] == layer_no) return t;
    return GEN_NONE;
}

/* Draws layer i's inputs and updates the open branches: a fork (1 in 8 while fewer than 3
 * are open) reads one of the last activations and opens a branch (or continues it, when
 * that activation is open); else the layer continues the newest branch, joining the one
 * before it (1 in 4) or reading a skip from the window (1 in 8). */
static void draw_inputs(plan *p, layer *L, uint64_t *rng, uint32_t i, const uint32_t *win,
                        uint32_t nwin)
{
    uint32_t r = gen_rng_below(rng, 16);
    if (i > 1 && p->ntips < TRAIN_TIPS && r < 2) {
        uint32_t src = win[gen_rng_below(rng, nwin)], t = tip_at(p, src);
        L->in[0] = src;
        L->nin = 1;
        if (t != GEN_NONE) p->tips[t] = i;
        else p->tips[p->ntips++] = i;
        return;
    }
    uint32_t main = p->tips[p->ntips - 1];
    L->in[0] = main;
    L->nin = 1;
    if (p->ntips > 1 && r < 6) {
        L->in[L->nin++] = p->tips[p->ntips - 2];
        drop_tip(p, p->ntips - 2);
    } else if (r < 8 && nwin > 1) {
        uint32_t s = win[gen_rng_below(rng, nwin)], t = tip_at(p, s);
        if (s != main) {
            L->in[L->nin++] = s;
            if (t != GEN_NONE) drop_tip(p, t);
        }
    }
    p->tips[p->ntips - 1] = i;
}

/* Draws layers while they fit in budget (the last one without its workspaces if that makes
 * it fit); what is left is padding. Returns -1 when memory runs out. */
static int draw_plan(plan *p, uint64_t *rng, uint32_t budget)
{
    size_t cap = 1024;
    uint32_t win[TRAIN_WINDOW] = {0}, nwin = 1, used = 0;
    uint64_t expect = budget / 12u + 1u; /* layers to expect: 12 nodes on average */
    p->l = malloc(cap * sizeof *p->l);
    p->input = 512 * GEN_KiB * (1 + gen_rng_below(rng, 4));
    p->tips[0] = 0;
    p->ntips = 1;
    p->nl = 0;
    for (uint32_t i = 1; p->l; i++) {
        /* Five stages, as a CNN's: activations halve from one to the next, weights double. */
        uint32_t stage = (uint32_t)(TRAIN_STAGES * (uint64_t)i / expect);
        if (stage >= TRAIN_STAGES) stage = TRAIN_STAGES - 1;
        layer L = {.act = (64 * GEN_KiB * (1 + gen_rng_below(rng, 32))) >> stage,
                   .weight = (4 * GEN_KiB * (1 + gen_rng_below(rng, 64))) << stage};
        L.fws = ws_size(rng);
        L.bws = ws_size(rng);
        uint32_t cost = TRAIN_LAYER + (L.fws ? 2u : 0u) + (L.bws ? 2u : 0u);
        if (used + cost > budget && L.bws) {
            cost -= 2;
            L.bws = 0;
        }
        if (used + cost > budget && L.fws) {
            cost -= 2;
            L.fws = 0;
        }
        if (used + cost > budget) break;
        draw_inputs(p, &L, rng, i, win, nwin);
        L.op = (uint8_t)(L.nin == 2 ? OP_BILINEAR : gen_rng_below(rng, 2));
        if ((size_t)i + 1 > cap) {
            layer *q = realloc(p->l, 2 * cap * sizeof *q);
            if (!q) {
                free(p->l);
                p->l = NULL;
                return -1;
            }
            p->l = q;
            cap *= 2;
        }
        p->l[i] = L;
        p->nl = i;
        used += cost;
        if (nwin < TRAIN_WINDOW) win[nwin++] = i;
        else win[i % TRAIN_WINDOW] = i;
    }
    p->pad = budget - used;
    return p->l ? 0 : -1;
}

/* The buffers of the step, by layer number (0: the network input). */
typedef struct step {
    const plan *p;
    uint32_t *act, *grad, *w, *gw; /* [nl + 1]; grad GEN_NONE until made */
    uint32_t loss;
} step;

static const uint8_t CAT_ACT = GRAPH_CAT_ACTIVATION, CAT_WS = GRAPH_CAT_WORKSPACE;

/* The weights, the input and the forward up to the loss. */
static void emit_forward(gen_graph *g, step *s, uint32_t *after)
{
    const plan *p = s->p;
    for (uint32_t i = 1; i <= p->nl; i++) {
        s->w[i] = gen_add_param(g, p->l[i].weight, GRAPH_CAT_WEIGHT | GEN_KEEP,
                                "param.layer%u.weight", i);
        after[i - 1] = g->prod[s->w[i]];
    }
    uint8_t cat_in = GRAPH_CAT_INPUT;
    gen_opdef in = {.op = "Input",
                    .out = &p->input,
                    .cat = &cat_in,
                    .nout = 1,
                    .after = after,
                    .nafter = p->nl,
                    .phase = GRAPH_PHASE_FORWARD};
    gen_add_ex(g, &in, &s->act[0], "input");
    for (uint32_t i = 1; i <= p->nl && !g->oom; i++) {
        const layer *L = &p->l[i];
        uint32_t rd[TRAIN_MAX_IN + 1], outs[2];
        for (uint32_t k = 0; k < L->nin; k++) rd[k] = s->act[L->in[k]];
        rd[L->nin] = s->w[i];
        int64_t sz[2] = {L->act, L->fws};
        uint8_t cat[2] = {CAT_ACT, CAT_WS}, sfx[2] = {GEN_SFX_OUT, 1};
        gen_opdef d = {.op = op_names[L->op][0],
                       .in = rd,
                       .nin = L->nin + 1u,
                       .out = sz,
                       .cat = cat,
                       .sfx = sfx,
                       .nout = L->fws ? 2 : 1,
                       .phase = GRAPH_PHASE_FORWARD};
        gen_add_ex(g, &d, outs, "layer%u.%s", i, op_names[L->op][1]);
        s->act[i] = outs[0];
    }
    uint32_t rd[TRAIN_TIPS];
    for (uint32_t t = 0; t < p->ntips; t++) rd[t] = s->act[p->tips[t]];
    int64_t lsz = TRAIN_LOSS_SZ;
    uint8_t cat_out = GRAPH_CAT_OUTPUT;
    gen_opdef loss = {.op = "sum",
                      .in = rd,
                      .nin = p->ntips,
                      .out = &lsz,
                      .cat = &cat_out,
                      .nout = 1,
                      .phase = GRAPH_PHASE_FORWARD};
    gen_add_ex(g, &loss, &s->loss, "loss");
}

/* Layer i's backward: the gradients of its inputs (added in place to those a later layer
 * made), of its weight, and a workspace. */
static void emit_layer_backward(gen_graph *g, step *s, uint32_t i)
{
    const layer *L = &s->p->l[i];
    uint32_t rd[2 * TRAIN_MAX_IN + 2], nrd = 0, outs[TRAIN_MAX_IN + 2], made[TRAIN_MAX_IN];
    int64_t sz[TRAIN_MAX_IN + 2];
    uint8_t cat[TRAIN_MAX_IN + 2], sfx[TRAIN_MAX_IN + 2];
    uint32_t nout = 0, nmade = 0;
    for (uint32_t k = 0; k < L->nin; k++) /* the gradients it adds to, first: in place */
        if (L->in[k] && s->grad[L->in[k]] != GEN_NONE) rd[nrd++] = s->grad[L->in[k]];
    uint32_t ninplace = nrd;
    rd[nrd++] = s->grad[i];
    for (uint32_t k = 0; k < L->nin; k++) rd[nrd++] = s->act[L->in[k]];
    rd[nrd++] = s->w[i];
    for (uint32_t k = 0; k < L->nin; k++)
        if (L->in[k] && s->grad[L->in[k]] == GEN_NONE) {
            made[nmade++] = L->in[k];
            sz[nout] = s->p->l[L->in[k]].act;
            cat[nout] = CAT_WS;
            sfx[nout++] = (uint8_t)(GEN_SFX_GRAD_IN + k);
        }
    sz[nout] = L->weight;
    cat[nout] = GRAPH_CAT_GRADIENT;
    sfx[nout++] = GEN_SFX_GRAD_W;
    if (L->bws) {
        sz[nout] = L->bws;
        cat[nout] = CAT_WS;
        sfx[nout++] = 1;
    }
    gen_opdef d = {.op = op_names[L->op][2],
                   .in = rd,
                   .nin = nrd,
                   .ninplace = ninplace,
                   .out = sz,
                   .cat = cat,
                   .sfx = sfx,
                   .nout = nout,
                   .phase = GRAPH_PHASE_BACKWARD};
    if (gen_add_ex(g, &d, outs, "layer%u.%s.backward", i, op_names[L->op][1]) == GEN_NONE) return;
    for (uint32_t k = 0; k < nmade; k++) s->grad[made[k]] = outs[k];
    s->gw[i] = outs[nmade];
}

/* loss.backward, the layers' backward from the last, the updates and the Output node. */
static void emit_backward(gen_graph *g, step *s)
{
    const plan *p = s->p;
    int64_t sz[TRAIN_TIPS];
    uint8_t cat[TRAIN_TIPS], sfx[TRAIN_TIPS];
    uint32_t outs[TRAIN_TIPS];
    for (uint32_t t = 0; t < p->ntips; t++) {
        sz[t] = p->l[p->tips[t]].act;
        cat[t] = CAT_WS;
        sfx[t] = (uint8_t)(GEN_SFX_GRAD_IN + t);
    }
    gen_opdef lb = {.op = "SumBackward",
                    .in = &s->loss,
                    .nin = 1,
                    .out = sz,
                    .cat = cat,
                    .sfx = sfx,
                    .nout = p->ntips,
                    .phase = GRAPH_PHASE_BACKWARD};
    if (gen_add_ex(g, &lb, outs, "loss.backward") == GEN_NONE) return;
    for (uint32_t t = 0; t < p->ntips; t++) s->grad[p->tips[t]] = outs[t];
    for (uint32_t i = p->nl; i >= 1 && !g->oom; i--) emit_layer_backward(g, s, i);
    for (uint32_t i = 1; i <= p->nl && !g->oom; i++) {
        uint32_t decays = p->pad / p->nl + (i <= p->pad % p->nl);
        uint32_t rd[2] = {s->gw[i], s->w[i]}, up[2] = {s->w[i], s->gw[i]};
        for (uint32_t k = 1; k <= decays; k++) {
            gen_opdef d = {
                .op = "add_", .in = rd, .nin = 2, .ninplace = 1, .phase = GRAPH_PHASE_OPTIMIZER};
            gen_add_ex(g, &d, NULL, "layer%u.decay%u", i, k);
        }
        gen_opdef u = {
            .op = "add_", .in = up, .nin = 2, .ninplace = 1, .phase = GRAPH_PHASE_OPTIMIZER};
        gen_add_ex(g, &u, NULL, "layer%u.sgd", i);
    }
    gen_opdef out = {.op = "Output", .in = &s->loss, .nin = 1, .phase = GRAPH_PHASE_OPTIMIZER};
    gen_add_ex(g, &out, NULL, "output");
}

static void build_train(gen_graph *g, uint64_t *rng, uint32_t nodes)
{
    plan p = {0};
    if (draw_plan(&p, rng, nodes - TRAIN_FIXED)) {
        g->oom = 1;
        return;
    }
    size_t n1 = (size_t)p.nl + 1;
    step s = {.p = &p};
    s.act = malloc(n1 * sizeof *s.act);
    s.grad = malloc(n1 * sizeof *s.grad);
    s.w = malloc(n1 * sizeof *s.w);
    s.gw = malloc(n1 * sizeof *s.gw);
    uint32_t *after = malloc(n1 * sizeof *after);
    if (!s.act || !s.grad || !s.w || !s.gw || !after) {
        g->oom = 1;
    } else {
        for (size_t i = 0; i < n1; i++) s.grad[i] = GEN_NONE;
        emit_forward(g, &s, after);
        if (!g->oom) emit_backward(g, &s);
    }
    free(s.act);
    free(s.grad);
    free(s.w);
    free(s.gw);
    free(after);
    free(p.l);
}

/* min_nodes: the fixed 8 and one layer without workspaces. */
const generator gen_train = {
    .k = {"train", "one SGD training step: forward, loss, backward, updates",
          TRAIN_FIXED + TRAIN_LAYER},
    .build = build_train,
    .stream = 7,
};
