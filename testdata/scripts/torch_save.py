#!/usr/bin/env python3
# the same as: strider sort testdata/torch/nested.pt:model.0.weight -o s.npy
import numpy as np
import torch
import zipfile


def widen_f8(raw, e5m2):
    """float8 bytes (e4m3fn, or e5m2) widened exactly to float32, as strider reads them:
    a NaN keeps its sign and its mantissa bits, moved to the top of float32's mantissa."""
    ebits, mbits = (5, 2) if e5m2 else (4, 3)
    bias, top = (1 << (ebits - 1)) - 1, (1 << ebits) - 1
    b = raw.astype(np.uint32)
    sign, e, m = (b >> 7) << 31, (b >> mbits) & top, b & ((1 << mbits) - 1)
    special = (e == top) if e5m2 else (e == top) & (m == (1 << mbits) - 1)  # inf or NaN
    normal = sign | ((e + 127 - bias) << 23) | (m << (23 - mbits))
    subnormal = sign | (m.astype(np.float32) * np.float32(2.0 ** (1 - bias - mbits))).view(np.uint32)
    bits = np.where(special, sign | 0x7F800000 | (m << (23 - mbits)), np.where(e == 0, subnormal, normal))
    return bits.astype(np.uint32).view(np.float32)


def load_torch(path, name=None):
    """Tensor name of a torch.save file (None: its only tensor) as a NumPy array. Loaded as
    torch.load(weights_only=True) loads it (PyTorch 1.13's weights-only unpickler refuses a
    float value in the checkpoint, such as "lr": 0.5, which strider reads); the names are dict keys (str, int,
    bool) and list or tuple indices joined with '.', as state_dict() names them."""
    if not zipfile.is_zipfile(path):
        raise ValueError(f'{path}: the legacy torch.save format of PyTorch < 1.6 is not read')
    found, todo = [], [('', 0, torch.load(path, map_location='cpu', weights_only=True))]
    for visits in range(1 << 20):  # strider's bounds: a billion-laughs object stops here,
        if not todo:               # and one that holds itself at 256 levels
            break
        prefix, depth, obj = todo.pop()
        if depth > 256:
            raise ValueError(f'{path}: containers nest more than 256 deep')
        join = (prefix + '.') if prefix else ''
        if isinstance(obj, torch.Tensor):
            found.append((prefix, obj))
        elif isinstance(obj, dict):  # keys str, int or bool (an int, named True or False)
            todo += [(join + str(k), depth + 1, v) for k, v in obj.items() if isinstance(k, (str, int))]
        elif isinstance(obj, (list, tuple)):
            todo += [(join + str(i), depth + 1, v) for i, v in enumerate(obj)]
    if todo:
        raise ValueError(f'{path}: more than {1 << 20} containers and tensors to walk')
    ts = [t for n, t in found if name is None or n == name]
    if len(ts) != 1:
        raise ValueError(f'{path} holds {len(ts)} tensors named {name!r}' if name is not None
                         else f'{path} holds {len(ts)} tensors: name one as FILE:NAME')
    t = ts[0].detach()
    if t.dtype == torch.bfloat16:  # widened exactly to float32, as strider reads it
        return t.float().numpy()
    if str(t.dtype).startswith('torch.float8'):
        return widen_f8(t.contiguous().view(torch.uint8).numpy(), t.dtype == torch.float8_e5m2)
    return t.numpy()

a = load_torch('testdata/torch/nested.pt', 'model.0.weight')
if a.dtype.kind not in 'biufc' or a.dtype.itemsize > (16 if a.dtype.kind == 'c' else 8):
    raise TypeError(f'strider computes on numeric dtypes only, not {a.dtype}')
if a.ndim == 0:  # no axis to sort along (np.argsort would answer 0)
    raise np.AxisError(-1, 0)
t = torch.from_numpy(a.astype(a.dtype.newbyteorder('=')))
idx = torch.sort(t, dim=-1, descending=False, stable=True).indices.numpy()
r = np.take_along_axis(a, idx, axis=-1)
np.save('s.npy', np.ascontiguousarray(r) if r.ndim else r)  # C order; a 0-d result stays 0-d
