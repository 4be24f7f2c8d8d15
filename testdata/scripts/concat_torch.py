#!/usr/bin/env python3
# the same as: strider concat a.npy b.npy --axis -1 -o c.npy
import numpy as np
import torch

a0 = np.load('a.npy')
if a0.dtype.kind not in 'biufc' or a0.dtype.itemsize > (16 if a0.dtype.kind == 'c' else 8):
    raise TypeError(f'strider computes on numeric dtypes only, not {a0.dtype}')
a1 = np.load('b.npy')
if a1.dtype.kind not in 'biufc' or a1.dtype.itemsize > (16 if a1.dtype.kind == 'c' else 8):
    raise TypeError(f'strider computes on numeric dtypes only, not {a1.dtype}')
dt = np.result_type(*[a0, a1])  # NumPy's promotion, which strider follows (torch's differs)
ts = [torch.from_numpy(x.astype(dt.newbyteorder('='))) for x in [a0, a1]]
r = torch.cat(ts, dim=-1).numpy()
np.save('c.npy', np.ascontiguousarray(r) if r.ndim else r)  # C order; a 0-d result stays 0-d
