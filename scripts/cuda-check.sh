#!/usr/bin/env bash
# The CUDA build's checks that need no GPU: regenerates the kernels' PTX
# and fails if it differs from the committed files, then builds and vets
# with -tags cuda. Running the GPU path needs a GPU: see
# scripts/gpu-parity.sh and scripts/gpu-bench.sh.
#
# It needs nvcc. Without it, it stops and says how to get it, unless run
# with --install (CI does, through scripts/test.sh and STRIDER_CUDA=require):
# it then says what it is about to do and installs Debian's
# nvidia-cuda-toolkit without its recommended extras (profilers, Nsight,
# documentation; about 5.5 GiB installed), first adding the contrib and
# non-free components to the apt sources when the package is not available
# without them.
#
# scripts/test.sh splits --install in two so that the download and unpacking
# overlap its other steps: --install-prepare (say what it will do, apt-get
# update, the sources edit; in the foreground) and --install-packages (the
# apt-get install alone, run in the background), then runs this script
# without options once nvcc is there.
#
# Usage: scripts/cuda-check.sh [--install | --install-prepare | --install-packages]
set -euo pipefail
cd "$(dirname "$0")/.."

install=0
case "${1:-}" in
  --install) install=1 ;;
  --install-prepare) install=prepare ;;
  --install-packages) install=packages ;;
  "") ;;
  *) echo "cuda-check.sh: unknown option $1 (want --install, --install-prepare or --install-packages)" >&2; exit 2 ;;
esac
export NVCC=${NVCC:-nvcc} # the compiler gen-ptx.sh runs

if [ "$install" != 0 ] && [ "$install" != 1 ] && command -v "$NVCC" >/dev/null; then
  exit 0 # --install-prepare or --install-packages with nvcc already there: nothing to do
fi
if ! command -v "$NVCC" >/dev/null; then
  if [ "$install" = 0 ]; then
    echo "$NVCC not found: the CUDA build check needs the CUDA toolkit." >&2
    echo "Install it (Debian: apt-get install nvidia-cuda-toolkit, from the non-free component;" >&2
    echo "about 6.7 GiB), run scripts/cuda-check.sh --install to let this script do that," >&2
    echo "or skip the check in scripts/test.sh with STRIDER_SKIP_CUDA=1." >&2
    exit 1
  fi
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "installing the CUDA toolkit needs root or sudo" >&2; exit 1; }
    sudo=sudo
  fi
  if [ "$install" != packages ]; then
    echo "nvcc not found: installing Debian's nvidia-cuda-toolkit without its recommended extras"
    echo "(about 5.5 GiB installed), which the CUDA build check needs to regenerate the kernels' PTX"
    $sudo apt-get update -qq
    src=/etc/apt/sources.list.d/debian.sources
    # apt-cache show succeeds for a package other packages merely name, so the
    # test is whether apt has a version it could install.
    if ! apt-cache policy nvidia-cuda-toolkit 2>/dev/null | grep -q 'Candidate: [^(]' && [ -f "$src" ]; then
      echo "nvidia-cuda-toolkit is in Debian's non-free component: adding 'contrib non-free'"
      echo "to the Components: lines of $src (a copy is kept as $src.strider-backup)"
      $sudo cp "$src" "$src.strider-backup"
      $sudo sed -i -E '/^Components:/ { / contrib/! s/$/ contrib/; / non-free( |$)/! s/$/ non-free/ }' "$src"
      $sudo apt-get update -qq
    fi
  fi
  [ "$install" = prepare ] && exit 0
  # The recommended extras (Nsight, the visual profiler and its Java runtime,
  # cuda-gdb, documentation: about 1.1 GiB) are not used here; unsafe-io
  # skips dpkg's fsync of every unpacked file (a crash mid-install would need
  # it reinstalled, which a CI machine never keeps anyway).
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
    -o Dpkg::Options::=--force-unsafe-io nvidia-cuda-toolkit >/dev/null
  [ "$install" = packages ] && exit 0
  NVCC=nvcc
fi
"$NVCC" --version | tail -n 1

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
scripts/gen-ptx.sh "$tmp"
status=0
for f in "$tmp"/*.ptx; do
  name=$(basename "$f")
  if ! cmp -s "$f" "cuda/kernels/$name"; then
    echo "cuda/kernels/$name is not what scripts/gen-ptx.sh generates (run it and commit the result):"
    diff -u "cuda/kernels/$name" "$f" | head -20 || true
    status=1
  fi
done
for f in cuda/kernels/*.ptx; do
  [ -f "$tmp/$(basename "$f")" ] || { echo "$f has no source in cuda/kernels/*.cu"; status=1; }
done
[ "$status" -eq 0 ] || exit 1
echo "PTX is up to date"

go build -tags cuda -o "$tmp/strider-cuda" .
go vet -tags cuda ./...
echo "cuda build and vet: ok"
