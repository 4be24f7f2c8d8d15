#!/usr/bin/python3
"""Parity check: run the strider binary on random inputs and compare with scripts/reference.py.

    go build -o strider . && /usr/bin/python3 scripts/parity.py
    /usr/bin/python3 scripts/parity.py --strider ./strider --cases 2000 --seed 1 \\
        --ops info,transpose --lib numpy,torch

Shell scripts should call it as "${PYTHON:-/usr/bin/python3} scripts/parity.py": the
interpreter needs numpy (and torch for --lib torch); $PYTHON overrides the default.

For every case the strider binary runs as a subprocess and the reference runs in-process on the
same argument list (reference.run_command). Then:

- reference succeeds -> strider exits 0, stdout and stderr are empty (stdout holds exactly the
  file for `-o -`), and the output file is byte-for-byte the reference's numpy.save output;
  for `info --json`, each stdout line parses to the same JSON object (types included).
- reference refuses -> strider exits 2 with exactly one stderr line starting
  "strider: <command>: ", no panic, empty stdout, and the output file is neither created nor
  changed (sometimes a sentinel file is there beforehand).
- every case runs in its own folder; anything strider leaves beside the output (a temporary file
  from a non-atomic write) is a failure.
- --lib torch compares the same strider output with the PyTorch reference; dtypes torch lacks
  (uint16/32/64 in torch 1.13) count as skipped, not passed.

Cases: random arrays of every dtype of CLI.md in both byte orders, C and Fortran order, 0-d,
empty and 1-7-d odd shapes, floats with NaN/inf/-0.0 or raw random bits (NaN payloads); input
from a file, standard input or an npz member; options before or after the input, `--opt=value`
forms, aliases, negative axes; invalid axes (repeated, wrong length, out of range, not numbers).
Plus every fixture in testdata/ and every file in testdata/malformed/ (all must be refused;
`info` may report the *header ok* ones).

Output: one FAIL line per mismatch followed by a `$ strider ...` line to reproduce it (the
temporary folder is kept when anything fails), then `<op> <lib>: N passed, N failed, N skipped`.
Exit status: 0 all passed; 1 some case failed; 2 bad usage or no strider binary; 3 nothing
failed but a requested op is not implemented by strider yet (it answers "unknown command").
"""

import argparse
import collections
import concurrent.futures
import dataclasses
import io
import json
import math
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

import numpy as np

SCRIPTS = Path(__file__).resolve().parent
REPO = SCRIPTS.parent
sys.path.insert(0, str(SCRIPTS))
import gen_testdata as gt  # noqa: E402 - sibling module
import reference as ref  # noqa: E402 - sibling module

OPS = ("info", "transpose")
LIBS = ("numpy", "torch")
DIM_SIZES = [1, 2, 3, 5, 7, 8, 13, 17, 31, 64]
MAX_ELEMENTS = 4096  # keeps random arrays small; 64 still appears, just not in every dim
UNIMPLEMENTED = re.compile(r"unknown command|unknown subcommand|not implemented|usage",
                           re.IGNORECASE)
SENTINEL = b"sentinel: strider must not touch this file\n"


# ---------------------------------------------------------------------------------------------
# bookkeeping

@dataclasses.dataclass
class Outcome:
    """The verdict for one case and one reference library."""
    op: str
    lib: str
    status: str  # 'pass', 'fail' or 'skip'
    label: str = ""
    reason: str = ""
    repro: str = ""


@dataclasses.dataclass
class Proc:
    """What one strider run did."""
    rc: int
    stdout: bytes
    stderr: bytes


class Strider:
    """Runs the strider binary as a subprocess."""

    def __init__(self, path, timeout):
        self.path = path
        self.timeout = timeout

    def run(self, args, stdin=None):
        """Run `strider ARGS`; a timeout becomes rc -9 with a note on stderr."""
        try:
            p = subprocess.run([self.path] + args, input=stdin if stdin is not None else b"",
                               capture_output=True, timeout=self.timeout)
            return Proc(p.returncode, p.stdout, p.stderr)
        except subprocess.TimeoutExpired as e:
            return Proc(-9, e.stdout or b"", b"(parity: timed out after %ds)" % self.timeout)

    def repro(self, args, stdin_path=None):
        """A shell line that reruns the case."""
        line = "  $ " + shlex.join([self.path] + args)
        return line + (" < " + shlex.quote(str(stdin_path)) if stdin_path else "")


def fmt_shape(shape):
    """(3, 0, 2) -> '(3,0,2)'; (5,) -> '(5,)'; () -> '()'."""
    return "(" + ",".join(map(str, shape)) + ("," if len(shape) == 1 else "") + ")"


# ---------------------------------------------------------------------------------------------
# checks: each returns a list of problems (empty = fine)

def check_clean_success(proc, stdout_must_be_empty=True):
    """Exit 0, nothing at all on stderr and, unless it carries the result, on stdout."""
    problems = []
    if proc.rc != 0:
        err = proc.stderr.decode(errors="replace").strip().splitlines()
        problems.append("exit %d (want 0): %s" % (proc.rc, err[0] if err else "no stderr"))
        return problems
    if proc.stderr:
        problems.append("stderr not empty: %r" % proc.stderr[:200])
    if stdout_must_be_empty and proc.stdout:
        problems.append("stdout not empty: %r" % proc.stdout[:200])
    return problems


def check_refusal(proc, command):
    """Exit 2, exactly one stderr line 'strider: <command>: ...', no panic, empty stdout."""
    problems = []
    err = proc.stderr.decode(errors="replace")
    if "panic:" in err or "goroutine " in err:
        return ["Go panic: %r" % err[:300]]
    if proc.rc != 2:
        problems.append("exit %d (want 2, the reference refuses)" % proc.rc)
    lines = err.rstrip("\n").split("\n") if err else []
    if len(lines) != 1 or not err.endswith("\n"):
        problems.append("stderr should be exactly one line, got %d: %r" % (len(lines), err[:300]))
    elif not lines[0].startswith("strider: %s: " % command):
        problems.append("stderr should start 'strider: %s: ', got %r" % (command, lines[0][:200]))
    if proc.stdout:
        problems.append("stdout not empty on error: %r" % proc.stdout[:100])
    return problems


def check_out_dir(out_dir, allowed):
    """Nothing but the names in `allowed` may be in a case's output folder."""
    extra = sorted(set(os.listdir(out_dir)) - set(allowed))
    return ["stray files left in the output folder: %s" % ", ".join(extra)] if extra else []


def describe_npy_diff(got, want):
    """Explain how two .npy byte strings differ (header text, header fields or data)."""
    if got == want:
        return ""
    try:
        g_hdr = ref.read_header(io.BytesIO(got))
    except ref.RefError as e:
        return "output is not a valid .npy (%s): %r" % (e, got[:80])
    w_hdr = ref.read_header(io.BytesIO(want))
    g_fields = {k: (v.str if k == "dtype" else v) for k, v in g_hdr.items()}
    w_fields = {k: (v.str if k == "dtype" else v) for k, v in w_hdr.items()}
    if g_fields != w_fields:
        diffs = ["%s %r (want %r)" % (k, g_fields[k], w_fields[k])
                 for k in w_fields if g_fields[k] != w_fields[k]]
        return "header differs: " + ", ".join(diffs)
    g_off = got.index(b"\n", 8) + 1 if b"\n" in got[8:] else None
    w_off = want.index(b"\n", 8) + 1
    if g_off != w_off or got[:w_off] != want[:w_off]:
        return "header bytes differ: %r (want %r)" % (got[:w_off], want[:w_off])
    g_data, w_data = got[w_off:], want[w_off:]
    if len(g_data) != len(w_data):
        return "data is %d bytes (want %d)" % (len(g_data), len(w_data))
    dtype, shape = w_hdr["dtype"], w_hdr["shape"]
    g = np.frombuffer(g_data, dtype)
    w = np.frombuffer(w_data, dtype)
    g_bytes = np.frombuffer(g_data, np.uint8).reshape(-1, dtype.itemsize)
    w_bytes = np.frombuffer(w_data, np.uint8).reshape(-1, dtype.itemsize)
    bad = np.flatnonzero((g_bytes != w_bytes).any(axis=1))
    first = int(bad[0])
    where = np.unravel_index(first, shape) if shape else ()
    return "data differs in %d of %d elements; first at %s: got %r (%s), want %r (%s)" % (
        len(bad), len(w), tuple(int(i) for i in where), g[first], g_bytes[first].tobytes().hex(),
        w[first], w_bytes[first].tobytes().hex())


def strict_equal(a, b):
    """JSON equality that also tells bool from int and int from float."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(strict_equal(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(strict_equal(x, y) for x, y in zip(a, b))
    return a == b


def describe_json_diff(got, want):
    """Explain how a parsed info object differs from the reference's."""
    if not isinstance(got, dict):
        return "not a JSON object: %r" % (got,)
    missing = [k for k in want if k not in got]
    extra = [k for k in got if k not in want]
    if missing or extra:
        return "keys differ: missing %s, extra %s" % (missing, extra)
    return "; ".join("%s=%s (want %s)" % (k, json.dumps(got[k]), json.dumps(want[k]))
                     for k in want if not strict_equal(got[k], want[k]))


# ---------------------------------------------------------------------------------------------
# case construction

def random_shape(rng):
    """0-7 dims from DIM_SIZES, sometimes one 0, at most MAX_ELEMENTS elements."""
    ndim = int(rng.choice(8, p=[.05, .15, .25, .2, .12, .1, .07, .06]))
    shape = [int(rng.choice(DIM_SIZES)) for _ in range(ndim)]
    if ndim and rng.random() < 0.08:
        shape[int(rng.integers(ndim))] = 0
    while math.prod(shape) > MAX_ELEMENTS:
        i = int(np.argmax(shape))
        shape[i] = int(rng.choice([s for s in DIM_SIZES if s < shape[i]]))
    return tuple(shape)


def random_array(rng, token=None, shape=None):
    """(token, array) with a random dtype token, shape and values (see gt.random_values)."""
    token = token or str(rng.choice(gt.DTYPE_TOKENS))
    shape = random_shape(rng) if shape is None else shape
    raw = rng.random() < 0.3
    return token, gt.random_values(gt.token_dtype(token), shape, rng, specials="random", raw=raw)


def npy_in_order(arr, order):
    """The .npy bytes of arr in C order, or with a fortran_order True header for 'F'."""
    return gt.npy_bytes(arr) if order == "C" else gt.fortran_npy_bytes(arr)


def place_input(rng, case_dir, arr, order):
    """Write arr for strider to read: returns (argument, stdin bytes or None, tag, file path).

    Mostly a plain .npy path; sometimes standard input ('-') or an npz member ('x.npz:name').
    """
    data = npy_in_order(arr, order)
    pick = rng.random()
    if pick < 0.05:
        path = case_dir / "in.npz"
        view = np.asfortranarray(arr) if order == "F" else arr
        path.write_bytes(gt.npz_bytes({"arr_0": view, "m": view}, compress=rng.random() < 0.5))
        return str(path) + ":m", None, "input=npz", path
    path = case_dir / "in.npy"
    path.write_bytes(data)
    if pick < 0.10:
        return "-", data, "input=stdin", path
    return str(path), None, "", path


def output_args(rng, out_path):
    """Random spelling of the output option: (args, writes to stdout?)."""
    pick = rng.random()
    if pick < 0.05:
        return ["-o", "-"], True
    if pick < 0.35:
        return ["--output", str(out_path)], False
    if pick < 0.45:
        return ["--output=" + str(out_path)], False
    return ["-o", str(out_path)], False


def extra_common_args(rng):
    """Sometimes add the options every command takes."""
    pick = rng.random()
    if pick < 0.05:
        return ["--threads", str(int(rng.integers(1, 5)))]
    if pick < 0.10:
        return ["--device", "cpu"]
    return []


def random_axes(rng, ndim):
    """(axes text or None, kind): a valid permutation or a deliberately invalid request."""
    pick = rng.random()
    if pick < 0.25 or (ndim == 0 and pick < 0.8):
        return None, "default"
    if pick < 0.80 and ndim:
        perm = rng.permutation(ndim)
        axes = [int(a) - ndim if rng.random() < 0.3 else int(a) for a in perm]
        return ",".join(map(str, axes)), "perm"
    kinds = ["out-of-range", "wrong-length", "not-a-number"] + (["repeated"] if ndim >= 2 else [])
    kind = str(rng.choice(kinds))
    axes = [int(a) for a in rng.permutation(ndim)]
    if kind == "repeated":
        i, j = rng.choice(ndim, 2, replace=False)
        axes[i] = axes[j] if rng.random() < 0.5 else axes[j] - ndim  # same axis, maybe negative
    elif kind == "wrong-length":
        axes = axes + [ndim] if (rng.random() < 0.5 or ndim <= 1) else axes[:-1]
        axes = axes or [0, 0]
    elif kind == "out-of-range":
        bad = int(rng.choice([ndim, -ndim - 1, 99, -99]))
        axes = axes[:-1] + [bad] if ndim else [bad]
    else:
        return str(rng.choice(["x", "0,x", "1.5", "0;1", "one"])), kind
    return ",".join(map(str, axes)), kind


# ---------------------------------------------------------------------------------------------
# running one case

class Runner:
    """Runs cases against strider and the reference; shared by all worker threads."""

    def __init__(self, strider, libs, tmp):
        self.strider = strider
        self.libs = libs
        self.tmp = tmp

    def case_dir(self, op, idx):
        """A fresh folder for one case, with an empty out/ inside."""
        d = self.tmp / ("%s-%05d" % (op, idx))
        (d / "out").mkdir(parents=True)
        return d

    def judge_npy(self, op, label, args, stdin, stdin_path, out_path, to_stdout,
                  sentinel, libs=None):
        """Run strider once, then judge it against each reference library."""
        proc = self.strider.run(args, stdin)
        repro = self.strider.repro(args, stdin_path if stdin is not None else None)
        out_dir = out_path.parent
        outcomes = []
        for lib in (libs or self.libs):
            try:
                _, want = ref.run_command(args + ["--lib", lib], stdin)
            except ref.Unsupported as e:
                outcomes.append(Outcome(op, lib, "skip", label, str(e)))
                continue
            except ref.RefError:
                want = None
            if want is None:
                problems = check_refusal(proc, op)
                if sentinel and out_path.read_bytes() != SENTINEL:
                    problems.append("the existing output file was changed on error")
                elif not sentinel and out_path.exists():
                    problems.append("an output file was created on error")
                problems += check_out_dir(out_dir, [out_path.name] if sentinel else [])
            else:
                problems = check_clean_success(proc, stdout_must_be_empty=not to_stdout)
                if not problems:
                    got = proc.stdout if to_stdout else (
                        out_path.read_bytes() if out_path.exists() else None)
                    if got is None:
                        problems.append("exit 0 but no output file")
                    elif got != want:
                        problems.append(describe_npy_diff(got, want))
                    problems += check_out_dir(out_dir, [] if to_stdout else [out_path.name])
            outcomes.append(Outcome(op, lib, "fail" if problems else "pass",
                                    label + ("" if lib == "numpy" else " lib=" + lib),
                                    "; ".join(problems), repro))
        return outcomes

    def transpose_case(self, seed, idx):
        """One random transpose case."""
        rng = np.random.default_rng([seed, 1, idx])
        d = self.case_dir("transpose", idx)
        token, arr = random_array(rng)
        order = "F" if rng.random() < 0.4 else "C"
        spec, stdin, tag, in_path = place_input(rng, d, arr, order)
        axes, kind = random_axes(rng, arr.ndim)
        out_path = d / "out" / "out.npy"
        out_args, to_stdout = output_args(rng, out_path)
        opt = []
        if axes is not None:
            name = str(rng.choice(["--axes", "--perm", "--dims"], p=[.6, .2, .2]))
            opt = [name + "=" + axes] if rng.random() < 0.2 else [name, axes]
        before = rng.random() < 0.5
        args = (["transpose"] + (opt if before else []) + [spec] + (opt if not before else [])
                + out_args + extra_common_args(rng))
        invalid = kind not in ("default", "perm")
        sentinel = not to_stdout and rng.random() < (0.5 if invalid else 0.1)
        if sentinel:
            out_path.write_bytes(SENTINEL)
        label = "transpose %s shape=%s order=%s axes=%s%s" % (
            token, fmt_shape(arr.shape), order, axes if axes is not None else "default",
            (" [%s]" % kind if invalid else "")
            + (" " + tag if tag else "") + (" output=stdout" if to_stdout else ""))
        return self.judge_npy("transpose", label, args, stdin, in_path, out_path, to_stdout,
                              sentinel)

    def transpose_file_case(self, idx, spec, numpy_only=False):
        """Default transpose of a fixture or malformed file from testdata/ (a path or npz spec)."""
        d = self.case_dir("transpose", idx)
        out_path = d / "out" / "out.npy"
        args = ["transpose", spec, "-o", str(out_path)]
        label = "transpose %s" % os.path.relpath(spec, REPO)
        libs = self.libs[:1] if numpy_only else self.libs  # malformed: judged once
        return self.judge_npy("transpose", label, args, None, None, out_path, False, False, libs)

    def info_run(self, label, args, stdin=None, stdin_path=None, may_refuse=False):
        """Run `strider info ...` and compare its JSON lines with the reference."""
        proc = self.strider.run(args, stdin)
        repro = self.strider.repro(args, stdin_path)
        try:
            _, text = ref.run_command(args, stdin)
            want = [json.loads(line) for line in text.splitlines()] if "--json" in args else []
        except ref.RefError:
            want = None
        if want is None:
            problems = check_refusal(proc, "info")
        elif "--json" not in args:
            problems = check_clean_success(proc, stdout_must_be_empty=False)
            if not problems and not proc.stdout.strip():
                problems.append("no output")
        elif may_refuse and proc.rc == 2 and not check_refusal(proc, "info"):
            problems = []
        else:
            problems = check_clean_success(proc, stdout_must_be_empty=False)
            if not problems:
                problems = self.compare_info_lines(proc.stdout, want)
        return [Outcome("info", "numpy", "fail" if problems else "pass", label,
                        "; ".join(problems), repro)]

    @staticmethod
    def compare_info_lines(stdout, want):
        """stdout must be exactly len(want) JSON lines, each equal to the reference object."""
        lines = stdout.decode(errors="replace").splitlines()
        if len(lines) != len(want):
            return ["%d stdout lines (want %d): %r" % (len(lines), len(want), stdout[:300])]
        problems = []
        for line, w in zip(lines, want):
            try:
                got = json.loads(line)
            except ValueError as e:
                problems.append("not JSON (%s): %r" % (e, line[:200]))
                continue
            if not strict_equal(got, w):
                problems.append("%s: %s" % (w["path"], describe_json_diff(got, w)))
        return problems

    def info_case(self, seed, idx):
        """Random info case: 1-3 files, header versions 1.0-3.0, C/F order, npz members."""
        rng = np.random.default_rng([seed, 2, idx])
        d = self.case_dir("info", idx)
        specs, descs = [], []
        for k in range(int(rng.choice([1, 1, 1, 2, 3]))):
            token, arr = random_array(rng)
            order = "F" if rng.random() < 0.4 else "C"
            pick = rng.random()
            view = np.asfortranarray(arr) if order == "F" else arr
            if pick < 0.15:
                path = d / ("f%d.npz" % k)
                members = {"a": view}
                if rng.random() < 0.5:
                    members["b"] = arr.reshape(-1)[:1]
                path.write_bytes(gt.npz_bytes(members, compress=rng.random() < 0.5))
                spec = str(path) + ":a" if len(members) > 1 or rng.random() < 0.5 else str(path)
                where = "npz"
            else:
                version = [(1, 0), (2, 0), (3, 0)][int(rng.choice(3, p=[.6, .25, .15]))]
                path = d / ("f%d.npy" % k)
                path.write_bytes(npy_in_order(arr, order) if version == (1, 0)
                                 else gt.versioned_npy_bytes(view, version))
                spec, where = str(path), "v%d.0" % version[0]
            specs.append(spec)
            descs.append("%s%s/%s/%s" % (token, fmt_shape(arr.shape), order, where))
        stdin = stdin_path = None
        if len(specs) == 1 and not specs[0].endswith(".npz") and rng.random() < 0.05:
            stdin, stdin_path = path.read_bytes(), path
            specs, descs[0] = ["-"], descs[0] + "/stdin"
        pick = rng.random()
        if pick < 0.05:
            args = ["info"] + specs  # human-readable form: only checked for a clean exit
        elif pick < 0.5:
            args = ["info"] + specs + ["--json"]
        else:
            args = ["info", "--json"] + specs
        return self.info_run("info " + " ".join(descs), args, stdin, stdin_path)


# ---------------------------------------------------------------------------------------------
# fixture lists

def fixture_specs():
    """Every valid input in testdata/: .npy files, npz members and bare npz archives."""
    specs = []
    for path in sorted(REPO.glob("testdata/*.np[yz]")):
        if path.suffix == ".npz":
            with zipfile.ZipFile(path) as zf:
                specs += ["%s:%s" % (path, n[:-4]) for n in zf.namelist()]
        specs.append(str(path))  # a bare multi-member npz must be refused
    return specs


def malformed_files():
    """[(path, info may accept it)] for testdata/malformed/ (manifest.json has the flags)."""
    folder = REPO / "testdata" / "malformed"
    manifest = folder / "manifest.json"
    flags = {}
    if manifest.exists():
        flags = {e["file"]: e["info_may_accept"] for e in json.loads(manifest.read_text())}
    return [(p, flags.get(p.name, False)) for p in sorted(folder.glob("*.np[yz]"))]


# ---------------------------------------------------------------------------------------------
# driver

def probe(strider, op, tmp):
    """None if strider seems to implement op, else the reason (its stderr line)."""
    path = tmp / "probe.npy"
    path.write_bytes(gt.npy_bytes(np.arange(6, dtype="<f4").reshape(2, 3)))
    args = {"info": ["info", "--json", str(path)],
            "transpose": ["transpose", str(path), "-o", str(tmp / "probe-out.npy")]}[op]
    proc = strider.run(args)
    err = proc.stderr.decode(errors="replace").strip()
    if proc.rc == 2 and UNIMPLEMENTED.search(err):
        return err.splitlines()[0] if err else "exit 2"
    return None


def build_jobs(runner, ops, args):
    """The list of (op, callable) to run, random cases first, then testdata files."""
    jobs = []
    if "transpose" in ops:
        jobs += [("transpose", lambda i=i: runner.transpose_case(args.seed, i))
                 for i in range(args.cases)]
        idx = args.cases
        for spec in fixture_specs():
            jobs.append(("transpose", lambda i=idx, s=spec: runner.transpose_file_case(i, s)))
            idx += 1
        for path, _ in malformed_files():
            jobs.append(("transpose", lambda i=idx, p=path: runner.transpose_file_case(
                i, str(p), numpy_only=True)))
            idx += 1
    if "info" in ops:
        jobs += [("info", lambda i=i: runner.info_case(args.seed, i))
                 for i in range(args.info_cases)]
        for spec in fixture_specs():
            jobs.append(("info", lambda s=spec: runner.info_run(
                "info %s" % os.path.relpath(s, REPO), ["info", "--json", s])))
        for path, may in malformed_files():
            jobs.append(("info", lambda p=path, m=may: runner.info_run(
                "info %s" % p.relative_to(REPO), ["info", "--json", str(p)], may_refuse=m)))
    return jobs


def parse_args(argv):
    """Command-line options (see the module docstring)."""
    ap = argparse.ArgumentParser(description="strider vs NumPy/PyTorch parity check")
    ap.add_argument("--strider", default=str(REPO / "strider"),
                    help="strider binary (default: REPO/strider, from `go build -o strider .`)")
    ap.add_argument("--cases", type=int, default=2000, help="random transpose cases (2000)")
    ap.add_argument("--info-cases", type=int, default=300, help="random info cases (300)")
    ap.add_argument("--seed", type=int, default=0, help="random seed (0)")
    ap.add_argument("--ops", default=",".join(OPS), help="comma list of: " + ", ".join(OPS))
    ap.add_argument("--lib", default=",".join(LIBS), help="comma list of: numpy, torch")
    ap.add_argument("--jobs", type=int, default=4, help="parallel strider runs (4)")
    ap.add_argument("--timeout", type=int, default=60, help="seconds per strider run (60)")
    ap.add_argument("--keep", action="store_true", help="keep the temporary folder")
    args = ap.parse_args(argv)
    args.ops = [o for o in args.ops.split(",") if o]
    args.libs = [lb for lb in args.lib.split(",") if lb]
    for name, chosen, allowed in (("--ops", args.ops, OPS), ("--lib", args.libs, LIBS)):
        bad = [c for c in chosen if c not in allowed]
        if bad or not chosen:
            ap.error("%s: unknown %s (choose from %s)"
                     % (name, bad or "(none)", ", ".join(allowed)))
    return args


def main(argv=None):
    args = parse_args(argv)
    path = shutil.which(args.strider) if os.sep not in args.strider else args.strider
    if not path or not os.access(path, os.X_OK) or os.path.isdir(path):
        print("parity: no strider binary at %s (build it: go build -o strider .)" % args.strider,
              file=sys.stderr)
        return 2
    strider = Strider(os.path.abspath(path), args.timeout)
    tmp = Path(tempfile.mkdtemp(prefix="strider-parity-"))
    runner = Runner(strider, args.libs, tmp / "cases")
    start = time.monotonic()

    missing = {op: why for op in args.ops if (why := probe(strider, op, tmp))}
    for op, why in missing.items():
        print("SKIP %s: not implemented by strider yet (%s)" % (op, why))
    ops = [op for op in args.ops if op not in missing]

    jobs = build_jobs(runner, ops, args)
    results = []
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs))
    try:
        futures = [(op, pool.submit(fn)) for op, fn in jobs]
        for op, fut in futures:
            try:
                results += fut.result()
            except Exception as e:  # noqa: BLE001 - a harness bug must not hide the rest
                results.append(Outcome(op, "numpy", "fail", "%s (parity harness)" % op,
                                       "%s: %s" % (type(e).__name__, e)))
    except KeyboardInterrupt:
        pool.shutdown(wait=True, cancel_futures=True)
        if not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)
        print("parity: interrupted", file=sys.stderr)
        return 130
    pool.shutdown()

    failed = [r for r in results if r.status == "fail"]
    for r in failed:
        print("FAIL %s : %s" % (r.label, r.reason))
        if r.repro:
            print(r.repro)

    for op in args.ops:
        for lib in (args.libs if op != "info" else ["numpy"]):
            mine = [r for r in results if r.op == op and r.lib == lib]
            count = collections.Counter(r.status for r in mine)
            skips = collections.Counter(r.reason for r in mine if r.status == "skip")
            note = ""
            if op in missing:
                note = " (not implemented by strider)"
            elif skips:
                note = " (" + ", ".join("%d %s" % (n, why) for why, n in skips.most_common()) + ")"
            print("%s %s: %d passed, %d failed, %d skipped%s"
                  % (op, lib, count["pass"], count["fail"], count["skip"], note))
    print("%d strider runs in %.1fs" % (len(jobs), time.monotonic() - start))

    if failed or args.keep:
        print("inputs and outputs kept in %s" % tmp)
    else:
        shutil.rmtree(tmp, ignore_errors=True)
    if failed:
        return 1
    return 3 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
