/* budget_solvers.c: the table of a memory budget's solvers (BUDGET_SOLVER_LIST, each defined in
 * its own file) and its lookups. Exports budget_solver_count, budget_solver_at and
 * budget_solver_find. */
#include <string.h>
#include "budget.h"

/* The solvers of BUDGET_SOLVER_LIST (budget.h), in its order: memtris budget's --solver, its
 * help and errors, the TUI, what-if and best take them from here. */
#define BUDGET_SOLVER_ENTRY(name) &budget_solver_##name,
static const budget_solver *const solvers[] = {BUDGET_SOLVER_LIST(BUDGET_SOLVER_ENTRY)};

size_t budget_solver_count(void) { return sizeof solvers / sizeof solvers[0]; }

const budget_solver *budget_solver_at(size_t i)
{
    return i < budget_solver_count() ? solvers[i] : NULL;
}

const budget_solver *budget_solver_find(const char *name)
{
    for (size_t i = 0; i < budget_solver_count(); i++)
        if (!strcmp(solvers[i]->name, name)) return solvers[i];
    return NULL;
}
