/* bcast_scatter_allgather.c - van de Geijn's broadcast on streams: the root compresses p pieces
 * (one stream each), scatters them down a binomial tree, and a ring allgather forwards the
 * streams (never recompressed); every rank then decompresses all pieces. The root compresses the
 * pieces subtree by subtree as the scatter sends them (coll/common/scatter.c), so the first messages
 * travel while the rest is compressed. */
#include "config.h"

#include "coll/common/common.h"

/* Piece t of the broadcast buffer (eccl_piece's partition into p pieces). */
static const void *bcast_piece(const eccl_call_t *c, int t, size_t *count)
{
    size_t lo;
    eccl_piece(c->count, c->size, t, &lo, count);
    return (const unsigned char *)c->recvbuf + lo * c->esize;
}

/* The ring allgather over relative ranks: step k passes piece vr-k to the right. */
static eccl_result_t ring(eccl_call_t *c, eccl_set_t *s, int vr)
{
    int p = c->size, right = (c->rank + 1) % p, left = (c->rank - 1 + p) % p;
    eccl_result_t rc;
    for (int k = 0; k < p - 1; k++) {
        int sp = ((vr - k) % p + p) % p, rp = ((vr - k - 1) % p + p) % p;
        if (vr == 0) { /* the root has every piece: it only sends */
            if ((rc = eccl_prim_set_send(c, s, sp, sp + 1, right))) return rc;
            continue;
        }
        if ((right - c->root + p) % p == 0) { /* the rank left of the root only receives */
            if ((rc = eccl_prim_set_recv(c, s, rp, rp + 1, left))) return rc;
            continue;
        }
        if ((rc = eccl_prim_set_sendrecv(c, s, sp, sp + 1, right, s, rp, rp + 1, left))) return rc;
    }
    return ECCL_SUCCESS;
}

eccl_result_t eccl_bcast_scatter_allgather(eccl_call_t *c)
{
    int p = c->size, vr = (c->rank - c->root + p) % p;
    eccl_set_t s;
    eccl_result_t rc = eccl_prim_set(c, c->count, p, 1, ECCL_SLOT_PIECES, ECCL_SLOT_PIECES2, &s);
    if (rc) return rc;
    if (vr == 0) {
        /* the root compresses subtree by subtree as the scatter sends them (the transfers overlap
         * the next compressions), then its own piece, which the ring starts with */
        eccl_req_t *req = eccl_prim_scratch(c, (size_t)p * sizeof *req);
        if (!req) return eccl_comm_error(c->comm, ECCL_ERR_NO_MEMORY, "bcast: no memory for %d requests", p);
        int nreq = 0;
        rc = eccl_coll_scatter_root(c, &s, bcast_piece, req, &nreq);
        if (!rc) rc = eccl_prim_set_compress(c, &s, c->recvbuf, c->count, 0, 1);
        if (!rc) rc = ring(c, &s, vr);
        return eccl_coll_scatter_root_wait(c, req, nreq, rc);
    }
    if ((rc = eccl_coll_scatter_set(c, &s, c->root))) return rc;
    /* the ring below passes every piece to every rank, so a rank keeps only its own from the
     * scatter (the others of its subtree come round again) */
    eccl_prim_set_keep(&s, vr);
    if ((rc = ring(c, &s, vr))) return rc;
    return eccl_prim_set_decompress(c, &s, c->recvbuf, c->count, 0, p);
}

double eccl_bcast_scatter_allgather_cost(const eccl_model_t *m, const eccl_call_t *c, double ratio)
{
    int p = c->size;
    double n = mdl_bytes(c, c->count), nc = n / ratio;
    return mdl_compress(m, n) + eccl_ceil_log2(p) * m->alpha + (double)(p - 1) / p * nc * m->beta +
           (p - 1) * mdl_net(m, nc / p) + mdl_decompress(m, n);
}
