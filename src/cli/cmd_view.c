/* cmd_view.c: "memtris [view] [FILE]": opens the TUI on a graph, or on the
 * built-in demo graph when no FILE is given; the replay options (what R runs,
 * a saved replay to overlay). Exports cmd_view. */
#define _GNU_SOURCE
#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "cli_cmds.h"
#include "cli_opts.h"
#include "cli_pool.h"
#include "cli_proof.h"
#include "defaults.h"
#include "gpu/replay.h"
#include "sched/graph/load.h"
#include "sched/place/place.h"
#include "ui/app_train.h"
#include "ui/ui.h"

extern const char memtris_demo_json[];
extern const unsigned long memtris_demo_json_len;

static const char help[] =
    "Usage: memtris [view] [FILE] [--policy NAME] [--compare NAME] [--placer NAME] [--ascii] "
    "[--no-color]\n"
    "                      [--no-mouse] [--backend cuda|host] [--mode MODE] [--replay FILE]\n"
    "                      [--time-limit S] [--max-states N] [--alpha A] [--queue-order Q]\n"
    "                      [--iterations N] [--scale MIN:MAX] [--seed S]\n"
    "Open the terminal UI: step through the schedule one heap pop at a time and\n"
    "watch the ready queue, the live memory curve and the buffers in the arena.\n"
    "Without FILE, a built-in demo graph (a small CNN block) is shown.\n"
    "\n"
    "  -p, --policy NAME    the stepped policy, one of those below (default priority;\n"
    "                       a training step, a graph with Phase or Category: given,\n"
    "                       the framework's own order; the s key cycles them)\n"
    "  -c, --compare NAME   start in compare mode against NAME (default side: fifo;\n"
    "                       priority where given is stepped on a training step; the o\n"
    "                       key compares with exact's optimum)\n"
    "  -l, --placer NAME    the arena panel's placer (default first-fit; the a key cycles)\n"
    "      --ascii          draw with ASCII only (also when the locale is not UTF-8\n"
    "                       or TERM cannot draw braille: vt100, linux, ...)\n"
    "      --no-color       monochrome (also when NO_COLOR is set)\n"
    "      --no-mouse       ignore the mouse\n"
    "  -b, --backend NAME   where the R key replays the schedule: cuda or host (default\n"
    "                       cuda when this build has it, falling back to host when no\n"
    "                       device opens; else host)\n"
    "  -m, --mode MODE      how the replay allocates: raw (default), arena (the arena\n"
    "                       panel's placer), pool or async (cuda only)\n"
    "      --replay FILE    overlay a saved replay ('memtris replay --format json') on\n"
    "                       the curve; it steps the replay's policy unless -p is "
    "given\n" CLI_LIMIT_HELP CLI_PARAM_HELP
    "  the I key's pool view, as 'memtris iterate' (see its --help):\n" CLI_POOL_HELP
    "  -h, --help           show this help and exit\n"
    "\n"
    "Press ? in the UI for the keys; R replays the stepped policy on the backend in\n"
    "the background and draws the measured memory over the predicted curve (Esc\n"
    "cancels). For text output use 'memtris schedule' or 'memtris compare'.\n";

static void print_help(void)
{
    fputs(help, stdout);
    cli_policy_help();
}

/* The options, once parsed. */
typedef struct view_opts {
    const char *file; /* NULL: the demo */
    const policy *pol;
    int pol_named;     /* -p, or the saved replay's policy: no training default */
    const char *cname; /* --compare, or NULL */
    const placer *plc; /* --placer */
    int ascii, mono, mouse;
    const replay_backend *be; /* what R runs */
    int be_auto, mode;
    const char *rname;    /* --replay, or NULL */
    replay_result *saved; /* its contents */
    pool_params pp;       /* the I key's pools */
    solve_ctx ctx;        /* --time-limit, --max-states, --alpha, --queue-order */
} view_opts;

/* Everything after the options: checks the policies and the placer, loads
 * the graph, sets the app up with the replay settings and the saved replay
 * (checked against the schedule), and runs the UI. */
static int view_run(const view_opts *o, graph *g, const char *title, const policy *pol,
                    const policy *cmp, const placer *plc, int utf8, int mono, const diag *d);

/* A training step (a graph with Phase or Category) opens on given, the framework's own order,
 * unless -p (or a saved replay) names the policy or --compare names given; compared with
 * priority unless --compare names another side. */
static void train_defaults(const view_opts *o, const graph *g, const policy **pol,
                           const policy **cmp)
{
    const policy *given = policy_find("given");
    if (!g->tag || o->pol_named || (o->cname && policy_find(o->cname) == given)) return;
    *pol = given;
    if (!o->cname) *cmp = app_train_other(g, given);
}

static int view_open(view_opts *o)
{
    const policy *pol = o->pol;
    const policy *cmp = cli_policy("view", o->cname ? o->cname : DEFAULT_COMPARE_POLICY);
    if (!cmp) return EXIT_USAGE;
    const policy *named = o->cname ? cmp : NULL; /* --compare's */
    if (cmp == pol) {
        for (size_t i = 0; policy_at(i); i++)
            if (policy_at(i) != pol) {
                cmp = policy_at(i);
                break;
            }
        if (o->cname && o->pol_named) /* else a training step may step given */
            return cli_usage_error("view", "--compare needs a policy other than %s", pol->name);
    }
    const placer *plc = o->plc;
    char why[128];
    if (ui_check_terminal(why, sizeof why)) {
        cli_eprintf("memtris: cannot open the terminal UI: %s.\n"
                    "For text output use 'memtris schedule FILE' or 'memtris compare FILE'.\n",
                    why);
        return EXIT_BAD;
    }

    setlocale(LC_ALL, "");
    int utf8 = ui_draws_utf8(o->ascii);
    const char *nc = getenv("NO_COLOR");
    int mono = o->mono || (nc && *nc);

    const char *file = o->file;
    const char *title = file ? (strcmp(file, "-") ? file : "<stdin>") : "demo (built in)";
    graph *g;
    diag d; /* the load's messages, its warnings shown in the TUI too */
    if (file) g = cli_load_diag(file, 0, &d); /* its progress on a terminal, its messages */
    else {
        diag_init(&d, title);
        g = load_buffer(memtris_demo_json, memtris_demo_json_len, title, &d, NULL, NULL);
        for (size_t i = 0; i < d.nlines; i++) cli_eprintf("%s\n", d.lines[i]);
    }
    if (!g) {
        diag_free(&d);
        return EXIT_BAD;
    }
    train_defaults(o, g, &pol, &cmp);
    if (named && named == pol) {
        diag_free(&d);
        graph_free(g);
        return cli_usage_error("view", "--compare needs a policy other than %s", pol->name);
    }
    if (named) cmp = named;
    int status = view_run(o, g, title, pol, cmp, plc, utf8, mono, &d);
    diag_free(&d);
    return status;
}

/* The TUI on the loaded graph g, the load's warnings (d) on its ? page. */
static int view_run(const view_opts *o, graph *g, const char *title, const policy *pol,
                    const policy *cmp, const placer *plc, int utf8, int mono, const diag *d)
{
    app a;
    if (!o->saved) app_start_defer_check(); /* the plan checked beside the first frame */
    if (app_init(&a, g, title, pol, cmp, o->cname != NULL, plc, &o->ctx)) {
        cli_eprintf("%s: error: %s\n", title, a.err);
        app_free(&a);
        graph_free(g);
        return EXIT_BAD;
    }
    a.utf8 = utf8;
    a.mono = mono;
    a.mouse = o->mouse;
    a.rp.be = o->be;
    a.rp.be_auto = o->be_auto;
    a.rp.mode = o->mode;
    a.poolp = o->pp;
    app_set_warnings(&a, d->lines, d->nlines);
    app_train_hello(&a);                /* given on a training step: what it is, what c does */
    if (o->saved && o->saved->plan_n) { /* a budget plan's replay: the budget view of it */
        char err[512];
        if (app_budget_replay(&a, o->saved, err, sizeof err)) {
            cli_eprintf("memtris: %s does not belong to %s: %s\n", o->rname, title, err);
            app_free(&a);
            graph_free(g);
            return EXIT_BAD;
        }
    } else if (o->saved) {
        char err[512];
        if (replay_check_run(o->saved, g, &a.st[0].r, err, sizeof err)) {
            cli_eprintf("memtris: %s does not belong to %s under %s: %s\n", o->rname, title,
                        pol->name, err);
            app_free(&a);
            graph_free(g);
            return EXIT_BAD;
        }
        app_set_replay(&a, o->saved);
    }
    int status = ui_run(&a);
    /* app_free cancels a running replay and waits for it; placing a big
     * graph does not stop in the middle, so say why the exit takes time. */
    if (a.rp.job) cli_eprintf("memtris: stopping the replay...\n");
    app_free(&a);
    graph_free(g);
    return status;
}

int cmd_view(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"policy", required_argument, 0, 'p'},
        {"compare", required_argument, 0, 'c'},
        {"placer", required_argument, 0, 'l'},
        {"ascii", no_argument, 0, 'A'},
        {"no-color", no_argument, 0, 'M'},
        {"no-mouse", no_argument, 0, 'N'},
        {"backend", required_argument, 0, 'b'},
        {"mode", required_argument, 0, 'm'},
        {"replay", required_argument, 0, 'R'},
        CLI_LIMIT_OPTIONS,
        CLI_PARAM_OPTIONS,
        CLI_POOL_OPTIONS,
        {0, 0, 0, 0},
    };
    static const cli_opts opts = {"view", "p:c:l:b:m:", longopts, NULL, print_help};
    view_opts o = {.mouse = 1};
    cli_pool_defaults(&o.pp);
    const char *pname = DEFAULT_POLICY, *bname = NULL, *mname = DEFAULT_REPLAY_MODE,
               *plname = DEFAULT_TUI_PLACER;
    int pgiven = 0, c, status;
    while ((c = cli_opt(&opts, argc, argv, &status)) >= 0) {
        switch (c) {
        case 'p':
            pname = optarg;
            pgiven = 1;
            break;
        case 'c': o.cname = optarg; break;
        case 'l': plname = optarg; break;
        case 'b': bname = optarg; break;
        case 'm': mname = optarg; break;
        case 'R': o.rname = optarg; break;
        case 'A': o.ascii = 1; break;
        case 'M': o.mono = 1; break;
        case 'N': o.mouse = 0; break;
        case CLI_OPT_TIME_LIMIT:
        case CLI_OPT_MAX_STATES:
        case CLI_OPT_MAX_MEMORY:
            if (cli_limit("view", c, optarg, &o.ctx)) return EXIT_USAGE;
            break;
        case CLI_OPT_ALPHA:
        case CLI_OPT_QUEUE_ORDER:
            if (cli_param("view", c, optarg, &o.ctx)) return EXIT_USAGE;
            break;
        case CLI_OPT_ITERATIONS:
        case CLI_OPT_SCALE:
        case CLI_OPT_SEED:
            if (cli_pool_opt("view", c, optarg, &o.pp)) return EXIT_USAGE;
            break;
        }
    }
    if (c == CLI_OPT_STOP) return status;
    if (argc - optind > 1)
        return cli_usage_error("view", "expected at most one FILE, got %d", argc - optind);
    o.file = optind < argc ? argv[optind] : NULL;
    /* What R runs: --backend (default cuda when this build has it, falling
     * back to the host when no device opens; else host) and --mode. */
    if (bname && !(o.be = cli_backend("view", bname))) return EXIT_USAGE;
    o.be_auto = !o.be; /* not named: R may fall back (replay_fallback) */
    if (!o.be) o.be = replay_backend_default();
    if ((o.mode = cli_mode("view", mname)) < 0) return EXIT_USAGE;
    if (!(o.be->modes & (1u << o.mode)))
        return cli_usage_error("view", "the %s backend has no %s mode", o.be->name,
                               replay_mode_name(o.mode));
    /* Every name given checked before any file is read (a usage error first). */
    if (o.rname && !*o.rname)
        return cli_usage_error("view", "--replay needs a file name (a saved replay)");
    if ((pgiven && !cli_policy("view", pname)) || (o.cname && !cli_policy("view", o.cname)) ||
        !(o.plc = cli_placer("view", plname)))
        return EXIT_USAGE;
    if (o.be->caps & REPLAY_CAP_NOT_BUILT) {
        cli_eprintf("memtris: --backend %s: memtris was built without %s support\n", o.be->name,
                    o.be->label);
        return EXIT_BAD;
    }
    /* A saved replay: read first (its policy is the default of -p), checked
     * against the schedule once the graph is loaded. */
    replay_result saved = {0};
    status = EXIT_BAD;
    if (o.rname) {
        char err[512];
        if (replay_load_json(o.rname, &saved, err, sizeof err)) {
            cli_eprintf("memtris: %s\n", err);
            return EXIT_BAD;
        }
        o.saved = &saved;
        if (!saved.n || !saved.policy[0]) {
            cli_eprintf("memtris: %s: %s: nothing to overlay\n", o.rname,
                        !saved.n ? "the replay has no steps" : "the replay names no policy");
            goto out;
        }
        if (!pgiven) {
            if (!policy_find(saved.policy)) {
                cli_eprintf("memtris: %s: the replay's policy '%s' is not one this memtris knows\n",
                            o.rname, saved.policy);
                goto out;
            }
            pname = saved.policy;
            o.pol_named = 1;
        } else if (policy_find(saved.policy) != policy_find(pname)) {
            cli_eprintf("memtris: %s is a replay of policy %s, not %s (drop -p, or give -p %s)\n",
                        o.rname, saved.policy, pname, saved.policy);
            goto out;
        }
    }
    status = EXIT_USAGE;
    o.pol_named |= pgiven;
    if ((o.pol = cli_policy("view", pname))) status = view_open(&o);
out:
    replay_result_free(&saved);
    return status;
}
