#!/usr/bin/python3
"""Parity check: run the strider binary on random inputs and compare with scripts/reference.py.

    go build -o strider . && /usr/bin/python3 scripts/parity.py
    /usr/bin/python3 scripts/parity.py --strider ./strider --cases 2000 --seed 1 \\
        --ops info,transpose --lib numpy,torch
    /usr/bin/python3 scripts/parity.py --ops gather,gather-elements --gather-cases 5000
    /usr/bin/python3 scripts/parity.py --ops sort,tri --plugin-cases 0   # plug-ins only

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
empty and 1-7-d odd shapes, met by construction rather than by luck: case i takes the dtype,
order and layout cell(i), so every 150 consecutive cases of an op hold all 150 (dtype, order,
0-d/empty/n-d) cells, and an op run with 150 cases or more fails if any cell did not run; floats with NaN/inf/-0.0 or raw random bits (NaN payloads); input
from a file, standard input or an npz member; options before or after the input, `--opt=value`
forms, aliases, negative axes; invalid axes (repeated, wrong length, out of range, not numbers).
Plus every fixture in testdata/ and every file in testdata/malformed/ (all must be refused;
`info` may report the *header ok* ones).

diagonal, gather, gather-elements: the same inputs (every dtype and byte order, C/F, 0-d, empty),
with option spellings and aliases (--dim1, --dim, --opt=value) before or after the input.
- diagonal: random axis pairs (negative too), offsets inside, at and past both ends, up to the
  int64 limits; refusals: 0-d/1-d input, the same axis twice, axes out of range, offsets that
  are not decimal int64 (0x10, 1.5, 2**63).
- gather: no --axis (flattened) or an axis (0 and -1 of a 0-d input too), modes raise (default),
  wrap, clip; indices from a file of every integer dtype (i1..i8, u1..u8, both byte orders, C
  and Fortran, 0-d to 3-d, empty, npz members) or an --index literal (nested lists and tuples,
  odd spacing); in wrap/clip the dtype's extremes and uint64 values above INT64_MAX. Refusals:
  indices out of range (raise), a non-empty take from an empty axis, bool/float/complex index
  files, bad literals, --indices with --index, neither, a bad --mode or --axis. Plus a fixed
  list of literals at the edges of Python's integer grammar (010, (3), 0x_a, - 3, ...) and the
  fixtures and malformed files (as input and as index file).
- gather-elements: index extents off the axis equal to the input's (judged by NumPy and torch)
  or, for 30% of cases, smaller (torch.gather's rule; judged by torch only: take_along_axis
  would broadcast); refusals: 0-d input, wrong index ndim, an extent too large, indices out of
  range, an empty axis, non-integer indices.
torch judges gather only in mode raise (torch.index_select has no wrap or clip).

Plug-ins: every op in --ops that is not built in is a module scripts/parity_<op>.py (dashes
become underscores) with run(strider, cases=..., seed=0, verbose=False) returning
dict(passed=, failed=, skipped=); they run as --lanes child processes at a time (this script
with --plugin-child OP) beside the built-in cases, their output is printed after them, and
their counts join the summary and the exit status. --scale multiplies every random-case count,
the built-in ones and each plug-in's default (its run()'s cases=), unless --plugin-cases is
given. Every count line ends with the CPU time (user + system, child processes included) it
took. The default --ops is every built-in op plus every parity_*.py found.
A plug-in that cannot be imported, raises, or returns anything else counts as one failure.

Output: one FAIL line per mismatch followed by a `$ strider ...` line to reproduce it (the
temporary folder is kept when anything fails), then `<op> <lib>: N passed (N refusals),
N failed, N skipped` (refusals: cases both had to refuse), then one line per plug-in.
Exit status: 0 all passed; 1 some case failed (plug-ins included); 2 bad usage or no strider
binary; 3 nothing failed but a requested op is not implemented by strider yet (it answers
"unknown command").
"""

import argparse
import collections
import concurrent.futures
import dataclasses
import importlib
import inspect
import io
import json
import math
import os
import re
import resource
import shlex
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import zipfile
from pathlib import Path

import numpy as np

SCRIPTS = Path(__file__).resolve().parent
REPO = SCRIPTS.parent
sys.path.insert(0, str(SCRIPTS))
import gen_testdata as gt  # noqa: E402 - sibling module
import reference as ref  # noqa: E402 - sibling module
import selfcheck  # noqa: E402 - sibling module

OPS = ("info", "transpose", "diagonal", "gather", "gather-elements")
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
    refused: bool = False  # the reference refused: strider had to refuse too


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


def check_info_refusal(proc):
    """info on a file the reference refuses: exit 2, every stderr line 'strider: info: ...', no
    panic; stdout may only describe the headers info could read (a dtype strider cannot compute
    on, data cut short), as info goes on past bad files like ls."""
    err = proc.stderr.decode(errors="replace")
    if "panic:" in err or "goroutine " in err:
        return ["Go panic: %r" % err[:300]]
    problems = []
    if proc.rc != 2:
        problems.append("exit %d (want 2, the reference refuses)" % proc.rc)
    lines = err.rstrip("\n").split("\n") if err else []
    if not lines or not all(ln.startswith("strider: info: ") for ln in lines):
        problems.append("stderr should be 'strider: info: ' lines, got %r" % err[:300])
    for line in proc.stdout.decode(errors="replace").splitlines():
        if "cannot compute on it" not in line and "truncated" not in line and '"refused"' not in line:
            problems.append("stdout describes a file the reference refuses: %r" % line[:200])
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


#: The layouts every (op, dtype, order) must meet: a 0-d array, an empty one, any other.
LAYOUTS = ("n-d", "0-d", "empty")
ORDERS = ("C", "F")


def cell(idx):
    """(token, order, layout) of random case idx: the cases cycle through every dtype token
    (each dtype family in both byte orders), then both orders, so every 50 consecutive cases
    hold each (token, order) once; each block of 50 has one layout: of every 12 blocks, block
    1 is 0-d, blocks 2 and 7 are empty and the rest n-d. So 150 cases from 0 meet every
    (token, order, layout) cell, and coverage needs no luck."""
    tokens = gt.DTYPE_TOKENS
    token = tokens[idx % len(tokens)]
    order = ORDERS[(idx // len(tokens)) % 2]
    block = (idx // (2 * len(tokens))) % 12
    return token, order, {1: "0-d", 2: "empty", 7: "empty"}.get(block, "n-d")


def cells_needed():
    """How many random cases from 0 meet every cell of cell()."""
    return 2 * len(gt.DTYPE_TOKENS) * 3


def layout_of(shape):
    """The LAYOUTS name of a shape."""
    return "0-d" if not shape else "empty" if 0 in shape else "n-d"


def shape_for(rng, layout, lo=0, hi=7):
    """A random shape (random_shape's mix) of layout: () for '0-d'; for 'n-d' max(lo, 1) to hi
    dims, none of them 0; for 'empty' the same with one extent 0."""
    if layout == "0-d":
        return ()
    while True:
        shape = list(random_shape_ndim(rng, max(lo, 1), hi))
        if 0 not in shape:
            break
    if layout == "empty":
        shape[int(rng.integers(len(shape)))] = 0
    return tuple(shape)


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
# case construction: diagonal, gather, gather-elements

#: Every integer dtype an index file may have, both byte orders.
INDEX_TOKENS = ["i1", "u1", "i2le", "i2be", "i4le", "i4be", "i8le", "i8be",
                "u2le", "u2be", "u4le", "u4be", "u8le", "u8be"]
#: Index files strider must refuse (NumPy's np.take would take bools as 0/1).
BAD_INDEX_TOKENS = ["b1", "f2le", "f4be", "f8le", "f8be", "c8le", "c16be"]
INT64_MIN, INT64_MAX = -2 ** 63, 2 ** 63 - 1
FAR_OFFSETS = [10 ** 6, -10 ** 6, 2 ** 31 - 1, 2 ** 31, -2 ** 31, -2 ** 31 - 1, 2 ** 40,
               -2 ** 40, INT64_MAX, INT64_MIN, INT64_MIN + 1]
BAD_INT_TEXT = ["x", "1.5", "", "2e3", str(2 ** 63), str(-2 ** 63 - 1), "0x10", "1,2"]
BAD_LITERALS = ["True", "[1, False]", "1.5", "[0, 1.0]", "[1,[2]]", "[[1],[2,3]]", "[1,2",
                "1e3", "[0x]", "99999999999999999999", "[-99999999999999999999]", "'3'",
                "None", "[1 2]", "[1,,2]", "08", "1__0", "1+2j", "{1}", "[", "", "x"]
#: (literal, mode) pairs run on one fixed input, np.arange(20) as >i2: Python's integer
#: literal grammar at its edges, so strider's parser can be judged against ast.literal_eval.
FIXED_LITERALS = [
    ("3", None), ("-1", None), ("+3", None), ("- 3", None), ("-\t3", None), ("0", None),
    ("00", None), ("0_0", None), ("010", None), ("0_7", None), ("07", None), ("1_0", None),
    ("1_", None), ("0xF", None), ("0X0f", None), ("0x1F", "wrap"), ("0x_a", None),
    ("-0o7", None), ("0O7", None), ("0b11", None), ("0B1_1", None), ("0b2", None), ("0x", None),
    ("(3)", None), ("((1))", None), ("(3,)", None), ("()", None), ("( )", None), ("[]", None),
    ("[[]]", None), ("[[], []]", None), ("[()]", None), ("[(1,2),[3,4]]", None),
    ("([1, 2])", None), ("((1, 2), (3, 4))", None), ("[3,]", None), (" [1, 2] ", None),
    ("[ 1 ,2 ]", None), ("[-1, -20]", None), ("[-21]", None), ("[19, 20]", None),
    ("[20]", "clip"), ("[-21, 45]", "wrap"), ("9223372036854775807", "wrap"),
    ("-9223372036854775808", "wrap"), ("-9223372036854775808", "clip"),
    ("9223372036854775808", "wrap"), ("-9223372036854775808", None),
] + [(text, None) for text in BAD_LITERALS]


def pick_int(rng, items):
    """rng.choice for Python ints of any size (rng.choice makes [1, 2**64-1] a float array)."""
    return items[int(rng.integers(len(items)))]


def random_shape_ndim(rng, lo, hi):
    """A random_shape with between lo and hi dimensions (redrawn until it has)."""
    while True:
        shape = random_shape(rng)
        if lo <= len(shape) <= hi:
            return shape


def random_index_shape(rng, max_count):
    """0-d, 1-d (often) or 2-3-d index shapes, sometimes empty, at most max_count elements."""
    ndim = int(rng.choice(4, p=[.15, .5, .25, .1]))
    sizes = [0, 1, 2, 3, 4, 5, 7, 8]
    shape = [int(rng.integers(0, 41)) if ndim == 1 and rng.random() < 0.6
             else int(rng.choice(sizes, p=[.05, .2, .2, .2, .1, .1, .1, .05]))
             for _ in range(ndim)]
    while math.prod(shape) > max(1, max_count):
        i = int(np.argmax(shape))
        shape[i] //= 2
    return tuple(shape)


def index_values(rng, token, shape, n, mode, out_of_range=False):
    """An index array of dtype token and the given shape for an axis of size n.

    raise: values in [-n, n) (unsigned: [0, n)); wrap and clip: mostly within a few n either
    side, sometimes the dtype's extremes (and uint64 values above INT64_MAX). out_of_range puts
    one value just outside [-n, n) (or huge) where the dtype can hold one.
    """
    dtype = gt.token_dtype(token)
    info = np.iinfo(dtype)
    count = math.prod(shape)
    lo, hi = (-n, n - 1) if mode == "raise" else (-3 * n - 3, 3 * n + 3)
    lo, hi = max(lo, int(info.min)), min(hi, int(info.max))
    if hi < lo:  # n == 0 and unsigned: any value is out of range anyway
        lo, hi = 0, 3
    vals = [int(v) for v in rng.integers(lo, hi, size=count, endpoint=True)] if count else []
    if mode != "raise" and count:
        for i in np.flatnonzero(rng.random(count) < 0.08):
            if token.startswith("u8") and rng.random() < 0.5:
                vals[i] = int(rng.integers(2 ** 63, 2 ** 64 - 1, dtype=np.uint64, endpoint=True))
            else:
                vals[i] = pick_int(rng, [int(info.min), int(info.max), int(info.min) + 1,
                                     int(info.max) - 1])
    if out_of_range and count:
        choices = [v for v in (n, n + 1, -n - 1, 2 * n + 7, int(info.max))
                   if info.min <= v <= info.max and not -n <= v < n]
        if token.startswith("u8"):
            choices.append(2 ** 64 - 1)
        if choices:
            vals[int(rng.integers(count))] = pick_int(rng, choices)
    native = dtype.newbyteorder("=")  # object -> uint64 would go through C long
    return np.array(vals, dtype=native).reshape(shape).astype(dtype)


def format_literal(rng, arr):
    """A NumPy literal for an int array: nested lists (sometimes tuples), random spacing."""
    def fmt(a):
        if a.ndim == 0:
            v = int(a)
            return ("+%d" % v) if v >= 0 and rng.random() < 0.05 else str(v)
        sep = str(rng.choice([",", ", ", " , ", ",  "]))
        items = [fmt(a[i]) for i in range(len(a))]
        if rng.random() < 0.15:
            comma = len(items) == 1 or rng.random() < 0.3  # (x,) is a tuple, (x) is x
            return "(" + sep.join(items) + ("," if comma else "") + ")"
        return "[" + sep.join(items) + ("," if items and rng.random() < 0.1 else "") + "]"
    text = fmt(np.asarray(arr))
    if rng.random() < 0.05:
        text = "(" + text + ")"  # grouping parentheses: the same value
    if rng.random() < 0.05:
        text = " " + text + " "
    return text


def option(rng, names, value, probs=None):
    """An option with a value: ['--name', value] or ['--name=value'], the name drawn from names."""
    name = str(rng.choice(names, p=probs))
    return [name + "=" + value] if rng.random() < 0.2 else [name, value]


def place_indices(rng, case_dir, idx, order=None):
    """Write an index array: returns (--indices argument, tag)."""
    order = order or ("F" if idx.ndim >= 2 and rng.random() < 0.4 else "C")
    if rng.random() < 0.04:
        path = case_dir / "idx.npz"
        view = np.asfortranarray(idx) if order == "F" else idx
        path.write_bytes(gt.npz_bytes({"i": view}, compress=rng.random() < 0.5))
        return str(path) + ":i", "idx=npz/" + order
    path = case_dir / "idx.npy"
    path.write_bytes(npy_in_order(idx, order))
    return str(path), "idx=" + order


# ---------------------------------------------------------------------------------------------
# running one case

class Runner:
    """Runs cases against strider and the reference; shared by all worker threads."""

    def __init__(self, strider, libs, tmp):
        self.strider = strider
        self.libs = libs
        self.tmp = tmp
        self.cells = collections.defaultdict(set)  # op -> {(token, order, layout)} that ran
        self.cells_lock = threading.Lock()

    def seen(self, op, token, order, shape):
        """Note the (dtype token, order, layout) cell of a random case's input."""
        with self.cells_lock:
            self.cells[op].add((token, order, layout_of(shape)))

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
                if not problems and op != "info" and "testdata/malformed/" not in label:
                    # The printed script must refuse too (a malformed header that NumPy
                    # still reads is beyond what a script can check).
                    why = selfcheck.check_refused(self.strider.path, args, stdin,
                                                  None if to_stdout else out_path, lib)
                    if why:
                        problems.append(why)
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
                if not problems and op != "info":
                    # The printed script must compute the same bytes (--as-numpy/--as-torch).
                    why = selfcheck.check(self.strider.path, args, stdin, out_path, to_stdout,
                                          got, lib)
                    if why and why != "skip":  # skip: torch lacks the dtype
                        problems.append(why)
            outcomes.append(Outcome(op, lib, "fail" if problems else "pass",
                                    label + ("" if lib == "numpy" else " lib=" + lib),
                                    "; ".join(problems), repro, want is None))
        return outcomes

    def transpose_case(self, seed, idx):
        """One random transpose case."""
        rng = np.random.default_rng([seed, 1, idx])
        d = self.case_dir("transpose", idx)
        token, order, layout = cell(idx)
        token, arr = random_array(rng, token, shape_for(rng, layout))
        self.seen("transpose", token, order, arr.shape)
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

    # --- diagonal, gather, gather-elements ---------------------------------------------------

    def finish_case(self, op, rng, d, label, args_before, spec, args_after, stdin, in_path,
                    invalid, libs=None):
        """Common tail of a random case: output spelling, sentinel, options around the input."""
        out_path = d / "out" / "out.npy"
        out_args, to_stdout = output_args(rng, out_path)
        args = [op] + args_before + [spec] + args_after + out_args + extra_common_args(rng)
        if rng.random() < 0.05:
            args.append("-q")
        sentinel = not to_stdout and rng.random() < (0.5 if invalid else 0.1)
        if sentinel:
            out_path.write_bytes(SENTINEL)
        label += (" output=stdout" if to_stdout else "")
        return self.judge_npy(op, label, args, stdin, in_path, out_path, to_stdout, sentinel,
                              libs)

    @staticmethod
    def split_options(rng, opts):
        """Options before or after the input, or some of each."""
        before, after = [], []
        for o in opts:
            (before if rng.random() < 0.5 else after).append(o)
        return [x for o in before for x in o], [x for o in after for x in o]

    def diagonal_case(self, seed, idx):
        """One random diagonal case (about 1 in 8 must be refused)."""
        rng = np.random.default_rng([seed, 3, idx])
        d = self.case_dir("diagonal", idx)
        token, order, layout = cell(idx)
        shape = (shape_for(rng, layout, 1, 1) if layout != "0-d" and rng.random() < 0.04
                 else shape_for(rng, layout, 2, 7))  # 0-d and 1-d: refused
        token, arr = random_array(rng, token, shape=shape)
        self.seen("diagonal", token, order, arr.shape)
        spec, stdin, tag, in_path = place_input(rng, d, arr, order)
        nd, opts, kinds = arr.ndim, [], []
        if nd < 2:
            kinds.append("ndim<2")
        ndv = max(nd, 1)
        a1, a2 = 0, 1
        pick = rng.random()
        if pick < 0.25 or nd < 2:
            pass  # the defaults 0, 1
        elif pick < 0.88:
            a1, a2 = (int(x) for x in rng.choice(nd, 2, replace=False))
            a1 = a1 - nd if rng.random() < 0.3 else a1
            a2 = a2 - nd if rng.random() < 0.3 else a2
        elif pick < 0.94:
            a1 = int(rng.integers(nd))
            a2 = a1 - nd if rng.random() < 0.6 else a1
            kinds.append("same-axis")
        else:
            a1, a2 = int(rng.integers(nd)), int(rng.choice([nd, -nd - 1, 40]))
            if rng.random() < 0.5:
                a1, a2 = a2, a1
            kinds.append("axis-out-of-range")
        if (a1, a2) != (0, 1) or rng.random() < 0.2:
            if a1 != 0 or rng.random() < 0.5:
                opts.append(option(rng, ["--axis1", "--dim1"], str(a1), [.6, .4]))
            if a2 != 1 or rng.random() < 0.5:
                opts.append(option(rng, ["--axis2", "--dim2"], str(a2), [.6, .4]))
        pick = rng.random()
        offset = "0"
        if nd >= 2 and -ndv <= a1 < ndv and -ndv <= a2 < ndv:
            n1, n2 = arr.shape[a1], arr.shape[a2]
        else:
            n1 = n2 = 3
        if pick < 0.3:
            pass
        elif pick < 0.85:
            offset = str(int(rng.integers(-n1 - 2, n2 + 3)))
        elif pick < 0.97:
            offset = str(pick_int(rng, FAR_OFFSETS))
        else:
            offset = str(rng.choice(BAD_INT_TEXT))
            kinds.append("bad-offset")
        if offset != "0" or rng.random() < 0.2:
            opts.append(option(rng, ["--offset"], offset))
        rng.shuffle(opts)
        before, after = self.split_options(rng, opts)
        label = "diagonal %s shape=%s order=%s offset=%s axes=%s,%s%s%s" % (
            token, fmt_shape(arr.shape), order, offset, a1, a2,
            " [%s]" % ",".join(kinds) if kinds else "", " " + tag if tag else "")
        return self.finish_case("diagonal", rng, d, label, before, spec, after, stdin, in_path,
                                bool(kinds))

    def gather_case(self, seed, idx):
        """One random gather case: file or literal indices, every mode, with or without axis."""
        rng = np.random.default_rng([seed, 4, idx])
        d = self.case_dir("gather", idx)
        token, order, layout = cell(idx)
        shape = list(shape_for(rng, layout))
        nd = len(shape)
        ndv = max(nd, 1)
        kinds = []
        pick = rng.random()
        if pick < 0.25:
            axis = None
        elif pick < 0.96:
            axis = int(rng.integers(-ndv, ndv))
        else:
            axis = int(rng.choice([ndv, -ndv - 1, 33]))
            kinds.append("axis-out-of-range")
        valid_axis = axis is not None and -ndv <= axis < ndv
        if valid_axis and layout == "empty" and rng.random() < 0.5:
            shape = [max(e, 1) for e in shape]  # the gathered axis the empty one
            shape[axis] = 0
        shape = tuple(shape)
        token, arr = random_array(rng, token, shape=shape)
        self.seen("gather", token, order, arr.shape)
        n = arr.size if axis is None else (shape[axis] if nd else 1) if valid_axis else 5
        rest = max(1, arr.size // max(n, 1))
        spec, stdin, tag, in_path = place_input(rng, d, arr, order)
        mode = rng.choice([None, "raise", "wrap", "clip"], p=[.3, .2, .25, .25])
        mode = None if mode is None else str(mode)
        eff = mode or "raise"
        opts = []
        if mode is not None:
            opts.append(option(rng, ["--mode"], mode))
        elif rng.random() < 0.01:
            opts.append(option(rng, ["--mode"], str(rng.choice(["Raise", "bogus", ""]))))
            kinds.append("bad-mode")
        if axis is not None:
            opts.append(option(rng, ["--axis"], str(axis)))
        elif rng.random() < 0.01:
            opts.append(option(rng, ["--axis"], str(rng.choice(BAD_INT_TEXT))))
            kinds.append("bad-axis")
        ishape = random_index_shape(rng, min(256, 20000 // rest))
        itoken = str(rng.choice(INDEX_TOKENS))
        oob = eff == "raise" and rng.random() < 0.08
        ivals = index_values(rng, itoken, ishape, n, eff, oob)
        if oob and ivals.size:
            kinds.append("index-out-of-range")
        if n == 0 and ivals.size:
            kinds.append("non-empty-take-from-empty")
        src = rng.random()
        if src < 0.03:
            bad = str(rng.choice(BAD_INDEX_TOKENS))
            ivals = np.asarray(ivals).astype(gt.token_dtype(bad))
            where, itag = place_indices(rng, d, ivals)
            opts.append(option(rng, ["--indices"], where))
            kinds.append("index-dtype-" + bad)
            itoken = bad
        elif src < 0.8 or ivals.size > 200:
            where, itag = place_indices(rng, d, ivals)
            opts.append(option(rng, ["--indices"], where))
        elif src < 0.96:
            text = format_literal(rng, np.asarray(ivals))
            opts.append(option(rng, ["--index"], text))
            itag, itoken = "literal=%s" % text, "literal"
        elif src < 0.98:
            text = str(rng.choice(BAD_LITERALS))
            opts.append(option(rng, ["--index"], text))
            itag, itoken = "literal=%r" % text, "literal"
            kinds.append("bad-literal")
        elif src < 0.99:
            where, itag = place_indices(rng, d, ivals)
            opts += [option(rng, ["--indices"], where), option(rng, ["--index"], "0")]
            kinds.append("indices-and-index")
        else:
            itag = "no indices"
            kinds.append("no-indices")
        rng.shuffle(opts)
        before, after = self.split_options(rng, opts)
        label = "gather %s shape=%s order=%s axis=%s mode=%s idx=%s%s %s%s%s" % (
            token, fmt_shape(arr.shape), order, axis, mode or "default", itoken,
            fmt_shape(ishape), itag, " [%s]" % ",".join(kinds) if kinds else "",
            " " + tag if tag else "")
        libs = self.gather_libs(eff)
        if not libs:
            return [Outcome("gather", "torch", "skip", label, "torch.index_select has no %s mode"
                            % eff)]
        return self.finish_case("gather", rng, d, label, before, spec, after, stdin, in_path,
                                bool(kinds), libs)

    def gather_elements_case(self, seed, idx):
        """One random gather-elements case; index extents off the axis equal the input's
        (judged against NumPy and torch) or, for torch only, smaller."""
        rng = np.random.default_rng([seed, 5, idx])
        d = self.case_dir("gather-elements", idx)
        token, order, layout = cell(idx)
        shape = shape_for(rng, layout, 1, 7)
        nd = len(shape)
        ndv = max(nd, 1)
        kinds = [] if nd else ["0-d"]
        opts = []
        pick = rng.random()
        if pick < 0.3:
            axis = -1
        elif pick < 0.96:
            axis = int(rng.integers(-ndv, ndv))
        else:
            axis = int(rng.choice([ndv, -ndv - 1, 33]))
            kinds.append("axis-out-of-range")
        if axis != -1 or rng.random() < 0.2:
            opts.append(option(rng, ["--axis", "--dim"], str(axis), [.6, .4]))
        valid_axis = nd and -ndv <= axis < ndv
        ax = axis % nd if valid_axis else None
        shape = list(shape)
        if valid_axis and layout == "empty" and rng.random() < 0.5:
            shape = [max(e, 1) for e in shape]  # the indexed axis the empty one
            shape[ax] = 0
        shape = tuple(shape)
        token, arr = random_array(rng, token, shape=shape)
        self.seen("gather-elements", token, order, arr.shape)
        n = shape[ax] if valid_axis else 3
        torch_only = "torch" in self.libs and rng.random() < 0.3
        ishape = list(shape)
        for k in range(nd):
            if k == ax:
                ishape[k] = int(rng.choice([0, 1, 2, 3, 5, n, n, n + 2]))
            elif torch_only:
                ishape[k] = int(rng.integers(0, shape[k] + 1))
        while ax is not None and math.prod(ishape) > 8192:
            ishape[ax] //= 2
        pick = rng.random()
        if pick < 0.03:
            ishape = ishape + [int(rng.choice([1, 2]))] if (rng.random() < 0.5 or not nd) \
                else ishape[:-1]
            kinds.append("index-ndim")
        elif pick < 0.07 and nd >= 2 and valid_axis:
            k = int(rng.choice([k for k in range(nd) if k != ax]))
            ishape[k] = shape[k] + int(rng.integers(1, 4))
            kinds.append("index-extent-too-large")
        ishape = tuple(ishape)
        itoken = str(rng.choice(INDEX_TOKENS))
        oob = rng.random() < 0.07
        ivals = index_values(rng, itoken, ishape, n, "raise", oob)
        if oob and ivals.size:
            kinds.append("index-out-of-range")
        if n == 0 and ivals.size:
            kinds.append("non-empty-take-from-empty")
        pick = rng.random()
        if pick < 0.03:
            itoken = str(rng.choice(BAD_INDEX_TOKENS))
            ivals = np.asarray(ivals).astype(gt.token_dtype(itoken))
            kinds.append("index-dtype")
        if pick < 0.99:
            where, itag = place_indices(rng, d, ivals)
            opts.append(option(rng, ["--indices"], where))
        else:
            itag = "no indices"
            kinds.append("no-indices")
        spec, stdin, tag, in_path = place_input(rng, d, arr, order)
        rng.shuffle(opts)
        before, after = self.split_options(rng, opts)
        label = "gather-elements %s shape=%s order=%s axis=%s idx=%s%s %s%s%s" % (
            token, fmt_shape(arr.shape), order, axis, itoken, fmt_shape(ishape), itag,
            " [%s]" % ",".join(kinds) if kinds else "", " " + tag if tag else "")
        libs = ["torch"] if torch_only else self.libs
        return self.finish_case("gather-elements", rng, d, label, before, spec, after, stdin,
                                in_path, bool(kinds), libs)

    def literal_case(self, idx, text, mode):
        """gather --index TEXT on np.arange(20) as >i2: one edge of the literal grammar."""
        d = self.case_dir("gather", idx)
        in_path = d / "in.npy"
        in_path.write_bytes(gt.npy_bytes(np.arange(20, dtype=">i2")))
        out_path = d / "out" / "out.npy"
        args = ["gather", "--index=" + text, str(in_path), "-o", str(out_path)]
        if mode:
            args += ["--mode", mode]
        label = "gather --index %r%s on arange(20)" % (text, " --mode " + mode if mode else "")
        libs = self.gather_libs(mode or "raise")
        if not libs:
            return [Outcome("gather", "torch", "skip", label, "torch.index_select has no %s mode"
                            % mode)]
        return self.judge_npy("gather", label, args, None, None, out_path, False, False, libs)

    def gather_libs(self, mode):
        """The libraries that can judge a gather in this mode (torch.index_select: raise)."""
        return self.libs if mode == "raise" else [lb for lb in self.libs if lb != "torch"]

    def large_case(self, op, idx, seed, token, shape, order, options, index=None):
        """One case with an output past ops.parallelMin (256 KiB), so strider's threaded paths
        run. index: (dtype token, shape, axis size, mode) for a random --indices file."""
        rng = np.random.default_rng([seed, 6, idx])
        d = self.case_dir(op, idx)
        _, arr = random_array(rng, token, shape)
        in_path = d / "in.npy"
        in_path.write_bytes(npy_in_order(arr, order))
        opts, desc = list(options), ""
        if index is not None:
            itoken, ishape, n, mode = index
            where, tag = place_indices(rng, d, index_values(rng, itoken, ishape, n, mode), "C")
            opts += ["--indices", where]
            desc = " idx=%s%s" % (itoken, fmt_shape(ishape))
        out_path = d / "out" / "out.npy"
        args = [op] + opts + [str(in_path), "-o", str(out_path), "--threads", "4"]
        label = "%s %s shape=%s order=%s %s%s [large]" % (
            op, token, fmt_shape(shape), order, " ".join(options), desc)
        mode = opts[opts.index("--mode") + 1] if "--mode" in opts else "raise"
        libs = self.gather_libs(mode) if op == "gather" else self.libs
        return self.judge_npy(op, label, args, None, None, out_path, False, False, libs)

    def file_case(self, op, idx, spec, options=(), index=None, numpy_only=False):
        """op on a fixture or malformed file from testdata/ (spec) with fixed options; index:
        an array written to idx.npy and passed as --indices, or a path passed as it is."""
        d = self.case_dir(op, idx)
        out_path = d / "out" / "out.npy"
        opts, shown = list(options), list(options)
        if index is not None:
            if isinstance(index, np.ndarray):
                path = d / "idx.npy"
                path.write_bytes(gt.npy_bytes(index))
                shown += ["--indices", "%s%s" % (index.dtype.str, fmt_shape(index.shape))]
            else:
                path = index
                shown += ["--indices", os.path.relpath(path, REPO)]
            opts += ["--indices", str(path)]
        args = [op] + opts + [spec, "-o", str(out_path)]
        label = "%s %s %s" % (op, " ".join(shown), os.path.relpath(spec, REPO))
        libs = self.libs[:1] if numpy_only else self.libs
        return self.judge_npy(op, label, args, None, None, out_path, False, False, libs)

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
            problems = check_info_refusal(proc)
        elif "--json" not in args:
            problems = check_clean_success(proc, stdout_must_be_empty=False)
            if not problems and not proc.stdout.strip():
                problems.append("no output")
        elif may_refuse and proc.rc == 2 and not check_info_refusal(proc):
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
            if k == 0:  # the first file is the case's cell
                token, order, layout = cell(idx)
                token, arr = random_array(rng, token, shape_for(rng, layout))
                self.seen("info", token, order, arr.shape)
            else:
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

#: (op, dtype token, shape, order, options, index spec or None) for Runner.large_case.
LARGE_CASES = [
    ("diagonal", "f8le", (3, 40000, 3), "C", ["--axis1", "0", "--axis2", "2"], None),
    ("diagonal", "c16be", (4, 8000, 4), "F", ["--offset", "-1", "--axis1", "-1",
                                              "--axis2", "0"], None),
    ("diagonal", "i2be", (60000, 4, 5), "C", ["--offset", "1", "--axis1", "2",
                                              "--axis2", "1"], None),
    ("gather", "f4le", (512, 300), "C", ["--axis", "0"], ("i8le", (1500,), 512, "raise")),
    ("gather", "f4be", (300, 512), "F", ["--axis", "1"], ("i4be", (1500,), 512, "raise")),
    ("gather", "c16le", (64, 64, 16), "C", ["--axis", "-2", "--mode", "wrap"],
     ("i2le", (20, 10), 64, "wrap")),
    ("gather", "u1", (100, 3000), "F", ["--axis", "0", "--mode", "clip"],
     ("u2be", (700,), 100, "clip")),
    ("gather", "f8le", (300, 300), "C", [], ("u8le", (100000,), 90000, "raise")),
    ("gather", "b1", (2000, 3), "F", ["--axis", "0"], ("i1", (300, 300), 128, "raise")),
    ("gather-elements", "f8le", (600, 500), "C", ["--axis", "0"], ("i4le", (900, 500), 600,
                                                                    "raise")),
    ("gather-elements", "i2be", (400, 700), "F", [], ("i8be", (400, 900), 700, "raise")),
    ("gather-elements", "c8le", (40, 50, 60), "C", ["--dim", "1"],
     ("u4le", (40, 100, 60), 50, "raise")),
]


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
    idx = tmp / "probe-idx.npy"
    idx.write_bytes(gt.npy_bytes(np.zeros((2, 1), dtype="<i8")))
    out = ["-o", str(tmp / "probe-out.npy")]
    args = {"info": ["info", "--json", str(path)],
            "transpose": ["transpose", str(path)] + out,
            "diagonal": ["diagonal", str(path)] + out,
            "gather": ["gather", "--index", "0", str(path)] + out,
            "gather-elements": ["gather-elements", "--indices", str(idx), str(path)] + out}[op]
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
    fixtures = fixture_specs()
    malformed = [p for p, _ in malformed_files()]
    if "diagonal" in ops:
        jobs += [("diagonal", lambda i=i: runner.diagonal_case(args.seed, i))
                 for i in range(args.diagonal_cases)]
        idx = args.diagonal_cases
        for spec in fixtures:
            opts = ["--offset", "-1", "--axis1", "-1", "--axis2", "0"] if idx % 2 else []
            jobs.append(("diagonal", lambda i=idx, s=spec, o=opts: runner.file_case(
                "diagonal", i, s, o)))
            idx += 1
        for path in malformed:
            jobs.append(("diagonal", lambda i=idx, p=path: runner.file_case(
                "diagonal", i, str(p), numpy_only=True)))
            idx += 1
    if "gather" in ops:
        jobs += [("gather", lambda i=i: runner.gather_case(args.seed, i))
                 for i in range(args.gather_cases)]
        idx = args.gather_cases
        for text, mode in FIXED_LITERALS:
            jobs.append(("gather", lambda i=idx, t=text, m=mode: runner.literal_case(i, t, m)))
            idx += 1
        for spec in fixtures:
            opts = ["--index", "[0,-1]", "--axis", "-1"] if idx % 2 else ["--index", "-1"]
            jobs.append(("gather", lambda i=idx, s=spec, o=opts: runner.file_case(
                "gather", i, s, o)))
            idx += 1
        some_input = str(REPO / "testdata" / "example_f4_2x3x4_c.npy")
        for path in malformed:
            jobs.append(("gather", lambda i=idx, p=path: runner.file_case(
                "gather", i, str(p), ["--index", "0"], numpy_only=True)))
            jobs.append(("gather", lambda i=idx + 1, p=path: runner.file_case(
                "gather", i, some_input, ["--axis", "0"], index=p, numpy_only=True)))
            idx += 2
    for k, (op, token, shape, order, opts, index) in enumerate(LARGE_CASES):
        if op in ops:
            jobs.append((op, lambda i=90000 + k, t=token, sh=shape, o=order, op_=op, x=opts,
                         ix=index: runner.large_case(op_, i, args.seed, t, sh, o, x, ix)))
    if "gather-elements" in ops:
        jobs += [("gather-elements", lambda i=i: runner.gather_elements_case(args.seed, i))
                 for i in range(args.gather_elements_cases)]
        idx = args.gather_elements_cases
        one = np.zeros((1,), dtype="<i8")
        for path in malformed:
            jobs.append(("gather-elements", lambda i=idx, p=path: runner.file_case(
                "gather-elements", i, str(p), index=one, numpy_only=True)))
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
    ap.add_argument("--cases", type=int, default=500, help="random transpose cases (500)")
    ap.add_argument("--info-cases", type=int, default=300, help="random info cases (300)")
    ap.add_argument("--diagonal-cases", type=int, default=600,
                    help="random diagonal cases (600)")
    ap.add_argument("--gather-cases", type=int, default=400, help="random gather cases (400)")
    ap.add_argument("--gather-elements-cases", type=int, default=300,
                    help="random gather-elements cases (300)")
    ap.add_argument("--plugin-cases", type=int, default=0,
                    help="cases= for plug-in modules (0: each module's own default times "
                    "--scale)")
    ap.add_argument("--scale", type=float, default=1.0,
                    help="multiplies every random-case count, built-in and plug-in (1; "
                    "scripts/test.sh: PARITY=quick 0.3, full 1, deep 4). From 150 cases of an "
                    "op on, every (dtype, order, 0-d/empty/n-d) cell is run and checked")
    ap.add_argument("--lanes", type=int, default=2,
                    help="plug-ins run as this many child processes at a time, beside the "
                    "built-in cases (2; 0: one after another in this process)")
    ap.add_argument("--plugin-child", default="", help=argparse.SUPPRESS)
    ap.add_argument("-v", "--verbose", action="store_true", help="passed on to plug-in modules")
    ap.add_argument("--seed", type=int, default=0, help="random seed (0)")
    ap.add_argument("--ops", default=",".join(OPS + tuple(plugin_ops())),
                    help="comma list of built-in ops (%s) and plug-ins (scripts/parity_OP.py, "
                    "OP with _ for -; default: all found: %s)"
                    % (", ".join(OPS), ", ".join(plugin_ops()) or "none"))
    ap.add_argument("--lib", default=",".join(LIBS), help="comma list of: numpy, torch")
    ap.add_argument("--jobs", type=int, default=4, help="parallel strider runs (4)")
    ap.add_argument("--timeout", type=int, default=60, help="seconds per strider run (60)")
    ap.add_argument("--keep", action="store_true", help="keep the temporary folder")
    args = ap.parse_args(argv)
    args.ops = [o for o in args.ops.split(",") if o]
    if args.scale <= 0:
        ap.error("--scale: want a number above 0, got %g" % args.scale)
    for name in ("cases", "info_cases", "diagonal_cases", "gather_cases",
                 "gather_elements_cases"):
        setattr(args, name, round(getattr(args, name) * args.scale))
    args.libs = [lb for lb in args.lib.split(",") if lb]
    if not args.ops:
        ap.error("--ops: none given")
    bad = [lb for lb in args.libs if lb not in LIBS]
    if bad or not args.libs:
        ap.error("--lib: unknown %s (choose from %s)" % (bad or "(none)", ", ".join(LIBS)))
    return args


# ---------------------------------------------------------------------------------------------
# plug-in modules: scripts/parity_<op>.py

def plugin_ops():
    """The ops of the parity_*.py modules beside this script (parity_gather_x.py: gather-x)."""
    return [p.stem[len("parity_"):].replace("_", "-") for p in sorted(SCRIPTS.glob("parity_*.py"))]


def run_plugin(op, strider_path, args):
    """Import scripts/parity_<op>.py and call its run(strider, cases=, seed=, verbose=).

    Returns dict(passed=, failed=, skipped=, seconds=, error=): a module that cannot be
    imported, has no run(), raises, or returns something other than those counts is one failure
    with the reason in error; the harness itself never stops for it.
    """
    name = "parity_" + op.replace("-", "_")
    start = time.monotonic()
    result = {"passed": 0, "failed": 1, "skipped": 0, "error": None}
    try:
        module = importlib.import_module(name)
        run = getattr(module, "run", None)
        if not callable(run):
            raise TypeError("%s.py has no run(strider, cases=..., seed=..., verbose=...)" % name)
        kwargs = {"seed": args.seed, "verbose": args.verbose}
        default = inspect.signature(run).parameters.get("cases")
        if args.plugin_cases:
            kwargs["cases"] = args.plugin_cases
        elif args.scale != 1 and default is not None and isinstance(default.default, int):
            kwargs["cases"] = max(1, round(default.default * args.scale))
        got = run(strider_path, **kwargs)
        counts = {k: got.get(k) if isinstance(got, dict) else None
                  for k in ("passed", "failed", "skipped")}
        if any(type(v) is not int or v < 0 for v in counts.values()):
            raise TypeError("%s.run returned %r, not dict(passed=, failed=, skipped=)"
                            % (name, got))
        result = dict(counts, error=None)
    except ModuleNotFoundError as e:
        if e.name != name:  # the plug-in exists but imports something missing
            result["error"] = "%s.py: %s: %s" % (name, type(e).__name__, e)
        else:
            result["error"] = "no plug-in %s.py in %s" % (name, SCRIPTS)
    except (Exception, SystemExit) as e:  # noqa: BLE001 - a broken plug-in is a failure
        where = traceback.extract_tb(e.__traceback__)[-1:] if e.__traceback__ else []
        at = " at %s:%d" % (os.path.basename(where[0].filename), where[0].lineno) if where else ""
        result["error"] = "%s: %s%s" % (type(e).__name__, str(e).splitlines()[0] if str(e)
                                        else "", at)
    result["seconds"] = time.monotonic() - start
    return result


#: The slowest plug-ins first, so that the lanes end together.
PLUGIN_COST = ("reduce", "tri", "slice", "sort", "compare", "show", "to-text", "order", "from-text",
               "torchfiles", "stats")
RESULT_MARK = "@@parity-result "
#: Where the case folders go: memory, where there is a /dev/shm (tens of thousands of files).
RUN_TMP = os.environ.get("PARITY_TMPDIR") or ("/dev/shm" if os.access("/dev/shm", os.W_OK)
                                              else None)


def start_plugins(plugins, strider_path, args):
    """Runs each plug-in as a child process (this script with --plugin-child), args.lanes at a
    time, so that they use the cores the built-in cases (one Python process, one printed script
    at a time) leave idle. Returns {op: future of (output text, result dict)}."""
    order = sorted(plugins, key=lambda op: PLUGIN_COST.index(op) if op in PLUGIN_COST else -1)
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=args.lanes)
    common = ["--strider", strider_path, "--seed", str(args.seed), "--scale", repr(args.scale),
              "--plugin-cases", str(args.plugin_cases)] + (["-v"] if args.verbose else [])

    def one(op):
        start = time.monotonic()
        p = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--plugin-child", op]
                           + common, capture_output=True, text=True, errors="replace")
        lines = p.stdout.splitlines()
        marks = [ln for ln in lines if ln.startswith(RESULT_MARK)]
        text = "\n".join(ln for ln in lines if not ln.startswith(RESULT_MARK))
        if p.returncode == 0 and marks:
            return text, json.loads(marks[-1][len(RESULT_MARK):])
        tail = p.stderr.strip().splitlines()[-3:]
        return text, {"passed": 0, "failed": 1, "skipped": 0, "seconds": time.monotonic() - start,
                      "error": "the child process exited %d: %s" % (p.returncode,
                                                                   " | ".join(tail))}

    futures = {op: pool.submit(one, op) for op in order}
    pool.shutdown(wait=False)
    return {op: futures[op] for op in plugins}


def cpu_seconds():
    """User + system CPU time of this process and its finished children, in seconds."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(
        resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def check_cells(runner, ops, args):
    """The coverage check: every op run with at least cells_needed() random cases must have met
    every (dtype token, order, layout) cell. Returns FAIL lines and a summary line."""
    counts = {"transpose": args.cases, "info": args.info_cases,
              "diagonal": args.diagonal_cases, "gather": args.gather_cases,
              "gather-elements": args.gather_elements_cases}
    want = {(t, o, lay) for t in gt.DTYPE_TOKENS for o in ORDERS for lay in LAYOUTS}
    fails, checked, unchecked = [], [], []
    for op in ops:
        if counts[op] < cells_needed():
            unchecked.append(op)
            continue
        checked.append(op)
        missing = sorted(want - runner.cells[op])
        if missing:
            fails.append("FAIL %s coverage: %d of %d (dtype, order, layout) cells never ran, "
                         "e.g. %s" % (op, len(missing), len(want), missing[:5]))
    complete = [op for op in checked if not any(" %s " % op in f for f in fails)]
    notes = []
    if complete:
        notes.append("every one of %d (dtype, order, layout) cells ran for %s"
                     % (len(want), ", ".join(complete)))
    if unchecked:
        notes.append("not checked for %s (fewer than %d cases)" % (", ".join(unchecked),
                                                                   cells_needed()))
    note = "coverage: " + "; ".join(notes or ["see the FAIL lines"])
    return fails, note


def main(argv=None):
    args = parse_args(argv)
    path = shutil.which(args.strider) if os.sep not in args.strider else args.strider
    if not path or not os.access(path, os.X_OK) or os.path.isdir(path):
        print("parity: no strider binary at %s (build it: go build -o strider .)" % args.strider,
              file=sys.stderr)
        return 2
    if args.plugin_child:  # one plug-in for start_plugins: its counts on the last line
        r = run_plugin(args.plugin_child, os.path.abspath(path), args)
        r["cpu"] = cpu_seconds()
        print(RESULT_MARK + json.dumps(r), flush=True)
        return 0
    strider = Strider(os.path.abspath(path), args.timeout)
    tmp = Path(tempfile.mkdtemp(prefix="strider-parity-", dir=RUN_TMP))
    runner = Runner(strider, args.libs, tmp / "cases")
    start = time.monotonic()

    builtin = [op for op in args.ops if op in OPS]
    plugins = [op for op in args.ops if op not in OPS]
    missing = {op: why for op in builtin if (why := probe(strider, op, tmp))}
    for op, why in missing.items():
        print("SKIP %s: not implemented by strider yet (%s)" % (op, why))
    ops = [op for op in builtin if op not in missing]
    lanes = start_plugins(plugins, strider.path, args) if args.lanes > 0 and plugins else {}

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
    coverage_fails, coverage_note = check_cells(runner, ops, args)
    for line in coverage_fails:
        print(line)
    builtin_seconds = time.monotonic() - start
    builtin_cpu = cpu_seconds()  # with --lanes 0: before the plug-ins run in this process

    plugin_results = {}
    for op in plugins:
        print("== plug-in parity_%s.py" % op.replace("-", "_"), flush=True)
        if op in lanes:
            text, r = lanes[op].result()
            if text:
                print(text, flush=True)
        else:
            r = run_plugin(op, strider.path, args)
        plugin_results[op] = r
        if r["error"]:
            print("FAIL %s plug-in: %s" % (op, r["error"]))

    for op in builtin:
        for lib in (args.libs if op != "info" else ["numpy"]):
            mine = [r for r in results if r.op == op and r.lib == lib]
            count = collections.Counter(r.status for r in mine)
            skips = collections.Counter(r.reason for r in mine if r.status == "skip")
            note = ""
            if op in missing:
                note = " (not implemented by strider)"
            elif skips:
                note = " (" + ", ".join("%d %s" % (n, why) for why, n in skips.most_common()) + ")"
            refusals = sum(1 for r in mine if r.status == "pass" and r.refused)
            print("%s %s: %d passed (%d refusals), %d failed, %d skipped%s"
                  % (op, lib, count["pass"], refusals, count["fail"], count["skip"], note))
    print(coverage_note)
    # CPU: user + system, strider runs and child processes included (what an idle machine's
    # cores must do; wall time on a shared machine says little).
    if lanes:
        builtin_cpu = cpu_seconds() - sum(r.get("cpu", 0) for r in plugin_results.values())
    print("%d strider runs in %.1fs (CPU %.0fs)" % (len(jobs), builtin_seconds, builtin_cpu))
    for op, r in plugin_results.items():
        print("%s (plug-in parity_%s.py): %d passed, %d failed, %d skipped in %.1fs%s%s"
              % (op, op.replace("-", "_"), r["passed"], r["failed"], r["skipped"],
                 r["seconds"], " (CPU %.0fs)" % r["cpu"] if "cpu" in r else "",
                 " (%s)" % r["error"] if r["error"] else ""))
    if plugin_results:
        print("total %.1fs (CPU %.0fs)" % (time.monotonic() - start, cpu_seconds()))

    if failed or coverage_fails or args.keep:
        print("inputs and outputs kept in %s" % tmp)
    else:
        shutil.rmtree(tmp, ignore_errors=True)
    if failed or coverage_fails or any(r["failed"] for r in plugin_results.values()):
        return 1
    return 3 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
