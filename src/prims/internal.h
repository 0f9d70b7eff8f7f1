/* internal.h - what the primitives' files share (prims.c: codec and buffers; net.c: messages and
 * sets over the call's transport). Not for the algorithms: they use prims.h. */
#ifndef ECCL_PRIMS_INTERNAL_H
#define ECCL_PRIMS_INTERNAL_H

#include "prims/prims.h"

/* Statistics of one outgoing message: bytes_sent, and bytes_raw = what it carries uncompressed
 * (the count of every stream in it, walking back-to-back streams by their header sizes; bytes
 * that are not a stream count as themselves). */
void eccl_prim_sent(eccl_call_t *c, const void *buf, size_t bytes);
/* A peer's stream failed validation (rc: CORRUPT, MISMATCH or UNSUPPORTED): remember it in c->err
 * and return ECCL_SUCCESS, so the call goes on with a substitute and no rank waits forever for a
 * message this one will now not send. Any other rc is returned as a codec failure. */
eccl_result_t eccl_prim_corrupt(eccl_call_t *c, eccl_result_t rc, const char *what);

#endif
