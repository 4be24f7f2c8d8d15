#!/usr/bin/env bash
# Builds strider and times it against the NumPy and PyTorch one-liners for
# the same jobs, in alternating runs; prints the README's benchmark table.
# Usage: scripts/bench.sh [--runs N] [--quick] [--cases transpose]
#        scripts/bench.sh --scale [--runs N] [--max-mib M] [--ops transpose,sort]
#          (cost against size, 4 KiB to 1 GiB: docs/scale-*.png; see bench_scale.py)
#        scripts/bench.sh --remote [-mib 256] [-runs 7] [-baseline OLD_STRIDER]
#          (remote inputs from a loopback server: compare against the plain
#          download, what info and show fetch; docs/remote.md; scripts/benchremote)
#        scripts/bench.sh --reduce [--runs N] [--ops sum,argmax] [--cases all,axis0,axis-1]
#          (every reduction over 256 MiB of float32 against NumPy and cat:
#          docs/benchmarks.md; scripts/bench_reduce.sh, which prints the machine)
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-/usr/bin/python3}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# urfave_cli_no_docs drops urfave/cli's man-page generator (blackfriday and
# md2man, which strider never calls) and its package inits: about a tenth of
# a tiny command's CPU time. The README's build command uses the same tag.
# CGO_ENABLED=0: static, as the releases are (net/http would link libc's resolver).
CGO_ENABLED=0 go build -tags urfave_cli_no_docs -o "$out/strider" .
# The machine first (date, CPU, NumPy's SIMD line), so that every table
# carries it; the default run's bench.py prints it itself.
case "${1:-}" in --scale|--remote) "$PYTHON" scripts/bench.py --machine ;; esac
if [ "${1:-}" = "--scale" ]; then
  shift
  "$PYTHON" scripts/bench_scale.py --strider "$out/strider" "$@"
elif [ "${1:-}" = "--remote" ]; then
  shift
  go run -tags urfave_cli_no_docs ./scripts/benchremote -strider "$out/strider" "$@"
elif [ "${1:-}" = "--reduce" ]; then
  shift
  scripts/bench_reduce.sh --strider "$out/strider" "$@"
else
  "$PYTHON" scripts/bench.py --strider "$out/strider" "$@"
fi
