#!/usr/bin/python3
"""Parity check for `strider to-text IN` against np.savetxt and json.dumps(a.tolist()).

    go build -o /tmp/strider . && /usr/bin/python3 scripts/parity_to_text.py --strider /tmp/strider

Arrays: every dtype of CLI.md in both byte orders, C and Fortran order, 0-d, empty, 1-d, 2-d
and 3-d shapes, with NaN/inf/-0.0 or raw bit patterns. Options, sampled per case: --fmt (the
default '%.18e', or random Python %-formats: d i u x X o e E f F g G s r, flags - + space # 0,
widths, precisions, literal text and %%, a whole-row format with one conversion per column, and
malformed ones), --delimiter / --csv, --newline, --header / --footer with newlines, --comments,
--json, -o or standard output.

The reference is np.savetxt(io.StringIO(), a, ...) (UTF-8 encoded) or json.dumps(a.tolist()).
Where NumPy raises (0-d or 3-d arrays, a fmt with the wrong number of conversions, %x of a
float, %d of NaN, json of complex), strider must exit 2 with one "strider: to-text: " line,
write nothing to stdout and leave no output file.
"""

import argparse
import concurrent.futures
import io
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
import selfcheck  # noqa: E402 - sibling module
import gen_testdata as gt  # noqa: E402 - sibling module

SHAPES = [(), (0,), (1,), (5,), (3, 4), (4, 1), (0, 3), (3, 0), (2, 3, 2), (40, 30)]
RUN_TMP = os.environ.get("PARITY_TMPDIR") or ("/dev/shm" if os.access("/dev/shm", os.W_OK) else None)
BAD_FMTS = ["%", "%y", "%.3", "abc%", "%(a)s", "%*d", "%k"]


def random_spec(rng, kind):
    """One random conversion, mostly suited to the dtype kind."""
    if kind in "biu" and rng.random() < 0.5:
        conv = rng.choice("diuxXoc")  # %c: the character (NumPy refuses a negative or past 0x10ffff)
    else:
        conv = rng.choice("eEfFgGsrdic" if kind in "fc" else "eEfFgGsr")
    flags = "".join(rng.sample("-+ #0", rng.randint(0, 2)))
    width = str(rng.randint(1, 25)) if rng.random() < 0.4 else ""
    prec = "." + str(rng.randint(0, 20)) if rng.random() < 0.5 else ""
    return "%" + flags + width + prec + conv


def random_fmt(rng, kind, ncol):
    r = rng.random()
    if r < 0.25:
        return None  # the default
    if r < 0.3:
        return rng.choice(BAD_FMTS)
    if r < 0.4 and ncol:
        n = ncol * (2 if kind == "c" else 1)
        return rng.choice([",", "\t", " | "]).join(random_spec(rng, kind) for _ in range(n))
    pre = rng.choice(["", "", "x=", "[", "%% "])
    return pre + random_spec(rng, kind) + rng.choice(["", "", "%%", "]"])


def reference(a, opts):
    try:
        if opts.get("json"):
            return json.dumps(a.tolist()).encode()
        buf = io.StringIO()
        kw = {k: v for k, v in opts.items() if k in ("fmt", "delimiter", "newline", "header",
                                                        "footer", "comments")}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            np.savetxt(buf, a, **kw)
        return buf.getvalue().encode()
    except Exception as e:  # noqa: BLE001 - a refusal is an answer too
        return e


def argv_for(strider, path, opts, out):
    argv = [strider, "to-text", path]
    for k, v in opts.items():
        if k == "json":
            argv.append("--json")
        elif k == "delimiter" and v == "," and opts.get("_csv"):
            argv.append("--csv")
        elif not k.startswith("_"):
            argv.append(f"--{k}={v}")
    if out:
        argv += ["-o", out]
    return argv


def run_case(strider, path, a, opts, seed, tmp_root):
    rng = random.Random(seed)
    want = reference(a, opts)
    with tempfile.TemporaryDirectory(dir=tmp_root) as tmp:
        out = os.path.join(tmp, "out.txt") if rng.random() < 0.5 else None
        argv = argv_for(strider, path, opts, out)
        p = subprocess.run(argv, capture_output=True, timeout=60)
        left = os.listdir(tmp)
        if isinstance(want, Exception):
            lines = p.stderr.decode(errors="replace").splitlines()
            if p.returncode != 2:
                return argv, f"NumPy refuses ({type(want).__name__}: {want}); strider exits {p.returncode}"
            if len(lines) != 1 or not lines[0].startswith("strider: to-text: "):
                return argv, f"error output is not one 'strider: to-text: ' line: {lines!r}"
            if p.stdout or left:
                return argv, f"refused but wrote output ({len(p.stdout)} bytes, files {left})"
            # The printed --as-numpy script must refuse too.
            return argv, selfcheck.check_refused(argv[0], argv[1:], None, out)
        if p.returncode != 0 or p.stderr:
            return argv, f"exit {p.returncode}: {p.stderr.decode(errors='replace').strip()}"
        got = Path(out).read_bytes() if out else p.stdout
        if got != want:
            i = next((k for k in range(min(len(got), len(want))) if got[k] != want[k]), min(len(got), len(want)))
            return argv, f"differs at byte {i}: {got[max(0, i - 30):i + 30]!r} / NumPy {want[max(0, i - 30):i + 30]!r}"
        # The printed --as-numpy script must write the same text.
        return argv, selfcheck.check(argv[0], argv[1:], None, out, out is None, got)


def run(strider, cases=300, seed=0, verbose=False, workers=3):
    if not Path(strider).exists():
        raise FileNotFoundError(f"no strider binary at {strider}")
    rng = random.Random(seed)
    nprng = np.random.default_rng(seed)
    keep = tempfile.mkdtemp(prefix="parity_to_text_", dir=RUN_TMP)
    jobs = []
    cells = set()
    for i in range(cases):
        shape = SHAPES[i % len(SHAPES)]
        token, fortran = gt.case_cell(i, len(SHAPES))  # every (dtype, order) in 100 cases
        cells.add((token, fortran and len(shape) > 1))
        dt = gt.token_dtype(token)
        a = gt.random_values(dt, shape, nprng, specials=rng.choice([None, "random"]),
                             raw=rng.random() < 0.1)
        if dt.kind in "fc" and rng.random() < 0.3:  # shorter numbers too
            with np.errstate(all="ignore"):
                a = (np.round(a.astype(np.complex128 if dt.kind == "c" else np.float64), 2)).astype(dt)
        if fortran:
            a = np.asfortranarray(a)
        path = os.path.join(keep, f"t{i}_{token}.npy")
        np.save(path, a)
        opts = {}
        if rng.random() < 0.15:
            opts["json"] = True
        else:
            ncol = a.shape[1] if a.ndim == 2 else 1
            fmt = random_fmt(rng, dt.kind, ncol)
            if fmt is not None:
                opts["fmt"] = fmt
            r = rng.random()
            if r < 0.2:
                opts["delimiter"], opts["_csv"] = ",", True
            elif r < 0.4:
                opts["delimiter"] = rng.choice(["\t", ";", "  ", ", "])
            if rng.random() < 0.1:
                opts["newline"] = rng.choice(["\r\n", ";\n", "|"])
            if rng.random() < 0.2:
                opts["header"] = rng.choice(["a b c", "two\nlines", "x"])
            if rng.random() < 0.15:
                opts["footer"] = rng.choice(["end", "f\noot"])
            if rng.random() < 0.15:
                opts["comments"] = rng.choice(["#", "% ", "// "])
        jobs.append((path, a, opts, rng.randrange(2**32)))
    passed = failed = 0
    missing = gt.case_cells_missing("to-text", cells, cases)
    if missing:
        failed += 1
        print(missing, flush=True)
    with concurrent.futures.ThreadPoolExecutor(workers) as pool:
        futs = [pool.submit(run_case, strider, p, a, o, s, keep) for p, a, o, s in jobs]
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
    ap.add_argument("--cases", type=int, default=300)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    start = time.time()
    res = run(args.strider, cases=args.cases, seed=args.seed, verbose=args.verbose)
    print(f"to-text: {res['passed']} passed, {res['failed']} failed, {res['skipped']} skipped "
          f"({time.time() - start:.0f}s)")
    return 1 if res["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
