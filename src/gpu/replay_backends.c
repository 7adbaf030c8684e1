/* replay_backends.c: the table of replay backends (nvtop's vendor table: a
 * device's first, then the host's), lookups by name, the default, the local
 * one and the fallback rule. Exports replay_backend_*, replay_have_cuda, replay_fallback. */
#include <string.h>
#include "replay.h"
#include "replay_backends.h"

static const replay_backend *const backends[] = {&replay_cuda_backend, &replay_host_backend};

const replay_backend *replay_backend_at(size_t i)
{
    return i < sizeof backends / sizeof *backends ? backends[i] : NULL;
}

const replay_backend *replay_backend_find(const char *name)
{
    for (size_t i = 0; name && replay_backend_at(i); i++)
        if (!strcmp(name, backends[i]->name)) return backends[i];
    return NULL;
}

int replay_have_cuda(void)
{
    for (size_t i = 0; replay_backend_at(i); i++)
        if ((backends[i]->caps & REPLAY_CAP_NEEDS_DEVICE) &&
            !(backends[i]->caps & REPLAY_CAP_NOT_BUILT))
            return 1;
    return 0;
}

const replay_backend *replay_backend_default(void)
{
    for (size_t i = 0; replay_backend_at(i); i++)
        if (!(backends[i]->caps & REPLAY_CAP_NOT_BUILT)) return backends[i];
    return replay_backend_local();
}

const replay_backend *replay_backend_local(void) { return &replay_host_backend; }

const replay_backend *replay_fallback(const replay_backend *be, int named)
{
    if (named || !(be->caps & REPLAY_CAP_FALLS_BACK) || be == replay_backend_local()) return NULL;
    return replay_backend_local();
}
