/* view_hints.c: the bottom line: the keys (the key table's bar of the main or
 * the find mode), or the prompt being typed (go to step, find node), or a
 * running job's progress. Exports view_hints. */
#include <stdio.h>
#include <string.h>
#include "util/units.h"
#include "util/utf8.h"
#include "app_keys.h"
#include "app_train.h"
#include "view.h"

/* The row of the key table that the bar of mode shows at place rank, or NULL;
 * a lesson's bar is the main one with the lesson's rows in their places. */
static const app_key_row *bar_row(unsigned mode, int rank)
{
    for (size_t i = 0; i < app_nkeys; i++)
        if ((app_keys[i].modes & mode) && app_keys[i].bar.key && app_keys[i].bar.rank == rank)
            return &app_keys[i];
    return mode == APP_MODE_LESSON ? bar_row(APP_MODE_MAIN, rank) : NULL;
}

/* " Replay host raw [######......] 45%  27/61 steps  Esc: cancel": each
 * field whole or not at all, the bar a quarter of the line (10 to 40
 * cells) or what room is left, or none below 10. */
static void replay_progress(canvas *cv, const app *a, rect r)
{
    char what[64], pct[16], steps[48];
    int end = r.x + r.w;
    uint32_t done = a->rp.done, total = a->rp.total;
    if (total && done > total) done = total;
    snprintf(what, sizeof what, " %s %s ", a->rp.job_be ? a->rp.job_be->name : "?",
             replay_mode_name(a->rp.job_mode));
    snprintf(pct, sizeof pct, " %d%%", total ? (int)((uint64_t)done * 100 / total) : 0);
    if (total) snprintf(steps, sizeof steps, "  %u/%u steps", done, total);
    else snprintf(steps, sizeof steps, "  scheduling...");
    const char *esc = a->rp.cancelled ? "  cancelling..." : "  Esc: cancel";
    int fixed = 7 + (int)strlen(what) + (int)strlen(pct) + (int)strlen(esc);
    int x = r.x + canvas_text(cv, r.x, r.y, r.w, ST_HINT, " ");
    x += canvas_text(cv, x, r.y, end - x, ST_HINT_KEY, "Replay");
    if (fixed > r.w) { /* the word alone, then the cancel key if it fits */
        if (x + (int)strlen(esc) <= end) canvas_text(cv, x, r.y, end - x, ST_HINT, esc);
        return;
    }
    x += canvas_text(cv, x, r.y, end - x, ST_HINT, what);
    int room = end - x - (int)strlen(pct) - (int)strlen(esc) - (int)strlen(steps);
    int show_steps = room >= 12;
    if (!show_steps) room += (int)strlen(steps);
    int bw = r.w / 4 < 10 ? 10 : r.w / 4 > 40 ? 40 : r.w / 4;
    if (bw > room - 2) bw = room - 2;
    if (bw >= 10) {
        int fill = total ? (int)((uint64_t)done * (uint64_t)bw / total) : 0;
        x += canvas_text(cv, x, r.y, 1, ST_HINT, "[");
        for (int i = 0; i < bw; i++, x++) {
            if (i < fill) canvas_put(cv, x, r.y, cv->utf8 ? 0x2588 : '#', ST_HINT_KEY);
            else canvas_put(cv, x, r.y, cv->utf8 ? 0x2591 : '.', ST_HINT);
        }
        x += canvas_text(cv, x, r.y, 1, ST_HINT, "]");
    }
    x += canvas_text(cv, x, r.y, end - x, ST_HINT, pct);
    if (show_steps) x += canvas_text(cv, x, r.y, end - x, ST_HINT, steps);
    if (a->rp.cancelled) {
        canvas_text(cv, x, r.y, end - x, ST_HINT, esc);
        return;
    }
    x += canvas_text(cv, x, r.y, end - x, ST_HINT, "  ");
    x += canvas_text(cv, x, r.y, end - x, ST_HINT_KEY, "Esc");
    canvas_text(cv, x, r.y, end - x, ST_HINT, ": cancel");
}

/* " Go to step (0-61): 12_   Enter: go   Esc: cancel": the question in
 * the longest form that fits with the typed text, whose end is shown when
 * it is long ("…" before it); then the keys, each whole or not at all. */
static void prompt_line(canvas *cv, const app *a, rect r)
{
    char q[2][96];
    const char *enter = "Enter: go", *esc = "Esc: cancel";
    switch (a->prompt.kind) {
    case 'g':
        snprintf(q[0], sizeof q[0], " Go to step (0-%u): ", a->g->n);
        snprintf(q[1], sizeof q[1], " Step: ");
        break;
    case 'b':
        snprintf(q[0], sizeof q[0], " Break at node (id, name or op) or at >SIZE of memory: ");
        snprintf(q[1], sizeof q[1], " Break at: ");
        enter = "Enter: set";
        break;
    case 'e':
        snprintf(q[0], sizeof q[0], " Export the curve and arena as SVG to: ");
        snprintf(q[1], sizeof q[1], " SVG file: ");
        enter = "Enter: write";
        break;
    case 'm': /* app_budget_view.c: empty or Esc clears it */
        snprintf(q[0], sizeof q[0],
                 " Memory budget (8MiB or 60%%, then offload or recompute,offload): ");
        snprintf(q[1], sizeof q[1], " Budget: ");
        enter = "Enter: set";
        esc = "Esc: none";
        break;
    case 'o':
        snprintf(q[0], sizeof q[0], " The file exists. Overwrite it? y/n (n): ");
        snprintf(q[1], sizeof q[1], " Overwrite? y/n: ");
        enter = "y: overwrite";
        break;
    default:
        snprintf(q[0], sizeof q[0], " Find node (id, name or op): ");
        snprintf(q[1], sizeof q[1], " Find: ");
    }
    canvas_fill(cv, r, ' ', ST_PROMPT);
    int typed = utf8_count(a->prompt.buf) + 1; /* its characters, and the cursor */
    const char *label = utf8_count(q[0]) + typed + 2 <= r.w ? q[0] : q[1];
    int x = r.x + canvas_text(cv, r.x, r.y, r.w, ST_PROMPT, label), end = r.x + r.w;
    int room = end - x - 1;
    if (room < 2) return;
    const char *t = a->prompt.buf;
    if (typed > room) { /* the end of what was typed, after an ellipsis */
        x += canvas_text(cv, x, r.y, 1, ST_PROMPT, cv->utf8 ? "\u2026" : "<");
        while (utf8_count(t) + 1 > room - 1) { /* a character at a time */
            t++;
            while (((unsigned char)*t & 0xC0) == 0x80) t++;
        }
    }
    x += canvas_text(cv, x, r.y, end - x, ST_PROMPT, t);
    x += canvas_text(cv, x, r.y, end - x, ST_PROMPT, "_");
    const char *keys[] = {enter, esc};
    for (int i = 0; i < 2; i++)
        if (x + 3 + utf8_count(keys[i]) <= end)
            x += 3 + canvas_text(cv, x + 3, r.y, end - x - 3, ST_PROMPT, keys[i]);
}

/* " Placing 1000000 buffers with best: the hill-climb  1.5 s  Esc: cancel",
 * " Placing 450 buffers with exact: 91200 nodes, best 1.1 MiB, bound 1.0 MiB
 * 1.5 s  Esc: cancel", or " Searching 300 nodes with exact: 5120 states, best 30.5 MiB, bound
 * 24.0 MiB  1.5 s  Esc: cancel", each field whole or not at all. */
static void place_progress(canvas *cv, const app *a, rect r)
{
    app_job_view v;
    app_place_progress(&a->place, &v);
    enum { NAME, STATES, BEST, BOUND, DOING, TIME, ESC, NF };
    char f[NF][96] = {{0}}, b1[32];
    if (v.searching) {
        snprintf(f[NAME], sizeof f[NAME], " %u nodes with %s", v.nodes, v.name);
        if (v.best > 0) {
            snprintf(f[STATES], sizeof f[STATES], ": %llu states", (unsigned long long)v.states);
            snprintf(f[BEST], sizeof f[BEST], ", best %s", units_bytes(b1, sizeof b1, v.best, 0));
            snprintf(f[BOUND], sizeof f[BOUND], ", bound %s",
                     units_bytes(b1, sizeof b1, v.bound, 0));
        } else snprintf(f[DOING], sizeof f[DOING], ": the heuristics first");
    } else {
        snprintf(f[NAME], sizeof f[NAME], " %u buffers with %s", v.nbufs, v.name);
        snprintf(f[DOING], sizeof f[DOING], ": %s",
                 v.doing && strcmp(v.doing, v.name) ? v.doing : "placing");
        if (v.best > 0) { /* exact's search: its nodes, the arena found, the bound */
            f[DOING][0] = 0;
            snprintf(f[STATES], sizeof f[STATES], ": %llu nodes", (unsigned long long)v.states);
            snprintf(f[BEST], sizeof f[BEST], ", best %s", units_bytes(b1, sizeof b1, v.best, 0));
            snprintf(f[BOUND], sizeof f[BOUND], ", bound %s",
                     units_bytes(b1, sizeof b1, v.bound, 0));
        }
    }
    snprintf(f[TIME], sizeof f[TIME], "  %u.%u s", v.ms / 1000, v.ms % 1000 / 100);
    snprintf(f[ESC], sizeof f[ESC], "  Esc: cancel");
    int x = r.x + canvas_text(cv, r.x, r.y, r.w, ST_HINT, " "), end = r.x + r.w;
    x += canvas_text(cv, x, r.y, end - x, ST_HINT_KEY, v.searching ? "Searching" : "Placing");
    /* what goes last when room runs out: the first */
    static const int order[NF] = {ESC, NAME, TIME, BOUND, BEST, DOING, STATES};
    int show[NF] = {0}, need = x;
    for (int i = 0; i < NF; i++)
        if (f[order[i]][0] && need + utf8_count(f[order[i]]) <= end) {
            show[order[i]] = 1;
            need += utf8_count(f[order[i]]);
        }
    for (int i = 0; i < NF; i++)
        if (show[i]) x += canvas_text(cv, x, r.y, end - x, i == ESC ? ST_HINT_KEY : ST_HINT, f[i]);
}

void view_hints(canvas *cv, const app *a, rect r)
{
    canvas_fill(cv, r, ' ', ST_HINT);
    if (a->place.job && !a->prompt.kind) {
        place_progress(cv, a, r);
        return;
    }
    if (a->rp.running && !a->prompt.kind) {
        replay_progress(cv, a, r);
        return;
    }
    if (a->prompt.kind) {
        prompt_line(cv, a, r);
        return;
    }
    if (a->prompt.finding) { /* after a find: its keys, each whole or not at all */
        char head[96];
        snprintf(head, sizeof head, " Find '%s': ", a->prompt.find);
        int x = r.x + canvas_text(cv, r.x, r.y, r.w, ST_HINT, head), end = r.x + r.w;
        const app_key_row *k;
        for (int rank = 1; (k = bar_row(APP_MODE_FIND, rank)) != NULL; rank++) {
            int need = (int)(strlen(k->bar.key) + strlen(k->bar.word));
            if (x + need > end) break;
            x += canvas_text(cv, x, r.y, end - x, ST_HINT_KEY, k->bar.key);
            x += canvas_text(cv, x, r.y, end - x, ST_HINT, k->bar.word);
            x += canvas_text(cv, x, r.y, end - x, ST_HINT, " ");
        }
        return;
    }
    /* Every top-level key, in order of use (help and quit first); those
     * that do not fit go whole from the end. */
    int x = r.x;
    const app_key_row *row;
    for (int rank = 1; x < r.x + r.w &&
                       (row = bar_row(a->lesson ? APP_MODE_LESSON : APP_MODE_MAIN, rank)) != NULL;
         rank++) {
        const char *k = !cv->utf8 && row->bar.ascii ? row->bar.ascii : row->bar.key;
        const char *word = row->bar.word;
        char vs[64]; /* c on a training step's given: "VsPriority" */
        if (row->keys[0] == 'c' && app_train_bar_word(a, vs, sizeof vs)) word = vs;
        if (x + utf8_count(k) + utf8_count(word) > r.x + r.w) break; /* whole keys only */
        x += canvas_text(cv, x, r.y, r.x + r.w - x, ST_HINT_KEY, k);
        x += canvas_text(cv, x, r.y, r.x + r.w - x, ST_HINT, word);
        x += canvas_text(cv, x, r.y, r.x + r.w - x, ST_HINT, " ");
    }
}
