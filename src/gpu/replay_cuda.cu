/* replay_cuda.cu: the cuda backend: cudaMalloc/cudaFree (raw, arena, pool)
 * or cudaMallocAsync/cudaFreeAsync on the device's current memory pool
 * (async), a kernel that writes every byte a compute step names,
 * cudaMemGetInfo after a sync. Exports replay_cuda_backend. */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "replay.h"
#include "replay_backends.h"

struct replay_dev {
    int mode;
    uint32_t nslots;
    unsigned char **p; /* [nslots] device pointers */
    int64_t *bytes;    /* [nslots] 0: empty */
    cudaStream_t stream;
    int have_stream;
    cudaMemPool_t pool;     /* async: the device's current pool, the one cudaMallocAsync uses */
    uint64_t old_threshold; /* its release threshold before the replay */
    int have_pool;
    int device;
    char err[256];
};

/* "what: the CUDA error string (cudaErrorX, N)"; clears the error. */
static void cuda_err(char *out, size_t cap, const char *what, cudaError_t e)
{
    snprintf(out, cap, "%s: %s (%s, %d)", what, cudaGetErrorString(e), cudaGetErrorName(e), (int)e);
    (void)cudaGetLastError();
}

/* Writes v into every byte of [p, p + n): 16 bytes a thread where aligned.
 * Launched with FILL_THREADS threads a block. */
#define FILL_THREADS 256
__global__ void __launch_bounds__(FILL_THREADS)
    replay_fill(unsigned char *p, unsigned long long n, unsigned char v)
{
    unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
    unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
    unsigned long long head = (16 - ((unsigned long long)p & 15)) & 15;
    if (head > n) head = n;
    unsigned long long nvec = (n - head) / 16;
    uint4 w;
    w.x = w.y = w.z = w.w = 0x01010101u * v;
    uint4 *q = (uint4 *)(p + head);
    for (unsigned long long k = i; k < nvec; k += stride) q[k] = w;
    for (unsigned long long k = i; k < head; k += stride) p[k] = v;
    for (unsigned long long k = head + nvec * 16 + i; k < n; k += stride) p[k] = v;
}

static replay_dev *cuda_open(int mode, uint32_t nslots, char *err, size_t errcap)
{
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess) {
        cuda_err(err, errcap, "cudaGetDeviceCount", e);
        return NULL;
    }
    if (count == 0) {
        snprintf(err, errcap, "cudaGetDeviceCount: no CUDA device");
        return NULL;
    }
    replay_dev *d = (replay_dev *)calloc(1, sizeof *d);
    if (!d) {
        snprintf(err, errcap, "out of memory");
        return NULL;
    }
    d->mode = mode;
    d->nslots = nslots;
    d->p = (unsigned char **)calloc(nslots ? nslots : 1, sizeof *d->p);
    d->bytes = (int64_t *)calloc(nslots ? nslots : 1, sizeof *d->bytes);
    if (!d->p || !d->bytes) {
        snprintf(err, errcap, "out of memory");
        goto fail;
    }
    if ((e = cudaSetDevice(0)) != cudaSuccess ||
        (e = cudaFree(0)) != cudaSuccess) { /* the context, now */
        cuda_err(err, errcap, "creating a context on device 0", e);
        goto fail;
    }
    if ((e = cudaStreamCreateWithFlags(&d->stream, cudaStreamNonBlocking)) != cudaSuccess) {
        cuda_err(err, errcap, "cudaStreamCreate", e);
        goto fail;
    }
    d->have_stream = 1;
    {
        /* Load the fill kernel now (CUDA loads modules lazily, into device
         * memory), so that the baseline the engine reads next includes it. */
        void *w = NULL;
        if ((e = cudaMalloc(&w, 256)) != cudaSuccess) {
            cuda_err(err, errcap, "cudaMalloc of 256 bytes", e);
            goto fail;
        }
        replay_fill<<<1, FILL_THREADS, 0, d->stream>>>((unsigned char *)w, 256, 0);
        e = cudaGetLastError();
        if (e == cudaSuccess) e = cudaStreamSynchronize(d->stream);
        if (e != cudaSuccess) {
            cuda_err(err, errcap, "running the fill kernel", e);
            (void)cudaFree(w); /* a failed kernel: the context is broken; its memory goes with it */
            goto fail;
        }
        /* Given back before the baseline: a failure here would leave 256
         * bytes (a 2 MiB page) in every reading. */
        if ((e = cudaFree(w)) != cudaSuccess) {
            cuda_err(err, errcap, "cudaFree of the fill kernel's 256 bytes", e);
            goto fail;
        }
    }
    if (mode == REPLAY_ASYNC) {
        int ok = 0;
        e = cudaDeviceGetAttribute(&ok, cudaDevAttrMemoryPoolsSupported, 0);
        if (e != cudaSuccess || !ok) {
            if (e != cudaSuccess) cuda_err(err, errcap, "cudaDeviceGetAttribute", e);
            else
                snprintf(err, errcap,
                         "device 0 has no stream-ordered memory pools (cudaMallocAsync)");
            goto fail;
        }
        /* The pool keeps what is freed (as a framework's caching allocator
         * does) instead of giving it back at every synchronize, which is
         * what the default threshold of 0 would do: the measured curve then
         * shows the caching. trim() gives it back at the end; close()
         * restores the threshold (the pool is the process's, not ours).
         * The current pool, not the default one: cudaMallocAsync on a
         * stream of device 0 takes from whatever pool was made current
         * with cudaDeviceSetMemPool. */
        uint64_t keep = UINT64_MAX;
        if ((e = cudaDeviceGetMemPool(&d->pool, 0)) != cudaSuccess ||
            (e = cudaMemPoolGetAttribute(d->pool, cudaMemPoolAttrReleaseThreshold,
                                         &d->old_threshold)) != cudaSuccess) {
            cuda_err(err, errcap, "reading the current memory pool of device 0", e);
            goto fail;
        }
        if ((e = cudaMemPoolSetAttribute(d->pool, cudaMemPoolAttrReleaseThreshold, &keep)) !=
            cudaSuccess) {
            cuda_err(err, errcap, "raising the release threshold of the current memory pool", e);
            goto fail;
        }
        d->have_pool = 1;
        /* the pool's own first-use costs, before the baseline */
        void *w = NULL;
        if ((e = cudaMallocAsync(&w, 256, d->stream)) != cudaSuccess ||
            (e = cudaFreeAsync(w, d->stream)) != cudaSuccess ||
            (e = cudaStreamSynchronize(d->stream)) != cudaSuccess ||
            (e = cudaMemPoolTrimTo(d->pool, 0)) != cudaSuccess) {
            cuda_err(err, errcap, "a first cudaMallocAsync", e);
            goto fail;
        }
    }
    return d;
fail:
    /* Undone as far as it went; err already says what failed first, and a
     * failure while undoing is the same broken context. */
    if (d->have_pool)
        (void)cudaMemPoolSetAttribute(d->pool, cudaMemPoolAttrReleaseThreshold, &d->old_threshold);
    if (d->have_stream) (void)cudaStreamDestroy(d->stream);
    (void)cudaGetLastError();
    free(d->p);
    free(d->bytes);
    free(d);
    return NULL;
}

/* What a call cannot tell stays empty or 0 (the views print n/a). */
static void cuda_info(replay_dev *d, replay_info *out)
{
    memset(out, 0, sizeof *out);
    cudaDeviceProp prop;
    if (cudaGetDeviceProperties(&prop, d->device) == cudaSuccess) {
        snprintf(out->device, sizeof out->device, "%.100s (sm_%d%d)", prop.name, prop.major,
                 prop.minor);
        out->total = (int64_t)prop.totalGlobalMem;
    }
    int drv = 0, rt = 0;
    char dv[24] = "?", rv[24] = "?";
    if (cudaDriverGetVersion(&drv) == cudaSuccess && drv > 0)
        snprintf(dv, sizeof dv, "%d.%d", drv / 1000, drv % 1000 / 10);
    if (cudaRuntimeGetVersion(&rt) == cudaSuccess && rt > 0)
        snprintf(rv, sizeof rv, "%d.%d", rt / 1000, rt % 1000 / 10);
    if (drv > 0 || rt > 0)
        snprintf(out->versions, sizeof out->versions, "driver %s, runtime %s", dv, rv);
    (void)cudaGetLastError();
}

static int cuda_alloc(replay_dev *d, uint32_t slot, int64_t bytes, int *oom)
{
    *oom = 0;
    if (slot >= d->nslots || d->bytes[slot]) {
        snprintf(d->err, sizeof d->err, "slot %u is %s", slot,
                 slot >= d->nslots ? "out of range" : "in use");
        return -1;
    }
    void *p = NULL;
    cudaError_t e = d->mode == REPLAY_ASYNC ? cudaMallocAsync(&p, (size_t)bytes, d->stream)
                                            : cudaMalloc(&p, (size_t)bytes);
    if (e != cudaSuccess) {
        *oom = e == cudaErrorMemoryAllocation;
        cuda_err(d->err, sizeof d->err, d->mode == REPLAY_ASYNC ? "cudaMallocAsync" : "cudaMalloc",
                 e);
        return -1;
    }
    d->p[slot] = (unsigned char *)p;
    d->bytes[slot] = bytes;
    return 0;
}

static int cuda_release(replay_dev *d, uint32_t slot)
{
    if (slot >= d->nslots || !d->bytes[slot]) {
        snprintf(d->err, sizeof d->err, "slot %u holds nothing", slot);
        return -1;
    }
    cudaError_t e =
        d->mode == REPLAY_ASYNC ? cudaFreeAsync(d->p[slot], d->stream) : cudaFree(d->p[slot]);
    /* Forgotten even when cudaFree fails: that happens only with a broken
     * context, whose memory the driver reclaims when the process ends. */
    d->p[slot] = NULL;
    d->bytes[slot] = 0;
    if (e != cudaSuccess) {
        cuda_err(d->err, sizeof d->err, d->mode == REPLAY_ASYNC ? "cudaFreeAsync" : "cudaFree", e);
        return -1;
    }
    return 0;
}

static int cuda_touch(replay_dev *d, const replay_region *rg, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        const replay_region *x = &rg[i];
        if (x->slot >= d->nslots || !d->bytes[x->slot] || x->off < 0 ||
            x->bytes > d->bytes[x->slot] - x->off) {
            snprintf(d->err, sizeof d->err, "region %lld+%lld is outside slot %u",
                     (long long)x->off, (long long)x->bytes, x->slot);
            return -1;
        }
        unsigned long long nb = (unsigned long long)x->bytes;
        unsigned long long blocks = (nb / 16 + FILL_THREADS - 1) / FILL_THREADS;
        if (blocks < 1) blocks = 1;
        if (blocks > 65535) blocks = 65535;
        replay_fill<<<(unsigned)blocks, FILL_THREADS, 0, d->stream>>>(d->p[x->slot] + x->off, nb,
                                                                      (unsigned char)(i + 1));
        cudaError_t e = cudaGetLastError();
        if (e != cudaSuccess) {
            cuda_err(d->err, sizeof d->err, "launching the fill kernel", e);
            return -1;
        }
    }
    return 0;
}

static int cuda_read(replay_dev *d, int64_t *used)
{
    cudaError_t e = cudaStreamSynchronize(d->stream);
    if (e == cudaSuccess) e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
        cuda_err(d->err, sizeof d->err, "synchronizing", e);
        return -1;
    }
    size_t fr = 0, total = 0;
    if ((e = cudaMemGetInfo(&fr, &total)) != cudaSuccess) {
        cuda_err(d->err, sizeof d->err, "cudaMemGetInfo", e);
        return -1;
    }
    *used = (int64_t)(total - fr);
    return 0;
}

static int cuda_trim(replay_dev *d)
{
    if (!d->have_pool) return 0;
    cudaError_t e = cudaStreamSynchronize(d->stream);
    if (e == cudaSuccess) e = cudaMemPoolTrimTo(d->pool, 0);
    if (e != cudaSuccess) {
        cuda_err(d->err, sizeof d->err, "cudaMemPoolTrimTo", e);
        return -1;
    }
    return 0;
}

static const char *cuda_error(replay_dev *d) { return d->err; }

/* close has no way to report: the engine has read the residual already (a
 * failure that matters showed there), and what a broken context still
 * holds goes with the process. So the results are dropped on purpose. */
static void cuda_close(replay_dev *d)
{
    for (uint32_t s = 0; s < d->nslots; s++)
        if (d->bytes[s]) (void)cuda_release(d, s);
    (void)cudaStreamSynchronize(d->stream);
    if (d->have_pool) {
        (void)cudaMemPoolTrimTo(d->pool, 0);
        (void)cudaMemPoolSetAttribute(d->pool, cudaMemPoolAttrReleaseThreshold, &d->old_threshold);
    }
    (void)cudaStreamDestroy(d->stream);
    (void)cudaGetLastError();
    free(d->p);
    free(d->bytes);
    free(d);
}

/* In the order of replay.h's fields (C++17 has no designated initialisers). */
extern "C" const replay_backend replay_cuda_backend = {
    /* name, label */ "cuda",
    "CUDA",
    /* desc */ "an NVIDIA GPU through the CUDA runtime: cudaMalloc, a fill kernel, cudaMemGetInfo",
    /* modes */ (1u << REPLAY_RAW) | (1u << REPLAY_ARENA) | (1u << REPLAY_POOL) |
        (1u << REPLAY_ASYNC),
    /* caps */ REPLAY_CAP_NEEDS_DEVICE | REPLAY_CAP_FALLS_BACK,
    cuda_open,
    cuda_info,
    cuda_alloc,
    cuda_release,
    cuda_touch,
    cuda_read,
    cuda_trim,
    cuda_error,
    cuda_close,
};
