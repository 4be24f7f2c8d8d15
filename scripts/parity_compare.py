#!/usr/bin/python3
"""Parity check for `strider compare ACTUAL DESIRED` against numpy.testing.assert_allclose.

    go build -o /tmp/strider-slice . && /usr/bin/python3 scripts/parity_compare.py --strider /tmp/strider-slice
    /usr/bin/python3 scripts/parity_compare.py --strider ./strider --cases 5000 --seed 1

The interpreter needs numpy (>= 1.24); /usr/bin/python3 has it ($PYTHON in shell scripts).

Cases: DESIRED of every dtype of CLI.md (both byte orders, C or Fortran order, NaN, +-inf and
-0.0 among the values), ACTUAL a perturbed copy, of the same dtype or another one: some elements
moved by 0.3, 3, 30 or 10^4 times the tolerance, NaN or an infinity put where DESIRED has none,
infinities flipped, integers moved by 1 or more; tolerances from the defaults to --rtol 1e-3
--atol 1; --equal-nan=false; 0-d arrays on either side; shapes that differ; --exact cases
(the same values in another byte order or layout, NaN payloads, flipped bytes); and errors
(a missing or malformed file, standard input twice).

Checks, for each case:

- the verdict: strider exits 0 exactly when assert_allclose passes, 1 when it raises; with
  --exact, 0 exactly when shape, dtype (byte order included) and every element's bytes agree;
- the count: `--json`'s "mismatched" equals the k of NumPy's "Mismatched elements: k / n",
  and in text mode strider's line is NumPy's line, character for character (for float64 pairs
  the "Max absolute/relative difference" lines too); where NumPy stops at a "nan/+inf/-inf
  location mismatch" or a shape mismatch and gives no count, strider must say so ("reason")
  and its count must equal the definition's;
- errors: exit 2, one stderr line "strider: compare: ...", nothing on stdout.

Deviations: strider compares integers with each other exactly and floats by value (in
float64/complex128), where NumPy casts integers to float64 and computes float16/float32 pairs
in those types. When NumPy's verdict or count differs from the definition evaluated exactly in
Python (integers as Python ints, floats as float64/complex128), the definition is the reference
and the case is listed as a deviation, not a failure.

Output: a FAIL line per failure with the command to reproduce it (the files stay in the
temporary folder printed at the end), then "compare: N passed, N failed, N skipped
(N deviations from NumPy)". Exit status 0 when nothing failed, 1 otherwise, 2 for bad usage.
"""

import argparse
import concurrent.futures
import json
import math
import os
import random
import re
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

REPO = Path(__file__).resolve().parent.parent
SHAPES = [(), (1,), (7,), (3, 4), (2, 0, 3), (2, 3, 5), (4, 1, 6)]
RTOLS = [None, None, 1e-5, 1e-3, 0.0]  # None: the default 1e-7, no flag
ATOLS = [None, None, 1e-8, 1e-3, 1.0]  # None: the default 0
RUN_TMP = os.environ.get("PARITY_TMPDIR") or ("/dev/shm" if os.access("/dev/shm", os.W_OK) else None)
MISMATCH_LINE = re.compile(r"Mismatched elements: (\d+) / (\d+) \([^)]*\)")


# ---------------------------------------------------------------------------------------------
# arrays

def perturb(rng, nprng, desired, dtype, rtol, atol):
    """A copy of desired in dtype with some elements moved: by multiples of the tolerance,
    to NaN or infinity, or (integers) by a few units."""
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")  # casts of NaN and overflow are part of the game
        return _perturb(rng, nprng, desired, dtype, rtol, atol)


def _perturb(rng, nprng, desired, dtype, rtol, atol):
    dtype = np.dtype(dtype)
    n = desired.size
    frac = rng.choice([0.0, 0.05, 0.2, 0.6])
    picks = nprng.random(n) < frac
    if desired.dtype.kind in "fc" or dtype.kind in "fc":
        work = desired.astype(np.complex128 if "c" in (desired.dtype.kind, dtype.kind) else np.float64).ravel()
        with np.errstate(all="ignore"):
            for i in np.flatnonzero(picks):
                r = rng.random()
                if r < 0.6:
                    f = rng.choice([0.3, 3, 30, 1e4]) * max(rtol, 1e-7) * rng.choice([1, -1])
                    work[i] = work[i] * (1 + f)
                elif r < 0.75 and atol > 0:
                    work[i] = work[i] + rng.choice([0.3, 3]) * atol * rng.choice([1, -1])
                elif r < 0.85:
                    work[i] = np.nan
                elif r < 0.95:
                    work[i] = rng.choice([np.inf, -np.inf])
                else:
                    work[i] = -work[i]
            if dtype.kind == "f":
                work = work.real if np.iscomplexobj(work) else work
            if dtype.kind in "iub":
                work = np.nan_to_num(work.real if np.iscomplexobj(work) else work)
                info = np.iinfo(dtype) if dtype.kind != "b" else None
                work = np.clip(np.round(work), info.min, info.max) if info else work != 0
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                out = work.astype(dtype)
        return out.reshape(desired.shape)
    # integers and bools: exact moves in Python ints, clipped to the target's range
    vals = [int(v) for v in desired.ravel().tolist()]
    for i in np.flatnonzero(picks):
        vals[i] += rng.choice([1, -1, 2, -1000, 10**6, 2**40])
    if dtype.kind == "b":
        return np.array([v != 0 for v in vals], dtype=dtype).reshape(desired.shape)
    info = np.iinfo(dtype)
    vals = [min(max(v, info.min), info.max) for v in vals]
    return np.array(vals, dtype=dtype).reshape(desired.shape)


def with_order(rng, a):
    return np.asfortranarray(a) if a.ndim > 1 and rng.random() < 0.3 else a


# ---------------------------------------------------------------------------------------------
# references

def numpy_answer(actual, desired, rtol, atol, equal_nan):
    """(verdict, count or None, the message's mismatch line or None, the whole message)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            np.testing.assert_allclose(actual, desired, rtol=rtol, atol=atol, equal_nan=equal_nan)
        return 0, 0, None, ""
    except AssertionError as e:
        msg = str(e)
        m = MISMATCH_LINE.search(msg)
        return 1, (int(m.group(1)) if m else None), (m.group(0) if m else None), msg


def definition_count(actual, desired, rtol, atol, equal_nan):
    """The number of mismatched elements by definition_mismatches, or None."""
    m = definition_mismatches(actual, desired, rtol, atol, equal_nan)
    return None if m is None else len(m[0])


def definition_mismatches(actual, desired, rtol, atol, equal_nan):
    """assert_allclose's rule per element, exactly: integers as Python ints, floats by value
    in float64 or complex128. Returns (the C-order positions of the mismatched elements, how
    many of them hold a NaN on either side, how many an infinity and no NaN), or None when the
    shapes are refused."""
    if not (actual.shape == () or desired.shape == () or actual.shape == desired.shape):
        return None
    x, y = np.broadcast_arrays(actual, desired)
    ints = actual.dtype.kind in "biu" and desired.dtype.kind in "biu"
    cplx = "c" in (actual.dtype.kind, desired.dtype.kind)
    positions, nans, infs = [], 0, 0
    for i, (xv, yv) in enumerate(zip(x.ravel().tolist(), y.ravel().tolist())):
        if ints:
            xi, yi = int(xv), int(yv)
            if not abs(xi - yi) <= atol + rtol * float(abs(yi)):
                positions.append(i)
            continue
        xv, yv = (complex(xv), complex(yv)) if cplx else (float(xv), float(yv))
        isnan = (lambda z: math.isnan(z.real) or math.isnan(z.imag)) if cplx else math.isnan
        isinf = (lambda z: math.isinf(z.real) or math.isinf(z.imag)) if cplx else math.isinf
        xn, yn = isnan(xv), isnan(yv)
        if equal_nan and xn != yn or (xv == math.inf) != (yv == math.inf) \
                or (xv == -math.inf) != (yv == -math.inf):
            close = False  # a location mismatch
        elif equal_nan and xn and yn or xv == yv and (xv == math.inf or xv == -math.inf):
            continue  # flagged: both NaN, or the same infinity
        else:
            finite = (lambda z: math.isfinite(z.real) and math.isfinite(z.imag)) if cplx else math.isfinite
            if finite(xv) and finite(yv):
                close = abs(xv - yv) <= atol + rtol * abs(yv)
            else:
                close = xv == yv
        if not close:
            positions.append(i)
            if xn or yn:
                nans += 1
            elif isinf(xv) or isinf(yv):
                infs += 1
    return positions, nans, infs


def deviation_kind(actual, desired):
    """Why NumPy's count can differ from the definition's, for the summary."""
    if actual.dtype.kind in "biu" and desired.dtype.kind in "biu":
        return "integers beyond 2**53 compared through float64"
    if "c" in (actual.dtype.kind, desired.dtype.kind) and \
            (np.isinf(actual).any() or np.isinf(desired).any()):
        return ("complex values with an infinite part (isclose's x * ones_like turns them into "
                "NaN: all close with equal_nan, none without)")
    return "NumPy computes float16/float32 pairs in those types"


def exact_answer(actual, desired):
    """(verdict, count or None) for --exact."""
    if actual.shape != desired.shape or actual.dtype.str != desired.dtype.str:
        return 1, None
    n = actual.size
    if n == 0:
        return 0, 0
    ab = np.ascontiguousarray(actual).view(np.uint8).reshape(n, -1)
    db = np.ascontiguousarray(desired).view(np.uint8).reshape(n, -1)
    count = int((ab != db).any(axis=1).sum())
    return (1 if count else 0), count


# ---------------------------------------------------------------------------------------------
# cases

class Tally:
    def __init__(self, verbose):
        self.passed = self.failed = self.skipped = 0
        self.deviations = []
        self.verbose = verbose

    def fail(self, argv, why):
        self.failed += 1
        print(f"FAIL {why}\n  $ {shlex.join(argv)}", flush=True)

    def result(self):
        return dict(passed=self.passed, failed=self.failed, skipped=self.skipped,
                    deviations=len(self.deviations))


def make_case(rng, nprng, folder, i):
    """One case: (argv tail, paths, expectation dict)."""
    r = rng.random()
    tok_d, fortran = gt.case_cell(i)  # every (dtype, order) of DESIRED in 100 cases
    tok_a = tok_d if rng.random() < 0.6 else rng.choice(gt.DTYPE_TOKENS)
    shape = rng.choice(SHAPES)
    if rng.random() < 0.015:  # big enough for strider's threads
        shape = (200, 301)
    shape_a = shape
    if r < 0.07:  # shapes that differ, or a 0-d side
        shape_a = rng.choice([(1,), (3,), (4, 3), (3, 4, 1), (), (0,)])
    rtol, atol = rng.choice(RTOLS), rng.choice(ATOLS)
    equal_nan = rng.random() > 0.2
    exact = 0.07 <= r < 0.17
    desired = gt.random_values(gt.token_dtype(tok_d), shape, nprng,
                               specials=rng.choice(["random", None]), raw=exact and rng.random() < 0.3)
    rt, at = (1e-7 if rtol is None else rtol), (0.0 if atol is None else atol)
    if shape_a != shape:
        base = gt.random_values(gt.token_dtype(tok_d), shape_a, nprng, specials=None)
        actual = perturb(rng, nprng, base, gt.token_dtype(tok_a), rt, at)
    elif exact:
        choice = rng.random()
        if choice < 0.3:
            actual = desired.copy()
        elif choice < 0.5:
            actual = desired.astype(desired.dtype.newbyteorder())  # same values, other bytes
        elif choice < 0.8 and desired.size:
            actual = desired.copy()
            raw = actual.reshape(-1).view(np.uint8)
            for _ in range(rng.randint(1, 3)):
                raw[rng.randrange(raw.size)] ^= 1 << rng.randrange(8)
        else:
            actual = perturb(rng, nprng, desired, gt.token_dtype(tok_a), rt, at)
    else:
        actual = perturb(rng, nprng, desired, gt.token_dtype(tok_a), rt, at)
    actual = with_order(rng, actual)
    desired = np.asfortranarray(desired) if fortran and desired.ndim > 1 else desired
    pa, pd = os.path.join(folder, f"a{i}.npy"), os.path.join(folder, f"d{i}.npy")
    np.save(pa, actual)
    np.save(pd, desired)
    opts = []
    if rtol is not None:
        opts += rng.choice([["--rtol", repr(rtol)], [f"--rtol={rtol!r}"]])
    if atol is not None:
        opts += rng.choice([["--atol", repr(atol)], [f"--atol={atol!r}"]])
    if not equal_nan:
        opts += ["--equal-nan=false"]
    elif rng.random() < 0.1:
        opts += ["--equal-nan=true"]
    if exact:
        opts += ["--exact"]
    if rng.random() < 0.2:
        opts += ["--threads", str(rng.randint(1, 4))]
    as_json = rng.random() < 0.6
    if as_json:
        opts += ["--json"]
    show = 0
    if not exact and rng.random() < 0.4:
        show = rng.choice([1, 2, 3, 5, 8])
        opts += rng.choice([["--show", str(show)], [f"--show={show}"]])
    want = dict(json=as_json, exact=exact, dtype_pair=(actual.dtype.str, desired.dtype.str),
                cell=(tok_d, fortran and desired.ndim > 1))
    if show:
        # --show's list, by the definition: the first `show` mismatches in C order.
        m = definition_mismatches(actual, desired, rt, at, equal_nan)
        if m is not None:
            shape = np.broadcast_shapes(actual.shape, desired.shape)
            first = [list(np.unravel_index(p, shape)) if shape else [] for p in m[0][:show]]
            want["show"] = dict(n=show, first=[[int(i) for i in ix] for ix in first], total=len(m[0]),
                                nans=m[1], infs=m[2], zero_d=shape == ())
    if exact:
        want["verdict"], want["count"] = exact_answer(actual, desired)
        want["line"] = None
    else:
        verdict, count, line, msg = numpy_answer(actual, desired, rt, at, equal_nan)
        defined = definition_count(actual, desired, rt, at, equal_nan)
        want.update(verdict=verdict, count=count, line=line, msg=msg)
        if defined is None:
            want["reason"] = "shape mismatch"  # NumPy refuses the shapes, with no count
        elif count is None:
            want["count"] = defined  # a location mismatch: NumPy stops before counting
            want["reason"] = "location mismatch"
        elif count != defined:
            want["deviation"] = deviation_kind(actual, desired)
            want.update(verdict=int(defined > 0), count=defined, line=None)
    args = opts + [pa, pd] if rng.random() < 0.5 else [pa, pd] + opts
    return args, want


def error_cases(folder):
    """(argv tail, why) pairs that must exit 2."""
    ok = os.path.join(folder, "ok.npy")
    np.save(ok, np.arange(3.0))
    bad = sorted((REPO / "testdata" / "malformed").glob("*.npy"))
    cases = [([ok, os.path.join(folder, "missing.npy")], "missing file"),
             (["-", "-"], "standard input twice"),
             ([ok], "one argument"),
             ([ok, ok, "--rtol", "abc"], "a tolerance that is not a number"),
             ([ok, ok, "--atol", "-1"], "a negative tolerance"),
             ([ok, ok, "--show", "-1"], "a negative --show"),
             ([ok, ok, "--show", "2", "--exact"], "--show with --exact")]
    for b in bad[:3]:
        cases.append(([ok, str(b)], f"malformed {b.name}"))
    return cases


def check(strider, args, want):
    """Runs one case; returns (argv, failure or None, note)."""
    argv = [strider, "compare"] + args
    try:
        p = subprocess.run(argv, capture_output=True, timeout=60, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return argv, "timed out"
    out, err = p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")
    if p.returncode not in (0, 1):
        return argv, f"exit {p.returncode}: {err.strip()}"
    if err:
        return argv, f"stderr not empty: {err[:200]!r}"
    if p.returncode != want["verdict"]:
        return argv, (f"exit {p.returncode}, want {want['verdict']} "
                      f"(NumPy: {want.get('msg', '').strip()[:300]!r}; strider: {out[:300]!r})")
    # The --as-numpy script runs NumPy's assert_allclose: where strider deviates from NumPy by
    # design (docs/behaviour.md: exact integers, complex infinities), their verdicts differ.
    why = None if "deviation" in want else selfcheck.check_verdict(strider, ["compare"] + args, p.returncode)
    if why:
        return argv, why
    if want["json"]:
        try:
            rep = json.loads(out)
        except ValueError:
            return argv, f"--json output is not one JSON object: {out[:200]!r}"
        if rep.get("equal") != (want["verdict"] == 0):
            return argv, f"json equal={rep.get('equal')} with exit {p.returncode}"
        if want["count"] is not None and rep.get("mismatched") != want["count"]:
            return argv, f"json mismatched={rep.get('mismatched')}, want {want['count']}"
        if "reason" in want and want["reason"] not in (rep.get("reason") or ""):
            return argv, f"json reason {rep.get('reason')!r}, want {want['reason']!r}"
        if "show" in want:
            s = want["show"]
            got = [e["index"] for e in rep.get("mismatches") or []]
            if got != s["first"]:
                return argv, f"json mismatches at {got}, want the first {s['n']}: {s['first']}"
            if (rep.get("nan_mismatched"), rep.get("inf_mismatched")) != (s["nans"], s["infs"]):
                return argv, (f"json nan/inf mismatches {rep.get('nan_mismatched')}/"
                              f"{rep.get('inf_mismatched')}, want {s['nans']}/{s['infs']}")
        return argv, None
    if want["verdict"] == 0:
        return argv, (f"equal, but stdout is not empty: {out[:200]!r}" if out else None)
    if want["line"] is not None and want["line"] not in out:
        return argv, f"NumPy's {want['line']!r} is not in strider's report: {out[:400]!r}"
    if want["count"] is not None and not want["exact"]:
        m = MISMATCH_LINE.search(out)
        if not m or int(m.group(1)) != want["count"]:
            return argv, f"report does not count {want['count']} mismatches: {out[:400]!r}"
    if "show" in want:
        why = check_show_text(out, want["show"])
        if why:
            return argv, why
    if want["line"] and set(want["dtype_pair"]) <= {"<f8", ">f8"}:
        for key in ("Max absolute difference: ", "Max relative difference: "):
            theirs = [l for l in want["msg"].splitlines() if l.startswith(key)]
            if theirs and theirs[0] not in out.splitlines():
                return argv, f"NumPy's {theirs[0]!r} is not in strider's report: {out[:400]!r}"
    return argv, None


def check_show_text(out, s):
    """--show's list in the text report, laid out as NumPy 2.4 lists mismatches."""
    lines = out.splitlines()
    items = [l for l in lines if re.match(r"^ \[[-0-9, ]*\]: .* \(ACTUAL\), .* \(DESIRED\), abs .*, rel .*$", l)]
    if s["zero_d"] or not s["first"]:
        return f"a list where NumPy has none: {items}" if items else None
    got = [[int(i) for i in re.match(r"^ \[([-0-9, ]*)\]", l).group(1).split(", ")] for l in items]
    if got != s["first"]:
        return f"text lists {got}, want the first {s['n']}: {s['first']}"
    k, total = len(s["first"]), s["total"]
    head = ("Mismatch at index:" if total == 1 else "Mismatch at indices:" if total <= k else
            "First mismatch is at index:" if k == 1 else f"First {k} mismatches are at indices:")
    at = lines.index(items[0]) - 1
    if lines[at] != head:
        return f"the list's heading is {lines[at]!r}, want {head!r}"
    counts = f"Of which with a NaN: {s['nans']}, with an infinity: {s['infs']}"
    if bool(s["nans"] or s["infs"]) != (counts in lines):
        return f"NaN/infinity count line: want {counts!r} exactly when either is nonzero: {out[:400]!r}"
    return None


def check_error(strider, args, why):
    argv = [strider, "compare"] + args
    p = subprocess.run(argv, capture_output=True, timeout=60, stdin=subprocess.DEVNULL)
    err = p.stderr.decode(errors="replace")
    lines = err.splitlines()
    if p.returncode != 2:
        return argv, f"{why}: exit {p.returncode}, want 2 ({err.strip()!r})"
    if len(lines) != 1 or not lines[0].startswith("strider: compare: ") or "panic" in err:
        return argv, f"{why}: error output is not one 'strider: compare: ' line: {err!r}"
    if p.stdout:
        return argv, f"{why}: wrote to stdout: {p.stdout[:100]!r}"
    return argv, None


def run(strider, cases=1500, seed=0, verbose=False, workers=3):
    """Runs `cases` random comparisons and the error cases; returns dict(passed, failed,
    skipped, deviations)."""
    if not Path(strider).exists():
        raise FileNotFoundError(f"no strider binary at {strider}")
    rng = random.Random(seed)
    nprng = np.random.default_rng(seed)
    tally = Tally(verbose)
    keep = tempfile.mkdtemp(prefix="parity_compare_", dir=RUN_TMP)
    jobs = [make_case(rng, nprng, keep, i) for i in range(cases)]
    missing = gt.case_cells_missing("compare", {want["cell"] for _, want in jobs}, cases)
    if missing:
        tally.failed += 1
        print(missing, flush=True)
    with concurrent.futures.ThreadPoolExecutor(workers) as pool:
        futures = [pool.submit(check, strider, args, want) for args, want in jobs]
        errors = [pool.submit(check_error, strider, args, why) for args, why in error_cases(keep)]
        for (args, want), fut in zip(jobs, futures):
            argv, why = fut.result()
            if why is not None:
                tally.fail(argv, why)
                continue
            tally.passed += 1
            if "deviation" in want:
                tally.deviations.append((want["deviation"], want["dtype_pair"]))
            if verbose:
                print(f"ok   exit {want['verdict']} count {want['count']} "
                      f"{'exact ' if want['exact'] else ''}{want['dtype_pair']} {shlex.join(args)}")
        for fut in errors:
            argv, why = fut.result()
            if why is None:
                tally.passed += 1
            else:
                tally.fail(argv, why)
    if tally.deviations:
        kinds = {}
        for what, pair in tally.deviations:
            kinds.setdefault(what, set()).add(pair)
        for what, pairs in sorted(kinds.items()):
            n = sum(1 for w, _ in tally.deviations if w == what)
            print(f"deviation from NumPy ({n} cases): {what}; dtype pairs "
                  + ", ".join("/".join(p) for p in sorted(pairs)))
    if tally.failed:
        print(f"(files kept in {keep})")
    else:
        shutil.rmtree(keep, ignore_errors=True)
    return tally.result()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--strider", default="./strider", help="the strider binary")
    ap.add_argument("--cases", type=int, default=1500, help="random comparisons")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=3, help="strider processes at a time")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    start = time.time()
    try:
        res = run(args.strider, cases=args.cases, seed=args.seed, verbose=args.verbose,
                  workers=args.workers)
    except FileNotFoundError as e:
        print(f"parity_compare: {e}", file=sys.stderr)
        return 2
    print(f"compare: {res['passed']} passed, {res['failed']} failed, {res['skipped']} skipped "
          f"({res['deviations']} deviations from NumPy; {time.time() - start:.0f}s)")
    return 1 if res["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
