/* app_keys.h: the TUI's one key table: a row binds key(s), in the modes it applies in, to an
 * action, with its words for the help page (?) and the key bar; app_key (app.h) dispatches by it
 * and the views draw from it. Exports app_keys, app_nkeys, app_key_mode, app_key_name. */
#ifndef MEMTRIS_APP_KEYS_H
#define MEMTRIS_APP_KEYS_H
#include <stddef.h>
#include "app.h"

/* The modes a row applies in (a bit set); the app is in one at a time. */
enum {
    APP_MODE_MAIN = 1,   /* the panels */
    APP_MODE_FIND = 2,   /* after a find: n and N go on with it; any other key ends it */
    APP_MODE_HELP = 4,   /* the help overlay */
    APP_MODE_PROMPT = 8, /* a prompt is up: it takes every key */
    APP_MODE_LESSON = 16 /* the panels in a lesson: its rows first, then the main mode's */
};
#define APP_KEY_ANY  (-1) /* in keys: any key no row before binds in that mode */
#define APP_KEYS_MAX 6

typedef app_reaction (*app_action)(app *a, int key);

typedef struct app_key_row {
    int keys[APP_KEYS_MAX]; /* the key codes bound (0 ends the list) */
    unsigned modes;         /* APP_MODE_* it applies in */
    app_action act;         /* what it does (NULL: the help's words only: clicks) */
    /* The help page: the rows with help.keys, in the table's order, a line
     * each: the key column (that may name the keys of the rows after it),
     * then the words. */
    struct {
        const char *keys, *words;
    } help;
    /* The key bar of the row's mode: the key, its ASCII form (NULL: the same)
     * and the word, at place rank (from 1; key NULL: not on the bar). */
    struct {
        const char *key, *ascii, *word;
        int rank;
    } bar;
} app_key_row;

extern const app_key_row app_keys[];
extern const size_t app_nkeys;

/* The mode a is in: APP_MODE_PROMPT, _HELP, _FIND, _LESSON or _MAIN. */
unsigned app_key_mode(const app *a);
/* A key's name as the help and the man page write it: "Space", "Left",
 * "Shift-Tab", "F1", "+" (for '=' too: the same key unshifted), "q". */
const char *app_key_name(int key, char *buf, size_t cap);

#endif
