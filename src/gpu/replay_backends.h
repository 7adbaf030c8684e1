/* replay_backends.h: the backends of the table in replay_backends.c, one
 * file each (replay_host.c, replay_cuda.cu or replay_nocuda.c). */
#ifndef MEMTRIS_REPLAY_BACKENDS_H
#define MEMTRIS_REPLAY_BACKENDS_H
#include "replay.h"

#ifdef __cplusplus
extern "C" {
#endif
extern const replay_backend replay_host_backend;
extern const replay_backend replay_cuda_backend;
#ifdef __cplusplus
}
#endif

#endif
