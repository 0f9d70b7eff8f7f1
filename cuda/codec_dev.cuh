// codec_dev.cuh - device-side pieces of the CUDA codec shared by the compression, decompression
// and homomorphic kernels: the scratch layout, warp-level block coding, byte access to shared
// memory, and the stream checksum. The rules themselves (quantization, codes, sizes) come from
// src/codec/format.h, the same header the CPU codec uses.
#ifndef ECCL_CUDA_CODEC_DEV_CUH
#define ECCL_CUDA_CODEC_DEV_CUH

#include <stdint.h>
#include <stdio.h>

#include "codec/format.h"

// The result codes, from the single list (eccl.h has the same enum: kernels do not include it,
// so that nothing MPI-related reaches device code).
#ifndef ECCL_H
enum eccl_dev_result {
#define X(name, value, msg) name = value,
#include "eccl_errors.def"
#undef X
};
#endif

// Knob (NVCCFLAGS=-DECCL_PLANES_PACKED=0): the float32 thread-per-block coders transpose narrow
// blocks' bit planes through packed lanes (enc32.cuh planes, dec.cuh unplanes) or one bit at a
// time. H100, 1 GiB: decompression +10-30%, the homomorphic kernel +9-27%, compression +2-12%.
#ifndef ECCL_PLANES_PACKED
#define ECCL_PLANES_PACKED 1
#endif
// Knob (NVCCFLAGS=-DECCL_PLANES_TRANSPOSE=0): the thread-per-block decoders read more than 16
// planes as a 32 x 32 bit transposition (dec.cuh unplanes_transpose) rather than bit by bit.
#ifndef ECCL_PLANES_TRANSPOSE
#define ECCL_PLANES_TRANSPOSE 1
#endif

#define ECCL_WARP_FULL 0xffffffffu
#define ECCL_CTA 256 /* threads per CTA: 8 warps, one tile of 256 blocks */

// Per-codec device scratch. Counters never reset: launches pass the values they start from.
struct eccl_dev_scratch {
    unsigned long long tile_counter; // dynamic tile ids (compression: look-back order)
    unsigned long long done_counter; // CTAs finished (the last one finishes the stream)
    unsigned long long checksum;     // sum of word hashes of the current launch (reset by the finisher)
    unsigned long long checksum2;    // homomorphic kernel: the same for its input stream
    unsigned long long total_size;   // stream size, written by the last tile
    int error;                       // first eccl_result_t detected on the device (0 = none)
    int pad;
    unsigned long long rkey[2];      // min, max keys (eccl_fmt_key64) of the last range reduction
    unsigned long long status[1];    // look-back: one per tile (grows with the largest stream)
};

__device__ __forceinline__ void eccl_dev_fail(eccl_dev_scratch *s, int code) { atomicCAS(&s->error, 0, code); }

// Where a kernel's values live (eccl_cuda_compress_2d, decompress_2d; src/prims/prims.c views):
// rows == 0 is a contiguous array, value i at offset i; else a column-major matrix of `rows` reals
// per column, `ld` reals apart, whose values are taken in column order starting at value `first`:
// value i of the kernel is value first + i of the matrix (column (first+i) / rows, row (first+i) %
// rows). All three count reals (a complex element is two).
struct eccl_view {
    uint64_t rows, ld, first;
};

// The offsets of one tile's values (at most 8192, from the kernel's value v0 on) in a view, with
// the tile's first column and row worked out once (one 64-bit division per thread and tile).
struct tile_map {
    uint64_t rows, ld, col0, r0; // rows == 0: contiguous, value v0 + i at col0 + i
    __device__ __forceinline__ uint64_t at(uint32_t i) const
    {
        if (!rows) return col0 + i;
        uint64_t rr = r0 + i, c = col0;
        if (rr >= rows) {
            if (rows >= 8192) { // i < 8192 <= rows: at most one column further
                c++;
                rr -= rows;
            } else { // rr < rows + 8192 < 2^14: a 32-bit division
                uint32_t k = (uint32_t)rr / (uint32_t)rows;
                c += k;
                rr -= (uint64_t)k * rows;
            }
        }
        return c * ld + rr;
    }
};

__device__ __forceinline__ tile_map make_tile_map(const eccl_view &v, uint64_t v0)
{
    tile_map m;
    m.rows = v.rows;
    m.ld = v.ld;
    if (!v.rows) {
        m.col0 = v0;
        m.r0 = 0;
    } else {
        const uint64_t e = v.first + v0;
        m.col0 = e / v.rows;
        m.r0 = e - m.col0 * v.rows;
    }
    return m;
}

// Look-back status words: epoch (16 bits) | flag (2 bits) | value (46 bits, bytes).
// Windows a look-back inspects before it declares a predecessor lost (seconds of spinning; only a
// broken launch gets there) and reports ECCL_ERR_INTERNAL instead of hanging.
#define ECCL_LB_SPIN_LIMIT (1u << 22)
#define ECCL_LB_AGG 1ull
#define ECCL_LB_INC 2ull
__device__ __forceinline__ unsigned long long eccl_lb_pack(unsigned epoch, unsigned long long flag,
                                                           unsigned long long v)
{
    return ((unsigned long long)epoch << 48) | (flag << 46) | v;
}

// ---- shared-memory bytes (payloads are byte-granular) ----
__device__ __forceinline__ void st_bytes(unsigned char *p, uint64_t v, int n)
{
    for (int k = 0; k < n; k++) p[k] = (unsigned char)(v >> (8 * k));
}
__device__ __forceinline__ uint64_t ld_bytes(const unsigned char *p, int n)
{
    uint64_t v = 0;
    for (int k = 0; k < n; k++) v |= (uint64_t)p[k] << (8 * k);
    return v;
}

// ---- warp reductions ----
__device__ __forceinline__ uint64_t warp_or64(uint64_t v)
{
    unsigned lo = __reduce_or_sync(ECCL_WARP_FULL, (unsigned)v);
    unsigned hi = __reduce_or_sync(ECCL_WARP_FULL, (unsigned)(v >> 32));
    return ((uint64_t)hi << 32) | lo;
}
__device__ __forceinline__ unsigned long long warp_sum64(unsigned long long v)
{
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(ECCL_WARP_FULL, v, o);
    return v;
}

// Sum over the warp, returned to every lane.
__device__ __forceinline__ unsigned long long warp_sum64_all(unsigned long long v)
{
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(ECCL_WARP_FULL, v, o);
    return v;
}

// Inclusive scan of 32 lanes with stride lag (1 or 2): v_i += v_{i-lag} + v_{i-2lag} + ...
__device__ __forceinline__ int64_t warp_scan_lag(int64_t v, int lag, int lane)
{
    for (int o = lag; o < 32; o <<= 1) {
        int64_t u = __shfl_up_sync(ECCL_WARP_FULL, v, o);
        if (lane >= o) v += u;
    }
    return v;
}

namespace {
// Decoupled look-back by one warp: the tile's aggregate is already published; lane k inspects
// predecessor j-k, 32 at a time, until a window reaches an inclusive prefix.
__device__ unsigned long long look_back_warp(eccl_dev_scratch *s, unsigned long long t, unsigned long long padded,
                                             unsigned epoch, int lane)
{
    volatile unsigned long long *st = s->status;
    unsigned long long excl = 0;
    long long j = (long long)t - 1; // the window is j, j-1, ..., j-31
    unsigned spins = 0;
    while (j >= 0) {
        if (++spins > ECCL_LB_SPIN_LIMIT) { // a predecessor never published: fail, never hang
            if (lane == 0) {
                eccl_dev_fail(s, ECCL_ERR_INTERNAL);
                printf("eccl: look-back gave up: tile %llu epoch %u window %lld\n", t, epoch, j);
            }
            break;
        }
        long long me = j - lane;
        unsigned long long w = me >= 0 ? st[me] : eccl_lb_pack(epoch, ECCL_LB_INC, 0); // before 0: nothing
        unsigned flag = (unsigned)(w >> 48) == epoch ? (unsigned)((w >> 46) & 3ull) : 0u;
        uint32_t ready = __ballot_sync(ECCL_WARP_FULL, flag != 0), inc = __ballot_sync(ECCL_WARP_FULL, flag == ECCL_LB_INC);
        // lanes up to the first inclusive one must all be ready
        int first_inc = inc ? __ffs(inc) - 1 : 32;
        uint32_t need = first_inc == 32 ? 0xFFFFFFFFu : (0xFFFFFFFFu >> (31 - first_inc));
        if ((ready & need) != need) continue; // someone in the window has not published yet
        unsigned long long v = lane <= first_inc ? (w & ((1ull << 46) - 1)) : 0;
        excl += warp_sum64_all(v);
        if (first_inc < 32) break;
        j -= 32;
    }
    if (lane == 0) atomicExch(&s->status[t], eccl_lb_pack(epoch, ECCL_LB_INC, excl + padded));
    return excl;
}
} // namespace

// ---- checksum ----
__device__ __forceinline__ unsigned long long chk_word(uint64_t w, uint64_t k) { return eccl_fmt_chk_word(w, k); }
// The two u64 words of a 16-byte chunk at byte position pos (a multiple of 16).
__device__ __forceinline__ unsigned long long chk_chunk(uint4 v, uint64_t pos)
{
    uint64_t k = pos / 8;
    return chk_word(((uint64_t)v.y << 32) | v.x, k) + chk_word(((uint64_t)v.w << 32) | v.z, k + 1);
}
// The 64-byte header (word 7, the checksum field, as 0).
__device__ __forceinline__ unsigned long long chk_header(const unsigned char *hb)
{
    unsigned long long sum = 0;
    for (int k = 0; k < 8; k++) sum += chk_word(k == 7 ? 0u : ld_bytes(hb + 8 * k, 8), (uint64_t)k);
    return sum;
}

// Sum over the threads of a CTA (up to 32 warps), returned to thread 0. tmp: 32 entries.
__device__ __forceinline__ unsigned long long cta_sum(unsigned long long v, unsigned long long *tmp)
{
    v = warp_sum64(v);
    int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    if (lane == 0) tmp[w] = v;
    __syncthreads();
    unsigned long long t = 0;
    if (threadIdx.x == 0)
        for (int k = 0; k < (int)(blockDim.x >> 5); k++) t += tmp[k];
    __syncthreads();
    return t;
}

// A sparse block's word transforms (doc/format.md 6.4, version 3): compact(w) gathers the bits of
// w at the ones of the nonzero map z into its low popcount(z) bits, in order (x86's pext), and
// expand(c) is the inverse (pdep). The five shift masks follow from z once per block (the
// parallel-suffix method of Hacker's Delight, section 7-4); each word then costs five rounds.
struct bit_gather {
    uint32_t z, mv[5];
    __device__ __forceinline__ bit_gather() {} // (set it before use: the masks cost about 60 instructions)
    __device__ __forceinline__ explicit bit_gather(uint32_t map) : z(map)
    {
        uint32_t m = map, mk = ~map << 1;
#pragma unroll
        for (int i = 0; i < 5; i++) {
            uint32_t mp = mk ^ (mk << 1); // parallel suffix XOR: the count of zeros to the right, mod 2
            mp ^= mp << 2;
            mp ^= mp << 4;
            mp ^= mp << 8;
            mp ^= mp << 16;
            const uint32_t v = mp & m; // the bits that move right by 2^i in round i
            mv[i] = v;
            m = (m ^ v) | (v >> (1 << i));
            mk &= ~mp;
        }
    }
    __device__ __forceinline__ uint32_t compact(uint32_t w) const
    {
        w &= z;
#pragma unroll
        for (int i = 0; i < 5; i++) {
            const uint32_t t = w & mv[i];
            w = (w ^ t) | (t >> (1 << i));
        }
        return w;
    }
    __device__ __forceinline__ uint32_t expand(uint32_t c) const
    {
#pragma unroll
        for (int i = 4; i >= 0; i--) c = (c & ~mv[i]) | ((c << (1 << i)) & mv[i]);
        return c & z;
    }
};

// A k-bit word (1 <= k <= 32, the bits above k zero) ORed into a sparse stream of words at bit
// position pos (doc/format.md 7), in shared memory; words that neighbouring blocks share take
// atomics (the float32 encoder's threads, the 64-bit warp coder's lanes).
__device__ __forceinline__ void put_bits(uint32_t *st, unsigned pos, uint32_t c, int k)
{
    const unsigned wi = pos >> 5, sh = pos & 31u;
    atomicOr(st + wi, c << sh);
    if (sh + (unsigned)k > 32u) atomicOr(st + wi + 1, c >> (32u - sh));
}

// The 64-byte header (doc/format.md section 3) as the kernels need it.
struct eccl_dev_header {
    unsigned char dtype, mode, vmajor; // vmajor: the format version written (0 means 1)
    uint32_t nsum;
    uint64_t count;
    double bound, eb, range;
};

__device__ __forceinline__ void write_header(unsigned char *b, const eccl_dev_header &h, uint64_t ssize)
{
    for (int k = 0; k < 64; k++) b[k] = 0;
    b[0] = 'E'; b[1] = 'C'; b[2] = 'C'; b[3] = 'L';
    b[ECCL_HDR_VMAJOR] = h.vmajor ? h.vmajor : 1;
    b[ECCL_HDR_VMINOR] = 0;
    b[ECCL_HDR_DTYPE] = h.dtype;
    b[ECCL_HDR_MODE] = h.mode;
    b[ECCL_HDR_BLOCKLOG] = ECCL_FMT_BLOCK_LOG2;
    b[ECCL_HDR_TILELOG] = ECCL_FMT_TILE_LOG2;
    st_bytes(b + ECCL_HDR_NSUM, h.nsum, 4);
    st_bytes(b + ECCL_HDR_COUNT, h.count, 8);
    st_bytes(b + ECCL_HDR_BOUND, eccl_f64_as_u64(h.bound), 8);
    st_bytes(b + ECCL_HDR_EB, eccl_f64_as_u64(h.eb), 8);
    st_bytes(b + ECCL_HDR_RANGE, eccl_f64_as_u64(h.range), 8);
    st_bytes(b + ECCL_HDR_SIZE, ssize, 8);
}

// eb in force (doc/format.md 3.1), as src/codec/stream.c computes it; -1 when invalid.
__device__ __forceinline__ double dev_eb_in_force(int mode, double bound, double range)
{
    if (mode == 0) return (bound == 0.0 && range == 0.0) ? 0.0 : -1.0;
    if (!(bound > 0.0) || !isfinite(bound)) return -1.0;
    if (mode == 1) {
        if (range != 0.0) return -1.0;
        return bound < ECCL_FMT_EB_CAP ? bound : ECCL_FMT_EB_CAP;
    }
    if (mode != 2 || !(range >= 0.0)) return -1.0;
    double e = bound * range;
    return e < ECCL_FMT_EB_CAP ? e : ECCL_FMT_EB_CAP;
}

// Quantization parameters of a stream (src/codec/block.c eccl_qparams_init).
struct eccl_dev_q {
    int quant, is64, lag;
    double eb, D, R;
    int64_t qmax;
};
__device__ __forceinline__ eccl_dev_q dev_qparams(int dtype, int mode, double eb)
{
    eccl_dev_q q;
    q.is64 = dtype == 2 || dtype == 4;
    q.lag = dtype >= 3 ? 2 : 1;
    q.eb = eb;
    q.quant = mode != 0 && eccl_fmt_can_quantize(eb);
    q.D = q.quant ? eccl_fmt_quantum(eb) : 0.0;
    q.R = q.quant ? 1.0 / q.D : 0.0;
    q.qmax = q.is64 ? ECCL_FMT_QMAX64 : ECCL_FMT_QMAX32;
    return q;
}

// ---- phase timing: an experiment build only (NVCCFLAGS=-DECCL_PHASE_TIMING) ----
// Thread 0 of every CTA stamps clock64() at the kernel's phase boundaries (ph[0..8]) and warp 7
// lane 0 around the look-back (ph[9], ph[10]); each CTA adds its phase durations to a
// per-translation-unit accumulator before it counts itself done, and the last CTA of the launch
// prints the mean SM cycles per tile and clears the accumulator. A normal build has none of it
// (the accumulator is global mutable state, and the stamps cost time).
#ifdef ECCL_PHASE_TIMING
#define ECCL_PH_N 11
namespace {
__device__ unsigned long long eccl_ph_acc[ECCL_PH_N];
__device__ void ph_add(const long long *ph)
{
    for (int k = 1; k <= 8; k++) atomicAdd(&eccl_ph_acc[k - 1], (unsigned long long)(ph[k] - ph[k - 1]));
    atomicAdd(&eccl_ph_acc[8], (unsigned long long)(ph[10] - ph[9]));
    atomicAdd(&eccl_ph_acc[9], 1ull);
}
__device__ void ph_print(const char *name)
{
    unsigned long long v[ECCL_PH_N];
    for (int k = 0; k < 10; k++) v[k] = atomicExch(&eccl_ph_acc[k], 0ull);
    double n = v[9] ? (double)v[9] : 1.0;
    printf("eccl-phase %s tiles %llu cycles/tile: open %.0f prep %.0f dec %.0f quant/comb %.0f plan %.0f pub %.0f "
           "img+lb %.0f out %.0f | lb-warp %.0f | total %.0f\n",
           name, v[9], v[0] / n, v[1] / n, v[2] / n, v[3] / n, v[4] / n, v[5] / n, v[6] / n, v[7] / n, v[8] / n,
           (double)(v[0] + v[1] + v[2] + v[3] + v[4] + v[5] + v[6] + v[7]) / n);
}
} // namespace
// (a clock read that the compiler may not move across memory operations and barriers)
__device__ __forceinline__ long long ph_clock(void)
{
    long long c;
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(c)::"memory");
    return c;
}
#define PH(arr, k)                                   \
    do {                                             \
        if (threadIdx.x == 0) (arr)[k] = ph_clock(); \
    } while (0)
#else
#define PH(arr, k) \
    do {           \
    } while (0)
#endif

#endif
