#!/usr/bin/python3
"""Parity check for `strider sort` against NumPy and PyTorch, byte for byte.

    go build -o /tmp/strider-sort . && /usr/bin/python3 scripts/parity_sort.py --strider /tmp/strider-sort
    /usr/bin/python3 scripts/parity_sort.py --strider ./strider --cases 2000 --seed 1 -v

As a module: run(strider, cases=1000, seed=0, verbose=False) -> dict(passed, failed, skipped),
counted per (case, library) check, with the per-library counts under "numpy" and "torch".

Every case writes a random array (every dtype of CLI.md in both byte orders, C or Fortran
order, NaNs with assorted payloads and signs, infinities, signed zeros, subnormals, heavy
duplicates; empty arrays; 0-d arrays, which must be refused) and runs the strider binary with a
random axis (negative too, sometimes out of range), --descending, --nans first|last, and one of:
values to -o (a file or standard output), values plus --indices FILE, or --argsort. Then:

- numpy: values must equal np.save(np.ascontiguousarray(ref)) byte for byte, where ref is
  np.sort(a, axis, kind='stable') ascending and np.take_along_axis(a, idx, axis) otherwise;
  idx is np.argsort(a, axis, kind='stable') ascending and, descending,
  n-1 - flip(argsort(flip(a, axis), axis, kind='stable'), axis); --nans moves the NaNs (a complex
  is NaN when either part is) to the front or back by a stable partition of that order. Indices
  are int64 '<i8'.
- torch: the same files against torch.sort(t, axis, descending, stable=True) values and indices
  (native byte order in torch, converted back), with the same stable partition for --nans.
  Dtypes torch 1.13 cannot sort (uint16/32/64, complex) count as skipped.
- refusals (0-d input, axis out of range) must exit 2 with one line "strider: sort: ..." on
  standard error and leave no output file; successes must exit 0 with nothing on standard error
  and leave nothing but the outputs in the case's folder (atomic writes).

A few cases have strips longer than 100,000 elements, so the parallel radix sort runs, and
half of those longer than 2**20, so its wide most-significant pass runs too.
Output: one FAIL line per failing check with a line to reproduce it (the temporary folder is
kept when anything fails), then one summary line per library. Exit status 0 when all passed.
"""

import argparse
import concurrent.futures
import io
import os
import shlex
import shutil
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import selfcheck  # noqa: E402 - sibling module

try:
    import torch
    torch.set_num_threads(1)  # the cases already run side by side
except ImportError:  # the numpy half still runs
    torch = None

KINDS = ["b1", "i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8", "f2", "f4", "f8", "c8", "c16"]
TORCH_LACKS = {"u2", "u4", "u8", "c8", "c16"}
RUN_TMP = os.environ.get("PARITY_TMPDIR") or ("/dev/shm" if os.access("/dev/shm", os.W_OK) else None)
LONG_EVERY = 150  # one case in this many has a strip over 100,000 elements
WIDE_MIN = 1 << 20  # ops.wideMin: strips this long take the wide MSD pass


# ---------------------------------------------------------------------------------------------
# random inputs

def float_bits(rng, size, n):
    """n random floats of `size` bytes as their unsigned bit patterns: a mix of normal values,
    small-integer duplicates, signed zeros, infinities, subnormals, NaNs with random payloads
    and signs, and raw random bits."""
    ut = np.dtype("u%d" % size)
    ft = np.dtype("f%d" % size)
    nbits = 8 * size
    sign = np.array(1 << (nbits - 1), dtype=np.uint64)
    inf = {2: 0x7C00, 4: 0x7F800000, 8: 0x7FF0000000000000}[size]
    mant = (1 << {2: 10, 4: 23, 8: 52}[size]) - 1
    choice = rng.integers(0, 10, n)
    raw = rng.integers(0, 1 << 63, n, dtype=np.uint64, endpoint=False) * np.uint64(2) + \
        rng.integers(0, 2, n, dtype=np.uint64)
    raw &= np.uint64((1 << nbits) - 1)
    signs = rng.integers(0, 2, n).astype(np.uint64) * sign
    normal = rng.standard_normal(n).astype(ft).view(ut).astype(np.uint64)
    small = (rng.integers(-3, 4, n).astype(ft) / 2).view(ut).astype(np.uint64)
    pay = (raw & np.uint64(mant)) | np.uint64(1)
    out = np.where(choice == 0, np.uint64(inf) | pay | signs, normal)  # NaN
    out = np.where(choice == 1, np.uint64(inf) | signs, out)  # +-inf
    out = np.where(choice == 2, signs, out)  # +-0
    out = np.where(choice == 3, (raw & np.uint64(7)) | signs, out)  # subnormal or zero
    out = np.where(choice == 4, small, out)
    out = np.where(choice == 5, raw, out)
    if rng.random() < 0.3:  # few NaNs and no odd bits: the keys-only fast path
        keep = choice >= 6
        out = np.where(keep | (choice == 4) | (choice == 1), out, small)
    return out.astype(ut)


def random_values(rng, kind, n):
    """n random native values of the kind ('f4', 'c16', ...)."""
    letter, size = kind[0], int(kind[1:])
    if letter == "b":
        return rng.integers(0, 2, n).astype(np.bool_)
    if letter in "iu":
        dt = np.dtype(kind)
        info = np.iinfo(dt)
        pool = rng.integers(info.min, info.max, 1 + rng.integers(0, 6), dtype=dt, endpoint=True)
        full = rng.integers(info.min, info.max, n, dtype=dt, endpoint=True)
        edges = np.array([info.min, info.max, 0, 1, info.max // 2], dtype=dt)
        pick = rng.integers(0, 4, n)
        out = np.where(pick == 0, pool[rng.integers(0, len(pool), n)], full)
        return np.where(pick == 1, edges[rng.integers(0, len(edges), n)], out).astype(dt)
    if letter == "f":
        bits = float_bits(rng, size, n)
        if rng.random() < 0.5:  # heavy duplicates
            pool = bits[rng.integers(0, max(n, 1), 1 + rng.integers(0, 5))] if n else bits
            dup = rng.random(n) < 0.5
            if n:
                bits = np.where(dup, pool[rng.integers(0, len(pool), n)], bits)
        return bits.view("f%d" % size)
    half = size // 2
    re = random_values(rng, "f%d" % half, n)
    im = random_values(rng, "f%d" % half, n)
    if rng.random() < 0.3:
        im = np.where(rng.random(n) < 0.5, re, im)
    out = np.empty(n, dtype="c%d" % size)
    pairs = out.view("f%d" % half).reshape(n, 2)
    pairs[:, 0], pairs[:, 1] = re, im
    return out


def random_shape(rng):
    r = rng.random()
    if r < 0.03:
        return ()
    ndim = int(rng.integers(1, 5))
    dims = []
    for _ in range(ndim):
        c = rng.random()
        if c < 0.05:
            dims.append(0)
        elif c < 0.15:
            dims.append(1)
        elif c < 0.25:
            dims.append(int(rng.integers(60, 200)))
        else:
            dims.append(int(rng.integers(2, 12)))
    while np.prod(dims) > 20000:
        dims[int(np.argmax(dims))] //= 2
    return tuple(dims)


def make_array(rng, kind, big, shape, fortran):
    """The array to save: native values, then byteswapped bit for bit when big endian."""
    n = int(np.prod(shape)) if shape else 1
    a = random_values(rng, kind, n).reshape(shape)
    if big and a.dtype.itemsize > 1:
        a = a.byteswap().view(a.dtype.newbyteorder(">"))
    return a.copy(order="F" if fortran else "C")  # keeps 0-d arrays 0-d


# ---------------------------------------------------------------------------------------------
# references

def nan_mask(x):
    if x.dtype.kind == "f":
        return np.isnan(x)
    if x.dtype.kind == "c":
        return np.isnan(x.real) | np.isnan(x.imag)
    return np.zeros(x.shape, dtype=bool)


def place_nans(a, idx, axis, nans):
    """Move the NaNs of take_along_axis(a, idx) to the front or back, stably."""
    if nans is None or a.size == 0:
        return idx
    mask = nan_mask(np.take_along_axis(a, idx, axis))
    key = np.where(mask, 0, 1) if nans == "first" else np.where(mask, 1, 0)
    perm = np.argsort(key, axis=axis, kind="stable")
    return np.take_along_axis(idx, perm, axis)


def numpy_reference(a, axis, descending, nans):
    """(values, indices) by NumPy as the module docstring says."""
    if descending:
        n = a.shape[axis]
        flipped = np.argsort(np.flip(a, axis), axis=axis, kind="stable")
        idx = (n - 1) - np.flip(flipped, axis)
    else:
        idx = np.argsort(a, axis=axis, kind="stable")
    idx = place_nans(a, idx, axis, nans)
    if not descending and nans is None:
        vals = np.sort(a, axis=axis, kind="stable")
    else:
        vals = np.take_along_axis(a, idx, axis)
    return vals, idx.astype("<i8")


def torch_reference(a, axis, descending, nans):
    if a.dtype.byteorder == ">":
        native = np.ascontiguousarray(a.byteswap().view(a.dtype.newbyteorder("<")))
    else:
        native = np.ascontiguousarray(a)
    t = torch.from_numpy(native)
    res = torch.sort(t, dim=axis, descending=descending, stable=True)
    idx = res.indices.numpy().astype(np.int64)
    vals = res.values.numpy()
    if nans is not None:
        idx = place_nans(native, idx, axis, nans)
        vals = np.take_along_axis(native, idx, axis)
    if a.dtype.byteorder == ">":
        vals = vals.byteswap().view(a.dtype)
    return vals, idx.astype("<i8")


def npy_bytes(x):
    buf = io.BytesIO()
    np.save(buf, np.ascontiguousarray(x))
    return buf.getvalue()


def describe_diff(got, want):
    if got == want:
        return ""
    try:
        g = np.load(io.BytesIO(got))
    except Exception as e:  # noqa: BLE001 - any unreadable output is the finding
        return "output is not a valid .npy (%s)" % e
    w = np.load(io.BytesIO(want))
    if g.dtype.str != w.dtype.str or g.shape != w.shape:
        return "got %s %s, want %s %s" % (g.dtype.str, g.shape, w.dtype.str, w.shape)
    gb = g.reshape(-1).view(np.uint8).reshape(g.size, -1)
    wb = w.reshape(-1).view(np.uint8).reshape(w.size, -1)
    bad = np.flatnonzero((gb != wb).any(axis=1))
    if len(bad) == 0:
        return "header bytes differ"
    i = int(bad[0])
    return "%d of %d elements differ; first at flat %d: got %r (%s), want %r (%s)" % (
        len(bad), w.size, i, g.reshape(-1)[i], gb[i].tobytes().hex(), w.reshape(-1)[i],
        wb[i].tobytes().hex())


# ---------------------------------------------------------------------------------------------
# one case

class Case:
    def __init__(self, index, seed, root):
        self.index = index
        self.rng = np.random.default_rng([seed, index])
        self.dir = os.path.join(root, "case%05d" % index)

    def build(self):
        rng = self.rng
        # Every kind, then both byte orders, then both memory orders, in turn: every 56
        # cases hold each (kind, byte order, C/F) once (F where the shape has 2 dims or more).
        n = len(KINDS)
        self.kind = KINDS[self.index % n]
        self.big = int(self.kind[1:]) > 1 and (self.index // n) % 2 == 1
        self.long = self.index % LONG_EVERY == LONG_EVERY - 1
        if self.long:
            # Every other long case passes 2**20, where one wide
            # most-significant pass splits the strip into buckets first.
            if (self.index // LONG_EVERY) % 2:
                n = int(rng.integers(WIDE_MIN + 1, WIDE_MIN + 400_000))
            else:
                n = int(rng.integers(100_001, 300_000))
            self.shape = (n,) if rng.random() < 0.6 else (2, n) if rng.random() < 0.5 else (n, 2)
        else:
            self.shape = random_shape(rng)
        self.fortran = len(self.shape) > 1 and (self.index // (2 * n)) % 2 == 1
        self.a = make_array(rng, self.kind, self.big, self.shape, self.fortran)
        ndim = len(self.shape)
        if self.long:
            long_axis = int(np.argmax(self.shape))
            self.axis = long_axis - ndim if rng.random() < 0.5 else long_axis
        elif ndim and rng.random() < 0.95:
            self.axis = int(rng.integers(-ndim, ndim))
        else:
            self.axis = int(rng.integers(-ndim - 2, ndim + 2))
        self.default_axis = self.axis == -1 and rng.random() < 0.5
        self.descending = rng.random() < 0.5
        self.nans = [None, None, "first", "last"][int(rng.integers(0, 4))]
        self.mode = ["values", "values", "both", "argsort"][int(rng.integers(0, 4))]
        self.to_stdout = self.mode != "both" and rng.random() < 0.2
        self.from_stdin = rng.random() < 0.1

    def args(self, strider):
        rng = self.rng
        opts = []
        if not self.default_axis:
            form = int(rng.integers(0, 3))
            if form == 0:
                opts += ["--axis", str(self.axis)]
            elif form == 1:
                opts += ["--axis=%d" % self.axis]
            else:
                opts += ["--dim", str(self.axis)]
        if self.descending:
            opts.append("--descending")
        if rng.random() < 0.2:
            opts.append("--stable")
        if self.nans:
            opts += ["--nans", self.nans]
        if self.mode == "argsort":
            opts.append("--argsort")
        if self.mode == "both":
            opts += ["--indices", os.path.join(self.dir, "idx.npy")]
        if not self.to_stdout:
            opts += ["-o", os.path.join(self.dir, "out.npy")]
        elif rng.random() < 0.5:
            opts += ["-o", "-"]
        if rng.random() < 0.3:
            opts.append("--quiet")
        if self.long:  # more threads than strips: the parallel radix sort
            opts += ["--threads", "4"]
        elif rng.random() < 0.2:
            opts += ["--threads", str(int(rng.integers(1, 5)))]
        inp = "-" if self.from_stdin else os.path.join(self.dir, "in.npy")
        if rng.random() < 0.5:
            return [strider, "sort", inp] + opts
        return [strider, "sort"] + opts + [inp]

    def run(self, strider):
        """Returns (label, repro, outcomes): outcomes maps lib to (status, reason)."""
        self.build()
        os.makedirs(self.dir)
        in_path = os.path.join(self.dir, "in.npy")
        np.save(in_path, self.a)
        argv = self.args(strider)
        stdin = open(in_path, "rb").read() if self.from_stdin else b""
        p = subprocess.run(argv, input=stdin, capture_output=True, timeout=120)
        label = "%s%s %s%s axis=%d%s%s%s %s" % (
            "big " if self.big else "", self.kind, self.shape, " F" if self.fortran else "",
            self.axis, " desc" if self.descending else "",
            " nans=" + self.nans if self.nans else "", " stdout" if self.to_stdout else "",
            self.mode)
        repro = "  $ " + shlex.join(argv) + (" < " + shlex.quote(in_path) if self.from_stdin else "")
        ndim = len(self.shape)
        refuses = ndim == 0 or not -ndim <= self.axis < ndim
        if refuses:
            verdict = self.judge_refusal(p)
            if verdict[0] == "pass":
                # The printed --as-numpy script must refuse too.
                why = selfcheck.check_refused(argv[0], argv[1:], stdin if self.from_stdin else None,
                                              None if self.to_stdout else os.path.join(self.dir, "out.npy"))
                if why:
                    verdict = ("fail", why)
            return label, repro, {"numpy": verdict}
        files = {"in.npy"}
        got_vals = got_idx = None
        problems = []
        if p.returncode != 0:
            err = p.stderr.decode(errors="replace").strip()
            problems.append("exit %d: %s" % (p.returncode, err[:300]))
        else:
            if p.stderr:
                problems.append("stderr not empty: %r" % p.stderr[:200])
            main = p.stdout if self.to_stdout else self.read("out.npy", problems)
            if not self.to_stdout:
                files.add("out.npy")
                if p.stdout:
                    problems.append("stdout not empty: %r" % p.stdout[:100])
            if self.mode == "argsort":
                got_idx = main
            else:
                got_vals = main
            if self.mode == "both":
                files.add("idx.npy")
                got_idx = self.read("idx.npy", problems)
            extra = sorted(set(os.listdir(self.dir)) - files)
            if extra:
                problems.append("stray files: %s" % ", ".join(extra))
        if problems:
            return label, repro, {"numpy": ("fail", "; ".join(problems))}
        out = {"numpy": self.compare(numpy_reference, got_vals, got_idx)}
        if out["numpy"][0] == "pass":
            # The printed --as-numpy script must compute the same bytes.
            extra = [(os.path.join(self.dir, "idx.npy"), got_idx)] if self.mode == "both" else []
            why = selfcheck.check(argv[0], argv[1:], stdin if self.from_stdin else None,
                                  os.path.join(self.dir, "out.npy"), self.to_stdout, main, extra_outputs=extra)
            if why and why != "skip":
                out["numpy"] = ("fail", why)
        if torch is None or self.kind in TORCH_LACKS:
            out["torch"] = ("skip", "")
        else:
            out["torch"] = self.compare(torch_reference, got_vals, got_idx)
        return label, repro, out

    def read(self, name, problems):
        path = os.path.join(self.dir, name)
        try:
            with open(path, "rb") as f:
                return f.read()
        except OSError as e:
            problems.append("missing %s: %s" % (name, e))
            return None

    def compare(self, reference, got_vals, got_idx):
        try:
            vals, idx = reference(self.a, self.axis, self.descending, self.nans)
        except Exception as e:  # noqa: BLE001 - a reference that cannot run is a skip
            return ("skip", "reference failed: %s" % e)
        reasons = []
        if got_vals is not None:
            d = describe_diff(got_vals, npy_bytes(vals))
            if d:
                reasons.append("values: " + d)
        if got_idx is not None:
            d = describe_diff(got_idx, npy_bytes(idx))
            if d:
                reasons.append("indices: " + d)
        return ("fail", "; ".join(reasons)) if reasons else ("pass", "")

    def judge_refusal(self, p):
        err = p.stderr.decode(errors="replace")
        problems = []
        if "panic" in err or "goroutine " in err:
            problems.append("Go panic")
        if p.returncode != 2:
            problems.append("exit %d (want 2)" % p.returncode)
        lines = err.rstrip("\n").split("\n") if err else []
        if len(lines) != 1 or not lines[0].startswith("strider: sort: "):
            problems.append("stderr should be one line 'strider: sort: ...': %r" % err[:200])
        if p.stdout:
            problems.append("stdout not empty")
        extra = sorted(set(os.listdir(self.dir)) - {"in.npy"})
        if extra:
            problems.append("files left: %s" % ", ".join(extra))
        return ("fail", "; ".join(problems)) if problems else ("pass", "")


# ---------------------------------------------------------------------------------------------
# driver

def run(strider, cases=1000, seed=0, verbose=False, jobs=None):
    """Run `cases` random cases against the strider binary; returns the counts."""
    strider = os.path.abspath(strider)
    root = tempfile.mkdtemp(prefix="parity_sort.", dir=RUN_TMP)
    counts = {lib: {"passed": 0, "failed": 0, "skipped": 0} for lib in ("numpy", "torch")}
    failed_any = False
    jobs = jobs or max(2, os.cpu_count() or 2)
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        all_cases = [Case(i, seed, root) for i in range(cases)]
        futures = [pool.submit(c.run, strider) for c in all_cases]
        for i, fut in enumerate(futures):
            try:
                label, repro, outcomes = fut.result()
            except Exception as e:  # noqa: BLE001 - report, count, go on
                label, repro, outcomes = "case %d" % i, "", {"numpy": ("fail", "crashed: %r" % e)}
            for lib, (status, reason) in outcomes.items():
                key = {"pass": "passed", "fail": "failed", "skip": "skipped"}[status]
                counts[lib][key] += 1
                if status == "fail":
                    failed_any = True
                    print("FAIL sort %s case %d: %s: %s" % (lib, i, label, reason))
                    print(repro)
                elif verbose:
                    print("%s sort %s case %d: %s" % (status, lib, i, label))
    # The coverage check: from 300 cases on, every (kind, byte order, C/F) cell ran.
    want = {(k, b, f) for k in KINDS for b in (False, True) for f in (False, True)
            if int(k[1:]) > 1 or not b}
    ran = {(c.kind, c.big, c.fortran) for c in all_cases if hasattr(c, "kind")}
    if cases >= 300 and not want <= ran:
        failed_any = True
        counts["numpy"]["failed"] += 1
        print("FAIL sort coverage: %d of %d (kind, byte order, order) cells never ran, e.g. %s"
              % (len(want - ran), len(want), sorted(want - ran)[:4]))
    if failed_any:
        print("(cases kept in %s)" % root)
    else:
        shutil.rmtree(root, ignore_errors=True)
    total = {k: counts["numpy"][k] + counts["torch"][k] for k in ("passed", "failed", "skipped")}
    total.update(counts)
    return total


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--strider", default="/tmp/strider-sort", help="the strider binary")
    ap.add_argument("--cases", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=None, help="cases run at once")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args(argv)
    if not os.access(args.strider, os.X_OK):
        print("no strider binary at %s (go build -o %s .)" % (args.strider, args.strider),
              file=sys.stderr)
        return 2
    res = run(args.strider, args.cases, args.seed, args.verbose, args.jobs)
    for lib in ("numpy", "torch"):
        c = res[lib]
        print("sort %s: %d passed, %d failed, %d skipped" % (lib, c["passed"], c["failed"],
                                                          c["skipped"]))
    return 1 if res["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
