/* replay_io.c: saved replays: the JSON of `memtris replay --format json`
 * (written through util's jw, loaded back with every field checked), and the
 * check that a replay belongs to a schedule. Exports replay_write_json,
 * replay_load_json, replay_check_run. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "replay.h"
#include "sched/budget/budget.h"
#include "util/fileio.h"
#include "util/jscan.h"
#include "util/json.h"
#include "util/jw.h"
#include "util/textpos.h"

/* The largest integer a JSON number (a double) carries exactly. */
#define IO_INT_MAX ((int64_t)9007199254740991)

/* ------------------------------------------------------------ writing */

/* A double as JSON: %.6g, and 0 for what JSON cannot say (NaN, infinities). */
static void put_double(jw *w, const char *key, double v) { jw_kg(w, key, isfinite(v) ? v : 0, 6); }

/* A budget plan's replay: "start" and "budget_plan" as tools/runplan.py writes them. */
static void write_plan(jw *w, const replay_result *res)
{
    jw_break(w, "\n ");
    jw_key(w, "start");
    jw_object(w);
    jw_kint(w, "measured", res->plan_start);
    jw_object_end(w);
    jw_key(w, "budget_plan");
    jw_object(w);
    jw_kint(w, "budget", res->plan_budget);
    jw_kg(w, "bandwidth", res->plan_bandwidth, 17);
    jw_key(w, "events");
    jw_array(w);
    for (size_t k = 0; k < res->plan_n; k++) {
        jw_array(w);
        jw_string(w, budget_op_word(res->plan_op[k]));
        jw_int(w, res->plan_x[k]);
        jw_array_end(w);
    }
    jw_array_end(w);
    jw_object_end(w);
}

int replay_write_json(FILE *f, const replay_result *res)
{
    jw w;
    jw_file(&w, f);
    jw_object(&w);
    jw_kstring(&w, "backend", res->backend);
    jw_kstring(&w, "mode", res->mode);
    jw_kstring(&w, "policy", res->policy);
    if (res->placer[0]) jw_kstring(&w, "placer", res->placer);
    jw_kstring(&w, "device", res->info.device);
    jw_kint(&w, "device_total", res->info.total);
    jw_kstring(&w, "versions", res->info.versions);
    jw_break(&w, "\n ");
    jw_key(&w, "steps");
    jw_array(&w);
    for (uint32_t i = 0; i < res->n; i++) {
        const replay_sample *x = &res->s[i];
        jw_break(&w, "\n  ");
        jw_object(&w);
        jw_kuint(&w, "step", x->step + 1);
        jw_kint(&w, "node", x->node);
        jw_kint(&w, "predicted", x->predicted);
        jw_kint(&w, "measured", x->measured);
        put_double(&w, "ms", x->ms);
        jw_object_end(&w);
    }
    if (res->n) jw_break(&w, "\n ");
    jw_array_end(&w);
    jw_break(&w, "\n ");
    jw_kint(&w, "predicted_peak", res->predicted_peak);
    jw_kuint(&w, "predicted_peak_step", replay_step_shown(res, res->predicted_peak_step));
    jw_kint(&w, "measured_peak", res->measured_peak);
    jw_kuint(&w, "measured_peak_step", replay_step_shown(res, res->measured_peak_step));
    jw_kint(&w, "max_excess", res->max_excess);
    jw_kuint(&w, "max_excess_step", replay_step_shown(res, res->max_excess_step));
    jw_break(&w, "\n ");
    jw_kint(&w, "baseline", res->baseline);
    /* null: unknown (the last reading failed), never a 0 that was not read */
    jw_key(&w, "residual");
    if (res->residual_known) jw_int(&w, res->residual);
    else jw_null(&w);
    jw_kint(&w, "held", res->held);
    put_double(&w, "seconds", res->seconds);
    jw_kbool(&w, "complete", res->n == res->total);
    jw_kuint(&w, "total_steps", res->total);
    if (res->plan_n) write_plan(&w, res);
    jw_object_end(&w);
    int rc = jw_end(&w);
    return rc || ferror(f) ? -1 : 0;
}

/* ------------------------------------------------------------ loading */

typedef struct loader {
    const char *src; /* the file's name in messages */
    char *err;
    size_t errcap;
} loader;

__attribute__((format(printf, 2, 3))) static int bad(loader *L, const char *fmt, ...)
{
    char msg[384];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(L->err, L->errcap, "%s: %s", L->src, msg);
    return -1;
}

#define type_word json_type_word

/* The field key of obj, which must be there when required. *v is NULL when
 * it is absent and not required. where: "" or "steps[12]: ". */
static int field(loader *L, const cJSON *obj, const char *where, const char *key, int required,
                 const cJSON **v)
{
    *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!*v && required) return bad(L, "%sno \"%s\"", where, key);
    return 0;
}

/* An integer field in [lo, hi]. */
static int get_int(loader *L, const cJSON *obj, const char *where, const char *key, int required,
                   int64_t lo, int64_t hi, int64_t *out)
{
    const cJSON *v;
    if (field(L, obj, where, key, required, &v)) return -1;
    if (!v) return 0;
    if (!cJSON_IsNumber(v))
        return bad(L, "%s\"%s\" is %s, not an integer", where, key, type_word(v));
    double d = v->valuedouble;
    if (!isfinite(d) || d != floor(d)) return bad(L, "%s\"%s\" is not an integer", where, key);
    if (d < -(double)IO_INT_MAX || d > (double)IO_INT_MAX)
        return bad(L, "%s\"%s\" is beyond 2^53-1, where JSON numbers stop being exact", where, key);
    int64_t x = (int64_t)d;
    if (x < lo || x > hi) {
        if (lo == 0 && hi == IO_INT_MAX) return bad(L, "%s\"%s\" is negative", where, key);
        return bad(L, "%s\"%s\" is %" PRId64 ", outside %" PRId64 "..%" PRId64, where, key, x, lo,
                   hi);
    }
    *out = x;
    return 0;
}

/* A summary figure, recomputed from the steps on loading: only its form is
 * checked. Its range is twice a step's: max_excess, measured - predicted,
 * reaches 2^54-2, and a saved replay must load back (found by tests/fuzz). */
static int get_figure(loader *L, const cJSON *obj, const char *key)
{
    const cJSON *v;
    if (field(L, obj, "", key, 0, &v) || !v) return 0;
    if (!cJSON_IsNumber(v)) return bad(L, "\"%s\" is %s, not an integer", key, type_word(v));
    double d = v->valuedouble;
    if (!isfinite(d) || d != floor(d) || fabs(d) > 2 * (double)IO_INT_MAX)
        return bad(L, "\"%s\" is not an integer of at most 2^54 in size", key);
    return 0;
}

/* A non-negative finite number. */
static int get_time(loader *L, const cJSON *obj, const char *where, const char *key, int required,
                    double *out)
{
    const cJSON *v;
    if (field(L, obj, where, key, required, &v)) return -1;
    if (!v) return 0;
    if (!cJSON_IsNumber(v)) return bad(L, "%s\"%s\" is %s, not a number", where, key, type_word(v));
    if (!isfinite(v->valuedouble) || v->valuedouble < 0)
        return bad(L, "%s\"%s\" is not a time (a non-negative number)", where, key);
    *out = v->valuedouble;
    return 0;
}

/* A string field copied into out[cap]. */
static int get_string(loader *L, const cJSON *obj, const char *key, int required, char *out,
                      size_t cap)
{
    const cJSON *v;
    if (field(L, obj, "", key, required, &v)) return -1;
    if (!v) return 0;
    if (!cJSON_IsString(v)) return bad(L, "\"%s\" is %s, not a string", key, type_word(v));
    if (strlen(v->valuestring) >= cap)
        return bad(L, "\"%s\" is longer than %zu bytes", key, cap - 1);
    memcpy(out, v->valuestring, strlen(v->valuestring) + 1);
    return 0;
}

/* "budget_plan" (optional): {"budget", "bandwidth" (optional), "events": [[WORD, X], ...]},
 * one event a step, and "start": {"measured"}. */
static int load_plan(loader *L, const cJSON *root, replay_result *res)
{
    const cJSON *bp = cJSON_GetObjectItemCaseSensitive(root, "budget_plan"), *ev, *st;
    if (!bp || cJSON_IsNull(bp)) return 0;
    if (!cJSON_IsObject(bp)) return bad(L, "\"budget_plan\" is %s, not an object", type_word(bp));
    const char *w = "budget_plan: ";
    res->plan_bandwidth = BUDGET_BANDWIDTH;
    if (get_int(L, bp, w, "budget", 1, 0, IO_INT_MAX, &res->plan_budget) ||
        get_time(L, bp, w, "bandwidth", 0, &res->plan_bandwidth) ||
        field(L, bp, w, "events", 1, &ev))
        return -1;
    if (!(res->plan_bandwidth > 0)) return bad(L, "budget_plan: \"bandwidth\" is not above 0");
    if (!cJSON_IsArray(ev))
        return bad(L, "budget_plan: \"events\" is %s, not an array", type_word(ev));
    size_t n = (size_t)cJSON_GetArraySize(ev);
    if (n != res->n)
        return bad(L, "budget_plan: %zu events for %" PRIu32 " steps (one step an event)", n,
                   res->n);
    res->plan_op = malloc(n + 1);
    res->plan_x = malloc((n + 1) * sizeof *res->plan_x);
    if (!res->plan_op || !res->plan_x) return bad(L, "out of memory for %zu events", n);
    size_t k = 0;
    for (const cJSON *e = ev->child; e; e = e->next, k++) {
        const cJSON *op = cJSON_GetArrayItem(e, 0), *x = cJSON_GetArrayItem(e, 1);
        int found = -1;
        for (int o = BUDGET_RUN; op && cJSON_IsString(op) && o <= BUDGET_HOST; o++)
            if (!strcmp(op->valuestring, budget_op_word((uint32_t)o))) found = o;
        if (!cJSON_IsArray(e) || cJSON_GetArraySize(e) != 2 || found < 0 || !cJSON_IsNumber(x) ||
            x->valuedouble != floor(x->valuedouble) || x->valuedouble < 0 ||
            x->valuedouble > (double)IO_INT_MAX)
            return bad(L,
                       "budget_plan: events[%zu] is not [\"run\", Id] or [\"free\" | \"offload\" "
                       "| \"fetch\" | \"host\", BufId]",
                       k);
        res->plan_op[k] = (uint8_t)found;
        res->plan_x[k] = (int64_t)x->valuedouble;
    }
    res->plan_n = n;
    st = cJSON_GetObjectItemCaseSensitive(root, "start");
    if (st && !cJSON_IsObject(st)) return bad(L, "\"start\" is %s, not an object", type_word(st));
    return st ? get_int(L, st, "start: ", "measured", 1, -IO_INT_MAX, IO_INT_MAX, &res->plan_start)
              : 0;
}

static int load_tree(loader *L, const cJSON *root, replay_result *res)
{
    if (!cJSON_IsObject(root))
        return bad(L, "not a memtris replay (the JSON is %s, not an object)", type_word(root));
    const cJSON *steps = cJSON_GetObjectItemCaseSensitive(root, "steps");
    if (!cJSON_IsArray(steps)) return bad(L, "not a memtris replay (no \"steps\" array)");

    if (get_string(L, root, "backend", 1, res->backend, sizeof res->backend) ||
        get_string(L, root, "mode", 1, res->mode, sizeof res->mode) ||
        get_string(L, root, "policy", 1, res->policy, sizeof res->policy) ||
        get_string(L, root, "placer", 0, res->placer, sizeof res->placer) ||
        get_string(L, root, "device", 1, res->info.device, sizeof res->info.device) ||
        get_string(L, root, "versions", 1, res->info.versions, sizeof res->info.versions))
        return -1;
    if (!res->backend[0]) return bad(L, "\"backend\" is empty");
    if (replay_mode_find(res->mode) < 0) {
        char known[64] = "";
        for (int m = 0; m < REPLAY_NMODES; m++)
            snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s", m ? ", " : "",
                     replay_mode_name(m));
        return bad(L, "\"mode\" is \"%s\", not one of %s", res->mode, known);
    }

    int64_t total, n64 = cJSON_GetArraySize(steps);
    if (get_int(L, root, "", "device_total", 1, 0, IO_INT_MAX, &res->info.total) ||
        get_int(L, root, "", "total_steps", 1, 0, UINT32_MAX - 1, &total) ||
        get_int(L, root, "", "baseline", 1, -IO_INT_MAX, IO_INT_MAX, &res->baseline) ||
        get_int(L, root, "", "held", 1, 0, IO_INT_MAX, &res->held))
        return -1;
    /* The residual: an integer, or null when the replay could not read it. */
    const cJSON *residual;
    if (field(L, root, "", "residual", 1, &residual)) return -1;
    if (!cJSON_IsNull(residual)) {
        if (!cJSON_IsNumber(residual))
            return bad(L, "\"residual\" is %s, not an integer or null", type_word(residual));
        if (get_int(L, root, "", "residual", 1, -IO_INT_MAX, IO_INT_MAX, &res->residual)) return -1;
        res->residual_known = 1;
    }
    if (n64 > total)
        return bad(L, "\"steps\" has %" PRId64 " entries, more than \"total_steps\" (%" PRId64 ")",
                   n64, total);
    const cJSON *complete;
    if (field(L, root, "", "complete", 1, &complete)) return -1;
    if (!cJSON_IsBool(complete))
        return bad(L, "\"complete\" is %s, not true or false", type_word(complete));
    if (cJSON_IsTrue(complete) != (n64 == total))
        return bad(L, "\"complete\" is %s but \"steps\" has %" PRId64 " of the %" PRId64 " steps",
                   cJSON_IsTrue(complete) ? "true" : "false", n64, total);

    /* The summary is recomputed from the steps; here it only has to be
     * well-formed. */
    static const char *const summary[] = {"predicted_peak", "measured_peak", "max_excess"};
    static const char *const summary_steps[] = {"predicted_peak_step", "measured_peak_step",
                                                "max_excess_step"};
    int64_t ignored;
    double dignored;
    for (size_t i = 0; i < 3; i++)
        if (get_figure(L, root, summary[i]) ||
            get_int(L, root, "", summary_steps[i], 0, 0, total, &ignored))
            return -1;
    if (get_time(L, root, "", "seconds", 0, &dignored)) return -1;

    res->total = (uint32_t)total;
    res->s = calloc((size_t)n64 + 1, sizeof *res->s); /* the steps present, not total_steps */
    if (!res->s) return bad(L, "out of memory for %" PRId64 " steps", n64);
    uint32_t i = 0;
    int64_t base = 1;
    for (const cJSON *x = steps->child; x; x = x->next, i++) {
        char where[48];
        snprintf(where, sizeof where, "steps[%u]: ", i);
        if (!cJSON_IsObject(x)) return bad(L, "steps[%u] is %s, not an object", i, type_word(x));
        replay_sample *s = &res->s[i];
        int64_t step;
        if (get_int(L, x, where, "step", 1, 0, IO_INT_MAX, &step) ||
            get_int(L, x, where, "node", 1, 0, IO_INT_MAX, &s->node) ||
            get_int(L, x, where, "predicted", 1, -IO_INT_MAX, IO_INT_MAX, &s->predicted) ||
            get_int(L, x, where, "measured", 1, -IO_INT_MAX, IO_INT_MAX, &s->measured) ||
            get_time(L, x, where, "ms", 1, &s->ms))
            return -1;
        /* Steps count from 1, as everywhere in memtris; files written
         * before 2026-12-03 counted them from 0, and are read as well. */
        if (i == 0 && step == 0) base = 0;
        if (step != (int64_t)i + base)
            return bad(L,
                       "steps[%u]: \"step\" is %" PRId64 ", expected %" PRId64
                       " (steps count from %" PRId64 " and are in order)",
                       i, step, (int64_t)i + base, base);
        s->step = i;
    }
    res->n = i;
    return load_plan(L, root, res);
}

int replay_load_json(const char *path, replay_result *res, char *err, size_t errcap)
{
    loader L = {!strcmp(path, "-") ? "<stdin>" : path, err, errcap};
    memset(res, 0, sizeof *res);
    fileio_text t;
    char why[160];
    if (fileio_read(path, '{', &t, why, sizeof why) != FILEIO_OK) return bad(&L, "%s", why);
    const char *buf = t.text, *e = buf + t.len, *p = buf;
    if (t.len >= 3 && !memcmp(p, "\xEF\xBB\xBF", 3)) p += 3; /* a UTF-8 byte order mark */
    while (p < e && strchr(" \t\r\n", *p) && *p) p++;
    if (p == e) {
        fileio_release(&t);
        return bad(&L, "is empty, not a memtris replay");
    }
    /* cJSON accepts some text that is not JSON: the strict check first,
     * with the place said as for graphs (textpos). */
    textpos tp;
    textpos_init(&tp, buf, t.len);
    const char *at, *what;
    int scanned = jscan_value(p, e, &at, &what);
    if (scanned) { /* a syntax error, or a \u0000 in a string (JSCAN_NUL: JSON, but cut there) */
        jscan_report r;
        jscan_report_at(&tp, at, what, &r);
        fileio_release(&t);
        return bad(&L, "line %lu, column %lu: %s%s", r.line, r.col,
                   scanned == JSCAN_NUL ? "" : "invalid JSON: ", r.msg);
    }
    const char *after = at;
    while (after < e && strchr(" \t\r\n", *after) && *after) after++;
    if (after < e) {
        unsigned long line, col;
        textpos_at(&tp, after, &line, &col);
        fileio_release(&t);
        return bad(&L, "line %lu, column %lu: more text after the JSON value", line, col);
    }
    cJSON *root = cJSON_ParseWithLength(p, (size_t)(e - p));
    fileio_release(&t);
    if (!root) return bad(&L, "line 1, column 1: cJSON cannot parse this JSON (out of memory?)");
    int rc = load_tree(&L, root, res);
    cJSON_Delete(root);
    if (rc) {
        replay_result_free(res);
        return -1;
    }
    /* replay_summarize leaves the loaded info, baseline, residual and held. */
    replay_summarize(res);
    return 0;
}

/* ------------------------------------------------------------ checking */

int replay_check_run(const replay_result *res, const graph *g, const run *r, char *err,
                     size_t errcap)
{
    if (res->total != r->n) {
        snprintf(err, errcap, "the replay has %" PRIu32 " steps, the schedule %" PRIu32, res->total,
                 r->n);
        return -1;
    }
    const char *pol = res->policy[0] ? res->policy : NULL;
    for (uint32_t s = 0; s < res->n && s < r->n; s++) {
        const replay_sample *x = &res->s[s];
        int64_t id = g->id[r->order[s]];
        if (x->node != id) {
            snprintf(err, errcap,
                     "step %" PRIu32 ": the replay ran node %" PRId64
                     ", the %s%sschedule pops node %" PRId64
                     " (made with another policy or graph?)",
                     s + 1, x->node, pol ? pol : "", pol ? " " : "", id);
            return -1;
        }
        if (x->predicted != r->memory[s]) {
            snprintf(err, errcap,
                     "step %" PRIu32 " (node %" PRId64 "): the replay predicted %" PRId64
                     " live bytes, the schedule has %" PRId64
                     " (made with another version of the graph?)",
                     s + 1, id, x->predicted, r->memory[s]);
            return -1;
        }
    }
    return 0;
}
