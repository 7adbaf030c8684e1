/* replay_iter.h: iterate's pools for real: each pool's allocations and frees,
 * as pool_simulate says, performed on a replay backend, with the memory read
 * after every iteration. Exports replay_iterate. */
#ifndef MEMTRIS_REPLAY_ITER_H
#define MEMTRIS_REPLAY_ITER_H
#include "replay.h"
#include "sched/time/pool.h"

/* Runs every pool of s (from pool_simulate on run r of g) on backend be, one
 * pool after the other, each on a freshly opened device: static and elastic
 * hold one arena (given back and allocated again at each grow or shrink),
 * written up to the iteration's need; size-class allocates each new block
 * and writes it once. Fills s->pt[*][i].measured (the reading after
 * iteration i minus the one taken at the pool's start), sets s->measured and
 * the totals, and *info with what the device says. 0; -1 with err set (a
 * failed step names the pool and the iteration), and *unavailable = 1 when
 * the device could not be opened (err is then "NAME backend: why", as
 * replay_run says it). */
int replay_iterate(const graph *g, const run *r, const replay_backend *be, pool_sim *s,
                   replay_info *info, int *unavailable, char *err, size_t errcap);

#endif
