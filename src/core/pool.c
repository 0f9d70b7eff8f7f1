/* Grow-only scratch buffers (pool.h). */
#include "config.h"

#include <stdlib.h>

#include "core/pool.h"

static void release_slot(eccl_pool_t *pool, int slot)
{
    if (!pool->ptr[slot]) return;
    if (pool->release && !pool->plain[slot]) pool->release(pool->ptr[slot]);
    else free(pool->ptr[slot]);
}

void *eccl_pool_get(eccl_pool_t *pool, int slot, size_t bytes)
{
    if (bytes == 0) bytes = 64;
    if (pool->cap[slot] >= bytes) return pool->ptr[slot];
    /* grow by at least 1.5x so a slowly growing sequence of sizes allocates O(log) times */
    size_t want = pool->cap[slot] + pool->cap[slot] / 2;
    if (want < bytes) want = bytes;
    want = (want + 63) & ~(size_t)63;
    void *p = NULL;
    int plain = !pool->alloc || !(p = pool->alloc(want));
    /* (an allocator that fails, e.g. page-locked memory over its limit: ordinary memory serves,
     * slower for DMA, rather than failing one rank's call while its peers wait) */
    if (plain && posix_memalign(&p, 64, want) != 0) return NULL;
    release_slot(pool, slot);
    pool->ptr[slot] = p;
    pool->cap[slot] = want;
    pool->plain[slot] = plain;
    return p;
}

void eccl_pool_free(eccl_pool_t *pool)
{
    for (int k = 0; k < ECCL_NSLOTS; k++) {
        release_slot(pool, k);
        pool->ptr[k] = NULL;
        pool->cap[k] = 0;
        pool->plain[k] = 0;
    }
}

void eccl_pool_set_allocator(eccl_pool_t *pool, void *(*alloc)(size_t), void (*release)(void *))
{
    eccl_pool_free(pool);
    pool->alloc = alloc;
    pool->release = release;
}
