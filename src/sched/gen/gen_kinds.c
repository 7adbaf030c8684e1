/* gen_kinds.c: the table of memtris gen's kinds, in --help's order (a new
 * kind is its file and one line here). Exports gen_kind_at, gen_kind_find. */
#include <string.h>
#include "gen_internal.h"

static const generator *const kinds[] = {
    &gen_chain, &gen_branch, &gen_alloc_heavy, &gen_huge, &gen_random, &gen_randwire,
};

#define NKINDS (sizeof kinds / sizeof kinds[0])

const gen_kind *gen_kind_at(size_t i) { return i < NKINDS ? &kinds[i]->k : NULL; }

const gen_kind *gen_kind_find(const char *name)
{
    for (size_t i = 0; i < NKINDS; i++)
        if (strcmp(kinds[i]->k.name, name) == 0) return &kinds[i]->k;
    return NULL;
}
