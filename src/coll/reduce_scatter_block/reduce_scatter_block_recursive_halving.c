/* reduce_scatter_block_recursive_halving.c - every rank compresses its p blocks once; in
 * log2(p) steps partners exchange the streams of the half of the blocks the other keeps and
 * combine them homomorphically. A non-power-of-two number of ranks: the first 2*rem ranks pair
 * up first (the even one hands all its streams to the odd one, which works for both), and the
 * odd one returns the even one's finished block at the end. */
#include "config.h"

#include "coll/model.h"
#include "prims/prims.h"

/* First block of "slot" j (a slot is one rank of the power-of-two group; the first rem slots
 * stand for two ranks each). */
static int slot_start(int j, int rem) { return j < rem ? 2 * j : j + rem; }

eccl_result_t eccl_reduce_scatter_block_recursive_halving(eccl_call_t *c)
{
    int p = c->size, r = c->rank, pof2 = eccl_floor_pow2(p), rem = p - pof2, newrank;
    size_t total = c->count * (size_t)p;
    eccl_set_t s, t;
    eccl_result_t rc = eccl_prim_set(c, total, p, 1, ECCL_SLOT_PIECES, ECCL_SLOT_PIECES2, &s);
    if (!rc) rc = eccl_prim_set(c, total, p, 0, ECCL_SLOT_PIECES3, ECCL_SLOT_PIECES4, &t);
    if (!rc) rc = eccl_prim_set_compress(c, &s, c->sendbuf, total, 0, p);
    if (rc) return rc;
    if (r < 2 * rem) {
        if (r % 2 == 0) {
            if ((rc = eccl_prim_set_send(c, &s, 0, p, r + 1))) return rc;
            newrank = -1;
        } else {
            if ((rc = eccl_prim_set_recv(c, &t, 0, p, r - 1))) return rc;
            if ((rc = eccl_prim_set_combine(c, &s, &t, 0, p))) return rc;
            newrank = r / 2;
        }
    } else {
        newrank = r - rem;
    }
    if (newrank >= 0) {
        int lo = 0, hi = pof2; /* slots still to be reduced by this rank */
        for (int mask = pof2 / 2; mask > 0; mask /= 2) {
            int pn = newrank ^ mask, partner = pn < rem ? pn * 2 + 1 : pn + rem, mid = lo + mask;
            int keep_lo = newrank < mid ? lo : mid, keep_hi = newrank < mid ? mid : hi;
            int send_lo = newrank < mid ? mid : lo, send_hi = newrank < mid ? hi : mid;
            int kb = slot_start(keep_lo, rem), ke = slot_start(keep_hi, rem);
            t.arena_used = 0;
            rc = eccl_prim_set_sendrecv(c, &s, slot_start(send_lo, rem), slot_start(send_hi, rem), partner,
                                        &t, kb, ke, partner);
            if (!rc) rc = eccl_prim_set_combine(c, &s, &t, kb, ke);
            if (rc) return rc;
            lo = keep_lo;
            hi = keep_hi;
        }
    }
    /* Finished blocks: odd ranks of the first pairs return their partner's. */
    if (r < 2 * rem) {
        if (r % 2) {
            if ((rc = eccl_prim_set_send(c, &s, r - 1, r, r - 1))) return rc;
        } else {
            t.arena_used = 0;
            if ((rc = eccl_prim_set_recv(c, &t, r, r + 1, r + 1))) return rc;
            return eccl_prim_decompress(c, t.ptr[r], t.size[r], c->recvbuf, c->count);
        }
    }
    return eccl_prim_decompress(c, s.ptr[r], s.size[r], c->recvbuf, c->count);
}

double eccl_reduce_scatter_block_recursive_halving_cost(const eccl_model_t *m, const eccl_call_t *c,
                                                        double ratio)
{
    int p = c->size, pof2 = eccl_floor_pow2(p);
    double n = mdl_bytes(c, c->count * (size_t)p);
    double t = mdl_compress(m, n) + mdl_decompress(m, n / p);
    for (int mask = pof2 / 2; mask > 0; mask /= 2) {
        double part = n * mask / pof2;
        t += mdl_net(m, part / ratio) + mdl_combine(m, part);
    }
    if (p != pof2) t += 2 * mdl_net(m, n / ratio) + mdl_combine(m, n);
    return t;
}
