#!/usr/bin/python3
"""Parity check for `strider cast` against ndarray.astype.

    go build -o /tmp/strider . && /usr/bin/python3 scripts/parity_cast.py --strider /tmp/strider
    /usr/bin/python3 scripts/parity_cast.py --strider ./strider --cases 3000 --seed 1

The interpreter needs numpy (>= 1.24); /usr/bin/python3 has it ($PYTHON in shell scripts).

Cases walk every (source, destination) pair of the dtypes of CLI.md in both byte orders, with
every casting rule in turn, on files in C and Fortran order and shapes from 0-d to 3-d with empty
axes. The values include the awkward corners: NaN (with payloads), ±inf, -0.0, halves of
integers, float values past every integer range, the extremes of every integer type, float16
subnormals and the float16 rounding boundary, complex numbers with NaN parts. Past the first
625 cases three in five are 0-d arrays (one in four of those shape (1,) instead) holding a value
at the edges of NumPy 1.24's value-based casting, cast to a dtype that the dtypes alone refuse
under a rule that looks at the value (every one but unsafe): a 0-d int64 holding 5 casts to
int16 under safe, the same value at shape (1,) does not. Half of the 0-d cases before them hold
such a value too. The reference is
np.save(np.ascontiguousarray(a.astype(D, casting=RULE))) computed on a strided source, which runs
NumPy's element-by-element loop (its contiguous float-to-uint32 loop gives other values out of
range; NumPy calls the result undefined). A rule NumPy refuses (TypeError) must be refused by
strider: exit 2, one "strider: cast: " line, no output, and the --as-numpy script fails too.
Every third passing case also runs the --as-numpy script, which must write the same bytes.

Output: a FAIL line per failure with the command to reproduce it, then
"cast: N passed, N failed, N skipped". Exit status 0 when nothing failed, 1 otherwise.
"""

import io
import os
import random
import subprocess
import sys
import tempfile
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import gen_testdata as gt  # noqa: E402 - sibling module
import plugin  # noqa: E402 - sibling module
import selfcheck  # noqa: E402 - sibling module

SHAPES = [(), (0,), (7,), (3, 4), (4, 1), (2, 0, 3), (2, 3, 4), (40,), (5, 9)]
RULES = ["unsafe", "same_kind", "safe", "equiv", "no"]

FLOATS = [np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0, 0.5, -0.5, 1.5, 2.5, -1.0, -1.5, 127.5, 128.0,
          255.0, 256.0, 300.7, -129.0, 32767.5, 32768.0, 65504.0, 65519.99, 65520.0, 65535.0, 65536.0,
          70000.5, 2.0**24 + 1, 2.0**31, -2.0**31, -2.0**31 - 1, 2.0**32, 2.0**32 + 5, 5e9, -5e9, 2.0**53 + 1,
          2.0**63, -2.0**63, 2.0**63 + 2**11, 2.0**64, 1e20, -1e20, 1e300, 5.96e-8, 2.98e-8, 6.1e-5,
          1e-310, 0.1, 1 / 3]


#: Signaling float32 NaNs, and a 1.0 to pair them in complex64: NumPy moves float32 parts
#: between float32, complex64 and either byte order bit for bit.
SNAN32 = np.array([0x7f800001, 0xff800123, 0x3f800000, 0x7fa00042], dtype=np.uint32).view(np.float32)


#: Values at the edges of min_scalar_type's steps, for 0-d arrays: NumPy 1.24 casts a 0-d array
#: by its value under every rule but unsafe.
VALUES_0D = {
    "iu": [0, 1, 5, 100, 127, 128, 200, 255, 256, 32767, 32768, 65535, 65536, 2**31 - 1, 2**31,
           2**32, 2**63 - 1, 2**64 - 1, -1, -5, -128, -129, -32768, -32769, -2**31 - 1, -2**63],
    "f": [0.0, -0.0, 1.0, 1.5, -2.0, 65000.0, 65504.0, 70000.0, -70000.0, 3.4e38, 3.5e38, 1e300,
          np.nan, np.inf, -np.inf],
    "c": [1 + 1j, 0j, -2.5 + 0j, 3.3e38 + 0j, 3.5e38 + 0j, 1j * 3.5e38, 1e300 + 1e300j,
          complex("nan+1j"), complex(0, float("inf"))],
    "b": [False, True],
}


def value_0d(dtype, rng):
    """One of VALUES_0D that dtype holds (a float beyond float32 becomes inf there)."""
    pool = VALUES_0D["iu" if dtype.kind in "iu" else dtype.kind]
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        pool = [v for v in pool if info.min <= v <= info.max]
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return np.array(rng.choice(pool), dtype=dtype)


def corner_values(dtype, n, rng):
    """n values of dtype mixing the corners above with random ones."""
    base = gt.random_values(dtype, (n,), np.random.default_rng(rng.randrange(2**32)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if dtype.kind in "iu":
            info = np.iinfo(dtype)
            pool = np.array([info.min, info.max, 0, 1, info.max // 2 + 1, info.min + 1] +
                            ([2**53 + 1, 2**63 - 1, -2**63 + 1, 2**24 + 1, 65520, 2049] if dtype.itemsize == 8 else []),
                            dtype=object)
            pool = np.array([int(x) for x in pool if info.min <= int(x) <= info.max], dtype=dtype)
        elif dtype.kind == "f":
            pool = np.array(FLOATS, dtype=np.float64).astype(dtype)
            payload = np.array([0x7ff4000000000001, 0xfff8000000012345], dtype=np.uint64).view(np.float64).astype(dtype)
            pool = np.concatenate([pool, payload])
            if dtype.itemsize == 4:  # signaling float32 NaNs (astype from float64 would quiet them)
                pool = np.concatenate([pool, SNAN32.astype(dtype)])
        elif dtype.kind == "c":
            f = np.array(FLOATS, dtype=np.float64)
            pool = (f + 1j * np.roll(f, 3)).astype(dtype)
            if dtype.itemsize == 8:
                pool = np.concatenate([pool, SNAN32.view(np.complex64).astype(dtype)])
        else:
            pool = base
    for k in range(n):
        if rng.random() < 0.7:
            base[k] = pool[rng.randrange(len(pool))]
    return base


def npy(arr):
    b = io.BytesIO()
    np.save(b, np.ascontiguousarray(arr) if arr.ndim else arr)
    return b.getvalue()


def make_case(rng, i, keep):
    tokens = gt.DTYPE_TOKENS
    src = tokens[i % len(tokens)]
    dst = tokens[(i // len(tokens)) % len(tokens)]
    rule = RULES[(i // len(tokens) ** 2) % len(RULES)] if i >= len(tokens) ** 2 else "unsafe"
    if rng.random() < 0.15:
        rule = rng.choice(RULES)
    shape = SHAPES[i % len(SHAPES)]
    sdt = gt.token_dtype(src)
    a = corner_values(sdt, int(np.prod(shape)), rng).reshape(shape)
    # The 0-d value cases draw from their own generator, so every other case stays as it was.
    vr = random.Random(sum(rng.getstate()[1]) + i)
    value_case = i >= len(tokens) ** 2 and vr.random() < 0.6
    if value_case:
        # A destination the dtypes alone refuse under the rule, where the value decides.
        shape, rule = ((1,) if vr.random() < 0.25 else ()), vr.choice(RULES[1:])
        dst = vr.choice([t for t in tokens if not np.can_cast(sdt, gt.token_dtype(t), rule)] or tokens)
    if value_case or shape == () and vr.random() < 0.5:
        a = value_0d(sdt, vr).reshape(shape)
    fortran = (i // 3) % 2 == 1
    if fortran:
        a = np.asfortranarray(a)
    path = os.path.join(keep, f"{src}_{'x'.join(map(str, shape)) or '0d'}_{'f' if fortran else 'c'}_{i}.npy")
    np.save(path, a)
    spelled = gt.token_dtype(dst).str if rng.random() < 0.5 else gt.token_dtype(dst).newbyteorder("=").name
    if gt.token_dtype(dst).byteorder == ">":
        spelled = gt.token_dtype(dst).str
    return path, spelled, rule


def reference(a, dst, rule):
    """The element loop's astype, or None when the rule refuses it (a 0-d array by its value)."""
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            a.astype(dst, casting=rule)
    except TypeError:
        return None
    # A native, strided source: NumPy then runs its element loop whatever the byte orders (a
    # non-native source is swapped into a buffer and cast by the contiguous loop).
    native = a.astype(a.dtype.newbyteorder("="))
    strided = np.repeat(native.reshape(-1), 2)[::2].reshape(a.shape) if a.ndim else native
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return npy(strided.astype(np.dtype(dst).newbyteorder("=")).astype(dst))


def run_case(strider, case, tmp_root):
    path, dst, rule = case
    want = reference(np.load(path), dst, rule)
    with tempfile.TemporaryDirectory(dir=tmp_root) as tmp:
        out = os.path.join(tmp, "out.npy")
        args = ["cast", path, "--dtype", dst, "-o", out] + (["--casting", rule] if rule != "unsafe" or len(dst) % 2 else [])
        argv = [strider] + args
        p = subprocess.run(argv, capture_output=True, timeout=60)
        if want is None:
            return argv, plugin.refusal(strider, args, p, "strider: cast: cannot cast", [out], f"casting={rule!r}")
        if p.returncode != 0:
            return argv, f"exit {p.returncode}: {p.stderr.decode(errors='replace').strip()}"
        got = Path(out).read_bytes()
        if got != want:
            a = np.load(path).reshape(-1)
            g = np.load(out).reshape(-1)
            w = np.load(io.BytesIO(want)).reshape(-1)
            bad = [k for k in range(len(a)) if g[k:k + 1].tobytes() != w[k:k + 1].tobytes()][:3]
            detail = "; ".join(f"{a[k]!r} -> {g[k]!r}, NumPy {w[k]!r}" for k in bad)
            return argv, f"output differs from a.astype({dst!r}, casting={rule!r}): {detail}"
        return argv, selfcheck.check(strider, args, None, out, False, got)


def run(strider, cases=700, seed=0, verbose=False, workers=3):
    """Runs `cases` casts (625 cover every pair once, unsafe); returns dict(passed, failed, skipped)."""
    return plugin.run_cases("cast", strider, cases, seed, make_case, run_case, workers)


if __name__ == "__main__":
    sys.exit(plugin.main("cast", __doc__, run, 700))
