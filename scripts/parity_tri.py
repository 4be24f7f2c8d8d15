#!/usr/bin/python3
"""Parity check for `strider tril-indices` and `strider triu-indices`.

    go build -o /tmp/strider-tri . && /usr/bin/python3 scripts/parity_tri.py --strider /tmp/strider-tri
    /usr/bin/python3 scripts/parity_tri.py --strider ./strider --cases 2000 --seed 1

The interpreter needs numpy and torch; /usr/bin/python3 has both ($PYTHON in shell scripts).

For every random (rows, cols, offset) triple (edges included: 0 and 1, offsets at +-rows,
+-cols and one past them, offsets far outside up to the int64 limits) the binary runs for
tril and triu, int64 and int32, with the options in varied forms (before or after the sizes,
`--offset=K`, `-k K`, COLS left out when it equals ROWS, output to a file or standard output).
Its output must be byte for byte numpy.save of

    torch.tril_indices(rows, cols, offset).numpy()           (.astype('<i4') for int32)
    np.stack(np.tril_indices(rows, offset, cols))            (likewise)

(triu the same way). A few large shapes (20000 x 15000) run one at a time and are compared in
chunks. Error cases (negative sizes, non-integers, a bad --dtype) must exit 2 with one stderr
line starting `strider: tril-indices: ` (or triu) and leave no output file, or an existing one
untouched.

When the two references disagree, or one of them refuses an offset (torch overflows near
offset +-2**63, numpy's arange past it), the case is compared with the definition evaluated in
Python integers, and each library that strayed from it is listed at the end ("deviations").

Output: one FAIL line per failure with the command to reproduce it, then a summary. Exit status
0 when nothing failed, 1 otherwise, 2 for bad usage.
"""

import argparse
import concurrent.futures
import io
import os
import random
import shlex
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import selfcheck  # noqa: E402 - sibling module

INT64_MAX = 2**63 - 1
INT64_MIN = -(2**63)
DTYPES = {"int64": "<i8", "int32": "<i4"}
SENTINEL = b"sentinel: strider must not touch this file\n"
CHUNK = 1 << 26  # bytes per comparison step for the large cases
# Cases run in folders in memory where there is such a place: creating, mapping and
# renaming thousands of files costs several times more on a disk.
RUN_TMP = os.environ.get("PARITY_TMPDIR") or ("/dev/shm" if os.access("/dev/shm", os.W_OK) else None)


def npy_bytes(a):
    buf = io.BytesIO()
    np.save(buf, np.ascontiguousarray(a))
    return buf.getvalue()


def reference(lib, op, rows, cols, offset, dtype="int64"):
    """The (2, N) result from torch or numpy, or the exception it raised."""
    try:
        if lib == "torch":
            fn = torch.tril_indices if op == "tril" else torch.triu_indices
            a = fn(rows, cols, offset).numpy()
        else:
            fn = np.tril_indices if op == "tril" else np.triu_indices
            a = np.stack(fn(rows, offset, cols))
        return a.astype(DTYPES[dtype])
    except Exception as e:  # noqa: BLE001 - a refusal is an answer too
        return e


def edge_offsets(rows, cols):
    return [0, 1, -1, rows, -rows, cols, -cols, rows - 1, 1 - rows, cols - 1, 1 - cols,
            rows + 1, -rows - 1, cols + 1, -cols - 1, cols - rows, rows - cols,
            10**6, -10**6, 10**12, -10**12, 2**62, -2**62, 9 * 10**18, -9 * 10**18,
            INT64_MAX, INT64_MIN, INT64_MIN + 1]


def make_triples(n, rng):
    """n (rows, cols, offset) triples: every small edge first, then random ones."""
    out = []
    for rows in (0, 1, 2, 3):
        for cols in (0, 1, 2, 5):
            for k in (0, 1, -1, rows, -rows, cols, -cols, rows + 1, -rows - 1, cols + 1, -cols - 1):
                out.append((rows, cols, k))
    for k in (INT64_MAX, INT64_MIN, 9 * 10**18, -9 * 10**18, 2**62, -2**62, 10**12, -10**12):
        out.append((rng.randint(1, 40), rng.randint(1, 40), k))
    while len(out) < n:
        if rng.random() < 0.1:
            rows, cols = rng.randint(0, 600), rng.randint(0, 600)
        else:
            rows, cols = rng.randint(0, 40), rng.randint(0, 40)
        if rng.random() < 0.1:
            cols = rows
        if rng.random() < 0.3:
            k = rng.choice(edge_offsets(rows, cols))
        else:
            k = rng.randint(-rows - 3, cols + 3)
        out.append((rows, cols, k))
    return out


def command(strider, op, rows, cols, offset, dtype, out, rng):
    """An argument list with the options in a random but equivalent form."""
    pos = [str(rows)] if cols == rows and rng.random() < 0.5 else [str(rows), str(cols)]
    opts = []
    if offset != 0 or rng.random() < 0.5:
        opts += rng.choice([["--offset", str(offset)], [f"--offset={offset}"], ["-k", str(offset)]])
    if dtype != "int64" or rng.random() < 0.5:
        opts += ["--dtype", rng.choice([dtype, DTYPES[dtype]])]
    if out is not None:
        opts += ["-o", out]
    if rng.random() < 0.3:
        opts += ["--threads", str(rng.randint(1, 4))]
    args = opts + pos if rng.random() < 0.5 else pos + opts
    return [strider, f"{op}-indices"] + args


class Tally:
    """Counts, and the reference deviations as (lib, kind, op, offset, rows, cols, detail)."""

    def __init__(self):
        self.passed = self.failed = self.skipped = 0
        self.deviations = []

    def fail(self, argv, why):
        self.failed += 1
        print(f"FAIL {why}\n  $ {shlex.join(argv)}", flush=True)

    def result(self):
        return dict(passed=self.passed, failed=self.failed, skipped=self.skipped,
                    deviations=len(set(self.deviations)))


def exact(op, rows, cols, offset):
    """The definition in Python integers, for when the libraries disagree: the pairs (r, c)
    with c - r <= offset (tril) or >= offset (triu), in row-major order."""
    pairs = [(r, c) for r in range(rows) for c in range(cols)
             if (c - r <= offset if op == "tril" else c - r >= offset)]
    return np.array([[r for r, _ in pairs], [c for _, c in pairs]], dtype=np.int64).reshape(2, -1)


def expected(tally, op, rows, cols, offset):
    """The int64 array strider must write. When torch and numpy agree, theirs; when they
    differ or one refuses, the definition's (exact), with a deviation recorded for each
    library that strayed from it; None when the case is out of reach of all three."""
    refs = {lib: reference(lib, op, rows, cols, offset) for lib in ("torch", "numpy")}
    t, n = refs["torch"], refs["numpy"]
    if not isinstance(t, Exception) and not isinstance(n, Exception) and np.array_equal(t, n):
        return t
    if rows * cols > 10**6:
        return None
    want = exact(op, rows, cols, offset)
    for lib, a in refs.items():
        if isinstance(a, Exception):
            tally.deviations.append((lib, "refuses", op, offset, rows, cols,
                                     f"{type(a).__name__}: {a}"))
        elif not np.array_equal(a, want):
            tally.deviations.append((lib, "differs", op, offset, rows, cols,
                                     f"shape {a.shape}, the definition's {want.shape}"))
    return want


def run_case(strider, op, rows, cols, offset, dtype, seed):
    """Runs one case; returns (process, argv, output bytes or None, files left in its folder)."""
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory(prefix="parity_tri_", dir=RUN_TMP) as tmp:
        to_stdout = rng.random() < 0.2
        out = os.path.join(tmp, "out.npy")
        if to_stdout:
            out = "-" if rng.random() < 0.5 else None
        argv = command(strider, op, rows, cols, offset, dtype, out, rng)
        p = subprocess.run(argv, capture_output=True, timeout=60)
        left = sorted(os.listdir(tmp))
        got = p.stdout
        if not to_stdout and "out.npy" in left:
            got = Path(out).read_bytes()
        script = None
        if p.returncode == 0 and (to_stdout or "out.npy" in left):
            # The printed --as-numpy script must compute the same bytes.
            script = selfcheck.check(argv[0], argv[1:], None, out, to_stdout, got)
        return p, argv, to_stdout, got, left, script


def small_case(strider, tally, lock, op, rows, cols, offset, dtypes, seed):
    """Runs strider on one (op, rows, cols, offset) for each dtype."""
    found = Tally()
    want = expected(found, op, rows, cols, offset)
    results = []
    for i, dtype in enumerate(dtypes):
        p, argv, to_stdout, got, left, script = run_case(strider, op, rows, cols, offset, dtype, seed + i)
        results.append((dtype, p, argv, to_stdout, got, left, script))
    with lock:
        tally.deviations += found.deviations
        for dtype, p, argv, to_stdout, got, left, script in results:
            if want is None:
                tally.skipped += 1
            elif p.returncode != 0:
                tally.fail(argv, f"exit {p.returncode}: {p.stderr.decode(errors='replace').strip()}")
            elif p.stderr:
                tally.fail(argv, f"stderr not empty: {p.stderr[:200]!r}")
            elif not to_stdout and p.stdout:
                tally.fail(argv, "wrote to standard output with -o FILE")
            elif left != ([] if to_stdout else ["out.npy"]):
                tally.fail(argv, f"left files {left}")
            elif got != npy_bytes(want.astype(DTYPES[dtype])):
                tally.fail(argv, f"output differs from the reference ({len(got)} bytes)")
            elif script:
                tally.fail(argv, script)
            else:
                tally.passed += 1


def error_cases(rng):
    """(op, argv tail, message fragment or None) that must be refused."""
    out = []
    for op in ("tril", "triu"):
        out += [
            (op, ["-3"], "-3"), (op, ["3", "-4"], "-4"), (op, ["-1", "-1"], "-1"),
            (op, ["-5", "--offset", "2"], "-5"), (op, ["--offset", "-2", "--", "-7"], "-7"),
            (op, [str(INT64_MIN)], str(INT64_MIN)), (op, ["3x"], "3x"), (op, ["3", "4", "5"], None),
            (op, [], None), (op, ["3", "--dtype", "float32"], "float32"),
            (op, ["3", "--dtype", ">i8"], ">i8"), (op, ["3", "--offset", "x"], "x"),
            (op, ["99999999999999999999"], "99999999999999999999"),
            (op, ["3000000000", "--dtype", "int32"], None),  # more than 2**40 bytes
        ]
        for _ in range(10):
            out.append((op, [str(-rng.randint(1, 10**6)), str(rng.randint(0, 50))], None))
            out.append((op, [str(rng.randint(0, 50)), str(-rng.randint(1, 10**6))], None))
    return out


def error_case(strider, tally, lock, op, tail, fragment, seed):
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory(prefix="parity_tri_", dir=RUN_TMP) as tmp:
        out = os.path.join(tmp, "out.npy")
        sentinel = rng.random() < 0.5
        if sentinel:
            Path(out).write_bytes(SENTINEL)
        argv = [strider, f"{op}-indices", "-o", out] + tail
        p = subprocess.run(argv, capture_output=True, timeout=60)
        err = p.stderr.decode(errors="replace")
        lines = err.splitlines()
        left = sorted(os.listdir(tmp))
        with lock:
            prefix = f"strider: {op}-indices: "
            if p.returncode != 2:
                tally.fail(argv, f"exit {p.returncode}, want 2 (stderr {err.strip()!r})")
            elif len(lines) != 1 or not lines[0].startswith(prefix) or "goroutine" in err:
                tally.fail(argv, f"stderr is not one line starting {prefix!r}: {err!r}")
            elif fragment is not None and fragment not in lines[0]:
                tally.fail(argv, f"message does not name {fragment!r}: {lines[0]!r}")
            elif p.stdout:
                tally.fail(argv, "wrote to standard output")
            elif sentinel and (left != ["out.npy"] or Path(out).read_bytes() != SENTINEL):
                tally.fail(argv, f"existing output changed (folder holds {left})")
            elif not sentinel and left:
                tally.fail(argv, f"output created on error: {left}")
            else:
                tally.passed += 1


# Large enough for many chunks per thread, small enough that the references (torch 1.13 fills
# on one thread; numpy builds a rows x cols mask) keep the whole run near a minute.
LARGE = [
    ("tril", 20000, 15000, -17000, "int64"),
    ("triu", 20000, 15000, 11000, "int32"),
    ("triu", 15000, 20000, 17000, "int64"),
]


def same_file(path, want):
    """Whether the file at path is exactly numpy.save(want), compared in chunks."""
    head = io.BytesIO()  # the header exactly as np.save writes it (version chosen the same way)
    np.lib.format._write_array_header(head, np.lib.format.header_data_from_array_1_0(want), None)
    head = head.getvalue()
    raw = np.ascontiguousarray(want).reshape(-1).view(np.uint8)
    if os.path.getsize(path) != len(head) + raw.size:
        return False
    with open(path, "rb") as f:
        if f.read(len(head)) != head:
            return False
        for at in range(0, raw.size, CHUNK):
            if f.read(CHUNK) != raw[at:at + CHUNK].tobytes():
                return False
    return True


def large_case(strider, tally, op, rows, cols, offset, dtype, verbose):
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="parity_tri_", dir=RUN_TMP) as tmp:
        out = os.path.join(tmp, "out.npy")
        argv = [strider, f"{op}-indices", str(rows), str(cols), "--offset", str(offset),
                "--dtype", dtype, "-o", out, "-q"]
        p = subprocess.run(argv, capture_output=True, timeout=120)
        t1 = time.perf_counter()
        if p.returncode != 0:
            tally.fail(argv, f"exit {p.returncode}: {p.stderr.decode(errors='replace').strip()}")
            return
        for lib in ("torch", "numpy"):
            want = reference(lib, op, rows, cols, offset, dtype)
            if isinstance(want, Exception):
                tally.skipped += 1
                tally.deviations.append((lib, "refuses", op, offset, rows, cols, str(want)))
            elif same_file(out, want):
                tally.passed += 1
            else:
                tally.fail(argv, f"large output differs from {lib}")
            del want
        if verbose:
            print(f"large {op} {rows}x{cols} k={offset} {dtype}: strider {t1 - t0:.2f}s, "
                  f"checked in {time.perf_counter() - t1:.2f}s", flush=True)


def report_deviations(devs, verbose):
    """One line per (library, kind, op, offset), with a count and one example; every case
    with verbose."""
    groups = {}
    for d in devs:
        groups.setdefault(d[:4], []).append(d)
    for (lib, kind, op, offset), ds in groups.items():
        if verbose:
            for d in ds:
                print(f"deviation: {lib} {kind} {op}({d[4]}, {d[5]}, {offset}): {d[6]}")
            continue
        _, _, _, _, rows, cols, detail = ds[0]
        print(f"deviation: {lib} {kind} {op}_indices with offset {offset} ({len(ds)} shapes, "
              f"e.g. ({rows}, {cols}): {detail})")


def run(strider, cases=500, seed=0, verbose=False, workers=3, large=True):
    """Runs the parity check; returns dict(passed=, failed=, skipped=, deviations=)."""
    rng = random.Random(seed)
    tally = Tally()
    lock = threading.Lock()
    t0 = time.perf_counter()
    jobs = []
    for rows, cols, offset in make_triples(cases, rng):
        for op in ("tril", "triu"):
            jobs.append((small_case, (op, rows, cols, offset, ("int64", "int32"), rng.getrandbits(62))))
    for op, tail, fragment in error_cases(rng):
        jobs.append((error_case, (op, tail, fragment, rng.getrandbits(64))))
    with concurrent.futures.ThreadPoolExecutor(workers) as pool:
        futures = [pool.submit(fn, strider, tally, lock, *args) for fn, args in jobs]
        for f in futures:
            f.result()
    if verbose:
        print(f"{len(jobs)} small and error cases in {time.perf_counter() - t0:.1f}s", flush=True)
    if large:
        for case in LARGE:
            large_case(strider, tally, *case, verbose)
    report_deviations(sorted(set(tally.deviations)), verbose)
    r = tally.result()
    print(f"tril/triu-indices: {r['passed']} passed, {r['failed']} failed, {r['skipped']} skipped, "
          f"{r['deviations']} reference deviations ({time.perf_counter() - t0:.1f}s)", flush=True)
    return r


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--strider", default="./strider", help="the strider binary")
    ap.add_argument("--cases", type=int, default=500, help="random (rows, cols, offset) triples")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=3, help="strider processes at a time")
    ap.add_argument("--no-large", action="store_true", help="skip the 20000 x 15000 cases")
    ap.add_argument("-v", "--verbose", action="store_true")
    a = ap.parse_args()
    if not os.access(a.strider, os.X_OK):
        print(f"parity_tri: no strider binary at {a.strider} (go build -o {a.strider} .)", file=sys.stderr)
        return 2
    r = run(os.path.abspath(a.strider), a.cases, a.seed, a.verbose, a.workers, not a.no_large)
    return 1 if r["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
