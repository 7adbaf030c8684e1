/* replay_nocuda.c: the cuda backend of a build without the CUDA toolkit: it
 * is listed, and opening it says why it cannot run. Exports replay_cuda_backend. */
#include "replay.h"
#include "replay_backends.h"

static replay_dev *open_none(int mode, uint32_t nslots, char *err, size_t errcap)
{
    (void)mode;
    (void)nslots;
    snprintf(err, errcap, "memtris was built without CUDA support");
    return NULL;
}

const replay_backend replay_cuda_backend = {
    .name = "cuda",
    .label = "CUDA",
    .desc = "an NVIDIA GPU through the CUDA runtime (not in this build)",
    .modes = (1u << REPLAY_RAW) | (1u << REPLAY_ARENA) | (1u << REPLAY_POOL) | (1u << REPLAY_ASYNC),
    .caps = REPLAY_CAP_NEEDS_DEVICE | REPLAY_CAP_FALLS_BACK | REPLAY_CAP_NOT_BUILT,
    .open = open_none,
};
