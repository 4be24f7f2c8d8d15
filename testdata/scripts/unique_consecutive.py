#!/usr/bin/env python3
# the same as: strider unique-consecutive x.npy --inverse inv.npy --counts cnt.npy -o u.npy
import numpy as np

a = np.load('x.npy')
if a.dtype.kind not in 'biufc' or a.dtype.itemsize > (16 if a.dtype.kind == 'c' else 8):
    raise TypeError(f'strider computes on numeric dtypes only, not {a.dtype}')
# NumPy has no unique_consecutive: a run starts where an element (a slice along axis)
# differs from the one before it; NaNs differ from each other, as in torch
axis = None
if axis is None:
    rows = a.reshape(-1, 1)
else:
    if 0 in a.shape[:axis] + a.shape[axis:][1:]:
        raise ValueError('an empty axis other than the one compared (torch refuses it)')
    rows = np.moveaxis(a, axis, 0).reshape(a.shape[axis], -1) if a.shape[axis] else np.zeros((0, 1), a.dtype)
new = np.concatenate(([True], np.any(rows[1:] != rows[:-1], axis=1))) if len(rows) else np.zeros(0, bool)
starts = np.nonzero(new)[0]
r = a.reshape(-1)[starts] if axis is None else np.take(a, starts, axis=axis)
inv = (np.cumsum(new) - 1).astype(np.int64)
inv = inv.reshape(a.shape) if axis is None else inv
cnt = np.diff(np.append(starts, len(rows))).astype(np.int64)
np.save('u.npy', np.ascontiguousarray(r) if r.ndim else r)  # C order; a 0-d result stays 0-d
np.save('inv.npy', np.asarray(inv, dtype='<i8'))
np.save('cnt.npy', np.asarray(cnt, dtype='<i8'))
