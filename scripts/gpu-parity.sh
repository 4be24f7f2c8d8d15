#!/usr/bin/env bash
# GPU parity, for a host with an NVIDIA GPU, NumPy and PyTorch with CUDA, and
# no Go: takes a strider built elsewhere with `go build -tags cuda` and
#
#  1. runs the whole parity suite (scripts/parity.py and its plug-ins) with
#     every operation on the GPU, through a wrapper that puts --device cuda
#     after the subcommand (info and compare stay on the CPU);
#  2. runs every operation on assorted inputs with --device cpu and
#     --device cuda and demands byte-identical outputs (every dtype in both
#     byte orders, C and Fortran order, 0-d and empty arrays, long sort rows
#     for the radix path, and, unless --no-big, an array past 2^31 elements
#     for the 64-bit index kernels);
#     reduce (min, max, ptp, argmin, argmax, any, all, count-nonzero) also
#     against NumPy's own bits on values where the GPU must settle every
#     output itself, and the other reductions refused in one line;
#  3. compares with PyTorch's own CUDA results: permute().contiguous(),
#     index_select, gather, tril_indices/triu_indices, sort(stable=True),
#     unique_consecutive, .to(dtype) where torch defines the result, and
#     amax, amin, count_nonzero, any and all of integers.
#
# Usage: scripts/gpu-parity.sh --strider BIN [--no-big] [--no-torch] [--cases N] [-- PARITY ARGS...]
# (--cases: plug-in cases for parity.py; arguments after -- go to parity.py)
# $PYTHON picks the interpreter (default /usr/bin/python3). Exit 0 when all
# passed, 1 on any difference, 2 on bad usage or when the GPU path cannot run.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-/usr/bin/python3}
bin="" big=1 cases=300 torch=1
while [ $# -gt 0 ]; do
  case $1 in
    --strider) bin=$2; shift 2 ;;
    --strider=*) bin=${1#*=}; shift ;;
    --no-big) big=0; shift ;;
    --no-torch) torch=0; shift ;;
    --cases) cases=$2; shift 2 ;;
    --) shift; break ;;
    *) echo "gpu-parity.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
[ -n "$bin" ] && [ -x "$bin" ] || { echo "gpu-parity.sh: --strider BIN (a strider built with -tags cuda) is required" >&2; exit 2; }
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || true
"$PYTHON" -c 'import numpy, torch; print("numpy", numpy.__version__, "torch", torch.__version__, "cuda", torch.cuda.is_available())'
if ! "$bin" tril-indices 3 --device cuda -o "$work/probe.npy"; then
  echo "gpu-parity.sh: $bin cannot run on the GPU (a build with -tags cuda and a working driver are needed)" >&2
  exit 2
fi

# The wrapper: strider with --device cuda right after the subcommand, any
# --device the suite passes itself dropped (it sometimes adds --device cpu).
# The commands without a GPU kernel (they refuse --device cuda) stay on the
# CPU, and so do the reductions the GPU refuses (sum, mean, std, var, prod,
# the nan* functions: NumPy's float bits follow its order of operations):
# reduce gets --device cuda after its OP when the OP is one the GPU runs.
cat > "$work/strider-cuda" <<WRAP
#!/usr/bin/env bash
real=$(printf %q "$bin")
out=() cmd="" ended=0 skip=0 reduceop=0
for a in "\$@"; do
  if [ \$skip -eq 1 ]; then skip=0; continue; fi
  if [ \$ended -eq 0 ]; then
    case \$a in
      --) ended=1 ;;
      --device) skip=1; continue ;;
      --device=*) continue ;;
    esac
  fi
  out+=("\$a")
  if [ \$reduceop -eq 1 ]; then
    reduceop=0
    case \$a in min|max|ptp|argmin|argmax|any|all|count-nonzero) out+=(--device cuda) ;; esac
  fi
  if [ -z "\$cmd" ] && [ \$ended -eq 0 ] && [[ \$a != -* ]]; then
    cmd=\$a
    case \$cmd in
      info|compare|help|stats|to-text|from-text|convert) ;;
      reduce) reduceop=1 ;;
      *) out+=(--device cuda) ;;
    esac
  fi
done
exec "\$real" "\${out[@]}"
WRAP
chmod +x "$work/strider-cuda"

status=0
echo
echo "== parity suite with --device cuda"
"$PYTHON" scripts/parity.py --strider "$work/strider-cuda" --plugin-cases "$cases" "$@" || status=1

echo
echo "== CPU and GPU outputs, byte for byte; PyTorch CUDA"
STRIDER="$bin" WORK="$work" BIG="$big" TORCH="$torch" "$PYTHON" - <<'PY' || status=1
import itertools, os, subprocess, sys
import numpy as np
import torch

strider, work, big = os.environ["STRIDER"], os.environ["WORK"], os.environ["BIG"] == "1"
rng = np.random.default_rng(7)
failed = passed = 0

def run(args, device):
    return subprocess.run([strider] + args + ["--device", device], capture_output=True)

def same(label, args, outs):
    """Run args on both devices; every output path in outs must match byte for byte."""
    global failed, passed
    res = {}
    for dev in ("cpu", "cuda"):
        p = run([a.replace("@", dev) for a in args], dev)
        files = []
        for o in outs:
            path = o.replace("@", dev)
            files.append(open(path, "rb").read() if p.returncode == 0 and os.path.exists(path) else None)
        res[dev] = (p.returncode, files, p.stderr.decode(errors="replace").strip())
    (rc0, f0, e0), (rc1, f1, e1) = res["cpu"], res["cuda"]
    if rc0 != rc1 or f0 != f1:
        failed += 1
        print("FAIL %s: cpu rc=%d %s | cuda rc=%d %s" % (label, rc0, e0[:120], rc1, e1[:120]))
        print("  $ %s %s --device cuda" % (strider, " ".join(a.replace("@", "cuda") for a in args)))
    else:
        passed += 1

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
    path = os.path.join(work, name)
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
if big:
    # Past 2^31 elements: the 64-bit index instantiations.
    n = (1 << 31) + 3
    a = np.arange(n, dtype=np.uint8)
    src = save("big.npy", a)
    del a
    same("slice big ::-1", ["slice", src, "::-1", "-o", out], [out])
    same("gather big", ["gather", src, "--index", "[0, %d, 5]" % (n - 1), "-o", out], [out])
    same("cast big", ["cast", src, "--dtype", "bool", "-o", out], [out])
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
    """CPU and GPU alike; with check_numpy, the GPU's file holds NumPy's bits and nothing was redone on the CPU."""
    global failed, passed
    out = os.path.join(work, "red_@.npy")
    args = ["reduce", op, src, "-o", out]
    if axes is not None:
        args += ["--axis", ",".join(map(str, axes))]
    if keep:
        args.append("--keepdims")
    same(label, args, [out])
    if not check_numpy:
        return
    p = subprocess.run([strider] + [x.replace("@", "cuda") for x in args] + ["--device", "cuda"], capture_output=True,
                       env=dict(os.environ, STRIDER_CUDA_TIMING="1"))
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
        got = np.load(out.replace("@", "cuda")) if p.returncode == 0 else None
        ok = (got is not None and got.shape == want.shape and (got.dtype.kind, got.dtype.itemsize) == (want.dtype.kind, want.dtype.itemsize)
              and np.ascontiguousarray(got).tobytes() == np.ascontiguousarray(want.astype(got.dtype)).tobytes()
              and "redo-on-cpu" not in err)
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL %s vs numpy (rc=%d%s): %s" % (label, p.returncode, ", redone on the CPU" if "redo-on-cpu" in err else "",
                                               err.strip()[:160]))

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
    out = os.path.join(work, "refused.npy")
    p = subprocess.run([strider, "reduce", op, src, "-o", out, "--device", "cuda"], capture_output=True)
    lines = p.stderr.decode(errors="replace").splitlines()
    if p.returncode == 2 and len(lines) == 1 and why in lines[0] and not os.path.exists(out):
        passed += 1
    else:
        failed += 1
        print("FAIL reduce %s --device cuda: rc=%d %r (want a refusal naming %r)" % (op, p.returncode, lines, why))
if big:
    # Past 2^31 elements: the 64-bit index instantiations, one output and many.
    n = (1 << 31) + 3
    a = (np.arange(n, dtype=np.int64) % 251).astype(np.uint8)
    a[n - 2] = 255
    src = save("big.npy", a)
    del a
    out = os.path.join(work, "out_@.npy")
    for op in ("max", "argmax", "count-nonzero", "all"):
        same("reduce big %s" % op, ["reduce", op, src, "-o", out], [out])
    same("reduce big any keepdims", ["reduce", "any", src, "--axis", "0", "--keepdims", "-o", out], [out])
    os.remove(src)

print("cpu vs cuda: %d passed, %d failed" % (passed, failed))

# PyTorch on the GPU: same data, torch's CUDA kernels as the reference.
tfail = tpass = 0
if os.environ["TORCH"] != "1":
    print("torch cuda: skipped (--no-torch)")
    sys.exit(1 if failed else 0)
if not torch.cuda.is_available():
    print("FAIL torch has no CUDA here (pass --no-torch to skip these comparisons)")
    sys.exit(1)
def tcheck(label, got, want):
    global tfail, tpass
    if got.shape != want.shape or not np.array_equal(got, want, equal_nan=got.dtype.kind in "fc"):
        tfail += 1
        print("FAIL torch %s" % label)
    else:
        tpass += 1

dev = torch.device("cuda")
def load(path):
    return np.load(path)

for dt in ("<f4", ">f8", "<i8", "|u1", "<i4", "<f2"):
    a = rand_array(dt, (37, 64, 5))
    src = save("in.npy", a)
    native = a.astype(a.dtype.newbyteorder("="))
    t = torch.from_numpy(native).to(dev)
    out = os.path.join(work, "t.npy")
    run(["transpose", src, "--axes", "2,0,1", "-o", out], "cuda")
    tcheck("permute " + dt, load(out), t.permute(2, 0, 1).contiguous().cpu().numpy())
    idx = rng.integers(0, 64, 50)
    run(["gather", src, "--axis", "1", "--index", str(list(map(int, idx))), "-o", out], "cuda")
    tcheck("index_select " + dt, load(out), torch.index_select(t, 1, torch.from_numpy(idx).to(dev)).cpu().numpy())
    gi = rng.integers(0, 64, (37, 9, 5))
    ip = save("gi.npy", gi)
    run(["gather-elements", src, "--axis", "1", "--indices", ip, "-o", out], "cuda")
    tcheck("gather " + dt, load(out), torch.gather(t, 1, torch.from_numpy(gi).to(dev)).cpu().numpy())
    iout = os.path.join(work, "ti.npy")
    for desc in (False, True):
        args = ["sort", src, "--axis", "1", "-o", out, "--indices", iout] + (["--descending"] if desc else [])
        run(args, "cuda")
        v, i = torch.sort(t, dim=1, descending=desc, stable=True)
        tcheck("sort %s desc=%s values" % (dt, desc), load(out), v.cpu().numpy())
        tcheck("sort %s desc=%s indices" % (dt, desc), load(iout), i.cpu().numpy())
    if dt == "<f2":
        continue  # torch has no unique for float16 (on the CPU, in 1.13) and casts it as strider does not promise
    native = np.repeat(native[:, :8], 3, axis=1)
    t = torch.from_numpy(native).to(dev)
    src = save("in.npy", native)
    inv, cnt = os.path.join(work, "tinv.npy"), os.path.join(work, "tcnt.npy")
    for dim in (None, 0, 1):
        run(["unique-consecutive", src, "-o", out, "--inverse", inv, "--counts", cnt] + ([] if dim is None else ["--axis", str(dim)]), "cuda")
        u, ti, tc = torch.unique_consecutive(t, return_inverse=True, return_counts=True, dim=dim)
        tcheck("unique_consecutive %s dim=%s" % (dt, dim), load(out), u.cpu().numpy())
        tcheck("unique_consecutive %s dim=%s inverse" % (dt, dim), load(inv), ti.cpu().numpy())
        tcheck("unique_consecutive %s dim=%s counts" % (dt, dim), load(cnt), tc.cpu().numpy())
    for to in (torch.float32, torch.int32, torch.uint8, torch.bool):
        name = str(to).replace("torch.", "")
        run(["cast", src, "--dtype", name, "-o", out], "cuda")
        got, want = load(out), t.to(to).cpu().numpy()
        if native.dtype.kind == "f" and to in (torch.int32, torch.uint8):
            # Out of range and NaN are undefined in torch: compare the rest.
            info = np.iinfo(got.dtype)
            with np.errstate(invalid="ignore"):
                keep = np.isfinite(native) & (np.trunc(native) >= info.min) & (np.trunc(native) <= info.max)
            got, want = got[keep], want[keep]
        tcheck("cast %s to %s" % (dt, name), got, want)
for dt in ("<i4", "|u1", "<i8", ">i2"):
    a = rand_array(dt, (33, 70, 4))
    src = save("in.npy", a)
    t = torch.from_numpy(a.astype(a.dtype.newbyteorder("="))).to(dev)
    out = os.path.join(work, "t.npy")
    for dim in (0, 1, 2):
        for op, fn in (("max", torch.amax), ("min", torch.amin), ("count-nonzero", torch.count_nonzero)):
            run(["reduce", op, src, "--axis", str(dim), "-o", out], "cuda")
            tcheck("reduce %s %s dim=%d" % (op, dt, dim), load(out), fn(t, dim).cpu().numpy())
        for op, fn in (("any", torch.any), ("all", torch.all)):
            run(["reduce", op, src, "--axis", str(dim), "-o", out], "cuda")
            tcheck("reduce %s %s dim=%d" % (op, dt, dim), load(out), fn(t, dim).cpu().numpy())
for rows, cols, off in ((100, 100, 0), (2000, 1000, 5), (10, 3000, -4)):
    out = os.path.join(work, "t.npy")
    run(["tril-indices", str(rows), str(cols), "--offset", str(off), "-o", out], "cuda")
    tcheck("tril_indices", load(out), torch.tril_indices(rows, cols, off, device=dev).cpu().numpy())
    run(["triu-indices", str(rows), str(cols), "--offset", str(off), "-o", out], "cuda")
    tcheck("triu_indices", load(out), torch.triu_indices(rows, cols, off, device=dev).cpu().numpy())
print("torch cuda: %d passed, %d failed" % (tpass, tfail))
sys.exit(1 if failed or tfail else 0)
PY
[ "$status" -eq 0 ] && echo "gpu parity: all passed" || echo "gpu parity: FAILURES"
exit "$status"
