/* budget_offload.c: plans that move buffers to the host, tidied for every solver: copies no one
 * reads made frees, buffers offloaded before their first use started on the host. Exports
 * budget_offload_tidy (budget_offload.h). */
#include <stdlib.h>
#include <string.h>
#include "budget_offload.h"

/* Offloads whose copies are never read become frees (a backward scan). */
static void idle_copies(const budget_model *bm, budget_plan *p, uint8_t *fetched, uint8_t *kept)
{
    for (uint32_t b = 0; b < bm->g->nbufs; b++) kept[b] = bm->keep[budget_last_version(bm, b)];
    for (size_t k = p->n; k-- > 0;) {
        budget_event *e = &p->ev[k];
        if (e->op == BUDGET_FETCH) fetched[e->x] = 1;
        else if (e->op == BUDGET_RUN) /* made again later: a copy before is not the end's */
            for (uint32_t w = bm->wr_off[e->x]; w < bm->wr_off[e->x + 1]; w++)
                kept[bm->phys[bm->wr[w]]] = 0;
        else if (e->op == BUDGET_OFFLOAD) {
            if (!fetched[e->x] && !kept[e->x]) e->op = BUDGET_FREE;
            kept[e->x] = fetched[e->x] = 0;
        }
    }
}

/* Offloads of untouched buffers that may start on the host (present from the start, or
 * made by an Input node and not used since) become host events; their count. */
static size_t hosted(const budget_model *bm, budget_plan *p, uint8_t *touched)
{
    size_t nh = 0;
    for (size_t k = 0; k < p->n; k++) {
        budget_event *e = &p->ev[k];
        if (e->op == BUDGET_RUN)
            for (int w = 0; w < 2; w++) {
                const uint32_t *off = w ? bm->wr_off : bm->rd_off, *buf = w ? bm->wr : bm->rd;
                for (uint32_t i = off[e->x]; i < off[e->x + 1]; i++) {
                    uint32_t l = buf[i]; /* an Input's making: it may leave it on the host */
                    if (!(w && l < bm->g->nbufs && bm->hostable[l] && bm->producer[l] == e->x))
                        touched[bm->phys[l]] = 1;
                }
            }
        else if ((e->op == BUDGET_OFFLOAD && !touched[e->x] && bm->hostable[e->x]) ||
                 e->op == BUDGET_HOST) {
            e->op = BUDGET_HOST;
            touched[e->x] = 1;
            nh++;
        } else touched[e->x] = 1;
    }
    return nh;
}

int budget_offload_tidy(const budget_model *bm, budget_plan *p)
{
    size_t nb = (size_t)bm->g->nbufs + 1;
    uint8_t *a = calloc(nb, 1), *b = calloc(nb, 1);
    budget_plan q = {0};
    int bad = !a || !b || budget_plan_push(&q, BUDGET_RUN, 0); /* q's room, made first */
    size_t nh = 0;
    if (!bad) {
        idle_copies(bm, p, a, b);
        memset(a, 0, nb);
        nh = hosted(bm, p, a);
    }
    q.n = 0;
    for (size_t pass = 0; !bad && nh && pass < 2; pass++) /* the host events first */
        for (size_t k = 0; k < p->n && !bad; k++)
            if ((p->ev[k].op == BUDGET_HOST) == !pass)
                bad = budget_plan_push(&q, p->ev[k].op, p->ev[k].x);
    if (!bad && nh) {
        budget_plan t = *p;
        *p = q;
        q = t;
    }
    budget_plan_free(&q);
    free(a);
    free(b);
    return bad ? -1 : 0;
}
