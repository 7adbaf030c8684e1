/* cmd_replay.c: "memtris replay": runs a policy's schedule for real on a
 * device (cuda, else the host) and prints the memory measured after every
 * step next to the predicted live bytes: a table, JSON or CSV. */
#include <inttypes.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "cli_cmds.h"
#include "cli_job.h"
#include "cli_opts.h"
#include "cli_proof.h"
#include "defaults.h"
#include "gpu/replay.h"
#include "util/units.h"
#include "util/utf8.h"

static void print_help(void)
{
    printf("Usage: memtris replay FILE [--policy NAME] [--backend cuda|host]\n"
           "                           [--mode raw|arena|pool|async] [--placer NAME]\n"
           "                           [--format text|json|csv] [-o OUT] [--alpha A]\n"
           "                           [--queue-order Q]\n"
           "Schedule the graph with one policy, then run the schedule for real on a device:\n"
           "every ALLOC allocates, every FREE gives back, every compute step writes the\n"
           "buffers it uses, and after each step the memory in use is read. Print the\n"
           "bytes measured (the reading minus the one taken before the first step) next\n"
           "to the live bytes the schedule predicts, the time of each step, the peaks,\n"
           "the largest excess and what is left after everything is given back.\n"
           "\n"
           "  -p, --policy NAME   the schedule: any policy (default priority)\n" CLI_PARAM_HELP
           "  -b, --backend NAME  where to run it:\n");
    for (size_t i = 0; replay_backend_at(i); i++)
        printf("        %-12s %s\n", replay_backend_at(i)->name, replay_backend_at(i)->desc);
    printf(
        "                      default: cuda when this build has it and a device opens,\n"
        "                      else host (saying why on stderr)\n"
        "  -m, --mode MODE     how buffers get their memory (default raw):\n"
        "        raw          one allocation per ALLOC, given back at its FREE\n"
        "        arena        one allocation of the plan's arena, buffers at the offsets\n"
        "                     of --placer's plan (%d-byte aligned)\n"
        "        pool         size classes of 2^n bytes (>= the 64-byte aligned size, as\n"
        "                     'plan --placer pool'), freed blocks kept for reuse\n"
        "        async        cuda only: cudaMallocAsync/cudaFreeAsync on a stream; the\n"
        "                     pool keeps what is freed until the end (trimmed then)\n"
        "  -l, --placer NAME   for --mode arena: the placer (default best; see\n"
        "                      'memtris plan --help')\n"
        "  -f, --format FMT    text (default), json or csv\n"
        "  -o, --output OUT    write there instead of standard output\n"
        "  -h, --help          show this help and exit\n"
        "  -V, --version       show the version and exit\n"
        "\n"
        "Steps count from 1, as in 'memtris schedule' and the TUI: step s is the\n"
        "state after the s-th node of the schedule, in the table as in JSON and CSV.\n"
        "JSON: {\"backend\", \"mode\", \"policy\", \"placer\" (arena mode), \"device\",\n"
        "       \"device_total\", \"versions\", \"steps\": [{\"step\", \"node\", \"predicted\",\n"
        "       \"measured\", \"ms\"}, ...], \"predicted_peak\", \"predicted_peak_step\",\n"
        "       \"measured_peak\", \"measured_peak_step\", \"max_excess\", \"max_excess_step\",\n"
        "       \"baseline\", \"residual\", \"held\", \"seconds\", \"complete\", \"total_steps\"}\n"
        "in bytes and milliseconds; node is the node's Id; residual is null when\n"
        "the reading after giving everything back failed (unknown, said on stderr).\n"
        "CSV: step,node,predicted,measured,ms, one row per step.\n"
        "A step that fails (out of memory: the step, node and buffer are named) is\n"
        "an error: status 1 and nothing printed.\n",
        PLACE_ALIGN_DEFAULT);
}

/* The modes backend b has, "raw, arena, pool". */
static void mode_list(const replay_backend *b, char *out, size_t cap)
{
    out[0] = 0;
    for (int m = 0; m < REPLAY_NMODES; m++)
        if (b->modes & (1u << m))
            snprintf(out + strlen(out), cap - strlen(out), "%s%s", out[0] ? ", " : "",
                     replay_mode_name(m));
}

static int has_mode(const replay_backend *b, int mode) { return (b->modes & (1u << mode)) != 0; }

/* Progress: a percentage on stderr when it is a terminal. */
typedef struct progress {
    int tty, last;
} progress;

static int on_progress(void *ctx, uint32_t done, uint32_t total)
{
    progress *p = ctx;
    if (p->tty && total) {
        int pct = (int)((uint64_t)done * 100 / total);
        if (pct != p->last) {
            fprintf(stderr, "\rreplaying: %d%%", pct);
            fflush(stderr);
            p->last = pct;
        }
    }
    return 0;
}

static void progress_clear(progress *p)
{
    if (p->tty && p->last >= 0) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
    }
    p->last = -1;
}

/* "ALLOC buf 7", "FREE buf 7", or a compute node's name. */
static const char *what(const graph *g, int64_t node, char *out, size_t cap)
{
    uint32_t u = graph_find(g, node);
    char lb[GRAPH_LABEL_MAX];
    if (u == GRAPH_NONE) snprintf(out, cap, "?");
    else if (g->buf[u] != GRAPH_NONE)
        snprintf(out, cap, "%s buf %" PRId64, graph_kind_word(g->kind[u]), g->buf_id[g->buf[u]]);
    else utf8_printable(graph_display(g, u, lb, sizeof lb), out, cap);
    return out;
}

static const char *or_na(const char *s) { return s[0] ? s : "n/a"; }

static void print_text(FILE *f, const graph *g, const replay_result *res, int mode)
{
    char a[32], b[32], c[32], w[25], src[1024]; /* w: the column, made printable */
    utf8_printable(g->source, src, sizeof src);
    fprintf(f, "%s: policy %s, backend %s, mode %s; %" PRIu32 " steps\n", src, res->policy,
            res->backend, res->mode, res->total);
    fprintf(f, "  device         %s\n", or_na(res->info.device));
    if (res->info.total > 0)
        fprintf(f, "  memory         %s (%" PRId64 " bytes)\n",
                units_bytes(a, sizeof a, res->info.total, 0), res->info.total);
    else fprintf(f, "  memory         n/a\n");
    fprintf(f, "  versions       %s\n", or_na(res->info.versions));
    if (mode == REPLAY_ARENA)
        fprintf(f, "  arena          %s (%" PRId64 " bytes), placed by %s\n",
                units_bytes(a, sizeof a, res->held, 0), res->held, res->placer);
    fprintf(f, "\n%8s  %12s  %-24s  %12s  %12s  %18s  %10s\n", "step", "node", "what", "predicted",
            "measured", "measured-predicted", "ms");
    for (uint32_t i = 0; i < res->n; i++) {
        const replay_sample *x = &res->s[i];
        fprintf(f, "%8" PRIu32 "  %12" PRId64 "  %-24s  %12s  %12s  %18s  %10.3f\n", x->step + 1,
                x->node, what(g, x->node, w, sizeof w), units_bytes(a, sizeof a, x->predicted, 0),
                units_bytes(b, sizeof b, x->measured, 0),
                units_bytes(c, sizeof c, x->measured - x->predicted, 1), x->ms);
    }
    fprintf(f, "Step s: after the s-th node of the schedule, as in 'memtris schedule'.\n"
               "measured: the memory in use after the step minus the reading before the first "
               "step.\n\n");
    if (!res->n) {
        fprintf(f, "  no steps: the graph is empty\n");
        return;
    }
    fprintf(f, "  predicted peak   %s (%" PRId64 " bytes) at step %" PRIu32 "\n",
            units_bytes(a, sizeof a, res->predicted_peak, 0), res->predicted_peak,
            replay_step_shown(res, res->predicted_peak_step));
    fprintf(f, "  measured peak    %s (%" PRId64 " bytes) at step %" PRIu32 "\n",
            units_bytes(a, sizeof a, res->measured_peak, 0), res->measured_peak,
            replay_step_shown(res, res->measured_peak_step));
    fprintf(f, "  largest excess   %s (measured - predicted) at step %" PRIu32 "\n",
            units_bytes(a, sizeof a, res->max_excess, 1),
            replay_step_shown(res, res->max_excess_step));
    if (res->residual_known)
        fprintf(f,
                "  residual         %s (%" PRId64 " bytes) in use after giving everything back\n",
                units_bytes(a, sizeof a, res->residual, 0), res->residual);
    else
        fprintf(f, "  residual         unknown (%s)\n",
                res->residual_error[0] ? res->residual_error : "the last reading failed");
    fprintf(f, "  time             %.3f ms a step on average, %.3f ms in all\n",
            res->seconds * 1e3 / res->n, res->seconds * 1e3);
    if (mode == REPLAY_ARENA)
        fprintf(f, "  held             %s (%" PRId64 " bytes): the arena, for the whole replay\n",
                units_bytes(a, sizeof a, res->held, 0), res->held);
    else if (mode == REPLAY_POOL)
        fprintf(f,
                "  held             %s (%" PRId64
                " bytes): the pool's blocks at the end, never given back "
                "before it\n",
                units_bytes(a, sizeof a, res->held, 0), res->held);
}

static void print_csv(FILE *f, const replay_result *res)
{
    fprintf(f, "step,node,predicted,measured,ms\n");
    for (uint32_t i = 0; i < res->n; i++) {
        const replay_sample *x = &res->s[i];
        fprintf(f, "%" PRIu32 ",%" PRId64 ",%" PRId64 ",%" PRId64 ",%.6g\n", x->step + 1, x->node,
                x->predicted, x->measured, x->ms);
    }
}

/* Writes the result to path (NULL or "-": standard output); EXIT_OK or
 * EXIT_BAD with a message. */
static int write_output(const char *path, int format, const graph *g, const replay_result *res,
                        int mode)
{
    cli_out out;
    if (cli_out_open(&out, "replay", path)) return EXIT_BAD;
    if (format == CLI_JSON) replay_write_json(out.f, res);
    else if (format == CLI_CSV) print_csv(out.f, res);
    else print_text(out.f, g, res, mode);
    return cli_out_close(&out, 0);
}

/* Replays j's run on backend be, falling back (when the backend was not
 * named) to the next one when be does not open. EXIT_OK with res filled,
 * or EXIT_BAD after a message. */
static int replay_on(cli_job *j, const replay_backend *be, int named, int mode, replay_result *res)
{
    const graph *g = j->g;
    char err[512];
    progress pr = {isatty(STDERR_FILENO), -1};
    replay_opts o = {.backend = be,
                     .mode = mode,
                     .pl = j->has_plan ? &j->pl : NULL,
                     .progress = on_progress,
                     .ctx = &pr};
    int rc = replay_run(g, &j->r, j->pol, &o, res, err, sizeof err);
    progress_clear(&pr);
    const replay_backend *next = replay_fallback(be, named);
    if (rc == REPLAY_FAILED && res->unavailable[0] && next) {
        cli_eprintf("memtris: cannot use %s (%s); replaying on %s\n", be->label, res->unavailable,
                    next->label);
        replay_result_free(res);
        if (!has_mode(next, mode)) {
            char ms[64];
            mode_list(next, ms, sizeof ms);
            cli_eprintf("memtris replay: the %s backend has no %s mode (it has %s)\n", next->name,
                        replay_mode_name(mode), ms);
            return EXIT_BAD;
        }
        o.backend = be = next;
        rc = replay_run(g, &j->r, j->pol, &o, res, err, sizeof err);
        progress_clear(&pr);
    }
    if (rc == REPLAY_FAILED && res->unavailable[0]) {
        /* The device did not open: not about FILE. */
        cli_eprintf("memtris replay: %s\n", err);
        return EXIT_BAD;
    }
    if (rc == REPLAY_FAILED) {
        cli_eprintf("memtris replay: %s: %s\n", g->source, err);
        return EXIT_BAD;
    }
    if (rc == REPLAY_CANCELLED) {
        cli_eprintf("memtris replay: %s: cancelled\n", g->source);
        return EXIT_BAD;
    }
    if (!res->residual_known)
        cli_eprintf("memtris replay: %s: warning: the residual is unknown: %s\n", g->source,
                    res->residual_error[0] ? res->residual_error : "the last reading failed");
    return EXIT_OK;
}

int cmd_replay(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"policy", required_argument, 0, 'p'},
        {"backend", required_argument, 0, 'b'},
        {"mode", required_argument, 0, 'm'},
        {"placer", required_argument, 0, 'l'},
        {"format", required_argument, 0, 'f'},
        {"output", required_argument, 0, 'o'},
        CLI_PARAM_OPTIONS,
        {0, 0, 0, 0},
    };
    static const cli_opts opts = {"replay", "p:b:m:l:f:o:", longopts, NULL, print_help};
    const char *pname = DEFAULT_POLICY, *bname = NULL, *mname = DEFAULT_REPLAY_MODE, *lname = NULL,
               *fname = DEFAULT_FORMAT, *out = NULL, *file;
    int c, status;
    solve_ctx ctx = {0}; /* --alpha, --queue-order */
    while ((c = cli_opt(&opts, argc, argv, &status)) >= 0) {
        switch (c) {
        case 'p': pname = optarg; break;
        case 'b': bname = optarg; break;
        case 'm': mname = optarg; break;
        case CLI_OPT_ALPHA:
        case CLI_OPT_QUEUE_ORDER:
            if (cli_param("replay", c, optarg, &ctx)) return EXIT_USAGE;
            break;
        case 'l': lname = optarg; break;
        case 'f': fname = optarg; break;
        case 'o': out = optarg; break;
        }
    }
    if (c == CLI_OPT_STOP) return status;
    if (!(file = cli_file("replay", argc, argv))) return EXIT_USAGE;
    int format = cli_format("replay", fname, CLI_FORMATS_ALL);
    if (format < 0) return EXIT_USAGE;
    if (out && !*out) return cli_out_check("replay", "-o", out);
    const replay_backend *be = NULL;
    if (bname && !(be = cli_backend("replay", bname))) return EXIT_USAGE;
    int mode = cli_mode("replay", mname);
    if (mode < 0) return EXIT_USAGE;
    /* No --backend: the default (cuda when this build has it, falling back
     * to the host below when no device opens, else the host). */
    if (!be) be = replay_backend_default();
    if (!has_mode(be, mode)) {
        char ms[64];
        mode_list(be, ms, sizeof ms);
        return cli_usage_error("replay", "the %s backend has no %s mode (it has %s)%s", be->name,
                               replay_mode_name(mode), ms,
                               bname ? "" : "; this build has no CUDA backend");
    }
    if (lname && mode != REPLAY_ARENA)
        return cli_usage_error("replay", "--placer applies to --mode arena");
    const policy *p = cli_policy("replay", pname);
    if (!p) return EXIT_USAGE;
    const placer *pc = NULL;
    if (mode == REPLAY_ARENA && !(pc = cli_placer("replay", lname ? lname : DEFAULT_PLAN_PLACER)))
        return EXIT_USAGE;
    if ((status = cli_out_check("replay", "-o", out))) return status;

    cli_job j;
    replay_result res = {0};
    status = cli_job_load(&j, file);
    if (!status) status = cli_job_run(&j, p, &ctx);
    if (!status && pc) status = cli_job_place(&j, "replay", pc, PLACE_ALIGN_DEFAULT, &ctx);
    if (!status) status = replay_on(&j, be, bname != NULL, mode, &res);
    if (!status) status = write_output(out, format, j.g, &res, mode);
    replay_result_free(&res);
    cli_job_free(&j);
    /* cli_main checks that standard output was written */
    return status;
}
