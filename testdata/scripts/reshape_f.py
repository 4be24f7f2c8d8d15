#!/usr/bin/env python3
# the same as: strider reshape x.npy '(2, -1)' --order F -o r.npy
import numpy as np

a = np.load('x.npy')
if a.dtype.kind not in 'biufc' or a.dtype.itemsize > (16 if a.dtype.kind == 'c' else 8):
    raise TypeError(f'strider computes on numeric dtypes only, not {a.dtype}')
r = np.reshape(a, (2, -1), order='F')
np.save('r.npy', np.ascontiguousarray(r) if r.ndim else r)  # C order; a 0-d result stays 0-d
