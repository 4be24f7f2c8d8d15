"""GPU parity: CPU and GPU outputs of one strider (built with -tags cuda) byte
for byte, reductions against NumPy's bits, and PyTorch CUDA's results.

Run by scripts/gpu-parity.sh (see there). Every check is a task; a section's
tasks run on a pool of JOBS threads (a GPU process costs a CUDA
context, so they run side by side) until the section's share of the time
left (SECONDS_LEFT) is spent, every (command, dtype) pair once before any
twice (stratified; PARITY_SEED picks another order, PARITY_ONLY, a regular
expression, the checks whose labels it matches); what did not run is counted as not run, never
as passed.
"""
import concurrent.futures, itertools, os, random, re, subprocess, sys, threading, time
import numpy as np
import torch

strider, work, big = os.environ["STRIDER"], os.environ["WORK"], os.environ["BIG"] == "1"
cpu_strider = os.environ.get("STRIDER_CPU") or strider  # the default build: the same engine without cuInit's cost
deadline = time.monotonic() + float(os.environ.get("SECONDS_LEFT") or 1e9)
jobs = int(os.environ.get("JOBS") or min(16, os.cpu_count() or 4))
rng = np.random.default_rng(7)
failed = passed = notrun = 0
lock = threading.Lock()
seq = itertools.count()
tasks = []


def run(args, device, env=None):
    return subprocess.run([cpu_strider if device == "cpu" else strider] + args + ["--device", device],
                          capture_output=True, env=env, timeout=300)


def count(ok, message=""):
    global failed, passed
    with lock:
        if ok:
            passed += 1
        else:
            failed += 1
            print(message, flush=True)


def stratified(todo):
    """todo reordered so that every (command or reduce op, dtype) comes up once before any comes up twice,
    the order within and across them shuffled: a run cut short has still seen every pair."""
    r = random.Random(len(todo) + int(os.environ.get("PARITY_SEED") or 0))
    groups = {}
    for fn in todo:
        label = getattr(fn, "label", "")
        m = re.search(r"[<>|=][a-z]\d+", label)
        words = label.split(" ")
        command = " ".join(words[:2]) if words[0] == "reduce" else words[0]  # reduce: the op too
        groups.setdefault((command, m.group(0) if m else ""), []).append(fn)
    rows = list(groups.values())
    for g in rows:
        r.shuffle(g)
    r.shuffle(rows)
    print("-- %d checks in %d (command, dtype) pairs" % (len(todo), len(rows)), flush=True)
    return [g[i] for i in range(max(map(len, rows), default=0)) for g in rows if i < len(g)]


def drain(section, share):
    """Runs the queued tasks, shuffled, until share of the time left is spent."""
    global notrun
    todo = stratified(tasks[:])
    del tasks[:]
    start = time.monotonic()
    until = start + share * max(0.0, deadline - start)

    def one(fn):
        if time.monotonic() > until:
            return False
        try:
            fn()
        except Exception as e:  # a timeout or a broken file is a failure, not a stop
            count(False, "FAIL %s: %r" % (getattr(fn, "label", "?"), e))
        return True

    with concurrent.futures.ThreadPoolExecutor(jobs) as ex:
        done = sum(ex.map(one, todo))
    notrun += len(todo) - done
    print("-- %s: %d of %d checks run in %.0f s (%d passed, %d failed so far)"
          % (section, done, len(todo), time.monotonic() - start, passed, failed), flush=True)


def task(label, fn):
    if os.environ.get("PARITY_ONLY") and not re.search(os.environ["PARITY_ONLY"], label):
        return
    fn.label = label
    tasks.append(fn)


def outputs(args, outs, tag):
    return [a.replace("@", tag) for a in args], [o.replace("@", tag) for o in outs]


def same(label, args, outs, after=None):
    """Queue: args on both devices; every output path in outs must match byte for byte."""
    def check():
        n = next(seq)
        res = {}
        for dev in ("cpu", "cuda"):
            a, o = outputs(args, outs, "%s%d" % (dev, n))
            p = run(a, dev)
            files = []
            for path in o:
                files.append(open(path, "rb").read() if p.returncode == 0 and os.path.exists(path) else None)
                if os.path.exists(path):
                    os.remove(path)
            res[dev] = (p.returncode, files, p.stderr.decode(errors="replace").strip())
        (rc0, f0, e0), (rc1, f1, e1) = res["cpu"], res["cuda"]
        count(rc0 == rc1 and f0 == f1, "FAIL %s: cpu rc=%d %s | cuda rc=%d %s\n  $ %s %s --device cuda"
              % (label, rc0, e0[:120], rc1, e1[:120], strider, " ".join(outputs(args, outs, "cuda")[0])))
        if after:
            after()
    task(label, check)

def rand_array(dt, shape):
    dt = np.dtype(dt)
    n = int(np.prod(shape))
    if dt.kind in "fc":
        vals = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.5, -2.25, 3.0, 1e-40, 7e4], dtype=np.float64)
        a = rng.choice(vals, n)
        if dt.kind == "c":
            with np.errstate(all="ignore"):
                a = a + 1j * rng.choice(vals, n)
        with np.errstate(all="ignore"):
            a = a.astype(dt)
    elif dt.kind == "b":
        a = rng.integers(0, 2, n).astype(dt)
    else:
        info = np.iinfo(dt)
        a = rng.integers(info.min, info.max, n, dtype=np.int64 if info.min < 0 else np.uint64, endpoint=True).astype(dt)
    return a.reshape(shape)

def save(name, a, fortran=False):
    path = os.path.join(work, "%d_%s" % (next(seq), name))
    np.save(path, np.asfortranarray(a) if fortran else a)
    return path

dtypes = ["|b1", "|i1", "|u1", "<i2", ">i2", "<u2", ">u2", "<f2", ">f2", "<i4", ">i4", "<u4", ">u4",
          "<f4", ">f4", "<i8", ">i8", "<u8", ">u8", "<f8", ">f8", "<c8", ">c8", "<c16", ">c16"]
shapes = [(), (0,), (7,), (3, 5), (4, 33, 2), (65, 70), (2, 3, 4, 5), (1, 1, 9), (3, 0, 4), (2, 1300)]
for dt, shape, fortran in itertools.product(dtypes, shapes, (False, True)):
    a = rand_array(dt, shape)
    src = save("in.npy", a, fortran)
    tag = "%s%s%s" % (dt, shape, "F" if fortran else "C")
    out = os.path.join(work, "out_@.npy")
    same("transpose " + tag, ["transpose", src, "-o", out], [out])
    if a.ndim >= 2:
        perm = ",".join(map(str, rng.permutation(a.ndim)))
        same("transpose --axes %s %s" % (perm, tag), ["transpose", src, "--axes", perm, "-o", out], [out])
        for off in (-1, 0, 2):
            same("diagonal %d %s" % (off, tag), ["diagonal", src, "--offset", str(off), "-o", out], [out])
    if a.size:
        same("gather flat " + tag, ["gather", src, "--index", "[0, %d, 1]" % (a.size - 1), "--mode", "clip", "-o", out], [out])
    if a.ndim >= 1 and a.shape[-1] > 0:
        k = a.shape[-1]
        idx = rng.integers(-k, k, 11)
        same("gather axis -1 " + tag, ["gather", src, "--axis", "-1", "--index", str(list(map(int, idx))), "-o", out], [out])
        ip = save("idx.npy", rng.integers(0, k, a.shape[:-1] + (3,)).astype(">i4"))
        same("gather-elements " + tag, ["gather-elements", src, "--indices", ip, "-o", out], [out])
    for expr in ("::-1", "..., ::2", "[0, -1]", "..., [1, 0]", "None, ..., 1:"):
        same("slice %r %s" % (expr, tag), ["slice", src, expr, "-o", out], [out])
    if a.ndim >= 1:
        for extra in ([], ["--descending"], ["--nans", "first"], ["--axis", "0", "--descending", "--nans", "last"]):
            iout = os.path.join(work, "idx_@.npy")
            same("sort %s %s" % (" ".join(extra), tag), ["sort", src, "-o", out, "--indices", iout] + extra, [out, iout])
    # The pipeline operations: cast (a few targets a case; every pair below),
    # reshape in both index orders, concat and stack with an input of another
    # dtype (cast into strided parts), unique-consecutive with both outputs.
    for to in rng.choice(dtypes, 3, replace=False):
        same("cast %s %s" % (to, tag), ["cast", src, "--dtype", str(to), "-o", out], [out])
    for order in ("C", "F"):
        same("reshape -1 %s %s" % (order, tag), ["reshape", src, "-1", "--order", order, "-o", out], [out])
        if a.ndim >= 2:
            shp = "%d,-1" % a.shape[-1]
            same("reshape %s %s %s" % (shp, order, tag), ["reshape", src, shp, "--order", order, "-o", out], [out])
    other = save("other.npy", rand_array(str(rng.choice(dtypes)), shape), not fortran)
    for axis in ["0", "-1", "none"] if a.ndim else ["none"]:
        same("concat %s %s" % (axis, tag), ["concat", src, other, src, "--axis", axis, "-o", out], [out])
    for axis in ("0", "-1"):
        same("stack %s %s" % (axis, tag), ["stack", src, other, "--axis", axis, "-o", out], [out])
    iout, cout = os.path.join(work, "inv_@.npy"), os.path.join(work, "cnt_@.npy")
    for axis in [[]] + [["--axis", str(k)] for k in range(a.ndim)]:
        same("unique-consecutive %s %s" % (axis, tag), ["unique-consecutive", src, "-o", out, "--inverse", iout, "--counts", cout] + axis, [out, iout, cout])

# Long rows: the radix passes (several tiles a row), every key width.
for dt in ("|u1", ">i2", "<f2", "<f4", ">f8", "<c8", ">c16", "<i8"):
    a = rand_array(dt, (3, 9000))
    src = save("in.npy", a)
    out, iout = os.path.join(work, "out_@.npy"), os.path.join(work, "idx_@.npy")
    for extra in ([], ["--descending"], ["--axis", "0"]):
        same("sort long %s %s" % (dt, extra), ["sort", src, "-o", out, "--indices", iout] + extra, [out, iout])
# Every cast pair, in both byte orders, on values that probe the x86 rules.
special = np.array([0.0, -0.0, 0.5, -1.5, 2.5, 127.5, 255.9, -129.0, 65504.0, 65520.0, 2.0**31, -2.0**31 - 1,
                    2.0**32, 2.0**63, -2.0**63, 2.0**64, 1e20, -1e300, 6e-8, 3e-8, np.inf, -np.inf, np.nan], dtype=np.float64)
for dt in dtypes:
    with np.errstate(all="ignore"):
        a = np.concatenate([special.astype(dt), rand_array(dt, (41,))]) if np.dtype(dt).kind in "fc" else rand_array(dt, (64,))
    src = save("in.npy", a[::-1])
    out = os.path.join(work, "out_@.npy")
    for to in dtypes:
        same("cast all %s->%s" % (dt, to), ["cast", src, "--dtype", to, "-o", out], [out])
# Runs: few distinct values, long and short runs, along each axis.
for dt in ("|b1", "<i4", ">u2", "<f2", ">f4", "<f8", "<c8", ">c16"):
    vals = rand_array(dt, (4,))
    a = vals[np.repeat(rng.integers(0, 4, 60), rng.integers(20, 60, 60))][:1200].reshape(40, 30)
    src = save("in.npy", a, True)
    out, iout, cout = (os.path.join(work, x) for x in ("out_@.npy", "inv_@.npy", "cnt_@.npy"))
    for axis in ([], ["--axis", "0"], ["--axis", "1"]):
        same("unique runs %s %s" % (dt, axis), ["unique-consecutive", src, "-o", out, "--inverse", iout, "--counts", cout] + axis, [out, iout, cout])
# Large views and the tiled transpose past one grid's worth of tiles.
a = rand_array("<f4", (3000, 2900))
src = save("in.npy", a)
out = os.path.join(work, "out_@.npy")
same("transpose large", ["transpose", src, "-o", out], [out])
same("slice large", ["slice", src, "::-3, 1::7", "-o", out], [out])
for rows, cols, off in ((5000, 5000, 0), (3000, 7000, -100), (7, 3, 9), (0, 4, 0)):
    for kind in ("tril-indices", "triu-indices"):
        for dtype in ("int64", "int32"):
            same("%s %d %d %d %s" % (kind, rows, cols, off, dtype),
                 [kind, str(rows), str(cols), "--offset", str(off), "--dtype", dtype, "-o", out], [out])
drain("copy, cast, sort and unique kernels", 0.45)
if big:
    # Past 2^31 elements: the 64-bit index instantiations.
    n = (1 << 31) + 3
    a = np.arange(n, dtype=np.uint8)
    src = save("big.npy", a)
    del a
    same("slice big ::-1", ["slice", src, "::-1", "-o", out], [out])
    same("gather big", ["gather", src, "--index", "[0, %d, 5]" % (n - 1), "-o", out], [out])
    same("cast big", ["cast", src, "--dtype", "bool", "-o", out], [out])
    drain("past 2^31 elements", 0.3)
    os.remove(src)

# reduce: the order-free reductions (kernels/reduce.cu), CPU vs GPU byte for
# byte on every dtype, layout and axis set, and against NumPy's own bits on
# values without -0.0 and with only the canonical NaN, where the GPU must
# settle every output itself (STRIDER_CUDA_TIMING=1: no "redo-on-cpu" line);
# on values with both zeros and NaN payloads it may hand a call to the CPU.
# The GPU refuses the others, in one line saying why.
gpu_reduce_ops = ["min", "max", "ptp", "argmin", "argmax", "any", "all", "count-nonzero"]
np_reduce = {"min": np.amin, "max": np.amax, "ptp": np.ptp, "argmin": np.argmin, "argmax": np.argmax,
             "any": np.any, "all": np.all, "count-nonzero": np.count_nonzero}

def clean(a):
    """a with -0.0 made 0.0 and every NaN the canonical one (a complex NaN: nan+0j)."""
    a = a.copy()
    if a.dtype.kind == "f":
        a[a == 0] = 0
        a[np.isnan(a)] = np.nan
    elif a.dtype.kind == "c":
        re, im = a.real.copy(), a.imag.copy()
        bad = np.isnan(re) | np.isnan(im)
        re[re == 0] = 0
        im[im == 0] = 0
        re[bad], im[bad] = np.nan, 0
        a = (re + 1j * im).astype(a.dtype)
    return a

def reduce_axes(nd, op):
    out = [None]
    if nd:
        out += [[k] for k in range(nd)] + [[-1]]
        if nd >= 2 and op not in ("argmin", "argmax"):
            out += [[0, nd - 1], list(range(nd))]
    return out

def reduce_case(label, src, op, axes, keep, check_numpy):
    """Queue: CPU and GPU alike; with check_numpy, the GPU's file holds NumPy's bits and nothing was redone on the CPU."""
    out = os.path.join(work, "red_@.npy")
    args = ["reduce", op, src, "-o", out]
    if axes is not None:
        args += ["--axis", ",".join(map(str, axes))]
    if keep:
        args.append("--keepdims")

    def against_numpy():
        a, (o,) = outputs(args, [out], "np%d" % next(seq))
        p = run(a, "cuda", env=dict(os.environ, STRIDER_CUDA_TIMING="1"))
        err = p.stderr.decode(errors="replace")
        try:
            kw = {} if axes is None else {"axis": tuple(axes) if len(axes) > 1 else axes[0]}
            if keep:
                kw["keepdims"] = True
            with np.errstate(all="ignore"):
                want = np.asarray(np_reduce[op](np.load(src), **kw))  # as saved: np.asfortranarray makes a 0-d array 1-d
        except (ValueError, TypeError):
            want = None
        if want is None:
            ok = p.returncode == 2 and err.startswith("strider: reduce: ")
        else:
            got = np.load(o) if p.returncode == 0 else None
            ok = (got is not None and got.shape == want.shape
                  and (got.dtype.kind, got.dtype.itemsize) == (want.dtype.kind, want.dtype.itemsize)
                  and np.ascontiguousarray(got).tobytes() == np.ascontiguousarray(want.astype(got.dtype)).tobytes()
                  and "redo-on-cpu" not in err)
        if os.path.exists(o):
            os.remove(o)
        count(ok, "FAIL %s vs numpy (rc=%d%s): %s" % (label, p.returncode, ", redone on the CPU" if "redo-on-cpu" in err else "",
                                                   err.strip()[:160]))

    same(label, args, [out], after=against_numpy if check_numpy else None)


# Three operations a case, each over one of its axis sets (every op, every
# dtype and every axis set come up across the cases; a GPU process costs a
# context, so not every combination runs).
for dt, shape in itertools.product(dtypes, shapes):
    raw, fortran = rand_array(dt, shape), bool(rng.integers(0, 2))
    for kind, a in (("specials", raw), ("clean", clean(raw))):
        src = save("red.npy", a, fortran)
        for op in rng.choice(gpu_reduce_ops, 3, replace=False):
            choices = reduce_axes(a.ndim, op)
            axes = choices[rng.integers(0, len(choices))]
            keep = bool(rng.integers(0, 4) == 0)
            reduce_case("reduce %s %s %s%s%s axes=%s keep=%s" % (op, kind, dt, shape, "F" if fortran else "C", axes, keep),
                        src, op, axes, keep, kind == "clean")
# Long reductions: several chunks an output (rows), columns, one output.
for dt in ("<f4", ">f8", "<i2", "|b1", "<c8", "<f2"):
    for shape, fortran, axes in (((3, 90000), False, [1]), ((300000,), False, None), ((9000, 40), False, [0]),
                                 ((40, 9000), True, [1]), ((5, 6, 7000), True, [1, 2]), ((7000, 3), False, [1])):
        a = clean(rand_array(dt, shape))
        src = save("red.npy", a, fortran)
        for op in rng.choice(gpu_reduce_ops, 4, replace=False):
            if op in ("argmin", "argmax") and axes is not None and len(axes) > 1:
                continue
            reduce_case("reduce long %s %s%s%s axes=%s" % (op, dt, shape, "F" if fortran else "C", axes), src, op, axes,
                        False, True)
# Refused on the GPU, in one line, before any output is written.
a = rand_array("<f4", (5, 7))
src = save("red.npy", a)
for op, why in (("sum", "order of the additions"), ("mean", "order of the additions"), ("std", "order of the additions"),
                ("prod", "order of the multiplications"), ("nanmax", "no GPU kernel"), ("nanargmin", "no GPU kernel")):
    def refused(op=op, why=why):
        out = os.path.join(work, "refused%d.npy" % next(seq))
        p = run(["reduce", op, src, "-o", out], "cuda")
        lines = p.stderr.decode(errors="replace").splitlines()
        count(p.returncode == 2 and len(lines) == 1 and why in lines[0] and not os.path.exists(out),
              "FAIL reduce %s --device cuda: rc=%d %r (want a refusal naming %r)" % (op, p.returncode, lines, why))
    task("reduce %s refused" % op, refused)
drain("reduce kernels", 0.6)
if big:
    # Past 2^31 elements: the 64-bit index instantiations, one output and many.
    n = (1 << 31) + 3
    a = np.resize(np.arange(251, dtype=np.uint8), n)
    a[n - 2] = 255
    src = save("big.npy", a)
    del a
    out = os.path.join(work, "out_@.npy")
    for op in ("max", "argmax", "count-nonzero", "all"):
        same("reduce big %s" % op, ["reduce", op, src, "-o", out], [out])
    same("reduce big any keepdims", ["reduce", "any", src, "--axis", "0", "--keepdims", "-o", out], [out])
    drain("reduce past 2^31 elements", 0.4)
    os.remove(src)

print("cpu vs cuda: %d passed, %d failed, %d not run (time)" % (passed, failed, notrun), flush=True)

# PyTorch on the GPU: same data, torch's CUDA kernels as the reference.
if os.environ["TORCH"] != "1":
    print("torch cuda: skipped (--no-torch)")
    sys.exit(1 if failed or notrun else 0)
rehearsal = os.environ.get("TORCH_DEVICE") == "cpu"  # the plumbing, on a host without a GPU
if not rehearsal and not torch.cuda.is_available():
    print("FAIL torch has no CUDA here (pass --no-torch to skip these comparisons)")
    sys.exit(1)
cpu_failed, cpu_passed = failed, passed
failed = passed = 0
dev = torch.device("cpu" if rehearsal else "cuda")


def tq(label, args, outs, want, keep=None):
    """Queue: strider on the GPU writes outs; want() gives torch's arrays for them (keep(got, want) may mask both)."""
    def check():
        a, o = outputs(args, outs, "t%d" % next(seq))
        p = run(a, "cuda")
        if p.returncode != 0:
            count(False, "FAIL torch %s: strider rc=%d %s" % (label, p.returncode, p.stderr.decode(errors="replace")[:160]))
            return
        got = [np.load(path) for path in o]
        for path in o:
            os.remove(path)
        with torch.no_grad():
            ref = [w.cpu().numpy() for w in want()]
        for g, w in zip(got, ref):
            if keep:
                g, w = keep(g, w)
            count(g.shape == w.shape and np.array_equal(g, w, equal_nan=g.dtype.kind in "fc"), "FAIL torch %s" % label)
    task("torch " + label, check)


out, iout = os.path.join(work, "t_@.npy"), os.path.join(work, "ti_@.npy")
inv, cnt = os.path.join(work, "tinv_@.npy"), os.path.join(work, "tcnt_@.npy")
for dt in ("<f4", ">f8", "<i8", "|u1", "<i4", "<f2"):
    a = rand_array(dt, (37, 64, 5))
    src = save("in.npy", a)
    native = a.astype(a.dtype.newbyteorder("="))
    t = torch.from_numpy(native).to(dev)
    tq("permute " + dt, ["transpose", src, "--axes", "2,0,1", "-o", out], [out], lambda t=t: [t.permute(2, 0, 1).contiguous()])
    idx = rng.integers(0, 64, 50)
    tq("index_select " + dt, ["gather", src, "--axis", "1", "--index", str(list(map(int, idx))), "-o", out], [out],
       lambda t=t, idx=idx: [torch.index_select(t, 1, torch.from_numpy(idx).to(dev))])
    gi = rng.integers(0, 64, (37, 9, 5))
    ip = save("gi.npy", gi)
    tq("gather " + dt, ["gather-elements", src, "--axis", "1", "--indices", ip, "-o", out], [out],
       lambda t=t, gi=gi: [torch.gather(t, 1, torch.from_numpy(gi).to(dev))])
    for desc in (False, True):
        tq("sort %s desc=%s" % (dt, desc), ["sort", src, "--axis", "1", "-o", out, "--indices", iout] + (["--descending"] if desc else []),
           [out, iout], lambda t=t, desc=desc: list(torch.sort(t, dim=1, descending=desc, stable=True)))
    if dt == "<f2":
        continue  # torch has no unique for float16 (on the CPU, in 1.13) and casts it as strider does not promise
    native = np.repeat(native[:, :8], 3, axis=1)
    t = torch.from_numpy(native).to(dev)
    src = save("in.npy", native)
    for dim in (None, 0, 1):
        tq("unique_consecutive %s dim=%s" % (dt, dim),
           ["unique-consecutive", src, "-o", out, "--inverse", inv, "--counts", cnt] + ([] if dim is None else ["--axis", str(dim)]),
           [out, inv, cnt], lambda t=t, dim=dim: list(torch.unique_consecutive(t, return_inverse=True, return_counts=True, dim=dim)))
    for to in (torch.float32, torch.int32, torch.uint8, torch.bool):
        keep = None
        if native.dtype.kind == "f" and to in (torch.int32, torch.uint8):
            def keep(got, want, native=native):
                # Out of range and NaN are undefined in torch: compare the rest.
                info = np.iinfo(got.dtype)
                with np.errstate(invalid="ignore"):
                    k = np.isfinite(native) & (np.trunc(native) >= info.min) & (np.trunc(native) <= info.max)
                return got[k], want[k]
        name = str(to).replace("torch.", "")
        tq("cast %s to %s" % (dt, name), ["cast", src, "--dtype", name, "-o", out], [out], lambda t=t, to=to: [t.to(to)], keep)
for dt in ("<i4", "|u1", "<i8", ">i2"):
    a = rand_array(dt, (33, 70, 4))
    src = save("in.npy", a)
    t = torch.from_numpy(a.astype(a.dtype.newbyteorder("="))).to(dev)
    for dim in (0, 1, 2):
        for op, fn in (("max", torch.amax), ("min", torch.amin), ("count-nonzero", torch.count_nonzero),
                       ("any", torch.any), ("all", torch.all), ("argmax", torch.argmax), ("argmin", torch.argmin)):
            if op in ("argmax", "argmin") and dt == "|u1":
                continue  # ties: torch's CUDA argmax does not promise the first
            tq("reduce %s %s dim=%d" % (op, dt, dim), ["reduce", op, src, "--axis", str(dim), "-o", out], [out],
               lambda t=t, fn=fn, dim=dim: [fn(t, dim)])
for rows, cols, off in ((100, 100, 0), (2000, 1000, 5), (10, 3000, -4)):
    for kind, fn in (("tril-indices", torch.tril_indices), ("triu-indices", torch.triu_indices)):
        tq("%s %d %d %d" % (kind, rows, cols, off), [kind, str(rows), str(cols), "--offset", str(off), "-o", out], [out],
           lambda fn=fn, rows=rows, cols=cols, off=off: [fn(rows, cols, off, device=dev)])
drain("PyTorch CUDA", 1.0)
print("torch cuda: %d passed, %d failed" % (passed, failed))
print("not run for want of time: %d checks" % notrun)
sys.exit(1 if failed or cpu_failed or notrun else 0)
