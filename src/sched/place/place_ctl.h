/* place_ctl.h: watching a placement from another thread (the TUI's): what
 * the placer is doing, and a request that it stop (place.c). Apart from
 * place.h, which C++ (CUDA) code includes: this needs C11 atomics. */
#ifndef MEMTRIS_PLACE_CTL_H
#define MEMTRIS_PLACE_CTL_H
#include <stdatomic.h>
#include <stdint.h>

typedef struct place_ctl {
    _Atomic int cancel;            /* set by the watcher: the placement stops soon and fails */
    const char *_Atomic doing;     /* set by the placers: a placer's name, "the hill-climb" */
    _Atomic uint64_t states;       /* set by exact's search: nodes visited so far */
    _Atomic long long best, bound; /* its smallest arena found and proven bound (0: none) */
} place_ctl;
/* Binds ctl to the placements this thread runs next (NULL: none). */
void place_ctl_bind(place_ctl *ctl);
/* This thread's binding, or NULL (for a thread the placement starts). */
place_ctl *place_ctl_now(void);
/* Whether this thread's placement was asked to stop. */
int place_cancel_asked(void);
/* Says what the placement does now (a static string), for the watcher. */
void place_doing(const char *what);
/* Says how exact's search stands, for the watcher. */
void place_progress(uint64_t states, int64_t best, int64_t bound);

#endif
