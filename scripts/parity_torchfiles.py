#!/usr/bin/python3
"""Parity of strider on .safetensors and torch.save inputs against torch.load / NumPy.

    go build -o /tmp/strider . && /usr/bin/python3 scripts/parity_torchfiles.py --strider /tmp/strider
    /usr/bin/python3 scripts/parity_torchfiles.py --strider ./strider --cases 400 --seed 1

Needs numpy (>= 1.24) and torch (>= 1.13): /usr/bin/python3 has both.

Inputs: every fixture of testdata/torch/ (scripts/gen_torch_testdata.py), and `cases` random
tensors written here, by torch.save (every dtype torch has; views: permuted, sliced with steps and
offsets, expanded, several views of one storage in one file, nested dict keys) and by the
safetensors writer of gen_torch_testdata (every dtype of the format, BF16 and F8 included).
The reference for a tensor is torch.load(...) -> .numpy() (bfloat16 and float8 widened exactly
to float32 as gen_torch_testdata.load_reference says).

For each tensor FILE:NAME (bare FILE when the file holds one tensor):
- info --json: shape, dtype, descr, count, nbytes as NumPy has them;
- transpose, slice (a random expression), sort (last axis), diagonal (2-d and up), gather
  (--index 0 --axis 0): the output is byte for byte np.save of NumPy's result on the reference;
- compare --exact FILE:NAME ref.npy exits 0;
- the --as-numpy script of each of these commands (and the --as-torch one of transpose) writes
  the same bytes as strider (scripts/selfcheck.py).
Malformed corpus (testdata/torch/malformed): every command exits 2 with one stderr line
"strider: CMD: ...", writes nothing to stdout and leaves no output file; the pickle that calls
os.system must not have run (its canary file stays absent); the --as-numpy script of
`transpose FILE` must fail too (but for pt_storage_short.pt, which torch.load reads: SCRIPT_READS).

Output: a FAIL line per failure with the command to reproduce it, then
"torchfiles: N passed, N failed, N skipped". Exit 0 when nothing failed.
"""

import argparse
import concurrent.futures
import io
import json
import os
import random
import shlex
import subprocess
import sys
import tempfile
from collections import OrderedDict
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
import gen_torch_testdata as gtt  # noqa: E402 - sibling module
import selfcheck  # noqa: E402 - sibling module

FIXTURES = gtt.OUT
CANARY = "/tmp/strider-pwned"


def npy_bytes(a):
    """np.save of a in C order, as strider writes every result (a 0-d array stays 0-d)."""
    buf = io.BytesIO()
    np.save(buf, np.asarray(a).copy(order="C"))
    return buf.getvalue()


def random_view(rng, dtype):
    """A random tensor of dtype, often a non-contiguous view of a larger storage."""
    ndim = rng.choice([0, 1, 1, 2, 2, 3, 4])
    shape = [rng.choice([0, 1, 2, 3, 5]) if rng.random() < 0.15 else rng.randint(1, 6) for _ in range(ndim)]
    base = gtt.values(dtype, tuple(s + rng.randint(0, 3) for s in shape), rng.randint(0, 10**6))
    # slice each axis with an offset and a step, then maybe permute / expand
    idx = []
    for k, s in enumerate(shape):
        step = rng.choice([1, 1, 2])
        start = rng.randint(0, base.shape[k] - min(s, base.shape[k]))
        idx.append(slice(start, start + step * s, step))
    t = base[tuple(idx)] if ndim else base
    if ndim >= 2 and rng.random() < 0.5:
        perm = list(range(ndim))
        rng.shuffle(perm)
        t = t.permute(*perm)
    if ndim >= 1 and rng.random() < 0.15 and t.shape[0] > 0:
        t = t[:1].expand(3, *t.shape[1:])
    return t


def random_expr(rng, shape):
    parts = []
    for s in shape:
        r = rng.random()
        if r < 0.3:
            parts.append(":")
        elif r < 0.5 and s > 0:
            parts.append(str(rng.randint(-s, s - 1)))
        elif r < 0.75:
            parts.append("::-1")
        else:
            parts.append("%d:%d:%d" % (rng.randint(0, max(s, 1)), rng.randint(0, s + 1), rng.choice([1, 2])))
    if not parts or rng.random() < 0.2:
        parts.append("...")
    return ", ".join(parts)


def make_random_files(tmp, cases, rng):
    """Write random torch.save and safetensors files; return their paths."""
    paths = []
    dtypes = list(gtt.TORCH_DTYPES)
    per_file = 6
    for f in range((cases + per_file - 1) // per_file):
        n = min(per_file, cases - f * per_file)
        if f % 3 == 2:
            items = []
            names = list(gtt.ST_DTYPES) + ["BF16", "F8_E4M3", "F8_E5M2"]
            for i in range(n):
                dt = rng.choice(names)
                shape = tuple(rng.randint(0, 4) for _ in range(rng.randint(0, 3)))
                size = int(np.prod(shape)) if shape else 1
                width = {"F8_E4M3": 1, "F8_E5M2": 1, "BF16": 2}.get(dt) or np.dtype(gtt.ST_DTYPES[dt]).itemsize
                raw = bytes(rng.getrandbits(8) for _ in range(size * width))
                if dt == "BOOL":
                    raw = bytes(b & 1 for b in raw)
                items.append(("t%d.w" % i, dt, shape, raw))
            path = Path(tmp) / ("rand%d.safetensors" % f)
            path.write_bytes(gtt.write_safetensors(items, {"seed": str(f)}))
        else:
            obj = OrderedDict()
            shared = gtt.values(torch.float32, (4, 5), f)
            for i in range(n):
                if i == 0 and rng.random() < 0.5:
                    obj["shared"] = {"a": shared[1:, ::2], "b": shared.t()}
                    continue
                obj["layer%d" % i] = {"weight": random_view(rng, rng.choice(dtypes))}
            path = Path(tmp) / ("rand%d.pt" % f)
            torch.save(obj, str(path))
        paths.append(path)
    return paths


def run_strider(strider, args):
    p = subprocess.run([strider] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return p.returncode, p.stdout, p.stderr.decode("utf-8", "replace")


def check_tensor(strider, spec, ref, tmp, rng):
    """Run every command on one tensor; return a list of (ok, description)."""
    out = []
    cmd = lambda a: "strider " + " ".join(shlex.quote(x) for x in a)

    rc, so, se = run_strider(strider, ["info", "--json", spec])
    want = {"shape": list(ref.shape), "dtype": ref.dtype.name, "descr": ref.dtype.str,
            "count": int(ref.size), "nbytes": int(ref.nbytes)}
    try:
        got = json.loads(so)
        ok = rc == 0 and all(got.get(k) == v for k, v in want.items())
    except ValueError:
        ok, got = False, so
    out.append((ok, "%s: %s, want %s" % (cmd(["info", "--json", spec]), got, want)))

    def same(args, result, libs=("numpy",)):
        rc, so, se = run_strider(strider, args)
        want = npy_bytes(result)
        out.append((rc == 0 and so == want, "%s: rc %d, %s" % (cmd(args), rc, se.strip() or "bytes differ")))
        if rc == 0:
            for lib in libs:  # the printed script reads FILE:NAME as strider does
                why = selfcheck.check(strider, args, None, None, True, so, lib=lib)
                out.append(("skip" if why == "skip" else why is None, "%s --as-%s: %s" % (cmd(args), lib, why)))

    same(["transpose", spec], np.transpose(ref), ("numpy", "torch"))
    expr = random_expr(rng, ref.shape)
    with np.errstate(all="ignore"):
        try:
            r = eval("ref[" + expr + "]", {"ref": ref})  # noqa: S307 - our own expression
            same(["slice", spec, expr], np.asarray(r) if np.ndim(r) else np.array(r, dtype=ref.dtype))
        except IndexError:
            pass
    if ref.ndim >= 1:
        same(["sort", spec], np.sort(ref, axis=-1, kind="stable"))
        if ref.shape[0] > 0:
            same(["gather", "--index", "0", "--axis", "0", spec], np.take(ref, 0, axis=0))
    if ref.ndim >= 2:
        same(["diagonal", spec], np.ascontiguousarray(np.diagonal(ref)))
    refpath = Path(tmp) / ("ref%d.npy" % rng.getrandbits(40))
    np.save(refpath, ref)
    rc, so, se = run_strider(strider, ["compare", "--exact", spec, str(refpath)])
    out.append((rc == 0, "%s: rc %d %s" % (cmd(["compare", "--exact", spec, str(refpath)]), rc, se.strip() or so.decode()[:200])))
    refpath.unlink()
    return out


# PyTorch 1.13's torch.load reads a storage record shorter than the storage's numel needs
# (the next zip entry's bytes fill the rest), so the printed script cannot refuse it as strider
# does; every other malformed file is refused by the script too.
SCRIPT_READS = {"pt_storage_short.pt"}


def check_malformed(strider, path, tmp):
    out = []
    if path.name not in SCRIPT_READS:
        why = selfcheck.check_refused(strider, ["transpose", str(path)], None)
        out.append((why is None, "strider transpose %s --as-numpy: %s" % (shlex.quote(str(path)), why)))
    for spec in (str(path), str(path) + ":w"):
        # info lists a file whose tensors have a dtype strider does not read (marked "not
        # read"); naming such a tensor is an error.
        listed = spec == str(path) and path.name in ("pt_quantized.pt", "st_unknown_dtype.safetensors")
        commands = [["transpose", spec], ["slice", spec, "..."], ["sort", spec], ["compare", spec, spec]]
        if spec != str(path):
            commands = commands[:1]
        for args in ([] if listed else [["info", spec]]) + commands:
            target = Path(tmp) / ("out%d.npy" % random.getrandbits(40))
            full = args + ([] if args[0] in ("info", "compare") else ["-o", str(target)])
            rc, so, se = run_strider(strider, full)
            lines = se.splitlines()
            ok = (rc == 2 and so == b"" and len(lines) == 1 and lines[0].startswith("strider: %s: " % args[0])
                  and not target.exists())
            out.append((ok, "strider %s: rc %d, stdout %d bytes, stderr %r" % (
                " ".join(shlex.quote(x) for x in full), rc, len(so), se)))
    return out


def run(strider, cases=30, seed=0, verbose=False, workers=3):
    rng = random.Random(seed)
    passed = failed = skipped = 0
    if os.path.exists(CANARY):
        os.unlink(CANARY)
    with tempfile.TemporaryDirectory(prefix="strider-torch-") as tmp:
        files = sorted(p for p in FIXTURES.glob("*") if p.suffix in (".pt", ".safetensors"))
        files += make_random_files(tmp, cases, rng)
        jobs = []
        with concurrent.futures.ThreadPoolExecutor(workers) as pool:
            for path in files:
                refs = gtt.load_reference(path)
                for name, ref in refs.items():
                    spec = str(path) + ":" + name
                    if len(refs) == 1 and rng.random() < 0.5:
                        spec = str(path)
                    jobs.append(pool.submit(check_tensor, strider, spec, ref, tmp, random.Random(rng.random())))
            for path in sorted((FIXTURES / "malformed").glob("*")):
                if path.suffix in (".pt", ".safetensors"):
                    jobs.append(pool.submit(check_malformed, strider, path, tmp))
            for j in jobs:
                for ok, what in j.result():
                    if ok == "skip":
                        skipped += 1
                    elif ok:
                        passed += 1
                        if verbose:
                            print("ok  ", what.split(":")[0])
                    else:
                        failed += 1
                        print("FAIL", what)
    if os.path.exists(CANARY):
        failed += 1
        print("FAIL the os.system pickle ran: %s exists" % CANARY)
    else:
        passed += 1
    print("torchfiles: %d passed, %d failed, %d skipped" % (passed, failed, skipped))
    return dict(passed=passed, failed=failed, skipped=skipped)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--strider", required=True)
    ap.add_argument("--cases", type=int, default=30, help="random tensors written here")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("-v", "--verbose", action="store_true")
    a = ap.parse_args()
    r = run(os.path.abspath(a.strider), a.cases, a.seed, a.verbose)
    return 1 if r["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
