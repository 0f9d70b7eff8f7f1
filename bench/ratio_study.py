#!/usr/bin/python3
"""ratio_study.py - where eccl's compression ratio goes on real fields (issue 21, item 1).

A model of the format-1 block coder (doc/format.md: quantum D, 1-D Lorenzo deltas, blocks of 32
values, one code byte, F bit-planes of 32 bits, a 32-bit sign map unless the block is monotone)
and of alternative encodings, all applied to the same quantized values, so that the rows differ
only by the encoding. The v1 row reproduces the ratios eccl measures (bench_codec,
bench_cuda_codec) to two decimals; the others are what a format 2 could get. Sizes ignore the
header and the tile index (below 0.1%).

    /usr/bin/python3 bench/ratio_study.py        (Debian: apt-get install python3-numpy python3-netcdf4)
    /usr/bin/python3 bench/ratio_study.py smooth (issue 21's sin(x)cos(y) rows, float32 and float64,
                                                  and its random walk)

The fields are those of issue 21's table, from Debian's libncarg-data (ECCL_NCARG_DIR overrides
/usr/share/ncarg/data/cdf). Not a test, not built: a measurement quoted in doc/performance.md.
"""
import os
import struct
import numpy as np
import netCDF4

NC = os.environ.get('ECCL_NCARG_DIR', '/usr/share/ncarg/data/cdf') + '/'

def quantum(eb):
    b = struct.unpack('<Q', struct.pack('<d', 2 * eb))[0] & ~((1 << 44) - 1)
    return struct.unpack('<d', struct.pack('<Q', b))[0]

def bitlen(a):
    # bits of |a| (0 for 0), elementwise, int64
    a = np.abs(a).astype(np.uint64)
    out = np.zeros(a.shape, np.int64)
    v = a.copy()
    while True:
        nz = v > 0
        if not nz.any(): break
        out += nz
        v >>= np.uint64(1)
    return out

def blocks(d, B):
    n = len(d) // B * B
    return d[:n].reshape(-1, B)

def v1_bytes(d, B=32):
    """per block: 1 code byte, F planes of B bits, a sign map of B bits unless monotone"""
    b = blocks(d, B)
    F = bitlen(b).max(axis=1)
    mono = (b >= 0).all(axis=1) | (b <= 0).all(axis=1)
    bits = F * B + np.where(mono | (F == 0), 0, B) + 8
    return bits.sum() / 8

def subblock_bytes(d, B=32, S=8):
    """per block: code byte + sign map; each sub-block of S values its own width (5 bits)"""
    b = blocks(d, B)
    sb = b.reshape(b.shape[0], B // S, S)
    F = bitlen(sb).max(axis=2)
    mono = (b >= 0).all(axis=1) | (b <= 0).all(axis=1)
    Fb = F.max(axis=1)
    bits = (F * S).sum(axis=1) + 5 * (B // S) + np.where(mono | (Fb == 0), 0, B) + 8
    return bits.sum() / 8

def zero_byte_elim(d, B=32):
    """PFPL-like after the v1 planes: every plane byte (8 values' bit) that is zero is dropped,
    a bitmap of one bit per plane byte says which"""
    b = blocks(d, B)
    F = bitlen(b).max(axis=1)
    mag = np.abs(b).astype(np.uint64)
    total = 0
    for p in range(int(F.max()) if len(F) else 0):
        bit = ((mag >> np.uint64(p)) & np.uint64(1)).astype(np.uint8)  # (nb, 32)
        byt = bit.reshape(bit.shape[0], B // 8, 8).any(axis=2)          # nonzero plane bytes
        have = F > p
        total += (byt.sum(axis=1) * 8 + (B // 8))[have].sum()            # kept bytes + bitmap
    mono = (b >= 0).all(axis=1) | (b <= 0).all(axis=1)
    total += (np.where(mono | (F == 0), 0, B) + 8).sum()
    return total / 8

def negabinary_zbe(d, B=32):
    """zero-byte elimination on negabinary (no sign map): PFPL's representation"""
    b = blocks(d, B).astype(np.int64)
    mask = np.int64(0x5555555555555555)
    nb_ = ((b + mask) ^ mask).astype(np.uint64)
    F = bitlen(np.bitwise_or.reduce(nb_, axis=1).astype(np.int64) & np.int64(0x7fffffffffffffff))
    total = 0
    for p in range(int(F.max()) if len(F) else 0):
        bit = ((nb_ >> np.uint64(p)) & np.uint64(1)).astype(np.uint8)
        byt = bit.reshape(bit.shape[0], B // 8, 8).any(axis=2)
        have = F > p
        total += (byt.sum(axis=1) * 8 + (B // 8))[have].sum()
    total += (8 * np.ones(len(F))).sum()
    return total / 8

def sparse_choice(d, B=32):
    """per block the cheaper of the v1 planes and a sparse form: a B-bit map of nonzero deltas,
    then each nonzero one in F bits plus a sign bit"""
    b = blocks(d, B)
    F = bitlen(b).max(axis=1)
    mono = (b >= 0).all(axis=1) | (b <= 0).all(axis=1)
    dense = F * B + np.where(mono | (F == 0), 0, B) + 8
    nnz = (b != 0).sum(axis=1)
    sparse = B + nnz * (F + np.where(mono, 0, 1)) + 8
    return np.minimum(dense, sparse).sum() / 8, (sparse < dense).mean()

def lorenzo2(q):
    """1-D second-order Lorenzo residuals: q[i] - 2 q[i-1] + q[i-2] (FSZ's LZ2), in memory order"""
    d = np.diff(q, n=2, prepend=[q[0], q[0]])
    return d

def lz12_choice(d1, d2, B=32):
    """per block the cheaper of the v1 planes of the first- and the second-order residuals, one
    flag bit a block"""
    a = blocks(d1, B); b = blocks(d2, B)
    def cost(x):
        F = bitlen(x).max(axis=1)
        mono = (x >= 0).all(axis=1) | (x <= 0).all(axis=1)
        return F * B + np.where(mono | (F == 0), 0, B) + 8
    c1, c2 = cost(a), cost(b)
    return (np.minimum(c1, c2) + 1).sum() / 8, (c2 < c1).mean()

def block_costs(x, B=32):
    """bits of each block of x: the v1 planes (dense) and the sparse form (sparse_choice)"""
    b = blocks(x, B)
    F = bitlen(b).max(axis=1)
    mono = (b >= 0).all(axis=1) | (b <= 0).all(axis=1)
    dense = F * B + np.where(mono | (F == 0), 0, B) + 8
    nnz = (b != 0).sum(axis=1)
    return dense, B + nnz * (F + np.where(mono, 0, 1)) + 8

def best_of_four(d1, d2, B=32):
    """per block the cheapest of {first, second order} x {dense planes, sparse map}: two bits of
    the block's code byte (a format 2 candidate)"""
    c = np.stack(block_costs(d1, B) + block_costs(d2, B))
    return c.min(axis=0).sum() / 8

def tile_alt(d1, d2, B=32, T=256):
    """format-1's code byte kept, its predictor bit redefined: per tile of T blocks one more byte
    names the block form the bit selects (the tile's 'alternative': first-order sparse, second
    order dense or sparse; or none, format 1 itself), and each block takes the cheaper of
    first-order dense planes and that alternative. No per-block cost beyond format 1's byte.
    Returns the bytes and the share of tiles per alternative (v1, L2, S1, S2)."""
    dense1, sparse1 = block_costs(d1, B)
    dense2, sparse2 = block_costs(d2, B)
    nb = len(dense1) // T * T
    opts = np.stack([dense1, np.minimum(dense1, dense2), np.minimum(dense1, sparse1), np.minimum(dense1, sparse2)])
    t = opts[:, :nb].reshape(4, -1, T).sum(axis=2)  # (alternative, tile)
    k = t.argmin(axis=0)
    rest = opts[:, nb:].sum(axis=1).min() if nb < len(dense1) else 0
    total = t.min(axis=0).sum() + rest + 8 * (t.shape[1] + (nb < len(dense1)))
    return total / 8, [(k == i).mean() for i in range(4)]

def fsz_like(q, W, B=32, T=256):
    """FSZ's block coder as its source reads (JiajunHuang1999/FSZ src/fsz_kernels.cuh): tiles of
    T values, each coded alone (the predictors start from 0 at every tile), all first- or all
    second-order Lorenzo, with or without the tile's quantized mean subtracted first (W more
    bytes), whichever of the four is smallest; one rate byte a block of B, and for a block of rate
    r > 0: B/8 sign bytes + r planes of B bits. Returns the bytes and the share of second-order
    tiles."""
    n = len(q) // T * T
    t = q[:n].reshape(-1, T)
    m = np.rint(t.mean(axis=1)).astype(np.int64)[:, None]  # (FSZ rounds the float mean)
    def cost(x):
        F = bitlen(x.reshape(x.shape[0], T // B, B)).max(axis=2)
        return (np.where(F > 0, B // 8 + F * B // 8, 0) + 1).sum(axis=1)
    def lz1(v):
        return np.diff(v, axis=1, prepend=0)
    def lz2(v):
        z = np.zeros((v.shape[0], 2), np.int64)
        return np.diff(np.concatenate([z, v], axis=1), n=2, axis=1)
    c = np.stack([cost(lz1(t)), cost(lz1(t - m)) + W, cost(lz2(t)), cost(lz2(t - m)) + W])
    k = c.argmin(axis=0)
    return c.min(axis=0).sum(), (k >= 2).mean()

def entropy_bytes(d):
    _, c = np.unique(d, return_counts=True)
    p = c / c.sum()
    return -(c * np.log2(p)).sum() / 8

def study(name, x, eb, W):
    x = x.astype(np.float64)
    D = quantum(eb)
    q = np.rint(x / D).astype(np.int64)
    ok = np.abs(q * D - x) <= eb
    raw = x.size * W
    rows = []
    # 1-D Lorenzo in memory order (as v1; tiles of 8192 restart: ignored, < 0.1%)
    flat = q.ravel()
    d1 = np.diff(flat, prepend=flat[:1])
    rows.append(('v1 model (1-D Lorenzo, 32-value blocks)', v1_bytes(d1)))
    g = np.gcd.reduce(np.abs(d1[d1 != 0])) if (d1 != 0).any() else 1
    rows.append(('  deltas share a factor %d: divided out' % g, v1_bytes(d1 // g) if g > 1 else v1_bytes(d1)))
    rows.append(('  sub-blocks of 8, own widths', subblock_bytes(d1)))
    rows.append(('  zero plane bytes dropped (bitmap)', zero_byte_elim(d1)))
    rows.append(('  negabinary + zero bytes dropped (PFPL-like)', negabinary_zbe(d1)))
    sp, frac = sparse_choice(d1)
    rows.append(('  v1 or a sparse block (%.0f%% sparse)' % (100 * frac), sp))
    d2nd = lorenzo2(flat)
    rows.append(('1-D second-order Lorenzo, v1 blocks', v1_bytes(d2nd)))
    c12, f12 = lz12_choice(d1, d2nd)
    rows.append(('  first or second order per block (%.0f%% second)' % (100 * f12), c12))
    fz, ffz = fsz_like(flat, W)
    rows.append(('  FSZ-like coder (tiles of 256, %.0f%% second order)' % (100 * ffz), fz))
    rows.append(('  first or second order x dense or sparse, per block', best_of_four(d1, d2nd)))
    ta, share = tile_alt(d1, d2nd)
    rows.append(('  v1 byte, per-tile alternative (v1/L2/S1/S2 %.0f/%.0f/%.0f/%.0f%%)'
                 % tuple(100 * x for x in share), ta))
    if q.ndim >= 2:
        q2 = q.reshape(-1, q.shape[-2], q.shape[-1])
        d2 = q2.copy()
        d2[:, 1:, 1:] = q2[:, 1:, 1:] - q2[:, :-1, 1:] - q2[:, 1:, :-1] + q2[:, :-1, :-1]
        d2[:, 0, 1:] = q2[:, 0, 1:] - q2[:, 0, :-1]
        d2[:, 1:, 0] = q2[:, 1:, 0] - q2[:, :-1, 0]
        d2 = d2.ravel()
        rows.append(('2-D Lorenzo, v1 blocks', v1_bytes(d2)))
        rows.append(('2-D Lorenzo, zero plane bytes dropped', zero_byte_elim(d2)))
        rows.append(('2-D Lorenzo, sub-blocks of 8', subblock_bytes(d2)))
        sp2, frac2 = sparse_choice(d2)
        rows.append(('2-D Lorenzo, v1 or sparse (%.0f%% sparse)' % (100 * frac2), sp2))
        rows.append(('order-0 entropy of the 2-D deltas', entropy_bytes(d2)))
    rows.append(('order-0 entropy of the 1-D deltas', entropy_bytes(d1)))
    print('\n%s: %d values, ABS %g, quantum %.4g, quantizable %.4f%%, zero 1-D deltas %.1f%%'
          % (name, x.size, eb, D, 100 * ok.mean(), 100 * (d1 == 0).mean()))
    for label, by in rows:
        print('  %-48s ratio %6.2f  (%5.2f bits/value)' % (label, raw / by, 8 * by / x.size))

def field(f, v):
    a = netCDF4.Dataset(NC + f).variables[v][:]
    return np.asarray(np.ma.filled(a, np.nan))

def sincos(nvalues, rows=256):
    """bench_cuda_codec's sin(x)cos(y) of nvalues values (a side x side grid, 4 pi along each
    axis), `rows` of its rows evenly spaced: the 1-D residuals run along a row, so these rows give
    the whole array's ratio (the row ends are under 0.01% of the values)"""
    side = int(np.sqrt(nvalues))
    r = np.linspace(0, side - 1, rows).astype(np.int64)
    u = 12.566370614359172 * r[:, None] / side
    v = 12.566370614359172 * np.arange(side)[None, :] / side
    return (np.sin(u) * np.cos(v)).ravel()

if __name__ == '__main__':
    import sys
    if 'smooth' in sys.argv[1:]:
        # issue 21's smooth rows: 1 GiB arrays (float32 2^28 values, float64 2^27)
        study('sin(x)cos(y), 1 GiB float32 grid', sincos(1 << 28).astype(np.float32), 1e-4, 4)
        study('sin(x)cos(y), 1 GiB float64 grid', sincos(1 << 27), 1e-6, 8)
        # the random walk's ratio depends only on its steps (uniform in +-1e-3): 4 Mi of them
        walk = np.cumsum((np.random.default_rng(1234).random(1 << 22) - 0.5) * 2e-3)
        study('random walk (float32)', walk.astype(np.float32), 1e-4, 4)
        sys.exit(0)
    t = field('trinidad.nc', 'data')
    h = field('hgt.nc', 'HGT')
    T = field('vinth2p.nc', 'T')
    for eb in (1e-4, 1e-2):
        study('trinidad data (float32)', t, eb, 4)
    study('hgt HGT (float32)', h, 1e-4, 4)
    study('vinth2p T as float64', T, 1e-6, 8)
