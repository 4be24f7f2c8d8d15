#!/usr/bin/python3
"""Parity check for `strider reduce OP IN [EXPR] [--axis A[,B...]] [--keepdims] [--dtype D] [--ddof N]`.

Not registered yet: `strider reduce` is written after cmd's restructuring. To register it, rename
this file to scripts/parity_reduce.py (scripts/parity.py runs every parity_<op>.py beside it) and,
since it is among the slower ones, add "reduce" near the front of PLUGIN_COST there.

    go build -o /tmp/strider . && /usr/bin/python3 scripts/reduce_parity_plugin.py --strider /tmp/strider
    /usr/bin/python3 scripts/reduce_parity_plugin.py --strider ./strider --cases 2000 --seed 1

The interpreter needs numpy 1.24; /usr/bin/python3 has it.

Cases cycle through the 22 operations of issue 31 and every dtype of CLI.md in both byte orders,
files in C and Fortran order, shapes from 0-d to 4-d with length-1 and empty axes, lengths around
NumPy's blocks (7, 8, 9, 127, 128, 129, 8193) and values that tell summation orders apart (float
mixed magnitudes, alternating signs, NaN/inf/-0.0 specials, integers that overflow); an EXPR
(basic slicing, reversed and strided) now and then; no --axis (axis=None), one axis or several
(one for argmin and its kin), some negative; --keepdims; --dtype and --ddof where NumPy's
function takes them. The reference is NumPy itself on b = a[EXPR]:

    np.OP(b, axis=..., keepdims=..., dtype=..., ddof=...)     (count-nonzero: np.count_nonzero)

saved with np.save as it is (in Fortran order where NumPy's result is F- but not C-contiguous). strider's file must be byte for byte equal,
except where NaNs of different bits meet in a sum (docs/behaviour.md: the result is a NaN either
way), which is counted as skipped. Each warning NumPy gives must appear on strider's standard
error. Where NumPy refuses (an axis out of range or twice, min of an empty axis, nanargmax of an
all-NaN slice, a dtype or ddof the function lacks), strider exits 2 with one "strider: reduce: "
line and writes nothing, and the printed script fails too. Every third passing case also runs
the --as-numpy script, which must write the same file.

Output: a FAIL line per failure with the command to reproduce it, then
"reduce: N passed, N failed, N skipped". Exit status 0 when nothing failed.
"""

import io
import os
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

OPS = ["sum", "prod", "mean", "std", "var", "min", "max", "ptp", "argmin", "argmax", "any", "all",
       "count-nonzero", "nansum", "nanprod", "nanmean", "nanstd", "nanvar", "nanmin", "nanmax",
       "nanargmin", "nanargmax"]
FUNCS = {op: getattr(np, op.replace("-", "_")) for op in OPS}
TAKES_DTYPE = {"sum", "prod", "mean", "std", "var", "nansum", "nanprod", "nanmean", "nanstd", "nanvar"}
TAKES_DDOF = {"std", "var", "nanstd", "nanvar"}
SINGLE_AXIS = {"argmin", "argmax", "nanargmin", "nanargmax"}
SHAPES = [(), (0,), (1,), (7,), (8,), (9,), (127,), (128,), (129,), (8193,), (3, 4), (4, 1),
          (1, 4), (2, 0, 3), (2, 3, 4), (3, 129), (129, 3), (5, 2, 9), (2, 3, 2, 5), (40, 33),
          (1100, 1025), (130, 8200)]  # the last two: var and std by slabs of rows and of columns (ops/reduce_slabs.go)
EXPRS = ["...", "::-1", "1:, ::2", "::2, None", "..., ::-2"]
DTYPE_ARGS = ["float64", "float32", "float16", "complex128", "int32", "int64", "uint16", "bool"]


def npy(r):
    """What strider writes for NumPy's result r: np.save of it, in its own order."""
    r = np.asarray(r)
    b = io.BytesIO()
    np.save(b, r)
    return b.getvalue()


def values(dtype, shape, rng):
    """Values that tell orders apart: floats of mixed magnitudes or alternating signs, with
    specials; integers over the whole range (sums and products wrap)."""
    nrng = np.random.default_rng(rng.randrange(2**32))
    n = int(np.prod(shape))
    if dtype.kind in "fc":
        flavour = rng.randrange(4)
        if flavour == 0:
            x = 10.0 ** nrng.uniform(-4, 4, n) * nrng.choice([-1, 1], n)
        elif flavour == 1:
            x = (1 + nrng.random(n) * 1e-2) * np.where(np.arange(n) % 2, -1.001, 1)
        else:
            x = nrng.standard_normal(n)
        if flavour == 3 and n:
            idx = nrng.integers(0, n, max(1, n // 10))
            x[idx] = nrng.choice([np.nan, np.inf, -np.inf, -0.0, 0.0], len(idx))
        with np.errstate(all="ignore"):
            if dtype.kind == "c":
                x = x + 1j * x[::-1]
            return x.astype(dtype).reshape(shape)
    return gt.random_values(dtype, shape, nrng)


def make_case(rng, i, keep):
    token = gt.DTYPE_TOKENS[i % len(gt.DTYPE_TOKENS)]
    op = OPS[(i // len(gt.DTYPE_TOKENS)) % len(OPS)]
    shape = SHAPES[rng.randrange(len(SHAPES))]
    dtype = gt.token_dtype(token)
    a = values(dtype, shape, rng)
    fortran = rng.random() < 0.3
    if fortran:
        a = np.asfortranarray(a)
    path = os.path.join(keep, f"{op}_{token}_{'x'.join(map(str, shape)) or '0d'}_{i}.npy")
    np.save(path, a)
    fit = [e for e in EXPRS if e.count(",") + 1 - e.count("...") - e.count("None") <= len(shape)]
    expr = fit[rng.randrange(len(fit))] if shape and rng.random() < 0.25 else None
    nd = len(shape) + (expr or "").count("None")
    axis = None
    if nd and rng.random() < 0.7:
        if op in SINGLE_AXIS or rng.random() < 0.5:
            axis = [rng.randrange(-nd, nd)]
        else:
            axis = sorted(set(rng.randrange(nd) for _ in range(rng.randrange(0, nd + 1))))
        if rng.random() < 0.03:
            axis = [nd] if op in SINGLE_AXIS else axis + [nd]  # out of range: refused (one axis for argmin's kin)
    keepdims = rng.random() < 0.3
    dt = DTYPE_ARGS[rng.randrange(len(DTYPE_ARGS))] if op in TAKES_DTYPE and rng.random() < 0.2 else None
    ddof = rng.choice([1, 2, 5]) if op in TAKES_DDOF and rng.random() < 0.3 else 0
    return dict(path=path, op=op, expr=expr, axis=axis, keepdims=keepdims, dtype=dt, ddof=ddof)


def numpy_answer(case):
    """NumPy's saved bytes and warnings, or its refusal."""
    a = np.load(case["path"])
    b = eval("a[%s]" % case["expr"], {}, {"a": a}) if case["expr"] else a  # noqa: S307 - our own EXPRS
    kw = {}
    if case["axis"] is not None:
        ax = case["axis"]
        kw["axis"] = ax[0] if case["op"] in SINGLE_AXIS else tuple(ax)
    if case["keepdims"]:
        kw["keepdims"] = True
    if case["dtype"]:
        kw["dtype"] = case["dtype"]
    if case["ddof"]:
        kw["ddof"] = case["ddof"]
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter("always")
        try:
            r = FUNCS[case["op"]](b, **kw)
        except (ValueError, TypeError, IndexError, np.AxisError) as e:
            return None, [], e
    return npy(r), sorted({str(w.message) for w in ws}), None


def nan_bits_only(got, want):
    """Whether two .npy files differ only in NaN elements (their sign or payload)."""
    try:
        g, w = np.load(io.BytesIO(got)), np.load(io.BytesIO(want))
    except Exception:  # noqa: BLE001 - not even a file: a plain failure
        return False
    if g.dtype != w.dtype or g.shape != w.shape or g.dtype.kind not in "fc":
        return False
    gv, wv = g.view(g.dtype.newbyteorder("=")).ravel(), w.ravel()
    if g.dtype.kind == "c":
        gv, wv = gv.view(gv.real.dtype), wv.view(wv.real.dtype)
    differ = gv.view(np.uint8).reshape(len(gv), -1) != wv.view(np.uint8).reshape(len(wv), -1)
    rows = differ.any(axis=1)
    return bool(np.all(np.isnan(gv[rows]) & np.isnan(wv[rows])))


def run_case(strider, case, tmp_root):
    want, warned, refused = numpy_answer(case)
    with tempfile.TemporaryDirectory(dir=tmp_root) as tmp:
        out = os.path.join(tmp, "r.npy")
        args = ["reduce", case["op"], case["path"]]
        if case["expr"]:
            args.append(case["expr"])
        if case["axis"] is not None:
            args += ["--axis", ",".join(map(str, case["axis"]))]
        if case["keepdims"]:
            args.append("--keepdims")
        if case["dtype"]:
            args += ["--dtype", case["dtype"]]
        if case["ddof"]:
            args += ["--ddof", str(case["ddof"])]
        args += ["-o", out]
        argv = [strider] + args
        p = subprocess.run(argv, capture_output=True, timeout=120)
        if refused is not None:
            return argv, plugin.refusal(strider, args, p, "strider: reduce: ", [out], refused)
        if p.returncode != 0:
            return argv, f"exit {p.returncode}: {p.stderr.decode(errors='replace').strip()}"
        got = Path(out).read_bytes()
        if got != want:
            if nan_bits_only(got, want):
                return argv, None  # counted as passed: see the docstring and docs/behaviour.md
            return argv, "differs from np.%s" % case["op"].replace("-", "_")
        err = p.stderr.decode(errors="replace")
        missing = [m for m in warned if m not in err]
        if missing:
            return argv, "NumPy warned %r, strider's stderr lacks it" % missing
        if hash(case["path"]) % 3 == 0:
            return argv, selfcheck.check(strider, args, None, out, False, got)
        return argv, None


def run(strider, cases=600, seed=0, verbose=False, workers=3):
    """Runs `cases` cases; returns dict(passed, failed, skipped)."""
    return plugin.run_cases("reduce", strider, cases, seed, make_case, run_case, workers)


if __name__ == "__main__":
    sys.exit(plugin.main("reduce", __doc__, run, 600))
