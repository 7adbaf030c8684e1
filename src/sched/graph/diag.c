/* diag.c: keeps formatted diagnostics, at most DIAG_KEEP_PER_CLASS of each class. */
#include "diag.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void diag_init(diag *d, const char *source)
{
    memset(d, 0, sizeof *d);
    d->source = source ? source : "<input>";
}

void diag_free(diag *d)
{
    for (size_t i = 0; i < d->nlines; i++) free(d->lines[i]);
    free(d->lines);
    free(d->severity);
    memset(d, 0, sizeof *d);
}

static void diag_push(diag *d, diag_severity sev, char *line)
{
    if (!line) return;
    if (d->nlines == d->cap) {
        size_t cap = d->cap ? d->cap * 2 : 16;
        char **l = realloc(d->lines, cap * sizeof *l);
        if (!l) {
            free(line);
            return;
        }
        d->lines = l;
        int *s = realloc(d->severity, cap * sizeof *s);
        if (!s) {
            free(line);
            return;
        }
        d->severity = s;
        d->cap = cap;
    }
    d->lines[d->nlines] = line;
    d->severity[d->nlines] = (int)sev;
    d->nlines++;
}

void diag_add(diag *d, diag_severity sev, diag_class cls, unsigned long line, unsigned long col,
              const char *fmt, ...)
{
    if (sev == DIAG_ERROR) d->nerrors++;
    else d->nwarnings++;
    d->class_sev[cls] = sev;
    if (d->per_class[cls]++ >= DIAG_KEEP_PER_CLASS) return;

    char body[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(body, sizeof body, fmt, ap);
    va_end(ap);

    char pos[64] = "";
    if (line) snprintf(pos, sizeof pos, ":%lu:%lu", line, col);
    const char *word = sev == DIAG_ERROR ? "error" : "warning";
    size_t len = strlen(d->source) + strlen(pos) + strlen(word) + strlen(body) + 8;
    char *out = malloc(len);
    if (out) snprintf(out, len, "%s%s: %s: %s", d->source, pos, word, body);
    diag_push(d, sev, out);
}

void diag_finish(diag *d)
{
    for (int c = 0; c < DC_COUNT; c++) {
        if (d->per_class[c] <= DIAG_KEEP_PER_CLASS) continue;
        size_t more = d->per_class[c] - DIAG_KEEP_PER_CLASS;
        char buf[256];
        snprintf(buf, sizeof buf, "%s: note: ... and %zu more %s%s like the above", d->source, more,
                 d->class_sev[c] == DIAG_ERROR ? "error" : "warning", more == 1 ? "" : "s");
        diag_push(d, d->class_sev[c], strdup(buf));
        d->per_class[c] = DIAG_KEEP_PER_CLASS; /* finish is idempotent */
    }
}
