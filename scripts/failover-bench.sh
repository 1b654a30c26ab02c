#!/usr/bin/env bash
# Failover of a `parley serve --cluster` (issue 37, BENCHMARKS.md): how long a
# killed node's negotiations wait for a survivor, and that nothing is lost or
# doubled on the way (docs/cluster.md, "Ownership and take-over").
#
# Starts a throwaway PostgreSQL (initdb in a temporary directory, loopback
# only) and NODES serve nodes of one cluster on this machine, each with a
# node port, with the default lease, each running what is opened through it
# (--placement local). Then KILLS times: opens PER_KILL
# negotiations of two external agents through a random node (which runs
# them; each negotiation between its own pair of agents, as one pair
# negotiates one thing at a time) and sends each a move through a random
# node (forwarded to the one that runs it; answered 200: acknowledged), kills
# the node that runs them with SIGKILL, and
# sends each negotiation's next move to a random survivor again and again
# (the same message id: moves are idempotent; each answer before the
# take-over must be 503 with Retry-After) until every one is answered 200.
# It measures, from the kill, the first 200 (one of the dead node's
# negotiations answered by a survivor) and the last (all of them resumed),
# restarts the killed node (a new incarnation), and checks every
# negotiation's rounds through a survivor: each acknowledged move once, in
# order, nothing else. Prints p50 and p99 of both times, and the moves lost
# and duplicated.
#
# Usage: scripts/failover-bench.sh PARLEY_BINARY [KILLS [NODES [PER_KILL]]]
set -euo pipefail

usage="usage: scripts/failover-bench.sh PARLEY_BINARY [KILLS [NODES [PER_KILL]]]"
binary=$(realpath "${1:?$usage}")
kills=${2:-20}
nodes=${3:-3}
per_kill=${4:-5}
[ "$nodes" -ge 2 ] || { echo "$usage: at least 2 nodes" >&2; exit 2; }
pg_bin=${PARLEY_PG_BIN:-/usr/lib/postgresql/15/bin}
for tool in "$pg_bin/initdb" "$pg_bin/pg_ctl" curl jq; do
  command -v "$tool" >/dev/null || { echo "failover-bench: $tool is missing" >&2; exit 2; }
done

# shellcheck source=scripts/lib/throwaway-postgres.sh
. "$(dirname "$0")/lib/throwaway-postgres.sh"
store="postgresql://parley@127.0.0.1:$pg_port/postgres"
"$binary" db migrate --store "$store" >/dev/null

now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

# Starts node $1 (0-based) and sets port[$1] once it is ready.
declare -a port pid
start_node() {
  local i=$1 log="$work/node-$1.log"
  : >"$log"
  "$binary" serve --port 0 --store "$store" --cluster bench --node-id "node-$i" \
    --node-port 0 --placement local >>"$log" 2>&1 &
  pid[$i]=$!
  disown "${pid[$i]}" # no word from the shell when it is killed
  pids+=("${pid[$i]}")
  for _ in $(seq 1 600); do
    grep -q "parley serve: ready" "$log" && break
    kill -0 "${pid[$i]}" 2>/dev/null || { cat "$log" >&2; exit 1; }
    sleep 0.05
  done
  grep -q "parley serve: ready" "$log" || { echo "node-$i did not start" >&2; exit 1; }
  port[$i]=$(sed -n 's/^parley serve listening on [^:]*:\([0-9]*\) .*/\1/p' "$log" | tail -1)
}

# POSTs JSON $2 to path $1 of node $3; prints the HTTP status.
post() {
  curl -s -o "$work/answer" -w '%{http_code}' -X POST -H 'Content-Type: application/json' \
    --max-time 10 -d "$2" "http://127.0.0.1:${port[$3]}$1"
}

move() { # message id, from, amount
  printf '{"message_id":"%s","from":"%s","action":"counter","proposal":{"amount":%d,"currency":"GBP","description":"logo"}}' "$1" "$2" "$3"
}

for i in $(seq 0 $((nodes - 1))); do start_node "$i"; done
echo "failover-bench: $nodes nodes ready over PostgreSQL on port $pg_port;" \
  "$kills kills of $per_kill negotiations each"

first=()
all=()
lost=0
duplicated=0
for k in $(seq 1 "$kills"); do
  victim=$(( RANDOM % nodes ))
  ids=()
  for n in $(seq 1 "$per_kill"); do
    buyer="buyer-$k-$n" seller="seller-$k-$n"
    for agent in "$buyer" "$seller"; do
      [ "$(post /api/v1/agents "{\"id\":\"$agent\",\"brain\":{\"kind\":\"external\"}}" "$victim")" = 201 ] ||
        { echo "kill $k: cannot register $agent: $(cat "$work/answer")" >&2; exit 1; }
    done
    code=$(post /api/v1/negotiations "{\"initiator\":\"$buyer\",\"responder\":\"$seller\",\"proposal\":{\"amount\":10000,\"currency\":\"GBP\",\"description\":\"logo\"}}" "$victim")
    [ "$code" = 201 ] || { echo "kill $k: open: $code $(cat "$work/answer")" >&2; exit 1; }
    id=$(jq -r .id "$work/answer")
    ids+=("$id")
    [ "$(post "/api/v1/negotiations/$id/messages" "$(move "m2-$n" "$seller" 9000)" \
      $((RANDOM % nodes)))" = 200 ] ||
      { echo "kill $k: move: $(cat "$work/answer")" >&2; exit 1; }
  done
  # Between its moves and its heartbeats: any moment.
  sleep "0.$(( RANDOM % 10 ))"
  kill -KILL "${pid[$victim]}"
  start=$(now_ms)
  declare -A done_at=()
  first_at=0
  deadline=$(( start + 30000 ))
  while [ "${#done_at[@]}" -lt "$per_kill" ] && [ "$(now_ms)" -lt "$deadline" ]; do
    for n in $(seq 1 "$per_kill"); do
      [ -n "${done_at[$n]:-}" ] && continue
      survivor=$(( (victim + 1 + RANDOM % (nodes - 1)) % nodes ))
      code=$(post "/api/v1/negotiations/${ids[$((n - 1))]}/messages" \
        "$(move "m3-$n" "buyer-$k-$n" 9500)" "$survivor")
      if [ "$code" = 200 ]; then
        done_at[$n]=$(now_ms)
        [ "$first_at" = 0 ] && first_at=${done_at[$n]}
      elif [ "$code" != 503 ]; then
        echo "kill $k: a survivor answered $code: $(cat "$work/answer")" >&2
        exit 1
      fi
    done
  done
  [ "${#done_at[@]}" = "$per_kill" ] ||
    { echo "kill $k: only ${#done_at[@]} of $per_kill resumed in 30 s" >&2; exit 1; }
  last_at=$(printf '%s\n' "${done_at[@]}" | sort -n | tail -1)
  first+=($(( first_at - start )))
  all+=($(( last_at - start )))
  unset done_at
  start_node "$victim"
  survivor=$(( (victim + 1) % nodes ))
  for n in $(seq 1 "$per_kill"); do
    curl -s --max-time 10 -o "$work/answer" \
      "http://127.0.0.1:${port[$survivor]}/api/v1/negotiations/${ids[$((n - 1))]}"
    got=$(jq -r '[.rounds[1:][].message_id] | join(",")' "$work/answer")
    expected="m2-$n,m3-$n"
    if [ "$got" != "$expected" ]; then
      echo "kill $k: negotiation ${ids[$((n - 1))]} rounds $got, expected $expected" >&2
      for m in m2-$n m3-$n; do
        c=$(tr ',' '\n' <<<"$got" | grep -cx "$m" || true)
        [ "$c" = 0 ] && lost=$((lost + 1))
        [ "$c" -gt 1 ] && duplicated=$((duplicated + c - 1))
      done
    fi
  done
  echo "kill $k of node-$victim: first 200 after ${first[-1]} ms, all $per_kill resumed after ${all[-1]} ms"
done

percentile() { # p, values...
  local p=$1
  shift
  printf '%s\n' "$@" | sort -n | awk -v p="$p" '{ v[NR] = $1 } END {
    i = int((p / 100) * NR + 0.999999); if (i < 1) i = 1; if (i > NR) i = NR; print v[i] }'
}
echo "failover: $kills kills of 1 of $nodes nodes (SIGKILL), $per_kill open negotiations each;" \
  "default lease"
echo "  kill -9 to the first 200 through a survivor: p50 $(percentile 50 "${first[@]}") ms," \
  "p99 $(percentile 99 "${first[@]}") ms"
echo "  kill -9 to all of them resumed:              p50 $(percentile 50 "${all[@]}") ms," \
  "p99 $(percentile 99 "${all[@]}") ms"
echo "  acknowledged moves lost: $lost; duplicated: $duplicated"
[ "$lost" = 0 ] && [ "$duplicated" = 0 ]
