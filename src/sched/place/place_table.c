/* place_table.c: the table of placers (PLACER_LIST, each defined in the file
 * of its family) and its lookups. Exports placer_at, placer_count,
 * placer_find. */
#include "place_internal.h"
#include <string.h>

/* The placers of PLACER_LIST (place_internal.h), in its order: every
 * command, --placers all, the TUI's arena panel and best (which tries those
 * marked in_best) take them from here. */
#define PLACER_ENTRY(name) &placer_##name,
static const placer *const placers[] = {PLACER_LIST(PLACER_ENTRY)};

size_t placer_count(void) { return sizeof placers / sizeof placers[0]; }

const placer *placer_at(size_t i) { return i < placer_count() ? placers[i] : NULL; }

const placer *placer_find(const char *name)
{
    for (size_t i = 0; i < placer_count(); i++)
        if (strcmp(placers[i]->name, name) == 0) return placers[i];
    return NULL;
}
