/* app_prompt.h: the prompts' state (which prompt is up, the text typed, the
 * find that n and N continue) and their editing, knowing nothing of the app:
 * Enter hands the app a request to carry out. Exports app_prompt_*. */
#ifndef MEMTRIS_APP_PROMPT_H
#define MEMTRIS_APP_PROMPT_H
#include <stddef.h>
#include <stdint.h>
#include "sched/graph/graph.h"
#include "sched/policy/policy.h"

typedef struct app_prompt {
    int kind;      /* 0 (none), 'g' (go to step), '/' (find node), 'b' (breakpoint), 'e' (export),
                    * 'o' (export's file exists: overwrite it? buf holds its name), 'm' (budget) */
    char buf[256]; /* the text typed */
    int finding;   /* after a find: n and N go to the next and previous match */
    char find[64]; /* the query they look for */
} app_prompt;

/* What a key in a prompt asks of the app. */
typedef enum {
    APP_PROMPT_EDIT,      /* nothing: the text changed, or the prompt closed */
    APP_PROMPT_GO,        /* go to step *step */
    APP_PROMPT_FIND,      /* go to the first match of p->find after the cursor */
    APP_PROMPT_BREAK,     /* set a breakpoint from p->buf */
    APP_PROMPT_EXPORT,    /* export to the file p->buf (asking first when it exists) */
    APP_PROMPT_OVERWRITE, /* 'o' answered y: export to p->buf, over the file there */
    APP_PROMPT_BUDGET,    /* 'm': set the budget p->buf says (empty: none) */
} app_prompt_ask;

/* Opens prompt kind ('g', '/', 'b', 'e', 'm') with text offered (NULL: none). */
void app_prompt_open(app_prompt *p, int kind, const char *offered);
/* A key while a prompt is up: in 'o', y or Y overwrites and any other key
 * (Enter too: no is the default) leaves the file as it is; else typing, Backspace, Esc (cancel),
 * Enter (what it asks; a step that is not one of 0 .. nsteps is refused in msg). */
app_prompt_ask app_prompt_key(app_prompt *p, int key, uint32_t nsteps, uint32_t *step, char *msg,
                              size_t cap);
/* The match of p->find in r after (dir > 0) or before step k: its step, or
 * GRAPH_NONE (the find ends); says which match it is (of pol) in msg. */
uint32_t app_prompt_find(app_prompt *p, const graph *g, const run *r, uint32_t k, int dir,
                         const char *pol, char *msg, size_t cap);

#endif
