/* policy_table.c: the table of policies (POLICY_LIST, each defined in its
 * own file policy_NAME.c) and its lookups. Exports policy_at, policy_count,
 * policy_find, policy_baseline. */
#include "policy_internal.h"
#include <string.h>

/* The policies of POLICY_LIST (policy_internal.h), in its order: every
 * command, compare, the TUI, best's members and the man page's check take
 * them from here. The first is the baseline; the heuristics come before
 * best, best before exact, and the rules that weigh time too (not members of
 * best) come last. */
#define POLICY_ENTRY(name) &policy_##name,
static const policy *const policies[] = {POLICY_LIST(POLICY_ENTRY)};

size_t policy_count(void) { return sizeof policies / sizeof policies[0]; }

const policy *policy_baseline(void) { return policies[0]; }

const policy *policy_at(size_t i) { return i < policy_count() ? policies[i] : NULL; }

const policy *policy_find(const char *name)
{
    for (size_t i = 0; i < policy_count(); i++)
        if (strcmp(policies[i]->name, name) == 0) return policies[i];
    return NULL;
}
