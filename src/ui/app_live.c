/* app_live.c: the live list's moves (l): which panel shows it and which side it lists, its rows
 * at the cursor's step, and its keys while it has the focus: the cursor over the rows (the list
 * scrolls with it; a buffer there is the selection) and Enter, which folds a group or shows all
 * of it; a click on a row puts the cursor there. Exports app_live_panel, app_live_stepper,
 * app_live_rows, app_live_key, app_live_click. */
#include <string.h>
#include "app.h"
#include "keys.h"

int app_live_panel(const app *a)
{
    if (a->arena != ARENA_LIVE) return -1;
    return a->lay.used[P_TETRIS] ? P_TETRIS : a->lay.used[P_SUMMARY] ? P_SUMMARY : -1;
}

const stepper *app_live_stepper(const app *a)
{
    return a->live_side == 2 && a->cmp.have ? &a->st[1] : &a->st[0];
}

/* The rows the list's panel gives it: its box, the totals and the columns' names take four. */
static int live_room(const app *a)
{
    int p = app_live_panel(a);
    return p < 0 ? 0 : a->lay.r[p].h - 4;
}

int app_live_rows(const app *a, live_rows *lr)
{
    return live_rows_build(lr, a->g, app_live_stepper(a), a->live_fold, live_room(a));
}

/* Enter at row i: a header or a buffer folds its group when it shows every buffer, else shows
 * them all; "and N more" shows them all. The cursor goes to the group's header. */
static void fold_at(app *a, const live_rows *lr, uint32_t i)
{
    const live_row *r = &lr->row[i];
    uint8_t *f = &a->live_fold[r->cat];
    if (r->kind == LIVE_MORE) *f = LIVE_OPEN;
    else if (!lr->grouped) *f = *f == LIVE_OPEN ? LIVE_FIT : LIVE_OPEN;
    else *f = *f == LIVE_FOLDED || !lr->whole[r->cat] ? LIVE_OPEN : LIVE_FOLDED;
    if (!lr->grouped) return;
    while (i > 0 && lr->row[i].kind != LIVE_HEAD) i--;
    a->live_cur = i; /* the rows above it keep their places */
}

/* Keeps the cursor on a row and in the panel's window. */
static void follow(app *a, uint32_t n, int room)
{
    int p = app_live_panel(a);
    if (a->live_cur >= n) a->live_cur = n ? n - 1 : 0;
    if (room < 1) room = 1;
    uint32_t *top = &a->scroll[p];
    if (a->live_cur < *top) *top = a->live_cur;
    if (a->live_cur >= *top + (uint32_t)room) *top = a->live_cur - (uint32_t)room + 1;
    uint32_t most = n > (uint32_t)room ? n - (uint32_t)room : 0;
    if (*top > most) *top = most;
}

app_reaction app_live_click(app *a, int x, int y)
{
    int p = app_live_panel(a);
    if (p < 0) return 0;
    rect r = a->lay.r[p];
    if (x < r.x || x >= r.x + r.w || y < r.y || y >= r.y + r.h) return 0;
    a->focus = p;
    live_rows lr;
    if (app_live_rows(a, &lr)) return APP_REDRAW;
    int room = live_room(a);
    uint32_t most = lr.n > (uint32_t)room ? lr.n - (uint32_t)room : 0;
    uint32_t top = a->scroll[p] < most ? a->scroll[p] : most; /* as the view shows it */
    uint32_t at = top + (uint32_t)(y - (r.y + 3));
    if (y >= r.y + 3 && y < r.y + 3 + room && at < lr.n) {
        a->live_cur = at;
        a->sel = lr.row[at].kind == LIVE_BUF ? lr.row[at].buf : GRAPH_NONE;
    }
    live_rows_free(&lr);
    return APP_REDRAW;
}

app_reaction app_live_key(app *a, int key)
{
    int p = app_live_panel(a), room = live_room(a);
    if (p < 0 || a->focus != p) return 0;
    if (key != K_UP && key != K_DOWN && key != K_PGUP && key != K_PGDN && key != K_HOME &&
        key != K_END && key != K_ENTER)
        return 0;
    live_rows lr;
    if (app_live_rows(a, &lr)) return 0;
    uint32_t n = lr.n, page = room > 1 ? (uint32_t)room - 1 : 1;
    if (a->live_cur >= n) a->live_cur = n ? n - 1 : 0;
    uint32_t c = a->live_cur;
    switch (key) {
    case K_UP: c = c ? c - 1 : 0; break;
    case K_DOWN: c = c + 1 < n ? c + 1 : c; break;
    case K_PGUP: c = c > page ? c - page : 0; break;
    case K_PGDN: c = c + page < n ? c + page : n ? n - 1 : 0; break;
    case K_HOME: c = 0; break;
    case K_END: c = n ? n - 1 : 0; break;
    default:
        if (n) fold_at(a, &lr, c);
        c = a->live_cur;
        live_rows_free(&lr);
        if (app_live_rows(a, &lr)) return APP_REDRAW;
        n = lr.n;
    }
    a->live_cur = c;
    follow(a, n, room);
    if (n && lr.row[a->live_cur].kind == LIVE_BUF) a->sel = lr.row[a->live_cur].buf;
    else a->sel = GRAPH_NONE;
    live_rows_free(&lr);
    return APP_REDRAW;
}
