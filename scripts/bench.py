#!/usr/bin/python3
"""Times whole strider commands against the NumPy/PyTorch one-liners that do
the same job, in alternating runs, and prints medians, ratios and peak RSS as
a Markdown table (the README's benchmark table).

Each case lists its commands; every round runs each command once, in turn, so
machine noise hits all of them alike. Wall and CPU time (user+sys) are both
reported; on a shared machine the CPU ratio is the steadier one. Outputs are compared byte for byte
before anything is timed.

Before each timed run every output of the case is removed (untimed), so each command writes a
new file: replacing the file a previous run left would add the kernel's teardown of its page
cache (and a wait for its writeback, once the kernel has started it) to whichever command came
next, and the dirty output of every earlier run would pile up until the kernel throttles the
writers. Removing a file whose pages are still dirty drops them without writing them.

Usage: bench.py --strider PATH [--runs N] [--work DIR] [--cases a,b] [--quick]
(--runs 0 runs each command once and checks the outputs, timing nothing; --machine prints the
machine lines alone.)

Every table starts with the machine lines: the date, the CPU model and cores, NumPy's SIMD
extensions (np.show_config()'s found = line) and STRIDER_SIMD. NumPy 1.24 sorts 32-bit keys with
AVX-512 where the CPU has it; the "no AVX-512" peers run NumPy with NPY_DISABLE_CPU_FEATURES set,
which is what a CPU without AVX-512F runs. STRIDER_SIMD=avx2 does the same for strider's kernels.
"""
import argparse
import os
import platform
import shlex
import statistics
import subprocess
import sys
import time

import numpy as np

PY = os.environ.get("PYTHON", "/usr/bin/python3")

# NumPy's dispatch without AVX-512: the peer a CPU without AVX-512F (the AMD
# EPYC of the earlier tables) runs, measured on an AVX-512 machine.
NO_AVX512 = "AVX512F AVX512CD AVX512_SKX AVX512_CLX AVX512_CNL AVX512_ICL"


def machine():
    """The lines every benchmark table carries: date, CPU model and cores,
    NumPy's SIMD extensions (the found = line of np.show_config()), and the
    kernels strider may use (STRIDER_SIMD caps them)."""
    model, flags = platform.processor() or platform.machine(), ""
    try:
        with open("/proc/cpuinfo") as f:
            info = f.read().splitlines()
        model = next((l.split(":", 1)[1].strip() for l in info if l.startswith("model name")), model)
        flags = next((l for l in info if l.startswith("flags")), "")
    except OSError:
        pass
    out = subprocess.run([PY, "-c", "import numpy; numpy.show_config()"], capture_output=True, text=True).stdout
    found = next((l.split("=", 1)[1].strip() for l in out.splitlines() if l.strip().startswith("found =")), "?")
    avx512 = " avx512f" in flags
    return [f"date: {time.strftime('%Y-%m-%d')}",
            f"cpu: {model}, {os.cpu_count()} cores ({'AVX-512F' if avx512 else 'no AVX-512F'})",
            f"numpy {np.__version__} SIMD found: {found}",
            f"strider kernels: STRIDER_SIMD={os.environ.get('STRIDER_SIMD', '(unset: the widest the CPU has)')}"]


def run_once(argv, work, rss=False):
    """Runs argv, returns (wall seconds, CPU seconds, peak RSS in MiB or
    None); raises on failure. CPU is user+sys of the process (wait4), the
    measure that a loaded machine disturbs least.

    GNU time measures the peak RSS (asked for with rss=True): a child
    spawned straight from this Python process would inherit its high-water
    mark. Timed runs are spawned directly, since GNU time's own start-up
    (several ms of CPU here) would swamp the short commands."""
    if rss:
        rss_file = os.path.join(work, "rss.txt")
        proc = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", rss_file] + argv,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        if proc.returncode != 0:
            raise RuntimeError(f"{shlex.join(argv)} exited {proc.returncode}: {proc.stderr.decode()}")
        with open(rss_file) as f:
            return None, None, int(f.read().split()[-1]) / 1024
    start = time.perf_counter()
    pid = os.posix_spawnp(argv[0], argv, os.environ,
                          file_actions=[(os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0)])
    _, status, usage = os.wait4(pid, 0)
    wall = time.perf_counter() - start
    if status != 0:
        raise RuntimeError(f"{shlex.join(argv)} failed (wait status {status})")
    return wall, usage.ru_utime + usage.ru_stime, None


def clear_outputs(cmds):
    """Removes every file the case's commands write (cp's is its last argument, cat's follows >)."""
    for _, argv, outp in cmds:
        target = outp or (argv[-1] if os.path.basename(argv[0]) == "cp" else
                          argv[-1].rsplit("> ", 1)[-1] if argv[0] == "sh" and "> " in argv[-1] else None)
        if target and os.path.exists(target):
            os.unlink(target)


def py(code):
    return [PY, "-c", code]


def make_inputs(work, quick):
    """Writes the benchmark inputs once (they are reused between runs)."""
    rng = np.random.default_rng(0)
    n = 2048 if quick else 8192
    g = 1024 if quick else 4096
    files = {
        "big": (f"f32_{n}x{n}.npy", lambda: rng.random((n, n), dtype=np.float32)),
        "small": ("f32_16x16.npy", lambda: rng.random((16, 16), dtype=np.float32)),
        "big64": (f"f64_{n // 2}x{n}.npy", lambda: rng.standard_normal((n // 2, n))),
        "mid": (f"f32_{g}x{g}.npy", lambda: rng.random((g, g), dtype=np.float32)),
        "idx": (f"idx_{g}.npy", lambda: rng.integers(0, g, g, dtype=np.int64)),
        "flatf": (f"f32_flat_{g * g}.npy", lambda: rng.standard_normal(g * g, dtype=np.float32)),
        "flati": (f"i32_flat_{g * g}.npy", lambda: rng.integers(-2**31, 2**31 - 1, g * g, dtype=np.int32)),
        "flatd": (f"f64_flat_{g * g}.npy", lambda: rng.standard_normal(g * g)),
        # 64M int32 (4M with --quick) in runs of mean length 4, for unique-consecutive.
        "runsi": (f"i32_runs_{4 * g * g}.npy", lambda: np.cumsum(rng.random(4 * g * g) < 0.25).astype(np.int32)),
        "f64": (f"f64_{g // 4}x{g // 4}.npy", lambda: rng.standard_normal((g // 4, g // 4))),
        "t3": ("f32_512x512x256.npy" if not quick else "f32_128x128x64.npy",
               lambda: rng.random((128, 128, 64) if quick else (512, 512, 256), dtype=np.float32)),
        "t4": ("f32_64x64x64x64.npy" if not quick else "f32_16x16x16x16.npy",
               lambda: rng.random((16,) * 4 if quick else (64,) * 4, dtype=np.float32)),
    }
    paths = {}
    for key, (name, make) in files.items():
        path = os.path.join(work, name)
        if not os.path.exists(path):
            np.save(path, make())
        paths[key] = path
    # The text that np.savetxt writes of the f64 matrix, for from-text.
    paths["runs"] = os.path.join(work, f"f32_runs_{n}.npy")
    if not os.path.exists(paths["runs"]):
        np.save(paths["runs"], np.floor(np.load(paths["big"]) * 16) / 16)
    # The 256 MiB float32 input with every element moved by about 1e-6 of
    # itself: compare finds 92% of them different at rtol 1e-7.
    paths["noisy"] = os.path.join(work, f"f32_{n}x{n}_noisy.npy")
    if not os.path.exists(paths["noisy"]):
        a = np.load(paths["big"])
        np.save(paths["noisy"], a * (1 + 1e-6 * rng.standard_normal(a.shape, dtype=np.float32)))
    paths["txt"] = paths["f64"][:-4] + ".txt"
    if not os.path.exists(paths["txt"]):
        np.savetxt(paths["txt"], np.load(paths["f64"]))
    return paths


def cases(strider, paths, work):
    """Each case: (name, [(label, argv, output or None)]). The first command
    is strider; outputs with a path are compared with strider's."""
    out = lambda tag: os.path.join(work, f"out_{tag}.npy")
    torch_save = "np.save({o!r}, ({expr}).numpy())"
    result = []
    for key in ("big", "small"):
        src = paths[key]
        shape = np.load(src, mmap_mode="r").shape
        result.append((f"transpose f32 {shape[0]}x{shape[1]}", [
            ("strider", [strider, "transpose", src, "-o", out("s")], out("s")),
            ("numpy", py(f"import numpy as np; np.save({out('n')!r}, np.ascontiguousarray(np.load({src!r}).T))"), out("n")),
            ("torch", py("import numpy as np, torch; " + torch_save.format(o=out("t"), expr=f"torch.from_numpy(np.load({src!r})).permute(1, 0).contiguous()")), out("t")),
            ("cp", ["cp", src, out("c")], None),
        ]))
    for key, axes in (("t3", (0, 2, 1)), ("t4", (3, 2, 1, 0))):
        src = paths[key]
        shape = np.load(src, mmap_mode="r").shape
        dims = "x".join(map(str, shape))
        perm = ",".join(map(str, axes))
        result.append((f"transpose f32 {dims} axes ({perm})", [
            ("strider", [strider, "transpose", "--axes", perm, src, "-o", out("s")], out("s")),
            ("numpy", py(f"import numpy as np; np.save({out('n')!r}, np.ascontiguousarray(np.load({src!r}).transpose({axes})))"), out("n")),
            ("cp", ["cp", src, out("c")], None),
        ]))
    src, idx = paths["mid"], paths["idx"]
    shape = np.load(src, mmap_mode="r").shape
    m = np.load(idx, mmap_mode="r").shape[0]
    for axis in (0, 1):
        result.append((f"gather f32 {shape[0]}x{shape[1]} axis {axis}, {m} indices", [
            ("strider", [strider, "gather", "--indices", idx, "--axis", str(axis), src, "-o", out("s")], out("s")),
            ("numpy", py(f"import numpy as np; np.save({out('n')!r}, np.take(np.load({src!r}), np.load({idx!r}), axis={axis}))"), out("n")),
            ("torch", py("import numpy as np, torch; " + torch_save.format(o=out("t"), expr=f"torch.index_select(torch.from_numpy(np.load({src!r})), {axis}, torch.from_numpy(np.load({idx!r})))")), out("t")),
        ]))
    src = paths["big"]
    shape = np.load(src, mmap_mode="r").shape
    result.append((f"diagonal f32 {shape[0]}x{shape[1]}", [
        ("strider", [strider, "diagonal", src, "-o", out("s")], out("s")),
        ("numpy mmap", py(f"import numpy as np; np.save({out('n')!r}, np.ascontiguousarray(np.diagonal(np.load({src!r}, mmap_mode='r'))))"), out("n")),
        ("torch", py("import numpy as np, torch; " + torch_save.format(o=out("t"), expr=f"torch.from_numpy(np.load({src!r})).diagonal().contiguous()")), out("t")),
    ]))
    for n in ((1024, 4096) if "1024" in paths["mid"] else (4096, 16384)):
        result.append((f"tril-indices {n}", [
            ("strider", [strider, "tril-indices", str(n), "-o", out("s")], out("s")),
            ("numpy", py(f"import numpy as np; np.save({out('n')!r}, np.stack(np.tril_indices({n})))"), out("n")),
            ("torch", py("import numpy as np, torch; " + torch_save.format(o=out("t"), expr=f"torch.tril_indices({n}, {n})")), out("t")),
        ]))
    src = paths["mid"]
    shape = np.load(src, mmap_mode="r").shape
    for axis in (-1, 0):
        result.append((f"sort f32 {shape[0]}x{shape[1]} axis {axis}", [
            ("strider", [strider, "sort", "--axis", str(axis), src, "-o", out("s")], out("s")),
            ("numpy stable", py(f"import numpy as np; np.save({out('n')!r}, np.sort(np.load({src!r}), axis={axis}, kind='stable'))"), out("n")),
            ("torch stable", py("import numpy as np, torch; " + torch_save.format(o=out("t"), expr=f"torch.sort(torch.from_numpy(np.load({src!r})), dim={axis}, stable=True).values")), out("t")),
        ]))
    for key, name in (("flatf", "f32"), ("flati", "i32"), ("flatd", "f64")):
        src = paths[key]
        count = np.load(src, mmap_mode="r").shape[0]
        sort = f"import numpy as np; np.save({{o!r}}, np.sort(np.load({src!r}){{kind}}))"
        cmds = [
            ("strider", [strider, "sort", src, "-o", out("s")], out("s")),
            ("numpy default", py(sort.format(o=out("n"), kind="")), out("n")),
            ("numpy default, no AVX-512", no_avx512(py(sort.format(o=out("a"), kind=""))), out("a")),
        ]
        if key == "flatf":
            cmds.append(("numpy stable", py(sort.format(o=out("m"), kind=", kind='stable'")), out("m")))
        result.append((f"sort {name} flat {count}", cmds))
    src = paths["flati"]
    result.append((f"argsort i32 flat {count}", [
        ("strider", [strider, "sort", "--argsort", src, "-o", out("s")], out("s")),
        ("numpy stable", py(f"import numpy as np; np.save({out('n')!r}, np.argsort(np.load({src!r}), kind='stable'))"), out("n")),
        ("torch stable", py("import numpy as np, torch; " + torch_save.format(o=out("t"), expr=f"torch.sort(torch.from_numpy(np.load({src!r})), stable=True).indices")), out("t")),
    ]))
    # Printing and text (issue 14): outputs to standard output are not compared here (the parity
    # suite does that); text files are.
    for key, mmap in (("small", ""), ("big", ", mmap_mode='r'")):
        src = paths[key]
        shape = np.load(src, mmap_mode="r").shape
        result.append((f"show f32 {shape[0]}x{shape[1]}", [
            ("strider", [strider, "show", src], None),
            ("numpy" + (" mmap" if mmap else ""), py(f"import numpy as np; print(np.load({src!r}{mmap}))"), None),
        ]))
    src = paths["big"]
    shape = np.load(src, mmap_mode="r").shape
    result.append((f"stats f32 {shape[0]}x{shape[1]}", [
        ("strider", [strider, "stats", src], None),
        ("numpy nan*", py(f"import numpy as np; a = np.load({src!r}); print(a.size, np.isnan(a).sum(), np.isposinf(a).sum(), "
                          "np.isneginf(a).sum(), (a == 0).sum(), np.nanmin(a), np.nanmax(a), "
                          "np.nanmean(a, dtype=np.float64), np.nanstd(a, dtype=np.float64))"), None),
    ]))
    src = paths["f64"]
    shape = np.load(src, mmap_mode="r").shape
    txt = lambda tag: os.path.join(work, f"out_{tag}.txt")
    result.append((f"to-text f64 {shape[0]}x{shape[1]}", [
        ("strider", [strider, "to-text", src, "-o", txt("s")], txt("s")),
        ("numpy savetxt", py(f"import numpy as np; np.savetxt({txt('n')!r}, np.load({src!r}))"), txt("n")),
    ]))
    src = paths["txt"]
    result.append((f"from-text f64 {shape[0]}x{shape[1]}", [
        ("strider", [strider, "from-text", src, "-o", out("s")], out("s")),
        ("numpy loadtxt", py(f"import numpy as np; np.save({out('n')!r}, np.loadtxt({src!r}))"), out("n")),
    ]))
    result += pipeline_cases(strider, paths, out)
    result += issue32_cases(strider, paths, out)
    return result


def no_avx512(argv):
    """argv run with NumPy's AVX-512 dispatch turned off."""
    return ["env", f"NPY_DISABLE_CPU_FEATURES={NO_AVX512}"] + argv


def issue32_cases(strider, paths, out):
    """compare of two different 256 MiB files against reading them, and
    unique-consecutive of 64M int32 against NumPy's mask (issue 32)."""
    a, b = paths["big"], paths["noisy"]
    n = np.load(a, mmap_mode="r").shape[0]
    runs = paths["runsi"]
    count = np.load(runs, mmap_mode="r").shape[0]
    mask = (f"import numpy as np; a = np.load({runs!r}); m = np.empty(len(a), bool); m[:1] = True; "
            f"np.not_equal(a[1:], a[:-1], out=m[1:]); np.save({{o!r}}, a[m])")
    return [
        (f"compare f32 {n}x{n}, 92% different", [
            # compare exits 1 when the arrays differ: that is success here.
            ("strider", ["sh", "-c", f"{shlex.quote(strider)} compare {shlex.quote(a)} {shlex.quote(b)}; [ $? -eq 1 ]"], None),
            ("cat A B", ["cat", a, b], None),
        ]),
        (f"unique-consecutive i32 {count} (runs of mean length 4)", [
            ("strider", [strider, "unique-consecutive", runs, "-o", out("s")], out("s")),
            ("numpy mask", py(mask.format(o=out("n"))), out("n")),
            ("numpy mask, no AVX-512", no_avx512(py(mask.format(o=out("a")))), out("a")),
        ]),
    ]


def pipeline_cases(strider, paths, out):
    """Issue 17's operations on the 256 MiB input (8192² float32; 2048² for --quick)."""
    src = paths["big"]
    n = np.load(src, mmap_mode="r").shape[0]
    load = f"np.load({src!r})"
    save = lambda tag, expr: py(f"import numpy as np; np.save({out(tag)!r}, {expr})")
    return [
        (f"reshape --order F f32 {n}x{n} to {n // 2}x{2 * n}", [
            ("strider", [strider, "reshape", "--order", "F", src, f"{n // 2},{2 * n}", "-o", out("s")], out("s")),
            ("numpy", save("n", f"np.ascontiguousarray(np.reshape({load}, ({n // 2}, {2 * n}), order='F'))"), out("n")),
            ("cp", ["cp", src, out("c")], None),
        ]),
        (f"cast f32 {n}x{n} to f64", [
            ("strider", [strider, "cast", "--dtype", "float64", src, "-o", out("s")], out("s")),
            ("numpy", save("n", f"{load}.astype(np.float64)"), out("n")),
            ("cp", ["cp", src, out("c")], None),
        ]),
        (f"cast f64 {n // 2}x{n} to f32", [
            ("strider", [strider, "cast", "--dtype", "float32", paths["big64"], "-o", out("s")], out("s")),
            ("numpy", save("n", f"np.load({paths['big64']!r}).astype(np.float32)"), out("n")),
            ("cp", ["cp", paths["big64"], out("c")], None),
        ]),
        (f"concat f32 {n}x{n} twice, axis 1", [
            ("strider", [strider, "concat", "--axis", "1", src, src, "-o", out("s")], out("s")),
            ("numpy", save("n", f"np.concatenate([{load}, {load}], axis=1)"), out("n")),
            ("cp", ["sh", "-c", f"cat {src} {src} > {out('c')}"], None),
        ]),
        (f"stack f32 {n}x{n} twice, axis -1", [
            ("strider", [strider, "stack", "--axis", "-1", src, src, "-o", out("s")], out("s")),
            ("numpy", save("n", f"np.stack([{load}, {load}], axis=-1)"), out("n")),
        ]),
        (f"unique-consecutive f32 {n}x{n} (rounded to 1/16)", [
            ("strider", [strider, "unique-consecutive", paths["runs"], "-o", out("s")], out("s")),
            ("torch", py("import numpy as np, torch; " + f"np.save({out('t')!r}, torch.unique_consecutive(torch.from_numpy(np.load({paths['runs']!r})))"
                         ".numpy())"), out("t")),
        ]),
    ]


def same_bytes(a, b):
    with open(a, "rb") as fa, open(b, "rb") as fb:
        return fa.read() == fb.read()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--strider", default="./strider")
    ap.add_argument("--runs", type=int, default=11,
                    help="timed runs per command (11); 0: only check the outputs (a smoke test)")
    ap.add_argument("--work", default="/tmp/strider-bench")
    ap.add_argument("--cases", default="", help="comma-separated substrings of case names")
    ap.add_argument("--quick", action="store_true", help="small inputs, for a smoke test")
    ap.add_argument("--machine", action="store_true", help="print only the machine lines (bench.sh --scale and --remote)")
    args = ap.parse_args()
    if args.machine:
        print("\n".join(machine()))
        return 0
    os.makedirs(args.work, exist_ok=True)
    strider = os.path.abspath(args.strider)
    paths = make_inputs(args.work, args.quick)
    todo = cases(strider, paths, args.work)
    if args.cases:
        keys = args.cases.split(",")
        todo = [c for c in todo if any(k in c[0] for k in keys)]

    for line in machine():
        print(line + "  ")
    print(f"{platform.node()}; " + (f"median of {args.runs} alternating runs (wall, and CPU = user+sys), peak RSS per process; "
                                    "load: the 1-minute load average after the case's runs" if args.runs
                                    else "--runs 0: every command run once, outputs compared, nothing timed"))
    print()
    print("| case | command | median | vs strider | CPU | CPU vs strider | peak RSS | load |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    failed = False
    for name, cmds in todo:
        rss = {}
        for label, argv, _ in cmds:  # warm up, check outputs, measure the peak RSS
            rss[label] = run_once(argv, args.work, rss=True)[2]
        ref = cmds[0][2]
        for label, argv, outp in cmds[1:]:
            if outp and not same_bytes(ref, outp):
                print(f"MISMATCH {name}: strider and {label} outputs differ", file=sys.stderr)
                failed = True
        if args.runs == 0:
            continue
        times = {label: [] for label, _, _ in cmds}
        cpus = {label: [] for label, _, _ in cmds}
        for _ in range(args.runs):
            for label, argv, _ in cmds:
                clear_outputs(cmds)
                t, c, _ = run_once(argv, args.work)
                times[label].append(t)
                cpus[label].append(c)
        base = statistics.median(times[cmds[0][0]])
        cbase = statistics.median(cpus[cmds[0][0]])
        load = os.getloadavg()[0]
        for label, _, _ in cmds:
            med, cpu = statistics.median(times[label]), statistics.median(cpus[label])
            print(f"| {name} | {label} | {med * 1000:.1f} ms | {med / base:.2f}x | "
                  f"{cpu * 1000:.1f} ms | {cpu / cbase:.2f}x | {rss[label]:.0f} MiB | {load:.1f} |")
        sys.stdout.flush()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
