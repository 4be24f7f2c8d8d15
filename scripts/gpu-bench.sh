#!/usr/bin/env bash
# GPU benchmarks, for a host with an NVIDIA GPU and PyTorch with CUDA (no Go
# needed): kernel times of a strider built with `go build -tags cuda`, from
# CUDA events (STRIDER_CUDA_TIMING=1 makes the engine print one line per
# step on stderr), against PyTorch CUDA's equivalents on the same data, timed
# with CUDA events too: permute().contiguous(), index_select, gather,
# tril_indices and sort(stable=True). The device-to-device copy bandwidth
# (torch's copy_ and strider's own contiguous copy) is the ceiling the
# transpose and gather kernels are measured against. Host-device transfers
# and the whole process's wall time are reported separately.
#
# Also cast, unique-consecutive, a diagonal and reductions against torch's
# .to(), unique_consecutive, diagonal().contiguous(), amax and argmax.
#
# Usage: scripts/gpu-bench.sh --strider BIN [--runs N] [--quick] [--seconds S]
# (--seconds: cases not started by then are listed as not measured;
# $BENCH_ONLY, a Python regular expression, picks cases by name)
# Prints a Markdown table for the README, with the GPU, driver and date.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-/usr/bin/python3}
bin="" runs=5 quick=0 seconds=""
while [ $# -gt 0 ]; do
  case $1 in
    --strider) bin=$2; shift 2 ;;
    --strider=*) bin=${1#*=}; shift ;;
    --runs) runs=$2; shift 2 ;;
    --quick) quick=1; shift ;;
    --seconds) seconds=$2; shift 2 ;;
    *) echo "gpu-bench.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
[ -n "$bin" ] && [ -x "$bin" ] || { echo "gpu-bench.sh: --strider BIN (a strider built with -tags cuda) is required" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
STRIDER="$bin" WORK="$work" RUNS="$runs" QUICK="$quick" SECONDS_LEFT="$seconds" PYTHONUNBUFFERED=1 "$PYTHON" - <<'PY'
import datetime, os, re, statistics, subprocess, sys, time
import numpy as np
import torch

strider, work = os.environ["STRIDER"], os.environ["WORK"]
runs, quick = int(os.environ["RUNS"]), os.environ["QUICK"] == "1"
deadline = time.monotonic() + float(os.environ.get("SECONDS_LEFT") or 1e9)
skipped = []
rehearsal = os.environ.get("TORCH_DEVICE") == "cpu"  # the plumbing, on a host without a GPU: numbers meaningless
if not rehearsal and not torch.cuda.is_available():
    sys.exit("gpu-bench.sh: torch has no CUDA here")
dev = torch.device("cpu" if rehearsal else "cuda")
rng = np.random.default_rng(1)

def strider_times(args):
    """Median over runs of: kernel ms (sum of kernel and device copy steps), upload ms,
    download ms, wall ms of the process. One unmeasured run first (JIT cache, page cache)."""
    rows = []
    for r in range(runs + 1):
        t0 = time.perf_counter()
        p = subprocess.run([strider] + args + ["--device", "cuda", "-o", os.path.join(work, "out.npy")],
                           capture_output=True, env=dict(os.environ, STRIDER_CUDA_TIMING="1"))
        wall = (time.perf_counter() - t0) * 1e3
        if p.returncode != 0:
            sys.exit("strider %s failed: %s" % (" ".join(args), p.stderr.decode()))
        k = up = down = 0.0
        for line in p.stderr.decode().splitlines():
            f = line.split()
            if len(f) != 6 or f[1] != "cuda-timing:":
                continue
            step, ms = f[3], float(f[4])
            if step == "upload":
                up += ms
            elif step == "download":
                down += ms
            else:
                k += ms
        if r:
            rows.append((k, up, down, wall))
    return [statistics.median(c) for c in zip(*rows)]

def torch_ms(fn):
    """Median CUDA-event time of fn() over runs, after a warm-up."""
    fn()
    if rehearsal:
        ts = []
        for _ in range(max(runs, 5)):
            t0 = time.perf_counter()
            fn()
            ts.append((time.perf_counter() - t0) * 1e3)
        return statistics.median(ts)
    torch.cuda.synchronize()
    ts = []
    for _ in range(max(runs, 5)):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        fn()
        b.record()
        b.synchronize()
        ts.append(a.elapsed_time(b))
    return statistics.median(ts)

def save(name, a):
    path = os.path.join(work, name)
    np.save(path, a)
    return path

results = []
def case(name, args, tfn, moved, target=None):
    if os.environ.get("BENCH_ONLY") and not re.search(os.environ["BENCH_ONLY"], name):
        return
    if time.monotonic() > deadline:
        skipped.append(name)
        return
    k, up, down, wall = strider_times(args)
    tm = torch_ms(tfn)
    results.append((name, k, tm, moved, up, down, wall, target))
    print("%-44s strider %9.3f ms  torch %9.3f ms" % (name, k, tm), file=sys.stderr)

# Device-to-device copy bandwidth: the ceiling.
n = (1 << 26) if quick else (1 << 28)  # f32 elements: 256 MiB / 1 GiB
x = torch.empty(n, dtype=torch.float32, device=dev)
y = torch.empty_like(x)
copy_ms = torch_ms(lambda: y.copy_(x))
copy_bw = 2 * 4 * n / copy_ms / 1e6  # GB/s, read + write
del x, y
flat = save("flat.npy", np.arange(n, dtype=np.float32))
k, up, down, wall = strider_times(["transpose", flat])
results.append(("strider contiguous copy (cuMemcpyDtoD) f32 %d" % n, k, copy_ms, 2 * 4 * n, up, down, wall, None))
os.remove(flat)

N = 4096 if quick else 8192
a = rng.random((N, N), dtype=np.float32)
src = save("a.npy", a)
t = torch.from_numpy(a).to(dev)
case("transpose f32 %dx%d" % (N, N), ["transpose", src], lambda: t.permute(1, 0).contiguous(), 2 * a.nbytes, "bw")
a4 = rng.random((64, 64, 64, 64), dtype=np.float32)
src4 = save("a4.npy", a4)
t4 = torch.from_numpy(a4).to(dev)
case("transpose f32 64^4 axes (3,2,1,0)", ["transpose", src4], lambda: t4.permute(3, 2, 1, 0).contiguous(), 2 * a4.nbytes, "bw")
a3 = rng.random((512, 512, 256) if not quick else (256, 256, 128), dtype=np.float32)
src3 = save("a3.npy", a3)
t3 = torch.from_numpy(a3).to(dev)
case("transpose f32 %s axes (0,2,1)" % (a3.shape,), ["transpose", src3, "--axes", "0,2,1"],
     lambda: t3.permute(0, 2, 1).contiguous(), 2 * a3.nbytes, "bw")

G = 4096
g = rng.random((G, G), dtype=np.float32)
gsrc = save("g.npy", g)
tg = torch.from_numpy(g).to(dev)
idx = rng.integers(0, G, G)
ipath = save("idx.npy", idx)
ti = torch.from_numpy(idx).to(dev)
for axis in (0, 1):
    case("gather f32 %dx%d axis %d, %d indices" % (G, G, axis, G), ["gather", gsrc, "--axis", str(axis), "--indices", ipath],
         lambda axis=axis: torch.index_select(tg, axis, ti), 2 * g.nbytes, "bw")
gi = rng.integers(0, G, (G, G))
gipath = save("gi.npy", gi)
tgi = torch.from_numpy(gi).to(dev)
case("gather-elements f32 %dx%d axis 1" % (G, G), ["gather-elements", gsrc, "--indices", gipath, "--axis", "1"],
     lambda: torch.gather(tg, 1, tgi), 2 * g.nbytes + gi.nbytes, "bw")

for rows in ((4096,) if quick else (4096, 16384)):
    pairs = rows * (rows + 1) // 2
    case("tril-indices %d" % rows, ["tril-indices", str(rows)],
         lambda rows=rows: torch.tril_indices(rows, rows, device=dev), 2 * 8 * pairs)

case("sort f32 %dx%d axis -1" % (G, G), ["sort", gsrc, "--indices", os.path.join(work, "si.npy")],
     lambda: torch.sort(tg, dim=-1, stable=True), 0, "sort")
case("sort f32 %dx%d axis 0" % (G, G), ["sort", gsrc, "--axis", "0", "--indices", os.path.join(work, "si.npy")],
     lambda: torch.sort(tg, dim=0, stable=True), 0, "sort")
F = 1 << 24
f = rng.random(F, dtype=np.float32)
fsrc = save("f.npy", f)
tf = torch.from_numpy(f).to(dev)
case("sort f32 flat %d" % F, ["sort", fsrc, "--indices", os.path.join(work, "si.npy")],
     lambda: torch.sort(tf, stable=True), 0, "sort")
fi = rng.integers(-2**31, 2**31, F, dtype=np.int64).astype(np.int32)
fisrc = save("fi.npy", fi)
tfi = torch.from_numpy(fi).to(dev)
case("argsort i32 flat %d" % F, ["sort", fisrc, "--argsort"],
     lambda: torch.sort(tfi, stable=True), 0, "sort")

C = 1 << 26
c = rng.standard_normal(C, dtype=np.float32) * 1000
csrc = save("c.npy", c)
tc = torch.from_numpy(c).to(dev)
case("cast f32->f16 %d" % C, ["cast", csrc, "--dtype", "float16"], lambda: tc.to(torch.float16), 6 * C, "torch")
case("cast f32->i32 %d" % C, ["cast", csrc, "--dtype", "int32"], lambda: tc.to(torch.int32), 8 * C, "torch")
case("cast f32->f64 %d" % C, ["cast", csrc, "--dtype", "float64"], lambda: tc.to(torch.float64), 12 * C, "torch")
u = np.repeat(rng.integers(0, 4, C // 8, dtype=np.int32), 8)
usrc = save("u.npy", u)
tu = torch.from_numpy(u).to(dev)
case("unique-consecutive i32 %d (runs of 8, 3 of 4 kept)" % C, ["unique-consecutive", usrc],
     lambda: torch.unique_consecutive(tu), 4 * C, "torch")
case("unique-consecutive i32 %d --inverse --counts" % C,
     ["unique-consecutive", usrc, "--inverse", os.path.join(work, "inv.npy"), "--counts", os.path.join(work, "cnt.npy")],
     lambda: torch.unique_consecutive(tu, return_inverse=True, return_counts=True), 4 * C, "torch")
d = rng.random((2, 2, C // 4), dtype=np.float32)
dsrc = save("d.npy", d)
td = torch.from_numpy(d).to(dev)
case("diagonal f32 (2, 2, %d) axes 0,1" % (C // 4), ["diagonal", dsrc], lambda: td.diagonal(0, 0, 1).contiguous(),
     d.nbytes, "bw")
case("reduce max f32 %d" % C, ["reduce", "max", csrc], lambda: torch.amax(tc), 4 * C, "bw")
case("reduce argmax f32 %d" % C, ["reduce", "argmax", csrc], lambda: torch.argmax(tc), 4 * C, "bw")
case("reduce max f32 %dx%d axis 1" % (N, N), ["reduce", "max", src, "--axis", "1"], lambda: torch.amax(t, 1), 4 * N * N, "bw")
case("reduce max f32 %dx%d axis 0" % (N, N), ["reduce", "max", src, "--axis", "0"], lambda: torch.amax(t, 0), 4 * N * N, "bw")
case("reduce count-nonzero f32 %d" % C, ["reduce", "count-nonzero", csrc], lambda: torch.count_nonzero(tc), 4 * C, "bw")

name = "rehearsal: no GPU" if rehearsal else torch.cuda.get_device_name(0)
try:
    drv = subprocess.run(["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"],
                         capture_output=True, text=True).stdout.strip() or "unknown"
except OSError:
    drv = "unknown (no nvidia-smi)"
print("GPU: %s, driver %s, torch %s (CUDA %s), %s; medians of %d runs; kernel times from CUDA events."
      % (name, drv, torch.__version__, torch.version.cuda, datetime.date.today().isoformat(), runs))
print("Device-to-device copy (torch copy_, read + write): %.0f GB/s." % copy_bw)
print()
print("| case | strider kernels | torch CUDA | vs torch | strider GB/s | % of copy | upload | download | strider wall |")
print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
missed = []
for name, k, tm, moved, up, down, wall, target in results:
    bw = moved / k / 1e6 if moved and k > 0 else 0
    pct = 100 * bw / copy_bw if bw else 0
    print("| %s | %.3f ms | %.3f ms | %.2fx | %s | %s | %.1f ms | %.1f ms | %.0f ms |" % (
        name, k, tm, k / tm if tm else 0, "%.0f" % bw if bw else "", "%.0f%%" % pct if bw else "",
        up, down, wall))
    if target == "bw" and pct < 70:
        missed.append("%s: %.0f%% of copy bandwidth (target 70%%)" % (name, pct))
    if target in ("sort", "torch") and k > 1.5 * tm:
        missed.append("%s: %.2fx torch's time (target 1.5x)" % (name, k / tm))
print()
print("Targets missed: " + ("; ".join(missed) if missed else "none"))
if skipped:
    print("Not measured (time ran out): " + "; ".join(skipped))
PY
