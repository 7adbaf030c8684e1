/* app_prompt.c: the TUI's prompts: go to a step (g), find a node (/, then n
 * and N), set a breakpoint (b), export the view (e), a memory budget (m): typing, and what Enter
 * asks of the app. Exports the app_prompt_* of app_prompt.h. */
#include "app_prompt.h"
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "keys.h"
#include "util/utf8.h"
#include "find.h"

void app_prompt_open(app_prompt *p, int kind, const char *offered)
{
    p->kind = kind;
    snprintf(p->buf, sizeof p->buf, "%s", offered ? offered : "");
}

uint32_t app_prompt_find(app_prompt *p, const graph *g, const run *r, uint32_t k, int dir,
                         const char *pol, char *msg, size_t cap)
{
    find_hit h = find_step(g, r, p->find, k, dir);
    if (h.node == GRAPH_NONE) {
        snprintf(msg, cap, "no node matches '%s' (ids, names and ops are searched)", p->find);
        p->finding = 0;
        return GRAPH_NONE;
    }
    char lb[GRAPH_LABEL_MAX];
    snprintf(msg, cap, "node %" PRId64 " (%s) pops at step %u under %s: match %u of %u%s",
             g->id[h.node], graph_display(g, h.node, lb, sizeof lb), h.step, pol, h.index, h.count,
             !h.wrapped ? ""
             : dir > 0  ? ", from the start again"
                        : ", from the end again");
    p->finding = 1;
    return h.step;
}

/* Enter: what the text typed asks. */
static app_prompt_ask finish(app_prompt *p, uint32_t nsteps, uint32_t *step, char *msg, size_t cap)
{
    int kind = p->kind;
    p->kind = 0;
    if (kind == 'g') {
        size_t digits = strspn(p->buf, "0123456789");
        unsigned long long v = digits ? strtoull(p->buf, NULL, 10) : 0;
        if (!p->buf[0]) return APP_PROMPT_EDIT;
        if (p->buf[digits] || digits > 10 || v > nsteps) {
            snprintf(msg, cap, "'%.60s' is not a step: steps run from 0 to %u", p->buf, nsteps);
            return APP_PROMPT_EDIT;
        }
        *step = (uint32_t)v;
        return APP_PROMPT_GO;
    }
    if (kind == 'm') return APP_PROMPT_BUDGET; /* empty too: no budget */
    if (!p->buf[0]) return APP_PROMPT_EDIT;
    if (kind == 'b') return APP_PROMPT_BREAK;
    if (kind == 'e') return APP_PROMPT_EXPORT;
    snprintf(p->find, sizeof p->find, "%.63s", p->buf);
    return APP_PROMPT_FIND;
}

app_prompt_ask app_prompt_key(app_prompt *p, int key, uint32_t nsteps, uint32_t *step, char *msg,
                              size_t cap)
{
    size_t len = strlen(p->buf);
    if (p->kind == 'o') {
        p->kind = 0;
        if (key == 'y' || key == 'Y') return APP_PROMPT_OVERWRITE;
        snprintf(msg, cap, "not written: %.120s is there already", p->buf);
        return APP_PROMPT_EDIT;
    }
    if (key == K_ESC) {
        p->kind = 0;
    } else if (key == K_ENTER || key == '\n' || key == '\r') {
        return finish(p, nsteps, step, msg, cap);
    } else if (key == K_BACKSPACE || key == 127 || key == 8) {
        while (len && ((unsigned char)p->buf[len - 1] & 0xC0) == 0x80) len--; /* the character */
        if (len) p->buf[len - 1] = 0;
    } else if ((key >= ' ' && key <= '~') || (key >= 0xA0 && key <= 0x10FFFF)) {
        char c[8]; /* a character of any script (a name may hold one), as UTF-8 */
        int n = utf8_encode((uint32_t)key, c);
        if (n && len + (size_t)n < sizeof p->buf) memcpy(p->buf + len, c, (size_t)n + 1);
    }
    return APP_PROMPT_EDIT;
}
