/* load.h: reads a graph from JSON (a file, "-" for standard input, or a
 * buffer), validates it and builds the compact graph. Exports load_*. */
#ifndef MEMTRIS_LOAD_H
#define MEMTRIS_LOAD_H
#include <stddef.h>
#include <stdint.h>
#include "diag.h"
#include "graph.h"
#include "load_opts.h"

/* The most nodes (and buffers) the loader takes: all a graph holds. */
#define LOAD_MAX_NODES GRAPH_MAX_NODES

/* Timings of the phases, for the benchmark (seconds). */
typedef struct load_stats {
    double syntax_s; /* the strict JSON syntax check (jscan) */
    double parse_s; /* inside cJSON (parse and delete, sampled), or the single pass (load_fast.c) */
    double build_s; /* everything else: fields, maps, CSR, validation */
    size_t bytes;
} load_stats;

/* Each returns the graph, or NULL with at least one error in d. Warnings go
 * to d as well. opts and stats may be NULL. load_file reads a regular file in
 * windows of a few MB (the graph plus a constant in memory), and reads it
 * whole, as a pipe or standard input always is, only when the file is bad or
 * unusual (see load_fast.h), or changed while it was read. */
graph *load_file(const char *path, diag *d, const load_opts *opts, load_stats *stats);
graph *load_buffer(const char *buf, size_t len, const char *source, diag *d, const load_opts *opts,
                   load_stats *stats);

#endif
