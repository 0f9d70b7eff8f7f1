// decompress.cu - the decompression kernel: one CTA per tile. The tile index gives the tile's
// payload offset directly (no prefix sum over the stream); within the tile a CTA scan of the block
// sizes places every block; warps decode blocks (lane i: value i), the Lorenzo chains that run
// from block to block are resolved with a segmented scan, and everything is validated exactly as
// src/codec does (canonical form, integer ranges, checksum), errors reported in device memory.
#include "config.h"

#include <cuda_runtime.h>

#include "cuda/codec_dev.cuh"
#include "cuda/kernels.h"

namespace {

struct dec_smem {
    int ok;
    eccl_dev_q q;
    uint64_t ssize, toff, tnext;
    unsigned char codes[256];
    int bsize[256];
    unsigned boff[257];
    unsigned char absb[256];      // QUANT block whose integers are absolute (head or predictor none)
    unsigned char isq[256];       // QUANT block
    long long tail[256][2];       // local integers at r-lag, r-1
    long long res[256][2];        // resolved (absolute) tails
    unsigned long long csum_tmp[8];
    int wscan[8];
};

// Parse and check the header (doc/format.md section 3) against what the caller expects.
__device__ int parse_header(const eccl_decomp_args &a, dec_smem &sm)
{
    if (a.in_cap < 64) return ECCL_ERR_CORRUPT;
    const unsigned char *b = a.in;
    if (b[0] != 'E' || b[1] != 'C' || b[2] != 'C' || b[3] != 'L') return ECCL_ERR_CORRUPT;
    if (b[ECCL_HDR_VMAJOR] > 1) return ECCL_ERR_UNSUPPORTED;
    if (b[ECCL_HDR_VMAJOR] != 1) return ECCL_ERR_CORRUPT;
    int dtype = b[ECCL_HDR_DTYPE], mode = b[ECCL_HDR_MODE];
    if (dtype < 1 || dtype > 4 || mode > 2) return ECCL_ERR_CORRUPT;
    if (b[ECCL_HDR_BLOCKLOG] != ECCL_FMT_BLOCK_LOG2 || b[ECCL_HDR_TILELOG] != ECCL_FMT_TILE_LOG2 ||
        b[ECCL_HDR_FLAGS] || b[ECCL_HDR_FLAGS + 1])
        return ECCL_ERR_CORRUPT;
    uint32_t nsum = (uint32_t)ld_bytes(b + ECCL_HDR_NSUM, 4);
    uint64_t count = ld_bytes(b + ECCL_HDR_COUNT, 8);
    double bound = eccl_u64_as_f64(ld_bytes(b + ECCL_HDR_BOUND, 8));
    double eb = eccl_u64_as_f64(ld_bytes(b + ECCL_HDR_EB, 8));
    double range = eccl_u64_as_f64(ld_bytes(b + ECCL_HDR_RANGE, 8));
    uint64_t ssize = ld_bytes(b + ECCL_HDR_SIZE, 8);
    int W = (dtype == 2 || dtype == 4) ? 8 : 4, reals = dtype >= 3 ? 2 : 1;
    if (nsum == 0 || count > ((uint64_t)1 << 62) / (uint64_t)(W * reals)) return ECCL_ERR_CORRUPT;
    double e = dev_eb_in_force(mode, bound, range);
    if (e < 0 || eccl_f64_as_u64(e) != eccl_f64_as_u64(eb)) return ECCL_ERR_CORRUPT;
    if (dtype != a.dtype || count != a.count) return ECCL_ERR_MISMATCH;
    if (ssize > a.in_cap || ssize < a.P || (ssize & 15u)) return ECCL_ERR_CORRUPT;
    sm.q = dev_qparams(dtype, mode, eb);
    sm.ssize = ssize;
    return 0;
}

// Decode the planes of a block at p: per-lane magnitude and whether the canonical form holds
// (block.c read_planes). zero_first: bit 0 is reserved.
__device__ int warp_read_planes(const unsigned char *p, int r, int F, int fc, unsigned s, int zero_first,
                                int is64, int lane, uint64_t *mag, uint32_t *neg)
{
    uint32_t valid = r == 32 ? 0xFFFFFFFFu : ((1u << r) - 1u);
    if (zero_first) valid &= ~1u;
    int sb = s == ECCL_FMT_SIGN_MAP ? 4 : 0;
    uint32_t sm = sb ? (uint32_t)ld_bytes(p, 4) : 0u;
    uint64_t m = 0;
    uint32_t nz = 0, top = 0;
    for (int base = 0; base < F; base += 32) {
        uint32_t word = base + lane < F ? (uint32_t)ld_bytes(p + sb + 4 * (base + lane), 4) : 0u;
        int cnt = F - base < 32 ? F - base : 32;
        for (int j = 0; j < cnt; j++) {
            uint32_t wj = __shfl_sync(ECCL_WARP_FULL, word, j);
            m |= (uint64_t)((wj >> lane) & 1u) << (base + j);
            nz |= wj;
            top = wj;
        }
    }
    int bad = (nz & ~valid) != 0;
    if (fc < 31 || !is64) bad |= top == 0;
    else bad |= eccl_fmt_bitlen64(warp_or64(m)) < 31;
    if (s == ECCL_FMT_SIGN_MAP) {
        bad |= (sm & ~nz) != 0 || sm == 0 || (nz & ~sm) == 0;
        *neg = sm;
    } else {
        *neg = s == ECCL_FMT_SIGN_POS ? 0u : nz;
    }
    *mag = m;
    return !bad;
}

__device__ __forceinline__ void store_bits(void *x, uint64_t i, uint64_t u, int is64)
{
    if (is64) ((unsigned long long *)x)[i] = u;
    else ((unsigned *)x)[i] = (unsigned)u;
}

// A RAW block: verbatim in parallel; CODED by lane 0, step by step as block.c read_raw does.
__device__ int decode_raw(const eccl_dev_q &q, unsigned code, const unsigned char *p, int r, int lane,
                          void *x, uint64_t base)
{
    const int W = q.is64 ? 8 : 4;
    if (code == 0xFFu) {
        if (lane < r) store_bits(x, base + lane, ld_bytes(p + lane * W, W), q.is64);
        return 1;
    }
    int ok = 1;
    if (lane == 0) {
        int F = (int)(code & 63u);
        uint64_t v0 = ld_bytes(p, W), key[32], mag[32];
        uint32_t neg = 0;
        for (int i = 0; i < 32; i++) mag[i] = 0;
        if (F > 0) {
            uint32_t valid = (r == 32 ? 0xFFFFFFFFu : ((1u << r) - 1u)) & ~1u, nz = 0, w = 0;
            neg = (uint32_t)ld_bytes(p + W, 4);
            for (int j = 0; j < F; j++) {
                w = (uint32_t)ld_bytes(p + W + 4 + 4 * j, 4);
                ok &= (w & ~valid) == 0;
                nz |= w;
                for (int i = 0; i < 32; i++) mag[i] |= (uint64_t)((w >> i) & 1u) << j;
            }
            ok &= w != 0 && (neg & ~nz) == 0;
        }
        uint64_t kmax = q.is64 ? ~0ull : 0xFFFFFFFFull;
        key[0] = q.is64 ? eccl_fmt_key64(v0) : eccl_fmt_key32((uint32_t)v0);
        store_bits(x, base, v0, q.is64);
        for (int i = 1; i < r && ok; i++) {
            uint64_t b = key[i >= q.lag ? i - q.lag : i - 1];
            if ((neg >> i) & 1u) {
                ok &= mag[i] <= b;
                key[i] = b - mag[i];
            } else {
                ok &= mag[i] <= kmax - b;
                key[i] = b + mag[i];
            }
            uint64_t v = q.is64 ? eccl_fmt_unkey64(key[i]) : eccl_fmt_unkey32((uint32_t)key[i]);
            store_bits(x, base + i, v, q.is64);
        }
    }
    return __shfl_sync(ECCL_WARP_FULL, ok, 0);
}

} // namespace

__global__ void __launch_bounds__(ECCL_CTA) eccl_decompress_kernel(eccl_decomp_args a)
{
    extern __shared__ __align__(16) unsigned char pay[];
    __shared__ dec_smem sm;
    const int tid = threadIdx.x, lane = tid & 31, w = tid >> 5;
    const uint64_t t = blockIdx.x, b0 = t << 8, nblk = a.nb - b0 < 256 ? a.nb - b0 : 256;
    eccl_dev_scratch *s = a.s;
    if (tid == 0) {
        int rc = parse_header(a, sm);
        if (!rc) {
            uint64_t psize = sm.ssize - a.P;
            sm.toff = *(const unsigned long long *)(a.in + 64 + 8 * t);
            sm.tnext = t + 1 < a.nt ? *(const unsigned long long *)(a.in + 64 + 8 * (t + 1)) : psize;
            uint64_t W = sm.q.is64 ? 8 : 4;
            if ((sm.toff & 15u) || sm.toff > sm.tnext || sm.tnext > psize || sm.tnext - sm.toff > 256u * 32u * W + 16u)
                rc = ECCL_ERR_CORRUPT;
        }
        if (rc) eccl_dev_fail(s, rc);
        sm.ok = !rc;
    }
    __syncthreads();
    if (!sm.ok) return;
    const eccl_dev_q q = sm.q;

    // Block sizes from the codes (the head rule needs the previous code), their scan, the check
    // against the tile index.
    int bad = 0, mysize = 0;
    if (tid < (int)nblk) sm.codes[tid] = a.in[64 + 8 * a.nt + b0 + tid];
    __syncthreads();
    if (tid < (int)nblk) {
        unsigned m = sm.codes[tid];
        int head = tid == 0 || eccl_fmt_code_is_raw(sm.codes[tid - 1]);
        mysize = eccl_fmt_block_size(m, eccl_fmt_block_len(a.n, b0 + tid), q.is64, head);
        bad = mysize < 0 || (!q.quant && !eccl_fmt_code_is_raw(m));
        if (mysize < 0) mysize = 0;
    }
    int x = mysize; // CTA exclusive scan
    for (int o = 1; o < 32; o <<= 1) {
        int u = __shfl_up_sync(ECCL_WARP_FULL, x, o);
        if (lane >= o) x += u;
    }
    if (lane == 31) sm.wscan[w] = x;
    __syncthreads();
    int wbase = 0;
    for (int k = 0; k < w; k++) wbase += sm.wscan[k];
    sm.boff[tid] = (unsigned)(wbase + x - mysize);
    if (tid == ECCL_CTA - 1) sm.boff[256] = (unsigned)(wbase + x);
    bad = __syncthreads_or(bad);
    const unsigned total = sm.boff[256], padded = (total + 15u) & ~15u;
    if (bad || padded != sm.tnext - sm.toff) {
        if (tid == 0) eccl_dev_fail(s, ECCL_ERR_CORRUPT);
        return;
    }
    // The tile's payload into shared memory (16-byte loads), zero padding checked.
    const uint64_t gpos = a.P + sm.toff;
    unsigned long long h = 0;
    for (unsigned c = tid; c < padded / 16; c += ECCL_CTA) {
        uint4 v = *(const uint4 *)(a.in + gpos + 16 * c);
        *(uint4 *)(pay + 16 * c) = v;
        uint64_t k = (gpos + 16 * c) / 4;
        h += chk_word(v.x, k) + chk_word(v.y, k + 1) + chk_word(v.z, k + 2) + chk_word(v.w, k + 3);
    }
    __syncthreads();
    bad = 0;
    for (unsigned z = total + tid; z < padded; z += ECCL_CTA) bad |= pay[z] != 0;
    // checksum of the codes (the last tile also the zero padding up to the payload), the index
    // entry, and (tile 0) the header
    const uint64_t cstart = 64 + 8 * a.nt + b0, cend = t == a.nt - 1 ? a.P : cstart + 256;
    for (uint64_t wd = cstart / 4 + tid; wd < cend / 4; wd += ECCL_CTA) {
        uint32_t v = (uint32_t)ld_bytes(a.in + 4 * wd, 4);
        for (int k = 0; k < 4; k++) {
            uint64_t z = 4 * wd + k;
            if (z - cstart >= nblk) bad |= ((v >> (8 * k)) & 0xFFu) != 0;
        }
        h += chk_word(v, wd);
    }
    if (tid == 0) {
        uint64_t k = (64 + 8 * t) / 4;
        h += chk_word((uint32_t)sm.toff, k) + chk_word((uint32_t)(sm.toff >> 32), k + 1);
    }
    if (t == 0 && tid < 16) h += chk_word(tid >= 14 ? 0u : (uint32_t)ld_bytes(a.in + 4 * tid, 4), (uint64_t)tid);

    // Phase 1: decode each block; RAW blocks are final, QUANT ones leave integers relative to
    // their block's start in the output buffer (int32 for float32, int64 for float64).
    for (int k = 0; k < 32; k++) {
        int b = w * 32 + k;
        if (b >= (int)nblk) break;
        uint64_t gb = b0 + b, base = gb * 32;
        int r = eccl_fmt_block_len(a.n, gb);
        unsigned code = sm.codes[b];
        const unsigned char *p = pay + sm.boff[b];
        if (eccl_fmt_code_is_raw(code)) {
            bad |= !decode_raw(q, code, p, r, lane, a.x, base);
            if (lane == 0) sm.isq[b] = 0;
            continue;
        }
        unsigned sgn = eccl_fmt_code_sign(code), pred = eccl_fmt_code_pred(code);
        int F = eccl_fmt_quant_planes(code, q.is64);
        int head = pred == ECCL_FMT_PRED_LORENZO && (b == 0 || eccl_fmt_code_is_raw(sm.codes[b - 1]));
        int o = 0;
        int64_t q0 = 0;
        if (head) {
            q0 = eccl_fmt_unzigzag(ld_bytes(p, eccl_fmt_head_bytes(q.is64)));
            bad |= q0 > q.qmax || q0 < -q.qmax;
            o = eccl_fmt_head_bytes(q.is64);
        }
        uint64_t m = 0;
        uint32_t neg = 0;
        if (F > 0 && !warp_read_planes(p + o, r, F, (int)(code & 31u), sgn, head, q.is64, lane, &m, &neg)) bad = 1;
        int64_t d = lane < r ? ((neg >> lane) & 1u ? -(int64_t)m : (int64_t)m) : 0;
        // none: the deltas are the integers; Lorenzo: chains of stride lag (a head block starts both
        // chains at q_0: d_0 = 0 and d_1 = q_1 - q_0), relative to the predecessors otherwise
        int64_t loc = pred == ECCL_FMT_PRED_NONE ? d : warp_scan_lag(d, q.lag, lane) + (head ? q0 : 0);
        if (lane < r) {
            if (q.is64) ((long long *)a.x)[base + lane] = loc;
            else {
                bad |= loc > 0x7FFFFFFFll || loc < -0x7FFFFFFFll; // beyond any valid integer
                ((int *)a.x)[base + lane] = (int)loc;
            }
        }
        long long t0 = __shfl_sync(ECCL_WARP_FULL, loc, r - q.lag), t1 = __shfl_sync(ECCL_WARP_FULL, loc, r - 1);
        if (lane == 0) {
            sm.isq[b] = 1;
            sm.absb[b] = pred == ECCL_FMT_PRED_NONE || head;
            sm.tail[b][0] = t0;
            sm.tail[b][1] = t1;
        }
    }
    bad = __syncthreads_or(bad);
    if (bad) {
        if (tid == 0) eccl_dev_fail(s, ECCL_ERR_CORRUPT);
        return;
    }
    // Resolve the chains: a relative block's predecessors are the previous block's absolute
    // tails (a relative block always follows a QUANT block of the same tile). Sequential over the
    // tile by one thread: 256 cheap steps from shared memory.
    if (tid == 0) {
        for (int b = 0; b < (int)nblk; b++) {
            if (!sm.isq[b]) continue;
            if (sm.absb[b]) {
                sm.res[b][0] = sm.tail[b][0];
                sm.res[b][1] = sm.tail[b][1];
            } else {
                sm.res[b][0] = sm.res[b - 1][0] + sm.tail[b][0];
                sm.res[b][1] = sm.res[b - 1][1] + sm.tail[b][1];
            }
        }
    }
    __syncthreads();
    // Phase 2: integers to values.
    for (int k = 0; k < 32; k++) {
        int b = w * 32 + k;
        if (b >= (int)nblk) break;
        if (!sm.isq[b]) continue;
        uint64_t base = (b0 + b) * 32;
        int r = eccl_fmt_block_len(a.n, b0 + b);
        if (lane >= r) continue;
        int64_t v = q.is64 ? ((long long *)a.x)[base + lane] : ((int *)a.x)[base + lane];
        if (!sm.absb[b]) v += sm.res[b - 1][q.lag == 1 ? 1 : (lane & 1)];
        bad |= v > q.qmax || v < -q.qmax;
        double rec = (double)v * q.D;
        if (q.is64) ((double *)a.x)[base + lane] = rec;
        else ((float *)a.x)[base + lane] = (float)rec;
    }
    bad = __syncthreads_or(bad);
    h = cta_sum(h, sm.csum_tmp);
    if (tid == 0) {
        if (bad) eccl_dev_fail(s, ECCL_ERR_CORRUPT);
        atomicAdd(&s->checksum, h);
        __threadfence();
        unsigned long long done = atomicAdd(&s->done_counter, 1ull) - a.done_base;
        if (done == a.nt - 1) {
            __threadfence();
            unsigned long long sum = atomicExch(&s->checksum, 0ull);
            if (sum != *(const unsigned long long *)(a.in + ECCL_HDR_CHECKSUM)) eccl_dev_fail(s, ECCL_ERR_CORRUPT);
        }
    }
}

// A stream of zero elements: the header alone, checked.
__global__ void eccl_decompress_empty_kernel(eccl_decomp_args a)
{
    __shared__ dec_smem sm;
    int rc = parse_header(a, sm);
    if (!rc && sm.ssize != 64) rc = ECCL_ERR_CORRUPT;
    unsigned long long sum = 0;
    for (int k = 0; k < 16 && !rc; k++) sum += chk_word(k >= 14 ? 0u : (uint32_t)ld_bytes(a.in + 4 * k, 4), (uint64_t)k);
    if (!rc && sum != *(const unsigned long long *)(a.in + ECCL_HDR_CHECKSUM)) rc = ECCL_ERR_CORRUPT;
    if (rc) eccl_dev_fail(a.s, rc);
}
