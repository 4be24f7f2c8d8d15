#!/usr/bin/env python3
# the same as: strider compare --exact a.npy b.npy
import numpy as np

x = np.load('a.npy')
if x.dtype.kind not in 'biufc' or x.dtype.itemsize > (16 if x.dtype.kind == 'c' else 8):
    raise TypeError(f'strider computes on numeric dtypes only, not {x.dtype}')
y = np.load('b.npy')
if y.dtype.kind not in 'biufc' or y.dtype.itemsize > (16 if y.dtype.kind == 'c' else 8):
    raise TypeError(f'strider computes on numeric dtypes only, not {y.dtype}')
# --exact: equal shape, dtype and bytes; an AssertionError exits 1, as strider does
assert x.shape == y.shape and x.dtype == y.dtype and x.tobytes() == y.tobytes(), 'the arrays differ'
