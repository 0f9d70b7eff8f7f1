// compress.cu - the compression kernel: one CTA per tile (256 blocks of 32 values), one warp per
// block at a time (lane i holds value i), a single pass with decoupled look-back for the tile
// offsets, the stream finished by the last CTA (header, checksum, size in device memory): no host
// synchronisation. Output byte-identical to src/codec (doc/format.md section 8).
//
// Phase A quantizes the tile once into shared memory (float64: 64-bit rows, each warp loading its
// next block while it quantizes one), phase B encodes every block into a per-warp staging area
// (predecessors come from phase A; float64's staging overlays its rows), then the CTA finds its
// offset, compacts the staging areas and writes the tile with 16-byte stores. (float32 streams
// are compressed by compress32.cu; this kernel serves the 64-bit types.)
#include "config.h"

#include <cuda_runtime.h>

#include "cuda/codec_dev.cuh"
#include "cuda/dec.cuh"
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
    long long tail[256][2];       // float64: last lag integers of each block
    unsigned warp_bytes[32], warp_off[32];
    unsigned long long tile_off, tile_id, csum_tmp[32];
    unsigned total, padded;
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

// Encode one QUANT block from its integers (lane i: q_i, i < r); returns the size, or -1 when it
// does not fit r*W (only a short last block).
template <bool D64>
__device__ int encode_quant(const eccl_dev_q &q, typename types<D64>::I qi, int r, int lane, int have,
                            typename types<D64>::I p0, typename types<D64>::I p1, unsigned char *o, unsigned *code)
{
    typedef typename types<D64>::I I;
    typedef typename types<D64>::U U;
    const int act = lane < r;
    I prev = __shfl_up_sync(ECCL_WARP_FULL, qi, q.lag);
    I q0 = __shfl_sync(ECCL_WARP_FULL, qi, 0);
    if (lane < q.lag) prev = have ? (lane == 0 ? p0 : p1) : (lane == 0 ? qi : q0);
    I dl = act ? qi - prev : 0, dn = act ? qi : 0;
    U ml = dl < 0 ? (U)0 - (U)dl : (U)dl, mn = dn < 0 ? (U)0 - (U)dn : (U)dn;
    uint32_t negl = __ballot_sync(ECCL_WARP_FULL, dl < 0), posl = __ballot_sync(ECCL_WARP_FULL, dl > 0);
    uint32_t negn = __ballot_sync(ECCL_WARP_FULL, dn < 0), posn = __ballot_sync(ECCL_WARP_FULL, dn > 0);
    int H = have ? 0 : eccl_fmt_head_bytes(D64);
    eccl_fmt_choice_t cl = choose(or_all(ml), negl, posl, D64, H);
    eccl_fmt_choice_t cn = choose(or_all(mn), negn, posn, D64, 0);
    int none = cn.size < cl.size;
    eccl_fmt_choice_t c = none ? cn : cl;
    if (c.size > r * (D64 ? 8 : 4)) return -1;
    int off = 0;
    if (!none && !have) {
        if (lane == 0) {
            if (D64) st_bytes(o, eccl_fmt_zigzag((int64_t)q0), H);
            else st4<D64>(o, (uint32_t)eccl_fmt_zigzag((int64_t)q0));
        }
        off = H;
    }
    if (c.F > 0) warp_planes<D64, U>(o + off, none ? mn : ml, none ? negn : negl, c.F, c.s == ECCL_FMT_SIGN_MAP, lane);
    *code = eccl_fmt_quant_code((unsigned)c.s, none ? ECCL_FMT_PRED_NONE : ECCL_FMT_PRED_LORENZO, (unsigned)c.fc);
    return c.size;
}

// A RAW block (section 6.3): key differences, CODED when smaller than VERBATIM.
// u: this lane's value bits (lanes >= r: ignored).
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
        if (lane == 0) {
            if (D64) st_bytes(o, u, W);
            else st4<D64>(o, (uint32_t)u);
        }
        if (F > 0) warp_planes<D64, U>(o + W, m, neg, F, 1, lane);
        *code = eccl_fmt_raw_code((unsigned)F);
        return size;
    }
    if (act) {
        if (D64) st_bytes(o + lane * W, u, W);
        else st4<D64>(o + lane * W, (uint32_t)u);
    }
    *code = 0xFFu;
    return r * W;
}

// float64 and complex128 work on rows (256 blocks of 32 64-bit words at `rows`): the tile's
// integers where sm.qok (with sm.tail), the values' bits elsewhere. Phase A fills them, or, HOM
// (the fused homomorphic kernel), the caller has; the last CTA then also compares the input
// stream's checksum (accumulated in checksum2) with in_checksum. The staging areas overlay the
// rows (warp w's staging is the rows of its own blocks): a block's encoding, at most
// 256 bytes, starts no later than its own row, since each block before it took at most 256, and
// is written after the warp has read that row.
template <int NT, bool HOM = false>
__device__ void compress_tile(const eccl_comp_args &a, comp_smem &sm, long long *rows,
                              const unsigned long long *in_checksum = nullptr)
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
            long long t1 = __shfl_sync(ECCL_WARP_FULL, qi, r - 1), t0 = __shfl_sync(ECCL_WARP_FULL, qi, r - q.lag);
            if (lane == 0) {
                sm.qok[b] = (unsigned char)all;
                sm.tail[b][0] = t0;
                sm.tail[b][1] = t1;
            }
        }
    }
    __syncthreads();

    // Phase B: encode each block into this warp's staging area.
    unsigned char *mine = stage + w * SPW;
    int off = 0;
    const int rlast = eccl_fmt_block_len(a.n, a.nb - 1);
    for (int k = 0; k < BPW; k++) {
        uint64_t b = (uint64_t)w * BPW + k;
        if (b >= nblk) break;
        int r = b0 + b == a.nb - 1 ? rlast : 32;
        // the predecessor: the previous block of the tile when it quantizes (it is then QUANT: a
        // full block always fits, and only the stream's last block can be short)
        int have = b > 0 && sm.qok[b - 1];
        unsigned code = 0;
        int size = -1;
        if (sm.qok[b]) {
            I qi, p0 = 0, p1 = 0;
            qi = lane < r ? (I)rows[b * 32 + lane] : 0;
            __syncwarp(); // (the staging overlays this row: every lane has read it)
            if (have) {
                p0 = (I)sm.tail[b - 1][0];
                p1 = (I)sm.tail[b - 1][1];
            }
            size = encode_quant<D64>(q, qi, r, lane, have, p0, p1, mine + off, &code);
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
        if (lane == 0) sm.codes[b] = (unsigned char)code;
        off += size;
        __syncwarp();
    }
    if (lane == 0) sm.warp_bytes[w] = (unsigned)off;
    __syncthreads();

    // Tile layout (its size published at once), then the global offset by warp 0's look-back.
    if (tid == 0) {
        unsigned tot = 0;
        for (int k = 0; k < WPC; k++) {
            sm.warp_off[k] = tot;
            tot += sm.warp_bytes[k];
        }
        unsigned long long padded = (tot + 15u) & ~15ull;
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
    // copy out with 16-byte stores, gathering each chunk's bytes from the runs
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
        *(unsigned long long *)(a.out + 64 + 8 * t) = sm.tile_off;
        h += chk_word(sm.tile_off, (64 + 8 * t) / 8);
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

template <int NT>
__global__ void __launch_bounds__(NT, 1024 / NT) eccl_compress_kernel(eccl_comp_args a)
{
    extern __shared__ __align__(16) unsigned char dyn[];
    __shared__ comp_smem sm;
    if (threadIdx.x == 0) {
        sm.tile_id = atomicAdd(&a.s->tile_counter, 1ull) - a.tile_base;
        eccl_dev_header h = a.h;
        if (a.rel_range_on_device) { // REL with the range computed by eccl_range_kernel
            unsigned long long kmin = a.s->rkey[0], kmax = a.s->rkey[1];
            double lo = eccl_u64_as_f64(eccl_fmt_unkey64(kmin)), hi = eccl_u64_as_f64(eccl_fmt_unkey64(kmax));
            h.range = kmin <= kmax ? hi - lo : 0.0;
            h.eb = dev_eb_in_force(2, h.bound, h.range);
        }
        sm.h = h;
        sm.q = dev_qparams(h.dtype, h.mode, h.eb);
    }
    __syncthreads();
    // dynamic shared memory: the rows, which the staging areas overlay
    compress_tile<NT>(a, sm, (long long *)dyn);
}

// ---- The fused homomorphic kernel for 64-bit streams (float64, complex128) -----------------------
// One CTA of 256 threads per tile: the received stream's tile is checked and decoded (dec.cuh:
// steps 1-2, then one warp per block) into 64-bit rows in shared memory; each warp quantizes the
// local array's block, combines it with the decoded one by the rules of doc/format.md section 11
// (integers where both inputs are integers and every result fits in [-QMAX, QMAX], else the exact
// values, as src/codec/hom.c does), and the rows are encoded by compress_tile<256, true>
// (the compression kernel's phase B and write-out). One launch; the bytes are those of
// eccl_hom_reduce. Shared memory: the rows, then the input payload, reused as the staging area.

namespace {

__device__ __forceinline__ unsigned long long rec_bits64(long long q, double D)
{
    return (unsigned long long)__double_as_longlong((double)q * D);
}

// A QUANT block's integers into its row (lane i: integer i), checked as decode_quant checks them.
__device__ int decode_quant_ints64(const dec_smem &sm, const unsigned char *pay, int b, uint64_t n, uint64_t b0,
                                   int lane, long long *row)
{
    const eccl_dev_q &q = sm.q;
    qblock k = parse_quant(sm, pay, b, n, b0, 1);
    unsigned long long m = lane_bits<unsigned long long>(pay, k.o, k.F, lane);
    long long v = lane < k.r ? ((k.negmask >> lane) & 1u ? 0ll - (long long)m : (long long)m) : 0;
    if (!k.none) {
        v = warp_scan_lag_small<long long>(v, q.lag, k.F, lane);
        if (k.head) v += (long long)k.q0;
        else v += (long long)sm.tail[b - 1][q.lag == 1 ? 1 : (lane & 1)];
    }
    int bad = lane < k.r && (v > (long long)q.qmax || v < -(long long)q.qmax);
    if (lane < k.r) row[lane] = v;
    return !__any_sync(ECCL_WARP_FULL, bad);
}

} // namespace

// Shared memory: only the rows. The input payload is read in place (through L1, which the
// validation pass has just filled), and the output staging overlays the rows: warp w's staging
// area is the rows of its own 32 blocks, and a block's encoding, at most its 256 bytes, starts no
// later than its own row (the blocks before it took at most 256 bytes each) and is written after
// the warp has read that row; rows of later blocks are untouched. So 2 CTAs per SM (the
// registers' limit) instead of 1 with a staged payload and a separate staging area.
// ECCL_HOM64_MINB (experiments): the CTAs per SM the registers are sized for.
#ifndef ECCL_HOM64_MINB
#define ECCL_HOM64_MINB 2
#endif
#define HOM64_ROWS (256 * 32 * 8)
#define HOM64_SMEM HOM64_ROWS

// VIEW: the local array is a view (a.lv.rows != 0), read through the tile's map (ds.map).
template <bool VIEW>
__global__ void __launch_bounds__(256, ECCL_HOM64_MINB) eccl_hom64_kernel(eccl_hom_args a)
{
    extern __shared__ __align__(16) unsigned char dyn[];
    __shared__ dec_smem ds;
    __shared__ comp_smem sm;
    constexpr int BPW = 32; // blocks per warp
    long long *rows = (long long *)dyn;      // 256 blocks of 32 values, then the output staging
    const int tid = threadIdx.x, lane = tid & 31, w = tid >> 5;
    eccl_dev_scratch *s = a.in.s;
    if (tid == 0) {
        hom_open(a, 1, ds, &sm.tile_id, &sm.h, &sm.q);
        if (VIEW) ds.map = make_tile_map(a.lv, sm.tile_id * 8192);
    }
    __syncthreads();
    const unsigned long long t = sm.tile_id;
    const eccl_dev_q q = sm.q;
    const uint64_t b0 = t << 8, nblk = a.in.nb - b0 < 256 ? a.in.nb - b0 : 256;
    const uint64_t v0 = b0 * 32;

    // 1. The input tile: placement, payload, validation, chains, then each block's integers (or
    //    a RAW block's bits) into its row; ds.flag[b] = 1 where the input block is integers.
    int ok = ds.ok;
    unsigned long long hin = 0;
    if (ok) ok = tile_prepare<true, 256, false>(a.in, t, nullptr, ds, &hin);
    if (ok) {
        const unsigned char *pay = tile_payload<false>(a.in, nullptr, ds);
        int good = 1;
        for (int k = 0; k < BPW; k++) {
            int b = w * BPW + k;
            if (b >= (int)nblk) break;
            unsigned code = ds.codes[b];
            int raw = eccl_fmt_code_is_raw(code);
            if (raw)
                good &= decode_raw(q, code, pay + ds.boff[b], eccl_fmt_block_len(a.in.n, b0 + b), lane, rows,
                                   tile_map{0, 0, 0, 0}, (uint32_t)b * 32);
            else
                good &= decode_quant_ints64(ds, pay, b, a.in.n, b0, lane, rows + b * 32);
            if (lane == 0) ds.flag[b] = (unsigned char)!raw;
        }
        if (__syncthreads_or(!good)) {
            if (tid == 0) eccl_dev_fail(s, ECCL_ERR_CORRUPT);
            ok = 0;
        }
    }
    if (!ok) { // a corrupt input tile: zeros, so that the look-back chain still completes
        for (int e = tid; e < 256 * 32; e += 256) rows[e] = 0;
        ds.flag[tid] = 1;
        hin = 0;
    }
    __syncthreads();

    // 2. Per block (one warp): quantize the local values, combine, and leave the output block in
    //    the row: integers (sm.qok, with the tails for the next block's predictor) or bits.
    //    (each warp loads its next block's local values while it combines one)
    const double *xl = VIEW ? (const double *)a.local : (const double *)a.local + v0;
    double nxt = 0.0;
    if (w * BPW < (int)nblk && lane < eccl_fmt_block_len(a.in.n, b0 + w * BPW))
        nxt = xl[VIEW ? ds.map.at((uint32_t)(w * BPW * 32 + lane)) : (uint64_t)w * BPW * 32 + lane];
    for (int k = 0; k < BPW; k++) {
        int b = w * BPW + k;
        if (b >= (int)nblk) break;
        const int r = eccl_fmt_block_len(a.in.n, b0 + b);
        const double xv = nxt;
        if (k + 1 < BPW && b + 1 < (int)nblk && lane < eccl_fmt_block_len(a.in.n, b0 + b + 1))
            nxt = xl[VIEW ? ds.map.at((uint32_t)((b + 1) * 32 + lane)) : (uint64_t)(b + 1) * 32 + lane];
        long long qb = 0;
        unsigned long long xb = 0;
        int okl = 1;
        if (lane < r) {
            xb = (unsigned long long)__double_as_longlong(xv);
            okl = q.quant ? quantize(xv, q, &qb) : 0;
        }
        const int lok = q.quant && __all_sync(ECCL_WARP_FULL, okl);
        const int ka = ds.flag[b];
        long long *row = rows + b * 32;
        const long long qa = lane < r ? row[lane] : 0;
        long long Q = a.op == ECCL_KOP_SUM ? qa + qb : a.op == ECCL_KOP_MAX ? (qa > qb ? qa : qb) : (qa < qb ? qa : qb);
        int fits = lane >= r || (Q <= (long long)q.qmax && Q >= -(long long)q.qmax);
        const int useint = ka && lok && __all_sync(ECCL_WARP_FULL, fits);
        if (lane < r) {
            if (useint) {
                row[lane] = Q;
            } else {
                unsigned long long ba = ka ? rec_bits64(qa, q.D) : (unsigned long long)qa;
                unsigned long long bb = lok ? rec_bits64(qb, q.D) : xb;
                row[lane] = (long long)apply64(a.op, ba, bb);
            }
        }
        if (!useint) Q = 0;
        long long t1 = __shfl_sync(ECCL_WARP_FULL, Q, r - 1), t0 = __shfl_sync(ECCL_WARP_FULL, Q, r - q.lag);
        if (lane == 0) {
            sm.qok[b] = (unsigned char)useint;
            sm.tail[b][0] = t0;
            sm.tail[b][1] = t1;
        }
    }
    hin = cta_sum(hin, ds.csum_tmp); // (synchronises the CTA: the rows and flags are complete)
    if (tid == 0 && hin) atomicAdd(&s->checksum2, hin);

    // 3. Encode the rows and write the tile out (the last CTA: header, checksum, input's verdict).
    eccl_comp_args o;
    o.x = nullptr;
    o.v = eccl_view{0, 0, 0};
    o.n = a.in.n;
    o.nb = a.in.nb;
    o.nt = a.in.nt;
    o.P = a.in.P;
    o.out = a.out;
    o.h = sm.h;
    o.rel_range_on_device = 0;
    o.s = s;
    o.tile_base = a.tile_base;
    o.done_base = a.done_base;
    o.epoch = a.epoch;
    o.d_size = a.d_size;
    compress_tile<256, true>(o, sm, rows, (const unsigned long long *)(a.in.in + ECCL_HDR_CHECKSUM));
}

cudaError_t eccl_hom64_setup(void)
{
    cudaError_t e = cudaFuncSetAttribute(eccl_hom64_kernel<false>, cudaFuncAttributeMaxDynamicSharedMemorySize, HOM64_SMEM);
    return e ? e : cudaFuncSetAttribute(eccl_hom64_kernel<true>, cudaFuncAttributeMaxDynamicSharedMemorySize, HOM64_SMEM);
}

cudaError_t eccl_launch_hom64(const eccl_hom_args &a, cudaStream_t st)
{
    if (a.in.nt == 0) return eccl_launch_hom32(a, st); // the header alone (any dtype)
    if (a.lv.rows) eccl_hom64_kernel<true><<<(unsigned)a.in.nt, 256, HOM64_SMEM, st>>>(a);
    else eccl_hom64_kernel<false><<<(unsigned)a.in.nt, 256, HOM64_SMEM, st>>>(a);
    return cudaGetLastError();
}

// A stream of zero elements: the header alone.
static __global__ void eccl_compress_empty_kernel(eccl_comp_args a)
{
    unsigned char hb[64];
    write_header(hb, a.h, 64);
    unsigned long long sum = 0;
    sum += chk_header(hb);
    st_bytes(hb + ECCL_HDR_CHECKSUM, sum, 8);
    for (int k = 0; k < 64; k++) a.out[k] = hb[k];
    if (a.d_size) *a.d_size = 64;
    a.s->total_size = 64;
}

// f(offset) for the offset of each of the n values of view vw, the CTAs of the grid taking pieces
// of 8192 values (a tile's worth: one tile map per piece) in turn.
template <class Fn> __device__ __forceinline__ void grid_view_for(const eccl_view &vw, uint64_t n, Fn f)
{
    for (uint64_t p0 = (uint64_t)blockIdx.x * 8192; p0 < n; p0 += (uint64_t)gridDim.x * 8192) {
        const tile_map map = make_tile_map(vw, p0);
        const uint32_t len = n - p0 < 8192 ? (uint32_t)(n - p0) : 8192u;
        for (uint32_t i = threadIdx.x; i < len; i += blockDim.x) f(map.at(i));
    }
}

// The grid for grid_view_for over n values.
static unsigned view_grid(uint64_t n)
{
    uint64_t blocks = (n + 8191) / 8192;
    return blocks > 1024 ? 1024u : blocks == 0 ? 1u : (unsigned)blocks;
}

// Min and max of the finite values (REL bounds), as ordered keys so that atomics compare them.
static __global__ void eccl_range_kernel(const void *x, eccl_view vw, uint64_t n, int is64, eccl_dev_scratch *s)
{
    __shared__ unsigned long long tmp[2][32];
    unsigned long long lo = ~0ull, hi = 0;
    grid_view_for(vw, n, [&](uint64_t o) {
        double v = is64 ? ((const double *)x)[o] : (double)((const float *)x)[o];
        if (isfinite(v)) {
            unsigned long long k = eccl_fmt_key64(eccl_f64_as_u64(v));
            lo = k < lo ? k : lo;
            hi = k > hi ? k : hi;
        }
    });
    for (int o = 16; o > 0; o >>= 1) {
        unsigned long long a = __shfl_down_sync(ECCL_WARP_FULL, lo, o), b = __shfl_down_sync(ECCL_WARP_FULL, hi, o);
        lo = a < lo ? a : lo;
        hi = b > hi ? b : hi;
    }
    int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    if (lane == 0) {
        tmp[0][w] = lo;
        tmp[1][w] = hi;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        for (int k = 1; k < (int)(blockDim.x / 32); k++) {
            lo = tmp[0][k] < lo ? tmp[0][k] : lo;
            hi = tmp[1][k] > hi ? tmp[1][k] : hi;
        }
        atomicMin(&s->rkey[0], lo);
        atomicMax(&s->rkey[1], hi);
    }
}

#define ECCL_SMEM_MAX (65536 + 64)

cudaError_t eccl_compress_setup(void)
{
    cudaError_t e = eccl_compress32_setup();
    if (!e) e = cudaFuncSetAttribute(eccl_compress_kernel<256>, cudaFuncAttributeMaxDynamicSharedMemorySize, ECCL_SMEM_MAX);
    if (!e) e = cudaFuncSetAttribute(eccl_compress_kernel<1024>, cudaFuncAttributeMaxDynamicSharedMemorySize, ECCL_SMEM_MAX);
    return e;
}

cudaError_t eccl_launch_compress(const eccl_comp_args &a, int is64, int big, cudaStream_t st)
{
    if (a.nt == 0) {
        eccl_compress_empty_kernel<<<1, 1, 0, st>>>(a);
        return cudaGetLastError();
    }
    if (!is64) return eccl_launch_compress32(a, big, st); /* thread-per-block (compress32.cu) */
    const size_t smem = (size_t)256 * 32 * 8; /* the 256 blocks' rows, with the staging over them */
    const unsigned grid = (unsigned)a.nt;
    if (!big) eccl_compress_kernel<256><<<grid, 256, smem, st>>>(a);
    else eccl_compress_kernel<1024><<<grid, 1024, smem, st>>>(a);
    return cudaGetLastError();
}

cudaError_t eccl_launch_range(const void *x, const eccl_view &v, uint64_t n, int is64, eccl_dev_scratch *s,
                              cudaStream_t st)
{
    eccl_range_kernel<<<view_grid(n), 256, 0, st>>>(x, v, n, is64, s);
    return cudaGetLastError();
}

static __global__ void eccl_fill_view_kernel(void *x, eccl_view vw, uint64_t n, int is64, uint64_t bits)
{
    grid_view_for(vw, n, [&](uint64_t o) {
        if (is64) ((unsigned long long *)x)[o] = bits;
        else ((unsigned *)x)[o] = (unsigned)bits;
    });
}

cudaError_t eccl_launch_fill_view(void *x, const eccl_view &v, uint64_t n, int is64, uint64_t bits, cudaStream_t st)
{
    if (n == 0) return cudaSuccess;
    eccl_fill_view_kernel<<<view_grid(n), 256, 0, st>>>(x, v, n, is64, bits);
    return cudaGetLastError();
}

static __global__ void eccl_div_view_kernel(void *x, eccl_view vw, uint64_t n, int is64, unsigned p)
{
    grid_view_for(vw, n, [&](uint64_t o) {
        if (is64) ((double *)x)[o] = __ddiv_rn(((double *)x)[o], (double)p);
        else ((float *)x)[o] = __fdiv_rn(((float *)x)[o], (float)p);
    });
}

cudaError_t eccl_launch_div_view(void *x, const eccl_view &v, uint64_t n, int is64, unsigned p, cudaStream_t st)
{
    if (n == 0) return cudaSuccess;
    eccl_div_view_kernel<<<view_grid(n), 256, 0, st>>>(x, v, n, is64, p);
    return cudaGetLastError();
}

// out[i] = in[0][i] op ... op in[n-1][i] over the ranks of a node (eccl_launch_reduce_n).
template <typename U>
static __global__ void eccl_reduce_n_kernel(U *out, eccl_node_srcs in, int n, uint64_t reals, int op)
{
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < reals; i += (uint64_t)gridDim.x * blockDim.x) {
        U acc = ((const U *)in.p[0])[i];
        for (int k = 1; k < n; k++) {
            U b = ((const U *)in.p[k])[i];
            if (sizeof(U) == 8) acc = (U)apply64(op, (unsigned long long)acc, (unsigned long long)b);
            else acc = (U)apply32(op, (unsigned)acc, (unsigned)b);
        }
        out[i] = acc;
    }
}

cudaError_t eccl_launch_reduce_n(void *out, const eccl_node_srcs &in, int n, uint64_t reals, int is64, int op,
                                 cudaStream_t st)
{
    if (reals == 0) return cudaSuccess;
    if (n < 1 || n > ECCL_NODE_MAX) return cudaErrorInvalidValue;
    uint64_t blocks = (reals + 255) / 256;
    unsigned grid = blocks > 4096 ? 4096u : (unsigned)blocks;
    if (is64) eccl_reduce_n_kernel<unsigned long long><<<grid, 256, 0, st>>>((unsigned long long *)out, in, n, reals, op);
    else eccl_reduce_n_kernel<unsigned><<<grid, 256, 0, st>>>((unsigned *)out, in, n, reals, op);
    return cudaGetLastError();
}
