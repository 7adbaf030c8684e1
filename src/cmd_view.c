/* cmd_view.c: "memtris [view] [FILE]": opens the TUI on a graph, or on the
 * built-in demo graph when no FILE is given. */
#define _GNU_SOURCE
#include <getopt.h>
#include <langinfo.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "sched/load.h"
#include "sched/place.h"
#include "ui/ui.h"

extern const char memtris_demo_json[];
extern const unsigned long memtris_demo_json_len;

static const char help[] =
    "Usage: memtris [view] [FILE] [--policy NAME] [--compare NAME] [--placer NAME] [--ascii] [--no-color]\n"
    "                      [--no-mouse]\n"
    "Open the terminal UI: step through the schedule one heap pop at a time and\n"
    "watch the ready queue, the live memory curve and the buffers in the arena.\n"
    "Without FILE, a built-in demo graph (a small CNN block) is shown.\n"
    "\n"
    "  -p, --policy NAME    the stepped policy (default priority)\n"
    "  -c, --compare NAME   start in compare mode against NAME (default side: fifo)\n"
    "  -l, --placer NAME    the arena panel's placer (default first-fit; the a key cycles)\n"
    "      --ascii          draw with ASCII only (also when the locale is not UTF-8)\n"
    "      --no-color       monochrome (also when NO_COLOR is set)\n"
    "      --no-mouse       ignore the mouse\n"
    "  -h, --help           show this help and exit\n"
    "\n"
    "Press ? in the UI for the keys. For text output use 'memtris schedule' or\n"
    "'memtris compare'.\n";

static void show_progress(void *ctx, size_t done, size_t total)
{
    const char *name = ctx;
    if (total) fprintf(stderr, "\rloading %s: %3zu%%", name, done * 100 / total);
    if (done >= total) fprintf(stderr, "\rloading %s: done, checking the graph...\n", name);
}

int cmd_view(int argc, char **argv)
{
    static const struct option opts[] = {
        {"policy", required_argument, 0, 'p'}, {"compare", required_argument, 0, 'c'},
        {"placer", required_argument, 0, 'l'},
        {"ascii", no_argument, 0, 'A'},        {"no-color", no_argument, 0, 'M'},
        {"no-mouse", no_argument, 0, 'N'},     {"help", no_argument, 0, 'h'}, {"version", no_argument, 0, 'V'},
        {0, 0, 0, 0},
    };
    const char *pname = "priority", *cname = NULL, *plname = "first-fit";
    int ascii = 0, mono = 0, mouse = 1, c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":p:c:l:hV", opts, NULL)) != -1) {
        switch (c) {
        case 'p': pname = optarg; break;
        case 'c': cname = optarg; break;
        case 'l': plname = optarg; break;
        case 'A': ascii = 1; break;
        case 'M': mono = 1; break;
        case 'N': mouse = 0; break;
        case 'h': fputs(help, stdout); return EXIT_OK;
        case 'V': return cli_version();
        case ':': return cli_usage_error("view", "option '%s' needs a value", argv[optind - 1]);
        default: return cli_usage_error("view", "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (argc - optind > 1) return cli_usage_error("view", "expected at most one FILE, got %d", argc - optind);
    const policy *pol = cli_policy(pname);
    if (!pol) return EXIT_USAGE;
    const policy *cmp = cli_policy(cname ? cname : "fifo");
    if (!cmp) return EXIT_USAGE;
    if (cmp == pol) {
        for (size_t i = 0; policy_at(i); i++)
            if (policy_at(i) != pol) { cmp = policy_at(i); break; }
        if (cname) return cli_usage_error("view", "--compare needs a policy other than %s", pol->name);
    }
    const placer *plc = placer_find(plname);
    if (!plc) {
        fprintf(stderr, "memtris: unknown placer '%s'; known placers:", plname);
        for (size_t i = 0; placer_at(i); i++) fprintf(stderr, " %s", placer_at(i)->name);
        fprintf(stderr, "\n");
        return EXIT_USAGE;
    }
    char why[128];
    if (ui_check_terminal(why, sizeof why)) {
        fprintf(stderr, "memtris: cannot open the terminal UI: %s.\n"
                        "For text output use 'memtris schedule FILE' or 'memtris compare FILE'.\n", why);
        return EXIT_BAD;
    }

    setlocale(LC_ALL, "");
    int utf8 = !ascii && strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
    const char *nc = getenv("NO_COLOR");
    if (nc && *nc) mono = 1;

    const char *file = optind < argc ? argv[optind] : NULL;
    const char *title = file ? (strcmp(file, "-") ? file : "<stdin>") : "demo (built in)";
    diag d;
    diag_init(&d, title);
    load_opts lo = {show_progress, (void *)title};
    graph *g = file ? load_file(file, &d, isatty(STDERR_FILENO) ? &lo : NULL, NULL)
                    : load_buffer(memtris_demo_json, memtris_demo_json_len, title, &d, NULL, NULL);
    for (size_t i = 0; i < d.nlines; i++) fprintf(stderr, "%s\n", d.lines[i]);
    diag_free(&d);
    if (!g) return EXIT_BAD;

    app a;
    if (app_init(&a, g, title, pol, cmp, cname != NULL, plc)) {
        fprintf(stderr, "%s: error: %s\n", title, a.err);
        app_free(&a);
        graph_free(g);
        return EXIT_BAD;
    }
    a.utf8 = utf8;
    a.mono = mono;
    a.mouse = mouse;
    int status = ui_run(&a);
    app_free(&a);
    graph_free(g);
    return status;
}
