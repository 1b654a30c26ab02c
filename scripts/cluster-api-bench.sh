#!/usr/bin/env bash
# The API across the nodes of a cluster (issue 37, BENCHMARKS.md): the load
# of scripts/api-bench.sh (wrk with tools/api_bench/negotiations.lua: a
# create and three moves per negotiation, keep-alive) from three wrk
# processes at once, first all three against one `parley serve --cluster`
# node, then each against its own node of a three-node cluster, in one run
# and over one throwaway PostgreSQL (a fresh database each). With three
# nodes a negotiation runs where its room ranks first (docs/cluster.md,
# "Placement"), so about two thirds of the openings and moves a node
# receives are forwarded to another node. Prints each phase's requests/s
# (the three wrk summed), p99 (the highest of the three), the requests
# forwarded, and the ratio of three nodes to one.
#
# Usage: scripts/cluster-api-bench.sh PARLEY_BINARY [SECONDS [CONNECTIONS]]
#   CONNECTIONS: of each wrk process (default 21: 63 in all). TLS=1: mutual
#   TLS between the nodes (certificates from scripts/make-certs.sh).
set -euo pipefail

usage="usage: scripts/cluster-api-bench.sh PARLEY_BINARY [SECONDS [CONNECTIONS]]"
binary=$(realpath "${1:?$usage}")
seconds=${2:-15}
connections=${3:-21}
pairs=${PAIRS:-63}
here=$(cd "$(dirname "$0")/.." && pwd)
pg_bin=${PARLEY_PG_BIN:-/usr/lib/postgresql/15/bin}
for tool in "$pg_bin/initdb" "$pg_bin/pg_ctl" "$pg_bin/psql" curl jq wrk; do
  command -v "$tool" >/dev/null || { echo "cluster-api-bench: $tool is missing" >&2; exit 2; }
done

# shellcheck source=scripts/lib/throwaway-postgres.sh
. "$(dirname "$0")/lib/throwaway-postgres.sh"
tls=()
if [ "${TLS:-0}" = 1 ]; then
  "$here/scripts/make-certs.sh" "$work/certs" node-1 node-2 node-3 >/dev/null
fi

declare -a port
# Starts node $2 (1..3) of phase $1 over database $1 and sets port[$2].
start_node() {
  local db=$1 i=$2 log="$work/$1-node-$2.log"
  [ "${TLS:-0}" = 1 ] && tls=(--tls-ca "$work/certs/ca.pem" --tls-cert \
    "$work/certs/node-$i.pem" --tls-key "$work/certs/node-$i.key")
  : >"$log"
  "$binary" serve --port 0 --store "postgresql://parley@127.0.0.1:$pg_port/$db" \
    --cluster bench --node-id "node-$i" --node-port 0 "${tls[@]}" >"$log" 2>&1 &
  pids+=($!)
  for _ in $(seq 1 600); do
    grep -q "parley serve: ready" "$log" && break
    sleep 0.05
  done
  grep -q "parley serve: ready" "$log" || { cat "$log" >&2; exit 1; }
  port[i]=$(sed -n 's/^parley serve listening on [^:]*:\([0-9]*\) .*/\1/p' "$log")
}

# The sum of a counter of every node of the phase's /metrics.
metric_sum() {
  local name=$1 n=$2 sum=0 v
  for i in $(seq 1 "$n"); do
    v=$(curl -sf "http://127.0.0.1:${port[$i]}/metrics" | awk -v m="$name" '$1 == m {print $2}')
    sum=$(( sum + ${v:-0} ))
  done
  echo "$sum"
}

# Phase $1 with $2 nodes: prints "requests/s p99_ms forwarded requests".
phase() {
  local db=$1 n=$2
  "$pg_bin/psql" -X -q "postgresql://parley@127.0.0.1:$pg_port/postgres" \
    -c "create database $db" >/dev/null
  "$binary" db migrate --store "postgresql://parley@127.0.0.1:$pg_port/$db" >/dev/null
  for i in $(seq 1 "$n"); do start_node "$db" "$i"; done
  for _ in $(seq 1 200); do
    live=$(curl -sf "http://127.0.0.1:${port[1]}/api/v1/cluster" |
      jq '[.members[] | select(.status == "live")] | length')
    [ "$live" = "$n" ] && break
    sleep 0.05
  done
  [ "$live" = "$n" ] || { echo "phase $db: $live of $n nodes live" >&2; exit 1; }
  # The agents of all three wrk processes, registered through the nodes in
  # turn (each node finds the others' in the store).
  for k in $(seq 1 $(( 3 * pairs ))); do
    for side in a b; do
      curl -sf -o /dev/null -X POST "http://127.0.0.1:${port[$(( k % n + 1 ))]}/api/v1/agents" \
        -H 'Content-Type: application/json' \
        -d "{\"id\":\"$side$k\",\"brain\":{\"kind\":\"external\"}}"
    done
  done
  local before; before=$(metric_sum parley_cluster_forwarded_moves_total "$n")
  local wrks=() failed=0
  for w in 0 1 2; do
    OFFSET=$(( w * pairs )) PAIRS=$pairs wrk -t1 -c"$connections" -d"${seconds}s" \
      --latency -s "$here/tools/api_bench/negotiations.lua" \
      "http://127.0.0.1:${port[$(( w % n + 1 ))]}" >"$work/$db-wrk-$w.txt" &
    wrks+=($!)
  done
  for pid in "${wrks[@]}"; do wait "$pid" || failed=1; done
  [ "$failed" = 0 ] || { cat "$work/$db"-wrk-*.txt >&2; exit 1; }
  local after; after=$(metric_sum parley_cluster_forwarded_moves_total "$n")
  local rps p99 requests
  rps=$(cat "$work/$db"-wrk-*.txt | awk '/^Requests\/sec:/ {s += $2} END {printf "%.0f", s}')
  requests=$(cat "$work/$db"-wrk-*.txt | awk '/requests in/ {s += $1} END {print s}')
  p99=$(cat "$work/$db"-wrk-*.txt | sed -n 's/.* p99 \([0-9.]*\) ms.*/\1/p' | sort -g | tail -1)
  grep -h "negotiations opened" "$work/$db"-wrk-*.txt | sed 's/^/    /' >&2
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  pids=()
  echo "$rps $p99 $(( after - before )) $requests" >"$work/$db.result"
}

echo "cluster-api-bench: $seconds s, 3 wrk x $connections connections, $pairs pairs each${TLS:+, TLS=$TLS}" >&2
phase one 1
read -r one_rps one_p99 one_fwd one_req <"$work/one.result"
echo "one node:    $one_rps requests/s, p99 $one_p99 ms ($one_req requests, $one_fwd forwarded)"
phase three 3
read -r three_rps three_p99 three_fwd three_req <"$work/three.result"
echo "three nodes: $three_rps requests/s, p99 $three_p99 ms ($three_req requests, $three_fwd forwarded)"
awk -v a="$three_rps" -v b="$one_rps" 'BEGIN { printf "three/one: %.2f\n", a / b }'
