#!/usr/bin/env python3
# the same as: strider cast x.npy --dtype '>f4' --casting same_kind -o c.npy
import numpy as np

a = np.load('x.npy')
if a.dtype.kind not in 'biufc' or a.dtype.itemsize > (16 if a.dtype.kind == 'c' else 8):
    raise TypeError(f'strider computes on numeric dtypes only, not {a.dtype}')
r = a.astype('>f4', casting='same_kind')
np.save('c.npy', np.ascontiguousarray(r) if r.ndim else r)  # C order; a 0-d result stays 0-d
