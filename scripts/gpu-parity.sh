#!/usr/bin/env bash
# GPU parity, for a host with an NVIDIA GPU, NumPy and PyTorch with CUDA, and
# no Go: takes a strider built elsewhere with `go build -tags cuda` and
#
#  1. with --suite, runs the whole parity suite (scripts/parity.py and its
#     plug-ins) with every operation on the GPU, through a wrapper that puts
#     --device cuda after the subcommand (info and compare stay on the CPU);
#     its references assume NumPy 1.24, so under another NumPy a failure
#     there may be NumPy's change: step 2 is the GPU's own check;
#  2. runs (scripts/gpu_parity.py, many processes side by side) every operation on assorted inputs with --device cpu and
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
#     amax, amin, argmax, argmin, count_nonzero, any and all of integers.
#
# Usage: scripts/gpu-parity.sh --strider BIN [--cpu-strider BIN] [--seconds S] [--no-big] [--no-torch]
#                              [--suite [--cases N] [-- PARITY ARGS...]]
# (--cpu-strider: the default build of the same commit, run for the CPU side;
# --seconds: the time steps 2 and 3 may take; checks not started by then are
# counted as not run, and the exit status is 1; --cases: plug-in cases for
# parity.py; arguments after -- go to parity.py)
# $PYTHON picks the interpreter (default /usr/bin/python3); $JOBS the checks
# run side by side (default: the cores, at most 16). Exit 0 when all passed,
# 1 on any difference or check not run, 2 on bad usage or when the GPU path
# cannot run.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-/usr/bin/python3}
bin="" cpubin="" big=1 cases=300 torch=1 suite=0 seconds=""
while [ $# -gt 0 ]; do
  case $1 in
    --strider) bin=$2; shift 2 ;;
    --strider=*) bin=${1#*=}; shift ;;
    --no-big) big=0; shift ;;
    --no-torch) torch=0; shift ;;
    --cases) cases=$2; shift 2 ;;
    --suite) suite=1; shift ;;
    --cpu-strider) cpubin=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
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
if [ "$suite" -eq 1 ]; then
  echo
  echo "== parity suite with --device cuda"
  "$PYTHON" scripts/parity.py --strider "$work/strider-cuda" --plugin-cases "$cases" "$@" || status=1
fi

echo
echo "== CPU and GPU outputs, byte for byte; PyTorch CUDA"
STRIDER="$bin" STRIDER_CPU="$cpubin" WORK="$work" BIG="$big" TORCH="$torch" SECONDS_LEFT="$seconds" PYTHONUNBUFFERED=1 \
  "$PYTHON" scripts/gpu_parity.py || status=1
[ "$status" -eq 0 ] && echo "gpu parity: all passed" || echo "gpu parity: FAILURES"
exit "$status"
