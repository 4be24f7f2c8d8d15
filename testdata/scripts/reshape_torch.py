#!/usr/bin/env python3
# the same as: strider reshape testdata/archive.npz:a 3,-1 -o r.npy
import numpy as np
import torch

a = np.load('testdata/archive.npz')['a']
if a.dtype.kind not in 'biufc' or a.dtype.itemsize > (16 if a.dtype.kind == 'c' else 8):
    raise TypeError(f'strider computes on numeric dtypes only, not {a.dtype}')
t = torch.from_numpy(a.astype(a.dtype.newbyteorder('=')))
r = torch.reshape(t, (3, -1)).numpy().astype(a.dtype)
np.save('r.npy', np.ascontiguousarray(r) if r.ndim else r)  # C order; a 0-d result stays 0-d
