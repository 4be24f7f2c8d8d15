#!/usr/bin/python3
"""How cost grows with size: times transpose, gather, sort and show for
strider, NumPy and `cp` at sizes from 4 KiB to 1 GiB (powers of 4), and draws
one log-log plot per operation (time per byte against size) into docs/.

Every size runs each command once per round, in turn (alternating, as
bench.py does), and keeps the median of the rounds, of wall time and of CPU
time (user + system of the process, which a shared machine disturbs less).
Outputs are compared byte for byte before timing. Process start counts, as
in bench.py. The plots draw wall time solid and CPU time dotted.

Usage: bench_scale.py --strider PATH [--runs N] [--max-mib M] [--work DIR]
                      [--ops transpose,gather,sort,show] [--out docs]
"""
import argparse
import csv
import os
import resource
import shlex
import statistics
import subprocess
import sys
import time

import numpy as np

PY = os.environ.get("PYTHON", "/usr/bin/python3")


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def timed(argv):
    """(wall seconds, CPU seconds) of one run of argv."""
    cpu, start = children_cpu(), time.perf_counter()
    proc = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        raise RuntimeError(f"{shlex.join(argv)} exited {proc.returncode}: {proc.stderr.decode()}")
    return wall, children_cpu() - cpu


def py(code):
    return [PY, "-c", code]


def side(nbytes):
    """The square float32 matrix closest to nbytes (at least 2x2)."""
    return max(2, int(round((nbytes / 4) ** 0.5)))


def commands(op, strider, src, work, n):
    """(label, argv, output or None) for op on the n x n float32 matrix src."""
    out = lambda tag: os.path.join(work, f"out_{tag}.npy")
    idx = os.path.join(work, f"idx_{n}.npy")
    if op == "transpose":
        return [("strider", [strider, "transpose", src, "-o", out("s")], out("s")),
                ("numpy", py(f"import numpy as np; np.save({out('n')!r}, np.ascontiguousarray(np.load({src!r}).T))"), out("n")),
                ("cp", ["cp", src, out("c")], None)]
    if op == "gather":
        if not os.path.exists(idx):
            np.save(idx, np.random.default_rng(1).integers(0, n, n, dtype=np.int64))
        return [("strider", [strider, "gather", "--indices", idx, "--axis", "1", src, "-o", out("s")], out("s")),
                ("numpy", py(f"import numpy as np; np.save({out('n')!r}, np.take(np.load({src!r}), np.load({idx!r}), axis=1))"), out("n")),
                ("cp", ["cp", src, out("c")], None)]
    if op == "sort":
        return [("strider", [strider, "sort", "--axis", "-1", src, "-o", out("s")], out("s")),
                ("numpy", py(f"import numpy as np; np.save({out('n')!r}, np.sort(np.load({src!r}), axis=-1, kind='stable'))"), out("n")),
                ("cp", ["cp", src, out("c")], None)]
    if op == "show":
        return [("strider", [strider, "show", src], None),
                ("numpy", py(f"import numpy as np; print(np.load({src!r}, mmap_mode='r'))"), None),
                ("cp", ["cp", src, out("c")], None)]
    raise ValueError(op)


def same(a, b):
    with open(a, "rb") as fa, open(b, "rb") as fb:
        return fa.read() == fb.read()


def measure(ops, strider, work, sizes, runs):
    """Rows of (op, label, bytes, median wall seconds, median CPU seconds)."""
    rows = []
    for nbytes in sizes:
        n = side(nbytes)
        src = os.path.join(work, f"f32_{n}.npy")
        if not os.path.exists(src):
            np.save(src, np.random.default_rng(0).random((n, n), dtype=np.float32))
        for op in ops:
            cmds = commands(op, strider, src, work, n)
            for _, argv, _ in cmds:  # warm the page cache, check outputs
                timed(argv)
            for label, _, outp in cmds[1:]:
                if outp and label != "cp" and not same(cmds[0][2], outp):
                    raise SystemExit(f"{op} {n}x{n}: strider and {label} differ")
            times = {label: [] for label, _, _ in cmds}
            for _ in range(runs):
                for label, argv, _ in cmds:
                    times[label].append(timed(argv))
            for label, _, _ in cmds:
                med = statistics.median(w for w, _ in times[label])
                cpu = statistics.median(c for _, c in times[label])
                rows.append((op, label, n * n * 4, med, cpu))
                print(f"{op:9} {label:7} {n * n * 4:>11} B  {med * 1e3:9.2f} ms  {med / (n * n * 4) * 1e9:9.3f} ns/B"
                      f"  CPU {cpu * 1e3:9.2f} ms  {cpu / (n * n * 4) * 1e9:9.3f} ns/B", flush=True)
        os.remove(src)
    return rows


def plot(rows, ops, out_dir, title):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    paths = []
    for op in ops:
        fig, ax = plt.subplots(figsize=(6, 4))
        for label, color in (("strider", "C0"), ("numpy", "C1"), ("cp", "C2")):
            pts = [(b, t / b * 1e9, c / b * 1e9) for o, l, b, t, c in rows if o == op and l == label]
            if pts:
                ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", color=color, label=label)
                ax.plot([p[0] for p in pts], [p[2] for p in pts], marker=".", linestyle=":",
                        color=color, label=f"{label} CPU")
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("array size (bytes)")
        ax.set_ylabel("time per byte (ns/B): wall solid, CPU dotted")
        ax.set_title(f"{op}: {title}", fontsize=9)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend()
        fig.tight_layout()
        path = os.path.join(out_dir, f"scale-{op}.png")
        fig.savefig(path, dpi=90)
        plt.close(fig)
        paths.append(path)
    return paths


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--strider", default="./strider")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--max-mib", type=int, default=1024, help="largest array, MiB (sizes are 4 KiB * 4^k)")
    ap.add_argument("--work", default="/tmp/strider-scale")
    ap.add_argument("--ops", default="transpose,gather,sort,show")
    ap.add_argument("--out", default="docs", help="folder for scale-OP.png and scale.csv")
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    ops = args.ops.split(",")
    sizes = []
    s = 4096
    while s <= args.max_mib << 20:
        sizes.append(s)
        s *= 4
    rows = measure(ops, os.path.abspath(args.strider), args.work, sizes, args.runs)
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "scale.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["op", "command", "bytes", "median_seconds", "median_cpu_seconds"])
        w.writerows(rows)
    load = os.getloadavg()[0]
    title = (f"{time.strftime('%Y-%m-%d')}, {os.cpu_count()} cores, load {load:.1f}, median of "
             f"{args.runs}, float32 n×n")
    for p in plot(rows, ops, args.out, title):
        print("wrote", p)
    return 0


if __name__ == "__main__":
    sys.exit(main())
