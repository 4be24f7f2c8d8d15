#!/usr/bin/env bash
# The one prepared run on a lent GPU machine (CUDA, NumPy and PyTorch with
# CUDA, no Go): takes a strider built here with `go build -tags cuda` and, in
# at most --seconds (default 420), writes under $OUT:
#
#   env.txt      date, nvidia-smi (the GPU, driver, clocks), Python, NumPy,
#                PyTorch and CUDA versions, the binary's libraries
#   warm.txt     each kernel module's first run (the driver's JIT compile)
#   parity.log   scripts/gpu-parity.sh: CPU vs GPU byte for byte on every
#                command and dtype family, reduce against NumPy's bits, and
#                PyTorch CUDA's results
#   bench.md     scripts/gpu-bench.sh: CUDA-event kernel, upload and download
#                times and wall time against PyTorch CUDA and the
#                device-to-device copy bandwidth
#   summary.txt  the verdict lines of both
#
# Each step has its share of the time, a soft deadline inside (checks and
# cases not started by then are reported as not run) and a hard one
# (timeout), so that what has run is written even when time runs short.
#
# Usage: scripts/gpu-check.sh --strider BIN [--cpu-strider BIN] [--seconds S]
# (--cpu-strider: the default build of the same commit, for the CPU side of
# the byte-for-byte checks: it has no cuInit to pay at each start)
# Rehearsal on a host without a GPU (the plumbing only; no number means
# anything): REHEARSE=1 scripts/gpu-check.sh --strider FAKE, where FAKE runs
# the CPU engine whatever --device says (TORCH_DEVICE=cpu is set for the
# PyTorch references).
set -uo pipefail
cd "$(dirname "$0")/.."
bin="" cpubin="" seconds=420
while [ $# -gt 0 ]; do
  case $1 in
    --strider) bin=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    --cpu-strider) cpubin=$2; shift 2 ;;
    *) echo "gpu-check.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
[ -n "$bin" ] && [ -x "$bin" ] || { echo "gpu-check.sh: --strider BIN (a strider built with -tags cuda) is required" >&2; exit 2; }
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"
start=$SECONDS
left() { echo $((seconds - (SECONDS - start))); }
[ "${REHEARSE:-0}" = 1 ] && export TORCH_DEVICE=cpu

# The interpreter that has NumPy and PyTorch (the GPU image's python3 is a
# venv; Debian's is /usr/bin/python3).
PYTHON=""
for p in ${PYTHON_CANDIDATES:-python3 /usr/bin/python3}; do
  if "$p" -c 'import numpy, torch' 2>/dev/null; then PYTHON=$p; break; fi
done
[ -n "$PYTHON" ] || { echo "gpu-check.sh: no python3 with numpy and torch" | tee "$out/summary.txt"; exit 2; }
export PYTHON

{
  date -u '+%Y-%m-%d %H:%M:%S UTC'
  uname -srm
  echo "cores: $(nproc)"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem,pstate --format=csv 2>&1
  nvidia-smi 2>&1 | head -20
  "$PYTHON" -c 'import sys, numpy, torch; print("python", sys.version.split()[0], "numpy", numpy.__version__, "torch", torch.__version__, "cuda", torch.version.cuda, torch.cuda.is_available())'
  "$bin" --version
  ldd "$bin" 2>&1
} >"$out/env.txt" 2>&1
head -5 "$out/env.txt"

# The first run of each module waits for the driver's JIT compilation;
# done once here, one after the other, so that the timed and parallel steps
# find the cache filled.
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
{
  "$PYTHON" -c 'import numpy as np; np.save("'"$w"'/a.npy", np.arange(24, dtype=np.float32).reshape(2, 3, 4)); np.save("'"$w"'/i.npy", np.zeros((2, 3, 1), dtype=np.int64))'
  for args in "tril-indices 3" "transpose $w/a.npy" "gather $w/a.npy --index [1,0]" \
              "gather-elements $w/a.npy --indices $w/i.npy" "sort $w/a.npy" "cast $w/a.npy --dtype float16" \
              "unique-consecutive $w/a.npy" "reduce max $w/a.npy --axis 1" "diagonal $w/a.npy"; do
    t0=$EPOCHREALTIME
    # shellcheck disable=SC2086 # the arguments are split on purpose
    timeout 120 "$bin" $args --device cuda -o "$w/o.npy"
    rc=$?
    echo "first run: $args: rc=$rc, $(awk "BEGIN { printf \"%.2f\", $EPOCHREALTIME - $t0 }") s"
  done
} >"$out/warm.txt" 2>&1
cat "$out/warm.txt"
if ! grep -q "tril-indices 3: rc=0" "$out/warm.txt"; then
  echo "gpu-check.sh: the CUDA build cannot run here (see warm.txt)" | tee "$out/summary.txt"
  exit 2
fi

# Parity gets 60% of what is left, the benchmarks the rest; each hard limit
# is its soft one plus a margin for the check in flight and the report.
soft=$(( $(left) * 60 / 100 - 20 ))
echo "== parity: ${soft} s"
timeout --kill-after=5 $((soft + 40)) scripts/gpu-parity.sh --strider "$bin" ${cpubin:+--cpu-strider "$cpubin"} --seconds "$soft" 2>&1 | tee "$out/parity.log"
prc=${PIPESTATUS[0]}
soft=$(( $(left) - 25 ))
echo "== benchmarks: ${soft} s"
timeout --kill-after=5 $((soft + 15)) scripts/gpu-bench.sh --strider "$bin" --runs 3 --seconds "$soft" \
  >"$out/bench.md" 2>"$out/bench.log"
brc=$?
{
  echo "gpu-check: $(date -u '+%Y-%m-%d %H:%M UTC'), $(($SECONDS - start)) s"
  grep -E '^(NVIDIA|[A-Z].*, [0-9]+\.)' "$out/env.txt" | head -2
  echo "parity exit $prc:"
  grep -E '^(-- |cpu vs cuda|torch cuda|not run|gpu parity)' "$out/parity.log"
  echo "FAIL lines: $(grep -c '^FAIL' "$out/parity.log")"
  grep '^FAIL' "$out/parity.log" | head -15
  echo "bench exit $brc:"
  grep -E '^(GPU|Device|Targets|Not measured)' "$out/bench.md"
  tail -3 "$out/bench.log"
} >"$out/summary.txt"
cat "$out/bench.md"
cat "$out/summary.txt"
