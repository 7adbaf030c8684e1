/* app_prompt.c: the TUI's prompts: go to a step (g), find a node (/, then n
 * and N), set a breakpoint (b), export the view (e): typing, and what Enter
 * does with the text. Exports app_prompt_key, app_find_go. */
#include "app_internal.h"
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "find.h"

/* Goes to the match of a->find after (dir > 0) or before the cursor and
 * says which it is. */
void app_find_go(app *a, int dir)
{
    find_hit h = find_step(a->g, &a->st[0].r, a->find, a->st[0].k, dir);
    if (h.node == GRAPH_NONE) {
        snprintf(a->msg, sizeof a->msg, "no node matches '%s' (ids, names and ops are searched)",
                 a->find);
        a->finding = 0;
        return;
    }
    app_jump(a, h.step);
    char lb[GRAPH_LABEL_MAX];
    snprintf(a->msg, sizeof a->msg,
             "node %" PRId64 " (%s) pops at step %u under %s: match %u of %u%s", a->g->id[h.node],
             graph_display(a->g, h.node, lb, sizeof lb), h.step, a->pol->name, h.index, h.count,
             !h.wrapped ? ""
             : dir > 0  ? ", from the start again"
                        : ", from the end again");
    a->finding = 1;
}

static void finish_prompt(app *a)
{
    int prompt = a->prompt;
    a->prompt = 0;
    if (prompt == 'g') {
        size_t digits = strspn(a->pbuf, "0123456789");
        unsigned long long v = digits ? strtoull(a->pbuf, NULL, 10) : 0;
        if (!a->pbuf[0]) return;
        if (a->pbuf[digits] || digits > 10 || v > a->g->n)
            snprintf(a->msg, sizeof a->msg, "'%.60s' is not a step: steps run from 0 to %u",
                     a->pbuf, a->g->n);
        else app_jump(a, (uint32_t)v);
        return;
    }
    if (!a->pbuf[0]) return;
    if (prompt == 'b') {
        app_break_add(a, a->pbuf);
        return;
    }
    if (prompt == 'e') {
        app_export_svg(a, a->pbuf);
        return;
    }
    snprintf(a->find, sizeof a->find, "%.63s", a->pbuf);
    app_find_go(a, 1);
}

void app_prompt_key(app *a, int key)
{
    size_t len = strlen(a->pbuf);
    if (key == K_ESC) {
        a->prompt = 0;
    } else if (key == K_ENTER || key == '\n' || key == '\r') {
        finish_prompt(a);
    } else if (key == K_BACKSPACE || key == 127 || key == 8) {
        if (len) a->pbuf[len - 1] = 0;
    } else if (key >= ' ' && key <= '~' && len + 1 < sizeof a->pbuf) {
        a->pbuf[len] = (char)key;
        a->pbuf[len + 1] = 0;
    }
}
