#!/usr/bin/env python3
# the same as: strider unique-consecutive x.npy --axis -1 --counts cnt.npy -o u.npy
import numpy as np
import torch

a = np.load('x.npy')
if a.dtype.kind not in 'biufc' or a.dtype.itemsize > (16 if a.dtype.kind == 'c' else 8):
    raise TypeError(f'strider computes on numeric dtypes only, not {a.dtype}')
t = torch.from_numpy(a.astype(a.dtype.newbyteorder('=')))
u, inv, cnt = torch.unique_consecutive(t, return_inverse=True, return_counts=True, dim=-1)
r, inv, cnt = u.numpy().astype(a.dtype), inv.numpy(), cnt.numpy()
np.save('u.npy', np.ascontiguousarray(r) if r.ndim else r)  # C order; a 0-d result stays 0-d
np.save('cnt.npy', np.asarray(cnt, dtype='<i8'))
