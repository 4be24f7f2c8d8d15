#!/usr/bin/python3
"""Parity check for `strider concat` and `strider stack` against numpy.concatenate and numpy.stack.

    go build -o /tmp/strider . && /usr/bin/python3 scripts/parity_concat.py --strider /tmp/strider
    /usr/bin/python3 scripts/parity_concat.py --strider ./strider --cases 1000 --seed 1

The interpreter needs numpy (>= 1.24); /usr/bin/python3 has it ($PYTHON in shell scripts).

Cases alternate concat and stack over one to four inputs, cycling the first input through every
dtype of CLI.md in both byte orders; the others share its dtype (often), or take another (the
result is numpy.result_type's, native byte order), or its kind in the other byte order. Files are
in C or Fortran order, shapes from 0-d to 3-d with empty axes; concat's inputs differ along the
axis; the axis is random, often negative, and `none` (flatten) for concat. The reference is
np.save(np.ascontiguousarray(np.concatenate(xs, axis))) / np.stack. Refusals (about one case in
ten: shapes that do not match, an axis out of range, 0-d inputs to concat): NumPy refuses too,
strider exits 2 with one line and writes nothing, and the printed script fails. Every passing
case also runs the --as-numpy and --as-torch scripts, which must write the same bytes.

One case in eight is concat --axis none of n-d arrays and 0-d arrays holding boundary values
(127, 128, 255, -129, 2**63, 64999.9, 65000, 3.4e38, NaN, ±inf, complex ones): NumPy 1.24 types
a 0-d input by its value there (numpy.min_scalar_type) when its kind is not above the arrays'.

Output: a FAIL line per failure with the command to reproduce it, then
"concat: N passed, N failed, N skipped". Exit status 0 when nothing failed, 1 otherwise.
"""

import io
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import gen_testdata as gt  # noqa: E402 - sibling module
import plugin  # noqa: E402 - sibling module
import selfcheck  # noqa: E402 - sibling module

SHAPES = [(), (0,), (5,), (3, 4), (4, 1), (2, 0, 3), (2, 3, 4), (1, 6), (0, 2)]


def npy(arr):
    b = io.BytesIO()
    np.save(b, np.ascontiguousarray(arr) if arr.ndim else arr)
    return b.getvalue()


# 0-d values at the edges of numpy.min_scalar_type's answers.
EDGE_INTS = [0, 1, 100, 127, 128, 200, 255, 256, 32767, 32768, 65535, 65536, 2**31 - 1, 2**31,
             2**32, 2**63 - 1, 2**63, 2**64 - 1, -1, -128, -129, -32768, -32769, -2**31,
             -2**31 - 1, -2**63]
EDGE_FLOATS = [0.5, 64999.9, 65000.0, -65000.0, 1e5, 3e38, 3.4e38, float("nan"), float("inf"),
               -float("inf"), -0.0]
EDGE_COMPLEX = [1 + 1j, complex(float("nan"), 0), 7e4 + 0j, 1 + 1e300j, 3.5e38 + 0j]


def edge_scalar(rng, token):
    """A 0-d array of the token's dtype holding an edge value it can hold."""
    dt = gt.token_dtype(token)
    pool = {"b": [True, False], "u": EDGE_INTS, "i": EDGE_INTS, "f": EDGE_FLOATS, "c": EDGE_COMPLEX}[dt.kind]
    for v in rng.sample(pool, len(pool)):
        with np.errstate(all="ignore"):
            if dt.kind in "ui" and not np.iinfo(dt).min <= v <= np.iinfo(dt).max:
                continue
            return np.array(v, dtype=dt)
    return np.zeros((), dt)


def make_value_case(rng, i, keep):
    """concat --axis none of n-d arrays and 0-d arrays holding edge values."""
    paths, tokens = [], []
    for k in range(rng.randint(2, 4)):
        token = rng.choice(gt.DTYPE_TOKENS)
        if k == 0 or rng.random() < 0.5:
            a = edge_scalar(rng, token)
        else:
            a = gt.random_values(gt.token_dtype(token), (rng.randint(0, 3),), np.random.default_rng(rng.randrange(2**32)))
        path = os.path.join(keep, f"{i}_{k}_{token}.npy")
        np.save(path, a)
        paths.append(path)
        tokens.append(token)
    rng.shuffle(paths)
    return False, paths, None, tokens


def make_case(rng, i, keep):
    if i % 8 == 7:
        return make_value_case(rng, i, keep)
    stack = i % 2 == 1
    first = gt.DTYPE_TOKENS[(i // 2) % len(gt.DTYPE_TOKENS)]
    shape = list(SHAPES[(i // 2) % len(SHAPES)])
    n = rng.choice([1, 2, 2, 3, 4])
    nd = len(shape)
    axis = None
    if stack:
        axis = rng.randint(-(nd + 1), nd)
    elif nd and rng.random() < 0.85:
        axis = rng.randint(-nd, nd - 1)
    refuse = rng.random() < 0.1
    paths, tokens = [], []
    for k in range(n):
        token = first
        r = rng.random()
        if k and r < 0.3:
            token = rng.choice(gt.DTYPE_TOKENS)
        elif k and r < 0.45 and first.endswith(("le", "be")):
            token = first[:-2] + ("be" if first.endswith("le") else "le")
        s = list(shape)
        if not stack and axis is not None and nd:
            s[axis] = rng.randint(0, 3)
        elif axis is None and not stack:
            s = [rng.randint(0, 3) for _ in range(rng.randint(0, 3))]
        if refuse and k == n - 1:
            s = s + [2] if rng.random() < 0.5 or not s else s[:-1] + [s[-1] + 1]
        a = gt.random_values(gt.token_dtype(token), tuple(s), np.random.default_rng(rng.randrange(2**32)))
        if rng.random() < 0.5:
            a = np.asfortranarray(a)
        path = os.path.join(keep, f"{i}_{k}_{token}.npy")
        np.save(path, a)
        paths.append(path)
        tokens.append(token)
    if refuse and rng.random() < 0.3:
        axis = 7 if axis is not None else axis
    return stack, paths, axis, tokens


def run_case(strider, case, tmp_root):
    stack, paths, axis, tokens = case
    xs = [np.load(p) for p in paths]
    try:
        want = npy(np.stack(xs, axis=axis) if stack else np.concatenate(xs, axis=axis))
        refused = None
    except (ValueError, np.AxisError) as e:
        want, refused = None, e
    with tempfile.TemporaryDirectory(dir=tmp_root) as tmp:
        out = os.path.join(tmp, "out.npy")
        op = "stack" if stack else "concat"
        args = [op] + paths + ["-o", out] + ([] if axis == 0 and stack else ["--axis", "none" if axis is None else str(axis)])
        argv = [strider] + args
        p = subprocess.run(argv, capture_output=True, timeout=60)
        if want is None:
            return argv, plugin.refusal(strider, args, p, f"strider: {op}: ", [out], refused)
        if p.returncode != 0:
            return argv, f"exit {p.returncode}: {p.stderr.decode(errors='replace').strip()}"
        got = Path(out).read_bytes()
        if got != want:
            return argv, f"output differs from np.{'stack' if stack else 'concatenate'} ({tokens}, axis {axis})"
        why = selfcheck.check(strider, args, None, out, False, got)
        if why is None:  # "skip": a dtype torch 1.13 lacks (uint16/32/64)
            why = selfcheck.check(strider, args, None, out, False, got, lib="torch")
            why = None if why == "skip" else why
        return argv, why


def run(strider, cases=300, seed=0, verbose=False, workers=3):
    """Runs `cases` joins (half concat, half stack); returns dict(passed, failed, skipped)."""
    return plugin.run_cases("concat", strider, cases, seed, make_case, run_case, workers)


if __name__ == "__main__":
    sys.exit(plugin.main("concat", __doc__, run, 300))
