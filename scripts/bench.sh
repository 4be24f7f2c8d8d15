#!/usr/bin/env bash
# Builds strider and times it against the NumPy and PyTorch one-liners for
# the same jobs, in alternating runs; prints the README's benchmark table.
# Usage: scripts/bench.sh [--runs N] [--quick] [--cases transpose]
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-/usr/bin/python3}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# urfave_cli_no_docs drops urfave/cli's man-page generator (blackfriday and
# md2man, which strider never calls) and its package inits: about a tenth of
# a tiny command's CPU time. The README's build command uses the same tag.
go build -tags urfave_cli_no_docs -o "$out/strider" .
"$PYTHON" scripts/bench.py --strider "$out/strider" "$@"
