/* replay_io.c: saved replays: the JSON of `memtris replay --format json`
 * (writing, and loading it back with every field checked), and the check
 * that a replay belongs to a schedule. Exports replay_write_json,
 * replay_load_json, replay_check_run. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "replay.h"

/* The largest integer a JSON number (a double) carries exactly. */
#define IO_INT_MAX ((int64_t)9007199254740991)

/* ------------------------------------------------------------ writing */

/* A string as a JSON string literal; control characters as \u00XX. */
static void put_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') fprintf(f, "\\%c", *p);
        else if (*p < 0x20) fprintf(f, "\\u%04x", *p);
        else fputc(*p, f);
    }
    fputc('"', f);
}

/* A double as JSON: %.6g, and 0 for what JSON cannot say (NaN, infinities). */
static void put_double(FILE *f, double v)
{
    if (!isfinite(v)) v = 0;
    fprintf(f, "%.6g", v);
}

int replay_write_json(FILE *f, const replay_result *res)
{
    fputs("{\"backend\": ", f);
    put_string(f, res->backend);
    fputs(", \"mode\": ", f);
    put_string(f, res->mode);
    fputs(", \"policy\": ", f);
    put_string(f, res->policy);
    if (res->placer[0]) {
        fputs(", \"placer\": ", f);
        put_string(f, res->placer);
    }
    fputs(", \"device\": ", f);
    put_string(f, res->info.device);
    fprintf(f, ", \"device_total\": %" PRId64 ", \"versions\": ", res->info.total);
    put_string(f, res->info.versions);
    fputs(",\n \"steps\": [", f);
    for (uint32_t i = 0; i < res->n; i++) {
        const replay_sample *x = &res->s[i];
        fprintf(f, "%s\n  {\"step\": %" PRIu32 ", \"node\": %" PRId64 ", \"predicted\": %" PRId64
                   ", \"measured\": %" PRId64 ", \"ms\": ",
                i ? "," : "", x->step, x->node, x->predicted, x->measured);
        put_double(f, x->ms);
        fputc('}', f);
    }
    fprintf(f, "%s],\n \"predicted_peak\": %" PRId64 ", \"predicted_peak_step\": %" PRIu32
               ", \"measured_peak\": %" PRId64 ", \"measured_peak_step\": %" PRIu32 ", \"max_excess\": %" PRId64
               ", \"max_excess_step\": %" PRIu32 ",\n \"baseline\": %" PRId64 ", \"residual\": ",
            res->n ? "\n " : "", res->predicted_peak, res->predicted_peak_step, res->measured_peak,
            res->measured_peak_step, res->max_excess, res->max_excess_step, res->baseline);
    /* null: unknown (the last reading failed), never a 0 that was not read */
    if (res->residual_known) fprintf(f, "%" PRId64, res->residual);
    else fputs("null", f);
    fprintf(f, ", \"held\": %" PRId64 ", \"seconds\": ", res->held);
    put_double(f, res->seconds);
    fprintf(f, ", \"complete\": %s, \"total_steps\": %" PRIu32 "}\n", res->n == res->total ? "true" : "false",
            res->total);
    return ferror(f) ? -1 : 0;
}

/* ------------------------------------------------------------ loading */

typedef struct loader {
    const char *src;         /* the file's name in messages */
    char *err;
    size_t errcap;
} loader;

__attribute__((format(printf, 2, 3)))
static int bad(loader *L, const char *fmt, ...)
{
    char msg[384];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(L->err, L->errcap, "%s: %s", L->src, msg);
    return -1;
}

/* Reads a whole file ("-": standard input) into a malloc'd buffer. */
static char *read_all(loader *L, const char *path, size_t *len)
{
    int is_stdin = !strcmp(path, "-");
    FILE *f = is_stdin ? stdin : fopen(path, "rb");
    if (!f) {
        bad(L, "cannot open it: %s", strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        if (n == cap) {
            char *q = cap < SIZE_MAX / 2 ? realloc(buf, cap * 2) : NULL;
            if (!q) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = q;
            cap *= 2;
        }
        size_t k = fread(buf + n, 1, cap - n, f);
        n += k;
        if (k == 0) break;
    }
    int rerr = ferror(f), e = errno;
    if (!is_stdin) fclose(f);
    if (!buf) {
        bad(L, "out of memory reading it");
        return NULL;
    }
    if (rerr) {
        free(buf);
        bad(L, "cannot read it: %s", strerror(e));
        return NULL;
    }
    *len = n;
    return buf;
}

/* "line 3, column 19" of position p in buf. */
static void position(const char *buf, const char *p, char *out, size_t cap)
{
    unsigned long line = 1, col = 1;
    for (const char *q = buf; q < p; q++) {
        if (*q == '\n') { line++; col = 1; }
        else col++;
    }
    snprintf(out, cap, "line %lu, column %lu", line, col);
}

static const char *type_word(const cJSON *v)
{
    if (cJSON_IsString(v)) return "a string";
    if (cJSON_IsNumber(v)) return "a number";
    if (cJSON_IsBool(v)) return "a boolean";
    if (cJSON_IsNull(v)) return "null";
    if (cJSON_IsArray(v)) return "an array";
    if (cJSON_IsObject(v)) return "an object";
    return "invalid";
}

/* The field key of obj, which must be there when required. *v is NULL when
 * it is absent and not required. where: "" or "steps[12]: ". */
static int field(loader *L, const cJSON *obj, const char *where, const char *key, int required, const cJSON **v)
{
    *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!*v && required) return bad(L, "%sno \"%s\"", where, key);
    return 0;
}

/* An integer field in [lo, hi]. */
static int get_int(loader *L, const cJSON *obj, const char *where, const char *key, int required, int64_t lo,
                   int64_t hi, int64_t *out)
{
    const cJSON *v;
    if (field(L, obj, where, key, required, &v)) return -1;
    if (!v) return 0;
    if (!cJSON_IsNumber(v)) return bad(L, "%s\"%s\" is %s, not an integer", where, key, type_word(v));
    double d = v->valuedouble;
    if (!isfinite(d) || d != floor(d)) return bad(L, "%s\"%s\" is not an integer", where, key);
    if (d < -(double)IO_INT_MAX || d > (double)IO_INT_MAX)
        return bad(L, "%s\"%s\" is beyond 2^53-1, where JSON numbers stop being exact", where, key);
    int64_t x = (int64_t)d;
    if (x < lo || x > hi) {
        if (lo == 0 && hi == IO_INT_MAX) return bad(L, "%s\"%s\" is negative", where, key);
        return bad(L, "%s\"%s\" is %" PRId64 ", outside %" PRId64 "..%" PRId64, where, key, x, lo, hi);
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
static int get_time(loader *L, const cJSON *obj, const char *where, const char *key, int required, double *out)
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
static int get_string(loader *L, const cJSON *obj, const char *key, int required, char *out, size_t cap)
{
    const cJSON *v;
    if (field(L, obj, "", key, required, &v)) return -1;
    if (!v) return 0;
    if (!cJSON_IsString(v)) return bad(L, "\"%s\" is %s, not a string", key, type_word(v));
    if (strlen(v->valuestring) >= cap) return bad(L, "\"%s\" is longer than %zu bytes", key, cap - 1);
    memcpy(out, v->valuestring, strlen(v->valuestring) + 1);
    return 0;
}

static int load_tree(loader *L, const cJSON *root, replay_result *res)
{
    if (!cJSON_IsObject(root)) return bad(L, "not a memtris replay (the JSON is %s, not an object)", type_word(root));
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
            snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s", m ? ", " : "", replay_mode_name(m));
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
        return bad(L, "\"steps\" has %" PRId64 " entries, more than \"total_steps\" (%" PRId64 ")", n64, total);
    const cJSON *complete;
    if (field(L, root, "", "complete", 1, &complete)) return -1;
    if (!cJSON_IsBool(complete)) return bad(L, "\"complete\" is %s, not true or false", type_word(complete));
    if (cJSON_IsTrue(complete) != (n64 == total))
        return bad(L, "\"complete\" is %s but \"steps\" has %" PRId64 " of the %" PRId64 " steps",
                   cJSON_IsTrue(complete) ? "true" : "false", n64, total);

    /* The summary is recomputed from the steps; here it only has to be
     * well-formed. */
    static const char *const summary[] = {"predicted_peak", "measured_peak", "max_excess"};
    static const char *const summary_steps[] = {"predicted_peak_step", "measured_peak_step", "max_excess_step"};
    int64_t ignored;
    double dignored;
    for (size_t i = 0; i < 3; i++)
        if (get_figure(L, root, summary[i]) ||
            get_int(L, root, "", summary_steps[i], 0, 0, total ? total - 1 : 0, &ignored))
            return -1;
    if (get_time(L, root, "", "seconds", 0, &dignored)) return -1;

    res->total = (uint32_t)total;
    res->s = calloc((size_t)n64 + 1, sizeof *res->s);   /* the steps present, not total_steps */
    if (!res->s) return bad(L, "out of memory for %" PRId64 " steps", n64);
    uint32_t i = 0;
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
        if (step != i)
            return bad(L, "steps[%u]: \"step\" is %" PRId64 ", expected %u (steps are 0-based and in order)", i,
                       step, i);
        s->step = i;
    }
    res->n = i;
    return 0;
}

int replay_load_json(const char *path, replay_result *res, char *err, size_t errcap)
{
    loader L = {!strcmp(path, "-") ? "<stdin>" : path, err, errcap};
    memset(res, 0, sizeof *res);
    size_t len = 0;
    char *buf = read_all(&L, path, &len);
    if (!buf) return -1;
    const char *p = buf, *e = buf + len;
    while (p < e && (*p && strchr(" \t\r\n", *p))) p++;
    if (p == e) {
        free(buf);
        return bad(&L, "is empty, not a memtris replay");
    }
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(buf, len, &end, 0);
    if (!root) {
        const char *at = end && end >= buf && end <= e ? end : cJSON_GetErrorPtr();
        char pos[64];
        position(buf, at && at >= buf && at <= e ? at : e, pos, sizeof pos);
        free(buf);
        return bad(&L, "%s: invalid JSON", pos);
    }
    while (end < e && *end && strchr(" \t\r\n", *end)) end++;
    if (end < e) {
        char pos[64];
        position(buf, end, pos, sizeof pos);
        cJSON_Delete(root);
        free(buf);
        return bad(&L, "%s: more text after the JSON value", pos);
    }
    free(buf);
    int rc = load_tree(&L, root, res);
    cJSON_Delete(root);
    if (rc) {
        free(res->s);
        memset(res, 0, sizeof *res);
        return -1;
    }
    /* replay_summarize leaves the loaded info, baseline, residual and held. */
    replay_summarize(res);
    return 0;
}

/* ------------------------------------------------------------ checking */

int replay_check_run(const replay_result *res, const graph *g, const run *r, char *err, size_t errcap)
{
    if (res->total != r->n) {
        snprintf(err, errcap, "the replay has %" PRIu32 " steps, the schedule %" PRIu32, res->total, r->n);
        return -1;
    }
    const char *pol = res->policy[0] ? res->policy : NULL;
    for (uint32_t s = 0; s < res->n && s < r->n; s++) {
        const replay_sample *x = &res->s[s];
        int64_t id = g->id[r->order[s]];
        if (x->node != id) {
            snprintf(err, errcap, "step %" PRIu32 ": the replay ran node %" PRId64 ", the %s%sschedule pops node %" PRId64
                     " (made with another policy or graph?)", s, x->node, pol ? pol : "", pol ? " " : "", id);
            return -1;
        }
        if (x->predicted != r->memory[s]) {
            snprintf(err, errcap, "step %" PRIu32 " (node %" PRId64 "): the replay predicted %" PRId64
                     " live bytes, the schedule has %" PRId64 " (made with another version of the graph?)",
                     s, id, x->predicted, r->memory[s]);
            return -1;
        }
    }
    return 0;
}
