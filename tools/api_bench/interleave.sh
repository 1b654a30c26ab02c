#!/usr/bin/env bash
# Interleaved runs of scripts/api-bench.sh (64 connections, 2 wrk threads),
# one line per run: throughput, latency, outcomes, serve's CPU per request
# (its CPU seconds during wrk over wrk's request count) and RSS. On a shared
# machine only runs interleaved like this compare.
# Usage: tools/api_bench/interleave.sh ROUNDS SECONDS BINARY...
set -u
rounds=${1:?usage: tools/api_bench/interleave.sh ROUNDS SECONDS BINARY...}
secs=${2:?usage: tools/api_bench/interleave.sh ROUNDS SECONDS BINARY...}
shift 2
here=$(cd "$(dirname "$0")/../.." && pwd)
for r in $(seq 1 "$rounds"); do
  for bin in "$@"; do
    out=$("$here/scripts/api-bench.sh" "$bin" "$secs" 64 2 2>&1)
    rps=$(echo "$out" | awk '/Requests\/sec/ {print $2}')
    n=$(echo "$out" | awk '/requests in/ {print $1}')
    lat=$(echo "$out" | grep -o 'p50 [0-9.]* ms, p99 [0-9.]* ms, max [0-9.]* ms')
    neg=$(echo "$out" | grep -o 'accepted [0-9]*; moves [0-9]*; failed requests [0-9]*')
    rss=$(echo "$out" | grep "RSS" | grep -o '[0-9]* KiB' | tr '\n' ' ')
    before=$(echo "$out" | grep "CPU before" | grep -o 'total=[0-9.]*' | cut -d= -f2)
    cpu=$(echo "$out" | grep "CPU after" | sed 's/.*(s): //')
    after=$(echo "$cpu" | grep -o 'total=[0-9.]*' | cut -d= -f2)
    us=$(awk -v a="$before" -v b="$after" -v n="$n" 'BEGIN { printf "%.0f", (b - a) * 1e6 / n }')
    echo "r$r $bin: $rps req/s; $lat; $neg; serve CPU/request ${us} us; RSS $rss; cpu $cpu"
  done
done
