#!/usr/bin/env python3
"""ncarg_raw.py [OUTDIR] - write issue 21's real fields as raw little-endian reals for
bench_cuda_codec --raw FILE (which repeats a file's values to the benchmark's size):
vinth2p_T.f64 (vinth2p.nc T as float64), hgt.f32 (hgt.nc HGT), trinidad.f32 (trinidad.nc data),
from Debian's libncarg-data (ECCL_NCARG_DIR overrides /usr/share/ncarg/data/cdf; needs
python3-netcdf4). Masked values become NaN (these three fields have none). Not built, not a test:
the inputs of doc/performance.md section 19."""
import os
import sys

import netCDF4
import numpy as np

NC = os.environ.get('ECCL_NCARG_DIR', '/usr/share/ncarg/data/cdf') + '/'
out = sys.argv[1] if len(sys.argv) > 1 else '.'
os.makedirs(out, exist_ok=True)
for f, v, dt, name in [('vinth2p.nc', 'T', np.float64, 'vinth2p_T.f64'), ('hgt.nc', 'HGT', np.float32, 'hgt.f32'),
                       ('trinidad.nc', 'data', np.float32, 'trinidad.f32')]:
    a = np.asarray(np.ma.filled(netCDF4.Dataset(NC + f).variables[v][:], np.nan)).astype(dt).ravel()
    a.astype(a.dtype.newbyteorder('<')).tofile(os.path.join(out, name))
    print('%s: %d values of %s' % (name, a.size, np.dtype(dt).name))
