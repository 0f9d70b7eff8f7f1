/* allreduce_recursive_doubling.c - gZCCL's whole-buffer recursive doubling, in the compressed
 * domain: each rank compresses its buffer once; partners exchange streams and both compute the
 * same homomorphic combination (commutative byte for byte). A non-power-of-two number of ranks is
 * handled as MPICH does: the first 2*rem ranks pair up before and after the doubling. */
#include "config.h"

#include "coll/model.h"
#include "prims/prims.h"

eccl_result_t eccl_allreduce_recursive_doubling(eccl_call_t *c)
{
    int p = c->size, r = c->rank, pof2 = eccl_floor_pow2(p), rem = p - pof2, newrank;
    eccl_cbuf_t b[3];
    eccl_result_t rc = ECCL_SUCCESS;
    const int slots[3] = {ECCL_SLOT_WORK, ECCL_SLOT_RECV, ECCL_SLOT_RECV2};
    for (int i = 0; i < 3 && !rc; i++) rc = eccl_prim_cbuf(c, slots[i], c->count, &b[i]);
    if (rc) return rc;
    int cur = 0; /* index of the stream this rank holds */
    if ((rc = eccl_prim_compress(c, c->sendbuf, c->count, &b[cur]))) return rc;

    if (r < 2 * rem) {
        if (r % 2 == 0) {
            if ((rc = eccl_prim_send(c, b[cur].buf, b[cur].size, r + 1))) return rc;
            newrank = -1;
        } else {
            if ((rc = eccl_prim_recv_stream(c, r - 1, &b[1]))) return rc;
            if ((rc = eccl_prim_combine(c, b[0].buf, b[0].size, b[1].buf, b[1].size, &b[2]))) return rc;
            cur = 2;
            newrank = r / 2;
        }
    } else {
        newrank = r - rem;
    }
    if (newrank >= 0) {
        for (int mask = 1; mask < pof2; mask <<= 1) {
            int pn = newrank ^ mask, partner = pn < rem ? pn * 2 + 1 : pn + rem;
            int in = (cur + 1) % 3, out = (cur + 2) % 3;
            if ((rc = eccl_prim_sendrecv_stream(c, b[cur].buf, b[cur].size, partner, partner, &b[in]))) return rc;
            if ((rc = eccl_prim_combine(c, b[cur].buf, b[cur].size, b[in].buf, b[in].size, &b[out]))) return rc;
            cur = out;
        }
    }
    if (r < 2 * rem) {
        if (r % 2) rc = eccl_prim_send(c, b[cur].buf, b[cur].size, r - 1);
        else rc = eccl_prim_recv_stream(c, r + 1, &b[cur = 1]);
        if (rc) return rc;
    }
    return eccl_prim_decompress(c, b[cur].buf, b[cur].size, c->recvbuf, c->count);
}

double eccl_allreduce_recursive_doubling_cost(const eccl_model_t *m, const eccl_call_t *c, double ratio)
{
    int p = c->size, pof2 = eccl_floor_pow2(p);
    double n = mdl_bytes(c, c->count), steps = eccl_ceil_log2(pof2) + (p != pof2 ? 2 : 0);
    return mdl_compress(m, n) + steps * (mdl_net(m, n / ratio) + mdl_combine(m, n)) + mdl_decompress(m, n);
}
