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

/* Fills b (fresh from graph_build_init) from the graph file text[0, len): 0 when all of it was
 * taken (no diag written); 1 when it gave up, with b emptied and initialised again for the
 * slow walk. Calls opts' progress as the slow walk does. The top-level "Measured" goes to
 * *measured_peak (left alone when absent) and *measured_how (a copy, or left alone). */
int load_fast_document(graph_builder *b, const char *text, size_t len, const load_opts *opts,
                       int64_t *measured_peak, char **measured_how);

#endif
