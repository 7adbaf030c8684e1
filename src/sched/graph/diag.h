/* diag.h: diagnostics (errors and warnings) collected by the loader and the
 * core, formatted as "FILE[:LINE:COL]: error: text" for the CLI to print. */
#ifndef MEMTRIS_DIAG_H
#define MEMTRIS_DIAG_H
#include <stddef.h>

typedef enum { DIAG_ERROR, DIAG_WARNING } diag_severity;

/* Classes group repeated diagnostics so a graph with 100k leaks prints a few
 * and a count, not 100k lines. */
typedef enum {
    DC_SYNTAX,
    DC_FIELD,
    DC_DUP_ID,
    DC_EDGE,
    DC_DUP_EDGE,
    DC_BUFFER,
    DC_CYCLE,
    DC_ORDER,
    DC_LEAK,
    DC_INPUTS,
    DC_SIZE_MISMATCH,
    DC_LIMIT,
    DC_OTHER,
    DC_COUNT
} diag_class;

#define DIAG_KEEP_PER_CLASS 10

typedef struct diag {
    const char *source; /* file name shown in messages ("<stdin>" for -) */
    char **lines;       /* kept messages, formatted */
    int *severity;
    size_t nlines, cap;
    size_t nerrors, nwarnings;
    size_t per_class[DC_COUNT];        /* how many of each class were reported */
    diag_severity class_sev[DC_COUNT]; /* severity of each class's last report */
} diag;

void diag_init(diag *d, const char *source);
void diag_free(diag *d);
/* line/col are 1-based; 0 means "no position". */
void diag_add(diag *d, diag_severity sev, diag_class cls, unsigned long line, unsigned long col,
              const char *fmt, ...) __attribute__((format(printf, 6, 7)));
/* Appends "... and N more" lines for classes that overflowed their quota. */
void diag_finish(diag *d);

#endif
