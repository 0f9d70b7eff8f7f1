// compress64.cu - the compression kernel for float64 and complex128 streams (contiguous arrays and
// matrix views): one CTA per tile and, where the tile allows it, one THREAD per block, as
// compress32.cu does for float32.
//
// The fast path holds when every block of the tile quantizes and all its integers lie within
// +-(2^30 - 1) (a value below about 5e8 quanta: |x| < 1e3 at ABS 1e-6, for instance). Then the
// integers and their deltas fit 32 bits, and the float32 coder's per-thread plans apply
// (enc32.cuh plan_quant<true>: 6-byte head values, 45 planes behind the plane code 31). Phase A
// quantizes with coalesced 16-byte loads into rows of 32-bit integers; phase B plans every block
// in a thread, a CTA scan places the blocks, each thread writes its block's image into shared
// memory, and the image goes out with 16-byte stores.
//
// Only the tile's first block can carry a head value (no block of a fast tile is RAW), and its
// 6 bytes are the only field that is not a multiple of 4 bytes: the image is built 2 bytes into
// shared memory when that block has one, so every later field is word-aligned there, and the
// copy-out shifts it back by funnel shifts.
//
// Any other tile (a value that does not quantize, NaN or inf, a larger integer, a short last block
// that QUANT cannot hold, LOSSLESS, a bound too small to quantize) is coded by compress.cu's
// warp-per-block tile coder (enc64.cuh compress_tile), in the same launch: tiles are independent
// but for the look-back and the finishing CTA, which both coders share. Same bytes as src/codec.
#include "config.h"

#include <cuda_runtime.h>

#include "cuda/codec_dev.cuh"
#include "cuda/dec.cuh"
#include "cuda/enc32.cuh"
#include "cuda/enc64.cuh"
#include "cuda/kernels.h"

// Experiment knob (NVCCFLAGS=-DECCL_C64_FAST=0): contiguous 64-bit streams by compress.cu alone.
#ifndef ECCL_C64_FAST
#define ECCL_C64_FAST 1
#endif
#ifndef ECCL_C64_MINB // CTAs per SM the 256-thread kernel's registers are sized for
#define ECCL_C64_MINB 3
#endif
// Dynamic shared memory: the rows of compress_tile (256 blocks of 32 64-bit words), which the
// fast path's rows of 32-bit integers and its image (at most 2 + 256 * 190 bytes) overlay.
#define C64_SMEM (256 * 32 * 8)

namespace {

constexpr int C64_QW = (1 << 30) - 1; // the fast path's integers: within +-C64_QW

struct c64_smem {
    comp_smem c;    // what compress_tile needs (tile id, parameters, header), the codes and qok
    tile_map map;   // VIEW: where the tile's values are read
    int wsum[8];    // per warp of planners: the inclusive sum of its blocks' sizes, then its offset
    int wbits[8];   // the same for a sparse tile's stream bits (version 3)
    unsigned shift; // 2 when block 0 carries a head value (the image starts 2 bytes in), else 0
};

// Values i, i+1 (i even) of x (n values; zeros beyond), one 16-byte load where both exist.
__device__ __forceinline__ double2 load2(const double *x, uint64_t i, uint64_t n)
{
    if (i + 1 < n) return *(const double2 *)(x + i);
    return make_double2(i < n ? x[i] : 0.0, 0.0);
}

// The same for a tile's values i, i+1 through its map (codec_dev.cuh): one 16-byte load when vec
// (the view's pairs are aligned and never straddle a column), else one per value.
__device__ __forceinline__ double2 load2_map(const double *x, const tile_map &map, int vec, uint64_t i, uint64_t n)
{
    if (vec && i + 1 < n) return *(const double2 *)(x + map.at((uint32_t)i));
    return make_double2(i < n ? x[map.at((uint32_t)i)] : 0.0, i + 1 < n ? x[map.at((uint32_t)(i + 1))] : 0.0);
}

// Phase A of the fast path: the tile's integers into rows of ROW words (nv values of the array at
// xp laid out as v: from xp + v0, or VIEW, through sm.map); each lane quantizes two neighbours, so a
// warp covers two blocks per step. sm.c.qok[b]: block b quantizes and every integer fits the fast
// path. Returns whether every block of the tile does.
template <int NT, bool VIEW>
__device__ __forceinline__ int quantize_tile64(const void *xp, const eccl_view &v, c64_smem &sm, int *qs, uint64_t v0,
                                               uint64_t nv, int nblk, int w, int lane)
{
    const eccl_dev_q q = sm.c.q;
    constexpr uint64_t STEP = NT / 32 * 64;
    const int vec = !VIEW || (!(v.rows & 1) && !(v.ld & 1) && !(v.first & 1) && !((uintptr_t)xp & 15));
    const double *x = VIEW ? (const double *)xp : (const double *)xp + v0;
    const uint64_t i0 = (uint64_t)w * 64 + 2 * lane;
    double2 nxt = VIEW ? load2_map(x, sm.map, vec, i0, nv) : load2(x, i0, nv);
#pragma unroll 1
    for (uint64_t g = (uint64_t)w * 64; g < nv; g += STEP) {
        const uint64_t i = g + 2 * lane;
        const double2 xv = nxt;
        if (g + STEP < nv) nxt = VIEW ? load2_map(x, sm.map, vec, i + STEP, nv) : load2(x, i + STEP, nv);
        long long q0 = 0, q1 = 0;
        int ok = 1;
        if (i < nv) ok &= quantize(xv.x, q, &q0) && q0 <= C64_QW && q0 >= -C64_QW;
        if (i + 1 < nv) ok &= quantize(xv.y, q, &q1) && q1 <= C64_QW && q1 >= -C64_QW;
        int *row = qs + ROW * (int)(i >> 5) + (int)(i & 31);
        row[0] = (int)q0;
        row[1] = (int)q1;
        const uint32_t bal = __ballot_sync(ECCL_WARP_FULL, ok);
        if ((lane & 15) == 0 && i < nv) sm.c.qok[i >> 5] = ((bal >> lane) & 0xFFFFu) == 0xFFFFu;
    }
    __syncthreads();
    const int b = threadIdx.x;
    return __syncthreads_and(b >= nblk || sm.c.qok[b]);
}

// The fast path's phase B to the end: plans (returns 0, with nothing written, when a block cannot
// be QUANT: the caller codes the tile with compress_tile), placement, image, copy-out, codes, tile
// index, checksum, and the header from the last CTA. The homomorphic kernel passes its input
// stream's checksum field (in_checksum) and this CTA's share of the input's hash (hin, the same on
// every thread): added to checksum2 once the tile is committed to this path, compared by the
// last CTA (as compress_tile<.., true> does).
// V: the newest version the instance writes (the header's vmajor says which this stream is).
// Version 3 prices the four forms per thread (plan_quant's want3) and chooses as the float32
// encoder does (choose_form3; a fast tile has no RAW block); a sparse tile's stream follows the
// payload in the image at A = align4(tot) (image byte sh + A, which need not be word-aligned:
// the bits go in at 8 * (sh + A) from the image's start), zeroed before the blocks OR their
// compacted words into it (put_bits).
template <int NT, int V>
__device__ int encode_tile64(const eccl_comp_args &a, c64_smem &sm, int *qs, unsigned char *img, uint64_t t,
                             uint64_t b0, int nblk, const unsigned long long *in_checksum = nullptr,
                             unsigned long long hin = 0)
{
    const int tid = threadIdx.x, lane = tid & 31, w = tid >> 5;
    eccl_dev_scratch *s = a.s;
    const eccl_dev_q q = sm.c.q;
    const int b = tid;
    uint32_t m[32];
    plan p;
    p.size = 0;
    p.head = 0;
    p.quant = 0;
    const int l2 = V >= 2 && sm.c.h.vmajor >= 2 && q.lag == 1; // (version 2: price form 1 too)
    unsigned want3 = 0; // (version 3: every form the stream allows, doc/format.md 4.1)
    if (V >= 3 && sm.c.h.vmajor >= 3)
        for (unsigned f = 0; f < 4; f++) want3 |= (unsigned)eccl_fmt_form_ok(f, 3, q.quant, q.lag) << f;
    const int r = b < nblk && b0 + b == a.nb - 1 ? eccl_fmt_block_len(a.n, a.nb - 1) : 32;
    p.sparse = p.sbits = 0;
    if (b < nblk) p = plan_quant<true, (V < 2)>(q, qs, b, r, b > 0, m, l2, want3 > 1u ? want3 : 0u);
    if (__syncthreads_or(b < nblk && p.size < 0)) return 0; // (a short last block QUANT cannot hold)
    unsigned form = ECCL_FMT_FORM_NONE;
    if (V >= 2) { // the tile's form, then the chosen encoding's magnitudes (second-order ones reach
                  // 2^32 - 4: still 32-bit words)
        if (V >= 3 && want3 > 1u) form = choose_form3(p, b < nblk, b > 0, 0u, want3, (unsigned *)sm.c.csum_tmp, &sm.c.form);
        else if (l2) form = choose_form(p, b < nblk, b > 0, sm.c.csum_tmp, &sm.c.form);
        if (b < nblk) quant_mags(p, qs, b, r, b > 0, q.lag, m);
    }
    const int sparse = V >= 3 && form >= ECCL_FMT_FORM_S1;
    if (b < nblk) {
        sm.c.codes[b] = (unsigned char)p.code;
        if (b == 0) sm.shift = p.head ? 2u : 0u;
    }
    if (in_checksum && tid == 0 && hin) atomicAdd(&s->checksum2, hin);
    int incl = p.size, bincl = p.sbits; // CTA exclusive scans of the sizes (even numbers) and stream bits
    for (int o = 1; o < 32; o <<= 1) {
        int u = __shfl_up_sync(ECCL_WARP_FULL, incl, o), ub = __shfl_up_sync(ECCL_WARP_FULL, bincl, o);
        if (lane >= o) incl += u, bincl += ub;
    }
    if (lane == 31 && w < 8) sm.wsum[w] = incl, sm.wbits[w] = bincl;
    __syncthreads();
    if (tid == 0) { // the tile's size, published at once so successors can go on
        unsigned tot = 0, bits = 0;
        for (int k = 0; k < 8; k++) {
            unsigned v = (unsigned)sm.wsum[k], vb = (unsigned)sm.wbits[k];
            sm.wsum[k] = (int)tot;
            sm.wbits[k] = (int)bits;
            tot += v;
            bits += vb;
        }
        unsigned long long padded = sparse ? eccl_fmt_sparse_tile_size(tot, bits) : (tot + 15u) & ~15ull;
        atomicExch(&s->status[t], eccl_lb_pack(a.epoch, t == 0 ? ECCL_LB_INC : ECCL_LB_AGG, padded));
        sm.c.total = tot;
        sm.c.padded = (unsigned)padded;
    }
    __syncthreads();
    const unsigned tot = sm.c.total, padded = sm.c.padded, sh = sm.shift;
    uint32_t *const img32w = (uint32_t *)img;
    if (sparse) { // the stream and the padding zeroed before the bits go in (sh + tot is a multiple
        // of 4: only block 0's head value is not, and it makes sh 2), and the word after them,
        // which the copy-out's funnel shifts read
        for (unsigned z = (sh + tot) / 4 + tid; z <= (sh + padded) / 4; z += NT) img32w[z] = 0;
        __syncthreads();
    }
    if (w == NT / 32 - 1) { // the last warp looks back while the others build the image
        unsigned long long off = t == 0 ? 0 : look_back_warp(s, t, padded, a.epoch, lane);
        if (lane == 0) {
            sm.c.tile_off = off;
            if (t == a.nt - 1) s->total_size = a.P + off + padded;
        }
    }
    if (b < nblk) { // the block's image: every field word-aligned but block 0's head value
        unsigned at = sh + (unsigned)(sm.wsum[w] + incl - p.size);
        if (p.head) { // (block 0 only: 6 bytes at 2..7, the zigzag value below 2^31)
            *(uint16_t *)(img + 2) = (uint16_t)p.head_word;
            *(uint32_t *)(img + 4) = p.head_word >> 16;
            at = 8;
        }
        uint32_t *o = (uint32_t *)(img + at);
        const int F = p.F < 32 ? p.F : 32; // planes 32..44 of a 45-plane block are zero
        if (V >= 3 && p.sparse) { // the map; the sign word and the planes compacted onto it
            if (p.F > 0) {
                uint32_t z = 0;
#pragma unroll
                for (int i = 0; i < 32; i++) z |= (uint32_t)(m[i] != 0u) << i;
                *o = z;
                const bit_gather g(z);
                const int k = __popc(z);
                const unsigned sb = sh + ((tot + 3u) & ~3u); // the stream's image byte
                uint32_t *st = img32w + sb / 4;
                unsigned pos = 8u * (sb & 3u) + (unsigned)(sm.wbits[w] + bincl - p.sbits);
                if (p.with_sign) {
                    put_bits(st, pos, g.compact(p.neg), k);
                    pos += (unsigned)k;
                }
                planes_to([st, pos, k, &g](int j, uint32_t pw) { put_bits(st, pos + (unsigned)(j * k), g.compact(pw), k); },
                          m, F);
            }
        } else {
            if (p.with_sign) *o++ = p.neg;
            planes(o, m, F);
            for (int j = F; j < p.F; j++) o[j] = 0;
        }
    }
    __syncthreads();

    // Copy out with 16-byte stores (shifted back by sh bytes, bytes past tot zero: a sparse tile's
    // image is zero after its stream) and hash.
    const unsigned long long gpos = a.P + sm.c.tile_off;
    const uint32_t *img32 = (const uint32_t *)img;
    const unsigned lim = sparse ? padded : tot;
    unsigned long long h = 0;
    for (unsigned c = tid; c < padded / 16; c += NT) {
        uint32_t wd[4];
#pragma unroll
        for (int k = 0; k < 4; k++) {
            const unsigned pb = 16 * c + 4 * k; // tile byte of this word
            uint32_t v = sh ? __funnelshift_r(img32[4 * c + k], img32[4 * c + k + 1], 16) : img32[4 * c + k];
            if (pb >= lim) v = 0;
            else if (lim - pb < 4) v &= (1u << (8 * (lim - pb))) - 1u;
            wd[k] = v;
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
            v |= (uint64_t)(z < (uint64_t)nblk ? sm.c.codes[z] : 0) << (8 * k);
        }
        *(unsigned long long *)(a.out + 8 * wd) = v;
        h += chk_word(v, wd);
    }
    if (tid == 0) { // tile index entry
        const unsigned long long entry = eccl_fmt_index_entry(sm.c.tile_off, form);
        *(unsigned long long *)(a.out + 64 + 8 * t) = entry;
        h += chk_word(entry, (64 + 8 * t) / 8);
    }
    h = cta_sum(h, sm.c.csum_tmp);
    if (tid == 0) {
        atomicAdd(&s->checksum, h);
        __threadfence();
        unsigned long long done = atomicAdd(&s->done_counter, 1ull) - a.done_base;
        if (done == a.nt - 1) { // the last CTA: header and checksum
            __threadfence();
            unsigned long long size = *(volatile unsigned long long *)&s->total_size;
            unsigned char hb[64];
            write_header(hb, sm.c.h, size);
            if (in_checksum && atomicExch(&s->checksum2, 0ull) != *in_checksum) eccl_dev_fail(s, ECCL_ERR_CORRUPT);
            unsigned long long sum = atomicExch(&s->checksum, 0ull) + chk_header(hb);
            st_bytes(hb + ECCL_HDR_CHECKSUM, sum, 8);
            for (int k = 0; k < 16; k++) ((uint32_t *)a.out)[k] = (uint32_t)ld_bytes(hb + 4 * k, 4);
            if (a.d_size) *a.d_size = size;
        }
    }
    return 1;
}

} // namespace

// NT = 256 threads per CTA, or 1024 for small streams (fewer tiles than twice the SMs: 32 warps
// quantize a tile instead of 8). VIEW: the input is a view (a.v.rows != 0), read through the
// tile's map; one instance per layout, so that the contiguous kernel is the plain one.
// V: the newest format version the instance writes (the header's vmajor says which this stream
// is).
template <int NT, bool VIEW, int V>
__global__ void __launch_bounds__(NT, NT == 256 ? ECCL_C64_MINB : 1) eccl_compress64_kernel(eccl_comp_args a)
{
    extern __shared__ __align__(16) unsigned char dyn[];
    __shared__ c64_smem sm;
    const int tid = threadIdx.x, lane = tid & 31, w = tid >> 5;
    if (tid == 0) {
        sm.c.tile_id = atomicAdd(&a.s->tile_counter, 1ull) - a.tile_base;
        if (VIEW) sm.map = make_tile_map(a.v, sm.c.tile_id * 8192);
        eccl_dev_header h = a.h;
        if (a.rel_range_on_device) { // REL with the range computed by eccl_range_kernel
            unsigned long long kmin = a.s->rkey[0], kmax = a.s->rkey[1];
            double lo = eccl_u64_as_f64(eccl_fmt_unkey64(kmin)), hi = eccl_u64_as_f64(eccl_fmt_unkey64(kmax));
            h.range = kmin <= kmax ? hi - lo : 0.0;
            h.eb = dev_eb_in_force(2, h.bound, h.range);
        }
        sm.c.h = h;
        sm.c.q = dev_qparams(h.dtype, h.mode, h.eb);
    }
    __syncthreads();
    const uint64_t t = sm.c.tile_id, b0 = t << 8;
    const int nblk = (int)(a.nb - b0 < 256 ? a.nb - b0 : 256);
    const uint64_t v0 = b0 * 32, nv = a.n - v0 < 8192 ? a.n - v0 : 8192;
    int *qs = (int *)dyn;
    if (sm.c.q.quant && quantize_tile64<NT, VIEW>(a.x, a.v, sm, qs, v0, nv, nblk, w, lane) &&
        encode_tile64<NT, V>(a, sm, qs, dyn, t, b0, nblk))
        return;
    __syncthreads(); // (every thread is past the fast path's reads of the rows)
    compress_tile<NT, false, (V >= 3)>(a, sm.c, (long long *)dyn, nullptr, V >= 3 ? (v3tab *)(dyn + C64_SMEM) : nullptr);
}

// Dynamic shared memory of the instance for version V (version 3: its tables after the rows).
#define C64_SMEM_V(V) (C64_SMEM + ((V) >= 3 ? ECCL_V3TAB_BYTES : 0))

template <int V> static cudaError_t setup64(void)
{
    cudaError_t e = cudaSuccess;
    const void *k[4] = {(const void *)eccl_compress64_kernel<256, false, V>, (const void *)eccl_compress64_kernel<1024, false, V>,
                        (const void *)eccl_compress64_kernel<256, true, V>, (const void *)eccl_compress64_kernel<1024, true, V>};
    for (int i = 0; i < 4 && !e; i++) e = cudaFuncSetAttribute(k[i], cudaFuncAttributeMaxDynamicSharedMemorySize, C64_SMEM_V(V));
    return e;
}

cudaError_t eccl_compress64_setup(void)
{
    cudaError_t e = setup64<1>();
    if (!e) e = setup64<2>();
    return e ? e : setup64<3>();
}

int eccl_compress64_enabled(void) { return ECCL_C64_FAST; }

// V: the instance for version V (version 2's pricing would cost the version-1 kernel registers,
// version 3's the version-2 one).
template <int V> static void launch64(const eccl_comp_args &a, int big, cudaStream_t st)
{
    const unsigned g = (unsigned)a.nt;
    const size_t sh = C64_SMEM_V(V);
    if (a.v.rows) {
        if (big) eccl_compress64_kernel<1024, true, V><<<g, 1024, sh, st>>>(a);
        else eccl_compress64_kernel<256, true, V><<<g, 256, sh, st>>>(a);
    } else {
        if (big) eccl_compress64_kernel<1024, false, V><<<g, 1024, sh, st>>>(a);
        else eccl_compress64_kernel<256, false, V><<<g, 256, sh, st>>>(a);
    }
}

cudaError_t eccl_launch_compress64(const eccl_comp_args &a, int big, cudaStream_t st)
{
    if (a.h.vmajor >= 3) launch64<3>(a, big, st);
    else if (a.h.vmajor == 2) launch64<2>(a, big, st);
    else launch64<1>(a, big, st);
    return cudaGetLastError();
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
// SP: the tile may be sparse (version 3).
template <bool SP>
__device__ int decode_quant_ints64(const dec_smem &sm, const unsigned char *pay, int b, uint64_t n, uint64_t b0,
                                   int lane, long long *row)
{
    const eccl_dev_q &q = sm.q;
    qblock k = parse_quant<SP>(sm, pay, b, n, b0, 1);
    unsigned long long m = lane_bits_k<unsigned long long>(pay, sm, k, lane);
    long long v = lane < k.r ? ((k.negmask >> lane) & 1u ? 0ll - (long long)m : (long long)m) : 0;
    if (k.l2) { // second order (a form-1 tile): q_{-1} + (i + 1) v + the double prefix sum of d
        long long u = warp_scan_lag((int64_t)v, 1, lane), base = k.q0, vel = 0;
        u = warp_scan_lag(u, 1, lane);
        if (!k.head) {
            base = sm.tail[b - 1][1];
            vel = base - sm.tail[b - 1][0];
        }
        v = base + (long long)(lane + 1) * vel + u;
    } else if (!k.none) {
        v = warp_scan_lag_small<long long>(v, q.lag, k.F, lane);
        if (k.head) v += (long long)k.q0;
        else v += (long long)sm.tail[b - 1][q.lag == 1 ? 1 : (lane & 1)];
    }
    int bad = lane < k.r && (v > (long long)q.qmax || v < -(long long)q.qmax);
    if (lane < k.r) row[lane] = v;
    return !__any_sync(ECCL_WARP_FULL, bad);
}

} // namespace

// The fast path of a tile (its input tile placed and validated by tile_prepare, hin this thread's
// share of its hash): the local values quantized into rows of 32-bit integers (phase A of the
// compression), then one thread per block decodes the input block's integers and combines them
// with its row (SUM, MAX, MIN: the integer rules of doc/format.md section 11), and encode_tile64
// codes the rows. Returns 0, having written nothing, unless every input block is QUANT with at
// most 30 planes, every local value quantizes within +-C64_QW, and every result stays within
// +-C64_QW (then the rules give integers everywhere, as steps 1-3 would); the caller then takes
// steps 1-3, which also report a corrupt input. V: as eccl_hom64_kernel's (3: the input's sparse
// blocks read, the output priced in the four forms).
template <bool VIEW, int V>
__device__ int hom_tile_fast(const eccl_hom_args &a, const eccl_comp_args &o, dec_smem &ds, c64_smem &sm, int *qs,
                             uint64_t t, uint64_t nblk, unsigned long long hin, const unsigned long long *in_checksum)
{
    const int tid = threadIdx.x, lane = tid & 31, w = tid >> 5;
    const uint64_t b0 = t << 8, v0 = b0 * 32, nv = a.in.n - v0 < 8192 ? a.in.n - v0 : 8192;
    if (!quantize_tile64<256, VIEW>(a.local, a.lv, sm, qs, v0, nv, (int)nblk, w, lane)) return 0;
    const unsigned char *pay = tile_payload<false>(a.in, nullptr, ds);
    int fine = 1;
    if (tid < (int)nblk) {
        const unsigned code = ds.codes[tid];
        fine = !eccl_fmt_code_is_raw(code) && (code & 31u) < 31u;
        if (fine) {
            int *row = qs + ROW * tid;
            const int op = a.op;
            int fits = 1;
            fine = decode_ints_thread64<(V >= 3)>(ds, pay, tid, a.in.n, b0, [row, op, &fits](int i, long long qa) {
                const long long ql = row[i];
                const long long Q = op == ECCL_KOP_SUM ? qa + ql : op == ECCL_KOP_MAX ? (qa > ql ? qa : ql) : (qa < ql ? qa : ql);
                fits &= Q <= C64_QW && Q >= -C64_QW;
                row[i] = (int)Q;
            });
            fine &= fits;
        }
    }
    if (!__syncthreads_and(fine)) return 0;
    const unsigned long long hsum = cta_sum(hin, ds.csum_tmp);
    return encode_tile64<256, V>(o, sm, qs, (unsigned char *)qs, t, b0, (int)nblk, in_checksum, hsum); // (2: either version)
}

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
// ECCL_HOM64_FAST=0 (experiments): every tile through steps 1-3, one warp per block.
#ifndef ECCL_HOM64_FAST
#define ECCL_HOM64_FAST 1
#endif
#define HOM64_ROWS (256 * 32 * 8)
#define HOM64_SMEM HOM64_ROWS
// The instance for version V: version 3 also has the sparse input blocks' bit offsets
// (dec_smem.bitoff, 1 KiB) and compress_tile's tables after the rows.
#define HOM64_SMEM_V(V) (HOM64_SMEM + ((V) >= 3 ? 1024 + ECCL_V3TAB_BYTES : 0))

// VIEW: the local array is a view (a.lv.rows != 0), read through the tile's map (ds.map).
// V: the newest input version the instance reads (and writes: the output keeps the input's), 2 or
// 3 (a.in.vmax 3, eccl_cuda_codec_set_read_version).
template <bool VIEW, int V>
__global__ void __launch_bounds__(256, ECCL_HOM64_MINB) eccl_hom64_kernel(eccl_hom_args a)
{
    extern __shared__ __align__(16) unsigned char dyn[];
    __shared__ dec_smem ds;
    __shared__ c64_smem sm64;
    comp_smem &sm = sm64.c;
    constexpr int BPW = 32; // blocks per warp
    long long *rows = (long long *)dyn;      // 256 blocks of 32 values, then the output staging
    const int tid = threadIdx.x, lane = tid & 31, w = tid >> 5;
    eccl_dev_scratch *s = a.in.s;
    if (tid == 0) {
        hom_open(a, 1, ds, &sm.tile_id, &sm.h, &sm.q);
        if (VIEW) ds.map = sm64.map = make_tile_map(a.lv, sm.tile_id * 8192);
        ds.bitoff = V >= 3 ? (unsigned *)(dyn + HOM64_SMEM) : nullptr;
    }
    __syncthreads();
    const unsigned long long t = sm.tile_id;
    const eccl_dev_q q = sm.q;
    const uint64_t b0 = t << 8, nblk = a.in.nb - b0 < 256 ? a.in.nb - b0 : 256;
    const uint64_t v0 = b0 * 32;
    eccl_comp_args o; // where the encoders write (compress_tile<256, true>, encode_tile64)
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
    const unsigned long long *in_checksum = (const unsigned long long *)(a.in.in + ECCL_HDR_CHECKSUM);

    // 1. The input tile: placement, payload, validation, chains.
    int ok = ds.ok;
    unsigned long long hin = 0;
    if (ok) ok = tile_prepare<true, 256, false, false, (V >= 3)>(a.in, t, nullptr, ds, &hin);
    // The fast path (one thread per block) where the whole tile allows it, else steps 1-3 below.
    if (ok && ECCL_HOM64_FAST && q.quant && hom_tile_fast<VIEW, V>(a, o, ds, sm64, (int *)dyn, t, nblk, hin, in_checksum))
        return;
    __syncthreads(); // (every thread is past the fast path's use of the shared memory)
    //    Each block's integers (or a RAW block's bits) into its row; ds.flag[b] = 1 where the input
    //    block is integers.
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
                good &= decode_quant_ints64<(V >= 3)>(ds, pay, b, a.in.n, b0, lane, rows + b * 32);
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
        long long t1 = __shfl_sync(ECCL_WARP_FULL, Q, r - 1), t0 = __shfl_sync(ECCL_WARP_FULL, Q, r > 1 ? r - 2 : 0);
        if (lane == 0) {
            sm.qok[b] = (unsigned char)useint;
            sm.tail[b][0] = t0;
            sm.tail[b][1] = t1;
        }
    }
    hin = cta_sum(hin, ds.csum_tmp); // (synchronises the CTA: the rows and flags are complete)
    if (tid == 0 && hin) atomicAdd(&s->checksum2, hin);

    // 3. Encode the rows and write the tile out (the last CTA: header, checksum, input's verdict).
    compress_tile<256, true, (V >= 3)>(o, sm, rows, in_checksum,
                                       V >= 3 ? (v3tab *)(dyn + HOM64_SMEM + 1024) : nullptr);
}

template <int V> static cudaError_t hom64_setup1(void)
{
    cudaError_t e = cudaFuncSetAttribute(eccl_hom64_kernel<false, V>, cudaFuncAttributeMaxDynamicSharedMemorySize, HOM64_SMEM_V(V));
    return e ? e : cudaFuncSetAttribute(eccl_hom64_kernel<true, V>, cudaFuncAttributeMaxDynamicSharedMemorySize, HOM64_SMEM_V(V));
}

cudaError_t eccl_hom64_setup(void)
{
    cudaError_t e = hom64_setup1<2>();
    return e ? e : hom64_setup1<3>();
}

template <int V> static void hom64_launch1(const eccl_hom_args &a, cudaStream_t st)
{
    if (a.lv.rows) eccl_hom64_kernel<true, V><<<(unsigned)a.in.nt, 256, HOM64_SMEM_V(V), st>>>(a);
    else eccl_hom64_kernel<false, V><<<(unsigned)a.in.nt, 256, HOM64_SMEM_V(V), st>>>(a);
}

cudaError_t eccl_launch_hom64(const eccl_hom_args &a, cudaStream_t st)
{
    if (a.in.nt == 0) return eccl_launch_hom32(a, st); // the header alone (any dtype)
    if (a.in.vmax >= 3) hom64_launch1<3>(a, st);
    else hom64_launch1<2>(a, st);
    return cudaGetLastError();
}
