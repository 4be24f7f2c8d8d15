#!/usr/bin/python3
"""Parity check for `strider show IN [EXPR]` against NumPy's own print(a) / print(repr(a)).

    go build -o /tmp/strider-show . && /usr/bin/python3 scripts/parity_show.py --strider /tmp/strider-show
    /usr/bin/python3 scripts/parity_show.py --strider ./strider --cases 5000 --seed 1

The interpreter needs numpy 1.24 (/usr/bin/python3 has it; $PYTHON in shell scripts).

Arrays: every dtype of CLI.md in both byte orders, C and Fortran order, shapes from 0-d to 3-d
with empty and length-1 axes, and shapes past the default threshold (summarized on every axis).
Values in several styles: gen_testdata.random_values (NaN, +-inf, -0.0, integer extremes), raw
random bits (subnormals, NaN payloads, huge and tiny magnitudes), small decimals, integers as
floats, one huge among small ones, and all-NaN.

Each case picks an array, sometimes an EXPR (integers, slices, ..., None, an integer list) and a
random subset of the print options (--precision, --threshold, --edgeitems, --linewidth,
--suppress, --floatmode, --sign, --nanstr, --infstr, --full), and --repr half the time. The
reference is NumPy's print() (str, or repr with --repr) of a[EXPR] under np.printoptions(...):
strider's stdout must equal it byte for byte, with exit 0 and empty stderr.

Bad input (an unknown --floatmode or --sign, a negative --precision, a non-integer option, a
malformed or out-of-range EXPR, a missing file, too many arguments): exit 2, exactly one stderr
line "strider: show: ...", nothing on stdout.

Output: a FAIL line per failure with the command to reproduce it, then
"show: N passed, N failed, N skipped". Exit 0 when nothing failed, 1 otherwise.
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

SHAPES = [(), (0,), (1,), (7,), (3, 4), (4, 1), (2, 0, 3), (2, 3, 4), (1, 5, 1), (40, 30),
          (1100,), (11, 12, 13)]
RUN_TMP = os.environ.get("PARITY_TMPDIR") or ("/dev/shm" if os.access("/dev/shm", os.W_OK) else None)
NAMESPACE = {"np": np, "numpy": np, "newaxis": np.newaxis}


def styled_values(dtype, shape, nprng, style):
    """random_values, or floats in one of the styles that stress the float formatter."""
    n = int(np.prod(shape))
    if dtype.kind not in "fc" or style == "plain":
        return gt.random_values(dtype, shape, nprng, raw=False)
    if style == "raw":
        return gt.random_values(dtype, shape, nprng, raw=True)
    part = np.dtype("f%d" % (dtype.itemsize if dtype.kind == "f" else dtype.itemsize // 2))

    def floats():
        with np.errstate(over="ignore", under="ignore", invalid="ignore"):
            if style == "decimal":
                v = nprng.integers(-999, 1000, size=n) / 10.0 ** nprng.integers(0, 4, size=n)
            elif style == "integral":
                v = nprng.integers(-10**6, 10**6, size=n).astype(float)
            elif style == "outlier":
                v = nprng.uniform(0, 1, size=n)
                if n:
                    v[nprng.integers(0, n)] = 10.0 ** nprng.integers(3, 30)
            elif style == "tiny":
                v = nprng.standard_normal(n) * 10.0 ** nprng.integers(-40, -3, size=n)
            else:  # "nan"
                v = np.full(n, np.nan)
                if n:
                    v[nprng.integers(0, n)] = nprng.choice([np.inf, -np.inf, np.nan])
            return v.astype(part)

    native = dtype.newbyteorder("=")
    if dtype.kind == "f":
        vals = floats()
    else:
        vals = np.empty(n, native)
        vals.real = floats()
        vals.imag = floats()
    return vals.reshape(shape).astype(dtype)


STYLES = ["plain", "plain", "raw", "decimal", "integral", "outlier", "tiny", "nan"]


def make_arrays(rng, folder):
    """Files for every (shape, dtype, order); returns {shape: [(path, array)]}."""
    nprng = np.random.default_rng(rng.randrange(2**32))
    out = {}
    for si, shape in enumerate(SHAPES):
        tokens = gt.DTYPE_TOKENS
        if int(np.prod(shape)) > 1000:
            tokens = rng.sample(tokens, 8)
        for token in tokens:
            dt = gt.token_dtype(token)
            style = rng.choice(STYLES)
            a = styled_values(dt, shape, nprng, style)
            for order in "cf":
                if order == "f" and len(shape) < 2:
                    continue
                arr = np.asfortranarray(a) if order == "f" else a
                path = os.path.join(folder, f"x_{token}_{si}_{order}_{style}.npy")
                np.save(path, arr)
                out.setdefault(shape, []).append((path, arr))
    return out


def random_expr(rng, shape):
    """A valid EXPR for shape (or None)."""
    if not shape or rng.random() < 0.6:
        return None
    parts = []
    for n in shape:
        r = rng.random()
        if r < 0.25 and n:
            parts.append(str(rng.randint(-n, n - 1)))
        elif r < 0.6:
            a, b = rng.randint(-n - 1, n + 1), rng.randint(-n - 1, n + 1)
            step = rng.choice(["", ":2", ":-1", ":3"])
            parts.append(f"{a}:{b}{step}" if rng.random() < 0.5 else f"::{rng.choice([1, 2, -1, -3])}")
        elif r < 0.7:
            parts.append("None, :")
        elif r < 0.8 and n:
            parts.append("[" + ", ".join(str(rng.randint(-n, n - 1)) for _ in range(rng.randint(1, 3))) + "]")
            break  # one list at most, so the result is plain to predict
        else:
            parts.append(":")
    if rng.random() < 0.2:
        parts = ["..."] + parts[1:]
    expr = ", ".join(parts)
    if expr.startswith("[") and expr.endswith("]"):
        # a[[i, j],] is a[[i, j]]; the trailing comma keeps this check off the question of how
        # a lone bracketed EXPR reads (parity_slice's business).
        expr += ","
    return expr


def random_options(rng, shape):
    """(np.printoptions kwargs, strider flags)."""
    kw, flags = {}, []
    if rng.random() < 0.4:
        kw["precision"] = rng.randint(0, 16)
        flags += ["--precision", str(kw["precision"])]
    if rng.random() < 0.35:
        kw["threshold"] = rng.choice([0, 1, 5, 20, 100, 500, 1000, 5000])
        flags += ["--threshold", str(kw["threshold"])]
    elif rng.random() < 0.05:
        kw["threshold"] = sys.maxsize
        flags += ["--full"]
    if rng.random() < 0.3:
        kw["edgeitems"] = rng.randint(0, 5)
        flags += ["--edgeitems", str(kw["edgeitems"])]
    if rng.random() < 0.3:
        kw["linewidth"] = rng.choice([0, 1, 10, 25, 40, 75, 100, 200])
        flags += [f"--linewidth={kw['linewidth']}"]
    if rng.random() < 0.25:
        kw["suppress"] = True
        flags += ["--suppress"]
    if rng.random() < 0.4:
        kw["floatmode"] = rng.choice(["fixed", "unique", "maxprec", "maxprec_equal"])
        flags += ["--floatmode", kw["floatmode"]]
    if rng.random() < 0.3:
        kw["sign"] = rng.choice("-+ ")
        flags += rng.choice([["--sign", kw["sign"]], [f"--sign={kw['sign']}"]])
    if rng.random() < 0.1:
        kw["nanstr"] = rng.choice(["NaN", "n", "not a number", "ñ"])
        flags += ["--nanstr", kw["nanstr"]]
    if rng.random() < 0.1:
        kw["infstr"] = rng.choice(["Inf", "i", "infinity", "∞"])
        flags += ["--infstr", kw["infstr"]]
    return kw, flags


def reference(arr, expr, kw, use_repr):
    """What print() writes, or the exception NumPy raises."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            sub = arr if expr is None else eval("arr[" + expr + "]", dict(NAMESPACE, arr=arr))
            with np.printoptions(**kw):
                buf = io.StringIO()
                print(repr(sub) if use_repr else sub, file=buf)
                return buf.getvalue().encode()
    except (IndexError, ValueError, TypeError, SyntaxError) as e:
        return e


BAD = [
    (["--floatmode", "exact"], None), (["--sign", "x"], None), (["--sign", "++"], None),
    (["--precision", "-1"], None), (["--precision", "1.5"], None), (["--threshold", "many"], None),
    (["--edgeitems", "-2"], None), (["--linewidth", ""], None),
    ([], "1.5"), ([], "0, 0, 0, 0, 0"), ([], "[0, 1"), ([], "::0"), ([], "99"), ([], "..., ...")]


class Tally:
    def __init__(self, verbose):
        self.passed = self.failed = self.skipped = 0
        self.verbose = verbose

    def fail(self, argv, why):
        self.failed += 1
        print(f"FAIL {why}\n  $ {shlex.join(argv)}", flush=True)

    def result(self):
        return dict(passed=self.passed, failed=self.failed, skipped=self.skipped)


def run_case(argv, want):
    """Runs one case; returns a failure or None."""
    try:
        p = subprocess.run(argv, capture_output=True, timeout=60)
    except subprocess.TimeoutExpired:
        return "timed out"
    stderr = p.stderr.decode(errors="replace")
    if isinstance(want, Exception):
        if p.returncode != 2:
            return f"NumPy refuses ({type(want).__name__}: {want}); strider exits {p.returncode}"
        lines = stderr.splitlines()
        if len(lines) != 1 or not lines[0].startswith("strider: show: ") or "panic" in stderr:
            return f"error output is not one 'strider: show: ' line: {stderr!r}"
        if p.stdout:
            return f"refused but wrote {len(p.stdout)} bytes to stdout"
        # The printed --as-numpy script must refuse too.
        return selfcheck.check_refused(argv[0], argv[1:], None)
    if p.returncode != 0:
        return f"exit {p.returncode}: {stderr.strip()}"
    if stderr:
        return f"stderr not empty: {stderr[:200]!r}"
    if p.stdout != want:
        return f"output differs from NumPy:\n--- strider\n{p.stdout.decode(errors='replace')}" \
               f"--- numpy\n{want.decode()}---"
    # The printed --as-numpy script must print the same text.
    return selfcheck.check(argv[0], argv[1:], None, None, True, p.stdout)


def command(strider, path, expr, flags, use_repr, rng):
    argv = [strider, "show"]
    if use_repr:
        flags = flags + ["--repr"]
    if expr is None:
        return argv + flags + [path] if rng.random() < 0.5 else argv + [path] + flags
    if expr[:1] not in ("-", "") and rng.random() < 0.5:
        return argv + [path, expr] + flags
    return argv + flags + [path, "--", expr]


def run(strider, cases=600, seed=0, verbose=False, workers=3):
    """Runs `cases` random cases plus the bad-input ones; returns dict(passed, failed, skipped)."""
    if not Path(strider).exists():
        raise FileNotFoundError(f"no strider binary at {strider}")
    rng = random.Random(seed)
    tally = Tally(verbose)
    keep = tempfile.mkdtemp(prefix="parity_show_", dir=RUN_TMP)
    arrays = make_arrays(rng, keep)
    jobs = []
    chosen = set()
    for i in range(cases):
        shape = SHAPES[i % len(SHAPES)]
        # Each shape cycles through its files (every dtype, C and F): from
        # len(SHAPES) x 50 cases on, every (shape, dtype, order) runs.
        files = arrays[shape]
        path, arr = files[(i // len(SHAPES)) % len(files)]
        chosen.add(path)
        expr = random_expr(rng, shape)
        kw, flags = random_options(rng, shape)
        use_repr = rng.random() < 0.5
        want = reference(arr, expr, kw, use_repr)
        jobs.append((command(strider, path, expr, flags, use_repr, rng), want))
    path, arr = arrays[(3, 4)][0]
    for flags, expr in BAD:
        argv = [strider, "show"] + flags + [path] + ([] if expr is None else ["--", expr])
        jobs.append((argv, ValueError("bad input")))
    jobs.append(([strider, "show", os.path.join(keep, "missing.npy")], FileNotFoundError("missing")))
    jobs.append(([strider, "show", path, "0", "1"], TypeError("too many arguments")))
    jobs.append(([strider, "show"], TypeError("no input")))
    every = {p for files in arrays.values() for p, _ in files}
    if cases >= len(SHAPES) * max(map(len, arrays.values())) and chosen != every:
        tally.fail(["show coverage"], f"{len(every - chosen)} of {len(every)} (shape, dtype, order) "
                   f"files never ran, e.g. {sorted(every - chosen)[:3]}")
    with concurrent.futures.ThreadPoolExecutor(workers) as pool:
        futures = [pool.submit(run_case, argv, want) for argv, want in jobs]
        for (argv, want), fut in zip(jobs, futures):
            why = fut.result()
            if why is None:
                tally.passed += 1
                if verbose:
                    print(f"ok   {shlex.join(argv[1:])}")
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
    ap.add_argument("--cases", type=int, default=600, help="random cases")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=3, help="strider processes at a time")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    start = time.time()
    try:
        res = run(args.strider, cases=args.cases, seed=args.seed, verbose=args.verbose,
                  workers=args.workers)
    except FileNotFoundError as e:
        print(f"parity_show: {e}", file=sys.stderr)
        return 2
    print(f"show: {res['passed']} passed, {res['failed']} failed, {res['skipped']} skipped "
          f"({time.time() - start:.0f}s)")
    return 1 if res["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
