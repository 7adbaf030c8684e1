/* pickle.h: Python's pickle, protocol 2, written from C: None, booleans,
 * integers (any int64_t), floats, str, and nested lists, dicts and tuples.
 * What 'plan --format memory-viz' writes PyTorch's memory snapshot with, so
 * that memtris needs no Python to write it and its integers stay exact.
 * Exports pk_*. Writes to a FILE; the caller checks ferror. */
#ifndef MEMTRIS_PICKLE_H
#define MEMTRIS_PICKLE_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The header (PROTO 2) and the end (STOP): one object between them. */
void pk_begin(FILE *f);
void pk_end(FILE *f);

void pk_none(FILE *f);
void pk_bool(FILE *f, int v);
/* BININT when v fits 32 bits, else LONG1 (two's complement, fewest bytes). */
void pk_int(FILE *f, int64_t v);
void pk_float(FILE *f, double v);
/* BINUNICODE of s (NUL-terminated); an ill-formed UTF-8 sequence becomes
 * U+FFFD, so that Python always decodes it. */
void pk_str(FILE *f, const char *s);

/* Containers: begin, the items (a dict's as key, value, key, value...), end. */
void pk_list_begin(FILE *f);
void pk_list_end(FILE *f);
void pk_dict_begin(FILE *f);
void pk_dict_end(FILE *f);
void pk_tuple_begin(FILE *f);
void pk_tuple_end(FILE *f);

/* A dict item whose value is an integer or a string: pk_str(key), then it. */
void pk_key_int(FILE *f, const char *key, int64_t v);
void pk_key_str(FILE *f, const char *key, const char *v);

#endif
