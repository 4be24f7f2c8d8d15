#!/usr/bin/python3
"""Parity of `strider compare A B` on two archives against a Python model of the same report.

    go build -o /tmp/strider . && /usr/bin/python3 scripts/parity_compare_archives.py --strider /tmp/strider
    /usr/bin/python3 scripts/parity_compare_archives.py --strider ./strider --cases 200 --seed 3

Needs numpy (>= 1.24) and torch (>= 1.13): /usr/bin/python3 has both.

Each case writes two archives, each of a random kind (.npz by np.savez, .safetensors by the writer
of gen_torch_testdata, torch.save, a folder of .npy files), with members drawn from one pool and
then changed: equal, a few elements moved past the tolerance or within it, NaNs in both, a new
shape, a new dtype, a member dropped from either side. The model of the report:

- members in A's order, then those only in B in B's order (a folder lists its .npy sorted);
- both sides: "shape mismatch" when the shapes differ (neither 0-d); with --exact "dtype
  mismatch" when the dtypes differ, "equal" when the bytes are equal; else
  numpy.testing.assert_allclose(a, b, rtol, atol) passes -> "equal", raises -> "differs", with
  its "Mismatched elements: k / n" count; one side only: "only in A" / "only in B";
- --member GLOB keeps the names fnmatch.fnmatchcase accepts;
- exit 0 when every member is equal, 1 otherwise.

strider runs with --json (one object per member: member, status, mismatched) and as text (the
summary line's counts). Output: FAIL lines, then "compare_archives: N passed, N failed, N skipped".
"""

import argparse
import fnmatch
import json
import os
import random
import re
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

KINDS = ["npz", "safetensors", "pt", "folder"]
DTYPES = ["<f4", "<f8", "<i4", "<i8", "|b1", "|u1", "<f2"]
ST_NAMES = {"<f4": "F32", "<f8": "F64", "<i4": "I32", "<i8": "I64", "|b1": "BOOL", "|u1": "U8", "<f2": "F16"}


def rand_array(rng, dtype, shape):
    d = np.dtype(dtype)
    n = int(np.prod(shape)) if shape else 1
    if d.kind == "b":
        a = np.array([rng.random() < 0.5 for _ in range(n)])
    elif d.kind in "iu":
        a = np.array([rng.randint(0, 100) for _ in range(n)], dtype=d)
    else:
        a = np.array([rng.uniform(-10, 10) for _ in range(n)], dtype=d)
        if n > 2 and rng.random() < 0.2:
            a[0] = np.nan
    return a.reshape(shape)


def write_archive(kind, path, members):
    if kind == "npz":
        np.savez(path, **members)
        return path
    if kind == "folder":
        os.makedirs(path)
        for k, v in members.items():
            np.save(os.path.join(path, k + ".npy"), v)
        return path
    if kind == "safetensors":
        items = [(k, ST_NAMES[v.dtype.str], v.shape, np.ascontiguousarray(v).tobytes()) for k, v in members.items()]
        Path(path).write_bytes(gtt.write_safetensors(items))
        return path
    torch.save(OrderedDict((k, torch.from_numpy(np.array(v, copy=True))) for k, v in members.items()), path)
    return path


def model(a_members, b_members, a_kind, b_kind, exact, rtol, atol, glob):
    def order(members, kind):
        names = list(members)
        return sorted(names) if kind == "folder" else names
    names = []
    for n in order(a_members, a_kind) + order(b_members, b_kind):
        if n not in names and (glob is None or fnmatch.fnmatchcase(n, glob)):
            names.append(n)
    out = []
    for n in names:
        if n not in b_members:
            out.append((n, "only in A", None))
            continue
        if n not in a_members:
            out.append((n, "only in B", None))
            continue
        a, b = a_members[n], b_members[n]
        if a.shape != b.shape and a.ndim and b.ndim:
            out.append((n, "shape mismatch", None))
            continue
        if exact:
            if a.shape != b.shape:
                out.append((n, "shape mismatch", None))
            elif a.dtype.str != b.dtype.str:
                out.append((n, "dtype mismatch", None))
            elif a.tobytes() == b.tobytes():
                out.append((n, "equal", 0))
            else:
                ab, bb = np.ascontiguousarray(a).reshape(-1), np.ascontiguousarray(b).reshape(-1)  # 0-d: one element
                out.append((n, "differs", int(np.sum(ab.view(np.uint8).reshape(a.size, -1) != bb.view(np.uint8).reshape(b.size, -1), axis=1).astype(bool).sum()) if a.size else 0))
            continue
        try:
            np.testing.assert_allclose(a, b, rtol=rtol, atol=atol)
            out.append((n, "equal", 0))
        except AssertionError as e:
            m = re.search(r"Mismatched elements: (\d+) /", str(e))
            out.append((n, "differs", int(m.group(1)) if m else None))
    return out


def make_case(rng, tmp, i):
    pool = OrderedDict()
    for j in range(rng.randint(0, 6)):
        shape = tuple(rng.randint(0, 4) for _ in range(rng.randint(0, 3)))
        pool["m%d.%s" % (j, rng.choice(["weight", "bias", "x"]))] = rand_array(rng, rng.choice(DTYPES), shape)
    a, b = OrderedDict(), OrderedDict()
    for k, v in pool.items():
        r = rng.random()
        a[k] = v
        w = v.copy()
        if r < 0.1:
            del a[k]
        elif r < 0.2:
            continue  # only in A
        elif r < 0.35 and w.size and w.dtype.kind == "f":
            w.flat[rng.randrange(w.size)] += rng.choice([1e-9, 1e-3, 1.0])
        elif r < 0.45:
            w = rand_array(rng, v.dtype.str, v.shape + (2,))
        elif r < 0.55:
            with np.errstate(invalid="ignore"):
                w = v.astype(rng.choice(DTYPES))
        b[k] = w
    if rng.random() < 0.3:
        items = list(b.items())
        rng.shuffle(items)
        b = OrderedDict(items)
    kinds = (rng.choice(KINDS), rng.choice(KINDS))
    pa = write_archive(kinds[0], os.path.join(tmp, "a%d.%s" % (i, kinds[0])), a)
    pb = write_archive(kinds[1], os.path.join(tmp, "b%d.%s" % (i, kinds[1])), b)
    return a, b, kinds, pa, pb


def run(strider, cases=40, seed=0, verbose=False):
    rng = random.Random(seed)
    passed = failed = skipped = 0
    seen = {}
    with tempfile.TemporaryDirectory(prefix="strider-cmparc-") as tmp:
        for i in range(cases):
            a, b, kinds, pa, pb = make_case(rng, tmp, i)
            exact = rng.random() < 0.3
            rtol = rng.choice([1e-7, 1e-5])
            glob = rng.choice([None, None, None, "m1*", "*.weight"])
            opts = (["--exact"] if exact else []) + ["--rtol", repr(rtol)] + (["--member", glob] if glob else [])
            want = model(a, b, kinds[0], kinds[1], exact, rtol, 0.0, glob)
            for _, s, _ in want:
                seen[s] = seen.get(s, 0) + 1
            one_each = len(a) == 1 and len(b) == 1 and "folder" not in kinds and not glob
            if one_each or (glob and not want):
                # Two one-member archives are two arrays (parity_compare checks that report):
                # here the printed script must end as strider does. A selection of nothing is
                # exit 2 naming the pattern, and --as-numpy refuses it too.
                p = subprocess.run([strider, "compare"] + opts + [pa, pb], capture_output=True, text=True)
                if one_each:
                    why = selfcheck.check_verdict(strider, ["compare"] + opts + [pa, pb], p.returncode) \
                        if p.returncode in (0, 1) else "exit %d: %s" % (p.returncode, p.stderr)
                else:
                    why = None if p.returncode == 2 and glob in p.stderr else \
                        "exit %d, stderr %r" % (p.returncode, p.stderr)
                    why = why or selfcheck.check_refused(strider, ["compare"] + opts + [pa, pb], None)
                if why is None:
                    passed += 1
                else:
                    failed += 1
                    print("FAIL strider compare %s: %s" % (" ".join(shlex.quote(x) for x in opts + [pa, pb]), why))
                continue
            args = ["compare", "--json"] + opts + [pa, pb]
            p = subprocess.run([strider] + args, capture_output=True, text=True)
            got = []
            try:
                got = [json.loads(line) for line in p.stdout.splitlines()]
            except ValueError:
                pass
            want_rc = 0 if all(s == "equal" for _, s, _ in want) else 1
            ok = p.returncode == want_rc and len(got) == len(want)
            for (n, s, mism), g in zip(want, got):
                ok = ok and g.get("member") == n and g.get("status") == s
                if s in ("differs", "equal") and mism is not None and not exact:
                    ok = ok and g.get("mismatched") == mism
            p2 = subprocess.run([strider, "compare"] + opts + [pa, pb], capture_output=True, text=True)
            counts = {s: sum(1 for _, t, _ in want if t == s) for s in
                      ("equal", "differs", "shape mismatch", "dtype mismatch", "only in A", "only in B")}
            summary = "%d %s: %d equal, %d differ, %d only in A, %d only in B" % (
                len(want), "member" if len(want) == 1 else "members", counts["equal"],
                counts["differs"] + counts["shape mismatch"] + counts["dtype mismatch"],
                counts["only in A"], counts["only in B"])
            lines = p2.stdout.splitlines()
            ok = ok and p2.returncode == want_rc and lines and lines[-1] == summary and len(lines) == len(want) + 1
            why = selfcheck.check_verdict(strider, ["compare"] + opts + [pa, pb], p2.returncode)
            if why is not None:
                ok = False
                print("FAIL the printed script:", why)
            if ok:
                passed += 1
                if verbose:
                    print("ok  ", " ".join(shlex.quote(x) for x in args))
            else:
                failed += 1
                print("FAIL strider %s\n  rc %d (want %d), stderr %r\n  got  %s\n  want %s\n  text %r (want %r)" % (
                    " ".join(shlex.quote(x) for x in args), p.returncode, want_rc, p.stderr,
                    [(g.get("member"), g.get("status"), g.get("mismatched")) for g in got], want,
                    lines[-1:] , summary))
    if verbose:
        print("member statuses modelled:", seen)
    print("compare_archives: %d passed, %d failed, %d skipped" % (passed, failed, skipped))
    return dict(passed=passed, failed=failed, skipped=skipped)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--strider", required=True)
    ap.add_argument("--cases", type=int, default=40)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("-v", "--verbose", action="store_true")
    a = ap.parse_args()
    return 1 if run(os.path.abspath(a.strider), a.cases, a.seed, a.verbose)["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
