/*
 * test_pool.c - the communicator's grow-only scratch pool (src/core/pool.c): slots grow and keep
 * their contents' room, a custom allocator (page-locked memory in device-resident calls) is used
 * and released through its own release function, and a slot whose allocator fails gets ordinary
 * memory instead (freed with free, never handed to the allocator's release).
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/pool.h"

static int failures;
#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);              \
            failures++;                                                                            \
        }                                                                                          \
    } while (0)

/* An allocator that counts, and fails while `refuse` is set. */
static int allocs, releases, refuse;
static void *live[64];
static void *counting_alloc(size_t bytes)
{
    if (refuse) return NULL;
    void *p = NULL;
    if (posix_memalign(&p, 4096, bytes) != 0) return NULL;
    live[allocs++ % 64] = p;
    return p;
}
static void counting_release(void *p)
{
    if (!p) return;
    int found = 0;
    for (int k = 0; k < 64; k++)
        if (live[k] == p) {
            live[k] = NULL;
            found = 1;
        }
    CHECK(found); /* only what it allocated comes back to it */
    releases++;
    free(p);
}

int main(void)
{
    eccl_pool_t pool;
    memset(&pool, 0, sizeof pool);
    /* default: aligned, grow-only, the same pointer while the room suffices */
    unsigned char *a = eccl_pool_get(&pool, ECCL_SLOT_SEND, 100);
    CHECK(a && (uintptr_t)a % 64 == 0);
    memset(a, 1, 100);
    CHECK(eccl_pool_get(&pool, ECCL_SLOT_SEND, 50) == a);
    unsigned char *b = eccl_pool_get(&pool, ECCL_SLOT_SEND, 1000);
    CHECK(b && (uintptr_t)b % 64 == 0);
    memset(b, 2, 1000);
    CHECK(eccl_pool_get(&pool, ECCL_SLOT_RECV, 0) != NULL); /* 0 bytes: still a valid slot */

    /* a custom allocator: every slot is freed first, later slots come from it */
    eccl_pool_set_allocator(&pool, counting_alloc, counting_release);
    void *c = eccl_pool_get(&pool, ECCL_SLOT_WORK, 5000);
    CHECK(c && allocs == 1);
    /* it fails: ordinary memory, 64-byte aligned, usable */
    refuse = 1;
    unsigned char *d = eccl_pool_get(&pool, ECCL_SLOT_PIECES, 70000);
    CHECK(d && (uintptr_t)d % 64 == 0 && allocs == 1);
    if (d) memset(d, 3, 70000);
    /* growing the ordinary slot while the allocator works again: the old one goes to free */
    refuse = 0;
    void *e = eccl_pool_get(&pool, ECCL_SLOT_PIECES, 200000);
    CHECK(e && allocs == 2 && releases == 0);
    /* growing the allocator's slot: its old memory goes back to it */
    void *f = eccl_pool_get(&pool, ECCL_SLOT_WORK, 50000);
    CHECK(f && allocs == 3 && releases == 1);
    refuse = 1;
    CHECK(eccl_pool_get(&pool, ECCL_SLOT_TMP, 1 << 20) != NULL); /* ordinary again */
    eccl_pool_free(&pool); /* the two allocator slots to release, the ordinary one to free */
    CHECK(releases == 3);
    for (int k = 0; k < ECCL_NSLOTS; k++) CHECK(pool.ptr[k] == NULL && pool.cap[k] == 0);
    printf("test_pool: %d failures\n", failures);
    return failures ? 1 : 0;
}
