/* ring.c - the homomorphic ring reduce-scatter (common.h). */
#include "config.h"

#include "coll/common/common.h"

/* Ring reduce-scatter over p pieces of `total` elements at `data`: on return *out holds the
 * stream of the fully reduced piece (rank + 1 - shift) mod p. shift = 0 for allreduce, 1 for
 * reduce_scatter_block (each rank ends with its own piece). */
eccl_result_t eccl_coll_ring_reduce_scatter(eccl_call_t *c, const void *data, size_t total, int shift,
                                            eccl_cbuf_t *out)
{
    int p = c->size, r = c->rank, right = (r + 1) % p, left = (r - 1 + p) % p;
    size_t lo, len;
    eccl_piece(total, p, 0, &lo, &len);
    eccl_cbuf_t cur, in;
    eccl_result_t rc = eccl_prim_cbuf(c, ECCL_SLOT_WORK, len, &cur);
    if (!rc) rc = eccl_prim_cbuf(c, ECCL_SLOT_RECV, len, &in);
    if (rc) return rc;
    int piece = ((r - shift) % p + p) % p;
    eccl_piece(total, p, piece, &lo, &len);
    if ((rc = eccl_prim_compress(c, (const unsigned char *)data + lo * c->esize, len, &cur))) return rc;
    for (int k = 0; k < p - 1; k++) {
        if ((rc = eccl_prim_sendrecv_stream(c, cur.buf, cur.size, right, left, &in))) return rc;
        piece = ((r - shift - k - 1) % p + p) % p;
        eccl_piece(total, p, piece, &lo, &len);
        if ((rc = eccl_prim_reduce(c, in.buf, in.size, (const unsigned char *)data + lo * c->esize, len, &cur)))
            return rc;
    }
    *out = cur;
    return ECCL_SUCCESS;
}
