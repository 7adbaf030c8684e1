/* cli.c: loading with diagnostics, policy lookup and output escaping for the
 * subcommands. */
#include "cli.h"
#include <sys/stat.h>
#include <stdarg.h>
#include <string.h>
#include "sched/load.h"

graph *cli_load(const char *path, int quiet_warnings)
{
    diag d;
    diag_init(&d, strcmp(path, "-") == 0 ? "<stdin>" : path);
    graph *g = load_file(path, &d, NULL, NULL);
    for (size_t i = 0; i < d.nlines; i++)
        if (d.severity[i] == DIAG_ERROR || !quiet_warnings) fprintf(stderr, "%s\n", d.lines[i]);
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

const policy *cli_policy(const char *name)
{
    const policy *p = policy_find(name);
    if (p) return p;
    fprintf(stderr, "memtris: unknown policy '%s'; known policies:", name);
    for (size_t i = 0; policy_at(i); i++) fprintf(stderr, " %s", policy_at(i)->name);
    fprintf(stderr, "\n");
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
    fprintf(stderr, "memtris %s: unknown placer '%s'; known placers: ", cmd, name);
    cli_placer_list(stderr);
    fprintf(stderr, "\nTry 'memtris %s --help'.\n", cmd);
    return NULL;
}

int cli_align(const char *cmd, const char *arg, int64_t *align)
{
    int64_t v = 0;
    const char *s = arg;
    for (; *s >= '0' && *s <= '9' && v <= CLI_ALIGN_MAX; s++) v = v * 10 + (*s - '0');
    if (!*arg || *s || v < 1 || v > CLI_ALIGN_MAX || (v & (v - 1))) {
        cli_usage_error(cmd, "--align wants a power of two from 1 to %lld, not '%s'", (long long)CLI_ALIGN_MAX,
                        arg);
        return -1;
    }
    *align = v;
    return 0;
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "memtris %s: ", cmd);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\nTry 'memtris %s --help'.\n", cmd);
    va_end(ap);
    return EXIT_USAGE;
}

void cli_csv_field(FILE *f, const char *s)
{
    if (!strpbrk(s, ",\"\n\r")) { fputs(s, f); return; }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"') fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

void cli_remove_partial(const char *path)
{
    struct stat st;
    if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) remove(path);
}
