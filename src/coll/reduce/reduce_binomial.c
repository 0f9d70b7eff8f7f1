/* reduce_binomial.c - binomial tree toward the root; each rank compresses its data once and
 * combines its children's streams homomorphically before passing the result up. */
#include "config.h"

#include "coll/model.h"
#include "prims/prims.h"

/* Reduce every rank's `data` to a stream at `root`: on return the root's *result points at it
 * (a buffer of the pool). */
eccl_result_t eccl_coll_reduce_stream(eccl_call_t *c, const void *data, int root, eccl_cbuf_t *result)
{
    int p = c->size, vr = (c->rank - root + p) % p, cur = 0;
    eccl_cbuf_t b[3];
    const int slots[3] = {ECCL_SLOT_WORK, ECCL_SLOT_RECV, ECCL_SLOT_RECV2};
    eccl_result_t rc = ECCL_SUCCESS;
    for (int i = 0; i < 3 && !rc; i++) rc = eccl_prim_cbuf(c, slots[i], c->count, &b[i]);
    if (!rc) rc = eccl_prim_compress(c, data, c->count, &b[cur]);
    for (int mask = 1; mask < p && !rc; mask <<= 1) {
        if (vr & mask) {
            rc = eccl_prim_send(c, b[cur].buf, b[cur].size, (vr - mask + root) % p);
            break;
        }
        if (vr + mask < p) {
            int in = (cur + 1) % 3, out = (cur + 2) % 3;
            rc = eccl_prim_recv_stream(c, (vr + mask + root) % p, &b[in]);
            if (!rc) rc = eccl_prim_combine(c, b[cur].buf, b[cur].size, b[in].buf, b[in].size, &b[out]);
            cur = out;
        }
    }
    *result = b[cur];
    return rc;
}

eccl_result_t eccl_reduce_binomial(eccl_call_t *c)
{
    eccl_cbuf_t s;
    eccl_result_t rc = eccl_coll_reduce_stream(c, c->sendbuf, c->root, &s);
    if (!rc && c->rank == c->root) rc = eccl_prim_decompress(c, s.buf, s.size, c->recvbuf, c->count);
    return rc;
}

double eccl_reduce_binomial_cost(const eccl_model_t *m, const eccl_call_t *c, double ratio)
{
    double n = mdl_bytes(c, c->count);
    return mdl_compress(m, n) + eccl_ceil_log2(c->size) * (mdl_net(m, n / ratio) + mdl_combine(m, n)) +
           mdl_decompress(m, n);
}
