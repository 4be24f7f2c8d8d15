#!/usr/bin/env python3
# the same as: strider concat a.npy testdata/archive.npz:b - --axis none -o c.npy
import numpy as np
import io
import sys

a0 = np.load('a.npy')
if a0.dtype.kind not in 'biufc' or a0.dtype.itemsize > (16 if a0.dtype.kind == 'c' else 8):
    raise TypeError(f'strider computes on numeric dtypes only, not {a0.dtype}')
a1 = np.load('testdata/archive.npz')['b']
if a1.dtype.kind not in 'biufc' or a1.dtype.itemsize > (16 if a1.dtype.kind == 'c' else 8):
    raise TypeError(f'strider computes on numeric dtypes only, not {a1.dtype}')
a2 = np.load(io.BytesIO(sys.stdin.buffer.read()))
if a2.dtype.kind not in 'biufc' or a2.dtype.itemsize > (16 if a2.dtype.kind == 'c' else 8):
    raise TypeError(f'strider computes on numeric dtypes only, not {a2.dtype}')
r = np.concatenate([a0, a1, a2], axis=None)
np.save('c.npy', np.ascontiguousarray(r) if r.ndim else r)  # C order; a 0-d result stays 0-d
