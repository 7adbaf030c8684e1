/* test_replay_io.c: saved replays: every field survives replay_write_json and
 * replay_load_json (by hand and from a real host replay), each malformed file
 * is refused with a message naming the file and the place, and
 * replay_check_run names the first difference from a schedule. */
#include <unistd.h>
#include "testutil.h"
#include "gpu/replay.h"
#include "sched/budget/budget.h"

/* A directory of its own for the files of one test; removed at the end. */
typedef struct tdir {
    char dir[64];
    char path[128]; /* dir/saved.json */
} tdir;

static void tdir_make(tdir *t)
{
    const char *base = getenv("TMPDIR");
    snprintf(t->dir, sizeof t->dir, "%s/replay-io.XXXXXX",
             base && *base && strlen(base) < 32 ? base : "/tmp");
    assert_non_null(mkdtemp(t->dir));
    snprintf(t->path, sizeof t->path, "%s/saved.json", t->dir);
}

static void tdir_remove(tdir *t)
{
    remove(t->path);
    rmdir(t->dir);
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    tu_str b = {0};
    char chunk[4096];
    size_t k;
    tu_printf(&b, "%s", "");
    while ((k = fread(chunk, 1, sizeof chunk, f)) > 0) tu_printf(&b, "%.*s", (int)k, chunk);
    fclose(f);
    return b.s;
}

static void save(const char *path, const replay_result *res)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    assert_int_equal(replay_write_json(f, res), 0);
    assert_int_equal(fclose(f), 0);
}

/* A replay made by hand: strings that need escaping, negative and 2^53-1
 * figures, times that %.6g keeps exactly. */
static void hand_result(replay_result *res, uint32_t total, uint32_t n)
{
    memset(res, 0, sizeof *res);
    snprintf(res->backend, sizeof res->backend, "cuda");
    snprintf(res->mode, sizeof res->mode, "arena");
    snprintf(res->policy, sizeof res->policy, "priority");
    snprintf(res->placer, sizeof res->placer, "greedy-size");
    snprintf(res->info.device, sizeof res->info.device, "NVIDIA \"H200\" \\ slot\t1 \xc3\xa9\x01");
    res->info.total = (int64_t)150754820096;
    snprintf(res->info.versions, sizeof res->info.versions, "driver 13.0, runtime 13.0");
    res->total = total;
    res->n = n;
    res->s = calloc(total + 1, sizeof *res->s);
    assert_non_null(res->s);
    static const double ms[] = {0.125, 1.5, 12.3456, 0, 1e-05, 250000};
    for (uint32_t i = 0; i < n; i++) {
        replay_sample *x = &res->s[i];
        x->step = i;
        x->node = i == 2 ? (int64_t)9007199254740991 : (int64_t)i * 7 + 3;
        x->predicted = (int64_t)(i + 1) << 20;
        x->measured = i == 1 ? -4096 : ((int64_t)(i + 1) << 20) + (int64_t)i * 65536;
        x->ms = ms[i % 6];
    }
    res->baseline = 618659840;
    res->residual = -8192;
    res->residual_known = 1;
    res->held = 33554432;
    replay_summarize(res);
}

static void assert_same_result(const replay_result *a, const replay_result *b)
{
    assert_string_equal(a->backend, b->backend);
    assert_string_equal(a->mode, b->mode);
    assert_string_equal(a->policy, b->policy);
    assert_string_equal(a->placer, b->placer);
    assert_string_equal(a->info.device, b->info.device);
    assert_string_equal(a->info.versions, b->info.versions);
    assert_true(a->info.total == b->info.total);
    assert_int_equal(a->total, b->total);
    assert_int_equal(a->n, b->n);
    for (uint32_t i = 0; i < a->n; i++) {
        assert_int_equal(a->s[i].step, b->s[i].step);
        assert_true(a->s[i].node == b->s[i].node);
        assert_true(a->s[i].predicted == b->s[i].predicted);
        assert_true(a->s[i].measured == b->s[i].measured);
        double d = a->s[i].ms - b->s[i].ms;
        assert_true(d <= 1e-5 * a->s[i].ms && -d <= 1e-5 * a->s[i].ms);
    }
    assert_true(a->baseline == b->baseline);
    assert_int_equal(a->residual_known, b->residual_known);
    if (a->residual_known) assert_true(a->residual == b->residual);
    assert_true(a->held == b->held);
    assert_true(a->predicted_peak == b->predicted_peak);
    assert_int_equal(a->predicted_peak_step, b->predicted_peak_step);
    assert_true(a->measured_peak == b->measured_peak);
    assert_int_equal(a->measured_peak_step, b->measured_peak_step);
    assert_true(a->max_excess == b->max_excess);
    assert_int_equal(a->max_excess_step, b->max_excess_step);
    double d = a->seconds - b->seconds;
    assert_true(d <= 1e-5 * a->seconds && -d <= 1e-5 * a->seconds);
}

/* ------------------------------------------------------------ round trips */

static void round_trip_every_field(void **state)
{
    (void)state;
    tdir t;
    tdir_make(&t);
    replay_result a, b;
    hand_result(&a, 6, 6);
    save(t.path, &a);
    char err[512];
    int rc = replay_load_json(t.path, &b, err, sizeof err);
    if (rc) fail_msg("%s", err);
    assert_same_result(&a, &b);
    /* Saved again, the same bytes. */
    char *first = read_text(t.path);
    save(t.path, &b);
    char *second = read_text(t.path);
    assert_string_equal(first, second);
    /* The fields, in order, as the JSON says them. */
    const char *keys[] = {
        "\"backend\": \"cuda\"",
        "\"mode\": \"arena\"",
        "\"policy\": \"priority\"",
        "\"placer\": \"greedy-size\"",
        "\"device\": \"NVIDIA \\\"H200\\\" \\\\ slot\\u0009",
        "\"device_total\": 150754820096",
        "\"versions\": ",
        "\"steps\": [",
        ("{\"step\": 3, \"node\": 9007199254740991, \"predicted\": 3145728, \"measured\": 3276800, "
         "\"ms\": 12.3456}"),
        "\"predicted_peak\": 6291456",
        "\"predicted_peak_step\": 6",
        "\"measured_peak\": ",
        "\"measured_peak_step\": 6",
        "\"max_excess\": 327680",
        "\"max_excess_step\": 6",
        "\"baseline\": 618659840",
        "\"residual\": -8192",
        "\"held\": 33554432",
        "\"seconds\": ",
        "\"complete\": true",
        "\"total_steps\": 6}"};
    const char *at = first;
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) {
        const char *k = strstr(at, keys[i]);
        if (!k) fail_msg("%s not found in order in:\n%s", keys[i], first);
        at = k;
    }
    free(first);
    free(second);
    replay_result_free(&a);
    replay_result_free(&b);
    tdir_remove(&t);
}

/* A replay that stopped early keeps its total; no placer when not in arena
 * mode; an empty replay is a replay too. */
static void round_trip_partial_and_empty(void **state)
{
    (void)state;
    tdir t;
    tdir_make(&t);
    replay_result a, b;
    char err[512];
    hand_result(&a, 10, 4);
    snprintf(a.mode, sizeof a.mode, "raw");
    a.placer[0] = 0;
    save(t.path, &a);
    char *text = read_text(t.path);
    assert_non_null(strstr(text, "\"complete\": false, \"total_steps\": 10}"));
    assert_null(strstr(text, "placer"));
    free(text);
    if (replay_load_json(t.path, &b, err, sizeof err)) fail_msg("%s", err);
    assert_same_result(&a, &b);
    replay_result_free(&a);
    replay_result_free(&b);

    hand_result(&a, 0, 0);
    save(t.path, &a);
    if (replay_load_json(t.path, &b, err, sizeof err)) fail_msg("%s", err);
    assert_same_result(&a, &b);
    replay_result_free(&a);
    replay_result_free(&b);
    tdir_remove(&t);
}

/* A replay whose last reading failed: its residual is saved as null, loads
 * back as unknown (never as 0), and is saved again as null. */
static void round_trip_unknown_residual(void **state)
{
    (void)state;
    tdir t;
    tdir_make(&t);
    replay_result a, b;
    char err[512];
    hand_result(&a, 6, 6);
    a.residual = 0;
    a.residual_known = 0;
    snprintf(a.residual_error, sizeof a.residual_error,
             "the reading after giving everything back failed");
    save(t.path, &a);
    char *first = read_text(t.path);
    assert_non_null(
        strstr(first, "\"baseline\": 618659840, \"residual\": null, \"held\": 33554432"));
    if (replay_load_json(t.path, &b, err, sizeof err)) fail_msg("%s", err);
    assert_same_result(&a, &b);
    assert_false(b.residual_known);
    assert_string_equal(b.residual_error, ""); /* the reason is not saved */
    save(t.path, &b);
    char *second = read_text(t.path);
    assert_string_equal(first, second);
    free(first);
    free(second);
    replay_result_free(&a);
    replay_result_free(&b);
    /* a residual of 0 that was read stays a known 0 */
    hand_result(&a, 2, 2);
    a.residual = 0;
    save(t.path, &a);
    first = read_text(t.path);
    assert_non_null(strstr(first, "\"residual\": 0, "));
    free(first);
    if (replay_load_json(t.path, &b, err, sizeof err)) fail_msg("%s", err);
    assert_true(b.residual_known);
    assert_true(b.residual == 0);
    replay_result_free(&a);
    replay_result_free(&b);
    tdir_remove(&t);
}

static const char small_graph[] =
    "{\"Nodes\": [{\"Id\": 10, \"Op\": \"ALLOC\", \"Size\": 1048576, \"BufId\": 1},"
    " {\"Id\": 11, \"Op\": \"Conv\", \"Inputs\": [1, 2]},"
    " {\"Id\": 12, \"Op\": \"ALLOC\", \"Size\": 2097152, \"BufId\": 2},"
    " {\"Id\": 13, \"Op\": \"FREE\", \"BufId\": 1},"
    " {\"Id\": 14, \"Op\": \"FREE\", \"BufId\": 2}],"
    " \"Edges\": [[10, 11], [12, 11], [11, 13], [11, 14]]}";

/* A real replay on the host, saved and loaded, still belongs to its run. */
static void round_trip_host_replay(void **state)
{
    (void)state;
    diag d;
    graph *g = tu_load(small_graph, &d);
    assert_non_null(g);
    run r;
    char err[512];
    assert_int_equal(policy_run(g, policy_find("priority"), NULL, &r, err, sizeof err), 0);
    static const int modes[] = {REPLAY_RAW, REPLAY_POOL, REPLAY_ARENA};
    tdir t;
    tdir_make(&t);
    for (size_t k = 0; k < 3; k++) {
        placement pl = {0};
        if (modes[k] == REPLAY_ARENA)
            assert_int_equal(
                place_run(g, &r, placer_find("first-fit"), 64, NULL, &pl, err, sizeof err), 0);
        replay_opts o = {replay_backend_find("host"), modes[k],
                         modes[k] == REPLAY_ARENA ? &pl : NULL, NULL, NULL};
        replay_result a, b;
        if (replay_run(g, &r, policy_find("priority"), &o, &a, err, sizeof err))
            fail_msg("%s", err);
        assert_int_equal(a.n, 5);
        save(t.path, &a);
        if (replay_load_json(t.path, &b, err, sizeof err)) fail_msg("%s", err);
        assert_same_result(&a, &b);
        if (replay_check_run(&b, g, &r, err, sizeof err)) fail_msg("%s", err);
        replay_result_free(&a);
        replay_result_free(&b);
        place_free(&pl);
    }
    tdir_remove(&t);
    policy_run_free(&r);
    graph_free(g);
    diag_free(&d);
}

/* ------------------------------------------------------------ malformed files */

/* A valid saved replay of 2 steps, with one piece replaced. It counts its
 * steps from 0, as memtris wrote them before 2026-12-03 (still read; what
 * memtris writes now counts from 1: round_trip_every_field). */
static char *variant(const char *from, const char *to)
{
    static const char good[] =
        "{\"backend\": \"host\", \"mode\": \"raw\", \"policy\": \"fifo\", \"device\": \"host\", "
        "\"device_total\": 1000000, \"versions\": \"v\",\n"
        " \"steps\": [\n"
        "  {\"step\": 0, \"node\": 4, \"predicted\": 100, \"measured\": 4096, \"ms\": 0.5},\n"
        "  {\"step\": 1, \"node\": 5, \"predicted\": 0, \"measured\": 0, \"ms\": 0.25}\n"
        " ],\n"
        " \"predicted_peak\": 100, \"predicted_peak_step\": 0, \"measured_peak\": 4096, "
        "\"measured_peak_step\": 0, "
        "\"max_excess\": 3996, \"max_excess_step\": 0,\n"
        " \"baseline\": 0, \"residual\": 0, \"held\": 0, \"seconds\": 0.00075, \"complete\": true, "
        "\"total_steps\": 2}\n";
    tu_str b = {0};
    const char *at = from ? strstr(good, from) : NULL;
    if (from && !at) fail_msg("'%s' is not in the good file", from);
    if (!from) tu_printf(&b, "%s", good);
    else tu_printf(&b, "%.*s%s%s", (int)(at - good), good, to, at + strlen(from));
    return b.s;
}

static void expect_refused(const tdir *t, const char *text, const char *want)
{
    write_text(t->path, text);
    replay_result res;
    char err[512];
    memset(&res, 0xab, sizeof res);
    if (replay_load_json(t->path, &res, err, sizeof err) == 0)
        fail_msg("loaded, expected: %s\n%s", want, text);
    if (strncmp(err, t->path, strlen(t->path)) || strncmp(err + strlen(t->path), ": ", 2))
        fail_msg("the message does not start with the file's name: %s", err);
    if (!strstr(err, want)) fail_msg("expected '%s' in: %s", want, err);
    assert_null(res.s);
    assert_int_equal(res.n, 0);
}

static void malformed_files(void **state)
{
    (void)state;
    tdir t;
    tdir_make(&t);
    char *good = variant(NULL, NULL);
    write_text(t.path, good);
    replay_result res;
    char err[512];
    if (replay_load_json(t.path, &res, err, sizeof err)) fail_msg("the good file: %s", err);
    assert_int_equal(res.n, 2);
    assert_true(res.max_excess == 3996 && res.measured_peak == 4096);
    assert_true(res.residual_known && res.residual == 0);
    replay_result_free(&res);
    free(good);

    static const struct {
        const char *from, *to, *want;
    } cases[] = {
        {"  {\"step\": 1,", "  {\"step\": 1,,", "line 4, column 1"},
        {"\"total_steps\": 2}\n", "\"total_steps\": 2", ": invalid JSON"},
        {"\"total_steps\": 2}\n", "\"total_steps\": 2} {}",
         "line 7, column 99: more text after the JSON value"},
        {"\"steps\"", "\"Steps\"", "not a memtris replay (no \"steps\" array)"},
        {"\"steps\": [", "\"steps\": {\"a\": 1}, \"x\": [",
         "not a memtris replay (no \"steps\" array)"},
        {"\"measured\": 0,", "\"measured\": \"0\",",
         "steps[1]: \"measured\" is a string, not an integer"},
        {"\"measured\": 0,", "\"measured\": 0.5,", "steps[1]: \"measured\" is not an integer"},
        {"\"measured\": 0,", "\"measured\": 9007199254740993,",
         "steps[1]: \"measured\" is beyond 2^53-1"},
        {"\"measured\": 0,", "", "steps[1]: no \"measured\""},
        {"\"node\": 5", "\"node\": -5", "steps[1]: \"node\" is negative"},
        {"\"ms\": 0.25", "\"ms\": -1", "steps[1]: \"ms\" is not a time"},
        {"\"ms\": 0.25", "\"ms\": null", "steps[1]: \"ms\" is null, not a number"},
        {"{\"step\": 1,", "{\"step\": 2,",
         "steps[1]: \"step\" is 2, expected 1 (steps count from 0"},
        {"{\"step\": 0,", "{\"step\": 2,",
         "steps[0]: \"step\" is 2, expected 1 (steps count from 1"},
        {"  {\"step\": 1, \"node\": 5, \"predicted\": 0, \"measured\": 0, \"ms\": 0.25}", "  7",
         "steps[1] is a number, not an object"},
        {"\"mode\": \"raw\"", "\"mode\": \"turbo\"",
         "\"mode\" is \"turbo\", not one of raw, arena, pool, async"},
        {"\"backend\": \"host\", ", "", "no \"backend\""},
        {"\"backend\": \"host\"", "\"backend\": \"\"", "\"backend\" is empty"},
        {"\"policy\": \"fifo\"", "\"policy\": 3", "\"policy\" is a number, not a string"},
        {"\"device\": \"host\"",
         "\"device\": \"0123456789012345678901234567890123456789012345678901234567890123456789"
         "0123456789012345678901234567890123456789012345678901234567890123456789\"",
         "\"device\" is longer than 127 bytes"},
        {"\"device_total\": 1000000", "\"device_total\": -1", "\"device_total\" is negative"},
        {"\"total_steps\": 2", "\"total_steps\": 1",
         "\"steps\" has 2 entries, more than \"total_steps\" (1)"},
        {"\"total_steps\": 2", "\"total_steps\": 3",
         "\"complete\" is true but \"steps\" has 2 of the 3 steps"},
        {"\"complete\": true", "\"complete\": 1", "\"complete\" is a number, not true or false"},
        {"\"held\": 0, ", "", "no \"held\""},
        {"\"residual\": 0", "\"residual\": 1e400", "\"residual\" is not an integer"},
        {"\"residual\": 0", "\"residual\": \"unknown\"",
         "\"residual\" is a string, not an integer or null"},
        {"\"residual\": 0", "\"residual\": 0.5", "\"residual\" is not an integer"},
        {"\"residual\": 0, ", "", "no \"residual\""},
        {"\"max_excess_step\": 0", "\"max_excess_step\": 3",
         "\"max_excess_step\" is 3, outside 0..2"},
        {"\"seconds\": 0.00075", "\"seconds\": \"fast\"", "\"seconds\" is a string, not a number"},
        /* a NUL inside a string would cut it there (the policy compared, "fi"): refused */
        {"\"policy\": \"fifo\"", "\"policy\": \"fi\\u0000fo\"",
         "line 1, column 49: \\u0000 (a NUL character) inside a string: memtris refuses it"},
        {"\"device\": \"host\"", "\"device\": \"\\u0000\"", "line 1, column 65: \\u0000"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *text = variant(cases[i].from, cases[i].to);
        expect_refused(&t, text, cases[i].want);
        free(text);
    }
    expect_refused(&t, "", "is empty, not a memtris replay");
    expect_refused(&t, " \n\t", "is empty, not a memtris replay");
    expect_refused(&t, "[1, 2]", "not a memtris replay (the JSON is an array, not an object)");
    expect_refused(&t, "{\"Nodes\": [], \"Edges\": []}",
                   "not a memtris replay (no \"steps\" array)");
    expect_refused(&t, "{\n\n  \"steps\": [tru]}",
                   "line 3, column 16: invalid JSON: invalid literal, at ']}'");

    /* A file that is not there. */
    tdir_remove(&t);
    assert_int_equal(replay_load_json(t.path, &res, err, sizeof err), -1);
    assert_non_null(strstr(err, t.path));
    assert_non_null(strstr(err, "cannot open: No such file or directory"));
}

/* ------------------------------------------------------------ checking */

static void check_run_names_the_difference(void **state)
{
    (void)state;
    diag d;
    graph *g = tu_load(small_graph, &d);
    assert_non_null(g);
    run r;
    char err[512];
    assert_int_equal(policy_run(g, policy_find("priority"), NULL, &r, err, sizeof err), 0);
    assert_int_equal(r.n, 5);
    replay_result res;
    memset(&res, 0, sizeof res);
    snprintf(res.policy, sizeof res.policy, "priority");
    res.total = res.n = 5;
    res.s = calloc(5, sizeof *res.s);
    assert_non_null(res.s);
    for (uint32_t s = 0; s < 5; s++)
        res.s[s] = (replay_sample){s, g->id[r.order[s]], r.memory[s], r.memory[s] + 4096, 0.1};
    if (replay_check_run(&res, g, &r, err, sizeof err)) fail_msg("%s", err);

    /* The node at position 3: step 4, as users count. */
    int64_t was = res.s[3].node;
    res.s[3].node = 99;
    assert_int_equal(replay_check_run(&res, g, &r, err, sizeof err), -1);
    char want[200];
    snprintf(want, sizeof want,
             "step 4: the replay ran node 99, the priority schedule pops node %lld "
             "(made with another policy or graph?)",
             (long long)was);
    assert_string_equal(err, want);
    res.s[3].node = was;

    /* The predicted bytes (the same ids in another version of the graph). */
    res.s[1].predicted += 1;
    assert_int_equal(replay_check_run(&res, g, &r, err, sizeof err), -1);
    assert_non_null(strstr(err, "step 2 (node "));
    assert_non_null(strstr(err, "the replay predicted"));
    res.s[1].predicted -= 1;

    /* A replay that stopped early is checked as far as it went. */
    res.n = 2;
    if (replay_check_run(&res, g, &r, err, sizeof err)) fail_msg("%s", err);
    res.s[3].node = 99; /* past n: not looked at */
    if (replay_check_run(&res, g, &r, err, sizeof err)) fail_msg("%s", err);

    /* The number of steps. */
    res.total = 4;
    res.n = 4;
    assert_int_equal(replay_check_run(&res, g, &r, err, sizeof err), -1);
    assert_string_equal(err, "the replay has 4 steps, the schedule 5");

    /* The other policy's schedule differs at its first different pop. */
    run f;
    assert_int_equal(policy_run(g, policy_find("fifo"), NULL, &f, err, sizeof err), 0);
    res.total = res.n = 5;
    res.s[3].node = was;
    uint32_t div = policy_diverge(&r, &f);
    if (div < 5) {
        assert_int_equal(replay_check_run(&res, g, &f, err, sizeof err), -1);
        snprintf(want, sizeof want, "step %u: the replay ran node ", div + 1);
        assert_non_null(strstr(err, want));
    }
    policy_run_free(&f);
    replay_result_free(&res);
    policy_run_free(&r);
    graph_free(g);
    diag_free(&d);
}

/* tests/data/fuzz/replay-excess-beyond-2-53.json: measured 2^53-1 where
 * 1-2^53 was predicted. It loads, and saved again (max_excess 2^54-2) it
 * loads back: the loader took max_excess for a step's figure and refused
 * what the writer wrote (found by tests/fuzz). */
static void round_trip_extreme_excess(void **state)
{
    (void)state;
    replay_result a, b;
    char err[512];
    if (replay_load_json(MEMTRIS_SOURCE_DIR "/tests/data/fuzz/replay-excess-beyond-2-53.json", &a,
                         err, sizeof err))
        fail_msg("%s", err);
    assert_true(a.max_excess == 2 * (int64_t)9007199254740991);
    tdir t;
    tdir_make(&t);
    save(t.path, &a);
    if (replay_load_json(t.path, &b, err, sizeof err)) fail_msg("saved again: %s", err);
    assert_same_result(&a, &b);
    replay_result_free(&a);
    replay_result_free(&b);
    tdir_remove(&t);
}

/* s with its first "from" replaced by "to" (a test's own text: "from" must be there). */
static char *replaced(const char *s, const char *from, const char *to)
{
    const char *at = strstr(s, from);
    if (!at) fail_msg("'%s' is not in the text", from);
    tu_str b = {0};
    tu_printf(&b, "%.*s%s%s", (int)(at - s), s, to, at + strlen(from));
    return b.s;
}

/* A budget plan's replay (tools/runplan.py): its events and the start load, survive a save,
 * and each malformed piece is refused with its place. */
static void budget_plan_replays(void **state)
{
    (void)state;
    static const char plan[] =
        "\"total_steps\": 2, \"start\": {\"measured\": 12, \"live\": 12}, \"budget_plan\": "
        "{\"budget\": 500, "
        "\"bandwidth\": 1000000, \"solver\": \"best\", \"events\": [[\"run\", 4], "
        "[\"free\", 7]]}}\n";
    tdir t;
    tdir_make(&t);
    char *text = variant("\"total_steps\": 2}\n", plan);
    write_text(t.path, text);
    replay_result a, b;
    char err[512];
    if (replay_load_json(t.path, &a, err, sizeof err)) fail_msg("%s", err);
    assert_int_equal(a.plan_n, 2);
    assert_int_equal(a.plan_op[0], BUDGET_RUN);
    assert_int_equal(a.plan_x[0], 4);
    assert_int_equal(a.plan_op[1], BUDGET_FREE);
    assert_int_equal(a.plan_x[1], 7);
    assert_true(a.plan_budget == 500 && a.plan_start == 12 && a.plan_bandwidth == 1e6);
    save(t.path, &a);
    if (replay_load_json(t.path, &b, err, sizeof err)) fail_msg("saved again: %s", err);
    assert_same_result(&a, &b);
    assert_int_equal(b.plan_n, 2);
    assert_true(b.plan_op[1] == BUDGET_FREE && b.plan_x[1] == 7 && b.plan_budget == 500 &&
                b.plan_start == 12 && b.plan_bandwidth == 1e6);
    replay_result_free(&a);
    replay_result_free(&b);
    free(text);
    static const struct {
        const char *from, *to, *want;
    } cases[] = {
        {"[\"free\", 7]]", "[\"free\", 7], [\"run\", 1]]", "budget_plan: 3 events for 2 steps"},
        {"[\"free\", 7]", "[\"drop\", 7]", "budget_plan: events[1] is not [\"run\", Id]"},
        {"[\"free\", 7]", "[\"free\", -7]", "budget_plan: events[1] is not"},
        {"[\"free\", 7]", "[\"free\", 7, 8]", "budget_plan: events[1] is not"},
        {"[\"run\", 4]", "\"run\"", "budget_plan: events[0] is not"},
        {"\"budget\": 500, ", "", "budget_plan: no \"budget\""},
        {"\"budget\": 500", "\"budget\": -500", "budget_plan: \"budget\" is negative"},
        {"\"bandwidth\": 1000000", "\"bandwidth\": 0", "\"bandwidth\" is not above 0"},
        {"\"events\": [", "\"events\": 5, \"x\": [",
         "budget_plan: \"events\" is a number, not an array"},
        {"{\"measured\": 12, \"live\": 12}", "[]", "\"start\" is an array, not an object"},
        {"\"measured\": 12", "\"measured\": 1.5", "start: \"measured\" is not an integer"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *with = variant("\"total_steps\": 2}\n", plan),
             *bad = replaced(with, cases[i].from, cases[i].to);
        expect_refused(&t, bad, cases[i].want);
        free(with);
        free(bad);
    }
    text = variant("\"total_steps\": 2}\n", "\"total_steps\": 2, \"budget_plan\": 3}\n");
    expect_refused(&t, text, "\"budget_plan\" is a number, not an object");
    free(text);
    tdir_remove(&t);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(round_trip_every_field),
        cmocka_unit_test(round_trip_partial_and_empty),
        cmocka_unit_test(round_trip_unknown_residual),
        cmocka_unit_test(round_trip_host_replay),
        cmocka_unit_test(malformed_files),
        cmocka_unit_test(check_run_names_the_difference),
        cmocka_unit_test(round_trip_extreme_excess),
        cmocka_unit_test(budget_plan_replays),
    };
    if (argc > 1) cmocka_set_test_filter(argv[1]);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
