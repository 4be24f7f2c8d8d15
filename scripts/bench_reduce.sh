#!/usr/bin/env bash
# Times `strider reduce OP` over a 256 MiB float32 file against NumPy's
# one-liner and against `cat FILE >/dev/null` (reading the bytes: the floor),
# in alternating runs, and prints docs/benchmarks.md's reductions table:
# medians, the ratios issue 31 sets (NumPy / strider at least 3, strider /
# cat at most 1.3), the load average of the runs, and strider's peak RSS less
# the input's mapped pages (the memory the reduction itself holds).
#
# Usage: scripts/bench_reduce.sh [--runs N] [--ops sum,argmax] [--cases all,axis0,axis-1]
#                                [--mib 256] [--work DIR] [--strider BIN]
# The cases: "all" reduces a 1-d file whole (axis=None); "axis0" and "axis-1"
# a 2-d C-order file (4096 x 16384 at 256 MiB) along its outer axis (column
# sums) and its inner one (row sums). Every output is compared with NumPy's
# byte for byte before anything is timed.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-/usr/bin/python3}
bin=""
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --strider) bin=$2; shift 2 ;;
    *) args+=("$1"); shift ;;
  esac
done
if [ -z "$bin" ]; then
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  # Static, without urfave/cli's doc generator: as bench.sh builds it.
  CGO_ENABLED=0 go build -tags urfave_cli_no_docs -o "$tmp/strider" .
  bin=$tmp/strider
fi
"$PYTHON" scripts/bench.py --machine
exec "$PYTHON" - --strider "$bin" "${args[@]+"${args[@]}"}" <<'EOF'
import argparse, os, statistics, subprocess, sys, tempfile, time
import numpy as np

PY = os.environ.get("PYTHON", "/usr/bin/python3")
OPS = ("sum prod mean std var min max ptp argmin argmax any all count-nonzero "
       "nansum nanprod nanmean nanstd nanvar nanmin nanmax nanargmin nanargmax").split()
NP_NAME = {"count-nonzero": "count_nonzero"}

ap = argparse.ArgumentParser()
ap.add_argument("--strider", required=True)
ap.add_argument("--runs", type=int, default=5)
ap.add_argument("--ops", default=",".join(OPS))
ap.add_argument("--cases", default="all,axis0,axis-1")
ap.add_argument("--mib", type=int, default=256)
ap.add_argument("--work", default=os.path.join(tempfile.gettempdir(), "strider-bench-reduce"))
a = ap.parse_args()
os.makedirs(a.work, exist_ok=True)

n = a.mib << 18  # float32 elements
rows = 4096 if n % 4096 == 0 else 1
flat = os.path.join(a.work, f"f32_{n}.npy")
mat = os.path.join(a.work, f"f32_{rows}x{n // rows}.npy")
if not (os.path.exists(flat) and os.path.exists(mat)):
    x = np.random.default_rng(1).standard_normal(n, dtype=np.float32)
    np.save(flat, x)
    np.save(mat, x.reshape(rows, n // rows))
cases = {"all": (flat, None), "axis0": (mat, 0), "axis-1": (mat, -1)}
out_s, out_n = os.path.join(a.work, "s.npy"), os.path.join(a.work, "n.npy")


def spawn(argv):
    """Wall seconds of argv; raises on failure."""
    start = time.perf_counter()
    pid = os.posix_spawnp(argv[0], argv, os.environ,
                          file_actions=[(os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0)])
    _, status, _ = os.wait4(pid, 0)
    wall = time.perf_counter() - start
    if status != 0:
        raise RuntimeError(f"{argv} failed (wait status {status})")
    return wall


def peak_rss(argv):
    """Peak RSS of argv in MiB, by GNU time: a child spawned from this
    process would report this process's high-water mark if larger."""
    rss = os.path.join(a.work, "rss.txt")
    subprocess.run(["/usr/bin/time", "-f", "%M", "-o", rss] + argv, check=True, stdout=subprocess.DEVNULL)
    with open(rss) as f:
        return int(f.read().split()[-1]) / 1024


def remove(*paths):
    # A fresh output each run: replacing one would add the teardown of the
    # previous run's page cache to the next command.
    for p in paths:
        if os.path.exists(p):
            os.unlink(p)


print(f"{a.mib} MiB float32, medians of {a.runs} alternating runs (strider, NumPy, cat)\n")
print("| op | case | strider s | NumPy s | cat s | NumPy/strider | strider/cat | load | RSS-input MiB |")
print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
for op in a.ops.split(","):
    for case in a.cases.split(","):
        f, axis = cases[case]
        s_cmd = [a.strider, "reduce", op, f, "-o", out_s]
        if axis is not None:
            s_cmd += ["--axis", str(axis)]
        n_cmd = [PY, "-c", "import numpy as np; np.save(%r, np.%s(np.load(%r), axis=%r))"
                 % (out_n, NP_NAME.get(op, op), f, axis)]
        c_cmd = ["cat", f]
        remove(out_s, out_n)
        rss = peak_rss(s_cmd)
        spawn(n_cmd)
        with open(out_s, "rb") as g, open(out_n, "rb") as h:
            if g.read() != h.read():
                sys.exit(f"{op} {case}: strider's output differs from NumPy's")
        st, nt, ct, loads = [], [], [], []
        for _ in range(a.runs):
            remove(out_s, out_n)
            st.append(spawn(s_cmd))
            nt.append(spawn(n_cmd))
            ct.append(spawn(c_cmd))
            loads.append(os.getloadavg()[0])
        s, nn, c = (statistics.median(v) for v in (st, nt, ct))
        print(f"| {op} | {case} | {s:.3f} | {nn:.3f} | {c:.3f} | {nn / s:.1f} | {s / c:.2f} "
              f"| {statistics.median(loads):.1f} | {rss - os.path.getsize(f) / 2**20:.0f} |", flush=True)
remove(out_s, out_n)
EOF
