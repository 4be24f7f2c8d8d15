#!/usr/bin/env python3
# the same as: strider compare --member 'x_f[13]*' testdata/torch/dtypes.safetensors testdata/torch/dtypes.safetensors
import numpy as np
import json


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


def load_safetensors(path, name=None):
    """Tensor name of a .safetensors file (None: its only tensor) as a NumPy array. The file is
    an 8-byte little-endian header length N, N bytes of JSON giving each tensor's dtype, shape
    and data_offsets, then the data, which the tensors tile exactly; checked as strider does."""
    with open(path, 'rb') as f:
        data = f.read()
    n = int.from_bytes(data[:8], 'little')
    def unique(pairs):
        if len({k for k, _ in pairs}) != len(pairs):
            raise ValueError(f'{path}: a key appears twice in the header')
        return dict(pairs)
    header = json.loads(data[8:8 + n].decode(), object_pairs_hook=unique)
    if not all(isinstance(v, str) for v in header.pop('__metadata__', {}).values()):
        raise ValueError(f'{path}: __metadata__ maps strings to strings')
    kinds = {'BOOL': '?', 'U8': 'u1', 'I8': 'i1', 'U16': '<u2', 'I16': '<i2', 'U32': '<u4', 'I32': '<i4',
             'U64': '<u8', 'I64': '<i8', 'F16': '<f2', 'F32': '<f4', 'F64': '<f8', 'C64': '<c8',
             'BF16': '<u2', 'F8_E4M3': 'u1', 'F8_E5M2': 'u1'}
    end = 0
    for t in sorted(header.values(), key=lambda t: t['data_offsets']):
        begin, stop = t['data_offsets']
        if any(type(d) is not int or d < 0 for d in t['shape']) or begin != end or (
                t['dtype'] in kinds and stop - begin != np.dtype(kinds[t['dtype']]).itemsize * np.prod(t['shape'], dtype=object)):
            raise ValueError(f'{path}: the tensors do not tile the data ({t})')
        end = stop
    if 8 + n + end != len(data):
        raise ValueError(f'{path}: {len(data) - 8 - n - end} bytes after the last tensor')
    if name is None:
        if len(header) != 1:
            raise ValueError(f'{path} holds {len(header)} tensors: name one as FILE:NAME')
        (name,) = header
    t = header[name]
    raw = np.frombuffer(data, kinds[t['dtype']], offset=8 + n + t['data_offsets'][0],
                        count=int(np.prod(t['shape'], dtype=object)))
    if t['dtype'] == 'BF16':  # the top half of a float32: widened exactly, as strider reads it
        raw = (raw.astype('<u4') << 16).view('<f4')
    elif t['dtype'] in ('F8_E4M3', 'F8_E5M2'):
        raw = widen_f8(raw, t['dtype'] == 'F8_E5M2')
    return raw.reshape(t['shape']).copy()

# two archives, compared member by member as strider lists them (A's order, then those
# only in B): NumPy has no call that pairs two archives' members
differ = []  # the members not equal, or on one side only
x = load_safetensors('testdata/torch/dtypes.safetensors', 'x_f16')
if x.dtype.kind not in 'biufc' or x.dtype.itemsize > (16 if x.dtype.kind == 'c' else 8):
    raise TypeError(f'strider computes on numeric dtypes only, not {x.dtype}')
y = load_safetensors('testdata/torch/dtypes.safetensors', 'x_f16')
if y.dtype.kind not in 'biufc' or y.dtype.itemsize > (16 if y.dtype.kind == 'c' else 8):
    raise TypeError(f'strider computes on numeric dtypes only, not {y.dtype}')
try:
    np.testing.assert_allclose(x, y, rtol=1e-07, atol=0, equal_nan=True)
except AssertionError:
    differ.append('x_f16')
x = load_safetensors('testdata/torch/dtypes.safetensors', 'x_f32')
if x.dtype.kind not in 'biufc' or x.dtype.itemsize > (16 if x.dtype.kind == 'c' else 8):
    raise TypeError(f'strider computes on numeric dtypes only, not {x.dtype}')
y = load_safetensors('testdata/torch/dtypes.safetensors', 'x_f32')
if y.dtype.kind not in 'biufc' or y.dtype.itemsize > (16 if y.dtype.kind == 'c' else 8):
    raise TypeError(f'strider computes on numeric dtypes only, not {y.dtype}')
try:
    np.testing.assert_allclose(x, y, rtol=1e-07, atol=0, equal_nan=True)
except AssertionError:
    differ.append('x_f32')
# an AssertionError exits 1, as strider does when a member differs or is on one side only
assert not differ, f'{len(differ)} of 2 members not equal: {differ}'
