/*
 * pool.h - grow-only scratch buffers owned by a communicator.
 *
 * A collective asks for slot k with at least n bytes; the first call of a given size allocates,
 * later calls of the same or smaller size reuse the buffer, so steady-state calls never allocate.
 * Not thread-safe by itself: a communicator is used by one thread at a time (as an MPI_Comm is).
 */
#ifndef ECCL_CORE_POOL_H
#define ECCL_CORE_POOL_H

#include <stddef.h>

#include "eccl.h"

enum {
    ECCL_SLOT_SEND,    /* a compressed stream being sent */
    ECCL_SLOT_RECV,    /* a compressed stream being received */
    ECCL_SLOT_RECV2,   /* a second receive buffer (double buffering) */
    ECCL_SLOT_WORK,    /* result of a homomorphic operation */
    ECCL_SLOT_PIECES,  /* p streams or pieces side by side */
    ECCL_SLOT_PIECES2,
    ECCL_SLOT_PIECES3,
    ECCL_SLOT_PIECES4,
    ECCL_SLOT_TMP,     /* uncompressed scratch */
    ECCL_SLOT_SAMPLE,  /* ratio sampling */
    ECCL_SLOT_REQS,    /* request arrays */
    ECCL_NSLOTS
};

typedef struct eccl_pool {
    void *ptr[ECCL_NSLOTS];
    size_t cap[ECCL_NSLOTS];
    void *(*alloc)(size_t bytes); /* NULL: 64-byte aligned malloc; else e.g. page-locked memory */
    void (*release)(void *ptr);
    int plain[ECCL_NSLOTS]; /* slot k came from posix_memalign (no allocator, or it failed) */
} eccl_pool_t;

/* Slot k with room for at least `bytes` (aligned to 64 bytes), or NULL when out of memory. Where
 * the pool's allocator fails, ordinary (64-byte aligned) memory is used for that slot instead. */
void *eccl_pool_get(eccl_pool_t *pool, int slot, size_t bytes);
void eccl_pool_free(eccl_pool_t *pool);
/* Free every slot and allocate later ones with alloc/release (64-byte aligned results); no slot
 * may be in use. Used to make a communicator's stream buffers page-locked once it runs
 * device-resident collectives, so that streams cross PCIe by DMA at full speed. */
void eccl_pool_set_allocator(eccl_pool_t *pool, void *(*alloc)(size_t), void (*release)(void *));

#endif
