/*
 * ring_pipelined.c - the homomorphic ring of allreduce_ring.c with every piece cut into
 * K chunks, each its own stream, so that codec work on one chunk overlaps the transfer of others.
 *
 * The ring is the same: reduce-scatter steps where the received stream of a piece is reduced
 * homomorphically with the local data of that piece, then allgather steps that forward the final
 * streams untouched. With chunks, a rank works through units (t, j), t = 0 .. 2p-2 (step), j = 0
 * .. K-1 (chunk), in this order on every rank:
 *   t = 0          compress chunk j of its own piece r                      -> send S(0, j)
 *   1 <= t <= p-1  reduce the received R(t-1, j) with local chunk j of piece (r - t) mod p
 *                                                                            -> send S(t, j)
 *                  (t = p-1: that is the final stream of piece r + 1: decompressed into place)
 *   p <= t         R(t-1, j) is the final stream of piece (r - t) mod p: forwarded as S(t, j)
 *                  (while t <= 2p-3) and decompressed into place
 * Each rank sends S(m) to the right and receives R(m) from the left, m = tK + j < 2(p-1)K, in
 * that order. Over MPI every send is nonblocking and receives are posted a step ahead, and the
 * GPU context lets MPI progress while the host waits for the GPU (eccl_dev_ctx_set_progress):
 * compressing or reducing chunk j runs while chunks before it are on the wire. Over NCCL
 * (blocking pairs) each unit exchanges S(t, j) for R(t, j) in one pair, without overlap.
 *
 * allreduce ring_pipelined runs it whole; reduce_scatter_block ring_pipelined is the first half (shift 1: each rank ends
 * with its own block, decompressed at t = p-1; no allgather): eccl_coll_ring_pipelined serves both.
 *
 * The bound: as the ring (every contribution quantized once, integer sums), per value. Every
 * rank decompresses the same final streams, so results are identical everywhere; they differ
 * from the unchunked ring only where a chunk boundary changes a prediction (all within E).
 */
#include "config.h"

#include "coll/common/common.h"
#include "core/log.h"

/* The elements the ring splits into p pieces: the buffer (allreduce), or every rank's blocks
 * (reduce_scatter_block). */
static size_t ring_total(const eccl_call_t *c)
{
    return c->coll == ECCL_COLL_ALLREDUCE ? c->count : c->count * (size_t)c->size;
}

static double cost_k(const eccl_model_t *m, const eccl_call_t *c, double ratio, int K)
{
    int p = c->size, gather = c->coll == ECCL_COLL_ALLREDUCE;
    double ch = mdl_bytes(c, ring_total(c)) / p / K;
    if (!(ratio > 0)) ratio = 1.0;
    double net = (gather ? 2.0 : 1.0) * (p - 1) * K * mdl_net(m, ch / ratio);
    double codec = K * (mdl_compress(m, ch) + (p - 1) * mdl_hom(m, ch) + (gather ? p : 1) * mdl_decompress(m, ch));
    if (!mdl_gpu_overlaps(c)) return net + codec;
    /* the slower of the two, plus what does not overlap: a chunk's worth of the faster one at
     * each end of the pipeline (K = 1 is the plain ring: no overlap at all) */
    double hi = net > codec ? net : codec, lo = net > codec ? codec : net;
    return hi + lo / K;
}

/* Chunks per piece: ECCL_CHUNKS when set, else the model's best among powers of two with chunks
 * of at least 64 KiB. The same on every rank (count, ranks, the agreed model and ratio). */
static int chunks(const eccl_model_t *m, const eccl_call_t *c, double ratio)
{
    size_t lo, len;
    eccl_piece(ring_total(c), c->size, 0, &lo, &len);
    int forced = eccl_coll_chunks_forced();
    if (forced > 0) {
        size_t k = (size_t)forced < len ? (size_t)forced : len;
        return k > 0 ? (int)k : 1;
    }
    double piece = mdl_bytes(c, len), best = 0;
    int kbest = 1;
    for (int k = 1; k <= ECCL_MAX_CHUNKS; k *= 2) {
        if (k > 1 && piece / k < 65536.0) break;
        double t = cost_k(m, c, ratio, k);
        if (k == 1 || t < best) {
            best = t;
            kbest = k;
        }
    }
    return kbest;
}

/* The state of one call: chunk streams in slots, the requests that use them. */
typedef struct {
    eccl_call_t *c;
    int p, r, K, nr, no, pairs; /* pairs: the transport takes blocking pairs only (NCCL) */
    eccl_cbuf_t *rb, *ob;  /* receive slots (R(m) in slot m % nr), output slots (m % no) */
    eccl_req_t *rreq;      /* the receive into each receive slot */
    eccl_req_t *fsend;     /* the forwarding send from each receive slot */
    eccl_req_t *osend;     /* the send from each output slot */
} ring_t;

static eccl_result_t wait_req(ring_t *g, eccl_req_t *q)
{
    return q->n ? eccl_prim_wait(g->c, q) : ECCL_SUCCESS;
}

/* Post the receive of R(m) from the left into its slot (whose last stream has been consumed). */
static eccl_result_t post_recv(ring_t *g, int m)
{
    int s = m % g->nr;
    eccl_result_t rc = wait_req(g, &g->fsend[s]); /* still being forwarded (K units ago) */
    if (rc) return rc;
    g->rb[s].size = 0;
    return eccl_prim_irecv_stream(g->c, (g->r - 1 + g->p) % g->p, &g->rb[s], &g->rreq[s]);
}

/* The pipelined ring over the call's data: allreduce (shift 0, then the allgather, results in
 * place in recvbuf), or reduce_scatter_block (shift 1, this rank's block into recvbuf). */
eccl_result_t eccl_coll_ring_pipelined(eccl_call_t *c)
{
    ring_t g = {0};
    g.c = c;
    g.p = c->size;
    g.r = c->rank;
    g.K = chunks(mdl_of(c), c, c->st->model_ratio);
    g.pairs = !eccl_prim_posts(c);
    const int gather = c->coll == ECCL_COLL_ALLREDUCE, shift = gather ? 0 : 1;
    const size_t total = ring_total(c);
    const int p = g.p, r = g.r, K = g.K, right = (r + 1) % p, left = (r - 1 + p) % p;
    const int T = gather ? 2 * p - 1 : p, M = (gather ? 2 : 1) * (p - 1) * K;
    /* receives are posted up to one step and two chunks ahead; a slot is reused once its stream
     * was consumed and (allgather on p > 2 ranks) forwarded, which happened K units before */
    g.nr = gather && p > 2 ? 3 * K + 2 : 2 * K + 2;
    g.no = K + 2;
    size_t lo, len, clo, clen;
    eccl_piece(total, p, 0, &lo, &len);
    eccl_piece(len, K, 0, &clo, &clen); /* the largest chunk */
    const size_t ccap = (eccl_compress_bound(clen, c->dtype) + 63) & ~(size_t)63;
    ECCL_LOG(2, r, "%s ring_pipelined: %d chunks of up to %zu elements per piece", eccl_coll_name(c->coll), K, clen);
    unsigned char *rmem = eccl_pool_get(&c->comm->pool, ECCL_SLOT_RECV, (size_t)g.nr * ccap);
    unsigned char *omem = eccl_pool_get(&c->comm->pool, ECCL_SLOT_WORK, (size_t)g.no * ccap);
    size_t nreq = (size_t)2 * g.nr + g.no;
    unsigned char *meta = eccl_pool_get(&c->comm->pool, ECCL_SLOT_REQS,
                                        nreq * sizeof(eccl_req_t) + (size_t)(g.nr + g.no) * sizeof(eccl_cbuf_t));
    if (!rmem || !omem || !meta)
        return eccl_comm_error(c->comm, ECCL_ERR_NO_MEMORY, "no memory for %d + %d chunk streams of %zu bytes",
                               g.nr, g.no, ccap);
    g.rreq = (eccl_req_t *)meta;
    g.fsend = g.rreq + g.nr;
    g.osend = g.fsend + g.nr;
    g.rb = (eccl_cbuf_t *)(g.osend + g.no);
    g.ob = g.rb + g.nr;
    const eccl_req_t none = ECCL_REQ_NULL;
    for (int s = 0; s < g.nr; s++) {
        g.rreq[s] = g.fsend[s] = none;
        g.rb[s] = (eccl_cbuf_t){rmem + (size_t)s * ccap, ccap, 0};
    }
    for (int s = 0; s < g.no; s++) {
        g.osend[s] = none;
        g.ob[s] = (eccl_cbuf_t){omem + (size_t)s * ccap, ccap, 0};
    }

    eccl_result_t rc = ECCL_SUCCESS;
    int posted = 0; /* R(0 .. posted-1) are posted (MPI) */
    for (int t = 0; t < T && !rc; t++) {
        const int piece = ((r - shift - t) % p + p) % p; /* t = 0: the rank's own (allreduce) */
        size_t plo, plen;
        eccl_piece(total, p, piece, &plo, &plen);
        for (int j = 0; j < K && !rc; j++) {
            const int u = t * K + j;
            while (!g.pairs && posted < M && posted <= u + K + 1 && !rc) rc = post_recv(&g, posted++);
            if (rc) break;
            size_t off, cl;
            eccl_piece(plen, K, j, &off, &cl);
            const unsigned char *local = (const unsigned char *)c->sendbuf + (plo + off) * c->esize;
            unsigned char *res = (unsigned char *)c->recvbuf + (gather ? plo + off : off) * c->esize;
            eccl_cbuf_t *in = t > 0 ? &g.rb[(u - K) % g.nr] : NULL;
            if (in && !g.pairs && (rc = eccl_prim_wait_stream(c, &g.rreq[(u - K) % g.nr], in))) break;
            /* the stream this unit sends on (or, at the last step, only decompresses) */
            eccl_cbuf_t *out;
            eccl_req_t *sreq;
            if (t <= p - 1) { /* compressed or reduced here, into an output slot */
                out = &g.ob[u % g.no];
                sreq = &g.osend[u % g.no];
                if ((rc = wait_req(&g, sreq))) break; /* its last stream has left (K + 2 units ago) */
                rc = t == 0 ? eccl_prim_compress(c, local, cl, out) : eccl_prim_reduce(c, in->buf, in->size, local, cl, out);
                if (rc) break;
            } else { /* a final stream from the left: forwarded as it is */
                out = in;
                sreq = &g.fsend[(u - K) % g.nr];
            }
            if (u < M) { /* S(t, j) goes on: every unit but the last step's */
                if (g.pairs) /* one blocking pair: S(t, j) to the right, R(t, j) from the left */
                    rc = eccl_prim_sendrecv_stream(c, out->buf, out->size, right, left, &g.rb[u % g.nr]);
                else
                    rc = eccl_prim_isend(c, out->buf, out->size, right, sreq);
                if (rc) break;
            }
            if (t >= p - 1) rc = eccl_prim_decompress(c, out->buf, out->size, res, cl);
        }
    }
    /* no request outlives the call (its buffers are the pool's): after an error, receives still
     * posted are cancelled (none are on success); sends complete */
    for (int s = 0; s < g.nr; s++) {
        eccl_prim_cancel(c, &g.rreq[s]);
        eccl_result_t r2 = wait_req(&g, &g.fsend[s]);
        if (!rc) rc = r2;
    }
    for (int s = 0; s < g.no; s++) {
        eccl_result_t r2 = wait_req(&g, &g.osend[s]);
        if (!rc) rc = r2;
    }
    return rc;
}

/* Its predicted seconds, at the chunk count it will take. */
double eccl_coll_ring_pipelined_cost(const eccl_model_t *m, const eccl_call_t *c, double ratio)
{
    return cost_k(m, c, ratio, chunks(m, c, ratio));
}
