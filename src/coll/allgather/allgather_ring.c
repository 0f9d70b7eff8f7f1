/* allgather_ring.c - compress the local piece once, forward streams around the ring untouched,
 * decompress all p pieces (the own one too, so every rank holds identical values). Over MPI, a
 * received stream is forwarded (nonblocking) and the next receive posted before it is
 * decompressed, so decompression overlaps the transfers (on device buffers the GPU decodes while
 * MPI moves the streams: eccl_dev_ctx_set_progress). */
#include "config.h"

#include <math.h>

#include "coll/model.h"
#include "prims/prims.h"

eccl_result_t eccl_allgather_ring(eccl_call_t *c)
{
    int p = c->size, r = c->rank, right = (r + 1) % p, left = (r - 1 + p) % p;
    size_t total = c->count * (size_t)p;
    eccl_set_t s;
    eccl_result_t rc = eccl_prim_set(c, total, p, 1, ECCL_SLOT_PIECES, ECCL_SLOT_PIECES2, &s);
    if (!rc) rc = eccl_prim_set_compress_piece(c, &s, r, c->sendbuf, c->count);
    if (rc) return rc;
    if (!eccl_prim_posts(c)) { /* blocking pairs (NCCL): step by step, then decompress */
        for (int k = 0; k < p - 1 && !rc; k++) {
            int sp = ((r - k) % p + p) % p, rp = ((r - k - 1) % p + p) % p;
            rc = eccl_prim_set_sendrecv(c, &s, sp, sp + 1, right, &s, rp, rp + 1, left);
        }
        return rc ? rc : eccl_prim_set_decompress(c, &s, c->recvbuf, total, 0, p);
    }
    /* step k sends piece r - k (the own one, then each received one as it came) and receives
     * piece r - k - 1, into its own place in the arena; sends complete at the end */
    eccl_req_t *sreq = eccl_pool_get(&c->comm->pool, ECCL_SLOT_REQS, (size_t)2 * p * sizeof *sreq);
    if (!sreq) return eccl_comm_error(c->comm, ECCL_ERR_NO_MEMORY, "no memory for %d requests", p);
    eccl_req_t *rreq = sreq + p;
    const eccl_req_t none = ECCL_REQ_NULL;
    for (int i = 0; i < p; i++) sreq[i] = rreq[i] = none;
    eccl_cbuf_t in = {NULL, s.piece_cap, 0};
    int rp = (r - 1 + p) % p;
    in.buf = s.arena + (size_t)rp * s.piece_cap;
    rc = eccl_prim_irecv_stream(c, left, &in, &rreq[rp]);
    if (!rc) rc = eccl_prim_isend(c, s.ptr[r], s.size[r], right, &sreq[r]);
    if (!rc) rc = eccl_prim_set_decompress(c, &s, c->recvbuf, total, r, r + 1); /* while it travels */
    for (int k = 0; k < p - 1 && !rc; k++) {
        rp = ((r - k - 1) % p + p) % p;
        eccl_cbuf_t got = {s.arena + (size_t)rp * s.piece_cap, s.piece_cap, 0};
        if ((rc = eccl_prim_wait_stream(c, &rreq[rp], &got))) break;
        s.ptr[rp] = got.buf;
        s.size[rp] = got.size;
        if (k < p - 2) { /* forward it, and let the next one come, while it is decoded */
            int np = (rp - 1 + p) % p;
            eccl_cbuf_t next = {s.arena + (size_t)np * s.piece_cap, s.piece_cap, 0};
            rc = eccl_prim_isend(c, got.buf, got.size, right, &sreq[rp]);
            if (!rc) rc = eccl_prim_irecv_stream(c, left, &next, &rreq[np]);
        }
        if (!rc) rc = eccl_prim_set_decompress(c, &s, c->recvbuf, total, rp, rp + 1);
    }
    for (int i = 0; i < p; i++) {
        eccl_prim_cancel(c, &rreq[i]); /* only after an error */
        eccl_result_t r2 = sreq[i].n ? eccl_prim_wait(c, &sreq[i]) : ECCL_SUCCESS;
        if (!rc) rc = r2;
    }
    return rc;
}

double eccl_allgather_ring_cost(const eccl_model_t *m, const eccl_call_t *c, double ratio)
{
    int p = c->size;
    double piece = mdl_bytes(c, c->count);
    if (mdl_gpu_overlaps(c)) /* each received piece decodes while the next one travels */
        return mdl_compress(m, piece) + (p - 1) * fmax(mdl_net(m, piece / ratio), mdl_decompress(m, piece)) +
               mdl_decompress(m, piece);
    return mdl_compress(m, piece) + (p - 1) * mdl_net(m, piece / ratio) + mdl_decompress(m, piece * p);
}
