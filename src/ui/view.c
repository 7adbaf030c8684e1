/* view.c: composes the screen: status bar, panels, the "why" line, key
 * hints, a prompt or a running replay's progress, the help overlay, and the
 * too-small notice. */
#include "view.h"
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "sched/units.h"
#include "util/utf8.h"

/* The keys, as the help overlay and the man page list them. */
static const char *const help_lines[] = {
    "Space  n  Right    step forward (one heap pop)",
    "p  Left  Backspace step back (undo the last pop)",
    "Home End  g  P     first / last step, go to step, peak",
    "/                  find a node by id, jump to its pop",
    "r  +  -            auto-play on/off, faster, slower",
    "Tab  Shift-Tab     move the focus between panels",
    "Up Down PgUp PgDn  scroll the ready queue in focus",
    "Up Down on arena   select a buffer (details below)",
    "s  c  a  t         policy, compare, placer, timeline",
    "click              curve: go to step; block: select",
    "R                  replay on the device (Esc cancels)",
    "Esc                stop play, clear selection, close",
    "? F1 h   q F10     this help; quit",
};

/* The graph, the policy, the step, the last pop, the live bytes, the
 * replay's reading there, the peak, auto-play; then the replay's backend
 * and device. When the line is too long the device goes first ("| host"
 * stays), then the peak and auto-play rather than the backend; when even
 * that is too long, the backend goes (the curve's legend names it) and the
 * line is cut at the edge as without a replay. */
static void status_bar(canvas *cv, const app *a, rect r)
{
    const stepper *s = &a->st[0];
    const graph *g = a->g;
    enum { BASE, MEASURED, PEAK, PLAY, NPIECE };
    char piece[NPIECE][512], now[32], pk[32], tag[192] = "", shorttag[32] = "";
    uint32_t pat;
    int64_t peak = step_peak(s, &pat);
    uint32_t u = step_last(s);
    char popped[96] = "-";
    if (u != GRAPH_NONE)
        snprintf(popped, sizeof popped, "%s %" PRId64, graph_label(g, u), g->id[u]);
    /* The file's name without its folders, as htop shows a command: where the
     * repository sits must not push the numbers off the line. */
    const char *slash = strrchr(a->title, '/'), *name = slash && slash[1] ? slash + 1 : a->title;
    snprintf(piece[BASE], sizeof piece[BASE], "%s  %s%s%s  step %u/%u  popped %s  mem %s",
             name, a->pol->name, a->compare ? " vs " : "", a->compare ? a->cmp_pol->name : "",
             s->k, g->n, popped, units_bytes(now, sizeof now, step_memory(s), 0));
    /* The replay's reading at this step, next to the predicted bytes. */
    const replay_result *rp = app_overlay(a);
    piece[MEASURED][0] = 0;
    if (rp && s->k > 0 && s->k <= rp->n) {
        char m[32], d[32];
        const replay_sample *x = &rp->s[s->k - 1];
        snprintf(piece[MEASURED], sizeof piece[MEASURED], "  measured %s (%s)", units_bytes(m, sizeof m, x->measured, 0),
                 units_bytes(d, sizeof d, x->measured - x->predicted, 1));
    } else if (rp && s->k > 0) {
        snprintf(piece[MEASURED], sizeof piece[MEASURED], "  measured n/a");
    }
    int n = snprintf(piece[PEAK], sizeof piece[PEAK], "  peak %s", units_bytes(pk, sizeof pk, peak, 0));
    if (pat) snprintf(piece[PEAK] + n, sizeof piece[PEAK] - (size_t)n, " @%u", pat);
    piece[PLAY][0] = 0;
    if (a->playing) snprintf(piece[PLAY], sizeof piece[PLAY], "  %s %u/s", cv->utf8 ? "\u25b6" : ">",
                             app_steps_per_sec(a));
    /* The replay's backend and device ("n/a" when the backend did not say). */
    if (a->rp_running && a->rp_job_be) {
        snprintf(tag, sizeof tag, "  | %s: replaying", a->rp_job_be->name);
        snprintf(shorttag, sizeof shorttag, "  | %s", a->rp_job_be->name);
    } else if (a->have_replay) {
        const replay_result *h = &a->replay;
        size_t bl = strlen(h->backend);
        if (!h->info.device[0]) snprintf(tag, sizeof tag, "  | %s: n/a", h->backend);
        else if (!strncmp(h->info.device, h->backend, bl) && h->info.device[bl] == ':')
            snprintf(tag, sizeof tag, "  | %s", h->info.device);      /* "host: Linux 6.1 x86_64" */
        else snprintf(tag, sizeof tag, "  | %s: %s", h->backend, h->info.device);
        snprintf(shorttag, sizeof shorttag, "  | %s", h->backend);
    }
    int cols[NPIECE], show[NPIECE], w = 9;   /* 9: " memtris " */
    for (int i = 0; i < NPIECE; i++) {
        cols[i] = utf8_count(piece[i]);
        show[i] = 1;
        w += cols[i];
    }
    const char *t = tag;
    if (tag[0] && w + utf8_count(tag) > r.w) {
        static const int drop[] = {PEAK, PLAY};
        t = shorttag;
        for (size_t i = 0; i < sizeof drop / sizeof drop[0] && w + utf8_count(t) > r.w; i++) {
            show[drop[i]] = 0;
            w -= cols[drop[i]];
        }
        if (w + utf8_count(t) > r.w) {        /* the reading before the backend (the legend names it) */
            t = "";
            /* whole pieces only: the reading without its difference, then none */
            char *paren = strstr(piece[MEASURED], " (");
            if (w > r.w && paren) {
                w -= cols[MEASURED];
                *paren = 0;
                cols[MEASURED] = utf8_count(piece[MEASURED]);
                w += cols[MEASURED];
            }
            if (w > r.w) show[MEASURED] = 0;
        }
    }
    canvas_fill(cv, r, ' ', ST_STATUS);
    int x = r.x, end = r.x + r.w;
    x += canvas_text(cv, x, r.y, end - x, ST_STATUS_KEY, " memtris ");
    for (int i = 0; i < NPIECE; i++)
        if (show[i]) x += canvas_text(cv, x, r.y, end - x, i == PLAY ? ST_STATUS_KEY : ST_STATUS, piece[i]);
    canvas_text(cv, x, r.y, end - x, ST_STATUS, t);
}

/* The last pop's reason; a selected buffer's details instead (Esc clears
 * the selection); a one-shot message over either. */
static void why_line(canvas *cv, const app *a, rect r)
{
    char details[512];
    const char *text = a->why[0];
    if (a->sel != GRAPH_NONE) {
        app_buffer_details(a, a->sel, details, sizeof details);
        text = details;
    }
    if (a->msg[0]) text = a->msg;
    canvas_text(cv, r.x + 1, r.y, r.w - 1, a->msg[0] ? ST_WARN : ST_WHY, text);
}

/* " Replay host raw [######......] 45%  27/61 steps  Esc: cancel" */
static void replay_progress(canvas *cv, const app *a, rect r)
{
    char buf[128];
    int x = r.x, end = r.x + r.w;
    uint32_t done = a->rp_done, total = a->rp_total;
    if (total && done > total) done = total;
    int pct = total ? (int)((uint64_t)done * 100 / total) : 0;
    x += canvas_text(cv, x, r.y, end - x, ST_HINT, " ");
    x += canvas_text(cv, x, r.y, end - x, ST_HINT_KEY, "Replay");
    snprintf(buf, sizeof buf, " %s %s [", a->rp_job_be ? a->rp_job_be->name : "?", replay_mode_name(a->rp_job_mode));
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
    if (a->rp_cancelled) {
        canvas_text(cv, x, r.y, end - x, ST_HINT, "cancelling...");
        return;
    }
    x += canvas_text(cv, x, r.y, end - x, ST_HINT_KEY, "Esc");
    canvas_text(cv, x, r.y, end - x, ST_HINT, ": cancel");
}

static void hints(canvas *cv, const app *a, rect r)
{
    canvas_fill(cv, r, ' ', ST_HINT);
    if (a->rp_running && !a->prompt) {
        replay_progress(cv, a, r);
        return;
    }
    if (a->prompt) {
        char buf[96];
        if (a->prompt == 'g') snprintf(buf, sizeof buf, " Go to step (0-%u): %s_", a->g->n, a->pbuf);
        else snprintf(buf, sizeof buf, " Find node id: %s_", a->pbuf);
        canvas_fill(cv, r, ' ', ST_PROMPT);
        int w = canvas_text(cv, r.x, r.y, r.w, ST_PROMPT, buf);
        canvas_text(cv, r.x + w, r.y, r.w - w, ST_PROMPT, "   Enter: go   Esc: cancel");
        return;
    }
    static const char *const keys[][2] = {
        {"F1", "Help"}, {"Spc", "Step"}, {"\u2190", "Back"}, {"g", "Goto"}, {"P", "Peak"},
        {"r", "Play"}, {"s", "Policy"}, {"c", "Compare"}, {"/", "Find"}, {"Tab", "Focus"}, {"q", "Quit"},
    };
    int x = r.x;
    for (size_t i = 0; i < sizeof keys / sizeof keys[0] && x < r.x + r.w; i++) {
        const char *k = keys[i][0];
        if (!cv->utf8 && !strcmp(k, "\u2190")) k = "<-";
        x += canvas_text(cv, x, r.y, r.x + r.w - x, ST_HINT_KEY, k);
        x += canvas_text(cv, x, r.y, r.x + r.w - x, ST_HINT, keys[i][1]);
        x += canvas_text(cv, x, r.y, r.x + r.w - x, ST_HINT, " ");
    }
}

static void help_overlay(canvas *cv)
{
    int n = (int)(sizeof help_lines / sizeof help_lines[0]);
    int w = 58, h = n + 4;
    if (w > cv->w) w = cv->w;
    if (h > cv->h) h = cv->h;
    rect r = {(cv->w - w) / 2, (cv->h - h) / 2, w, h};
    canvas_fill(cv, r, ' ', ST_NORMAL);
    canvas_box(cv, r, " Keys ", ST_FOCUS, ST_TITLE);
    for (int i = 0; i < n && i + 1 < h - 2; i++)
        canvas_text(cv, r.x + 2, r.y + 1 + i, w - 4, ST_NORMAL, help_lines[i]);
    if (h > 3) canvas_text(cv, r.x + 2, r.y + h - 2, w - 4, ST_DIM, "any key closes this help");
}

void view_render(canvas *cv, const app *a)
{
    canvas_clear(cv);
    const layout *l = &a->lay;
    if (l->too_small || l->w != cv->w || l->h != cv->h) {
        char need[64], have[64];
        snprintf(need, sizeof need, "memtris needs at least %dx%d", LAYOUT_MIN_W, LAYOUT_MIN_H);
        snprintf(have, sizeof have, "this terminal is %dx%d", cv->w, cv->h);
        int y = cv->h > 1 ? cv->h / 2 - 1 : 0;
        int n1 = (int)strlen(need), n2 = (int)strlen(have);
        canvas_text(cv, cv->w > n1 ? (cv->w - n1) / 2 : 0, y, cv->w, ST_WARN, need);
        canvas_text(cv, cv->w > n2 ? (cv->w - n2) / 2 : 0, y + 1, cv->w, ST_WARN, have);
        return;
    }
    status_bar(cv, a, l->r[P_STATUS]);
    view_ready(cv, a, P_READY, l->r[P_READY]);
    if (l->used[P_READY2]) view_ready(cv, a, P_READY2, l->r[P_READY2]);
    view_curve(cv, a, l->r[P_CURVE]);
    if (l->used[P_TETRIS]) view_tetris(cv, a, l->r[P_TETRIS]);
    if (l->used[P_SUMMARY]) view_summary(cv, a, l->r[P_SUMMARY]);
    why_line(cv, a, l->r[P_WHY]);
    hints(cv, a, l->r[P_HINTS]);
    if (a->help) help_overlay(cv);
}
