/* view_hints.c: the bottom line: the main keys, or the prompt being typed
 * (go to step, find node), or a running replay's progress bar. Exports
 * view_hints. */
#include <stdio.h>
#include <string.h>
#include "util/utf8.h"
#include "view.h"

/* " Replay host raw [######......] 45%  27/61 steps  Esc: cancel" */
static void replay_progress(canvas *cv, const app *a, rect r)
{
    char buf[128];
    int x = r.x, end = r.x + r.w;
    uint32_t done = a->rp.done, total = a->rp.total;
    if (total && done > total) done = total;
    int pct = total ? (int)((uint64_t)done * 100 / total) : 0;
    x += canvas_text(cv, x, r.y, end - x, ST_HINT, " ");
    x += canvas_text(cv, x, r.y, end - x, ST_HINT_KEY, "Replay");
    snprintf(buf, sizeof buf, " %s %s [", a->rp.job_be ? a->rp.job_be->name : "?",
             replay_mode_name(a->rp.job_mode));
    x += canvas_text(cv, x, r.y, end - x, ST_HINT, buf);
    int bw = r.w / 4;
    if (bw < 10) bw = 10;
    if (bw > 40) bw = 40;
    int fill = total ? (int)((uint64_t)done * (uint64_t)bw / total) : 0;
    for (int i = 0; i < bw && x < end; i++, x++) {
        if (i < fill) canvas_put(cv, x, r.y, cv->utf8 ? 0x2588 : '#', ST_HINT_KEY);
        else canvas_put(cv, x, r.y, cv->utf8 ? 0x2591 : '.', ST_HINT);
    }
    if (total) snprintf(buf, sizeof buf, "] %d%%  %u/%u steps  ", pct, done, total);
    else snprintf(buf, sizeof buf, "] %d%%  scheduling...  ", pct);
    x += canvas_text(cv, x, r.y, end - x, ST_HINT, buf);
    if (a->rp.cancelled) {
        canvas_text(cv, x, r.y, end - x, ST_HINT, "cancelling...");
        return;
    }
    x += canvas_text(cv, x, r.y, end - x, ST_HINT_KEY, "Esc");
    canvas_text(cv, x, r.y, end - x, ST_HINT, ": cancel");
}

void view_hints(canvas *cv, const app *a, rect r)
{
    canvas_fill(cv, r, ' ', ST_HINT);
    if (a->rp.running && !a->prompt) {
        replay_progress(cv, a, r);
        return;
    }
    if (a->prompt) {
        char buf[160];
        if (a->prompt == 'g')
            snprintf(buf, sizeof buf, " Go to step (0-%u): %s_", a->g->n, a->pbuf);
        else snprintf(buf, sizeof buf, " Find node (id, name or op): %s_", a->pbuf);
        canvas_fill(cv, r, ' ', ST_PROMPT);
        int w = canvas_text(cv, r.x, r.y, r.w, ST_PROMPT, buf);
        canvas_text(cv, r.x + w, r.y, r.w - w, ST_PROMPT, "   Enter: go   Esc: cancel");
        return;
    }
    if (a->finding) { /* after a find: its keys, each whole or not at all */
        static const char *const fk[][2] = {
            {"n", "Next match"}, {"N", "Previous"}, {"Esc", "Done"}};
        char head[96];
        snprintf(head, sizeof head, " Find '%s': ", a->find);
        int x = r.x + canvas_text(cv, r.x, r.y, r.w, ST_HINT, head), end = r.x + r.w;
        for (size_t i = 0; i < sizeof fk / sizeof fk[0]; i++) {
            int need = (int)(strlen(fk[i][0]) + strlen(fk[i][1]));
            if (x + need > end) break;
            x += canvas_text(cv, x, r.y, end - x, ST_HINT_KEY, fk[i][0]);
            x += canvas_text(cv, x, r.y, end - x, ST_HINT, fk[i][1]);
            x += canvas_text(cv, x, r.y, end - x, ST_HINT, " ");
        }
        return;
    }
    /* Every top-level key, in order of use (help and quit first); those
     * that do not fit go whole from the end. */
    static const char *const keys[][2] = {
        {"F1", "Help"},  {"q", "Quit"},    {"Spc", "Step"},  {"\u2190", "Back"}, {"P", "Peak"},
        {"l", "Live"},   {"z", "Zoom"},    {"c", "Compare"}, {"w", "Why"},       {"g", "Goto"},
        {"/", "Find"},   {"r", "Play"},    {"s", "Policy"},  {"a", "Placer"},    {"t", "Timeline"},
        {"R", "Replay"}, {"Tab", "Focus"},
    };
    int x = r.x;
    for (size_t i = 0; i < sizeof keys / sizeof keys[0] && x < r.x + r.w; i++) {
        const char *k = keys[i][0];
        if (!cv->utf8 && !strcmp(k, "\u2190")) k = "<-";
        if (x + utf8_count(k) + utf8_count(keys[i][1]) > r.x + r.w) break; /* whole keys only */
        x += canvas_text(cv, x, r.y, r.x + r.w - x, ST_HINT_KEY, k);
        x += canvas_text(cv, x, r.y, r.x + r.w - x, ST_HINT, keys[i][1]);
        x += canvas_text(cv, x, r.y, r.x + r.w - x, ST_HINT, " ");
    }
}
