/* load_fast.h: the graph loader's single pass from bytes to the builder (issue 46), for good
 * input only: at the first thing it is not sure today's walk (load.c: jscan, then cJSON per
 * element) would take the same way, it gives up and load.c starts over, so every message and
 * place stays load.c's. Internal to the loader. Exports load_fast_*. */
#ifndef MEMTRIS_LOAD_FAST_H
#define MEMTRIS_LOAD_FAST_H
#include <stddef.h>
#include <stdint.h>
#include "graph_build.h"
#include "load_opts.h"

/* The window a graph file is read in. */
#define LOAD_FAST_WINDOW ((size_t)8 << 20)

/* Fills b (fresh from graph_build_init) from the graph file text[0, *len), or when text is
 * NULL from the regular file fd (at its start, *len bytes when opened) read in windows of
 * LOAD_FAST_WINDOW bytes: 0 when all of it was taken (no diag written); 1 when it gave up,
 * with b emptied and initialised again for the slow walk (which reads the file again, whole).
 * Calls opts' progress as the slow walk does. The top-level "Measured" goes to
 * *measured_peak (left alone when absent) and *measured_how (a copy, or left alone). */
int load_fast_document(graph_builder *b, const char *text, size_t *len, int fd,
                       const load_opts *opts, int64_t *measured_peak, char **measured_how);

/* For the tests that cut elements at the window's edge: the window from now on (under 64:
 * LOAD_FAST_WINDOW again). */
void load_fast_set_window(size_t bytes);

#endif
