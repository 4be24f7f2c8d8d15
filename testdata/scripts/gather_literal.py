#!/usr/bin/env python3
# the same as: strider gather --index '[[0, 1], [2, -1]]' --axis 1 x.npy -o g.npy
import numpy as np

a = np.load('x.npy')
if a.dtype.kind not in 'biufc' or a.dtype.itemsize > (16 if a.dtype.kind == 'c' else 8):
    raise TypeError(f'strider computes on numeric dtypes only, not {a.dtype}')
idx = np.array([[0, 1], [2, -1]], dtype=np.int64).reshape((2, 2))
n = a.reshape(-1).shape[1] if a.ndim == 0 else a.shape[1]
if idx.dtype.kind == 'u' and idx.dtype.itemsize == 8:  # NumPy will not cast uint64 indices; strider uses their exact values
    idx = np.minimum(idx, np.uint64(2**63 - 1)).astype(np.int64)
if ((idx < -n) | (idx >= n)).any():  # strider checks the indices even when the result is empty
    raise IndexError('index out of range')
r = np.asarray(np.take(a, idx, axis=1, mode='raise'), dtype=a.dtype)  # a scalar result stays a 0-d array of the input's dtype
np.save('g.npy', np.ascontiguousarray(r) if r.ndim else r)  # C order; a 0-d result stays 0-d
