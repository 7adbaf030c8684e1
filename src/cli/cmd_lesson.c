/* cmd_lesson.c: "memtris lesson [NAME|FILE]": a guided tour of the terminal UI, a built-in lesson
 * (samples/lessons/, compiled into the binary with the graphs they show) or a teacher's lesson
 * file, read with FILE:LINE:COLUMN errors; --list, --check. Exports cmd_lesson, cli_lesson_open. */
#define _GNU_SOURCE
#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include "util/fileio.h"
#include "cli.h"
#include "cli_cmds.h"
#include "cli_lesson.h"
#include "cli_opts.h"
#include "cli_progress.h"
#include "defaults.h"
#include "sched/graph/load.h"
#include "ui/app_lesson.h"
#include "ui/ui.h"

extern const char memtris_demo_json[];
extern const unsigned long memtris_demo_json_len;
/* lessons_builtin.c, made by CMake from samples/lessons/: the lessons and
 * the sample graphs they show, by name (NULL ends the names). */
extern const char *const memtris_lesson_names[];
extern const char *const memtris_lesson_texts[];
extern const unsigned long memtris_lesson_lens[];
extern const char *const memtris_lesson_graph_names[];
extern const char *const memtris_lesson_graph_texts[];
extern const unsigned long memtris_lesson_graph_lens[];

static void print_list(FILE *f, const char *indent);

static void print_help(void)
{
    fputs("Usage: memtris lesson [NAME|FILE] [--list] [--check] [--ascii] [--no-color]\n"
          "                      [--no-mouse]\n"
          "A guided tour of the terminal UI: a lesson is a series of stops, each a few\n"
          "sentences and the screen they speak of (the graph, the policies compared,\n"
          "the step, the panels). Space or n goes to the next stop, p to the one\n"
          "before; every key of 'memtris view' works in between (? lists them), and\n"
          "Space or n sets up the next stop's screen again. Without NAME or FILE, the\n"
          "first built-in lesson. A FILE is a lesson a teacher writes: a directive a\n"
          "line (graph, policy, compare, placer, stop, say, keys, step), see LESSON\n"
          "FILES in 'man memtris'; a FILE named like a built-in lesson is read as\n"
          "./NAME. A lesson has at most 100000 stops and 16 MiB; a key is a name\n"
          "(Enter, Left, ...) or any one UTF-8 character.\n"
          "\n"
          "  -l, --list       list the built-in lessons and exit\n"
          "      --check      read the lesson and its graph, set every stop up without\n"
          "                   the UI, report any error (FILE:LINE:COLUMN) and exit\n"
          "      --ascii      draw with ASCII only (also when the locale is not UTF-8\n"
          "                   or TERM cannot draw braille: vt100, linux, ...)\n"
          "      --no-color   monochrome (also when NO_COLOR is set)\n"
          "      --no-mouse   ignore the mouse\n"
          "  -h, --help       show this help and exit\n"
          "\n"
          "Built-in lessons:\n",
          stdout);
    print_list(stdout, "  ");
}

/* The built-in lesson called name: its index, or -1. */
static int builtin(const char *name)
{
    for (int i = 0; memtris_lesson_names[i]; i++)
        if (!strcmp(memtris_lesson_names[i], name)) return i;
    return -1;
}

static void print_list(FILE *f, const char *indent)
{
    for (int i = 0; memtris_lesson_names[i]; i++) {
        lesson ls;
        diag d;
        diag_init(&d, memtris_lesson_names[i]);
        lesson_parse(memtris_lesson_texts[i], memtris_lesson_lens[i], &ls, &d);
        fprintf(f, "%s%-18s %s (%zu stop%s)\n", indent, memtris_lesson_names[i], ls.title,
                ls.nstops, ls.nstops == 1 ? "" : "s");
        lesson_free(&ls);
        diag_free(&d);
    }
}

static void print_diag(diag *d)
{
    diag_finish(d);
    for (size_t i = 0; i < d->nlines; i++) cli_eprintf("%s\n", d->lines[i]);
}

/* The graph of a built-in lesson ("../demo.json": a sample compiled in). */
static graph *builtin_graph(const lesson *ls, diag *d)
{
    const char *base = strrchr(ls->graph, '/') ? strrchr(ls->graph, '/') + 1 : ls->graph;
    const char *text = NULL;
    unsigned long len = 0;
    if (!strcmp(base, "demo.json")) {
        text = memtris_demo_json;
        len = memtris_demo_json_len;
    }
    for (int i = 0; !text && memtris_lesson_graph_names[i]; i++)
        if (!strcmp(memtris_lesson_graph_names[i], base)) {
            text = memtris_lesson_graph_texts[i];
            len = memtris_lesson_graph_lens[i];
        }
    if (!text) {
        diag_add(d, DIAG_ERROR, DC_FIELD, ls->graph_line, ls->graph_col,
                 "no graph '%s' is built in", ls->graph);
        return NULL;
    }
    diag gd;
    diag_init(&gd, base);
    graph *g = load_buffer(text, len, base, &gd, NULL, NULL);
    print_diag(&gd);
    diag_free(&gd);
    return g;
}

/* The graph of a lesson file: its path relative to the file's folder. */
static graph *file_graph(const char *file, const lesson *ls, diag *d)
{
    char path[4096];
    const char *slash = strcmp(file, "-") ? strrchr(file, '/') : NULL;
    if (ls->graph[0] == '/' || !slash) snprintf(path, sizeof path, "%s", ls->graph);
    else snprintf(path, sizeof path, "%.*s/%s", (int)(slash - file), file, ls->graph);
    graph *g = cli_load(path, 0);
    if (!g)
        diag_add(d, DIAG_ERROR, DC_FIELD, ls->graph_line, ls->graph_col,
                 "the lesson's graph '%s' did not load (said above)", path);
    return g;
}

graph *cli_lesson_open(const char *arg, lesson *ls, char *source, size_t cap)
{
    int b = builtin(arg);
    fileio_text t = {0};
    if (b >= 0) {
        snprintf(source, cap, "%s (built in)", arg);
        t.text = memtris_lesson_texts[b];
        t.len = memtris_lesson_lens[b];
    } else {
        char why[256];
        snprintf(source, cap, "%s", strcmp(arg, "-") ? arg : "<stdin>");
        if (fileio_read(arg, 0, &t, why, sizeof why) != FILEIO_OK) {
            cli_eprintf("memtris lesson: %s: %s (the built-in lessons: memtris lesson --list)\n",
                        source, why);
            memset(ls, 0, sizeof *ls);
            return NULL;
        }
    }
    diag d;
    diag_init(&d, source);
    graph *g = NULL;
    if (lesson_parse(t.text, t.len, ls, &d) == 0) {
        g = b >= 0 ? builtin_graph(ls, &d) : file_graph(arg, ls, &d);
        if (g && lesson_check(ls, g, &d)) {
            graph_free(g);
            g = NULL;
        }
    }
    print_diag(&d);
    diag_free(&d);
    fileio_release(&t);
    return g;
}

typedef struct lesson_opts {
    int ascii, mono, mouse, check;
} lesson_opts;

/* --check: every stop set up without the UI, with a progress line on a
 * terminal (cli_progress draws it at most ten times a second). */
static int check_stops(app *a, const char *source)
{
    for (size_t i = 0; i < a->lesson->nstops; i++) {
        cli_progress("lesson --check: stop %zu of %zu", i + 1, a->lesson->nstops);
        if (app_lesson_go(a, i) & APP_QUIT) {
            cli_eprintf("%s: error: stop %zu cannot be set up: %s\n", source, i + 1, a->err);
            return EXIT_BAD;
        }
    }
    size_t n = a->lesson->nstops;
    cli_progress_clear();
    printf("%s: %zu stop%s on %s (%u nodes): ok\n", source, n, n == 1 ? "" : "s", a->lesson->graph,
           (a->bud.on ? a->bud.g : a->g)->n); /* the lesson's graph, not a budget's plan */
    return EXIT_OK;
}

static int run_lesson(const lesson_opts *o, const char *arg)
{
    lesson ls;
    char source[512];
    graph *g = cli_lesson_open(arg, &ls, source, sizeof source);
    if (!g) {
        lesson_free(&ls);
        return EXIT_BAD;
    }
    char why[128];
    int status = EXIT_BAD;
    if (!o->check && ui_check_terminal(why, sizeof why)) {
        cli_eprintf("memtris: cannot open the terminal UI: %s.\n"
                    "'memtris lesson --check %s' reads the lesson without it.\n",
                    why, arg);
        goto out;
    }
    const lesson_stop *s = &ls.stops[0];
    app a;
    if (app_init(&a, g, ls.graph, s->pol, s->cmp ? s->cmp : policy_find(DEFAULT_COMPARE_POLICY), 0,
                 s->plc, NULL)) {
        cli_eprintf("%s: error: %s\n", source, a.err);
        app_free(&a);
        goto out;
    }
    a.lesson = &ls;
    if (o->check) status = check_stops(&a, source);
    else {
        setlocale(LC_ALL, "");
        const char *nc = getenv("NO_COLOR");
        a.utf8 = ui_draws_utf8(o->ascii);
        a.mono = o->mono || (nc && *nc);
        a.mouse = o->mouse;
        if (app_lesson_go(&a, 0) & APP_QUIT) cli_eprintf("%s: error: %s\n", source, a.err);
        else status = ui_run(&a);
        if (!a.lesson) { /* a stop could not be set up: the app was made again and failed */
            cli_eprintf("%s: error: %s\n", source, a.err);
            status = EXIT_BAD;
        }
    }
    app_free(&a);
out:
    graph_free(g);
    lesson_free(&ls);
    return status;
}

int cmd_lesson(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"list", no_argument, 0, 'l'},     {"check", no_argument, 0, 'C'},
        {"ascii", no_argument, 0, 'A'},    {"no-color", no_argument, 0, 'M'},
        {"no-mouse", no_argument, 0, 'N'}, {0, 0, 0, 0},
    };
    static const cli_opts opts = {"lesson", "l", longopts, NULL, print_help};
    lesson_opts o = {.mouse = 1};
    int c, status, list = 0;
    while ((c = cli_opt(&opts, argc, argv, &status)) >= 0) {
        switch (c) {
        case 'l': list = 1; break;
        case 'C': o.check = 1; break;
        case 'A': o.ascii = 1; break;
        case 'M': o.mono = 1; break;
        case 'N': o.mouse = 0; break;
        }
    }
    if (c == CLI_OPT_STOP) return status;
    if (argc - optind > 1)
        return cli_usage_error("lesson", "expected at most one NAME or FILE, got %d",
                               argc - optind);
    if (list) {
        if (argc - optind) return cli_usage_error("lesson", "--list takes no NAME or FILE");
        print_list(stdout, "");
        return EXIT_OK;
    }
    return run_lesson(&o, optind < argc ? argv[optind] : memtris_lesson_names[0]);
}
