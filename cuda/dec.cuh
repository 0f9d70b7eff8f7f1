// dec.cuh - decoding pieces shared by the decompression kernel (decompress.cu) and the fused
// homomorphic kernel (hom32.cu): header and tile checks, block placement, validation of the
// canonical forms, the Lorenzo chains (steps 1 and 2 of a tile), and block decoders. Included by
// one kernel file each (an anonymous namespace: every translation unit has its own copy).
#ifndef ECCL_CUDA_DEC_CUH
#define ECCL_CUDA_DEC_CUH

#include "cuda/codec_dev.cuh"
#include "cuda/kernels.h"

namespace {

struct dec_smem {
    int ok;
    int vmajor;                   // the stream's format version (1, 2 or 3)
    unsigned form;                // the tile's form (doc/format.md 4.1; always 0 in version 1)
    unsigned sA;                  // a sparse tile (form 2 or 3): its sparse stream's byte offset in
                                  // the tile's payload (tile_prepare)
    eccl_dev_q q;
    uint64_t ssize, toff, tnext, tword; // tword: the tile's index entry as stored (form bits included)
    eccl_dev_header hin;          // the input header's fields
    unsigned char codes[256];
    unsigned boff[257];
    unsigned *bitoff;             // a sparse tile: where each sparse block's bits start in its stream,
                                  // 256 entries in the dynamic shared memory of the kernels' instances
                                  // that read sparse tiles (static, the 1 KiB cost the decompression
                                  // kernel 8-9%: 4 of its CTAs no longer fitted the 164 KiB carveout,
                                  // and L1 shrank; H200, 2026-11-29)
    unsigned char flag[256];      // homomorphic kernels: 1 where the input block is integers
    unsigned char thr[256];       // decompression: where a thread decodes the block through its row (tile_prepare)
    long long tail[256][2];       // block sums (pass 2), then resolved absolute tails
    long long carry[8][2];
    unsigned long long csum_tmp[32];
    int wscan[8], wflag[8];
    tile_map map;                 // decompression: where the tile's values go (set with the tile)
#ifdef ECCL_PHASE_TIMING
    long long ph[11];
#endif
};

// Parse and check the header (doc/format.md section 3) against what the caller expects.
__device__ int parse_header(const eccl_decomp_args &a, dec_smem &sm)
{
    if (a.in_cap < 64) return ECCL_ERR_CORRUPT;
    // the 64 bytes in four independent 16-byte loads (the stream is 16-byte aligned), then parsed
    // from registers: one memory round trip instead of a chain of byte loads
    uint4 hv[4];
#pragma unroll
    for (int k = 0; k < 4; k++) hv[k] = ((const uint4 *)a.in)[k];
    const unsigned char *b = (const unsigned char *)hv;
    if (b[0] != 'E' || b[1] != 'C' || b[2] != 'C' || b[3] != 'L') return ECCL_ERR_CORRUPT;
    const int vmax = a.vmax > 1 ? a.vmax : 1; // (a caller that did not say reads version 1 only)
    if (b[ECCL_HDR_VMAJOR] > vmax) return ECCL_ERR_UNSUPPORTED;
    if (b[ECCL_HDR_VMAJOR] < 1) return ECCL_ERR_CORRUPT;
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
    if (nsum == 0 || count >= ((uint64_t)1 << 62) / (uint64_t)(W * reals)) return ECCL_ERR_CORRUPT; // n*W < 2^62
    double e = dev_eb_in_force(mode, bound, range);
    if (e < 0 || eccl_f64_as_u64(e) != eccl_f64_as_u64(eb)) return ECCL_ERR_CORRUPT;
    if (dtype != a.dtype || count != a.count) return ECCL_ERR_MISMATCH;
    if (ssize > a.in_cap || (a.exact_size && ssize != a.in_cap) || ssize < a.P || (ssize & 15u))
        return ECCL_ERR_CORRUPT;
    sm.q = dev_qparams(dtype, mode, eb);
    sm.vmajor = b[ECCL_HDR_VMAJOR];
    sm.ssize = ssize;
    sm.hin.dtype = (unsigned char)dtype;
    sm.hin.vmajor = (unsigned char)sm.vmajor; // (a homomorphic output keeps its input's version)
    sm.hin.mode = (unsigned char)mode;
    sm.hin.nsum = nsum;
    sm.hin.count = count;
    sm.hin.bound = bound;
    sm.hin.eb = eb;
    sm.hin.range = range;
    return 0;
}

// A 32-bit word at any byte offset of the tile's payload: staged in shared memory (16-byte
// aligned, slack-padded) or in place in the stream (tile_prepare<.., false>). An aligned word reads
// only itself (twice: no branch), so a word that ends the stream never reads past it.
__device__ __forceinline__ uint32_t ld_word(const unsigned char *pay, unsigned off)
{
    const uint32_t *w = (const uint32_t *)(pay + (off & ~3u));
    return __funnelshift_r(w[0], w[(off & 3u) != 0u], 8 * (off & 3u));
}

struct qblock {
    int r, F, head, none, l2, sb; // l2: second order (p = 1 in a form-1 or form-3 tile)
    unsigned o; // byte offset of the planes (after head value and sign map); a sparse block: the
                // bit offset of its compacted planes in the tile's sparse stream
    uint32_t negmask;
    long long q0;
    int sparse, kz; // a sparse block (p = 1 in a form-2 or form-3 tile, doc/format.md 6.4): kz = popcount(z)
    uint32_t z;     // its nonzero map (0 when F = 0)
};

// k bits (1..32) of tile's sparse stream at bit position pos (doc/format.md 7: bit j is bit j % 32
// of word j / 32), read from the payload at pay (placed by tile_prepare: the bits lie within the
// stream, so the second word is read only where they reach it).
__device__ __forceinline__ uint32_t sparse_bits(const dec_smem &sm, const unsigned char *pay, unsigned pos, int k)
{
    const unsigned wo = sm.sA + 4 * (pos >> 5), sh = pos & 31u;
    const uint32_t lo = ld_word(pay, wo), hi = sh + (unsigned)k > 32u ? ld_word(pay, wo + 4) : 0u;
    const uint32_t v = __funnelshift_r(lo, hi, sh);
    return k >= 32 ? v : v & ((1u << k) - 1u);
}

// The tile's predictor bit p = 1 selects second-order deltas (forms 1 and 3; an instance that does
// not read sparse tiles tests form 1 alone, as it did before version 3: its registers).
template <bool SP> __device__ __forceinline__ int second_form(unsigned form)
{
    return SP ? eccl_fmt_form_second(form) : form == ECCL_FMT_FORM_L2;
}

// SP: the tile may be sparse (form 2 or 3, version 3); without it every sparse test folds away,
// so that the kernels' dense instances are the code they were before version 3.
template <bool SP = false>
__device__ __forceinline__ qblock parse_quant(const dec_smem &sm, const unsigned char *pay, int b, uint64_t n,
                                              uint64_t b0, int is64)
{
    qblock k;
    unsigned code = sm.codes[b];
    unsigned sgn = eccl_fmt_code_sign(code);
    k.r = eccl_fmt_block_len(n, b0 + b);
    k.F = eccl_fmt_quant_planes(code, is64);
    const int p1 = eccl_fmt_code_pred(code) == ECCL_FMT_PRED_NONE;
    k.none = p1 && sm.form == ECCL_FMT_FORM_NONE;
    k.l2 = p1 && second_form<SP>(sm.form);
    k.sparse = SP && p1 && sm.form >= ECCL_FMT_FORM_S1;
    k.head = !k.none && (b == 0 || eccl_fmt_code_is_raw(sm.codes[b - 1])); // (a head value follows)
    unsigned o = sm.boff[b];
    k.q0 = 0;
    if (k.head) {
        int H = eccl_fmt_head_bytes(is64);
        k.q0 = eccl_fmt_unzigzag(ld_bytes(pay + o, H));
        o += H;
    }
    k.sb = sgn == ECCL_FMT_SIGN_MAP && k.F > 0 ? 4 : 0;
    k.z = 0;
    k.kz = 0;
    if constexpr (SP) if (k.sparse) { // the map in the bytes; the sign word and the planes in the sparse stream
        unsigned pos = sm.bitoff[b];
        k.negmask = sgn == ECCL_FMT_SIGN_POS ? 0u : ~0u;
        if (k.F > 0) {
            k.z = ld_word(pay, o);
            k.kz = __popc(k.z);
            if (k.sb) {
                k.negmask = k.kz ? bit_gather(k.z).expand(sparse_bits(sm, pay, pos, k.kz)) : 0u;
                pos += (unsigned)k.kz;
            }
        } else {
            k.negmask = 0;
        }
        k.o = pos;
        return k;
    }
    k.negmask = sgn == ECCL_FMT_SIGN_MAP ? (k.sb ? ld_word(pay, o) : 0u) : sgn == ECCL_FMT_SIGN_POS ? 0u : ~0u;
    k.o = o + k.sb;
    return k;
}

// Sum of the indices of the set bits of w.
__device__ __forceinline__ long long bit_index_sum(uint32_t w)
{
    return __popc(w & 0xAAAAAAAAu) + 2 * __popc(w & 0xCCCCCCCCu) + 4 * __popc(w & 0xF0F0F0F0u) +
           8 * __popc(w & 0xFF00FF00u) + 16 * __popc(w & 0xFFFF0000u);
}

// Pass 2 (one thread per QUANT block): canonical form and the integers at r-lag and r-1, from the
// planes alone (relative to the predecessors unless the block is absolute). Returns 0 if corrupt.
// In a form-1 tile (doc/format.md 4.1: real types, lag 1) *t0, *t1 are the integers at r-2 and
// r-1 (r-1 for both when r = 1): absolute for a head or predictor-none block, else as if the
// predecessor's chain state (q_{-1}, q_{-1} - q_{-2}) were (0, 0) (tile_chains_l2).
template <bool SP = false>
__device__ int block_summary(const dec_smem &sm, const unsigned char *pay, int b, uint64_t n, uint64_t b0,
                             long long *t0, long long *t1)
{
    const eccl_dev_q &q = sm.q;
    qblock k = parse_quant<SP>(sm, pay, b, n, b0, q.is64);
    unsigned code = sm.codes[b];
    int ok = !(k.q0 > q.qmax || k.q0 < -q.qmax);
    uint32_t valid = k.r == 32 ? 0xFFFFFFFFu : ((1u << k.r) - 1u);
    if (k.head) valid &= ~1u;
    uint32_t nz = 0, top = 0, high = 0;
    long long se = 0, so = 0, v1 = 0, v0 = 0; // even/odd lane sums; magnitudes at r-1 and r-lag
    long long s2 = 0;                                  // form 1: sum of (r - i) d_i
    const int l1 = k.r - 1, l0 = k.r - q.lag, form1 = second_form<SP>(sm.form);
    bit_gather g; // (a sparse block's planes are expanded onto its map)
    if constexpr (SP) if (k.sparse) g = bit_gather(k.z);
    for (int j = 0; j < k.F; j++) {
        uint32_t w;
        if constexpr (SP) w = k.sparse ? (k.kz ? g.expand(sparse_bits(sm, pay, k.o + j * k.kz, k.kz)) : 0u)
                                       : ld_word(pay, k.o + 4 * j);
        else w = ld_word(pay, k.o + 4 * j);
        nz |= w;
        top = w;
        if (j >= 30) high |= w;
        const uint32_t wp = w & ~k.negmask, wn = w & k.negmask;
        long long pos = __popc(wp & 0x55555555u) - __popc(wn & 0x55555555u);
        long long pod = __popc(wp & 0xAAAAAAAAu) - __popc(wn & 0xAAAAAAAAu);
        se += pos << j;
        so += pod << j;
        v1 |= (long long)((w >> l1) & 1u) << j;
        v0 |= (long long)((w >> l0) & 1u) << j;
        if (form1) {
            long long cnt = __popc(wp) - __popc(wn), idx = bit_index_sum(wp) - bit_index_sum(wn);
            s2 += (k.r * cnt - idx) << j;
        }
    }
    ok &= (nz & ~valid) == 0;
    if constexpr (SP) ok &= !k.sparse || nz == k.z; // (sparse: every mapped delta nonzero)
    if (k.F > 0) {
        if (eccl_fmt_code_sign(code) == ECCL_FMT_SIGN_MAP) {
            uint32_t sm_ = k.negmask;
            ok &= (sm_ & ~nz) == 0 && sm_ != 0 && (nz & ~sm_) != 0;
        }
        if ((code & 31u) < 31u || !q.is64) ok &= top != 0;
        else ok &= high != 0; // 45 planes: the bit length is 31..45
    }
    if (form1) { // (lag 1)
        const long long s1 = se + so, base = k.head ? k.q0 : 0;
        const long long d1 = (k.negmask >> l1) & 1u ? -v1 : v1;
        if (k.l2) {
            *t1 = base + s2;
            *t0 = *t1 - s1;
        } else { // Lorenzo (a form-1 tile has no predictor none)
            *t1 = base + s1;
            *t0 = k.r >= 2 ? *t1 - d1 : *t1;
        }
        return ok;
    }
    if (k.none) { // the integers are the deltas
        *t1 = (k.negmask >> l1) & 1u ? -v1 : v1;
        *t0 = (k.negmask >> l0) & 1u ? -v0 : v0;
    } else {
        long long base = k.head ? k.q0 : 0;
        if (q.lag == 1) *t1 = *t0 = base + se + so;
        else { // complex: r is even, r-2 an even lane, r-1 an odd one
            *t0 = base + se;
            *t1 = base + so;
        }
    }
    return ok;
}

__device__ __forceinline__ void store_bits(void *x, uint64_t i, uint64_t u, int is64)
{
    if (is64) ((unsigned long long *)x)[i] = u;
    else ((unsigned *)x)[i] = (unsigned)u;
}

// A RAW block: verbatim in parallel; CODED by lane 0, step by step as block.c read_raw does.
// Value i of the block goes to x at map.at(base + i) (base: the block's first value in the tile).
__device__ int decode_raw(const eccl_dev_q &q, unsigned code, const unsigned char *p, int r, int lane,
                          void *x, const tile_map &map, uint32_t base)
{
    const int W = q.is64 ? 8 : 4;
    if (code == 0xFFu) {
        if (lane < r) store_bits(x, map.at(base + lane), ld_bytes(p + lane * W, W), q.is64);
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
        store_bits(x, map.at(base), v0, q.is64);
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
            store_bits(x, map.at(base + i), v, q.is64);
        }
    }
    return __shfl_sync(ECCL_WARP_FULL, ok, 0);
}

// Packed (F <= 8 with NW = 8, F <= 16 with NW = 16), the inverse of enc32.cuh planes_packed: plane
// j rotated left by j - k puts bit k + NW c at bit j of lane c of acc[k]; two instructions per word
// and plane, then one lane extraction per value.
template <int NW>
__device__ __forceinline__ void unplanes_packed(uint32_t (&m)[32], const unsigned char *pay, unsigned o, int F,
                                                uint32_t &nz, uint32_t &top)
{
    constexpr uint32_t lsb = NW == 8 ? 0x01010101u : 0x00010001u; // bit 0 of every lane
    uint32_t acc[NW];
#pragma unroll
    for (int k = 0; k < NW; k++) acc[k] = 0;
    for (int j = 0; j < F; j++) {
        const uint32_t w = ld_word(pay, o + 4 * j);
        nz |= w;
        top = w;
#pragma unroll
        for (int k = 0; k < NW; k++) acc[k] |= __funnelshift_l(w, w, (unsigned)(j - k)) & (lsb << j);
    }
#pragma unroll
    for (int i = 0; i < 32; i++) m[i] = (acc[i % NW] >> (NW * (i / NW))) & ((1u << NW) - 1u);
}

// One round of the 32 x 32 bit transposition below: rows k and k + J (k's bit J clear) exchange
// row k's columns with bit J set for row k + J's with it clear (mask: the columns with it clear).
template <int J>
__device__ __forceinline__ void transpose_round(uint32_t (&m)[32], uint32_t mask)
{
#pragma unroll
    for (int k = 0; k < 32; k++) {
        if (k & J) continue;
        const uint32_t t = ((m[k] >> J) ^ m[k + J]) & mask;
        m[k] ^= t << J;
        m[k + J] ^= t;
    }
}

// The F planes as the rows of a 32 x 32 bit matrix (the rows from F on zero), transposed in place:
// row i is then m[i] (bit j = bit i of plane j). Five rounds of 16 exchanges whatever F is, where
// the loop below takes about 3 instructions per bit of every plane: the cheaper for F > 16 (the
// low-ratio real fields of issue 21: doc/performance.md section 35).
__device__ __forceinline__ void transpose32(uint32_t (&m)[32])
{
    transpose_round<16>(m, 0x0000FFFFu);
    transpose_round<8>(m, 0x00FF00FFu);
    transpose_round<4>(m, 0x0F0F0F0Fu);
    transpose_round<2>(m, 0x33333333u);
    transpose_round<1>(m, 0x55555555u);
}
__device__ __forceinline__ void unplanes_transpose(uint32_t (&m)[32], const unsigned char *pay, unsigned o, int F,
                                                   uint32_t &nz, uint32_t &top)
{
#pragma unroll
    for (int j = 0; j < 32; j++) {
        const uint32_t w = j < F ? ld_word(pay, o + 4 * j) : 0u;
        m[j] = w;
        nz |= w;
        if (j == F - 1) top = w;
    }
    transpose32(m);
}

// The magnitudes m[0..31] of a block from its F planes at byte offset o of the payload (bit i of
// plane j = bit j of m[i]); nz |= every plane, top = the last one (for the canonical checks).
__device__ __forceinline__ void unplanes(uint32_t (&m)[32], const unsigned char *pay, unsigned o, int F, uint32_t &nz,
                                         uint32_t &top)
{
#if ECCL_PLANES_PACKED
    if (F <= 8) return unplanes_packed<8>(m, pay, o, F, nz, top);
    if (F <= 16) return unplanes_packed<16>(m, pay, o, F, nz, top);
#endif
#if ECCL_PLANES_TRANSPOSE
    if (F > 16) return unplanes_transpose(m, pay, o, F, nz, top);
#endif
#pragma unroll
    for (int i = 0; i < 32; i++) m[i] = 0;
    for (int j = 0; j < F; j++) {
        uint32_t w = ld_word(pay, o + 4 * j);
        nz |= w;
        top = w;
#pragma unroll
        for (int i = 0; i < 32; i++) m[i] |= ((w >> i) & 1u) << j;
    }
}

__device__ __forceinline__ void unplanes(uint32_t (&m)[32], const unsigned char *pay, unsigned o, int F)
{
    uint32_t nz = 0, top = 0;
    unplanes(m, pay, o, F, nz, top);
}

// The magnitudes of QUANT block k (parse_quant, at most 32 planes): its planes in the payload, or a
// sparse block's compacted planes from the tile's sparse stream, spread onto its map and
// transposed. nz, top as unplanes gives them (a sparse block: of the spread planes).
__device__ __forceinline__ void unplanes_k(uint32_t (&m)[32], const unsigned char *pay, const dec_smem &sm,
                                           const qblock &k, uint32_t &nz, uint32_t &top)
{
    if (!k.sparse) return unplanes(m, pay, k.o, k.F, nz, top);
    const bit_gather g(k.z);
#pragma unroll
    for (int j = 0; j < 32; j++) {
        const uint32_t w = j < k.F && k.kz ? g.expand(sparse_bits(sm, pay, k.o + j * k.kz, k.kz)) : 0u;
        m[j] = w;
        nz |= w;
        if (j == k.F - 1) top = w;
    }
    transpose32(m);
}
__device__ __forceinline__ void unplanes_k(uint32_t (&m)[32], const unsigned char *pay, const dec_smem &sm,
                                           const qblock &k)
{
    uint32_t nz = 0, top = 0;
    unplanes_k(m, pay, sm, k, nz, top);
}

// Bit `lane` of each of the F planes at byte offset o: a lane's magnitude (warp-per-block
// decoders). The first 32 planes gather in a 32-bit word (64-bit work only beyond).
template <typename U>
__device__ __forceinline__ U lane_bits(const unsigned char *pay, unsigned o, int F, int lane)
{
    uint32_t m32 = 0;
    int j = 0;
    for (; j < F && j < 32; j++) m32 |= ((ld_word(pay, o + 4 * j) >> lane) & 1u) << j;
    U m = (U)m32;
    for (; j < F; j++) m |= (U)((ld_word(pay, o + 4 * j) >> lane) & 1u) << j;
    return m;
}
// The same for QUANT block k (parse_quant): a sparse block's lane reads its bit of each compacted
// plane (at its rank among the map's ones), or has none.
template <typename U>
__device__ __forceinline__ U lane_bits_k(const unsigned char *pay, const dec_smem &sm, const qblock &k, int lane)
{
    if (!k.sparse) return lane_bits<U>(pay, k.o, k.F, lane);
    if (!((k.z >> lane) & 1u)) return 0;
    const unsigned rank = (unsigned)__popc(k.z & ((1u << lane) - 1u));
    U m = 0;
    for (int j = 0; j < k.F; j++) m |= (U)sparse_bits(sm, pay, k.o + (unsigned)(j * k.kz) + rank, 1) << j;
    return m;
}

// Inclusive scan with stride lag over the warp of deltas d of a block of F planes (|d| < 2^F), in
// 32-bit integers (float32: modulo 2^32, see decode_quant). 64-bit: a partial sum holds at most 32
// deltas, so for F <= 26 it stays below 2^31 and the 32-bit scan (half the shuffles) is exact;
// wider blocks take warp_scan_lag.
template <typename I>
__device__ __forceinline__ I warp_scan_lag_small(I d, int lag, int F, int lane)
{
    if (sizeof(I) == 8 && F > 26) return (I)warp_scan_lag((int64_t)d, lag, lane);
    int v = (int)d;
    for (int o = lag; o < 32; o <<= 1) {
        int u = __shfl_up_sync(ECCL_WARP_FULL, v, o);
        if (lane >= o) v += u;
    }
    return (I)v;
}

template <bool D64> struct itype;
template <> struct itype<false> { typedef int I; typedef unsigned U; typedef float T; };
template <> struct itype<true> { typedef long long I; typedef unsigned long long U; typedef double T; };

// The widest float32 second-order block whose row block_rows computes in 32 bits. With |d| < 2^20
// a row's running sums are exact there: |v| <= 32 (2^20 - 1) < 2^25 and |S2_i| <= 528 (2^20 - 1)
// < 2^29.05, and a head block's q0 + S2_i stays below 2^30 + 2^29.05 < 2^31. A relative block's
// integers are not (q_{-1} + (i + 1) v alone reaches 65 QMAX, and in a corrupt block the sum
// modulo 2^32 can land back in range): rows_finish adds them in 64 bits. Wider blocks (steep
// turns, rare on smooth data) take decode_l2_thread.
constexpr int L2_ROWS32_F = 20;

// Pass 2 for a QUANT block that a thread also decodes (the decompression kernel's row paths:
// every float32 QUANT block, float64 and complex128 ones of at most 30 planes): the canonical form
// exactly as block_summary checks it, and the block's integers from its planes, read once, into
// row b of `rows` (33 integers a row: int for float32, modulo 2^32 as decode_block_thread computes
// them; long long for the 64-bit types). *absolute: the block does not depend on its predecessor
// (predictor none, or a head value), and the row holds its integers; else the row holds each
// integer less the predecessor's tail on its lag chain (the running sums of the deltas), which
// rows_finish adds once the chains are resolved (a second-order block: as if the predecessor's
// state were (0, 0)). float32 second-order blocks come here only with at most L2_ROWS32_F planes:
// their rows are then exact in 32 bits (below). *t0, *t1 as block_summary gives them. Returns 0
// if the block is not canonical.
template <bool D64, bool SP = false>
__device__ int block_rows(const dec_smem &sm, const unsigned char *pay, int b, uint64_t n, uint64_t b0, void *rows,
                          long long *t0, long long *t1, int *absolute)
{
    typedef typename itype<D64>::I I;
    typedef typename itype<D64>::U U;
    const eccl_dev_q &q = sm.q;
    const unsigned code = sm.codes[b];
    qblock k = parse_quant<SP>(sm, pay, b, n, b0, D64);
    I *row = (I *)rows + 33 * b;
    int ok = !(k.q0 > q.qmax || k.q0 < -q.qmax);
    uint32_t valid = k.r == 32 ? 0xFFFFFFFFu : ((1u << k.r) - 1u);
    if (k.head) valid &= ~1u;
    uint32_t m[32], nz = 0, top = 0;
    if constexpr (SP) unplanes_k(m, pay, sm, k, nz, top);
    else unplanes(m, pay, k.o, k.F, nz, top);
    ok &= (nz & ~valid) == 0;
    if constexpr (SP) ok &= !k.sparse || nz == k.z; // (sparse: every mapped delta nonzero)
    if (k.F > 0) {
        if (eccl_fmt_code_sign(code) == ECCL_FMT_SIGN_MAP) {
            const uint32_t sm_ = k.negmask;
            ok &= (sm_ & ~nz) == 0 && sm_ != 0 && (nz & ~sm_) != 0;
        }
        ok &= top != 0; // (F is the bit length: a plane code below 31, or float32)
    }
    *absolute = k.none || k.head;
    U p1 = k.head ? (U)(I)k.q0 : 0, p2 = p1; // (unsigned: float32's integers wrap modulo 2^32)
    U vel = 0;                                // second order: q_i - q_{i-1}, from 0 in a relative row
#pragma unroll
    for (int i = 0; i < 32; i++) {
        if (i < k.r) {
            const U d = (k.negmask >> i) & 1u ? (U)0 - (U)m[i] : (U)m[i];
            U v;
            if (k.none) v = d;
            else if (k.l2) v = p1 = p1 + (vel += d); // (float32: exact, see L2_ROWS32_F)
            else if (q.lag == 1 || (i & 1)) v = p1 = p1 + d;
            else v = p2 = p2 + d;
            row[i] = (I)v;
        }
    }
    *t1 = (long long)row[k.r - 1];
    *t0 = (long long)row[second_form<SP>(sm.form) ? (k.r >= 2 ? k.r - 2 : 0) : k.r - q.lag];
    return ok;
}

// Pass 3 for a block block_rows left in its row (r values): the predecessor's tails added where
// the row is relative (sm.thr[b] == 1), each integer checked against QMAX (as decode_quant), and
// the values T(q * D) written over the integers (INTS, the homomorphic kernel: the integers).
// Returns 0 if an integer is out of range.
template <bool D64, bool INTS = false, bool SP = false>
__device__ int rows_finish(const dec_smem &sm, int b, int r, void *rows)
{
    typedef typename itype<D64>::I I;
    typedef typename itype<D64>::U U;
    typedef typename itype<D64>::T T;
    const eccl_dev_q &q = sm.q;
    I *row = (I *)rows + 33 * b;
    const int l2rel =
        sm.thr[b] == 1 && second_form<SP>(sm.form) && eccl_fmt_code_pred(sm.codes[b]) == ECCL_FMT_PRED_NONE;
    int bad = 0;
    if (!D64 && l2rel) {
        // float32: q_{-1} + (i + 1) (q_{-1} - q_{-2}) + row[i] in 64 bits (L2_ROWS32_F), modulo 2^64
        // in a corrupt stream, exact in a valid one. A running sum: 2-3% faster here than
        // (i + 1) vel, while the 64-bit types' loop below lost 18% that way (H200, 2026-11-28).
        const unsigned long long vel = (unsigned long long)sm.tail[b - 1][1] - (unsigned long long)sm.tail[b - 1][0];
        unsigned long long acc = (unsigned long long)sm.tail[b - 1][1];
#pragma unroll
        for (int i = 0; i < 32; i++) {
            if (i < r) {
                acc += vel;
                const long long v = (long long)(acc + (unsigned long long)(long long)row[i]);
                bad |= v > q.qmax || v < -q.qmax;
                if (INTS) row[i] = (I)v;
                else ((T *)row)[i] = (T)((double)v * q.D);
            }
        }
        return !bad;
    }
    U b1 = 0, b2 = 0, vel = 0;
    if (sm.thr[b] == 1) {
        b2 = (U)(I)sm.tail[b - 1][0];
        b1 = (U)(I)sm.tail[b - 1][1];
        // a relative second-order row (64-bit types): add q_{-1} + (i + 1) (q_{-1} - q_{-2})
        if (l2rel) vel = b1 - b2;
    }
#pragma unroll
    for (int i = 0; i < 32; i++) {
        if (i < r) {
            const I v = (I)((U)row[i] + ((q.lag == 1 || (i & 1)) ? b1 : b2) + (U)(i + 1) * vel);
            bad |= v > (I)q.qmax || v < -(I)q.qmax;
            if (INTS) row[i] = v;
            else ((T *)row)[i] = (T)((double)v * q.D);
        }
    }
    return !bad;
}

// Pass 3 (one warp per QUANT block): the values. float32 integers are computed modulo 2^32: in a
// valid block they are in range, and in a corrupt one the first integer to leave [-QMAX, QMAX]
// still lands outside it after wrapping (|q| < 2^30 + 2^31), so the check below catches it.
template <bool D64, bool SP = false>
__device__ int decode_quant(const dec_smem &sm, const unsigned char *pay, int b, uint64_t n, uint64_t b0,
                            int lane, void *x, const tile_map &map)
{
    typedef typename itype<D64>::I I;
    typedef typename itype<D64>::U U;
    typedef typename itype<D64>::T T;
    const eccl_dev_q &q = sm.q;
    qblock k = parse_quant<SP>(sm, pay, b, n, b0, D64);
    U m;
    if constexpr (SP) m = lane_bits_k<U>(pay, sm, k, lane);
    else m = lane_bits<U>(pay, k.o, k.F, lane);
    I d = lane < k.r ? ((k.negmask >> lane) & 1u ? (I)0 - (I)m : (I)m) : 0;
    I v;
    if (k.l2) { // second order, in 64 bits: q_i = q_{-1} + (i + 1) v + the double prefix sum of d
        long long u = warp_scan_lag((int64_t)d, 1, lane), base = k.q0, vel = 0;
        u = warp_scan_lag(u, 1, lane);
        if (!k.head) {
            base = sm.tail[b - 1][1];
            vel = base - sm.tail[b - 1][0];
        }
        const long long qv = base + (long long)(lane + 1) * vel + u;
        int bad = lane < k.r && (qv > q.qmax || qv < -q.qmax);
        if (lane < k.r) ((T *)x)[map.at((uint32_t)(b * 32 + lane))] = (T)((double)qv * q.D);
        return !__any_sync(ECCL_WARP_FULL, bad);
    } else if (k.none) {
        v = d;
    } else {
        v = warp_scan_lag_small<I>(d, q.lag, k.F, lane);
        if (k.head) v += (I)k.q0;
        else v += (I)sm.tail[b - 1][q.lag == 1 ? 1 : (lane & 1)];
    }
    int bad = lane < k.r && (v > (I)q.qmax || v < -(I)q.qmax);
    if (lane < k.r) ((T *)x)[map.at((uint32_t)(b * 32 + lane))] = (T)((double)v * q.D);
    return !__any_sync(ECCL_WARP_FULL, bad);
}

// A second-order block (k, its magnitudes m) decoded by one thread in 64-bit integers (float32's
// too: modulo 2^32 an out-of-range integer could wrap back into range): out(i, q_i, D) for each
// of its integers, each checked against QMAX. Returns 0 if one is out of range.
template <class Out>
__device__ __forceinline__ int decode_l2_thread(const dec_smem &sm, const qblock &k, int b, const uint32_t (&m)[32],
                                                Out out)
{
    const eccl_dev_q &q = sm.q;
    long long p1 = k.q0, vel = 0; // the chain state (q_{i-1}, q_{i-1} - q_{i-2})
    if (!k.head) {
        p1 = sm.tail[b - 1][1];
        vel = p1 - sm.tail[b - 1][0];
    }
    int bad = 0;
#pragma unroll
    for (int i = 0; i < 32; i++) {
        if (i < k.r) {
            vel += (k.negmask >> i) & 1u ? -(long long)m[i] : (long long)m[i];
            p1 += vel;
            bad |= p1 > q.qmax || p1 < -q.qmax;
            out(i, p1, q.D);
        }
    }
    return !bad;
}

// Pass 3 for float32 with 256 threads: one THREAD per block decodes into rows of 33 words of
// shared memory (conflict-free), which the CTA then writes out coalesced. Same checks as
// decode_quant/decode_raw.
// INTS (the homomorphic kernel): a QUANT block leaves its integers in the row, a RAW block its
// values' bits, and *raw says which.
template <bool INTS, bool SP = false>
__device__ int decode_block_thread(const dec_smem &sm, const unsigned char *pay, int b, uint64_t n, uint64_t b0,
                                   float *row, int *raw = 0)
{
    const eccl_dev_q &q = sm.q;
    unsigned code = sm.codes[b];
    int r = eccl_fmt_block_len(n, b0 + b);
    if (INTS) *raw = eccl_fmt_code_is_raw(code);
    if (eccl_fmt_code_is_raw(code)) {
        unsigned *u = (unsigned *)row;
        if (code == 0xFFu) {
            for (int i = 0; i < r; i++) u[i] = ld_word(pay, sm.boff[b] + 4 * i);
            return 1;
        }
        int F = (int)(code & 63u), ok = 1;
        uint32_t v0 = ld_word(pay, sm.boff[b]), neg = F ? ld_word(pay, sm.boff[b] + 4) : 0u, nz = 0, w = 0;
        uint32_t valid = (r == 32 ? 0xFFFFFFFFu : ((1u << r) - 1u)) & ~1u;
        uint32_t mag[32];
#pragma unroll
        for (int i = 0; i < 32; i++) mag[i] = 0;
        for (int j = 0; j < F; j++) {
            w = ld_word(pay, sm.boff[b] + 8 + 4 * j);
            ok &= (w & ~valid) == 0;
            nz |= w;
#pragma unroll
            for (int i = 0; i < 32; i++) mag[i] |= ((w >> i) & 1u) << j;
        }
        if (F > 0) ok &= w != 0 && (neg & ~nz) == 0;
        uint32_t key[32];
        key[0] = eccl_fmt_key32(v0);
        u[0] = v0;
#pragma unroll
        for (int i = 1; i < 32; i++) {
            if (i < r) {
                uint32_t bk = key[i >= q.lag ? i - q.lag : i - 1];
                if ((neg >> i) & 1u) {
                    ok &= mag[i] <= bk;
                    key[i] = bk - mag[i];
                } else {
                    ok &= mag[i] <= 0xFFFFFFFFu - bk;
                    key[i] = bk + mag[i];
                }
                u[i] = eccl_fmt_unkey32(key[i]);
            }
        }
        return ok;
    }
    qblock k = parse_quant<SP>(sm, pay, b, n, b0, 0);
    uint32_t m[32];
    if constexpr (SP) unplanes_k(m, pay, sm, k);
    else unplanes(m, pay, k.o, k.F);
    if (k.l2) return decode_l2_thread(sm, k, b, m, [row](int i, long long v, double D) {
        if (INTS) ((int *)row)[i] = (int)v;
        else row[i] = (float)((double)v * D);
    });
    // integers modulo 2^32, as in decode_quant (the range check catches any corruption)
    int p2 = 0, p1 = 0;
    if (!k.none) {
        if (k.head) p2 = p1 = (int)k.q0;
        else {
            p2 = (int)sm.tail[b - 1][0];
            p1 = (int)sm.tail[b - 1][1];
        }
    }
    int bad = 0;
#pragma unroll
    for (int i = 0; i < 32; i++) {
        if (i < r) {
            int d = (k.negmask >> i) & 1u ? (int)(0u - m[i]) : (int)m[i];
            int v;
            if (k.none) v = d;
            else if (q.lag == 1) v = p1 + d;
            else v = ((i & 1) ? p1 : p2) + d;
            if (!k.none) {
                if (q.lag == 1) p1 = v;
                else if (i & 1) p1 = v;
                else p2 = v;
            }
            bad |= v > (int)q.qmax || v < -(int)q.qmax;
            if (INTS) ((int *)row)[i] = v;
            else row[i] = (float)((double)v * q.D);
        }
    }
    return !bad;
}

// Pass 3 for a float64 or complex128 QUANT block of at most 30 planes: one THREAD decodes it,
// giving out(i, q_i) for each of its integers. The integers in 64 bits (no wrapping: |q| <= QMAX
// plus a delta below 2^30); the same range check as decode_quant (0: out of range).
template <bool SP = false, class Out>
__device__ __forceinline__ int decode_ints_thread64(const dec_smem &sm, const unsigned char *pay, int b, uint64_t n,
                                                    uint64_t b0, Out out)
{
    const eccl_dev_q &q = sm.q;
    qblock k = parse_quant<SP>(sm, pay, b, n, b0, 1);
    uint32_t m[32];
    if constexpr (SP) unplanes_k(m, pay, sm, k);
    else unplanes(m, pay, k.o, k.F);
    if (k.l2) return decode_l2_thread(sm, k, b, m, [&out](int i, long long v, double) { out(i, v); });
    long long p2 = 0, p1 = 0;
    if (!k.none) {
        if (k.head) p2 = p1 = k.q0;
        else {
            p2 = sm.tail[b - 1][0];
            p1 = sm.tail[b - 1][1];
        }
    }
    int bad = 0;
#pragma unroll
    for (int i = 0; i < 32; i++) {
        if (i < k.r) {
            long long d = (k.negmask >> i) & 1u ? -(long long)m[i] : (long long)m[i];
            long long v;
            if (k.none) v = d;
            else if (q.lag == 1) v = p1 + d;
            else v = ((i & 1) ? p1 : p2) + d;
            if (!k.none) {
                if (q.lag == 1 || (i & 1)) p1 = v;
                else p2 = v;
            }
            bad |= v > q.qmax || v < -q.qmax;
            out(i, v);
        }
    }
    return !bad;
}

// The values of such a block into a row of shared memory (33 doubles a row: conflict-free, since a
// 64-bit access serves 16 threads at a time), which the CTA then writes out coalesced.
template <bool SP = false>
__device__ int decode_quant_thread64(const dec_smem &sm, const unsigned char *pay, int b, uint64_t n, uint64_t b0,
                                     double *row)
{
    const double D = sm.q.D;
    return decode_ints_thread64<SP>(sm, pay, b, n, b0, [row, D](int i, long long v) { row[i] = (double)v * D; });
}

// Thread 0: the header, then tile t's payload extent from the index (sm.toff, sm.tnext).
__device__ int tile_open(const eccl_decomp_args &a, uint64_t t, dec_smem &sm, int d64)
{
    int rc = parse_header(a, sm);
    if (!rc && a.nt > 0) {
        uint64_t psize = sm.ssize - a.P, W = d64 ? 8 : 4;
        // version 2: the top two bits of an entry are the tile's form (version 1: must be 0, which
        // the offset checks below see as offsets beyond the payload)
        const uint64_t omask = sm.vmajor >= 2 ? ECCL_FMT_INDEX_OFFSET_MASK : ~0ull;
        sm.tword = *(const unsigned long long *)(a.in + 64 + 8 * t);
        sm.toff = sm.tword & omask;
        sm.form = sm.vmajor >= 2 ? eccl_fmt_index_form(sm.tword) : 0u;
        sm.tnext = t + 1 < a.nt ? *(const unsigned long long *)(a.in + 64 + 8 * (t + 1)) & omask : psize;
        if ((sm.toff & 15u) || sm.toff > sm.tnext || sm.tnext > psize || sm.tnext - sm.toff > 256u * 32u * W + 16u)
            rc = ECCL_ERR_CORRUPT;
        // the forms the version has, forms 1 and 3 for real types only, none in streams that do
        // not quantize (doc/format.md 4.1)
        if (!eccl_fmt_form_ok(sm.form, sm.vmajor, sm.q.quant, sm.q.lag)) rc = ECCL_ERR_CORRUPT;
        if (!rc && sm.q.is64 != d64) rc = ECCL_ERR_MISMATCH;
    }
    return rc;
}

// Thread 0 of a homomorphic kernel's CTA: claims the next tile (*tile), opens the input's header
// and that tile (errors go to the device error word; ds.ok says whether the tile is sound), and
// gives the output header (*h: the input's, nsum updated) and the quantization parameters (*q).
// For a bad input both are made up, well-formed enough for the CTA to finish its tile.
__device__ void hom_open(const eccl_hom_args &a, int d64, dec_smem &ds, unsigned long long *tile,
                         eccl_dev_header *h, eccl_dev_q *q)
{
    eccl_dev_scratch *s = a.in.s;
    unsigned long long t = atomicAdd(&s->tile_counter, 1ull) - a.tile_base;
    *tile = t;
    int rc = tile_open(a.in, t, ds, d64);
    if (!rc && a.op == ECCL_KOP_SUM && ds.hin.nsum == 0xFFFFFFFFu) rc = ECCL_ERR_UNSUPPORTED;
    if (rc) eccl_dev_fail(s, rc);
    ds.ok = !rc;
    if (!rc) {
        *h = ds.hin;
        if (a.op == ECCL_KOP_SUM) h->nsum++;
        *q = ds.q;
    } else {
        h->dtype = (unsigned char)a.in.dtype;
        h->vmajor = 1;
        h->mode = 0;
        h->nsum = 1;
        h->count = a.in.count;
        h->bound = h->eb = h->range = 0.0;
        *q = dev_qparams(a.in.dtype, 0, 0.0);
    }
}

// Segmented inclusive scan of the pairs (a, b) over lanes 0..span-1 of a warp (every lane calls
// it): a lane whose flag f is set starts a segment; f ends as "the segment has a start".
__device__ __forceinline__ void seg_scan2(long long &a, long long &b, int &f, int lane, int span)
{
    for (int o = 1; o < span; o <<= 1) {
        long long ua = __shfl_up_sync(ECCL_WARP_FULL, a, o), ub = __shfl_up_sync(ECCL_WARP_FULL, b, o);
        int uf = __shfl_up_sync(ECCL_WARP_FULL, f, o);
        if (lane >= o && !f) {
            a += ua;
            b += ub;
            f = uf;
        }
    }
}

// A block's effect on the chain state (q, v) = (q_{-1}, q_{-1} - q_{-2}) of a form-1 tile
// (doc/gpu.md): (q, v) -> (al q + a v + c, be v + e), al and be 0 or 1. A head block is constant
// (al = be = a = 0), a Lorenzo block (q + S1, d_{r-1}), a second-order one (q + r v + S2, v + S1).
struct chain_map {
    long long c, e;
    int a, al, be;
};
// m after p (p applied first). Modulo 2^64 in a corrupt stream; exact in a valid one.
__device__ __forceinline__ chain_map chain_after(const chain_map &p, const chain_map &m)
{
    chain_map r;
    r.al = p.al & m.al;
    r.be = p.be & m.be;
    r.a = (m.al ? p.a : 0) + (p.be ? m.a : 0);
    r.c = (long long)((unsigned long long)(m.al ? p.c : 0) + (unsigned long long)m.a * (unsigned long long)p.e +
                      (unsigned long long)m.c);
    r.e = (long long)((unsigned long long)(m.be ? p.e : 0) + (unsigned long long)m.e);
    return r;
}
__device__ __forceinline__ chain_map chain_shfl_up(const chain_map &m, int o)
{
    chain_map u;
    u.c = __shfl_up_sync(ECCL_WARP_FULL, m.c, o);
    u.e = __shfl_up_sync(ECCL_WARP_FULL, m.e, o);
    u.a = __shfl_up_sync(ECCL_WARP_FULL, m.a, o);
    u.al = __shfl_up_sync(ECCL_WARP_FULL, m.al, o);
    u.be = __shfl_up_sync(ECCL_WARP_FULL, m.be, o);
    return u;
}
// Inclusive scan of the maps over lanes 0..span-1 of a warp (every lane calls it).
__device__ __forceinline__ void chain_scan(chain_map &m, int lane, int span)
{
    for (int o = 1; o < span; o <<= 1) {
        const chain_map u = chain_shfl_up(m, o);
        if (lane >= o) m = chain_after(u, m);
    }
}

// Step 2's chains in a form-1 tile: thread b's block gave t0, t1 (block_summary, block_rows: the
// integers at r-2 and r-1, absolute when f) and is second order when its predictor bit is set;
// the maps compose over the tile (block 0 is always absolute, so every prefix is constant) and
// sm.tail[b] gets the integers at r-2 and r-1 of block b. Called by every thread of the CTA.
__device__ __forceinline__ void tile_chains_l2(dec_smem &sm, long long t0, long long t1, int f, int nblk)
{
    const int tid = threadIdx.x, lane = tid & 31, w = tid >> 5;
    chain_map m;
    m.c = t1;
    m.e = (long long)((unsigned long long)t1 - (unsigned long long)t0);
    m.a = 0;
    m.al = m.be = 0;
    if (tid < nblk && !f) { // a relative QUANT block (RAW blocks and those beyond the tile: constant)
        m.al = 1;
        if (eccl_fmt_code_pred(sm.codes[tid]) == ECCL_FMT_PRED_NONE) { // second order
            m.a = 32; // (r: only the stream's last block is short, and no block follows it)
            m.be = 1;
        }
    }
    if (tid < 256) {
        chain_scan(m, lane, 32);
        if (lane == 31) {
            sm.carry[w][0] = m.c;
            sm.carry[w][1] = m.e;
            sm.wscan[w] = m.a;
            sm.wflag[w] = m.al | (m.be << 1);
        }
    }
    __syncthreads();
    if (tid < 32) { // carries across the 8 warps: the same scan over lanes 0..7 of warp 0
        chain_map c;
        c.c = lane < 8 ? sm.carry[lane][0] : 0;
        c.e = lane < 8 ? sm.carry[lane][1] : 0;
        c.a = lane < 8 ? sm.wscan[lane] : 0;
        c.al = lane < 8 ? sm.wflag[lane] & 1 : 0;
        c.be = lane < 8 ? sm.wflag[lane] >> 1 : 0;
        chain_scan(c, lane, 8);
        if (lane < 8) {
            sm.carry[lane][0] = c.c;
            sm.carry[lane][1] = c.e;
            sm.wscan[lane] = c.a;
            sm.wflag[lane] = c.al | (c.be << 1);
        }
    }
    __syncthreads();
    if (tid < 256) {
        if (w > 0) {
            chain_map p;
            p.c = sm.carry[w - 1][0];
            p.e = sm.carry[w - 1][1];
            p.a = sm.wscan[w - 1];
            p.al = sm.wflag[w - 1] & 1;
            p.be = sm.wflag[w - 1] >> 1;
            m = chain_after(p, m);
        }
        sm.tail[tid][0] = (long long)((unsigned long long)m.c - (unsigned long long)m.e);
        sm.tail[tid][1] = m.c;
    }
}

// Exclusive scan of v over threads 0..255 into out[tid] (threads from 256 on give nothing); returns
// the total to every thread. Called by every thread of the CTA; wscan: 8 entries.
__device__ __forceinline__ unsigned scan256(unsigned v, unsigned *out, int *wscan)
{
    const int tid = threadIdx.x, lane = tid & 31, w = tid >> 5;
    if (tid < 256) {
        unsigned x = v;
        for (int o = 1; o < 32; o <<= 1) {
            unsigned u = __shfl_up_sync(ECCL_WARP_FULL, x, o);
            if (lane >= o) x += u;
        }
        if (lane == 31) wscan[w] = (int)x;
        out[tid] = x - v;
    }
    __syncthreads();
    unsigned base = 0, tot = 0;
    for (int k = 0; k < 8; k++) {
        const unsigned c = (unsigned)wscan[k];
        if (k < w) base += c;
        tot += c;
    }
    if (tid < 256) out[tid] += base;
    __syncthreads();
    return tot;
}

// Steps 1 and 2 for tile t (sm.toff, sm.tnext and sm.q set): places the blocks, hashes the
// payload (STAGE: copying it to `pay`, 16-byte aligned, 256 * 32 * W + 48 bytes of shared memory;
// else reading it in place, where the decoders then read it too: tile_payload), checks the
// canonical forms and resolves every block's Lorenzo predecessors into sm.tail. Returns 1, with
// this thread's share of the checksum in *hout, or 0 (uniformly) after reporting a corrupt tile.
// Not staging saves 32 KiB of shared memory per CTA (more CTAs per SM); the decoders' reads then
// go through the L1 cache, which the hashing pass has just filled.
// ROWS (the decompression kernel, the float32 homomorphic kernel): the blocks a thread decodes go
// through block_rows into `rows`
// (sm.thr[b]: 0 for the others, RAW blocks, float64's 45-plane ones and float32's second-order
// ones of more than L2_ROWS32_F planes; 1 relative, 2 absolute), the
// others through block_summary.
// SP: the tile may be sparse (parse_quant).
template <bool D64, int NT, bool STAGE = true, bool ROWS = false, bool SP = false>
__device__ int tile_prepare(const eccl_decomp_args &a, uint64_t t, unsigned char *pay, dec_smem &sm,
                            unsigned long long *hout, void *rows = nullptr)
{
    const int tid = threadIdx.x, lane = tid & 31, w = tid >> 5;
    const uint64_t b0 = t << 8, nblk = a.nb - b0 < 256 ? a.nb - b0 : 256;
    eccl_dev_scratch *s = a.s;
    const eccl_dev_q q = sm.q;

    // 1. Block sizes from the codes (the head rule needs the previous code) and their scan.
    int bad = 0, mysize = 0;
    if (tid < (int)nblk) sm.codes[tid] = a.in[64 + 8 * a.nt + b0 + tid];
    __syncthreads();
    if (tid < (int)nblk) {
        unsigned m = sm.codes[tid];
        int head = tid == 0 || eccl_fmt_code_is_raw(sm.codes[tid - 1]);
        mysize = eccl_fmt_block_size_form(m, eccl_fmt_block_len(a.n, b0 + tid), D64, head, sm.form);
        bad = mysize < 0 || (!q.quant && !eccl_fmt_code_is_raw(m));
        if (mysize < 0) mysize = 0;
    }
    if (tid < 256) {
        int x = mysize;
        for (int o = 1; o < 32; o <<= 1) {
            int u = __shfl_up_sync(ECCL_WARP_FULL, x, o);
            if (lane >= o) x += u;
        }
        if (lane == 31) sm.wscan[w] = x;
        sm.boff[tid] = (unsigned)(x - mysize); // warp-local for now
    }
    __syncthreads();
    if (tid < 256) {
        int wbase = 0;
        for (int k = 0; k < w; k++) wbase += sm.wscan[k];
        sm.boff[tid] += (unsigned)wbase;
        if (tid == 255) sm.boff[256] = (unsigned)(wbase + sm.wscan[7]);
    }
    bad = __syncthreads_or(bad);
    const unsigned total = sm.boff[256];
    unsigned padded = (total + 15u) & ~15u, sA = padded, sE = padded, L = 0;
    const int sparse = SP && sm.form >= ECCL_FMT_FORM_S1; // (uniform)
    if constexpr (SP) if (sparse && !bad && total <= (unsigned)(sm.tnext - sm.toff)) {
        // a sparse tile (doc/format.md 7): each sparse block's map (its last 4 bytes, read in place)
        // gives its bits in the tile's sparse stream, which follows the blocks at sA = align4(total)
        unsigned mybits = 0;
        if (tid < (int)nblk) {
            const unsigned m = sm.codes[tid];
            if (eccl_fmt_code_sparse(m, sm.form) && eccl_fmt_quant_planes(m, D64) > 0) {
                const uint32_t z = ld_word(a.in + a.P + sm.toff, sm.boff[tid] + (unsigned)mysize - 4u);
                mybits = (unsigned)eccl_fmt_sparse_bits(m, z, D64);
                bad |= 8 * mysize + (int)mybits > 8 * eccl_fmt_block_len(a.n, b0 + tid) * (D64 ? 8 : 4);
            }
        }
        L = scan256(mybits, sm.bitoff, sm.wscan);
        bad = __syncthreads_or(bad);
        sA = (total + 3u) & ~3u;
        sE = sA + 4u * ((L + 31u) >> 5);
        padded = (unsigned)eccl_fmt_sparse_tile_size(total, L);
        if (tid == 0) sm.sA = sA;
    }
    if (bad || padded != sm.tnext - sm.toff) {
        if (tid == 0) eccl_dev_fail(s, ECCL_ERR_CORRUPT);
        return 0;
    }
    // The tile's payload hashed (16-byte loads) and, STAGE, copied to shared memory; zero padding
    // checked.
    const uint64_t gpos = a.P + sm.toff;
    const unsigned char *src = STAGE ? pay : a.in + gpos;
    unsigned long long h = 0;
    for (unsigned c = tid; c < padded / 16; c += NT) {
        uint4 v = *(const uint4 *)(a.in + gpos + 16 * c);
        if (STAGE) *(uint4 *)(pay + 16 * c) = v;
        h += chk_chunk(v, gpos + 16 * c);
    }
    if (STAGE && tid < 8) ((uint32_t *)(pay + padded))[tid] = 0; // slack read by ld_word
    __syncthreads();
    if constexpr (SP) {
        for (unsigned z = total + tid; z < padded; z += NT) // (a sparse tile: its stream's words excepted)
            if (z < sA || z >= sE) bad |= src[z] != 0;
        if (sparse && (L & 31u) && tid == 0) bad |= (ld_word(src, sE - 4u) >> (L & 31u)) != 0; // bits after the L-th
    } else {
        for (unsigned z = total + tid; z < padded; z += NT) bad |= src[z] != 0;
    }
    // checksum of the codes (the last tile also the zero padding up to the payload), the index
    // entry, and (tile 0) the header
    const uint64_t cstart = 64 + 8 * a.nt + b0, cend = t == a.nt - 1 ? a.P : cstart + 256;
    for (uint64_t wd = cstart / 8 + tid; wd < cend / 8; wd += NT) {
        uint64_t v = *(const unsigned long long *)(a.in + 8 * wd);
        for (int k = 0; k < 8; k++)
            if (8 * wd + k - cstart >= nblk) bad |= ((v >> (8 * k)) & 0xFFu) != 0;
        h += chk_word(v, wd);
    }
    if (tid == 0) h += chk_word(sm.tword, (64 + 8 * t) / 8);
    if (t == 0 && tid < 8) h += chk_word(tid == 7 ? 0u : *(const unsigned long long *)(a.in + 8 * tid), (uint64_t)tid);

    // 2. Per block: canonical form and sums; then a segmented scan resolves the chains.
    long long t0 = 0, t1 = 0;
    int f = 1, thr = 0;
    const int form1 = second_form<SP>(sm.form); // (forms 1 and 3: second-order chains)
    if (tid < (int)nblk && !eccl_fmt_code_is_raw(sm.codes[tid])) {
        const int l2 = form1 && eccl_fmt_code_pred(sm.codes[tid]) == ECCL_FMT_PRED_NONE;
        // (64-bit: at most 30 planes; float32 second order: at most L2_ROWS32_F planes, the wider
        // ones decode_l2_thread)
        if (ROWS &&
            (D64 ? (sm.codes[tid] & 31u) < 31u : !l2 || eccl_fmt_quant_planes(sm.codes[tid], 0) <= L2_ROWS32_F)) {
            bad |= !block_rows<D64, SP>(sm, src, tid, a.n, b0, rows, &t0, &t1, &f);
            thr = 1 + f;
        } else {
            bad |= !block_summary<SP>(sm, src, tid, a.n, b0, &t0, &t1);
            qblock k = parse_quant<SP>(sm, src, tid, a.n, b0, D64);
            f = k.none || k.head;
        }
    }
    if (ROWS && tid < (int)nblk) sm.thr[tid] = (unsigned char)thr;
    if (form1) { // (uniform over the CTA)
        tile_chains_l2(sm, t0, t1, f, (int)nblk);
    } else if (tid < 256) {
        seg_scan2(t0, t1, f, lane, 32); // within the warp
        if (lane == 31) {
            sm.carry[w][0] = t0;
            sm.carry[w][1] = t1;
            sm.wflag[w] = f;
        }
    }
    if (!form1) __syncthreads();
    if (!form1 && tid < 32) { // carries across the 8 warps: the same segmented scan over lanes 0..7 of warp 0
        long long c0 = lane < 8 ? sm.carry[lane][0] : 0, c1 = lane < 8 ? sm.carry[lane][1] : 0;
        int cf = lane < 8 ? sm.wflag[lane] : 1; // (block 0 of a tile is always absolute)
        seg_scan2(c0, c1, cf, lane, 8);
        if (lane < 8) {
            sm.carry[lane][0] = c0;
            sm.carry[lane][1] = c1;
        }
    }
    if (!form1) __syncthreads();
    if (!form1 && tid < 256) {
        if (!f && w > 0) {
            t0 += sm.carry[w - 1][0];
            t1 += sm.carry[w - 1][1];
        }
        sm.tail[tid][0] = t0;
        sm.tail[tid][1] = t1;
    }
    bad = __syncthreads_or(bad);
    if (bad) {
        if (tid == 0) eccl_dev_fail(s, ECCL_ERR_CORRUPT);
        return 0;
    }
    *hout = h;
    return 1;
}

// Where the decoders read tile t's payload after tile_prepare<D64, NT, STAGE>.
template <bool STAGE>
__device__ __forceinline__ const unsigned char *tile_payload(const eccl_decomp_args &a, const unsigned char *pay,
                                                             const dec_smem &sm)
{
    return STAGE ? pay : a.in + a.P + sm.toff;
}

} // namespace

#endif
