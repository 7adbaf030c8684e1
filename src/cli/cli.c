/* cli.c: what the subcommands share besides their options: loading with
 * diagnostics, lookups of policies, placers, backends and modes with their
 * usage errors, placing with the plan checked, CSV fields. */
#include "cli.h"
#include "cli_progress.h"
#include "cli_sigint.h"
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "gpu/replay.h"
#include "sched/graph/load.h"
#include "util/utf8.h"

/* The loader's progress: "loading NAME: 42%", then the checks. */
static void load_progress(void *ctx, size_t done, size_t total)
{
    if (done < total) cli_progress_path("loading ", ctx, ": %zu%%", done * 100 / total);
    else cli_progress_path("loading ", ctx, ": checking the graph...");
}

graph *cli_load_diag(const char *path, int quiet_warnings, diag *d)
{
    diag_init(d, strcmp(path, "-") == 0 ? "<stdin>" : path);
    load_opts lo = {load_progress, (void *)(uintptr_t)d->source, 0, 0};
    graph *g = load_file(path, d, cli_progress_on() ? &lo : NULL, NULL);
    cli_progress_clear();
    for (size_t i = 0; i < d->nlines; i++)
        if (d->severity[i] == DIAG_ERROR || !quiet_warnings) cli_eprintf("%s\n", d->lines[i]);
    return g;
}

graph *cli_load(const char *path, int quiet_warnings)
{
    diag d;
    graph *g = cli_load_diag(path, quiet_warnings, &d);
    diag_free(&d);
    return g;
}

#ifndef MEMTRIS_VERSION
#define MEMTRIS_VERSION "unknown"
#endif

int cli_version(void)
{
    printf("memtris %s\n", MEMTRIS_VERSION);
    return EXIT_OK;
}

const policy *cli_policy(const char *cmd, const char *name)
{
    const policy *p = policy_find(name);
    if (p) return p;
    char known[256] = "";
    for (size_t i = 0; policy_at(i); i++)
        snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s", i ? ", " : "",
                 policy_at(i)->name);
    cli_usage_error(cmd, "unknown policy '%s' (known: %s)", name, known);
    return NULL;
}

void cli_placer_list(FILE *f)
{
    for (size_t i = 0; placer_at(i); i++) fprintf(f, "%s%s", i ? ", " : "", placer_at(i)->name);
}

const placer *cli_placer(const char *cmd, const char *name)
{
    const placer *p = placer_find(name);
    if (p) return p;
    char known[512] = "";
    for (size_t i = 0; placer_at(i); i++)
        snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s", i ? ", " : "",
                 placer_at(i)->name);
    cli_usage_error(cmd, "unknown placer '%s' (known: %s)", name, known);
    return NULL;
}

const replay_backend *cli_backend(const char *cmd, const char *name)
{
    const replay_backend *b = replay_backend_find(name);
    if (b) return b;
    char known[128] = "";
    for (size_t i = 0; replay_backend_at(i); i++)
        snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s", i ? ", " : "",
                 replay_backend_at(i)->name);
    cli_usage_error(cmd, "unknown backend '%s' (%s)", name, known);
    return NULL;
}

int cli_mode(const char *cmd, const char *name)
{
    int mode = replay_mode_find(name);
    if (mode >= 0) return mode;
    char known[128] = "";
    for (int m = 0; m < REPLAY_NMODES; m++)
        snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s", m ? ", " : "",
                 replay_mode_name(m));
    cli_usage_error(cmd, "unknown mode '%s' (%s)", name, known);
    return -1;
}

int cli_place(const char *cmd, const graph *g, const run *r, const policy *pol, const placer *p,
              int64_t align, const solve_ctx *c, placement *pl)
{
    char err[8192]; /* room for a path as the graph's name and the checker's words */
    solve_ctx s = cli_search_begin(c);
    int rc = place_run_checked(g, r, p, align, &s, pl, err, sizeof err);
    cli_search_end(rc != PLACE_OK);
    switch (rc) {
    case PLACE_OK: return 0;
    case PLACE_INVALID: /* a bug in the placer: the schedule it was given, too */
        cli_eprintf("memtris %s: %s%s%s%s\n", cmd, err, pol ? " (schedule of policy " : "",
                    pol ? pol->name : "", pol ? ")" : "");
        return EXIT_BAD;
    default: cli_eprintf("%s: error: %s\n", g->source, err); return EXIT_BAD;
    }
}

int cli_align(const char *cmd, const char *arg, int64_t *align)
{
    int64_t v = 0;
    const char *s = arg;
    for (; *s >= '0' && *s <= '9' && v <= CLI_ALIGN_MAX; s++) v = v * 10 + (*s - '0');
    if (!*arg || *s || v < 1 || v > CLI_ALIGN_MAX || (v & (v - 1))) {
        cli_usage_error(cmd, "--align wants a power of two from 1 to %lld, not '%s'",
                        (long long)CLI_ALIGN_MAX, arg);
        return -1;
    }
    *align = v;
    return 0;
}

/* vsnprintf into buf, or into memory of its own when it does not fit there
 * (NULL when there is none); *own: that memory, to free. */
__attribute__((format(printf, 4, 0))) static char *vformat(char *buf, size_t cap, char **own,
                                                           const char *fmt, va_list ap)
{
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(buf, cap, fmt, ap);
    *own = NULL;
    if (n >= 0 && (size_t)n >= cap && (*own = malloc((size_t)n + 1)))
        vsnprintf(*own, (size_t)n + 1, fmt, again);
    va_end(again);
    return n < 0 ? NULL : *own ? *own : buf; /* cut short when out of memory */
}

__attribute__((format(printf, 1, 0))) static void eprintv(const char *fmt, va_list ap)
{
    char buf[1024], *own;
    cli_progress_clear(); /* a message starts on its own line */
    const char *s = vformat(buf, sizeof buf, &own, fmt, ap);
    if (s) utf8_fputs_printable(s, stderr, 1);
    free(own);
}

void cli_eprintf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    eprintv(fmt, ap);
    va_end(ap);
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cli_eprintf("memtris %s: ", cmd);
    eprintv(fmt, ap);
    cli_eprintf("\nTry 'memtris %s --help' for more information.\n", cmd);
    va_end(ap);
    return EXIT_USAGE;
}

void cli_csv_field(FILE *f, const char *s)
{
    /* made printable first: no control byte, a line break neither, is left */
    if (!strpbrk(s, ",\"")) {
        utf8_fputs_printable(s, f, 0);
        return;
    }
    fputc('"', f);
    for (const char *q; (q = strchr(s, '"')); s = q + 1) { /* a quote is a character */
        utf8_fwrite_printable(s, (size_t)(q - s), f, 0);
        fputs("\"\"", f);
    }
    utf8_fputs_printable(s, f, 0);
    fputc('"', f);
}
