/* cli_opts.c: the option handling every subcommand shares: the end of its option
 * switch (-h, -V, a missing value, an unknown option), the FILE operand, --format
 * and the output file (-o, --svg): checked before any work, then written whole or
 * not at all. Exports cli_opt, cli_file, cli_format, cli_out_*. */
#include "cli_opts.h"
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli.h"

int cli_opt(const cli_opts *o, int argc, char **argv, int *status)
{
    /* The command's options and the two every command takes. */
    char shortopts[64];
    struct option longopts[CLI_MAX_OPTS + 3];
    size_t n = 0;
    snprintf(shortopts, sizeof shortopts, ":%shV", o->shortopts);
    for (; o->longopts && o->longopts[n].name && n < CLI_MAX_OPTS; n++)
        longopts[n] = o->longopts[n];
    assert(!o->longopts || !o->longopts[n].name); /* more than CLI_MAX_OPTS: raise it */
    longopts[n++] = (struct option){"help", no_argument, 0, 'h'};
    longopts[n++] = (struct option){"version", no_argument, 0, 'V'};
    longopts[n] = (struct option){0, 0, 0, 0};
    opterr = 0;
    int c = getopt_long(argc, argv, shortopts, longopts, NULL);
    switch (c) {
    case -1: return CLI_OPT_END;
    case 'h':
        if (o->print_help) o->print_help();
        else fputs(o->help, stdout);
        *status = EXIT_OK;
        return CLI_OPT_STOP;
    case 'V': *status = cli_version(); return CLI_OPT_STOP;
    case ':':
        *status = cli_usage_error(o->cmd, "option '%s' needs a value", argv[optind - 1]);
        return CLI_OPT_STOP;
    case '?':
        *status = cli_usage_error(o->cmd, "unknown option '%s'", argv[optind - 1]);
        return CLI_OPT_STOP;
    default: return c;
    }
}

const char *cli_file(const char *cmd, int argc, char **argv)
{
    if (optind == argc - 1) return argv[optind];
    cli_usage_error(cmd, optind == argc ? "missing FILE" : "expected one FILE, got %d",
                    argc - optind);
    return NULL;
}

static const char *const format_names[CLI_NFORMATS] = {"text", "json", "csv", "minimalloc",
                                                       "memory-viz"};

int cli_format(const char *cmd, const char *name, unsigned formats)
{
    int n = 0;
    for (int i = 0; i < CLI_NFORMATS; i++) {
        if (!(formats & (1u << i))) continue;
        if (!strcmp(name, format_names[i])) return i;
        n++;
    }
    /* "text, json or csv", "text or json" */
    char known[64] = "";
    for (int i = 0, k = 0; i < CLI_NFORMATS; i++) {
        if (!(formats & (1u << i))) continue;
        k++;
        snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s",
                 k == 1   ? ""
                 : k == n ? " or "
                          : ", ",
                 format_names[i]);
    }
    cli_usage_error(cmd, "unknown format '%s' (%s)", name, known);
    return -1;
}

int cli_out_open(cli_out *o, const char *cmd, const char *path)
{
    *o = (cli_out){.f = stdout, .cmd = cmd, .stdout_name = "'standard output'"};
    if (path && strcmp(path, "-")) {
        o->path = path;
        if (atomic_out_open(&o->file, path)) {
            cli_eprintf("memtris %s: cannot open '%s' for writing: %s\n", cmd, path,
                        strerror(errno));
            return EXIT_BAD;
        }
        o->f = o->file.f;
    }
    errno = 0;
    return EXIT_OK;
}

int cli_out_close(cli_out *o, int write_errno)
{
    int e = write_errno;
    if (!o->path) {
        if (!e && (fflush(o->f) || ferror(o->f))) e = errno ? errno : EIO;
    } else if (e) atomic_out_abandon(&o->file); /* said below, whatever the close says */
    else if (atomic_out_commit(&o->file)) e = errno ? errno : EIO;
    if (!e) return EXIT_OK;
    if (o->path) cli_eprintf("memtris %s: error writing '%s': %s\n", o->cmd, o->path, strerror(e));
    else cli_eprintf("memtris %s: error writing %s: %s\n", o->cmd, o->stdout_name, strerror(e));
    return EXIT_BAD;
}

void cli_out_abandon(cli_out *o)
{
    if (o->path) atomic_out_abandon(&o->file);
}

int cli_out_check(const char *cmd, const char *opt, const char *path)
{
    if (!path || !strcmp(path, "-")) return EXIT_OK;
    if (!*path) return cli_usage_error(cmd, "%s needs a file name ('-' for standard output)", opt);
    int e = atomic_out_refusal(path);
    if (!e) return EXIT_OK;
    cli_eprintf("memtris %s: cannot open '%s' for writing: %s\n", cmd, path, strerror(e));
    return EXIT_BAD;
}
