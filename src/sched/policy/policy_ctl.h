/* policy_ctl.h: watching exact's search from another thread (the TUI's): its
 * progress, and a request that it stop (policy_exact.c). Apart from policy.h
 * because this needs C11 atomics. */
#ifndef MEMTRIS_POLICY_CTL_H
#define MEMTRIS_POLICY_CTL_H
#include <stdatomic.h>
#include <stdint.h>

typedef struct policy_ctl {
    _Atomic int cancel;            /* set by the watcher: the search stops soon and fails */
    _Atomic uint64_t states;       /* set by the search: states kept so far */
    _Atomic long long best, bound; /* the best peak found and the proven bound, bytes */
} policy_ctl;
/* Binds ctl to the searches this thread runs next (NULL: none). */
void policy_ctl_bind(policy_ctl *ctl);
/* This thread's binding, or NULL. */
policy_ctl *policy_ctl_now(void);

#endif
