#!/usr/bin/env bash
# Issue 35's memory check of BENCHMARKS.md: does `parley serve` give back
# what a sustained move load took? Runs scripts/api-bench.sh (serve with a
# fresh SQLite store on disk, wrk with 64 connections and 2 threads) for
# SECONDS of load, waits QUIET seconds, and prints serve's resident memory
# (VmRSS) before the load, at its end and after the quiet, and the ratio of
# the last to the first (issue 35's goal: at most 1.5).
# Usage: scripts/memory-bench.sh PARLEY_BINARY [SECONDS] [QUIET]
set -euo pipefail

binary=${1:?usage: scripts/memory-bench.sh PARLEY_BINARY [SECONDS] [QUIET]}
seconds=${2:-60}
quiet=${3:-10}
here=$(cd "$(dirname "$0")" && pwd)
out=$(mktemp)
trap 'rm -f "$out"' EXIT

QUIET=$quiet "$here/api-bench.sh" "$binary" "$seconds" 64 2 | tee "$out"
figure() { sed -n "s/^serve RSS $1: \([0-9]*\) KiB.*/\1/p" "$out"; }
before=$(figure before)
loaded=$(figure after)
rested=$(figure "after ${quiet} s of quiet")
awk -v b="$before" -v l="$loaded" -v r="$rested" -v q="$quiet" 'BEGIN {
  printf "memory: serve RSS %d KiB before, %d KiB at the end of the load, %d KiB after %d s of quiet; ratio %.2f\n",
    b, l, r, q, r / b }'
