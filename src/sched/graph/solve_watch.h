/* solve_watch.h: a solver watched from another thread (the TUI's): what it
 * does, how its search stands, and a request that it stop. Apart from
 * solve.h, which C++ (CUDA) code includes: this needs C11 atomics. */
#ifndef MEMTRIS_SOLVE_WATCH_H
#define MEMTRIS_SOLVE_WATCH_H
#include <stdatomic.h>
#include <stdint.h>

typedef struct solve_watch {
    _Atomic int cancel;            /* set by the watcher: the solver stops soon */
    const char *_Atomic doing;     /* set by the solver: "exact's search", "the hill-climb" */
    _Atomic uint64_t states;       /* set by a search: states so far */
    _Atomic long long best, bound; /* its best answer and proven bound, bytes (0: none) */
} solve_watch;

#endif
