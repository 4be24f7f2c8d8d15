#!/usr/bin/python3
"""Parity of `strider convert IN OUT [--member GLOB]` against NumPy's and PyTorch's own loads.

    go build -o /tmp/strider . && /usr/bin/python3 scripts/parity_convert.py --strider /tmp/strider
    /usr/bin/python3 scripts/parity.py --ops convert --plugin-cases 60

Needs numpy (>= 1.24) and torch (>= 1.13): /usr/bin/python3 has both; the safetensors package is
not needed (its layout is checked here from its rules, and byte for byte in cmd/convert_test.go
against the files the library's own tests assert).

Each case writes IN from a random pool of tensors (bool, integers, float16/32/64, complex64,
both byte orders where the format keeps them, bfloat16 in the torch.save and .safetensors
inputs, 0-d and empty shapes, dotted and non-ASCII names): an .npz by np.savez, a .safetensors file
by gen_torch_testdata's writer (with __metadata__), a torch.save file, a folder of .npy files, or
a sharded checkpoint (.safetensors or torch.save shards and an index as transformers writes it).
strider converts it to .npz, .safetensors or a folder, sometimes with --member, and the case
passes when

- np.load reads back every selected tensor (and only those) bit for bit, in C order: the value
  the pool held (torch's own .float() for bfloat16, widened exactly), its dtype and byte order
  (made little-endian in .safetensors), in IN's order in an .npz;
- a .safetensors OUT follows save_file's rules, checked from the text: an 8-byte length, the
  header compact JSON padded with spaces to a multiple of 8, __metadata__ first and kept from a
  .safetensors IN (or from shards that all hold the same), the tensors by the crate's Dtype
  order descending then by name, their data tiling the rest; bfloat16 bits as torch stores them;
- stderr names the widened tensors in one line exactly when bfloat16 went into .npz or .npy;
- the --as-numpy script, run by /usr/bin/python3, writes the same bytes (every file of a folder).

Output: FAIL lines, then "convert: N passed, N failed, N skipped".
"""

import fnmatch
import json
import os
import shlex
import subprocess
import sys
from collections import OrderedDict
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
import gen_torch_testdata as gtt  # noqa: E402 - sibling module
import plugin  # noqa: E402 - sibling module

ORDER = ['BOOL', 'F4', 'F6_E2M3', 'F6_E3M2', 'U8', 'I8', 'F8_E5M2', 'F8_E4M3', 'F8_E8M0',
         'F8_E4M3FNUZ', 'F8_E5M2FNUZ', 'I16', 'U16', 'F16', 'BF16', 'I32', 'U32', 'F32', 'C64',
         'F64', 'I64', 'U64']  # safetensors/src/tensor.rs: enum Dtype, in declaration order
CODES = {'b1': 'BOOL', 'u1': 'U8', 'i1': 'I8', 'i2': 'I16', 'u2': 'U16', 'i4': 'I32', 'u4': 'U32',
         'i8': 'I64', 'u8': 'U64', 'f2': 'F16', 'f4': 'F32', 'f8': 'F64', 'c8': 'C64'}
DTYPES = ['|b1', '|u1', '|i1', '<i2', '>i2', '<u2', '<i4', '>i4', '<u4', '<i8', '<u8', '<f2', '<f4', '>f4',
          '<f8', '>f8', '<c8', 'bf16']
NAMES = ['w', 'layer.0.weight', 'layer.0.bias', 'layer.10.weight', 'émbed', 'a b', 'q"uote', 'x', 'Z', '_t']
INS = ['npz', 'safetensors', 'pt', 'folder', 'sharded-st', 'sharded-pt']
OUTS = ['npz', 'safetensors', 'folder']


def rand_tensor(rng, dt, shape):
    """(NumPy array, or a torch bfloat16 tensor) of dtype dt and shape, specials included."""
    n = int(np.prod(shape)) if shape else 1
    if dt == 'bf16':
        vals = [rng.choice([float('nan'), float('inf'), -0.0, 1e-40, rng.uniform(-1e3, 1e3)]) for _ in range(n)]
        return torch.tensor(vals, dtype=torch.float32).to(torch.bfloat16).reshape(shape)
    d = np.dtype(dt)
    if d.kind == 'b':
        a = np.array([rng.random() < 0.5 for _ in range(n)])
    elif d.kind in 'iu':
        info = np.iinfo(d)
        a = np.array([rng.choice([info.min, info.max, rng.randint(max(info.min, -100), 100)]) for _ in range(n)], dtype=d)
    elif d.kind == 'c':
        a = np.array([complex(rng.uniform(-9, 9), rng.choice([0.0, -0.0, float('nan')])) for _ in range(n)], dtype=d)
    else:
        a = np.array([rng.choice([float('nan'), -0.0, float('inf'), rng.uniform(-1e4, 1e4)]) for _ in range(n)], dtype=d)
    return a.reshape(shape)


def as_numpy(v):
    """The array strider reads: bfloat16 widened exactly to float32 by torch itself."""
    return v.float().numpy() if isinstance(v, torch.Tensor) else v


def stored(v):
    """(dtype code, little-endian bytes) of a tensor as a .safetensors file stores it."""
    if isinstance(v, torch.Tensor):
        return 'BF16', v.contiguous().view(torch.int16).numpy().astype('<i2').tobytes()
    return CODES[v.dtype.kind + str(v.dtype.itemsize)], np.ascontiguousarray(v).astype(v.dtype.newbyteorder('<')).tobytes()


def write_st(path, pool, metadata):
    items = []
    for k, v in pool.items():
        code, raw = stored(v)
        items.append((k, code, tuple(v.shape), raw))
    Path(path).write_bytes(gtt.write_safetensors(items, metadata))


def write_pt(path, pool):
    torch.save(OrderedDict((k, v if isinstance(v, torch.Tensor) else torch.from_numpy(v.astype(v.dtype.newbyteorder('=')))) for k, v in pool.items()), path)


def write_in(kind, path, pool, rng):
    """Writes IN; returns its path, the pool as strider reads it (values; order), and the
    metadata a .safetensors OUT keeps."""
    if kind == 'npz':
        np.savez(path + '.npz', **pool)
        return path + '.npz', pool, None
    if kind == 'folder':
        os.makedirs(path)
        for k, v in pool.items():
            np.save(os.path.join(path, k + '.npy'), v)
        return path, OrderedDict((k, pool[k]) for k in sorted(pool)), None
    if kind == 'safetensors':
        meta = rng.choice([None, {'format': 'pt'}, {'z': 'ünï', 'a': 'tab\t'}])
        write_st(path + '.safetensors', pool, meta)
        little = OrderedDict((k, v if isinstance(v, torch.Tensor) else v.astype(v.dtype.newbyteorder('<'))) for k, v in pool.items())
        return path + '.safetensors', little, meta
    if kind == 'pt':
        write_pt(path + '.pt', pool)
        native = OrderedDict((k, v if isinstance(v, torch.Tensor) else v.astype(v.dtype.newbyteorder('='))) for k, v in pool.items())
        return path + '.pt', native, None
    # A sharded checkpoint: shards of a few tensors each, the index as save_pretrained writes it.
    os.makedirs(path)
    names = list(pool)
    shards, k = [], 0
    while k < len(names):
        m = rng.randint(1, 3)
        shards.append(names[k:k + m])
        k += m
    st = kind == 'sharded-st'
    weight_map = {}
    for i, group in enumerate(shards):
        shard = ('model-%05d-of-%05d.safetensors' if st else 'pytorch_model-%05d-of-%05d.bin') % (i + 1, len(shards))
        sub = OrderedDict((n, pool[n]) for n in group)
        if st:
            write_st(os.path.join(path, shard), sub, {'format': 'pt'})
        else:
            write_pt(os.path.join(path, shard), sub)
        weight_map.update({n: shard for n in group})
    index = os.path.join(path, 'model.safetensors.index.json' if st else 'pytorch_model.bin.index.json')
    Path(index).write_text(json.dumps({'metadata': {'total_size': 0}, 'weight_map': weight_map}, indent=2, sort_keys=True) + '\n')
    order = sorted(pool)
    conv = (lambda v: v if isinstance(v, torch.Tensor) else v.astype(v.dtype.newbyteorder('<' if st else '=')))
    return index, OrderedDict((n, conv(pool[n])) for n in order), ({'format': 'pt'} if st and pool else None)


def make_case(rng, i, keep):
    pool = OrderedDict()
    kin = rng.choice(INS)
    for name in rng.sample(NAMES, rng.randint(0, 6)):
        choices = DTYPES if kin in ('pt', 'safetensors', 'sharded-st', 'sharded-pt') else DTYPES[:-1]
        if kin in ('pt', 'sharded-pt'):  # torch 1.13 has no uint16, uint32, uint64
            choices = [d for d in choices if d[1:] not in ('u2', 'u4', 'u8')]
        dt = rng.choice(choices)
        if kin in ('safetensors', 'sharded-st', 'pt', 'sharded-pt') and dt.startswith('>'):
            dt = '<' + dt[1:]  # written little-endian (safetensors) or native (torch) anyway
        pool[name] = rand_tensor(rng, dt, tuple(rng.randint(0, 3) for _ in range(rng.randint(0, 3))))
    src, read, meta = write_in(kin, os.path.join(keep, 'in%d' % i), pool, rng)
    out = os.path.join(keep, 'out%d' % i) + {'npz': '.npz', 'safetensors': '.safetensors', 'folder': ''}[rng.choice(OUTS)]
    glob = rng.choice([None, None, 'layer.*', '?', '*a*']) if read else None
    return dict(src=src, read=read, meta=meta, out=out, glob=glob)


def check_safetensors(path, want, meta):
    """None when the file at path is save_file's layout of want (with meta), else why not."""
    b = Path(path).read_bytes()
    n = int.from_bytes(b[:8], 'little')
    text = b[8:8 + n]
    if n % 8 or text != text.rstrip(b' ') + b' ' * (n - len(text.rstrip(b' '))):
        return 'header length %d not a multiple of 8, or not padded with spaces' % n
    header = json.loads(text, object_pairs_hook=OrderedDict)
    compact = json.dumps(header, separators=(',', ':'), ensure_ascii=False).encode()
    if compact != text.rstrip(b' '):
        return 'header is not compact JSON: %r' % text[:200]
    keys = list(header)
    if (meta is None) != ('__metadata__' not in header) or meta is not None and (keys[0] != '__metadata__' or list(header['__metadata__'].items()) != list(meta.items())):
        return 'metadata %r, want %r first' % (header.get('__metadata__'), meta)
    names = [k for k in keys if k != '__metadata__']
    expect = sorted(want, key=lambda k: (-ORDER.index(stored(want[k])[0]), k.encode()))
    if names != expect:
        return 'tensors in order %r, want %r' % (names, expect)
    at = 0
    for k in names:
        t = header[k]
        code, raw = stored(want[k])
        if t['data_offsets'] != [at, at + len(raw)] or t['dtype'] != code or t['shape'] != list(want[k].shape):
            return '%s: %r, want %s %s at %d' % (k, t, code, list(want[k].shape), at)
        if b[8 + n + at:8 + n + at + len(raw)] != raw:
            return '%s: other bytes' % k
        at += len(raw)
    return None if 8 + n + at == len(b) else 'bytes after the last tensor'


def check_arrays(out, want):
    """None when OUT (.npz or folder) holds exactly want, bit for bit, else why not."""
    if out.endswith('.npz'):
        with np.load(out) as z:
            got = OrderedDict((k, z[k]) for k in z.files)
        if list(got) != list(want):
            return 'members %r, want %r' % (list(got), list(want))
    else:
        files = sorted(f for f in os.listdir(out))
        if files != sorted(k + '.npy' for k in want):
            return 'files %r, want %r' % (files, sorted(want))
        got = {k: np.load(os.path.join(out, k + '.npy')) for k in want}
    for k, v in want.items():
        a, w = got[k], as_numpy(v)
        if a.dtype.str != w.dtype.str or a.shape != w.shape or a.tobytes() != np.ascontiguousarray(w).tobytes():
            return '%s: %s %s, want %s %s (or other bytes)' % (k, a.dtype.str, a.shape, w.dtype.str, w.shape)
    return None


def same_output(a, b):
    if os.path.isdir(a):
        if sorted(os.listdir(a)) != sorted(os.listdir(b)):
            return False
        return all(Path(a, f).read_bytes() == Path(b, f).read_bytes() for f in os.listdir(a))
    return Path(a).read_bytes() == Path(b).read_bytes()


def run_case(strider, c, keep):
    argv = [strider, 'convert', c['src'], c['out']] + (['--member', c['glob']] if c['glob'] else [])
    want = OrderedDict((k, v) for k, v in c['read'].items() if c['glob'] is None or fnmatch.fnmatchcase(k, c['glob']))
    p = subprocess.run(argv, capture_output=True)
    if c['glob'] and not want:
        return argv, None if p.returncode == 2 and len(p.stderr.splitlines()) == 1 else 'exit %d %r, want one refusal' % (p.returncode, p.stderr)
    if p.returncode != 0:
        return argv, 'exit %d: %s' % (p.returncode, p.stderr.decode(errors='replace'))
    to_st = c['out'].endswith('.safetensors')
    widened = [k for k, v in want.items() if isinstance(v, torch.Tensor)] if not to_st else []
    lines = p.stderr.decode().splitlines()
    if bool(widened) != bool(lines) or widened and (len(lines) != 1 or 'widened exactly to float32' not in lines[0]):
        return argv, 'stderr %r, widened %r' % (lines, widened)
    meta = c['meta'] if to_st else None
    why = check_safetensors(c['out'], want, meta) if to_st else check_arrays(c['out'], want)
    if why:
        return argv, why
    root, ext = os.path.splitext(c['out']) if not os.path.isdir(c['out']) else (c['out'], '')
    ref = root + '_py' + ext
    script = subprocess.run(argv[:3] + [ref] + argv[4:] + ['--as-numpy'], capture_output=True)
    if script.returncode != 0:
        return argv, 'no script: %r' % script.stderr
    s = subprocess.run(['/usr/bin/python3', '-c', script.stdout.decode()], capture_output=True, cwd=keep)
    if s.returncode != 0:
        return argv, 'the printed script failed: %s' % s.stderr.decode()[-500:]
    if not same_output(c['out'], ref):
        return argv, 'the printed script wrote other bytes (%s)' % ref
    return argv, None


def run(strider, cases=40, seed=0, verbose=False):
    return plugin.run_cases('convert', strider, cases, seed, make_case, run_case, workers=2)


if __name__ == '__main__':
    sys.exit(plugin.main('convert', __doc__, run, 40))
