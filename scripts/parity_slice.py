#!/usr/bin/python3
"""Parity check for `strider slice IN EXPR` against NumPy's own a[EXPR].

    go build -o /tmp/strider-slice . && /usr/bin/python3 scripts/parity_slice.py --strider /tmp/strider-slice
    /usr/bin/python3 scripts/parity_slice.py --strider ./strider --cases 4000 --seed 1

The interpreter needs numpy (>= 1.24); /usr/bin/python3 has it ($PYTHON in shell scripts).

Every case is one array and one expression. Arrays: every dtype of CLI.md in both byte orders,
C and Fortran order, shapes from 0-d to 4-d with empty and length-1 axes, values from
gen_testdata.random_values (NaN payloads included). Expressions, a few hundred per shape:
integers (in range, out of range, negative, 0x1f / 1_000 forms), slices with every part
omitted or given (negative, huge, None, True), `...`, None / newaxis / np.newaxis, integer lists
(nested, broadcasting or not, empty), boolean lists (matching the axis or not, masks over two
axes or the whole array), scalar True/False, tuples, and malformed text (floats, ragged or
unclosed lists, unknown names, four-part slices, two ellipses, zero steps).

Expressions that start with "[" get a share of their own (EXPR is exactly the text between
a[ and ], so "[0, 2]" is a[[0, 2]]): integer lists, nested lists, boolean lists (1-D and
full-shape), empty lists, lists next to slices, None and ..., lists holding a slice ("[1:3]",
Python's SyntaxError). And NumPy's limits: tuples of 29 to 34 index arrays or scalar booleans,
with and without a "subspace" (non-advanced axes), and tuples of more than 64 items.

The reference is eval("a[" + EXPR + "]") with NumPy 1.24 (its DeprecationWarning for
out-of-range indices into an empty result is ignored, as NumPy itself goes on). strider gets
EXPR exactly as NumPy does.

- NumPy succeeds: strider exits 0 with empty stderr, and its output is byte for byte
  np.save(np.ascontiguousarray(result)), except that a 0-d result is saved as the 0-d array
  itself, in the input's dtype (NumPy returns a scalar in native byte order for a[1, 2]).
- NumPy refuses (SyntaxError, IndexError, ValueError, TypeError): strider exits 2 with exactly
  one stderr line "strider: slice: ...", writes nothing to stdout, and leaves no output file
  (an existing one, sometimes placed there first, stays untouched).

Output: a FAIL line per failure with the command to reproduce it (the array file is kept in
the temporary folder, printed at the end), then "slice: N passed, N failed, N skipped".
Exit status 0 when nothing failed, 1 otherwise, 2 for bad usage.
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
import time
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import gen_testdata as gt  # noqa: E402 - sibling module
import selfcheck  # noqa: E402 - sibling module

SHAPES = [(), (0,), (1,), (6,), (3, 4), (4, 1), (2, 0, 3), (2, 3, 4), (1, 5, 1, 3), (3, 1, 2, 2),
          (64, 50, 40)]
# Shapes big enough for strider's threaded paths get a few dtypes only.
LARGE = {(64, 50, 40): ["u1", "i2be", "f4le", "f8le", "c16be"]}
SENTINEL = b"sentinel: strider must not touch this file\n"
RUN_TMP = os.environ.get("PARITY_TMPDIR") or ("/dev/shm" if os.access("/dev/shm", os.W_OK) else None)
NAMESPACE = {"np": np, "numpy": np, "newaxis": np.newaxis}


# ---------------------------------------------------------------------------------------------
# expressions

def int_text(rng, v):
    """v as Python source, now and then in another literal form."""
    r = rng.random()
    if v >= 0 and r < 0.04:
        return hex(v)
    if v >= 1000 and r < 0.08:
        return f"{v:_}"
    if r < 0.1:
        return f"({v})"
    return str(v)


def random_int(rng, n):
    """An index for an axis of length n: mostly in range, sometimes just out or far out."""
    r = rng.random()
    if r < 0.05 or n == 0:
        return rng.choice([n, -n - 1, n + 3, 10**6, -(10**6), 2**63 - 1, -(2**63)])
    return rng.randint(-n, n - 1)


def random_bound(rng, n):
    r = rng.random()
    if r < 0.3:
        return ""
    if r < 0.35:
        return rng.choice(["None", "True", "False", str(10**20), str(-(10**20))])
    return str(rng.randint(-n - 2, n + 2))


def random_slice(rng, n):
    s = random_bound(rng, n) + ":" + random_bound(rng, n)
    if rng.random() < 0.5:
        step = rng.choice([1, 2, 3, -1, -2, -3, 5, -7, 10**20, -(10**20)])
        if rng.random() < 0.03:
            step = 0
        s += ":" + ("" if rng.random() < 0.1 else str(step))
    return s


def nested(rng, shape, leaf):
    if not shape:
        return leaf()
    return "[" + ", ".join(nested(rng, shape[1:], leaf) for _ in range(shape[0])) + "]"


def int_list(rng, n):
    shape = rng.choice([(2,), (1,), (3,), (2, 1), (1, 2), (2, 2), (0,), (3, 1), (2, 3)])
    return nested(rng, shape, lambda: int_text(rng, random_int(rng, n)))


def bool_list(rng, shape):
    if rng.random() < 0.08:  # a wrong length somewhere
        shape = tuple(d + rng.choice([1, -1]) if d > 0 else 1 for d in shape)
    return nested(rng, shape, lambda: rng.choice(["True", "False"]))


MALFORMED = ["1.5", "[1,", "1:2:3:4", "foo", "[[0, 1], [2]]", "(1:2)", "0 1", "..., ...", "::0",
             "[None]", "01", "1__0", "[0:1]", "{1}", "x[0]", "1e3", "[1.0]", "[...]", "0x", "-[1]",
             "[[True], [1, 2]]", "np.nan", ",", "1,,", "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[0]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]"]


def bracket_expr(rng, shape):
    """An expression that starts with "[": a list index, alone or next to other items."""
    nd = len(shape)
    size = shape[0] if nd else 3
    r = rng.random()
    if r < 0.2:
        first = int_list(rng, size)
    elif r < 0.35:
        first = bool_list(rng, (size,))
    elif r < 0.45 and nd:
        first = bool_list(rng, shape) if np.prod(shape) <= 4000 else bool_list(rng, (size,))
    elif r < 0.55:
        first = rng.choice(["[]", "[[]]", "[[], []]", "[()]", "[(0, 1)]"])
    elif r < 0.62:
        first = rng.choice(["[1:3]", "[0, 1:3]", "[::-1]", "[:]", "[0, None]", "[0, ...]",
                            "[None]", "[...]", "[[0, 1], [2]]", "[True, 2]", "[-True]"])
    else:
        first = "[" + ", ".join(int_text(rng, random_int(rng, size))
                                for _ in range(rng.randint(0, 4))) + "]"
    rest = []
    for _ in range(rng.choice([0, 0, 1, 2])):
        rest.append(rng.choice([random_slice(rng, 3), "None", "...", int_list(rng, 3),
                                str(rng.randint(-1, 1))]))
    expr = ", ".join([first] + rest)
    if not rest and rng.random() < 0.15:
        expr += ","
    return expr


def limit_expr(rng, shape):
    """Tuples around NumPy's limits: 31 index arrays without a subspace, 32 advanced
    indices, 64 items."""
    k = rng.randint(29, 34)
    r = rng.random()
    if r < 0.4:
        items = [rng.choice(["True", "False"]) for _ in range(k)]
    elif r < 0.6:
        items = ["[0]"] * min(k, len(shape)) + ["True"] * max(0, k - len(shape))
    elif r < 0.75:
        items = ["True"] * k + [rng.choice([":", "0", "...", "None", "[0]", "0:1"])]
    else:
        n = rng.choice([63, 64, 65, 66])
        items = [rng.choice(["None", "True", "..."])] + ["None"] * (n - 1)
    return ", ".join(items)


def random_expr(rng, shape):
    """A Python subscript for an array of shape: mostly valid, some not."""
    r = rng.random()
    if r < 0.05:
        return rng.choice(MALFORMED)
    if r < 0.2:
        return bracket_expr(rng, shape)
    if r < 0.23:
        return limit_expr(rng, shape)
    nd = len(shape)
    n_items = rng.randint(0, nd + 2)
    parts, dim, ellipses = [], 0, 0
    for k in range(n_items):
        size = shape[dim] if dim < nd else 3
        r = rng.random()
        if r < 0.22:
            parts.append(int_text(rng, random_int(rng, size)))
            dim += 1
        elif r < 0.47:
            parts.append(random_slice(rng, size))
            dim += 1
        elif r < 0.53:
            if ellipses == 0 or rng.random() < 0.1:
                parts.append(rng.choice(["...", "...", "Ellipsis"]))
                ellipses += 1
                dim = max(dim, nd - (n_items - k - 1))
        elif r < 0.60:
            parts.append(rng.choice(["None", "None", "np.newaxis", "newaxis"]))
        elif r < 0.76:
            parts.append(int_list(rng, size))
            dim += 1
        elif r < 0.88:
            # (masks stay small: the expression must fit in one command-line argument)
            if rng.random() < 0.25 and dim + 1 < nd and shape[dim] * shape[dim + 1] <= 4000:
                parts.append(bool_list(rng, (shape[dim], shape[dim + 1])))
                dim += 2
            elif rng.random() < 0.1 and dim == 0 and 0 < nd and np.prod(shape) <= 4000:
                parts.append(bool_list(rng, shape))
                dim = nd
            else:
                parts.append(bool_list(rng, (size,)))
                dim += 1
        elif r < 0.93:
            parts.append(rng.choice(["True", "False"]))
        elif r < 0.96:
            parts.append(rng.choice(["-True", "(0, 1)", "(-1,)", "()", "[(0, 1), (1, 0)]", "[True, 2]"]))
            dim += 1
        else:
            parts.append(rng.choice(MALFORMED))
    expr = ", ".join(parts)
    if rng.random() < 0.1 and parts:
        expr += ","
    if not expr or rng.random() < 0.03:
        expr = rng.choice(["...", "()", ":"])
    return expr


# ---------------------------------------------------------------------------------------------
# reference

def reference(a, expr):
    """The bytes strider must write, or the exception NumPy raised."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            r = eval("a[" + expr + "]", dict(NAMESPACE), {"a": a})  # noqa: S307 - our own text
    except Exception as e:  # noqa: BLE001 - a refusal is an answer too
        return e
    if not isinstance(r, np.ndarray):
        r = np.array(r, dtype=a.dtype)  # a scalar: the 0-d array, in the input's dtype
    buf = io.BytesIO()
    np.save(buf, r if r.ndim == 0 else np.ascontiguousarray(r))
    return buf.getvalue()


# ---------------------------------------------------------------------------------------------
# cases

class Tally:
    def __init__(self, verbose):
        self.passed = self.failed = self.skipped = 0
        self.verbose = verbose

    def fail(self, argv, why):
        self.failed += 1
        print(f"FAIL {why}\n  $ {shlex.join(argv)}", flush=True)

    def result(self):
        return dict(passed=self.passed, failed=self.failed, skipped=self.skipped)


def command(strider, path, expr, out, rng):
    """argv for one case, in one of the equivalent forms of the command line."""
    arg = expr
    opts = []
    if out is not None:
        opts = rng.choice([["-o", out], ["--output", out], [f"--output={out}"]])
    if rng.random() < 0.2:
        opts += ["--threads", str(rng.randint(1, 4))]
    plain = arg and not arg.startswith("-") or arg[1:2].isdigit() or arg[1:2] in (":", ".")
    if plain and rng.random() < 0.5:
        return [strider, "slice", path, arg] + opts  # options after the arguments
    return [strider, "slice"] + opts + [path, "--", arg]


def run_case(strider, path, expr, want, seed, tmp_root):
    """Runs one case and returns (argv, failure or None)."""
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory(dir=tmp_root) as tmp:
        out = os.path.join(tmp, "out.npy")
        to_stdout = rng.random() < 0.15
        sentinel = not to_stdout and rng.random() < 0.2
        if sentinel:
            Path(out).write_bytes(SENTINEL)
        argv = command(strider, path, expr, "-" if to_stdout and rng.random() < 0.5 else
                       (None if to_stdout else out), rng)
        try:
            p = subprocess.run(argv, capture_output=True, timeout=60)
        except subprocess.TimeoutExpired:
            return argv, "timed out"
        left = sorted(os.listdir(tmp))
        stderr = p.stderr.decode(errors="replace")
        if isinstance(want, Exception):
            lines = stderr.splitlines()
            if p.returncode != 2:
                return argv, f"NumPy refuses ({type(want).__name__}: {want}); strider exits {p.returncode}"
            if len(lines) != 1 or not lines[0].startswith("strider: slice: ") or "panic" in stderr:
                return argv, f"error output is not one 'strider: slice: ' line: {stderr!r}"
            if p.stdout:
                return argv, f"refused but wrote {len(p.stdout)} bytes to stdout"
            if sentinel and Path(out).read_bytes() != SENTINEL:
                return argv, "refused but changed the existing output file"
            if left != (["out.npy"] if sentinel else []):
                return argv, f"refused but left files: {left}"
            # The printed --as-numpy script must refuse too.
            return argv, selfcheck.check_refused(argv[0], argv[1:], None, None if to_stdout else out)
        if p.returncode != 0:
            return argv, f"exit {p.returncode}: {stderr.strip()}"
        if stderr:
            return argv, f"stderr not empty: {stderr[:200]!r}"
        got = p.stdout if to_stdout else Path(out).read_bytes()
        if left != ([] if to_stdout else ["out.npy"]):
            return argv, f"left files: {left}"
        if got != want:
            return argv, f"output differs from NumPy ({len(got)} bytes, NumPy {len(want)}; " \
                         f"headers {got[10:80]!r} / {want[10:80]!r})"
        # The printed --as-numpy script must compute the same bytes.
        return argv, selfcheck.check(argv[0], argv[1:], None, out, to_stdout, got)


def make_arrays(rng, folder):
    """One file per (shape, dtype, order); returns [(shape, path, array)]."""
    out = []
    nprng = np.random.default_rng(rng.randrange(2**32))
    for si, shape in enumerate(SHAPES):
        for token in LARGE.get(shape, gt.DTYPE_TOKENS):
            a = gt.random_values(gt.token_dtype(token), shape, nprng, raw=rng.random() < 0.3)
            for order in "cf":
                arr = np.asfortranarray(a) if order == "f" else a
                path = os.path.join(folder, f"x_{token}_{si}_{order}.npy")
                np.save(path, arr)
                out.append((shape, path, arr))
    return out


def run(strider, cases=2000, seed=0, verbose=False, workers=3):
    """Runs `cases` random (array, expression) cases; returns dict(passed, failed, skipped)."""
    if not Path(strider).exists():
        raise FileNotFoundError(f"no strider binary at {strider}")
    rng = random.Random(seed)
    tally = Tally(verbose)
    keep = tempfile.mkdtemp(prefix="parity_slice_", dir=RUN_TMP)
    arrays = make_arrays(rng, keep)
    by_shape = {}
    for shape, path, arr in arrays:
        by_shape.setdefault(shape, []).append((path, arr))
    jobs = []
    chosen = set()
    for i in range(cases):
        shape = SHAPES[i % len(SHAPES)]
        # Each shape cycles through its files (every dtype, C and F): from
        # len(SHAPES) x 50 cases on, every (shape, dtype, order) runs.
        files = by_shape[shape]
        path, arr = files[(i // len(SHAPES)) % len(files)]
        chosen.add(path)
        expr = random_expr(rng, shape)
        jobs.append((path, expr, reference(arr, expr), rng.randrange(2**32)))
    every = {p for files in by_shape.values() for p, _ in files}
    if cases >= len(SHAPES) * max(map(len, by_shape.values())) and chosen != every:
        tally.fail(["slice coverage"], f"{len(every - chosen)} of {len(every)} (shape, dtype, order) "
                   f"files never ran, e.g. {sorted(every - chosen)[:3]}")
    with concurrent.futures.ThreadPoolExecutor(workers) as pool:
        futures = [pool.submit(run_case, strider, path, expr, want, s, keep)
                   for path, expr, want, s in jobs]
        for (path, expr, want, _), fut in zip(jobs, futures):
            argv, why = fut.result()
            if why is None:
                tally.passed += 1
                if verbose:
                    verdict = "refused" if isinstance(want, Exception) else "ok"
                    print(f"ok   {verdict:7} {Path(path).name} {expr}")
            else:
                tally.fail(argv, why)
    if tally.failed:
        print(f"(arrays kept in {keep})")
    else:
        shutil.rmtree(keep, ignore_errors=True)
    return tally.result()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--strider", default="./strider", help="the strider binary")
    ap.add_argument("--cases", type=int, default=2000, help="random (array, expression) cases")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=3, help="strider processes at a time")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    start = time.time()
    try:
        res = run(args.strider, cases=args.cases, seed=args.seed, verbose=args.verbose,
                  workers=args.workers)
    except FileNotFoundError as e:
        print(f"parity_slice: {e}", file=sys.stderr)
        return 2
    print(f"slice: {res['passed']} passed, {res['failed']} failed, {res['skipped']} skipped "
          f"({time.time() - start:.0f}s)")
    return 1 if res["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
