/* gen_kinds.c: the table of memtris gen's kinds, GEN_LIST's (gen_internal.h)
 * in --help's order. Exports gen_kind_at, gen_kind_find. */
#include <string.h>
#include "gen_internal.h"

#define GEN_ENTRY(name) &gen_##name,
static const generator *const kinds[] = {GEN_LIST(GEN_ENTRY)};

#define NKINDS (sizeof kinds / sizeof kinds[0])

const gen_kind *gen_kind_at(size_t i) { return i < NKINDS ? &kinds[i]->k : NULL; }

const gen_kind *gen_kind_find(const char *name)
{
    for (size_t i = 0; i < NKINDS; i++)
        if (strcmp(kinds[i]->k.name, name) == 0) return &kinds[i]->k;
    return NULL;
}
