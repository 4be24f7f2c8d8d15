#!/usr/bin/env bash
# Runs strider's checks: formatting and vet, the cross-compiled builds, the
# CUDA build check, the fixtures, the Go tests, short fuzz runs, the parity
# suite against real NumPy and PyTorch and a benchmark smoke run. Exits
# non-zero on the first failure. See docs/testing.md.
#
# Knobs (environment variables):
#   PARITY=quick|full|deep  parity suite size (scripts/parity.py --scale):
#                        quick (default, 0.3) still runs every dtype, byte
#                        order and C/Fortran order; full (CI, 1) also covers
#                        every (op, dtype, order, 0-d/empty/n-d) cell, checked;
#                        deep (4) for a release or a change to an op
#   FUZZTIME=5s          time per fuzz target (every Fuzz* in the tree)
#   STRIDER_SKIP_CUDA=1  skip the CUDA build check (printed as skipped)
#   STRIDER_CUDA=auto|require
#                        auto (default): run the CUDA build check when nvcc is
#                        installed, else print it as skipped; require (CI):
#                        always run it, installing the CUDA toolkit if missing
#   PYTHON=/usr/bin/python3  the interpreter with NumPy and PyTorch
#
# The only things it may install are Debian's python3-numpy and
# python3-torch (when $PYTHON lacks them; it says so first) and, with
# STRIDER_CUDA=require, the CUDA toolkit (scripts/cuda-check.sh --install).
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-/usr/bin/python3}
FUZZTIME=${FUZZTIME:-5s}
PARITY=${PARITY:-quick}
STRIDER_CUDA=${STRIDER_CUDA:-auto}

case "$PARITY" in
  quick) parity_scale=0.3 ;;
  full) parity_scale=1 ;;
  deep) parity_scale=4 ;;
  *) echo "PARITY=$PARITY: expected quick, full or deep" >&2; exit 2 ;;
esac
case "$STRIDER_CUDA" in
  auto | require) ;;
  *) echo "STRIDER_CUDA=$STRIDER_CUDA: expected auto or require" >&2; exit 2 ;;
esac

# urfave/cli's docs.go (ToMarkdown, ToMan) pulls in md2man and blackfriday,
# whose set-up costs every strider process ~4 ms of CPU here; strider uses
# none of it, and the parity suite starts tens of thousands of processes. The
# tag drops that file; every go command below (and the binary the root
# package's tests build) gets it through GOFLAGS.
export GOFLAGS="${GOFLAGS:+$GOFLAGS }-tags=urfave_cli_no_docs"

# Each step line shows the wall time and the CPU time (user + system of every
# finished child process: builds, tests, strider runs) so far. On a shared
# machine the CPU time is the one to compare; on an idle 2-core machine a
# step that keeps both cores busy takes about half its CPU time.
cpufile=$(mktemp)
log=$(mktemp)
racelog=$(mktemp)
bin=$(mktemp -d)
cudalog=$(mktemp)
cuda_install=""
finish() {
  if [ -n "$cuda_install" ] && kill -0 "$cuda_install" 2>/dev/null; then
    echo "waiting for the CUDA toolkit install to end (stopping apt-get midway would leave dpkg half done)"
    wait "$cuda_install" || true
  fi
  rm -rf "$bin" "$log" "$racelog" "$cpufile" "$cudalog"
}
trap finish EXIT
cpu_so_far() { # sets cpu; `times` must run in this shell, not in a $(...) subshell
  times >"$cpufile"
  cpu=$(awk 'NR == 2 { t = 0; for (i = 1; i <= 2; i++) { split($i, p, "m"); sub("s", "", p[2]); t += p[1] * 60 + p[2] } printf "%d", t }' "$cpufile")
}
SECONDS=0
step() { cpu_so_far; printf '\n== %s  [%ds, CPU %ss]\n' "$*" "$SECONDS" "$cpu"; }

step "dependencies"
missing=()
# One interpreter start when both are there (importing torch takes seconds).
if ! "$PYTHON" -c 'import numpy, torch' 2>/dev/null; then
  "$PYTHON" -c 'import numpy' 2>/dev/null || missing+=(python3-numpy)
  "$PYTHON" -c 'import torch' 2>/dev/null || missing+=(python3-torch)
fi
# zsh and fish: the completion tests check the syntax of the scripts strider
# prints for them (and skip without them, which CI must not).
command -v zsh >/dev/null || missing+=(zsh)
command -v fish >/dev/null || missing+=(fish)
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing ${missing[*]} with apt-get: the parity suite and the fixture check compare"
  echo "strider with NumPy and PyTorch (when $PYTHON cannot import them; python3-torch is about"
  echo "1 GiB), and the completion tests check the zsh and fish scripts' syntax"
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "that needs root or sudo; or set PYTHON to an interpreter that has them" >&2; exit 1; }
    sudo=sudo
  fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
"$PYTHON" -c 'import numpy, torch; print("numpy", numpy.__version__, "torch", torch.__version__)'
go version

if [ "${STRIDER_SKIP_CUDA:-}" != 1 ] && [ "$STRIDER_CUDA" = require ] && ! command -v "${NVCC:-nvcc}" >/dev/null; then
  step "CUDA toolkit, for the CUDA build check at the end (installed in the background)"
  # Downloading and unpacking take minutes but little CPU: they overlap the
  # steps below instead of coming before them.
  scripts/cuda-check.sh --install-prepare
  echo "apt-get install runs in the background from here; the CUDA build step waits for it"
  (
    rc=0
    scripts/cuda-check.sh --install-packages || rc=$?
    echo "(the CUDA toolkit install ended ${SECONDS}s into the run, status $rc)"
    exit "$rc"
  ) >"$cudalog" 2>&1 &
  cuda_install=$!
fi

step "format and vet"
unformatted=$(gofmt -l $(git ls-files '*.go'))
if [ -n "$unformatted" ]; then
  echo "gofmt would change: $unformatted"
  exit 1
fi
go vet ./...

step "cross-compile: build for linux, darwin, windows on amd64 and arm64; vet one of each OS"
# Build tags here differ by OS only, so vetting (which also compiles the
# tests) one architecture per OS covers every file; building covers all six.
# Built as the release builds them (CGO_ENABLED=0, -trimpath), so that the
# release step later only links, from this step's compiled packages.
for target in linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64; do
  echo "-- $target"
  CGO_ENABLED=0 GOOS=${target%/*} GOARCH=${target#*/} go build -trimpath -o /dev/null .
done
for target in darwin/arm64 windows/amd64; do
  echo "-- vet $target"
  GOOS=${target%/*} GOARCH=${target#*/} go vet ./...
done

step "emulated runs: go test and a smoke set for linux/arm64 under qemu-user, windows/amd64 under Wine"
# scripts/cross-test.sh; docs/platforms.md says what runs, what is skipped
# and why, and what emulation cannot prove. STRIDER_CROSS=auto (the default;
# require when $CI is set): install what is missing when root or sudo can,
# else print SKIPPED; require: fail instead; skip: print SKIPPED.
cross=${STRIDER_CROSS:-$(case "${CI:-}" in "" | false) echo auto ;; *) echo require ;; esac)}
cross_missing=$(scripts/cross-test.sh --missing)
if [ "$cross" != skip ] && [ -n "$cross_missing" ]; then
  sudo=none
  if [ "$(id -u)" -eq 0 ]; then sudo=""; elif sudo -n true 2>/dev/null; then sudo=sudo; fi
  if [ "$sudo" != none ]; then
    echo "installing $cross_missing with apt-get (no recommends; all three: 1.3 GiB): this step"
    echo "runs the arm64 tests under qemu-user and the windows tests under Wine, with a DLL MinGW builds"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $cross_missing >/dev/null
    cross_missing=$(scripts/cross-test.sh --missing)
  fi
fi
case "$cross" in
  skip) echo "SKIPPED: emulated runs (STRIDER_CROSS=skip)" ;;
  auto | require)
    if [ -z "$cross_missing" ]; then
      scripts/cross-test.sh
    elif [ "$cross" = require ]; then
      echo "the emulated runs need $cross_missing; installing needs root or sudo" >&2
      exit 1
    else
      echo "SKIPPED: emulated runs: $cross_missing not installed and no root or sudo to install them"
      echo "(CI installs them: STRIDER_CROSS=require, or CI set; STRIDER_CROSS=skip skips without this note)"
    fi
    ;;
  *) echo "STRIDER_CROSS=$cross: expected auto, require or skip" >&2; exit 2 ;;
esac

step "fixtures are what gen_testdata.py writes"
"$PYTHON" scripts/gen_testdata.py --check
"$PYTHON" scripts/gen_torch_testdata.py --check
"$PYTHON" scripts/gen_sharded_testdata.py --check
"$PYTHON" scripts/gen_dtype_tables.py --check

step "go test, and go test -race ./ops beside it (which tests skipped: mounting a tmpfs needs root)"
# The two runs together keep both cores busy where each alone would leave one
# idle for long stretches (the root package's tests wait on strider processes).
go test -count=1 -race ./ops >"$racelog" 2>&1 &
race=$!
if ! go test -count=1 -v ./... >"$log" 2>&1; then
  grep -vE '^(=== (RUN|PAUSE|CONT|NAME)|\s*--- PASS)' "$log" | tail -n 200
  wait "$race" || true
  exit 1
fi
grep -E '^(ok|---|\?)|SKIPPED' "$log" | grep -vE '^\s*--- PASS|no test files' || true
if ! wait "$race"; then
  echo "go test -race ./ops failed:"
  tail -n 200 "$racelog"
  exit 1
fi
echo "race: $(tail -n 1 "$racelog")"

step "fuzz ($FUZZTIME each)"
# Every fuzz target in the tree, found by name so new ones run without edits.
# Go's fuzzer sometimes ends a loaded run with "context deadline exceeded" and
# no failing input (the coordinator's own deadline, not a finding): such a run
# is repeated once. A real finding names its input and fails at once.
fuzz_one() {
  local log
  log=$(mktemp)
  for attempt in 1 2; do
    if go test -run '^$' -fuzz "^$2\$" -fuzztime "$FUZZTIME" "$1" >"$log" 2>&1; then
      tail -n 2 "$log"
      rm -f "$log"
      return 0
    fi
    if [ "$attempt" = 1 ] && grep -q "context deadline exceeded" "$log" && ! grep -q "Failing input\|testdata/fuzz/$2/" "$log"; then
      echo "(the fuzzer's deadline ran out with no finding; once more)"
      continue
    fi
    break
  done
  cat "$log"
  rm -f "$log"
  return 1
}
for pkg in $(go list -f '{{.Dir}}' ./...); do
  for target in $(grep -ho '^func Fuzz[A-Za-z0-9_]*' "$pkg"/*_test.go 2>/dev/null | sed 's/^func //' | sort -u); do
    echo "-- $pkg $target"
    fuzz_one "$pkg" "$target"
  done
done

step "parity against NumPy and PyTorch (PARITY=$PARITY: --scale $parity_scale), and the benchmark smoke run beside it"
go build -o "$bin/strider" .
# The smoke run (every benchmark command once, strider's outputs compared with
# NumPy's and PyTorch's, nothing timed) is one command at a time: beside the
# parity suite it fills what the suite leaves of the cores.
benchlog="$bin/bench.log"
"$PYTHON" scripts/bench.py --strider "$bin/strider" --quick --runs 0 --work "$bin/bench" >"$benchlog" 2>&1 &
bench=$!
if ! "$PYTHON" scripts/parity.py --strider "$bin/strider" --scale "$parity_scale"; then
  wait "$bench" || true
  exit 1
fi

step "parity of file outputs written piece by piece (STRIDER_DIRECT_MIN=1, 1 KiB pieces: the path of outputs from 128 MiB on)"
STRIDER_DIRECT_MIN=1 STRIDER_DIRECT_PIECE=1024 "$PYTHON" scripts/parity.py --strider "$bin/strider" --scale 0.1 \
  --ops transpose,diagonal,gather,slice,tri,order,cast,concat

step "benchmark smoke run (outputs must match NumPy's; nothing timed): its result"
if ! wait "$bench"; then
  echo "the benchmark smoke run failed:"
  grep -v '^|' "$benchlog" | tail -n 20
  exit 1
fi
echo "every benchmark command ran; strider's outputs match NumPy's and PyTorch's"

step "release: scripts/release.sh twice (same bytes), archives, wheels, pip install in a venv"
PYTHON="$PYTHON" scripts/release-check.sh

step "CUDA build (PTX up to date, build and vet with -tags cuda)"
# The GPU path itself needs a GPU (scripts/gpu-parity.sh); this checks that
# it builds, that the embedded PTX is what the kernels compile to, and runs
# nothing that needs a device. Its pure-Go launch plans are tested by
# go test ./cuda above.
if [ "${STRIDER_SKIP_CUDA:-}" = 1 ]; then
  echo "SKIPPED: CUDA build check (STRIDER_SKIP_CUDA=1)"
elif [ -n "$cuda_install" ]; then
  if ! wait "$cuda_install"; then
    cuda_install=""
    echo "installing the CUDA toolkit failed:"
    tail -n 50 "$cudalog"
    exit 1
  fi
  cuda_install=""
  tail -n 1 "$cudalog"
  scripts/cuda-check.sh
elif [ "$STRIDER_CUDA" = require ]; then
  scripts/cuda-check.sh --install
elif command -v "${NVCC:-nvcc}" >/dev/null; then
  scripts/cuda-check.sh
else
  echo "SKIPPED: CUDA build check: nvcc not found (CI runs it with STRIDER_CUDA=require, which"
  echo "installs the CUDA toolkit, about 5.5 GiB; STRIDER_SKIP_CUDA=1 skips it without this note)"
fi

cpu_so_far
echo
echo "all tests passed in ${SECONDS}s (CPU ${cpu}s, user + system)"
