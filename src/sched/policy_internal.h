/* policy_internal.h: what each policy's file gives the table in policy.c: a
 * key function and a why function (see policy.h's struct policy). */
#ifndef MEMTRIS_POLICY_INTERNAL_H
#define MEMTRIS_POLICY_INTERNAL_H
#include <stddef.h>
#include <stdint.h>
#include "policy.h"

void policy_key_fifo(const graph *g, uint32_t i, uint32_t seq, int64_t k[3]);
void policy_why_fifo(const graph *g, const run *r, uint32_t u, uint32_t v, uint32_t nready,
                     char *out, size_t cap);
void policy_key_priority(const graph *g, uint32_t i, uint32_t seq, int64_t k[3]);
void policy_why_priority(const graph *g, const run *r, uint32_t u, uint32_t v, uint32_t nready,
                         char *out, size_t cap);

#endif
