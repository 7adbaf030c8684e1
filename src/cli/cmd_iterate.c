/* cmd_iterate.c: "memtris iterate": runs a policy's schedule for many
 * iterations with every buffer scaled by a seeded factor (dynamic shapes) and
 * compares the static, size-class and elastic pools over them; with
 * --backend, each pool's allocations are made for real and measured. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "cli_cmds.h"
#include "cli_job.h"
#include "cli_opts.h"
#include "cli_pool.h"
#include "cli_progress.h"
#include "cli_proof.h"
#include "defaults.h"
#include "gpu/replay_iter.h"
#include "util/clock.h"
#include "util/jw.h"
#include "util/units.h"
#include "util/utf8.h"

static void print_help(void)
{
    printf("Usage: memtris iterate FILE [--policy NAME] [--iterations N] [--scale MIN:MAX]\n"
           "                            [--seed S] [--backend host|cuda] [--all]\n"
           "                            [--format text|json] [-o OUT] [--alpha A]\n"
           "                            [--queue-order Q] [--max-seconds S]\n"
           "Run the schedule (the policy's order, made once on the graph as loaded) for N\n"
           "iterations, each with every buffer scaled by a factor f drawn from a seeded\n"
           "PRNG (a batch or sequence length that varies): a buffer of S bytes takes\n"
           "ceil(S * f). Each iteration needs its live peak; compare three pools:\n"
           "  static       the expected maximum (the live peak at MAX), reserved once\n"
           "  size-class   2^n-byte blocks, freed ones reused, never given back\n"
           "  elastic      starts at 50%% of the expected maximum, grows x1.5 (x1.5^k)\n"
           "               when an iteration needs more, shrinks /1.5 after 10 idle\n"
           "               iterations in a row (need <= capacity / 1.5), never below\n"
           "               the 50%%\n"
           "Print each iteration's need and capacities, the grow and shrink events, and\n"
           "per pool the peak capacity, the mean waste (capacity - need) and the device\n"
           "allocations made (reallocations).\n"
           "\n"
           "  -p, --policy NAME   the schedule (default %s)\n" CLI_PARAM_HELP CLI_POOL_HELP
           "  -b, --backend NAME  also make each pool's allocations for real on host or\n"
           "                      cuda and read the memory after every iteration\n"
           "                      (default: none, the simulation only)\n"
           "  -a, --all           text: every iteration (default: the first, the last and\n"
           "                      those with an event)\n"
           "  -f, --format FMT    text (default) or json\n"
           "  -o, --output OUT    write there instead of standard output\n"
           "      --max-seconds S refuse (status 2) when the first iterations say the\n"
           "                      simulation would take more than S seconds (default\n"
           "                      %d; 0: no limit)\n"
           "  -h, --help          show this help and exit\n"
           "  -V, --version       show the version and exit\n"
           "\n"
           "The PRNG is splitmix64 seeded with S: factor i = MIN + (MAX - MIN) * u_i,\n"
           "u_i its i-th output's top 53 bits / 2^53. See memtris(1) for the JSON.\n"
           "On a terminal, stderr shows the iteration and the time left.\n",
           DEFAULT_POLICY, DEFAULT_MAX_SECONDS);
}

/* "grow x1.5^2", "shrink", "+12 blocks", or "" for kind k at iteration i. */
static const char *event_words(const pool_point *p, int k, char *out, size_t cap)
{
    out[0] = 0;
    if (k == POOL_SIZECLASS && p->grow)
        snprintf(out, cap, "+%" PRIu32 " block%s", p->grow, p->grow == 1 ? "" : "s");
    else if (k == POOL_ELASTIC && p->grow) snprintf(out, cap, "grow x1.5^%" PRIu32, p->grow);
    else if (p->grow) snprintf(out, cap, "grow");
    else if (p->shrink) snprintf(out, cap, "shrink /1.5");
    return out;
}

static int has_event(const pool_sim *s, uint32_t i)
{
    for (int k = 0; k < POOL_NKINDS; k++)
        if (s->pt[k][i].grow || s->pt[k][i].shrink) return 1;
    return 0;
}

static void print_text(FILE *f, const graph *g, const policy *p, const pool_sim *s,
                       const char *backend, const replay_info *info, int all)
{
    char a[32], b[32], ev[64], src[1024];
    utf8_printable(g->source, src, sizeof src);
    fprintf(f, "%s: policy %s, %u iterations, factors in [%g, %g) (seed %" PRIu64 ")\n", src,
            p->name, s->n, s->pp.min, s->pp.max, s->pp.seed);
    fprintf(f, "  expected maximum  %s (%" PRId64 " bytes): the live peak at factor %g\n",
            units_bytes(a, sizeof a, s->expected_max, 0), s->expected_max, s->pp.max);
    if (backend)
        fprintf(f, "  measured on       %s (%s): memory in use after each iteration\n", backend,
                info->device[0] ? info->device : "n/a");
    int m = s->measured;
    fprintf(f, "\n%6s  %7s  %10s", "iter", "factor", "need");
    for (int k = 0; k < POOL_NKINDS; k++) {
        fprintf(f, "  %10s", pool_kind_at(k)->name);
        if (m) fprintf(f, "  %10s", "measured");
    }
    fprintf(f, "  events\n");
    uint32_t shown = 0;
    for (uint32_t i = 0; i < s->n; i++) {
        if (!all && i && i + 1 < s->n && !has_event(s, i)) continue;
        shown++;
        fprintf(f, "%6u  %7.4f  %10s", i + 1, s->factor[i],
                units_bytes(a, sizeof a, s->need[i], 0));
        for (int k = 0; k < POOL_NKINDS; k++) {
            fprintf(f, "  %10s", units_bytes(a, sizeof a, s->pt[k][i].cap, 0));
            if (m) fprintf(f, "  %10s", units_bytes(b, sizeof b, s->pt[k][i].measured, 0));
        }
        const char *sep = "  ";
        for (int k = 0; k < POOL_NKINDS; k++)
            if (event_words(&s->pt[k][i], k, ev, sizeof ev)[0]) {
                fprintf(f, "%s%s %s", sep, pool_kind_at(k)->name, ev);
                sep = ", ";
            }
        fputc('\n', f);
    }
    if (!all && shown < s->n)
        fprintf(f,
                "(%u of %u iterations: the first, the last and those with an event; --all "
                "shows every one)\n",
                shown, s->n);
    fprintf(f, "\n%-12s  %14s  %12s  %13s  %6s  %7s%s\n", "pool", "peak capacity", "mean waste",
            "reallocations", "grows", "shrinks", m ? "  peak measured" : "");
    for (int k = 0; k < POOL_NKINDS; k++) {
        const pool_total *t = &s->tot[k];
        fprintf(f, "%-12s  %14s  %12s  %13" PRIu64 "  %6u  %7u", pool_kind_at(k)->name,
                units_bytes(a, sizeof a, t->peak_cap, 0),
                units_bytes(b, sizeof b, (int64_t)(t->mean_waste + 0.5), 0), t->reallocs, t->grows,
                t->shrinks);
        if (m) fprintf(f, "  %14s", units_bytes(a, sizeof a, t->peak_measured, 0));
        fputc('\n', f);
    }
    fprintf(f,
            "mean waste: the mean of capacity - need; reallocations: device allocations made.\n"
            "simulated in %.1f ms\n",
            s->seconds * 1e3);
}

/* The member "measured": the bytes, or null when nothing was measured. */
static void measured(jw *w, const pool_sim *s, int64_t v)
{
    jw_key(w, "measured");
    if (s->measured) jw_int(w, v);
    else jw_null(w);
}

static void print_json(FILE *f, const graph *g, const policy *p, const pool_sim *s,
                       const char *backend, const replay_info *info)
{
    jw w;
    jw_file(&w, f);
    jw_object(&w);
    jw_kstring(&w, "graph", g->source);
    jw_kstring(&w, "policy", p->name);
    jw_kuint(&w, "iterations", s->n);
    jw_key(&w, "scale");
    jw_array(&w);
    jw_g(&w, s->pp.min, 17);
    jw_g(&w, s->pp.max, 17);
    jw_array_end(&w);
    jw_kuint(&w, "seed", s->pp.seed);
    jw_kint(&w, "expected_max", s->expected_max);
    jw_break(&w, "\n ");
    jw_key(&w, "backend");
    if (backend) jw_string(&w, backend);
    else jw_null(&w);
    jw_key(&w, "device");
    if (backend) jw_string(&w, info->device);
    else jw_null(&w);
    jw_key(&w, "seconds");
    jw_f(&w, s->seconds, 6);
    jw_break(&w, "\n ");
    jw_key(&w, "pools");
    jw_array(&w);
    for (int k = 0; k < POOL_NKINDS; k++) {
        const pool_total *t = &s->tot[k];
        jw_break(&w, "\n  ");
        jw_object(&w);
        jw_kstring(&w, "name", pool_kind_at(k)->name);
        jw_kint(&w, "peak_capacity", t->peak_cap);
        jw_kg(&w, "mean_waste", t->mean_waste, 17);
        jw_kuint(&w, "reallocations", t->reallocs);
        jw_kuint(&w, "grows", t->grows);
        jw_kuint(&w, "shrinks", t->shrinks);
        jw_key(&w, "peak_measured");
        if (s->measured) jw_int(&w, t->peak_measured);
        else jw_null(&w);
        jw_object_end(&w);
    }
    jw_array_end(&w);
    jw_break(&w, "\n ");
    jw_key(&w, "per_iteration");
    jw_array(&w);
    for (uint32_t i = 0; i < s->n; i++) {
        jw_break(&w, "\n  ");
        jw_object(&w);
        jw_kuint(&w, "iteration", i + 1);
        jw_kg(&w, "factor", s->factor[i], 17);
        jw_kint(&w, "need", s->need[i]);
        for (int k = 0; k < POOL_NKINDS; k++) {
            const pool_point *pt = &s->pt[k][i];
            jw_key(&w, pool_kind_at(k)->name);
            jw_object(&w);
            jw_kint(&w, "capacity", pt->cap);
            jw_kuint(&w, "grow", pt->grow);
            jw_kuint(&w, "shrink", pt->shrink);
            jw_kuint(&w, "allocations", pt->allocs);
            measured(&w, s, pt->measured);
            jw_object_end(&w);
        }
        jw_object_end(&w);
    }
    jw_array_end(&w);
    jw_object_end(&w);
    jw_end(&w);
}

/* The simulation watched: its progress line and the estimate of its time. */
typedef struct iter_watch {
    double start;    /* clock_seconds when it began */
    double max;      /* --max-seconds; 0: no limit */
    double each;     /* > 0: MEMTRIS_TEST_ITERATION_SECONDS, the time of one iteration */
    double estimate; /* refused: the whole simulation's estimated seconds */
    uint32_t on;     /* refused: the iterations the estimate was made from */
    int checked, refused;
} iter_watch;

/* The estimate is made once the first iterations took this long. */
#define ESTIMATE_AFTER 0.05

static int on_tick(void *ctx, uint32_t done, uint32_t total)
{
    iter_watch *w = ctx;
    if (done >= total) return 0;
    double t = w->each > 0 ? w->each * done : clock_seconds() - w->start;
    double left = t / done * (total - done);
    if (!w->checked && (t >= ESTIMATE_AFTER || w->each > 0)) {
        w->checked = 1;
        if (w->max > 0 && t + left > w->max) {
            w->refused = 1;
            w->estimate = t + left;
            w->on = done;
            return 1;
        }
    }
    char d[32];
    cli_progress("iterate: iteration %u of %u (%u%%), about %s left", done, total,
                 (unsigned)((uint64_t)done * 100 / total), units_ms(d, sizeof d, left * 1e3));
    return 0;
}

/* --max-seconds S: a number of seconds, 0 or more (0: no limit). 0, or -1
 * after a usage error. */
static int parse_max_seconds(const char *arg, double *out)
{
    char *end;
    double v = strtod(arg, &end);
    if (!*arg || *end || !(v >= 0) || !isfinite(v)) {
        cli_usage_error("iterate",
                        "--max-seconds wants a number of seconds, 0 or more (0: no limit), not "
                        "'%s'",
                        arg);
        return -1;
    }
    *out = v;
    return 0;
}

/* The simulation, refused past --max-seconds: EXIT_OK, or EXIT_USAGE or
 * EXIT_BAD after a message. */
static int simulate(cli_job *j, const pool_params *pp, double max_seconds, pool_sim *s)
{
    char err[512], a[32], b[32];
    iter_watch w = {.start = clock_seconds(), .max = max_seconds};
    const char *each = getenv("MEMTRIS_TEST_ITERATION_SECONDS"); /* tests: time that passes */
    if (each) w.each = strtod(each, NULL);
    int rc = pool_simulate_ticked(j->g, &j->r, pp, s, err, sizeof err, on_tick, &w);
    cli_progress_clear();
    if (w.refused)
        return cli_usage_error(
            "iterate",
            "%u iterations would take about %s (%s each, timed over the first %u), more than "
            "--max-seconds %g: give fewer --iterations, a larger --max-seconds, or "
            "--max-seconds 0 for no limit",
            pp->iterations, units_ms(a, sizeof a, w.estimate * 1e3),
            units_ms(b, sizeof b, w.estimate / pp->iterations * 1e3), w.on, w.max);
    if (rc) {
        cli_eprintf("%s: error: %s\n", j->g->source, err);
        return EXIT_BAD;
    }
    return EXIT_OK;
}

enum { OPT_MAX_SECONDS = 1200 };

int cmd_iterate(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"policy", required_argument, 0, 'p'},
        {"backend", required_argument, 0, 'b'},
        {"all", no_argument, 0, 'a'},
        {"format", required_argument, 0, 'f'},
        {"output", required_argument, 0, 'o'},
        CLI_POOL_OPTIONS,
        CLI_PARAM_OPTIONS,
        {"max-seconds", required_argument, 0, OPT_MAX_SECONDS},
        {0, 0, 0, 0},
    };
    static const cli_opts opts = {"iterate", "p:b:af:o:", longopts, NULL, print_help};
    const char *pname = DEFAULT_POLICY, *bname = NULL, *fname = DEFAULT_FORMAT, *out = NULL, *file;
    int c, status, all = 0;
    double max_seconds = DEFAULT_MAX_SECONDS;
    pool_params pp;
    solve_ctx ctx = {0}; /* --alpha, --queue-order */
    cli_pool_defaults(&pp);
    while ((c = cli_opt(&opts, argc, argv, &status)) >= 0) {
        switch (c) {
        case 'p': pname = optarg; break;
        case 'b': bname = optarg; break;
        case 'a': all = 1; break;
        case 'f': fname = optarg; break;
        case 'o': out = optarg; break;
        case OPT_MAX_SECONDS:
            if (parse_max_seconds(optarg, &max_seconds)) return EXIT_USAGE;
            break;
        case CLI_OPT_ALPHA:
        case CLI_OPT_QUEUE_ORDER:
            if (cli_param("iterate", c, optarg, &ctx)) return EXIT_USAGE;
            break;
        default:
            if (cli_pool_opt("iterate", c, optarg, &pp)) return EXIT_USAGE;
        }
    }
    if (c == CLI_OPT_STOP) return status;
    if (!(file = cli_file("iterate", argc, argv))) return EXIT_USAGE;
    int format = cli_format("iterate", fname, (1u << CLI_TEXT) | (1u << CLI_JSON));
    if (format < 0) return EXIT_USAGE;
    if (out && !*out) return cli_out_check("iterate", "-o", out);
    const replay_backend *be = NULL;
    if (bname && !(be = cli_backend("iterate", bname))) return EXIT_USAGE;
    const policy *p = cli_policy("iterate", pname);
    if (!p) return EXIT_USAGE;
    if ((status = cli_out_check("iterate", "-o", out))) return status;

    cli_job j;
    pool_sim s = {0};
    replay_info info = {0};
    char err[512];
    int unavailable = 0;
    status = cli_job_load(&j, file);
    if (!status) status = cli_job_run(&j, p, &ctx);
    if (!status) status = simulate(&j, &pp, max_seconds, &s);
    if (!status && be && replay_iterate(j.g, &j.r, be, &s, &info, &unavailable, err, sizeof err)) {
        if (unavailable) cli_eprintf("memtris iterate: %s\n", err); /* not about FILE */
        else cli_eprintf("memtris iterate: %s: %s\n", j.g->source, err);
        status = EXIT_BAD;
    }
    cli_out o;
    if (!status && !(status = cli_out_open(&o, "iterate", out))) {
        if (format == CLI_JSON) print_json(o.f, j.g, p, &s, be ? be->name : NULL, &info);
        else print_text(o.f, j.g, p, &s, be ? be->name : NULL, &info, all);
        status = cli_out_close(&o, 0);
    }
    pool_sim_free(&s);
    cli_job_free(&j);
    return status;
}
