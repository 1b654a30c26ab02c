#!/usr/bin/env bash
# How a cluster node's events reach another node (issue 37 item 6,
# docs/benchmarks/cluster.md): tools/event_transport_bench over CAF (Parley's
# event exchange, loopback) and through PostgreSQL NOTIFY/LISTEN (a throwaway
# server, fsync on), each as fast as it goes and at a steady 1000 events/s.
#
# Usage: scripts/event-transport-bench.sh BENCH_BINARY [N]
#   BENCH_BINARY: build-rel/tools/parley_event_transport_bench; N events per
#   run (default 20000).
set -euo pipefail

usage="usage: scripts/event-transport-bench.sh BENCH_BINARY [N]"
bench=$(realpath "${1:?$usage}")
n=${2:-20000}
pg_bin=${PARLEY_PG_BIN:-/usr/lib/postgresql/15/bin}
for tool in "$pg_bin/initdb" "$pg_bin/pg_ctl"; do
  command -v "$tool" >/dev/null || { echo "event-transport-bench: $tool is missing" >&2; exit 2; }
done

# shellcheck source=scripts/lib/throwaway-postgres.sh
. "$(dirname "$0")/lib/throwaway-postgres.sh"
url="postgresql://parley@127.0.0.1:$pg_port/postgres"

"$bench" caf "$n"
"$bench" notify "$url" "$n"
"$bench" notify "$url" "$n" --per-tx=100
"$bench" caf "$n" --payload=4000
"$bench" notify "$url" "$n" --payload=4000
"$bench" caf 10000 --rate=1000
"$bench" notify "$url" 10000 --rate=1000
