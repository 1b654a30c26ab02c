#!/usr/bin/env bash
# The API benchmark of BENCHMARKS.md: starts `parley serve` on a free port
# with a fresh SQLite store (or STORE=URL), registers external agent pairs
# with curl, then runs wrk with
# tools/api_bench/negotiations.lua (a create and three moves per
# negotiation, keep-alive) and prints serve's resident memory and its CPU
# seconds by thread before and after; with QUIET=S, serve's resident memory
# again after S seconds without requests (scripts/memory-bench.sh).
# Usage: scripts/api-bench.sh PARLEY_BINARY [SECONDS] [CONNECTIONS] [THREADS]
set -euo pipefail

binary=${1:?usage: scripts/api-bench.sh PARLEY_BINARY [SECONDS] [CONNECTIONS] [THREADS]}
seconds=${2:-20}
connections=${3:-64}
threads=${4:-2}
pairs=${PAIRS:-64}
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
log="$work/serve.log"
store=${STORE:-$work/bench.db}

# Serve refuses a store that is not there; `db migrate` makes it (older
# binaries, compared by tools/api_bench/interleave.sh, do the same with it).
"$binary" db migrate --store "$store" >/dev/null
"$binary" serve --port 0 --store "$store" >"$log" 2>&1 &
serve_pid=$!
trap 'kill -TERM $serve_pid 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 1 200); do
  grep -q "parley serve: ready" "$log" && break
  sleep 0.05
done
port=$(sed -n 's/.*listening on [^:]*:\([0-9]*\).*/\1/p' "$log")
[ -n "$port" ] || { cat "$log"; exit 1; }
base="http://127.0.0.1:$port"

for k in $(seq 1 $((pairs * threads))); do
  for side in a b; do
    curl -sf -o /dev/null -X POST "$base/api/v1/agents" \
      -H 'Content-Type: application/json' \
      -d "{\"id\":\"$side$k\",\"brain\":{\"kind\":\"external\"}}"
  done
done

rss() { awk '/VmRSS/ {print $2}' "/proc/$serve_pid/status"; }
# serve's CPU seconds: each thread's, in thread id order (the threads are
# unnamed; which is which varies with the start order), and the total.
cpu() {
  for stat in /proc/"$serve_pid"/task/*/stat; do
    sed 's/^\([0-9]*\) (.*) [A-Za-z] /\1 /' "$stat"
  done | sort -n | awk -v hz="$(getconf CLK_TCK)" '{
      t = ($12 + $13) / hz; all += t; printf "%.2f ", t }
    END { printf "total=%.2f\n", all }'
}
echo "serve RSS before: $(rss) KiB"
echo "serve CPU before (s): $(cpu)"
PAIRS=$pairs wrk -t"$threads" -c"$connections" -d"${seconds}s" --latency \
  -s "$here/tools/api_bench/negotiations.lua" "$base"
echo "serve RSS after: $(rss) KiB (peak $(awk '/VmHWM/ {print $2}' "/proc/$serve_pid/status") KiB)"
echo "serve CPU after (s): $(cpu)"
if [ -n "${QUIET:-}" ]; then
  sleep "$QUIET"
  echo "serve RSS after ${QUIET} s of quiet: $(rss) KiB"
fi
kill -TERM "$serve_pid"
wait "$serve_pid"
tail -1 "$log"
