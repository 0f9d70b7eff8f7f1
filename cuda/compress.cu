// compress.cu - the compression kernel: one CTA per tile (256 blocks of 32 values), one warp per
// block at a time (lane i holds value i), a single pass with decoupled look-back for the tile
// offsets, the stream finished by the last CTA (header, checksum, size in device memory): no host
// synchronisation. Output byte-identical to src/codec (doc/format.md section 8).
#include "config.h"

#include <cuda_runtime.h>

#include "cuda/codec_dev.cuh"
#include "cuda/kernels.h"

namespace {

// Shared memory of the compression kernel (static part).
struct comp_smem {
    unsigned char codes[256];
    unsigned char qok[256];      // block quantizable
    long long tail[256][2];      // last lag integers of each block
    unsigned warp_bytes[8], warp_off[8];
    unsigned long long tile_off, tile_id, csum_tmp[8];
    eccl_dev_q q;
    eccl_dev_header h;
};

__device__ __forceinline__ double load_real(const void *x, uint64_t i, int is64)
{
    return is64 ? ((const double *)x)[i] : (double)((const float *)x)[i];
}
__device__ __forceinline__ uint64_t load_bits(const void *x, uint64_t i, int is64)
{
    return is64 ? ((const unsigned long long *)x)[i] : ((const unsigned *)x)[i];
}

// Write the sign map (when with_sign) and F planes of per-lane magnitudes m at o (the warp
// cooperates: lane j writes plane j). Returns the bytes written.
__device__ int warp_planes(unsigned char *o, uint64_t m, uint32_t sign, int F, int with_sign, int lane)
{
    int sb = with_sign ? 4 : 0;
    if (with_sign && lane == 0) st_bytes(o, sign, 4);
    uint32_t mine = 0;
    for (int j = 0; j < F; j++) {
        uint32_t w = __ballot_sync(ECCL_WARP_FULL, (m >> j) & 1u);
        if (lane == (j & 31)) mine = w;
        if ((j & 31) == 31 || j == F - 1) { // flush a round of up to 32 planes
            int base = j & ~31;
            if (lane <= j - base) st_bytes(o + sb + 4 * (base + lane), mine, 4);
        }
    }
    return sb + 4 * F;
}

// Encode one block (lane i: value i, i < r) into o; returns the payload size and sets *code.
// pred_have/p0/p1: the Lorenzo predecessors (section 6.2).
__device__ int encode_block(const eccl_dev_q &q, const void *x, uint64_t base, int r, int lane, int qok,
                            int pred_have, long long p0, long long p1, unsigned char *o, unsigned *code)
{
    const int W = q.is64 ? 8 : 4;
    const int act = lane < r;
    if (qok) {
        int64_t qi = 0;
        if (act) eccl_fmt_quantize(load_real(x, base + lane, q.is64), q.R, q.D, q.eb, q.qmax, q.is64, &qi);
        // Lorenzo deltas: d_i = q_i - q_{i-lag}; i < lag from the predecessor (or the head rule)
        int64_t prev = __shfl_up_sync(ECCL_WARP_FULL, qi, q.lag);
        int64_t q0 = __shfl_sync(ECCL_WARP_FULL, qi, 0);
        if (lane < q.lag) {
            if (pred_have) prev = lane == 0 ? p0 : p1;
            else prev = lane == 0 ? qi : q0; // head: d_0 = 0, d_1 = q_1 - q_0
        }
        int64_t dl = act ? qi - prev : 0, dn = act ? qi : 0;
        uint64_t ml = dl < 0 ? (uint64_t)0 - (uint64_t)dl : (uint64_t)dl;
        uint64_t mn = dn < 0 ? (uint64_t)0 - (uint64_t)dn : (uint64_t)dn;
        uint32_t negl = __ballot_sync(ECCL_WARP_FULL, dl < 0), posl = __ballot_sync(ECCL_WARP_FULL, dl > 0);
        uint32_t negn = __ballot_sync(ECCL_WARP_FULL, dn < 0), posn = __ballot_sync(ECCL_WARP_FULL, dn > 0);
        uint64_t alll = warp_or64(ml), alln = warp_or64(mn);
        int H = pred_have ? 0 : eccl_fmt_head_bytes(q.is64);
        eccl_fmt_choice_t cl = eccl_fmt_choose(alll, negl, posl, q.is64, H);
        eccl_fmt_choice_t cn = eccl_fmt_choose(alln, negn, posn, q.is64, 0);
        int none = cn.size < cl.size;
        eccl_fmt_choice_t c = none ? cn : cl;
        if (c.size <= r * W) {
            int off = 0;
            if (!none && !pred_have) {
                if (lane == 0) st_bytes(o, eccl_fmt_zigzag(q0), H);
                off = H;
            }
            if (c.F > 0) warp_planes(o + off, none ? mn : ml, none ? negn : negl, c.F, c.s == ECCL_FMT_SIGN_MAP, lane);
            *code = eccl_fmt_quant_code((unsigned)c.s, none ? ECCL_FMT_PRED_NONE : ECCL_FMT_PRED_LORENZO,
                                        (unsigned)c.fc);
            return c.size;
        }
    }
    // RAW (section 6.3): key differences, CODED if smaller than VERBATIM
    uint64_t u = act ? load_bits(x, base + lane, q.is64) : 0;
    uint64_t key = q.is64 ? eccl_fmt_key64(u) : (uint64_t)eccl_fmt_key32((uint32_t)u);
    uint64_t kprev = __shfl_up_sync(ECCL_WARP_FULL, key, q.lag);
    uint64_t k0 = __shfl_sync(ECCL_WARP_FULL, key, 0);
    if (lane == 1 && q.lag == 2) kprev = k0;
    if (lane == 0) kprev = key;
    uint64_t m = !act ? 0 : (key >= kprev ? key - kprev : kprev - key);
    uint32_t neg = __ballot_sync(ECCL_WARP_FULL, act && key < kprev);
    int F = eccl_fmt_bitlen64(warp_or64(m));
    int size = W + (F > 0 ? 4 + 4 * F : 0);
    if (F <= (q.is64 ? 62 : 32) && size < r * W) {
        if (lane == 0) st_bytes(o, u, W); /* value 0's encoding */
        if (F > 0) warp_planes(o + W, m, neg, F, 1, lane);
        *code = eccl_fmt_raw_code((unsigned)F);
        return size;
    }
    if (act) st_bytes(o + lane * W, u, W);
    *code = 0xFFu;
    return r * W;
}

// Look-back: thread 0 of each CTA publishes its padded size and finds its exclusive offset.
__device__ unsigned long long look_back(eccl_dev_scratch *s, unsigned long long t, unsigned long long padded,
                                        unsigned epoch)
{
    volatile unsigned long long *st = s->status;
    if (t == 0) {
        atomicExch(&s->status[0], eccl_lb_pack(epoch, ECCL_LB_INC, padded));
        return 0;
    }
    atomicExch(&s->status[t], eccl_lb_pack(epoch, ECCL_LB_AGG, padded));
    unsigned long long excl = 0;
    long long j = (long long)t - 1;
    while (j >= 0) {
        unsigned long long w = st[j];
        if ((unsigned)(w >> 48) != epoch || ((w >> 46) & 3ull) == 0) continue; // not published yet
        excl += w & ((1ull << 46) - 1);
        if (((w >> 46) & 3ull) == ECCL_LB_INC) break;
        j--;
    }
    __threadfence();
    atomicExch(&s->status[t], eccl_lb_pack(epoch, ECCL_LB_INC, excl + padded));
    return excl;
}

} // namespace

__global__ void __launch_bounds__(ECCL_CTA) eccl_compress_kernel(eccl_comp_args a)
{
    extern __shared__ __align__(16) unsigned char stage[];
    __shared__ comp_smem sm;
    const int tid = threadIdx.x, lane = tid & 31, w = tid >> 5;
    eccl_dev_scratch *s = a.s;
    if (tid == 0) {
        sm.tile_id = atomicAdd(&s->tile_counter, 1ull) - a.tile_base;
        eccl_dev_header h = a.h;
        if (a.rel_range_on_device) { // REL with the range computed by eccl_range_kernel
            unsigned long long kmin = s->rkey[0], kmax = s->rkey[1];
            double lo = eccl_u64_as_f64(eccl_fmt_unkey64(kmin)), hi = eccl_u64_as_f64(eccl_fmt_unkey64(kmax));
            h.range = kmin <= kmax ? hi - lo : 0.0;
            h.eb = dev_eb_in_force(2, h.bound, h.range);
        }
        sm.h = h;
        sm.q = dev_qparams(h.dtype, h.mode, h.eb);
    }
    __syncthreads();
    const unsigned long long t = sm.tile_id;
    const eccl_dev_q q = sm.q;
    const uint64_t b0 = t << 8, nblk = a.nb - b0 < 256 ? a.nb - b0 : 256;

    // Phase A: which blocks quantize, and their last integers (the successors' predecessors).
    for (int k = 0; k < 32; k++) {
        uint64_t b = (uint64_t)w * 32 + k;
        if (b >= nblk) break;
        uint64_t gb = b0 + b;
        int r = eccl_fmt_block_len(a.n, gb);
        int64_t qi = 0;
        int ok = 1;
        if (q.quant && lane < r) ok = eccl_fmt_quantize(load_real(a.x, gb * 32 + lane, q.is64), q.R, q.D, q.eb, q.qmax, q.is64, &qi);
        int all = q.quant && __all_sync(ECCL_WARP_FULL, ok);
        long long t1 = __shfl_sync(ECCL_WARP_FULL, qi, r - 1), t0 = __shfl_sync(ECCL_WARP_FULL, qi, r - q.lag);
        if (lane == 0) {
            sm.qok[b] = (unsigned char)all;
            sm.tail[b][0] = t0;
            sm.tail[b][1] = t1;
        }
    }
    __syncthreads();

    // Phase B: encode each block into this warp's staging area.
    unsigned char *mine = stage + (size_t)w * a.stage_per_warp;
    int off = 0;
    for (int k = 0; k < 32; k++) {
        uint64_t b = (uint64_t)w * 32 + k;
        if (b >= nblk) break;
        uint64_t gb = b0 + b;
        int r = eccl_fmt_block_len(a.n, gb);
        // the predecessor: the previous block of the tile, if it is QUANT (it is whenever it
        // quantizes: a full block always fits, and only the stream's last block can be short)
        int have = b > 0 && sm.qok[b - 1];
        unsigned code = 0;
        int size = encode_block(q, a.x, gb * 32, r, lane, sm.qok[b], have, have ? sm.tail[b - 1][0] : 0,
                                have ? sm.tail[b - 1][1] : 0, mine + off, &code);
        if (lane == 0) sm.codes[b] = (unsigned char)code;
        off += size;
        __syncwarp();
    }
    if (lane == 0) sm.warp_bytes[w] = (unsigned)off;
    __syncthreads();

    // Tile layout and global offset.
    if (tid == 0) {
        unsigned tot = 0;
        for (int k = 0; k < 8; k++) {
            sm.warp_off[k] = tot;
            tot += sm.warp_bytes[k];
        }
        unsigned long long padded = (tot + 15u) & ~15ull;
        sm.tile_off = look_back(s, t, padded, a.epoch);
        sm.warp_bytes[0] = tot; // reuse: total bytes
        sm.csum_tmp[0] = padded;
        if (t == a.nt - 1) s->total_size = a.P + sm.tile_off + padded;
    }
    __syncthreads();
    const unsigned tot = sm.warp_bytes[0];
    const unsigned padded = (unsigned)sm.csum_tmp[0];
    // Compact the warps' runs to the left, in warp order (each run moves left only).
    for (int ww = 1; ww < 8; ww++) {
        if (w == ww) {
            unsigned len = (ww == 7 ? tot : sm.warp_off[ww + 1]) - sm.warp_off[ww];
            unsigned char *src = stage + (size_t)ww * a.stage_per_warp, *dst = stage + sm.warp_off[ww];
            for (unsigned c = 0; c < len; c += 32) {
                unsigned char v = c + lane < len ? src[c + lane] : 0;
                __syncwarp();
                if (c + lane < len) dst[c + lane] = v;
                __syncwarp();
            }
        }
        __syncthreads();
    }
    for (unsigned z = tot + tid; z < padded; z += ECCL_CTA) stage[z] = 0;
    __syncthreads();

    // Copy out (16-byte stores: tile offsets are multiples of 16) and hash what this CTA writes.
    const unsigned long long gpos = a.P + sm.tile_off;
    unsigned long long h = 0;
    for (unsigned c = tid; c < padded / 16; c += ECCL_CTA) {
        uint4 v = *(const uint4 *)(stage + 16 * c);
        *(uint4 *)(a.out + gpos + 16 * c) = v;
        uint64_t k = (gpos + 16 * c) / 4;
        h += chk_word(v.x, k) + chk_word(v.y, k + 1) + chk_word(v.z, k + 2) + chk_word(v.w, k + 3);
    }
    // block codes (and, for the last tile, the zero padding up to the payload)
    const uint64_t cstart = 64 + 8 * a.nt + b0, cend = t == a.nt - 1 ? a.P : cstart + 256;
    for (uint64_t z = cstart + tid; z < cend; z += ECCL_CTA)
        a.out[z] = z - cstart < nblk ? sm.codes[z - cstart] : 0;
    __syncthreads();
    for (uint64_t wd = cstart / 4 + tid; wd < cend / 4; wd += ECCL_CTA) {
        uint32_t v = 0;
        for (int k = 0; k < 4; k++) {
            uint64_t z = 4 * wd + k;
            v |= (uint32_t)(z - cstart < nblk ? sm.codes[z - cstart] : 0) << (8 * k);
        }
        h += chk_word(v, wd);
    }
    if (tid == 0) { // tile index entry
        *(unsigned long long *)(a.out + 64 + 8 * t) = sm.tile_off;
        uint64_t k = (64 + 8 * t) / 4;
        h += chk_word((uint32_t)sm.tile_off, k) + chk_word((uint32_t)(sm.tile_off >> 32), k + 1);
    }
    h = cta_sum(h, sm.csum_tmp);
    if (tid == 0) {
        atomicAdd(&s->checksum, h);
        __threadfence();
        unsigned long long done = atomicAdd(&s->done_counter, 1ull) - a.done_base;
        if (done == a.nt - 1) { // the last CTA: header and checksum
            __threadfence();
            unsigned long long size = *(volatile unsigned long long *)&s->total_size;
            eccl_dev_header hd = sm.h;
            unsigned char hb[64];
            write_header(hb, hd, size);
            unsigned long long sum = atomicExch(&s->checksum, 0ull);
            for (int k = 0; k < 16; k++) {
                uint32_t v = k >= 14 ? 0u : (uint32_t)ld_bytes(hb + 4 * k, 4);
                sum += chk_word(v, (uint64_t)k);
            }
            st_bytes(hb + ECCL_HDR_CHECKSUM, sum, 8);
            for (int k = 0; k < 64; k++) a.out[k] = hb[k];
            if (a.d_size) *a.d_size = size;
        }
    }
}

// A stream of zero elements: the header alone.
__global__ void eccl_compress_empty_kernel(eccl_comp_args a)
{
    unsigned char hb[64];
    write_header(hb, a.h, 64);
    unsigned long long sum = 0;
    for (int k = 0; k < 16; k++) sum += chk_word(k >= 14 ? 0u : (uint32_t)ld_bytes(hb + 4 * k, 4), (uint64_t)k);
    st_bytes(hb + ECCL_HDR_CHECKSUM, sum, 8);
    for (int k = 0; k < 64; k++) a.out[k] = hb[k];
    if (a.d_size) *a.d_size = 64;
}

// Min and max of the finite values (REL bounds), as ordered keys so that atomics compare them.
__global__ void eccl_range_kernel(const void *x, uint64_t n, int is64, eccl_dev_scratch *s)
{
    __shared__ unsigned long long tmp[2][8];
    unsigned long long lo = ~0ull, hi = 0;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (uint64_t)gridDim.x * blockDim.x) {
        double v = is64 ? ((const double *)x)[i] : (double)((const float *)x)[i];
        if (isfinite(v)) {
            unsigned long long k = eccl_fmt_key64(eccl_f64_as_u64(v));
            lo = k < lo ? k : lo;
            hi = k > hi ? k : hi;
        }
    }
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
