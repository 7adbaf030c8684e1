/* test_ui_teach.c: the teaching flow's pace and reasons: plays with a stop (u, d, a breakpoint)
 * reach it within APP_PLAY_FIT_MS however far it is, counted in ticks and their milliseconds
 * (no wall clock), while + and - still set free play's pace; and why each order took its node
 * where two orders part (app_compare_why). */
#define _GNU_SOURCE
#include "uiutil.h"
#include "ui/app_compare.h"
#include "ui/app_play.h"
#include "sched/policy/part_why.h"

#define FAR 100000u

/* A bare graph of n steps and a run whose live bytes after step k are k:
 * enough for a play's pace and its memory breakpoints. */
typedef struct line {
    graph g;
    stepper st[2];
    app_compare c;
} line;

static void line_init(line *l, uint32_t n)
{
    memset(l, 0, sizeof *l);
    l->g.n = n;
    l->st[0].r.n = n;
    l->st[0].r.memory = malloc(n * sizeof *l->st[0].r.memory);
    assert_non_null(l->st[0].r.memory);
    for (uint32_t s = 0; s < n; s++) l->st[0].r.memory[s] = (int64_t)s + 1;
}

/* Ticks the play from where it stands until it stops; the milliseconds
 * the front end waits before each tick add up in *ms. Returns the ticks. */
static uint32_t run_play(line *l, app_play *p, uint64_t *ms)
{
    uint32_t ticks = 0, to;
    char said[256];
    *ms = 0;
    while (p->playing && ticks <= FAR) {
        *ms += (uint64_t)app_play_ms(p);
        if (!app_play_next(p, &l->g, l->st, &l->c, &to, said, sizeof said)) break;
        l->st[0].k = to;
        ticks++;
    }
    assert_false(p->playing);
    return ticks;
}

/* u's play (a goal) and a breakpoint ahead of r: 10, 1000 and 100000 steps
 * away, each reached exactly, within 2 s of ticks, from the slowest pace
 * and the fastest the user can set. */
static void test_pace_fits_distance(void **state)
{
    (void)state;
    line l;
    line_init(&l, FAR + 50);
    static const uint32_t dist[] = {10, 1000, FAR};
    for (int speed = 0; speed < APP_SPEEDS; speed += APP_SPEEDS - 1)
        for (int i = 0; i < 3; i++)
            for (int brk = 0; brk < 2; brk++) {
                app_play p;
                app_play_init(&p);
                p.speed = speed;
                uint32_t k0 = 7, stop = k0 + dist[i];
                l.st[0].k = k0;
                if (brk) { /* r, stopped by live memory reaching `stop` bytes */
                    char msg[256], text[32];
                    snprintf(text, sizeof text, ">%uB", stop);
                    assert_int_equal(app_break_add(&p, &l.g, text, msg, sizeof msg), 0);
                    app_play_start(&p, &l.g, &l.st[0].r, k0, GRAPH_NONE, NULL);
                } else app_play_start(&p, &l.g, &l.st[0].r, k0, stop, "the peak");
                uint64_t ms;
                uint32_t ticks = run_play(&l, &p, &ms);
                assert_int_equal(l.st[0].k, stop);
                assert_true(ms <= APP_PLAY_FIT_MS);
                assert_true(ticks <= APP_PLAY_FIT_MS / 20 || ticks <= dist[i]);
                assert_true(ticks >= 1);
            }
    free(l.st[0].r.memory);
}

/* + and - set free play's pace: r with no breakpoint ahead goes at the
 * user's speed, one step a tick at 1 step a second, to the end. */
static void test_pace_free_play(void **state)
{
    (void)state;
    line l;
    line_init(&l, 30);
    app_play p;
    app_play_init(&p);
    p.speed = 0;
    app_play_start(&p, &l.g, &l.st[0].r, 0, GRAPH_NONE, NULL);
    assert_int_equal(app_play_sps(&p), 1);
    assert_int_equal(app_play_ms(&p), 1000);
    uint64_t ms;
    assert_int_equal(run_play(&l, &p, &ms), 30);
    assert_int_equal(ms, 30000);
    /* a breakpoint behind the play does not hurry it */
    char msg[256];
    assert_int_equal(app_break_add(&p, &l.g, ">3B", msg, sizeof msg), 0);
    app_play_start(&p, &l.g, &l.st[0].r, 5, GRAPH_NONE, NULL);
    assert_int_equal(app_play_sps(&p), 1);
    app_play_stop(&p);
    free(l.st[0].r.memory);
}

/* Milliseconds the app waits, tick after tick, until its play stops. */
static uint64_t app_play_out_ms(app *a)
{
    uint64_t ms = 0;
    int ticks = 0;
    while (a->play.playing && ticks++ < 100000) {
        ms += (uint64_t)app_tick_ms(a);
        app_tick(a);
    }
    assert_false(a->play.playing);
    return ms;
}

/* In the app at its slowest pace: u and d reach their stops within 2 s of
 * ticks; r keeps the pace that - set. */
static void test_pace_in_app(void **state)
{
    (void)state;
    fixture f;
    open_app(&f, "demo.json", 1);
    app *a = &f.a;
    while (app_steps_per_sec(a) > 1) app_key(a, '-');
    app_key(a, 'u');
    assert_true(app_play_out_ms(a) <= APP_PLAY_FIT_MS);
    assert_int_equal(a->st[0].k, a->st[0].r.peak_step);
    app_jump(a, 0);
    app_key(a, 'd');
    assert_true(app_play_out_ms(a) <= APP_PLAY_FIT_MS);
    assert_int_equal(a->st[0].k, a->cmp.parts[0] + 1);
    app_key(a, 'r');
    assert_int_equal(app_tick_ms(a), 1000);
    app_key(a, '+');
    assert_int_equal(app_tick_ms(a), 500);
    app_key(a, 'r');
    close_app(&f);
}

/* Two policies' runs on a sample, and where their orders part. */
typedef struct pair {
    graph *g;
    run r[2];
    part_side side[2];
    uint32_t *parts, nparts;
} pair;

static void pair_open_graph(pair *p, graph *g, const char *mine, const char *other)
{
    char err[256];
    p->g = g;
    const char *name[2] = {mine, other};
    for (int i = 0; i < 2; i++) {
        p->side[i].pol = policy_find(name[i]);
        assert_non_null(p->side[i].pol);
        assert_int_equal(policy_run(p->g, p->side[i].pol, tu_quick(), &p->r[i], err, sizeof err),
                         0);
        p->side[i].r = &p->r[i];
    }
    p->parts = malloc(p->g->n * sizeof *p->parts);
    assert_non_null(p->parts);
    p->nparts = policy_partings(&p->r[0], &p->r[1], p->parts);
}

static void pair_open(pair *p, const char *sample, const char *mine, const char *other)
{
    pair_open_graph(p, tu_load_sample(sample, NULL), mine, other);
}

static void pair_close(pair *p)
{
    for (int i = 0; i < 2; i++) policy_run_free(&p->r[i]);
    free(p->parts);
    graph_free(p->g);
}

/* Side i's reason at parting j. */
static const char *took(pair *p, int i, uint32_t j, char *out, size_t cap)
{
    assert_true(j < p->nparts);
    return part_why_took(p->g, p->side[i], p->side[!i], p->parts[j], out, cap);
}

/* A greedy policy's reason is its key: the field that decided, with the
 * other node's value, after the fields that tied. */
static void test_why_greedy_keys(void **state)
{
    (void)state;
    char out[512];
    pair p;
    pair_open(&p, "demo.json", "priority", "fifo");
    assert_string_equal(took(&p, 0, 0, out, sizeof out),
                        "priority took node 41: change -1.0 MiB beats node 4's +1.0 MiB");
    assert_string_equal(took(&p, 1, 0, out, sizeof out),
                        "fifo took node 4: queued 5th beats node 41's 8th");
    part_why(p.g, p.side[0], p.side[1], p.parts[0], out, sizeof out);
    assert_string_equal(out, "priority took node 41: change -1.0 MiB beats node 4's +1.0 MiB; "
                             "fifo took node 4: queued 5th beats node 41's 8th");
    pair_close(&p);
    /* ties on change and type: the id decides */
    pair_open(&p, "demo.json", "priority", "dfs");
    uint32_t j = 0;
    while (j < p.nparts && p.g->id[p.r[0].order[p.parts[j]]] != 42) j++;
    assert_string_equal(took(&p, 0, j, out, sizeof out),
                        "priority took node 42: change -2.0 MiB and type FREE tie with node 49; "
                        "id 42 beats 49");
    pair_close(&p);
    pair_open(&p, "demo.json", "bfs", "fifo");
    assert_string_equal(took(&p, 0, 0, out, sizeof out),
                        "bfs took node 41: earliest predecessor step 2 beats node 4's step 4");
    pair_close(&p);
    pair_open(&p, "demo.json", "weighted", "fifo");
    assert_string_equal(took(&p, 0, 0, out, sizeof out),
                        "weighted took node 41: score 0.490 beats node 4's 0.210");
    pair_close(&p);
}

/* A whole order's reason is the order it leads to; of the other node's
 * best continuation it says what a bounded search proves (a window of at
 * most 2048 nodes) or else what the runs prove, never more. */
static void test_why_whole_orders(void **state)
{
    (void)state;
    char out[512];
    pair p;
    pair_open(&p, "greedy-not-optimal.json", "exact", "priority");
    assert_string_equal(took(&p, 0, 0, out, sizeof out),
                        "exact took node 2: it leads to a 10.0 MiB order (proven least); node 0's "
                        "best continuation peaks at 11.0 MiB (searched)");
    assert_string_equal(took(&p, 1, 0, out, sizeof out),
                        "priority took node 0: change +1.0 MiB beats node 2's +10.0 MiB");
    pair_close(&p);
    /* best follows priority; where the search proves the continuation, and
     * where fifo's own is proven least (no search needed) */
    pair_open(&p, "xla-counterexample.json", "best", "fifo");
    assert_true(p.nparts >= 3);
    assert_string_equal(took(&p, 0, 1, out, sizeof out),
                        "best took node 14: next in priority's order, which peaks at 5.0 MiB; "
                        "node 4's best continuation peaks at 6.0 MiB (searched)");
    assert_string_equal(took(&p, 0, 2, out, sizeof out),
                        "best took node 17: next in priority's order, which peaks at 5.0 MiB; "
                        "node 12's best continuation peaks at 6.0 MiB (proven: fifo's does)");
    pair_close(&p);
    /* 2500 nodes: the window after step 3 is past the search's; the runs'
     * figures only */
    pair_open_graph(&p, tu_gen_load("randwire", 2500, 1), "best", "fifo");
    assert_true(p.nparts >= 1 && p.g->n - p.parts[0] > 2048);
    took(&p, 0, 0, out, sizeof out);
    assert_non_null(strstr(out, "'s best continuation: not computed (fifo's peaks at "));
    assert_null(strstr(out, "searched"));
    pair_close(&p);
}

/* The compare panels explain the parting the cursor is at or passed last
 * (the first before any), naming its step when it is not the first. */
static void test_why_in_app(void **state)
{
    (void)state;
    fixture f;
    open_app(&f, "demo.json", 1);
    app *a = &f.a;
    char out[512], want[64];
    assert_true(a->cmp.nparts >= 2);
    assert_non_null(strstr(app_part_why(a, 0, out, sizeof out), "priority took node 41: change"));
    assert_int_equal(strncmp(app_part_why(a, 1, out, sizeof out), "fifo took node 4: ", 18), 0);
    app_key(a, 'd');
    while (a->play.playing) app_tick(a);
    app_key(a, 'd');
    while (a->play.playing) app_tick(a);
    uint32_t k = a->cmp.parts[1] + 1;
    assert_int_equal(a->st[0].k, k);
    snprintf(want, sizeof want, "step %u: priority took node ", k);
    assert_int_equal(strncmp(app_part_why(a, 0, out, sizeof out), want, strlen(want)), 0);
    close_app(&f);
}

int main(int argc, char **argv)
{
    uiu_args(argc, argv);
    // clang-format off
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pace_fits_distance),
        cmocka_unit_test(test_pace_free_play),
        cmocka_unit_test(test_pace_in_app),
        cmocka_unit_test(test_why_greedy_keys),
        cmocka_unit_test(test_why_whole_orders),
        cmocka_unit_test(test_why_in_app),
    };
    // clang-format on
    return cmocka_run_group_tests(tests, NULL, NULL);
}
