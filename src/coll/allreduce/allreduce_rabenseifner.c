/*
 * allreduce_rabenseifner.c - recursive halving (reduce-scatter) then recursive doubling
 * (allgather) over pof2 pieces, compressed only while the exchanged halves are large enough to
 * pay (>= the communicator's min_bytes, the thesis' heuristic):
 *   halving: pieces travel as streams combined homomorphically; once the half to exchange is
 *   small, each rank decodes its partial sums and the remaining steps exchange raw values;
 *   doubling: raw while the groups are small; when a group becomes large, every rank holding it
 *   compresses it (identically: same values, same bytes) and keeps the decoded values, so all
 *   ranks end with the same numbers; from then on streams are forwarded untouched.
 * Budget: each value is quantized at most once as a contribution and once more if recompressed
 * in the doubling phase, so this algorithm's messages use E/(p+1) (message_bound() in dispatch.c).
 * Non-powers of two: the first 2*rem ranks pair up before and after, as in MPICH.
 */
#include "config.h"

#include <string.h>

#include "coll/model.h"
#include "prims/prims.h"

/* Does the halving phase stay compressed to the end, and does the doubling phase end with every
 * piece as a stream? (sizes only: every rank computes the same answer) */
static void plan(const eccl_call_t *c, int pof2, double *piece_bytes, int *halving_streams_end,
                 int *all_streams_end)
{
    double T = c->comm->cfg.min_bytes, pb = mdl_bytes(c, c->count) / pof2;
    int streams = 1;
    for (int mask = pof2 / 2; mask > 0; mask /= 2)
        if (!(streams && mask * pb >= T)) streams = 0;
    *halving_streams_end = streams;
    int end = streams;
    for (int mask = 1; mask < pof2; mask *= 2)
        if (!end && mask * pb >= T) end = 1;
    *all_streams_end = end;
    *piece_bytes = pb;
}

static unsigned char *piece_ptr(const eccl_call_t *c, void *buf, int pof2, int i, size_t *len)
{
    size_t lo;
    eccl_piece(c->count, pof2, i, &lo, len);
    return (unsigned char *)buf + lo * c->esize;
}

/* Elements of pieces [lo, hi) (contiguous in the buffer). */
static size_t span(const eccl_call_t *c, int pof2, int lo, int hi, unsigned char **start, void *buf)
{
    size_t l0, n0, l1, n1;
    eccl_piece(c->count, pof2, lo, &l0, &n0);
    eccl_piece(c->count, pof2, hi - 1, &l1, &n1);
    *start = (unsigned char *)buf + l0 * c->esize;
    return l1 + n1 - l0;
}

eccl_result_t eccl_allreduce_rabenseifner(eccl_call_t *c)
{
    int p = c->size, r = c->rank, pof2 = eccl_floor_pow2(p), rem = p - pof2, newrank;
    double pb;
    int streams_after_halving, all_streams;
    plan(c, pof2, &pb, &streams_after_halving, &all_streams);
    double T = c->comm->cfg.min_bytes;
    eccl_set_t s, t;
    eccl_result_t rc = eccl_prim_set(c, c->count, pof2, 1, ECCL_SLOT_PIECES, ECCL_SLOT_PIECES2, &s);
    if (!rc) rc = eccl_prim_set(c, c->count, pof2, 0, ECCL_SLOT_PIECES3, ECCL_SLOT_PIECES4, &t);
    size_t toff = ((size_t)pof2 + 63) & ~(size_t)63; /* tmp aligned for the element type */
    unsigned char *done = eccl_prim_scratch(c, toff + c->count * c->esize);
    if (!rc && !done) rc = eccl_comm_error(c->comm, ECCL_ERR_NO_MEMORY, "no memory");
    if (rc) return rc;
    unsigned char *tmp = done + toff; /* raw partner values */
    memset(done, 0, (size_t)pof2);
    if ((rc = eccl_prim_set_compress(c, &s, c->sendbuf, c->count, 0, pof2))) return rc;

    if (r < 2 * rem) {
        if (r % 2 == 0) {
            if ((rc = eccl_prim_set_send(c, &s, 0, pof2, r + 1))) return rc;
            newrank = -1;
        } else {
            if ((rc = eccl_prim_set_recv(c, &t, 0, pof2, r - 1))) return rc;
            if ((rc = eccl_prim_set_combine(c, &s, &t, 0, pof2))) return rc;
            newrank = r / 2;
        }
    } else {
        newrank = r - rem;
    }
#define REAL_RANK(nr) ((nr) < rem ? (nr) * 2 + 1 : (nr) + rem)
    if (newrank >= 0) {
        int lo = 0, hi = pof2, streams = 1;
        for (int mask = pof2 / 2; mask > 0 && !rc; mask /= 2) {
            int partner = REAL_RANK(newrank ^ mask), mid = lo + mask;
            int klo = newrank < mid ? lo : mid, khi = klo + mask, slo = newrank < mid ? mid : lo;
            if (streams && mask * pb >= T) {
                t.arena_used = 0;
                rc = eccl_prim_set_sendrecv(c, &s, slo, slo + mask, partner, &t, klo, khi, partner);
                if (!rc) rc = eccl_prim_set_combine(c, &s, &t, klo, khi);
            } else {
                if (streams) { /* switch to raw partial sums for the rest of the halving */
                    rc = eccl_prim_set_decompress(c, &s, c->recvbuf, c->count, lo, hi);
                    streams = 0;
                }
                unsigned char *sp, *kp;
                size_t sn = span(c, pof2, slo, slo + mask, &sp, c->recvbuf);
                size_t kn = span(c, pof2, klo, khi, &kp, c->recvbuf);
                if (!rc) rc = eccl_prim_sendrecv(c, sp, sn * c->esize, partner, tmp, kn * c->esize, partner);
                if (!rc) rc = eccl_prim_local_reduce(c, kp, tmp, kn);
            }
            lo = klo;
            hi = khi;
        }
        if (rc) return rc;
        if (!streams) done[newrank] = 1;
        /* doubling: the group of pieces this rank holds grows from its own piece to all */
        for (int mask = 1; mask < pof2 && !rc; mask *= 2) {
            int partner = REAL_RANK(newrank ^ mask), g = newrank & ~(mask - 1), pg = (newrank ^ mask) & ~(mask - 1);
            if (!streams && mask * pb >= T) { /* compress the group; keep exactly what others decode */
                rc = eccl_prim_set_compress(c, &s, c->recvbuf, c->count, g, g + mask);
                if (!rc) rc = eccl_prim_set_decompress(c, &s, c->recvbuf, c->count, g, g + mask);
                streams = 1;
            }
            if (rc) break;
            if (streams) {
                rc = eccl_prim_set_sendrecv(c, &s, g, g + mask, partner, &s, pg, pg + mask, partner);
            } else {
                unsigned char *gp, *pp;
                size_t gn = span(c, pof2, g, g + mask, &gp, c->recvbuf);
                size_t pn = span(c, pof2, pg, pg + mask, &pp, c->recvbuf);
                rc = eccl_prim_sendrecv(c, gp, gn * c->esize, partner, pp, pn * c->esize, partner);
                for (int i = pg; i < pg + mask; i++) done[i] = 1;
            }
        }
        for (int i = 0; i < pof2 && !rc; i++) {
            size_t len;
            unsigned char *dst = piece_ptr(c, c->recvbuf, pof2, i, &len);
            if (!done[i]) rc = eccl_prim_decompress(c, s.ptr[i], s.size[i], dst, len);
        }
    }
    if (rc || r >= 2 * rem) return rc;
    /* the paired ranks: the odd one hands the result over, as streams when it has them */
    if (r % 2) return all_streams ? eccl_prim_set_send(c, &s, 0, pof2, r - 1)
                                  : eccl_prim_send(c, c->recvbuf, c->count * c->esize, r - 1);
    if (!all_streams) return eccl_prim_recv(c, c->recvbuf, c->count * c->esize, r + 1);
    t.arena_used = 0;
    if ((rc = eccl_prim_set_recv(c, &t, 0, pof2, r + 1))) return rc;
    return eccl_prim_set_decompress(c, &t, c->recvbuf, c->count, 0, pof2);
#undef REAL_RANK
}

double eccl_allreduce_rabenseifner_cost(const eccl_model_t *m, const eccl_call_t *c, double ratio)
{
    int p = c->size, pof2 = eccl_floor_pow2(p);
    double n = mdl_bytes(c, c->count), T = c->comm->cfg.min_bytes, t = mdl_compress(m, n) + mdl_decompress(m, n);
    for (int mask = pof2 / 2; mask > 0; mask /= 2) {
        double part = n * mask / pof2;
        t += part >= T ? mdl_net(m, part / ratio) + mdl_combine(m, part) : mdl_net(m, part) + mdl_reduce(m, part);
        t += part >= T ? mdl_net(m, part / ratio) : mdl_net(m, part);
    }
    if (p != pof2) t += 2 * mdl_net(m, n / ratio) + mdl_combine(m, n);
    return t;
}
