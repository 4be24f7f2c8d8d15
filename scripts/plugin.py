"""What the parity plug-ins of issue 17's commands share: running the cases on a few threads,
reporting each failure with the command that reproduces it, and the command line.

A plug-in defines make_case(rng, i, keep) -> case and run_case(strider, case, keep) ->
(argv, None | why), and calls run_cases from its run() and main(name, run, cases) from its
__main__ block.
"""

import argparse
import concurrent.futures
import os
import random
import shlex
import shutil
import tempfile
import threading
import warnings
from pathlib import Path

import selfcheck  # sibling module


class _OneAtATime(warnings.catch_warnings):
    """warnings.catch_warnings, one block at a time in the process. A block swaps the process's
    warning filters and showwarning, so two threads' blocks interleaved record a warning in the
    other's list, or ignore one the other records: a NumPy reference then warns what it did
    not (parity_reduce failed 1 case in 3 runs of the same seed so). The plug-ins' cases run
    on threads; every block in them is held under this lock while it runs."""

    _lock = threading.RLock()

    def __enter__(self):
        self._lock.acquire()
        try:
            return super().__enter__()
        except BaseException:
            self._lock.release()
            raise

    def __exit__(self, *exc):
        try:
            return super().__exit__(*exc)
        finally:
            self._lock.release()


warnings.catch_warnings = _OneAtATime

RUN_TMP = os.environ.get("PARITY_TMPDIR") or ("/dev/shm" if os.access("/dev/shm", os.W_OK) else None)


def run_cases(name, strider, cases, seed, make_case, run_case, workers=3):
    """Makes `cases` cases with a Random(seed) in a scratch folder, runs them, prints a FAIL
    line and the command for each failure; returns dict(passed, failed, skipped). The folder
    is kept (and named) when anything failed."""
    if not Path(strider).exists():
        raise FileNotFoundError(f"no strider binary at {strider}")
    rng = random.Random(seed)
    keep = tempfile.mkdtemp(prefix=f"parity_{name.replace('-', '_')}_", dir=RUN_TMP)
    passed = failed = 0
    try:
        jobs = [make_case(rng, i, keep) for i in range(cases)]
        with concurrent.futures.ThreadPoolExecutor(workers) as pool:
            results = list(pool.map(lambda c: run_case(strider, c, keep), jobs))
        for argv, why in results:
            if why:
                failed += 1
                print(f"FAIL {why}\n  $ {shlex.join(argv)}", flush=True)
            else:
                passed += 1
    finally:
        if not failed:
            shutil.rmtree(keep, ignore_errors=True)
        else:
            print(f"{name}: arrays kept in {keep}")
    return dict(passed=passed, failed=failed, skipped=0)


def main(name, doc, run, cases):
    """The plug-in's own command line: --strider, --cases, --seed, -v."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("--strider", default=str(Path(__file__).resolve().parent.parent / "strider"))
    ap.add_argument("--cases", type=int, default=cases)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    r = run(args.strider, cases=args.cases, seed=args.seed, verbose=args.verbose)
    print(f"{name}: %(passed)d passed, %(failed)d failed, %(skipped)d skipped" % r)
    return 1 if r["failed"] else 0


def refusal(strider, args, p, prefix, outs, numpy_said):
    """None when strider refused a case NumPy refuses as the contract asks: exit 2, one stderr
    line starting with prefix, none of outs written, and a printed script that fails too;
    else why not. p is strider's finished run (subprocess.run with capture_output)."""
    lines = p.stderr.decode(errors="replace").splitlines()
    if p.returncode != 2 or len(lines) != 1 or not lines[0].startswith(prefix):
        return f"NumPy refused ({numpy_said}); strider exit {p.returncode}, stderr {lines!r}"
    if any(os.path.exists(o) for o in outs):
        return "strider refused but left an output file"
    return selfcheck.check_refused(strider, args, None, outs[0])
