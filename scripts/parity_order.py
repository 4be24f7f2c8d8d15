#!/usr/bin/python3
"""Parity check for `--order keep` (transpose, slice, diagonal) against numpy.save of the view.

    go build -o /tmp/strider . && /usr/bin/python3 scripts/parity_order.py --strider /tmp/strider
    /usr/bin/python3 scripts/parity_order.py --strider ./strider --cases 3000 --seed 1

The interpreter needs numpy (>= 1.24); /usr/bin/python3 has it ($PYTHON in shell scripts).

Cases: arrays of every dtype of CLI.md in both byte orders, saved in C or Fortran order, with
shapes from 0-d to 4-d that have length-1 and empty axes (where NumPy's contiguity flags
ignore strides, or call an array both C- and F-contiguous); one view of each: transpose with
random (negative) axes or none, a basic slice (integers, steps of either sign, ..., None), or a
diagonal with random offset and axes. The reference is the bytes numpy.save writes for the
view itself: fortran_order True exactly when the view is F- and not C-contiguous.

- `--order keep`: strider's output equals np.save(view) byte for byte, so `cmp` works;
- without it: strider's output equals np.save(np.ascontiguousarray(view)) (C order always);
- a slice with list indices and `--order keep` is refused (exit 2, one "strider: slice: " line).

Output: a FAIL line per failure with the command to reproduce it, then
"order: N passed, N failed, N skipped". Exit status 0 when nothing failed, 1 otherwise.
"""

import argparse
import concurrent.futures
import io
import os
import random
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import gen_testdata as gt  # noqa: E402 - sibling module
import selfcheck  # noqa: E402 - sibling module

SHAPES = [(), (0,), (1,), (5,), (3, 4), (4, 1), (1, 4), (1, 1), (2, 0, 3), (2, 3, 4), (1, 5, 1, 3),
          (3, 1, 2, 2), (2, 3, 1), (3, 3, 3, 2), (40, 30, 20)]
RUN_TMP = os.environ.get("PARITY_TMPDIR") or ("/dev/shm" if os.access("/dev/shm", os.W_OK) else None)


def npy(arr):
    b = io.BytesIO()
    np.save(b, arr)
    return b.getvalue()


def random_slice(rng, n):
    """A start:stop:step for an axis of length n, often the whole axis (which keeps contiguity)."""
    r = rng.random()
    if r < 0.35:
        return ":"
    if r < 0.5:
        return "::-1"
    start = rng.choice(["", str(rng.randint(-n - 1, n + 1))])
    stop = rng.choice(["", str(rng.randint(-n - 1, n + 1))])
    step = rng.choice(["", "", "1", "2", "-1", "-2", "3"])
    return f"{start}:{stop}" + (f":{step}" if step else "")


def random_expr(rng, shape):
    """A basic index (a view): integers, slices, ... and None."""
    items, k = [], 0
    ellipsis = False
    while k < len(shape):
        r = rng.random()
        if r < 0.15 and shape[k] > 0:
            items.append(str(rng.randint(-shape[k], shape[k] - 1)))
            k += 1
        elif r < 0.22:
            items.append("None")
        elif r < 0.27 and not ellipsis:
            items.append("...")
            ellipsis = True
            k = len(shape) - rng.randint(0, len(shape) - k)
        else:
            items.append(random_slice(rng, shape[k]))
            k += 1
    if rng.random() < 0.1:
        items.append("None")
    return ", ".join(items) if items else "..."


def make_case(rng, shape, keep, token, fortran):
    """(op, args, view) for one random view of a random array of dtype token, in Fortran order
    or not, saved to a file in keep."""
    dtype = gt.token_dtype(token)
    a = gt.random_values(dtype, shape, np.random.default_rng(rng.randrange(2**32)))
    if fortran:
        a = np.asfortranarray(a)
    path = os.path.join(keep, f"{token}_{'x'.join(map(str, shape)) or '0d'}_{'f' if fortran else 'c'}_{rng.randrange(10**9)}.npy")
    np.save(path, a)
    a = np.load(path)  # as strider sees it: the file's own layout
    ops = ["transpose", "slice"] + (["diagonal"] if len(shape) >= 2 else [])
    op = rng.choice(ops)
    if op == "transpose":
        if rng.random() < 0.3 or not shape:
            return op, [path], np.transpose(a), path
        axes = list(range(len(shape)))
        rng.shuffle(axes)
        axes = [x - len(shape) if rng.random() < 0.3 else x for x in axes]
        return op, [path, "--axes", ",".join(map(str, axes))], np.transpose(a, axes), path
    if op == "slice":
        expr = random_expr(rng, shape)
        view = eval("a[" + expr + "]", {"a": a})
        if not isinstance(view, np.ndarray):
            # A NumPy scalar (native byte order): the 0-d view strider writes is a[EXPR, ...].
            view = eval("a[" + expr + ", ...]", {"a": a})
        return op, [path, expr], view, path
    nd = len(shape)
    a1, a2 = rng.sample(range(nd), 2)
    off = rng.randint(-2, 2)
    view = np.diagonal(a, off, a1, a2)
    return op, [path, "--offset", str(off), "--axis1", str(a1 - nd if rng.random() < 0.3 else a1),
                "--axis2", str(a2)], view, path


def run_case(strider, case, tmp_root):
    """Runs one case: --order keep and the default; returns a list of (argv, failure)."""
    op, args, view, _ = case
    fails = []
    with tempfile.TemporaryDirectory(dir=tmp_root) as tmp:
        for keep in (True, False):
            out = os.path.join(tmp, "out.npy")
            argv = [strider, op] + args + ["-o", out] + (["--order", "keep"] if keep else [])
            p = subprocess.run(argv, capture_output=True, timeout=60)
            if p.returncode != 0:
                fails.append((argv, f"exit {p.returncode}: {p.stderr.decode(errors='replace').strip()}"))
                continue
            got = Path(out).read_bytes()
            want = npy(view) if keep else npy(np.ascontiguousarray(view) if view.ndim else view)
            if got != want:
                c, f = view.flags.c_contiguous, view.flags.f_contiguous
                fails.append((argv, f"output differs from np.save({'view' if keep else 'ascontiguousarray(view)'}) "
                                    f"(view shape {view.shape}, strides {view.strides}, C {c}, F {f})"))
                continue
            why = selfcheck.check(strider, argv[1:], None, out, False, got)
            if why:
                fails.append((argv, why))
    return fails


def run_refusal(strider, path):
    """A slice with list indices and --order keep is refused cleanly."""
    argv = [strider, "slice", path, "[0], ...", "--order", "keep", "-o", os.devnull]
    p = subprocess.run(argv, capture_output=True, timeout=60)
    lines = p.stderr.decode(errors="replace").splitlines()
    if p.returncode != 2 or len(lines) != 1 or not lines[0].startswith("strider: slice: --order keep"):
        return argv, f"exit {p.returncode}, stderr {lines!r}: want a refusal"
    return argv, selfcheck.check_refused(strider, argv[1:], None)


def run(strider, cases=300, seed=0, verbose=False, workers=3):
    """Runs `cases` random views; returns dict(passed, failed, skipped)."""
    if not Path(strider).exists():
        raise FileNotFoundError(f"no strider binary at {strider}")
    rng = random.Random(seed)
    keep = tempfile.mkdtemp(prefix="parity_order_", dir=RUN_TMP)
    passed = failed = 0
    fortran_views = 0
    try:
        jobs = []
        cells = set()
        for i in range(cases):
            token, fortran = gt.case_cell(i, len(SHAPES))  # every (dtype, order) in 100 cases
            cells.add((token, fortran and len(SHAPES[i % len(SHAPES)]) > 1))
            case = make_case(rng, SHAPES[i % len(SHAPES)], keep, token, fortran)
            view = case[2]
            if isinstance(view, np.ndarray) and view.flags.f_contiguous and not view.flags.c_contiguous:
                fortran_views += 1
            jobs.append(case)
        missing = gt.case_cells_missing("order", cells, cases)
        if missing:
            failed += 1
            print(missing, flush=True)
        with concurrent.futures.ThreadPoolExecutor(workers) as pool:
            results = list(pool.map(lambda c: run_case(strider, c, keep), jobs))
        for case, fails in zip(jobs, results):
            if fails:
                failed += 1
                for argv, why in fails:
                    print(f"FAIL {why}\n  $ {shlex.join(argv)}", flush=True)
            else:
                passed += 1
        argv, why = run_refusal(strider, jobs[-1][3])
        if why:
            failed += 1
            print(f"FAIL {why}\n  $ {shlex.join(argv)}", flush=True)
        else:
            passed += 1
        if verbose:
            print(f"order: {fortran_views} of {cases} views are saved by NumPy in Fortran order")
    finally:
        if not failed:
            shutil.rmtree(keep, ignore_errors=True)
        else:
            print(f"order: arrays kept in {keep}")
    return dict(passed=passed, failed=failed, skipped=0)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--strider", default=str(Path(__file__).resolve().parent.parent / "strider"))
    ap.add_argument("--cases", type=int, default=300)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    r = run(args.strider, cases=args.cases, seed=args.seed, verbose=args.verbose)
    print("order: %(passed)d passed, %(failed)d failed, %(skipped)d skipped" % r)
    return 1 if r["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
