// enc64.cuh - the 64-bit types' block encoders, one warp per block (lane i holds value i), and
// compress_tile: a whole tile from its values (or, HOM, from rows the caller has filled) to the
// stream, with the look-back, the checksum and the last CTA's header. Shared by the
// compression kernels (compress.cu; compress64.cu falls back to it per tile) and the float64
// homomorphic kernel. Included by one kernel file each (an anonymous namespace: every
// translation unit has its own copy).
#ifndef ECCL_CUDA_ENC64_CUH
#define ECCL_CUDA_ENC64_CUH

#include "cuda/codec_dev.cuh"
#include "cuda/kernels.h"

namespace {

template <bool D64> struct types;
template <> struct types<false> {
    typedef float T;
    typedef int I;
    typedef unsigned U;
};
template <> struct types<true> {
    typedef double T;
    typedef long long I;
    typedef unsigned long long U;
};

struct comp_smem {
    unsigned char codes[256];
    unsigned char qok[256];       // block quantizable
    long long tail[256][2];       // the integers at r-2 and r-1 of each quantized block
    unsigned warp_bytes[32], warp_off[32]; // (version 2: first each warp's two form sums)
    unsigned long long tile_off, tile_id, csum_tmp[32];
    unsigned total, padded, form; // form: the tile's (doc/format.md 4.1; 0 in version 1)
    eccl_dev_q q;
    eccl_dev_header h;
};

// Quantize x: the strict checks decide almost always; a rounded error exactly equal to the bound
// goes through the exact rule of format.h (same answer, more work).
__device__ __forceinline__ int quantize(double x, const eccl_dev_q &q, long long *qi)
{
    double qd = rint(x * q.R);
    double aq = fabs(qd);
    double rec = qd * q.D;
    double s1 = fabs(x - rec);
    double s2 = q.is64 ? 0.0 : fabs(x - (double)(float)rec);
    int ok = aq <= (double)q.qmax && s1 < q.eb && s2 < q.eb;
    *qi = ok ? (long long)qd : 0;
    if (!ok && aq <= (double)q.qmax && (s1 == q.eb || s2 == q.eb)) {
        int64_t v;
        ok = eccl_fmt_quantize(x, q.R, q.D, q.eb, q.qmax, q.is64, &v);
        *qi = ok ? v : 0;
    }
    return ok;
}

// A 4-byte field of a payload in the staging area: float32 payloads are made of 4-byte fields
// only (head value, sign map, planes, values), so their staging is word-aligned; float64 ones are
// byte-granular (6-byte head values).
template <bool D64> __device__ __forceinline__ void st4(unsigned char *o, uint32_t v)
{
    if (D64) st_bytes(o, v, 4);
    else *(uint32_t *)o = v;
}

// Sign map (when with_sign) and F planes of per-lane magnitudes m written at o (lane j writes
// plane j). Returns the bytes written.
template <bool D64, typename U>
__device__ __forceinline__ int warp_planes(unsigned char *o, U m, uint32_t sign, int F, int with_sign, int lane)
{
    int sb = with_sign ? 4 : 0;
    if (with_sign && lane == 0) st4<D64>(o, sign);
    uint32_t mine = 0;
    int j = 0;
    for (; j < F && j < 32; j++) {
        uint32_t w = __ballot_sync(ECCL_WARP_FULL, (unsigned)((m >> j) & 1u));
        mine = lane == j ? w : mine;
    }
    if (lane < j) st4<D64>(o + sb + 4 * lane, mine);
    for (; j < F; j++) { // more than 32 planes: only float64 RAW blocks
        uint32_t w = __ballot_sync(ECCL_WARP_FULL, (unsigned)((m >> j) & 1u));
        if (lane == 0) st4<D64>(o + sb + 4 * j, w);
    }
    return sb + 4 * F;
}

// eccl_fmt_choose without branches (the encoder runs it twice per block).
__device__ __forceinline__ eccl_fmt_choice_t choose(uint64_t all, uint32_t neg, uint32_t pos, int is64, int extra)
{
    eccl_fmt_choice_t c;
    int fb = 64 - __clzll((long long)all);
    c.fc = fb <= 30 ? fb : ECCL_FMT_F_ESCAPE;
    c.F = fb <= 30 ? fb : (is64 ? ECCL_FMT_FQ64 : ECCL_FMT_FQ32);
    c.s = c.F == 0 ? ECCL_FMT_SIGN_MAP : !neg ? ECCL_FMT_SIGN_POS : !pos ? ECCL_FMT_SIGN_NEG : ECCL_FMT_SIGN_MAP;
    c.size = extra + (c.F > 0 ? (c.s == ECCL_FMT_SIGN_MAP ? 4 : 0) + 4 * c.F : 0);
    return c;
}

__device__ __forceinline__ uint64_t or_all(unsigned long long v) { return warp_or64(v); }

// This lane's delta of one kind (0: Lorenzo, 1: none, 2: second-order Lorenzo, real types only)
// in a QUANT block (lane i: q_i, i < r; p0, p1: the predecessor's integers at r-2 and r-1 when
// have), with the warp's choice of sign mode and planes for it (doc/format.md 6.2, 8).
template <bool D64> struct wdeltas {
    typename types<D64>::U m; // this lane's magnitude
    uint32_t neg, pos;        // the warp's sign bits, and which deltas are positive
    uint64_t all;             // the OR of the warp's magnitudes
    int bits;                 // bit length of the largest magnitude
    eccl_fmt_choice_t c;
};

template <bool D64>
__device__ __forceinline__ wdeltas<D64> warp_deltas(const eccl_dev_q &q, typename types<D64>::I qi, int r, int lane,
                                                   int have, typename types<D64>::I p0, typename types<D64>::I p1,
                                                   int kind)
{
    typedef typename types<D64>::I I;
    typedef typename types<D64>::U U;
    const I q0 = __shfl_sync(ECCL_WARP_FULL, qi, 0);
    I d;
    if (kind == 1) {
        d = qi;
    } else if (kind == 0) {
        I prev = __shfl_up_sync(ECCL_WARP_FULL, qi, q.lag);
        if (lane < q.lag) prev = have ? (lane == q.lag - 1 ? p1 : p0) : (lane == 0 ? qi : q0);
        d = qi - prev;
    } else { // d_i = q_i - 2 q_{i-1} + q_{i-2}; a head block: d_0 = 0, d_1 = q_1 - q_0
        I a1 = __shfl_up_sync(ECCL_WARP_FULL, qi, 1), a2 = __shfl_up_sync(ECCL_WARP_FULL, qi, 2);
        if (lane == 0) a1 = p1, a2 = p0;
        if (lane == 1) a2 = p1;
        d = qi - 2 * a1 + a2;
        if (!have && lane < 2) d = lane == 0 ? 0 : qi - q0;
    }
    if (lane >= r) d = 0;
    wdeltas<D64> w;
    w.m = d < 0 ? (U)0 - (U)d : (U)d;
    w.neg = __ballot_sync(ECCL_WARP_FULL, d < 0);
    w.pos = __ballot_sync(ECCL_WARP_FULL, d > 0);
    w.all = or_all(w.m);
    w.bits = 64 - __clzll((long long)w.all);
    w.c = choose(w.all, w.neg, w.pos, D64, kind != 1 && !have ? eccl_fmt_head_bytes(D64) : 0);
    return w;
}

// Encode one QUANT block from its integers (lane i: q_i, i < r) in a tile of the given form
// (doc/format.md 4.1); returns the size of its form-0 encoding, or -1 when that does not fit r*W
// (only a short last block: the block is then RAW in either form, and nothing is written). With
// size1, also the block's form-1 encoding's size (-1 where it does not fit: section 8.1); with o
// NULL, nothing is written (pricing). In a form-1 tile, the form-1 encoding is written.
template <bool D64>
__device__ int encode_quant(const eccl_dev_q &q, typename types<D64>::I qi, int r, int lane, int have,
                            typename types<D64>::I p0, typename types<D64>::I p1, unsigned char *o, unsigned *code,
                            unsigned form = ECCL_FMT_FORM_NONE, int *size1 = nullptr)
{
    typedef typename types<D64>::I I;
    const int W = D64 ? 8 : 4;
    const wdeltas<D64> L = warp_deltas<D64>(q, qi, r, lane, have, p0, p1, 0);
    const wdeltas<D64> N = warp_deltas<D64>(q, qi, r, lane, have, p0, p1, 1);
    const int none = N.c.size < L.c.size;
    const wdeltas<D64> Z = none ? N : L; // the form-0 encoding
    if (Z.c.size > r * W) return -1;
    const int want1 = form == ECCL_FMT_FORM_L2 || size1;
    wdeltas<D64> A = L; // the form-1 encoding: second order where usable and strictly smaller
    int alt = 0;
    if (want1) {
        const wdeltas<D64> S = warp_deltas<D64>(q, qi, r, lane, have, p0, p1, 2);
        alt = S.bits <= (D64 ? ECCL_FMT_FQ64 : ECCL_FMT_FQ32) && S.c.size < L.c.size;
        if (alt) A = S;
        if (size1) *size1 = A.c.size <= r * W ? A.c.size : -1;
    }
    if (!o) return Z.c.size;
    const int one = form == ECCL_FMT_FORM_L2, pnone = one ? alt : none;
    const wdeltas<D64> E = one ? A : Z;
    int off = 0;
    if (one || !none) { // a head value: Lorenzo and second-order head blocks carry q_0
        if (!have) {
            const I q0 = __shfl_sync(ECCL_WARP_FULL, qi, 0);
            const int H = eccl_fmt_head_bytes(D64);
            if (lane == 0) {
                if (D64) st_bytes(o, eccl_fmt_zigzag((int64_t)q0), H);
                else st4<D64>(o, (uint32_t)eccl_fmt_zigzag((int64_t)q0));
            }
            off = H;
        }
    }
    if (E.c.F > 0) warp_planes<D64>(o + off, E.m, E.neg, E.c.F, E.c.s == ECCL_FMT_SIGN_MAP, lane);
    *code = eccl_fmt_quant_code((unsigned)E.c.s, pnone ? ECCL_FMT_PRED_NONE : ECCL_FMT_PRED_LORENZO, (unsigned)E.c.fc);
    return E.c.size;
}

// A RAW block (section 6.3): key differences, CODED when smaller than VERBATIM.
// u: this lane's value bits (lanes >= r: ignored). With o NULL, nothing is written (pricing).
template <bool D64>
__device__ int encode_raw(const eccl_dev_q &q, typename types<D64>::U u, int r, int lane, unsigned char *o,
                          unsigned *code)
{
    typedef typename types<D64>::U U;
    const int W = D64 ? 8 : 4, act = lane < r;
    if (!act) u = 0;
    U key = D64 ? (U)eccl_fmt_key64(u) : (U)eccl_fmt_key32((uint32_t)u);
    U kprev = __shfl_up_sync(ECCL_WARP_FULL, key, q.lag);
    U k0 = __shfl_sync(ECCL_WARP_FULL, key, 0);
    if (lane == 1 && q.lag == 2) kprev = k0;
    if (lane == 0) kprev = key;
    U m = !act ? 0 : (key >= kprev ? key - kprev : kprev - key);
    uint32_t neg = __ballot_sync(ECCL_WARP_FULL, act && key < kprev);
    int F = eccl_fmt_bitlen64(or_all(m));
    int size = W + (F > 0 ? 4 + 4 * F : 0);
    if (F <= (D64 ? 62 : 32) && size < r * W) {
        if (o && lane == 0) {
            if (D64) st_bytes(o, u, W);
            else st4<D64>(o, (uint32_t)u);
        }
        if (o && F > 0) warp_planes<D64, U>(o + W, m, neg, F, 1, lane);
        *code = eccl_fmt_raw_code((unsigned)F);
        return size;
    }
    if (o && act) {
        if (D64) st_bytes(o + lane * W, u, W);
        else st4<D64>(o + lane * W, (uint32_t)u);
    }
    *code = 0xFFu;
    return r * W;
}

// Version 3 (doc/format.md 8.2): QUANT block (lane i: q_i, i < r) priced in each form of want by
// eccl_fmt_price_v3, the CPU's rule, from its Lorenzo, none and (forms 1 and 3) second-order
// deltas: cost[a] in bits (-1: over r*W, or a not in want), bytes[a] of payload, code[a]. The
// second-order deltas of 64-bit integers within QMAX are exact in 64 bits.
template <bool D64>
__device__ __forceinline__ void price_quant3(const eccl_dev_q &q, typename types<D64>::I qi, int r, int lane, int have,
                                             typename types<D64>::I p0, typename types<D64>::I p1, unsigned want,
                                             int *cost, int *bytes, unsigned *code)
{
    const wdeltas<D64> L = warp_deltas<D64>(q, qi, r, lane, have, p0, p1, 0);
    const wdeltas<D64> N = warp_deltas<D64>(q, qi, r, lane, have, p0, p1, 1);
    eccl_fmt_dstat_t dl = {L.all, L.neg, L.pos}, dn = {N.all, N.neg, N.pos}, d2 = dl;
    if (want & ((1u << ECCL_FMT_FORM_L2) | (1u << ECCL_FMT_FORM_S2))) {
        const wdeltas<D64> S = warp_deltas<D64>(q, qi, r, lane, have, p0, p1, 2);
        d2 = eccl_fmt_dstat_t{S.all, S.neg, S.pos};
    }
    eccl_fmt_price_v3(D64, r, !have, want, dl, dn, d2, 1, cost, bytes, code);
}

// Version 3: QUANT block (lane i: q_i) in a tile of form S1 or S2 (doc/format.md 6.4), written at
// byte ob of the staging area st: the sparse block when that is its encoding in this form (head
// value and nonzero map at ob; the sign word and the compacted planes as a string of *nbits bits
// right after its bytes, ORed into st once the warp has zeroed those bytes), else the Lorenzo
// block (*nbits 0). Returns the payload bytes, or -1 when the block's form-0 encoding does not
// fit r*W (a short last block: RAW in every form, nothing written). The caller keeps a record
// of bytes + ceil(nbits / 8) <= r*W (the form is eligible) inside the block's own row.
template <bool D64>
__device__ int encode_quant3(const eccl_dev_q &q, typename types<D64>::I qi, int r, int lane, int have,
                             typename types<D64>::I p0, typename types<D64>::I p1, unsigned form, unsigned char *st,
                             unsigned ob, unsigned *code, int *nbits)
{
    typedef typename types<D64>::I I;
    const int W = D64 ? 8 : 4, H = eccl_fmt_head_bytes(D64);
    const wdeltas<D64> L = warp_deltas<D64>(q, qi, r, lane, have, p0, p1, 0);
    *nbits = 0;
    if (r < 32) { // (the form-0 kind: a short block may not fit as QUANT)
        const wdeltas<D64> N = warp_deltas<D64>(q, qi, r, lane, have, p0, p1, 1);
        if ((N.c.size < L.c.size ? N.c.size : L.c.size) > r * W) return -1;
    }
    const wdeltas<D64> S = form == ECCL_FMT_FORM_S2 ? warp_deltas<D64>(q, qi, r, lane, have, p0, p1, 2) : L;
    const eccl_fmt_dstat_t dl = {L.all, L.neg, L.pos}, ds = {S.all, S.neg, S.pos};
    int cost[4], by[4];
    unsigned cd[4];
    eccl_fmt_price_v3(D64, r, !have, 1u << form, dl, dl, ds, 1, cost, by, cd);
    *code = cd[form];
    unsigned char *o = st + ob;
    if (!have) { // a head block carries q_0, sparse or Lorenzo
        const I q0 = __shfl_sync(ECCL_WARP_FULL, qi, 0);
        if (lane == 0) st_bytes(o, eccl_fmt_zigzag((int64_t)q0), H);
        o += H;
    }
    if (!eccl_fmt_code_sparse(cd[form], form)) {
        if (L.c.F > 0) warp_planes<D64>(o, L.m, L.neg, L.c.F, L.c.s == ECCL_FMT_SIGN_MAP, lane);
        return by[form];
    }
    const int F = eccl_fmt_quant_planes(cd[form], D64);
    if (F == 0) return by[form];
    const uint32_t z = __ballot_sync(ECCL_WARP_FULL, S.m != 0); // (lanes >= r and a head's d_0 are 0)
    if (lane == 0) st4<D64>(o, z);
    const int k = __popc(z), sgn = eccl_fmt_code_sign(cd[form]) == ECCL_FMT_SIGN_MAP;
    const int bits = (sgn ? k : 0) + F * k;
    const unsigned sb = ob + (unsigned)by[form]; // the string's first byte
    for (int i = lane; i < (bits + 7) / 8; i += 32) st[sb + i] = 0;
    __syncwarp();
    const bit_gather g(z);
    uint32_t *sw = (uint32_t *)st;
    unsigned pos = 8 * sb;
    if (sgn) {
        if (lane == 0) put_bits(sw, pos, g.compact(S.neg), k);
        pos += (unsigned)k;
    }
    for (int j0 = 0; j0 < F; j0 += 32) { // lane j: plane j0 + j, compacted onto the map
        uint32_t mine = 0;
        for (int j = j0; j < F && j < j0 + 32; j++) {
            const uint32_t w = __ballot_sync(ECCL_WARP_FULL, (unsigned)((S.m >> j) & 1u));
            mine = lane == j - j0 ? w : mine;
        }
        if (lane < F - j0) put_bits(sw, pos + (unsigned)((j0 + lane) * k), g.compact(mine), k);
    }
    __syncwarp();
    *nbits = bits;
    return by[form];
}

// Version 3's tables for compress_tile (in shared memory after the rows: ECCL_V3TAB_BYTES):
// per block its payload bytes and string bits (sz: bytes | bits << 16), then, for a sparse tile's
// copy-out, each block's payload offset in the tile (fb, 257 entries: fb[256] = B), its string's
// bit offset in the sparse stream (fbit, 257: fbit[256] = L), where its record starts in the
// staging (stg), and each warp's sums while the form is chosen (ws: 8 per warp).
struct v3tab {
    unsigned sz[256], fb[257], fbit[257], stg[256], ws[32 * 8];
};
#define ECCL_V3TAB_BYTES (((sizeof(v3tab) + 15) / 16) * 16)

// One little-endian u32 of a version-3 sparse tile at tile byte pb (a multiple of 4), from the
// staged records: payload bytes below B, zeros up to A = align4(B), then the sparse stream's word
// (pb - A) / 4, then zeros.
__device__ __forceinline__ uint32_t sparse_tile_word(const v3tab &t, const unsigned char *stage, unsigned pb)
{
    const unsigned B = t.fb[256], A = (B + 3u) & ~3u, L = t.fbit[256];
    uint32_t v = 0;
    if (pb < B) {
        int lo = 0, hi = 255; // the block whose payload holds byte pb
        while (lo < hi) {
            const int mid = (lo + hi + 1) / 2;
            if (t.fb[mid] <= pb) lo = mid;
            else hi = mid - 1;
        }
        for (unsigned i = 0; i < 4 && pb + i < B; i++) {
            while (t.fb[lo + 1] <= pb + i) lo++;
            v |= (uint32_t)stage[t.stg[lo] + (pb + i - t.fb[lo])] << (8 * i);
        }
        return v;
    }
    if (pb < A) return 0;
    const unsigned x0 = 8 * (pb - A), end = x0 + 32 < L ? x0 + 32 : L;
    if (x0 >= L) return 0;
    int lo = 0, hi = 255; // the block whose string holds bit x0
    while (lo < hi) {
        const int mid = (lo + hi + 1) / 2;
        if (t.fbit[mid] <= x0) lo = mid;
        else hi = mid - 1;
    }
    const uint32_t *sw = (const uint32_t *)stage;
    for (unsigned x = x0; x < end;) {
        while (t.fbit[lo + 1] <= x) lo++;
        const unsigned n = (t.fbit[lo + 1] < end ? t.fbit[lo + 1] : end) - x;
        const unsigned sp = 8 * (t.stg[lo] + (t.fb[lo + 1] - t.fb[lo])) + (x - t.fbit[lo]), sh = sp & 31u;
        uint32_t u = sw[sp >> 5];
        if (sh) u = __funnelshift_r(u, sh + n > 32u ? sw[(sp >> 5) + 1] : 0u, sh);
        if (n < 32) u &= (1u << n) - 1u;
        v |= u << (x - x0);
        x += n;
    }
    return v;
}

// float64 and complex128 work on rows (256 blocks of 32 64-bit words at `rows`): the tile's
// integers where sm.qok (with sm.tail), the values' bits elsewhere. Phase A fills them, or, HOM
// (the fused homomorphic kernel), the caller has; the last CTA then also compares the input
// stream's checksum (accumulated in checksum2) with in_checksum. The staging areas overlay the
// rows (warp w's staging is the rows of its own blocks): a block's encoding, at most
// 256 bytes, starts no later than its own row, since each block before it took at most 256, and
// is written after the warp has read that row.
// V3: the instance that also writes version 3 (its tables in v3t, ECCL_V3TAB_BYTES of shared
// memory): each tile priced in the four forms (price_quant3), and in a sparse tile each block's
// record in the staging is its payload bytes, then its sparse-stream bits as a string of whole
// bytes (encode_quant3: at most r*W in all, so a record still ends within its block's row); the
// copy-out gathers the payloads, then the stream, from the records (sparse_tile_word).
template <int NT, bool HOM = false, bool V3 = false>
__device__ void compress_tile(const eccl_comp_args &a, comp_smem &sm, long long *rows,
                              const unsigned long long *in_checksum = nullptr, v3tab *v3t = nullptr)
{
    constexpr bool D64 = true; // (the encoding helpers above also know 32-bit types)
    typedef typename types<D64>::I I;
    typedef typename types<D64>::U U;
    constexpr int WPC = NT / 32, BPW = 256 / WPC; // warps per CTA, blocks per warp
    constexpr size_t SPW = (size_t)BPW * 32 * 8;  // staging bytes per warp: the rows of its blocks
    unsigned char *const stage = (unsigned char *)rows;
    const int tid = threadIdx.x, lane = tid & 31, w = tid >> 5;
    eccl_dev_scratch *s = a.s;
    const unsigned long long t = sm.tile_id;
    const eccl_dev_q q = sm.q;
    const uint64_t b0 = t << 8, nblk = a.nb - b0 < 256 ? a.nb - b0 : 256;
    const uint64_t v0 = b0 * 32; // the tile's first value
    const tile_map map = make_tile_map(a.v, v0); // (HOM: unused, the caller has read the values)

    // Phase A: quantize the tile; one flag per block.
    if (HOM) {
        // done by the caller
    } else {
        // float64: one warp per block, the next block's values loaded while this one quantizes;
        // each row gets the block's integers where it quantizes, else its values' bits
        const double *x = (const double *)a.x;
        double nxt = 0.0;
        if ((uint64_t)w * BPW < nblk && lane < eccl_fmt_block_len(a.n, b0 + (uint64_t)w * BPW))
            nxt = x[map.at((uint32_t)(w * BPW * 32 + lane))];
        for (int k = 0; k < BPW; k++) {
            uint64_t b = (uint64_t)w * BPW + k;
            if (b >= nblk) break;
            int r = eccl_fmt_block_len(a.n, b0 + b);
            const double xv = nxt;
            if (k + 1 < BPW && b + 1 < nblk && lane < eccl_fmt_block_len(a.n, b0 + b + 1))
                nxt = x[map.at((uint32_t)((b + 1) * 32 + lane))];
            long long qi = 0;
            int ok = 1;
            if (q.quant && lane < r) ok = quantize(xv, q, &qi);
            int all = q.quant && __all_sync(ECCL_WARP_FULL, ok);
            if (lane < r) rows[b * 32 + lane] = all ? qi : __double_as_longlong(xv);
            long long t1 = __shfl_sync(ECCL_WARP_FULL, qi, r - 1), t0 = __shfl_sync(ECCL_WARP_FULL, qi, r > 1 ? r - 2 : 0);
            if (lane == 0) {
                sm.qok[b] = (unsigned char)all;
                sm.tail[b][0] = t0;
                sm.tail[b][1] = t1;
            }
        }
    }
    __syncthreads();
    const int rlast = eccl_fmt_block_len(a.n, a.nb - 1);

    unsigned want3 = 0; // (version 3: every form the stream allows, doc/format.md 4.1)
    if (V3 && sm.h.vmajor >= 3)
        for (unsigned f = 0; f < 4; f++) want3 |= (unsigned)eccl_fmt_form_ok(f, 3, q.quant, q.lag) << f;
    // Version 3: the tile's form (doc/format.md 8.2: the smallest padded tile among form 0 and the
    // eligible forms, ties to the lowest), from every block's prices; a RAW block's bytes count in
    // every form. Each warp sums its blocks' (ws: bytes in forms 0..3, stream bits in forms 2 and
    // 3, RAW bytes, the forms some block makes ineligible). The rows are still intact.
    if (V3 && want3 > 1u) {
        unsigned acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
        for (int k = 0; k < BPW; k++) {
            const uint64_t b = (uint64_t)w * BPW + k;
            if (b >= nblk) break;
            const int r = b0 + b == a.nb - 1 ? rlast : 32, have = b > 0 && sm.qok[b - 1];
            unsigned code;
            int cost[4], by[4];
            unsigned cd[4];
            cost[0] = -1;
            I qi = 0;
            if (sm.qok[b]) {
                qi = lane < r ? (I)rows[b * 32 + lane] : 0;
                const I p0 = have ? (I)sm.tail[b - 1][0] : 0, p1 = have ? (I)sm.tail[b - 1][1] : 0;
                price_quant3<D64>(q, qi, r, lane, have, p0, p1, want3, cost, by, cd);
            }
            if (cost[0] < 0) { // RAW (a short last block that QUANT cannot hold: RAW of its values)
                U u = 0;
                if (lane < r) {
                    if (!sm.qok[b]) u = (U)rows[b * 32 + lane];
                    else if (HOM) u = (U)__double_as_longlong((double)qi * q.D);
                    else u = ((const U *)a.x)[map.at((uint32_t)(b * 32 + lane))];
                }
                acc[6] += (unsigned)encode_raw<D64>(q, u, r, lane, nullptr, &code);
                continue;
            }
            for (int f = 0; f < 4; f++) {
                if (!((want3 >> f) & 1u)) continue;
                if (cost[f] < 0) {
                    acc[7] |= 1u << f;
                    continue;
                }
                acc[f] += (unsigned)by[f];
                if (f >= ECCL_FMT_FORM_S1) acc[f + 2] += (unsigned)(cost[f] - 8 * by[f]);
            }
        }
        if (lane == 0)
            for (int i = 0; i < 8; i++) v3t->ws[8 * w + i] = acc[i];
        __syncthreads();
        if (tid == 0) {
            unsigned t8[8] = {0, 0, 0, 0, 0, 0, 0, 0};
            for (int x = 0; x < WPC; x++)
                for (int i = 0; i < 8; i++) t8[i] = i == 7 ? t8[i] | v3t->ws[8 * x + i] : t8[i] + v3t->ws[8 * x + i];
            unsigned f = ECCL_FMT_FORM_NONE;
            uint64_t best = eccl_fmt_align16(t8[6] + t8[0]);
            for (unsigned c = 1; c < 4; c++) {
                if (!((want3 >> c) & 1u) || ((t8[7] >> c) & 1u)) continue;
                const uint64_t size = c >= ECCL_FMT_FORM_S1 ? eccl_fmt_sparse_tile_size(t8[6] + t8[c], t8[c + 2])
                                                            : eccl_fmt_align16(t8[6] + t8[c]);
                if (size < best) best = size, f = c;
            }
            sm.form = f;
        }
    } else if ((!V3 || sm.h.vmajor < 3) && sm.h.vmajor >= 2 && q.quant && q.lag == 1) {
        // Version 2: the tile's form (doc/format.md 8.1), from both forms' sizes of every QUANT
        // block (each warp sums its blocks'; a block whose form-1 encoding does not fit makes
        // form 1 ineligible). The rows are still intact.
        unsigned s0 = 0, s1 = 0;
        int inel = 0;
        for (int k = 0; k < BPW; k++) {
            const uint64_t b = (uint64_t)w * BPW + k;
            if (b >= nblk) break;
            if (!sm.qok[b]) continue;
            const int r = b0 + b == a.nb - 1 ? rlast : 32, have = b > 0 && sm.qok[b - 1];
            const I qi = lane < r ? (I)rows[b * 32 + lane] : 0;
            const I p0 = have ? (I)sm.tail[b - 1][0] : 0, p1 = have ? (I)sm.tail[b - 1][1] : 0;
            unsigned code;
            int z1 = -1;
            const int z0 = encode_quant<D64>(q, qi, r, lane, have, p0, p1, nullptr, &code, ECCL_FMT_FORM_NONE, &z1);
            if (z0 < 0) continue; // (RAW in both forms)
            s0 += (unsigned)z0;
            s1 += z1 < 0 ? 0u : (unsigned)z1;
            inel |= z1 < 0;
        }
        if (lane == 0) {
            sm.warp_bytes[w] = s0;
            sm.warp_off[w] = inel ? ~0u : s1;
        }
        __syncthreads();
        if (tid == 0) {
            unsigned t0 = 0, t1 = 0, bad = 0;
            for (int k = 0; k < WPC; k++) {
                t0 += sm.warp_bytes[k];
                bad |= sm.warp_off[k] == ~0u;
                t1 += sm.warp_off[k];
            }
            sm.form = !bad && t1 < t0 ? ECCL_FMT_FORM_L2 : ECCL_FMT_FORM_NONE;
        }
    } else if (tid == 0) {
        sm.form = ECCL_FMT_FORM_NONE;
    }
    __syncthreads();
    const unsigned form = sm.form;

    // Phase B: encode each block into this warp's staging area (a sparse tile: its record).
    const int sparse = V3 && form >= ECCL_FMT_FORM_S1;
    unsigned char *mine = stage + w * SPW;
    int off = 0;
    for (int k = 0; k < BPW; k++) {
        uint64_t b = (uint64_t)w * BPW + k;
        if (b >= nblk) break;
        int r = b0 + b == a.nb - 1 ? rlast : 32;
        // the predecessor: the previous block of the tile when it quantizes (it is then QUANT: a
        // full block always fits, and only the stream's last block can be short)
        int have = b > 0 && sm.qok[b - 1];
        unsigned code = 0;
        int size = -1, nbits = 0;
        if (sm.qok[b]) {
            I qi, p0 = 0, p1 = 0;
            qi = lane < r ? (I)rows[b * 32 + lane] : 0;
            __syncwarp(); // (the staging overlays this row: every lane has read it)
            if (have) {
                p0 = (I)sm.tail[b - 1][0];
                p1 = (I)sm.tail[b - 1][1];
            }
            if (sparse)
                size = encode_quant3<D64>(q, qi, r, lane, have, p0, p1, form, stage, (unsigned)(w * SPW + off), &code,
                                          &nbits);
            else
                size = encode_quant<D64>(q, qi, r, lane, have, p0, p1, mine + off, &code, form);
            if (HOM && size < 0) { // a short last block too large as QUANT: RAW of the values T(Q*D)
                if (lane < r) rows[b * 32 + lane] = __double_as_longlong((double)qi * q.D);
                __syncwarp();
            }
        }
        if (size < 0) { // (encode_raw reads its values before it writes: the staging may overlay them)
            U u = 0;
            if (lane < r) {
                if (HOM || !sm.qok[b]) u = (U)rows[b * 32 + lane];
                else u = ((const U *)a.x)[map.at((uint32_t)(b * 32 + lane))]; // (a short last block's values)
            }
            size = encode_raw<D64>(q, u, r, lane, mine + off, &code);
        }
        if (lane == 0) {
            sm.codes[b] = (unsigned char)code;
            if (sparse) v3t->sz[b] = (unsigned)size | (unsigned)nbits << 16;
        }
        off += size + (nbits + 7) / 8;
        __syncwarp();
    }
    if (lane == 0) sm.warp_bytes[w] = (unsigned)off;
    __syncthreads();

    // A sparse tile: every block's payload offset, stream bit offset and record (warp 0, 8 blocks
    // a lane, the blocks past nblk empty).
    if (sparse && w == 0) {
        unsigned by[8], bi[8], rs[8], sb = 0, sbi = 0, srs = 0;
        for (int i = 0; i < 8; i++) {
            const int b = 8 * lane + i;
            const unsigned z = b < (int)nblk ? v3t->sz[b] : 0u;
            by[i] = z & 0xFFFFu;
            bi[i] = z >> 16;
            rs[i] = by[i] + (bi[i] + 7u) / 8u;
            sb += by[i], sbi += bi[i], srs += rs[i];
        }
        unsigned eb = sb, ebi = sbi, ers = srs; // inclusive scans over the lanes, then exclusive
        for (int o = 1; o < 32; o <<= 1) {
            const unsigned u0 = __shfl_up_sync(ECCL_WARP_FULL, eb, o), u1 = __shfl_up_sync(ECCL_WARP_FULL, ebi, o),
                           u2 = __shfl_up_sync(ECCL_WARP_FULL, ers, o);
            if (lane >= o) eb += u0, ebi += u1, ers += u2;
        }
        eb -= sb, ebi -= sbi, ers -= srs;
        for (int i = 0; i < 8; i++) { // (stg: the record's offset within the blocks of its warp first)
            const int b = 8 * lane + i;
            v3t->fb[b] = eb;
            v3t->fbit[b] = ebi;
            v3t->stg[b] = ers;
            eb += by[i], ebi += bi[i], ers += rs[i];
        }
        if (lane == 31) v3t->fb[256] = eb, v3t->fbit[256] = ebi;
        __syncwarp();
        unsigned base[8];
        for (int i = 0; i < 8; i++) base[i] = v3t->stg[(8 * lane + i) / BPW * BPW];
        __syncwarp();
        for (int i = 0; i < 8; i++) {
            const int b = 8 * lane + i;
            v3t->stg[b] = (unsigned)(b / BPW) * (unsigned)SPW + v3t->stg[b] - base[i];
        }
        __syncwarp();
    }

    // Tile layout (its size published at once), then the global offset by warp 0's look-back.
    if (tid == 0) {
        unsigned tot = 0;
        for (int k = 0; k < WPC; k++) {
            sm.warp_off[k] = tot;
            tot += sm.warp_bytes[k];
        }
        unsigned long long padded = (tot + 15u) & ~15ull;
        if (sparse) {
            tot = v3t->fb[256];
            padded = eccl_fmt_sparse_tile_size(tot, v3t->fbit[256]);
        }
        atomicExch(&s->status[t], eccl_lb_pack(a.epoch, t == 0 ? ECCL_LB_INC : ECCL_LB_AGG, padded));
        sm.total = tot; /* (warp_bytes keeps each warp's run length) */
        sm.padded = (unsigned)padded;
    }
    __syncthreads();
    if (w == 0) {
        const unsigned long long off = t == 0 ? 0 : look_back_warp(s, t, sm.padded, a.epoch, lane);
        if (lane == 0) {
            sm.tile_off = off;
            if (t == a.nt - 1) s->total_size = a.P + off + sm.padded;
        }
    }
    __syncthreads();
    const unsigned tot = sm.total, padded = sm.padded;
    const unsigned long long gpos = a.P + sm.tile_off;
    unsigned long long h = 0;
    // copy out with 16-byte stores, gathering each chunk's bytes from the runs (a sparse tile:
    // from the records)
    if (sparse) {
        for (unsigned c = tid; c < padded / 16; c += NT) {
            const uint4 v = make_uint4(sparse_tile_word(*v3t, stage, 16 * c), sparse_tile_word(*v3t, stage, 16 * c + 4),
                                       sparse_tile_word(*v3t, stage, 16 * c + 8), sparse_tile_word(*v3t, stage, 16 * c + 12));
            *(uint4 *)(a.out + gpos + 16 * c) = v;
            h += chk_chunk(v, gpos + 16 * c);
        }
    } else {
        for (unsigned c = tid; c < padded / 16; c += NT) {
            unsigned p = 16 * c, ww = 0, lo = 0, hi = WPC - 1;
            while (lo < hi) { // the warp whose run holds byte p
                unsigned mid = (lo + hi + 1) / 2;
                if (sm.warp_off[mid] <= p) lo = mid;
                else hi = mid - 1;
            }
            ww = lo;
            uint32_t wd[4] = {0, 0, 0, 0};
            for (int k = 0; k < 16; k++, p++) {
                if (p >= tot) break;
                while (ww + 1 < (unsigned)WPC && sm.warp_off[ww + 1] <= p) ww++;
                wd[k >> 2] |= (uint32_t)stage[ww * SPW + (p - sm.warp_off[ww])] << (8 * (k & 3));
            }
            uint4 v = make_uint4(wd[0], wd[1], wd[2], wd[3]);
            *(uint4 *)(a.out + gpos + 16 * c) = v;
            h += chk_chunk(v, gpos + 16 * c);
        }
    }
    // block codes (and, for the last tile, the zero padding up to the payload), as u64 words
    const uint64_t cstart = 64 + 8 * a.nt + b0, cend = t == a.nt - 1 ? a.P : cstart + 256;
    for (uint64_t wd = cstart / 8 + tid; wd < cend / 8; wd += NT) {
        uint64_t v = 0;
        for (int k = 0; k < 8; k++) {
            uint64_t z = 8 * wd + k - cstart;
            v |= (uint64_t)(z < nblk ? sm.codes[z] : 0) << (8 * k);
        }
        *(unsigned long long *)(a.out + 8 * wd) = v;
        h += chk_word(v, wd);
    }
    if (tid == 0) { // tile index entry
        const unsigned long long entry = eccl_fmt_index_entry(sm.tile_off, form);
        *(unsigned long long *)(a.out + 64 + 8 * t) = entry;
        h += chk_word(entry, (64 + 8 * t) / 8);
    }
    h = cta_sum(h, sm.csum_tmp);
    if (tid == 0) {
        atomicAdd(&s->checksum, h);
        __threadfence();
        unsigned long long done = atomicAdd(&s->done_counter, 1ull) - a.done_base;
        if (done == a.nt - 1) { // the last CTA: header and checksum
            __threadfence();
            unsigned long long size = *(volatile unsigned long long *)&s->total_size;
            unsigned char hb[64];
            write_header(hb, sm.h, size);
            if (HOM && in_checksum && atomicExch(&s->checksum2, 0ull) != *in_checksum) eccl_dev_fail(s, ECCL_ERR_CORRUPT);
            unsigned long long sum = atomicExch(&s->checksum, 0ull);
            sum += chk_header(hb);
            st_bytes(hb + ECCL_HDR_CHECKSUM, sum, 8);
            for (int k = 0; k < 16; k++) ((uint32_t *)a.out)[k] = (uint32_t)ld_bytes(hb + 4 * k, 4);
            if (a.d_size) *a.d_size = size;
        }
    }
}

} // namespace

#endif
