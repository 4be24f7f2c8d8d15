#!/usr/bin/python3
"""Parity check for `strider unique-consecutive` against torch.unique_consecutive.

    go build -o /tmp/strider . && /usr/bin/python3 scripts/parity_unique_consecutive.py --strider /tmp/strider
    /usr/bin/python3 scripts/parity_unique_consecutive.py --strider ./strider --cases 1000 --seed 1

The interpreter needs numpy (>= 1.24) and torch (1.13); /usr/bin/python3 has both.

Cases cycle through every dtype of CLI.md in both byte orders, files in C and Fortran order, and
shapes from 0-d to 4-d with length-1 and empty axes, filled from a few values so that runs are
common (floats: NaN, -0.0 and 0.0 among them); no axis (torch flattens) or a random axis, often
negative. Each case writes the values (-o), --inverse and --counts. The reference is
torch.unique_consecutive(t, return_inverse=True, return_counts=True, dim=axis) where torch 1.13
has the dtype, and the same definition in NumPy (a run starts where a row differs from the one
before by !=) for all; where both exist they must agree with each other as well as with strider.
Every third passing case also runs the --as-numpy script (and one in four of those the
--as-torch one, where torch has the dtype), which must write the same three files. Refusals (an empty axis other than the one compared, an
axis out of range): strider exits 2 with one "strider: unique-consecutive: " line, torch or NumPy
refuses too, and the printed script fails.

Output: a FAIL line per failure with the command to reproduce it, then
"unique-consecutive: N passed, N failed, N skipped". Exit status 0 when nothing failed.
"""

import io
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
import gen_testdata as gt  # noqa: E402 - sibling module
import plugin  # noqa: E402 - sibling module
import selfcheck  # noqa: E402 - sibling module

SHAPES = [(), (0,), (1,), (9,), (3, 4), (4, 1), (1, 4), (2, 0, 3), (2, 3, 4), (0, 3), (3, 0),
          (1, 6, 1, 2), (5, 2), (4, 3, 2, 2), (40,), (30, 3)]
TORCH_KINDS = {"b1", "i1", "u1", "i2", "i4", "i8", "f4", "f8"}


def npy(arr):
    b = io.BytesIO()
    np.save(b, np.ascontiguousarray(arr) if arr.ndim else arr)
    return b.getvalue()


def runs_values(dtype, shape, rng):
    """Values from a small pool, neighbours often repeated."""
    pool = gt.random_values(dtype, (6,), np.random.default_rng(rng.randrange(2**32)))
    if dtype.kind in "fc":
        pool[:4] = [np.nan, -0.0, 0.0, 1.0]
    n = int(np.prod(shape))
    picks = []
    for _ in range(n):
        picks.append(picks[-1] if picks and rng.random() < 0.5 else rng.randrange(len(pool)))
    return pool[np.array(picks, dtype=np.intp)].reshape(shape)


def numpy_unique(a, axis):
    """The NumPy definition (as the --as-numpy script computes it), or a ValueError."""
    if axis is None:
        rows = a.reshape(-1, 1)
    else:
        axis = range(a.ndim)[axis]  # IndexError for an axis out of range
        if 0 in a.shape[:axis] + a.shape[axis + 1:]:
            raise ValueError("an empty axis other than the one compared")
        rows = np.moveaxis(a, axis, 0).reshape(a.shape[axis], -1) if a.shape[axis] else np.zeros((0, 1), a.dtype)
    new = np.concatenate(([True], np.any(rows[1:] != rows[:-1], axis=1))) if len(rows) else np.zeros(0, bool)
    starts = np.nonzero(new)[0]
    r = a.reshape(-1)[starts] if axis is None else np.take(a, starts, axis=axis)
    inv = (np.cumsum(new) - 1).astype(np.int64)
    inv = inv.reshape(a.shape) if axis is None else inv
    cnt = np.diff(np.append(starts, len(rows))).astype(np.int64)
    return r, inv, cnt


def torch_unique(a, axis):
    t = torch.from_numpy(a.astype(a.dtype.newbyteorder("=")))
    u, inv, cnt = torch.unique_consecutive(t, return_inverse=True, return_counts=True, dim=axis)
    return u.numpy().astype(a.dtype), inv.numpy(), cnt.numpy()


def make_case(rng, i, keep):
    token = gt.DTYPE_TOKENS[i % len(gt.DTYPE_TOKENS)]
    shape = SHAPES[(i // len(gt.DTYPE_TOKENS)) % len(SHAPES)]
    dtype = gt.token_dtype(token)
    a = runs_values(dtype, shape, rng)
    fortran = (i // 2) % 2 == 1
    if fortran:
        a = np.asfortranarray(a)
    path = os.path.join(keep, f"{token}_{'x'.join(map(str, shape)) or '0d'}_{'f' if fortran else 'c'}_{i}.npy")
    np.save(path, a)
    axis = None
    if rng.random() < 0.6 and (shape or rng.random() < 0.2):
        nd = max(1, len(shape))
        axis = rng.randrange(-nd, nd) if rng.random() < 0.95 else nd
    return path, token[:2] if token[0] in "bf" else token.rstrip("lbe"), axis


def run_case(strider, case, tmp_root):
    path, kind, axis = case
    a = np.load(path)
    try:
        want = numpy_unique(a, axis)
    except (ValueError, IndexError) as e:
        want, refused = None, e
    with tempfile.TemporaryDirectory(dir=tmp_root) as tmp:
        outs = [os.path.join(tmp, f) for f in ("v.npy", "i.npy", "c.npy")]
        args = ["unique-consecutive", path, "-o", outs[0], "--inverse", outs[1], "--counts", outs[2]]
        if axis is not None:
            args += ["--axis" if axis % 2 else "--dim", str(axis)]
        argv = [strider] + args
        p = subprocess.run(argv, capture_output=True, timeout=60)
        if want is None:
            return argv, plugin.refusal(strider, args, p, "strider: unique-consecutive: ", outs, refused)
        if p.returncode != 0:
            return argv, f"exit {p.returncode}: {p.stderr.decode(errors='replace').strip()}"
        got = [Path(o).read_bytes() for o in outs]
        if kind in TORCH_KINDS:
            ref = torch_unique(a, axis)
            if [npy(x) for x in ref] != [npy(x) for x in want]:
                return argv, "torch and the NumPy definition disagree (harness)"
        if got != [npy(x) for x in want]:
            which = [n for n, g, w in zip(("values", "inverse", "counts"), got, want) if g != npy(w)]
            return argv, f"{', '.join(which)} differ from torch.unique_consecutive / the NumPy definition"
        extra = [(outs[1], got[1]), (outs[2], got[2])]
        why = selfcheck.check(strider, args, None, outs[0], False, got[0], extra_outputs=extra)
        if why is None and kind in TORCH_KINDS:
            why = selfcheck.check(strider, args, None, outs[0], False, got[0], lib="torch", extra_outputs=extra)
            why = None if why == "skip" else why
        return argv, why


def run(strider, cases=300, seed=0, verbose=False, workers=3):
    """Runs `cases` cases; returns dict(passed, failed, skipped)."""
    return plugin.run_cases("unique-consecutive", strider, cases, seed, make_case, run_case, workers)


if __name__ == "__main__":
    sys.exit(plugin.main("unique-consecutive", __doc__, run, 300))
