/* fuzz_tui.c: libFuzzer harness of the TUI's state machine: the input picks a
 * graph and the app's settings, then is decoded as events (keys, resizes from
 * 1x1 to 300x100, clicks, ticks, prompts, a replay overlay) fed to the app;
 * after each one the app is rendered into a guarded canvas of the current
 * size and its invariants are checked (steps in range, both sides together,
 * back then forward the same state). R replays in the background on an
 * in-memory backend (never the host's: it would measure this process), and
 * a synchronous replay on it gives the curve other overlays.
 * Exports LLVMFuzzerTestOneInput and LLVMFuzzerInitialize. */
#include <locale.h>
#include <sched.h>
#include "fuzz_ui.h"
#include "gpu/replay.h"
#include "sched/gen/gen.h"
#include "ui/hit.h"

#define NGRAPHS 8
/* Events per input: each is followed by a whole render, the cost of an input. */
#define MAX_EVENTS 16

static graph *graphs[NGRAPHS];

/* The text of a generated graph, collected by gen_write. */
typedef struct textbuf {
    char *s;
    size_t len, cap;
} textbuf;

static int collect(void *ctx, const char *data, size_t len)
{
    textbuf *t = ctx;
    if (t->len + len + 1 > t->cap) {
        size_t cap = (t->len + len + 1) * 2;
        char *s = realloc(t->s, cap);
        if (!s) return -1;
        t->s = s;
        t->cap = cap;
    }
    memcpy(t->s + t->len, data, len);
    t->len += len;
    t->s[t->len] = 0;
    return 0;
}

static graph *generated(const char *kind, uint32_t nodes, uint64_t seed)
{
    textbuf t = {0};
    char err[256];
    FUZZ_CHECK(gen_write(gen_kind_find(kind), nodes, seed, collect, &t, err, sizeof err) == 0,
               "gen: %s", err);
    graph *g = fuzz_graph(NULL, t.s);
    free(t.s);
    return g;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    /* As memtris view in a UTF-8 terminal: wcwidth knows the wide and the
     * zero-width characters (in the C locale every one is '?'). */
    setlocale(LC_ALL, "C.UTF-8");
    graphs[0] = fuzz_graph(MEMTRIS_SOURCE_DIR "/samples/demo.json", NULL);
    graphs[1] = fuzz_graph(MEMTRIS_SOURCE_DIR "/samples/seed-example.json", NULL);
    graphs[2] = fuzz_graph(MEMTRIS_SOURCE_DIR "/samples/fanout.json", NULL);
    graphs[3] = generated("random", 120, 7);
    graphs[4] = fuzz_graph(MEMTRIS_SOURCE_DIR "/tests/data/huge.json", NULL);
    graphs[5] = fuzz_graph(NULL, "{\"Nodes\": [], \"Edges\": []}");
    graphs[6] = fuzz_graph(
        NULL,
        "{\"Nodes\": [{\"Id\": 9007199254740991, \"Op\": \"X\", \"Name\": "
        "\"\\u00e9\\u4e2d\\ud83d\\ude00\\u0301\\u0007 wide and long name\"}], \"Edges\": []}");
    graphs[7] = generated("randwire", 60, 3);
    return 0;
}

/* ------------------------------------------------------------ in-memory replay backend */

/* A device that holds what is allocated, reads it back (plus a wobble, so
 * measured and predicted differ), and runs out of memory at a chosen
 * allocation. */
struct replay_dev {
    int64_t *bytes;
    uint32_t nslots;
    int64_t held;
    uint32_t allocs, fail_at; /* fail_at: 1-based allocation that fails, 0 never */
    int64_t wobble;
};

/* Set by overlay() while R's job may be opening a device on its thread. */
static _Atomic uint32_t mem_fail_at;
static _Atomic int64_t mem_wobble;

static replay_dev *mem_open(int mode, uint32_t nslots, char *err, size_t errcap)
{
    (void)mode;
    replay_dev *d = calloc(1, sizeof *d);
    if (d) d->bytes = calloc(nslots ? nslots : 1, sizeof *d->bytes);
    if (!d || !d->bytes) {
        if (d) free(d);
        snprintf(err, errcap, "out of memory");
        return NULL;
    }
    d->nslots = nslots;
    d->fail_at = mem_fail_at;
    d->wobble = mem_wobble;
    return d;
}

static void mem_info(replay_dev *d, replay_info *out)
{
    (void)d;
    memset(out, 0, sizeof *out);
    snprintf(out->device, sizeof out->device, "fuzz: memory");
}

static int mem_alloc(replay_dev *d, uint32_t slot, int64_t bytes, int *oom)
{
    FUZZ_CHECK(slot < d->nslots && d->bytes[slot] == 0 && bytes > 0,
               "alloc slot %u of %u, %lld bytes", slot, d->nslots, (long long)bytes);
    if (++d->allocs == d->fail_at) {
        *oom = 1;
        return -1;
    }
    d->bytes[slot] = bytes;
    d->held += bytes;
    return 0;
}

static int mem_release(replay_dev *d, uint32_t slot)
{
    FUZZ_CHECK(slot < d->nslots, "release slot %u of %u", slot, d->nslots);
    d->held -= d->bytes[slot];
    d->bytes[slot] = 0;
    return 0;
}

static int mem_touch(replay_dev *d, const replay_region *rg, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        FUZZ_CHECK(rg[i].slot < d->nslots && rg[i].off >= 0 && rg[i].bytes > 0 &&
                       rg[i].off + rg[i].bytes <= d->bytes[rg[i].slot],
                   "region %u: slot %u, %lld bytes at %lld", i, rg[i].slot, (long long)rg[i].bytes,
                   (long long)rg[i].off);
    return 0;
}

static int mem_read(replay_dev *d, int64_t *used)
{
    *used = d->held + (d->allocs % 2 ? d->wobble : 0);
    return 0;
}

static const char *mem_error(replay_dev *d)
{
    (void)d;
    return "out of fuzz memory";
}

static void mem_close(replay_dev *d)
{
    free(d->bytes);
    free(d);
}

static const replay_backend mem_backend = {
    .name = "fuzz",
    .label = "the fuzzer's memory",
    .desc = "in memory",
    .modes = (1u << REPLAY_RAW) | (1u << REPLAY_ARENA) | (1u << REPLAY_POOL),
    .open = mem_open,
    .info = mem_info,
    .alloc = mem_alloc,
    .release = mem_release,
    .touch = mem_touch,
    .read = mem_read,
    .error = mem_error,
    .close = mem_close,
};

/* What R's job does, synchronously: replays a policy's schedule and hands
 * the result (or the steps measured before a failure) to the app. */
static void overlay(app *a, fuzz_in *in)
{
    static const int modes[] = {REPLAY_RAW, REPLAY_ARENA, REPLAY_POOL};
    unsigned b = fuzz_byte(in);
    int mode = modes[b % 3];
    const policy *pol =
        (b & 4) && a->cmp.pol ? a->cmp.pol : a->pol; /* sometimes not the stepped one */
    mem_fail_at = fuzz_byte(in) % 8;
    mem_wobble = (int64_t)(int8_t)fuzz_byte(in) * ((int64_t)1 << (fuzz_byte(in) % 40));
    run r;
    char err[512];
    if (policy_run(a->g, pol, NULL, &r, err, sizeof err)) return;
    /* arena: the plan of the schedule replayed, as the job makes it */
    placement pl = {0};
    int own = mode == REPLAY_ARENA && pol != a->pol;
    if (own && place_run(a->g, &r, a->placer, PLACE_ALIGN_DEFAULT, NULL, &pl, err, sizeof err)) {
        policy_run_free(&r);
        return;
    }
    replay_opts o = {&mem_backend, mode, own ? &pl : &a->pl, NULL, NULL};
    replay_result res;
    int rc = replay_run(a->g, &r, pol, &o, &res, err, sizeof err);
    place_free(&pl);
    FUZZ_CHECK(rc == 0 || rc == -1, "replay_run %d", rc);
    FUZZ_CHECK(rc != 0 || res.n == r.n, "a finished replay of %u steps has %u", r.n, res.n);
    if (res.n) app_set_replay(a, &res);
    else replay_result_free(&res);
    policy_run_free(&r);
}

/* ------------------------------------------------------------ events */

static int key_of(unsigned b)
{
    static const int special[] = {K_UP,   K_DOWN, K_LEFT,      K_RIGHT, K_HOME, K_END,
                                  K_PGUP, K_PGDN, K_BACKSPACE, K_ENTER, K_ESC,  K_TAB,
                                  K_BTAB, K_F1,   K_F10,       K_RESIZE};
    if (b >= 128) return special[b % 16];
    if (b == 'e') return 'b'; /* e writes a file: prompt() exports to /dev/null instead */
    return (int)b;
}

/* A terminal size from 1x1 to 300x100; three times in four at most 120x50
 * (a render costs in proportion to its cells). */
static void size_of(fuzz_in *in, int *w, int *h)
{
    unsigned how = fuzz_byte(in), x = fuzz_byte(in), y = fuzz_byte(in);
    int big = how >= 192;
    *w = 1 + (int)((x | (big ? (how & 1) << 8 : 0)) % (big ? 300 : 120));
    *h = 1 + (int)(y % (big ? 100 : 50));
}

/* A prompt (go to, find, breakpoint) with a step or an Id (sometimes out of
 * range), or text (a part of a name or an op, or any printable bytes, a
 * size for a breakpoint); after a find, n and N. Or the export, to /dev/null. */
static void prompt(app *a, fuzz_in *in)
{
    static const int kinds[] = {'g', '/', 'b', 'e'};
    int kind = kinds[fuzz_byte(in) % 4];
    app_key(a, kind);
    if (kind == 'e') {
        if (a->prompt.kind != 'e') return; /* e closed the help instead */
        while (a->prompt.buf[0]) app_key(a, K_BACKSPACE);
        for (const char *p = "/dev/null"; *p; p++) app_key(a, *p);
        app_key(a, K_ENTER);
        return;
    }
    unsigned how = fuzz_byte(in);
    char text[32];
    uint64_t v;
    if (how & 0x40) {
        unsigned len = fuzz_byte(in) % 12;
        for (unsigned i = 0; i < len; i++) text[i] = (char)(' ' + fuzz_byte(in) % 95);
        text[len] = 0;
    } else {
        if (how % 4 == 0) v = fuzz_u16(in) % (a->g->n + 2u);
        else if (how % 4 == 1 && a->g->n) v = (uint64_t)a->g->id[fuzz_u16(in) % a->g->n];
        else if (how % 4 == 2) v = (uint64_t)fuzz_u16(in) << (fuzz_byte(in) % 48);
        else v = UINT64_MAX;
        snprintf(text, sizeof text, "%s%llu%s", kind == 'b' && how & 0x80 ? ">" : "",
                 (unsigned long long)v, kind == 'b' && how & 0x08 ? "KiB" : "");
    }
    for (const char *p = text; *p; p++) app_key(a, *p);
    if (how & 0x10) app_key(a, K_BACKSPACE);
    app_key(a, how & 0x20 ? K_ESC : K_ENTER);
    for (unsigned k = fuzz_byte(in) % 4; k > 0; k--) app_key(a, fuzz_byte(in) & 1 ? 'n' : 'N');
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_in in = {data, size};
    const graph *g = graphs[fuzz_pick(&in, NGRAPHS)];
    unsigned f = fuzz_byte(&in);
    const policy *pol = policy_at(f & 1), *cmp = policy_at(!(f & 1));
    const placer *plc = placer_at((f >> 1) % placer_count());
    static const char *const titles[] = {"demo (built in)",
                                         "/a/very/deep/folder/with spaces/graph.json",
                                         "-",
                                         "<stdin>",
                                         "gr\xc3\xa4ph-\xe4\xb8\xad.json",
                                         "dir/",
                                         "\xff\xfe\x01\x7f.json",
                                         ""};
    app a;
    /* s and o can reach exact: a bounded search (its limit path) keeps each
     * input fast; the background job takes the app's limits. */
    static const solve_ctx quick = {.max_states = 20000};
    if (app_init(&a, g, titles[fuzz_pick(&in, 8)], pol, cmp, (f >> 4) & 1, plc, &quick)) {
        /* Only out of memory, or live bytes past 2^63-1. */
        app_free(&a);
        return 0;
    }
    unsigned s = fuzz_byte(&in);
    a.utf8 = s & 1;
    a.mono = (s >> 1) & 1;
    a.mouse = (s >> 2) & 1;
    a.arena = (s >> 3) & 1 ? ARENA_TIMELINE : ARENA_BLOCKS;
    static const int modes[] = {REPLAY_RAW, REPLAY_ARENA, REPLAY_POOL, REPLAY_RAW};
    a.rp.be = &mem_backend; /* what R runs */
    a.rp.be_auto = 0;
    a.rp.mode = modes[(s >> 4) & 3];
    if (s & 0x40) a.place.async_min = 0; /* a and s place in the background */
    int w, h;
    size_of(&in, &w, &h);
    app_resize(&a, w, h);
    fuzz_canvas fc;
    fuzz_canvas_init(&fc, w, h, a.utf8);
    fuzz_render(&fc, &a);
    fuzz_check_app(&a);

    for (int e = 0; e < MAX_EVENTS && in.n && !a.quit; e++) {
        unsigned op = fuzz_byte(&in);
        switch (op % 16) {
        case 10: /* a resize: the canvas follows */
            size_of(&in, &w, &h);
            app_resize(&a, w, h);
            app_key(&a, K_RESIZE);
            fuzz_canvas_free(&fc);
            fuzz_canvas_init(&fc, w, h, a.utf8);
            break;
        case 11: { /* a click, sometimes just outside */
            int x = (int)(fuzz_u16(&in) % (unsigned)(w + 2)) - 1,
                y = (int)(fuzz_byte(&in) % (unsigned)(h + 2)) - 1;
            hit_frame hf = {&a.lay, a.utf8,   app_arena_base(&a) == ARENA_TIMELINE,
                            a.g,    &a.st[0], &a.pl,
                            0,      0,        a.curve == CURVE_LANES};
            app_curve_window(&a, &hf.lo, &hf.span);
            hit_action at = hit_test(&hf, x, y);
            if (at.kind == HIT_STEP)
                FUZZ_CHECK(at.step <= g->n && at.step >= hf.lo && at.step < hf.lo + hf.span,
                           "a click at step %u of %u (window %u+%u)", at.step, g->n, hf.lo,
                           hf.span);
            if (at.kind == HIT_BUFFER)
                FUZZ_CHECK(at.buf < g->nbufs, "a click on buffer %u of %u", at.buf, g->nbufs);
            app_reaction r = app_click(&a, x, y);
            FUZZ_CHECK(!r == (at.kind == HIT_NONE), "a click on %d reacted with %u", (int)at.kind,
                       r);
            break;
        }
        case 12: /* ticks (auto-play steps when playing) */
            for (unsigned t = fuzz_byte(&in) % 8; t > 0; t--) app_tick(&a);
            break;
        case 13: overlay(&a, &in); break;
        case 14: prompt(&a, &in); break;
        case 15: /* the background replay (R) and placement finish */
            while (a.rp.job || a.place.job) {
                app_tick(&a);
                sched_yield();
            }
            break;
        default: {
            app_reaction r = app_key(&a, key_of(fuzz_byte(&in)));
            FUZZ_CHECK(!(r & APP_QUIT) == !a.quit, "quit %d, reaction %u", a.quit, r);
            break;
        }
        }
        fuzz_render(&fc, &a);
        fuzz_check_app(&a);
        /* back then forward, and forward then back, on both sides */
        fuzz_check_undo(&a.st[0]);
        if (a.cmp.have) fuzz_check_undo(&a.st[1]);
    }
    fuzz_canvas_free(&fc);
    app_free(&a);
    return 0;
}
