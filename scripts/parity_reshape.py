#!/usr/bin/python3
"""Parity check for `strider reshape` against numpy.reshape.

    go build -o /tmp/strider . && /usr/bin/python3 scripts/parity_reshape.py --strider /tmp/strider
    /usr/bin/python3 scripts/parity_reshape.py --strider ./strider --cases 2000 --seed 1

The interpreter needs numpy (>= 1.24); /usr/bin/python3 has it ($PYTHON in shell scripts).

Cases cycle through every dtype of CLI.md in both byte orders, files in C and Fortran order, and
shapes from 0-d to 4-d with length-1 and empty axes; the new shape is a random factoring of the
size (length-1 axes sprinkled in), often with one extent given as -1 (sometimes -2, which NumPy
also infers), written as 3,4 or (3, 4); the index order is C or F. The reference is
np.save(np.ascontiguousarray(np.reshape(a, shape, order))) (a 0-d result stays 0-d). Every
third passing case also runs the --as-numpy script (every twelfth the --as-torch one), which must
write the same bytes.

Refusals (about one case in eight): a size that does not match, two unknown extents, more than
32 dimensions. NumPy must refuse them too; strider exits 2 with one "strider: reshape: " line and
writes nothing, and the printed script fails.

Output: a FAIL line per failure with the command to reproduce it, then
"reshape: N passed, N failed, N skipped". Exit status 0 when nothing failed, 1 otherwise.
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

SHAPES = [(), (0,), (1,), (6,), (3, 4), (4, 1), (1, 4), (2, 0, 3), (2, 3, 4), (1, 6, 1, 2),
          (3, 1, 2, 2), (5, 7), (4, 3, 2, 2), (0, 5), (24, 30)]


def npy(arr):
    b = io.BytesIO()
    np.save(b, np.ascontiguousarray(arr) if arr.ndim else arr)
    return b.getvalue()


def factoring(rng, n):
    """A random shape of n elements, with length-1 axes sprinkled in."""
    shape = []
    if n == 0:
        shape = [0, rng.randint(1, 3)]
    f = 2
    while n > 1:
        while n % f:
            f += 1
        if shape and rng.random() < 0.5:
            shape[-1] *= f
        else:
            shape.append(f)
        n //= f
    while rng.random() < 0.3:
        shape.insert(rng.randint(0, len(shape)), 1)
    rng.shuffle(shape)
    return shape


def spell(rng, shape):
    """SHAPE as a user writes it: 3,4 or (3, 4) or (3,)."""
    if rng.random() < 0.5 or not shape:
        inner = ", ".join(map(str, shape))
        return f"({inner},)" if len(shape) == 1 else f"({inner})"
    return ",".join(map(str, shape))


def make_case(rng, i, keep):
    token = gt.DTYPE_TOKENS[i % len(gt.DTYPE_TOKENS)]
    shape = SHAPES[(i // len(gt.DTYPE_TOKENS)) % len(SHAPES)]
    dtype = gt.token_dtype(token)
    a = gt.random_values(dtype, shape, np.random.default_rng(rng.randrange(2**32)))
    fortran = (i // 2) % 2 == 1
    if fortran:
        a = np.asfortranarray(a)
    path = os.path.join(keep, f"{token}_{'x'.join(map(str, shape)) or '0d'}_{'f' if fortran else 'c'}_{i}.npy")
    np.save(path, a)
    new = factoring(rng, a.size)
    refuse = rng.random() < 0.125
    if refuse:
        kind = rng.randrange(3)
        if kind == 0:
            new = new + [rng.choice([2, 3, 5])] if a.size else [rng.randint(1, 4)]
        elif kind == 1:
            new = [-1, -1] + new
        else:
            new = [1] * 33
    elif new and rng.random() < 0.5:
        new[rng.randrange(len(new))] = -2 if rng.random() < 0.1 else -1
    order = "F" if i % 2 else "C"
    return path, new, spell(rng, new), order, refuse


def run_case(strider, case, tmp_root):
    path, new, spelled, order, refuse = case
    a = np.load(path)
    try:
        want = npy(np.reshape(a, tuple(new), order=order))
        numpy_error = None
    except ValueError as e:
        want, numpy_error = None, e
    with tempfile.TemporaryDirectory(dir=tmp_root) as tmp:
        out = os.path.join(tmp, "out.npy")
        args = ["reshape", path, spelled, "-o", out] + (["--order", "F"] if order == "F" else [])
        argv = [strider] + args
        p = subprocess.run(argv, capture_output=True, timeout=60)
        if numpy_error is not None or refuse:
            if numpy_error is None:
                return argv, "the case was meant as a refusal, but NumPy reshaped it"
            return argv, plugin.refusal(strider, args, p, "strider: reshape: ", [out], numpy_error)
        if p.returncode != 0:
            return argv, f"exit {p.returncode}: {p.stderr.decode(errors='replace').strip()}"
        got = Path(out).read_bytes()
        if got != want:
            return argv, f"output differs from np.save(np.reshape(a, {tuple(new)}, order={order!r}))"
        why = selfcheck.check(strider, args, None, out, False, got)
        if why is None:  # "skip": a dtype torch 1.13 lacks (uint16/32/64)
            why = selfcheck.check(strider, args, None, out, False, got, lib="torch")
            if why == "skip":
                why = None
        return argv, why


def run(strider, cases=300, seed=0, verbose=False, workers=3):
    """Runs `cases` reshapes; returns dict(passed, failed, skipped)."""
    return plugin.run_cases("reshape", strider, cases, seed, make_case, run_case, workers)


if __name__ == "__main__":
    sys.exit(plugin.main("reshape", __doc__, run, 300))
