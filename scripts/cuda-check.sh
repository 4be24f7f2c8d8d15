#!/usr/bin/env bash
# The CUDA build's checks that need no GPU: regenerates the kernels' PTX
# and fails if it differs from the committed files, then builds and vets
# with -tags cuda. Running the GPU path needs a GPU: see
# scripts/gpu-parity.sh and scripts/gpu-bench.sh.
#
# It needs nvcc. Without it, it stops and says how to get it, unless run
# with --install (CI does, through scripts/test.sh and STRIDER_CUDA=require):
# it then says what it is about to do and installs Debian's
# nvidia-cuda-toolkit (about 6.7 GiB installed), first adding the contrib
# and non-free components to the apt sources when the package is not
# available without them.
#
# Usage: scripts/cuda-check.sh [--install]
set -euo pipefail
cd "$(dirname "$0")/.."

install=0
[ "${1:-}" = "--install" ] && install=1
export NVCC=${NVCC:-nvcc} # the compiler gen-ptx.sh runs

if ! command -v "$NVCC" >/dev/null; then
  if [ "$install" -ne 1 ]; then
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
  echo "nvcc not found: installing Debian's nvidia-cuda-toolkit (about 6.7 GiB installed),"
  echo "which the CUDA build check needs to regenerate the kernels' PTX"
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
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq nvidia-cuda-toolkit >/dev/null
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
