#!/usr/bin/env python3
# the same as: strider stats x.npy ::2
import numpy as np

a = np.load('x.npy')
if a.dtype.kind not in 'biufc' or a.dtype.itemsize > (16 if a.dtype.kind == 'c' else 8):
    raise TypeError(f'strider computes on numeric dtypes only, not {a.dtype}')
a = np.asarray(a[::2])
x = np.abs(a) if a.dtype.kind == 'c' else a  # complex: the statistics of the magnitude
f = x.astype(np.float64)
some = a.size and not np.isnan(f).all()  # else min and max are undefined, mean and std nan
for k, v in [('shape', a.shape), ('dtype', a.dtype.name), ('count', a.size), ('nan', np.isnan(f).sum()),
             ('posinf', np.isposinf(f).sum()), ('neginf', np.isneginf(f).sum()), ('zero', (f == 0).sum()),
             ('min', np.nanmin(x) if some else 'undefined'), ('max', np.nanmax(x) if some else 'undefined'),
             ('mean', np.nanmean(x, dtype=np.float64) if some else np.nan),
             ('std', np.nanstd(x, dtype=np.float64) if some else np.nan)]:
    print(f'{k:<8}{v!s}')  # str(): a float32 prints its own shortest digits
