#!/usr/bin/env bash
# The CUDA build's checks that need no GPU: installs the CUDA toolkit when
# nvcc is missing (Debian's nvidia-cuda-toolkit, from the non-free
# component), regenerates the kernels' PTX and fails if it differs from the
# committed files, then builds and vets with -tags cuda. Running the GPU
# path needs a GPU: see scripts/gpu-parity.sh and scripts/gpu-bench.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

sudo=""
if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null; then
  sudo=sudo
fi

if ! command -v nvcc >/dev/null; then
  echo "nvcc not found: installing Debian's nvidia-cuda-toolkit (contrib non-free)"
  src=/etc/apt/sources.list.d/debian.sources
  if [ -f "$src" ]; then
    $sudo sed -i -E '/^Components:/ { / contrib/! s/$/ contrib/; / non-free( |$)/! s/$/ non-free/ }' "$src"
  fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq nvidia-cuda-toolkit >/dev/null
fi
nvcc --version | tail -n 1

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
