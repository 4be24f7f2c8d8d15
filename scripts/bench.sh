#!/usr/bin/env bash
# Builds strider and times it against the NumPy and PyTorch one-liners for
# the same jobs, in alternating runs; prints the README's benchmark table.
# Usage: scripts/bench.sh [--runs N] [--quick] [--cases transpose]
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-/usr/bin/python3}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
go build -o "$out/strider" .
"$PYTHON" scripts/bench.py --strider "$out/strider" "$@"
