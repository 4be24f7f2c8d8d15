#!/usr/bin/python3
"""Parity check for `strider stats IN [EXPR]` against NumPy 1.24.

    go build -o /tmp/strider . && /usr/bin/python3 scripts/parity_stats.py --strider /tmp/strider

Arrays: every dtype of CLI.md in both byte orders, C and Fortran order, 0-d, empty and 1- to
3-d shapes, with NaN/inf/-0.0 specials or without, raw bit patterns, all-NaN, and adversarial
floats (1e8 plus tiny noise, 1e15 plus small integers, alternating huge and tiny); some cases
take an EXPR (basic or advanced) evaluated as a[EXPR]. strider runs with --json (and, every
few cases, also without it, checking the human form has the eleven lines).

The reference, on b = a[EXPR] (for complex, its magnitude: see magnitude(); bool counted as
integers):
count b.size; nan/posinf/neginf/zero counts; min/max = np.nanmin/np.nanmax exactly (null when
there is no number, or when the value is infinite: JSON has none); mean/std =
np.nanmean(b, dtype=float64), np.nanstd(b, dtype=float64): null when NaN or infinite, else
within a relative 1e-12, plus an absolute 1e-15 * max|b| for std (NumPy's own pairwise
rounding of a constant array leaves a std of ~1e-17 where the exact answer is 0).
Bad input (a missing file, a bad EXPR, a string dtype): exit 2, one "strider: stats: " line,
nothing on stdout.
"""

import argparse
import concurrent.futures
import json
import os
import random
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import gen_testdata as gt  # noqa: E402 - sibling module
import selfcheck  # noqa: E402 - sibling module

SHAPES = [(), (0,), (1,), (7,), (3, 4), (2, 0, 3), (3, 5, 2), (300, 70)]
EXPRS = ["...", "0", "::-1", "1:, ::2", "[0, -1], ...", "None, ::-1", "[True, False, True], ..."]
RUN_TMP = os.environ.get("PARITY_TMPDIR") or ("/dev/shm" if os.access("/dev/shm", os.W_OK) else None)


def adversarial(rng, n):
    kind = rng.integers(0, 4)
    if kind == 0:
        return 1e8 + rng.standard_normal(n) * 1e-3
    if kind == 1:
        return 1e15 + rng.integers(0, 100, n).astype(np.float64)
    if kind == 2:
        v = rng.standard_normal(n)
        v[::2] *= 1e12
        return v
    return np.full(n, 0.1)


SCALE, LARGE, TINY, EPS = 2.0**-600, 2.0**511, 2.0**-459, 2.0**-54


def _hypot_kernel(ax, ay):
    """glibc's hypot kernel (e_hypot.c without FMA) for ax >= ay >= 0, elementwise."""
    h = np.sqrt(ax * ax + ay * ay)
    near = h <= 2.0 * ay
    d1, d2 = h - ay, h - ax
    t1 = np.where(near, ax * (2.0 * d1 - ax), 2.0 * d2 * (ax - 2.0 * ay))
    t2 = np.where(near, (d1 - 2.0 * (ax - ay)) * d1, (4.0 * d2 - ay) * ay + d2 * d2)
    return h - (t1 + t2) / (2.0 * h)


def magnitude(a):
    """np.abs of a complex array as NumPy computes it through the C library's hypot (glibc 2.35
    and later): the same on every machine, since it is written in NumPy's elementwise +, -, *,
    / and sqrt, which are exact IEEE operations everywhere. NumPy's own np.abs takes an AVX-512F
    loop on machines that have it, which differs in the last place now and then (see
    docs/text.md); strider computes this."""
    with np.errstate(all="ignore"):
        if a.dtype.char == "F":
            re, im = a.real.astype(np.float64), a.imag.astype(np.float64)
            m = np.sqrt(re * re + im * im).astype(np.float32)
        else:
            x, y = np.abs(a.real.astype(np.float64)), np.abs(a.imag.astype(np.float64))
            ax, ay = np.maximum(x, y), np.minimum(x, y)
            m = np.where(ay <= ax * EPS, ax + ay, _hypot_kernel(ax, ay))
            m = np.where(ax > LARGE, np.where(ay <= ax * EPS, ax + ay,
                                              _hypot_kernel(ax * SCALE, ay * SCALE) / SCALE), m)
            m = np.where((ay < TINY) & (ax <= LARGE),
                         np.where(ax >= ay / EPS, ax + ay,
                                  _hypot_kernel(ax / SCALE, ay / SCALE) * SCALE), m)
        m = np.where(np.isnan(a.real) | np.isnan(a.imag), np.nan, m)
        m = np.where(np.isinf(a.real) | np.isinf(a.imag), np.inf, m).astype(m.dtype)
    return m.reshape(a.shape)


# How many units in the last place NumPy's own np.abs of a complex array may differ from the
# C library's hypot on this machine: NumPy 1.24's AVX-512F loop (an Intel Xeon with AVX512_ICL,
# 2026-11-26) differs by up to 2 in about 1 element in 200; machines without AVX-512F by none.
ABS_ULPS = 4


def abs_off(a):
    """How this machine's np.abs(a) relates to magnitude(a): 0 when equal everywhere, the
    largest difference in units in the last place when some element differs by at most
    ABS_ULPS (NumPy's AVX-512F loop), else a message: a transcription that has drifted from what
    NumPy computes."""
    want, got = magnitude(a), np.abs(a)
    same = (want == got) | (np.isnan(want) & np.isnan(got))
    if same.all():
        return 0
    w, g = want[~same].astype(np.float64), got[~same].astype(np.float64)
    ulps = np.abs(w - g) / np.spacing(np.maximum(w, g).astype(got.dtype)).astype(np.float64)
    if np.all(ulps <= ABS_ULPS):
        return int(np.ceil(ulps.max()))
    i = int(np.flatnonzero(~same.ravel())[int(np.argmax(ulps))])
    return (f"np.abs {got.ravel()[i]!r} and the hypot transcription {want.ravel()[i]!r} differ "
            f"by {ulps.max():.1f} units in the last place, more than {ABS_ULPS}")


def reference(a):
    """The --json object strider must print, as Python values (floats compared loosely)."""
    b = magnitude(a) if a.dtype.kind == "c" else a
    num = b.astype(np.float64) if b.dtype.kind != "f" else b
    finite_or_none = lambda x: float(x) if np.isfinite(x) else None  # noqa: E731
    ref = dict(shape=list(a.shape), dtype=a.dtype.name, count=int(a.size),
               nan=int(np.isnan(num).sum()), posinf=int(np.isposinf(num).sum()),
               neginf=int(np.isneginf(num).sum()), zero=int((num == 0).sum()))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if a.size == 0 or ref["nan"] == a.size:
            ref["min"] = ref["max"] = None
        else:
            # np.nanmin is np.fmin.reduce, whose scalar steps are the C library's fminf: a
            # signaling NaN there gives a NaN that the next element replaces, and which
            # steps are scalar depends on the machine (AVX-512 or not). strider ignores
            # every NaN, as nanmin is documented to (docs/behaviour.md): the reference is
            # taken over the values that are not NaN.
            keep = b[~np.isnan(b)] if b.dtype.kind in "fc" else b
            lo, hi = np.nanmin(keep), np.nanmax(keep)
            if b.dtype.kind == "b":
                ref["min"], ref["max"] = bool(lo), bool(hi)
            elif b.dtype.kind in "iu":
                ref["min"], ref["max"] = int(lo), int(hi)
            else:
                ref["min"], ref["max"] = finite_or_none(lo), finite_or_none(hi)
        mean = np.nanmean(b, dtype=np.float64) if a.size else np.nan
        std = np.nanstd(b, dtype=np.float64) if a.size else np.nan
    ref["mean"], ref["std"] = finite_or_none(mean), finite_or_none(std)
    fin = num[np.isfinite(num)]
    scale = float(np.abs(fin).max()) if fin.size else 0.0
    return ref, scale


def check(got, ref, scale):
    """None when got matches ref, else why not."""
    if list(got) != ["shape", "dtype", "count", "nan", "posinf", "neginf", "zero", "min", "max",
                     "mean", "std"]:
        return f"keys {list(got)}"
    for k in ["shape", "dtype", "count", "nan", "posinf", "neginf", "zero", "min", "max"]:
        if got[k] != ref[k] or type(got[k]) is not type(ref[k]):
            return f"{k}: {got[k]!r}, NumPy {ref[k]!r}"
    for k in ["mean", "std"]:
        g, w = got[k], ref[k]
        if (g is None) != (w is None):
            return f"{k}: {g!r}, NumPy {w!r}"
        if w is not None:
            tol = 1e-12 * abs(w) + (1e-15 * scale if k == "std" else 0)
            if abs(g - w) > tol:
                return f"{k}: {g!r}, NumPy {w!r} (off by {abs(g - w) / max(abs(w), 1e-300):.2e} relative)"
    return None


def run_case(strider, path, expr, arr, human):
    argv = [strider, "stats", "--json", path] + ([expr] if expr is not None else [])
    if expr is not None and expr.startswith("-"):
        argv = argv[:-1] + ["--", expr]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            b = arr if expr is None else np.asarray(eval("arr[" + expr + "]", {"np": np}, {"arr": arr}))  # noqa: S307
        except Exception as e:  # noqa: BLE001
            b = e
    p = subprocess.run(argv, capture_output=True, timeout=60)
    if isinstance(b, Exception):
        return argv, bad_input(p, f"NumPy refuses ({b})")
    if p.returncode != 0 or p.stderr:
        return argv, f"exit {p.returncode}: {p.stderr.decode(errors='replace').strip()}"
    ref, scale = reference(b)
    off = abs_off(b) if b.dtype.kind == "c" else 0
    if isinstance(off, str):
        return argv, off
    try:
        got = json.loads(p.stdout, parse_constant=lambda c: f"<{c}>")
    except ValueError:
        return argv, f"not JSON: {p.stdout[:200]!r}"
    why = check(got, ref, scale)
    if why is None and human:
        h = subprocess.run(argv[:2] + argv[3:], capture_output=True, timeout=60)
        lines = h.stdout.decode().splitlines()
        keys = [ln.split()[0] for ln in lines]
        if h.returncode != 0 or keys != list(ref):
            why = f"human form: exit {h.returncode}, lines {lines!r}"
        elif lines[2].split()[1] != str(ref["count"]):
            why = f"human form count line {lines[2]!r}"
        else:
            # One more unit for the shortest decimal each side prints.
            ulp = (off + 1) * np.finfo(np.float32 if b.dtype.char == "F" else np.float64).eps if off else 0
            why = selfcheck.check_stdout(strider, argv[1:2] + argv[3:], None, h.stdout,
                                         lambda theirs, ours: same_stats(theirs, ours, ulp))
    return argv, why


def same_stats(theirs, ours, ulp=0):
    """The --as-numpy script's lines and strider's: equal, but mean and std within the relative
    1e-12 this suite allows them (NumPy's pairwise sums and strider's are not the same sums).
    ulp: for complex data on a machine whose np.abs (the script's) differs from hypot in the
    last place, the relative difference min, max, mean and std may have besides."""
    a, b = theirs.decode().splitlines(), ours.decode().splitlines()
    if len(a) != len(b):
        return False
    for x, y in zip(a, b):
        if x == y:
            continue
        kx, vx = x.split(None, 1)
        ky, vy = y.split(None, 1)
        loose = ("mean", "std") + (("min", "max") if ulp else ())
        if kx != ky or kx not in loose:
            return False
        try:
            fx, fy = float(vx), float(vy)
        except ValueError:
            return False
        if abs(fx - fy) > (1e-12 + ulp) * max(abs(fx), abs(fy)):
            return False
    return True


def bad_input(p, what):
    lines = p.stderr.decode(errors="replace").splitlines()
    if p.returncode != 2:
        return f"{what}; strider exits {p.returncode}"
    if len(lines) != 1 or not lines[0].startswith("strider: stats: "):
        return f"error output is not one 'strider: stats: ' line: {lines!r}"
    if p.stdout:
        return f"refused but wrote {len(p.stdout)} bytes"
    return None


def run(strider, cases=400, seed=0, verbose=False, workers=3):
    if not Path(strider).exists():
        raise FileNotFoundError(f"no strider binary at {strider}")
    rng = random.Random(seed)
    nprng = np.random.default_rng(seed)
    keep = tempfile.mkdtemp(prefix="parity_stats_", dir=RUN_TMP)
    jobs = []
    for i in range(cases):
        shape = SHAPES[i % len(SHAPES)]
        token = gt.DTYPE_TOKENS[(i // len(SHAPES)) % len(gt.DTYPE_TOKENS)]
        dt = gt.token_dtype(token)
        r = rng.random()
        n = int(np.prod(shape))
        if dt.kind == "f" and r < 0.25:
            with np.errstate(over="ignore"):
                a = adversarial(nprng, n).astype(dt).reshape(shape)
        elif dt.kind == "f" and r < 0.3:
            a = np.full(shape, np.nan, dt)
        else:
            specials = rng.choice([None, None, "fixed", "random"])
            a = gt.random_values(dt, shape, nprng, specials=specials, raw=rng.random() < 0.1)
        if rng.random() < 0.5:
            a = np.asfortranarray(a)
        path = os.path.join(keep, f"s{i}_{token}.npy")
        np.save(path, a)
        expr = rng.choice(EXPRS) if shape and rng.random() < 0.3 else None
        jobs.append((path, expr, a, i % 10 == 0))
    bad = os.path.join(keep, "str.npy")
    np.save(bad, np.array(["ab", "c"]))
    jobs.append((os.path.join(keep, "missing.npy"), None, None, False))
    jobs.append((bad, None, None, False))
    passed = failed = 0
    with concurrent.futures.ThreadPoolExecutor(workers) as pool:
        futs = []
        for path, expr, a, human in jobs:
            if a is None:
                futs.append(pool.submit(lambda p: ([strider, "stats", p], bad_input(
                    subprocess.run([strider, "stats", p], capture_output=True), "bad input")), path))
            else:
                futs.append(pool.submit(run_case, strider, path, expr, a, human))
        futs.append(pool.submit(lambda: ([strider, "stats", jobs[0][0], "1.5"], bad_input(
            subprocess.run([strider, "stats", jobs[0][0], "[1.5]"], capture_output=True), "bad EXPR"))))
        for fut in futs:
            argv, why = fut.result()
            if why is None:
                passed += 1
                if verbose:
                    print("ok  ", shlex.join(argv))
            else:
                failed += 1
                print(f"FAIL {why}\n  $ {shlex.join(argv)}", flush=True)
    if failed:
        print(f"(arrays kept in {keep})")
    else:
        shutil.rmtree(keep, ignore_errors=True)
    return dict(passed=passed, failed=failed, skipped=0)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--strider", default="./strider")
    ap.add_argument("--cases", type=int, default=400)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    start = time.time()
    res = run(args.strider, cases=args.cases, seed=args.seed, verbose=args.verbose)
    print(f"stats: {res['passed']} passed, {res['failed']} failed, {res['skipped']} skipped "
          f"({time.time() - start:.0f}s)")
    return 1 if res["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
