/* Grow-only scratch buffers (pool.h). */
#include "config.h"

#include <stdlib.h>

#include "core/pool.h"

void *eccl_pool_get(eccl_pool_t *pool, int slot, size_t bytes)
{
    if (bytes == 0) bytes = 64;
    if (pool->cap[slot] >= bytes) return pool->ptr[slot];
    /* grow by at least 1.5x so a slowly growing sequence of sizes allocates O(log) times */
    size_t want = pool->cap[slot] + pool->cap[slot] / 2;
    if (want < bytes) want = bytes;
    want = (want + 63) & ~(size_t)63;
    void *p = NULL;
    if (pool->alloc) {
        if (!(p = pool->alloc(want))) return NULL;
    } else if (posix_memalign(&p, 64, want) != 0) {
        return NULL;
    }
    if (pool->release) pool->release(pool->ptr[slot]);
    else free(pool->ptr[slot]);
    pool->ptr[slot] = p;
    pool->cap[slot] = want;
    return p;
}

void eccl_pool_free(eccl_pool_t *pool)
{
    for (int k = 0; k < ECCL_NSLOTS; k++) {
        if (pool->release) pool->release(pool->ptr[k]);
        else free(pool->ptr[k]);
        pool->ptr[k] = NULL;
        pool->cap[k] = 0;
    }
}

void eccl_pool_set_allocator(eccl_pool_t *pool, void *(*alloc)(size_t), void (*release)(void *))
{
    eccl_pool_free(pool);
    pool->alloc = alloc;
    pool->release = release;
}
