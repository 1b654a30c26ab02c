#!/usr/bin/env bash
# Crash recovery's memory (issue 35, BENCHMARKS.md): how much resident
# memory `parley serve` takes to resume a store of many open negotiations.
# STORE_FILE is made first if it does not exist: two external agents, N
# rooms of the two and one open negotiation in each (a proposal awaiting
# the responder, with deadlines a day away), written with sqlite3 as a
# serve killed with them open would have left them. Each run recovers a
# copy of it (a recovery writes to its store), then prints how long serve
# took to report ready, its peak resident memory (VmHWM) and its resident
# memory once ready.
# Usage: scripts/recovery-bench.sh PARLEY_BINARY STORE_FILE [N]
set -euo pipefail

binary=${1:?usage: scripts/recovery-bench.sh PARLEY_BINARY STORE_FILE [N]}
store=${2:?usage: scripts/recovery-bench.sh PARLEY_BINARY STORE_FILE [N]}
n=${3:-100000}

if [ ! -e "$store" ]; then
  "$binary" db migrate --store "$store" >/dev/null
  sqlite3 "$store" <<SQL
BEGIN;
INSERT INTO parley_agents (id, spec) VALUES
  ('x', json_object('id', 'x', 'brain', json_object('kind', 'external'))),
  ('y', json_object('id', 'y', 'brain', json_object('kind', 'external')));
CREATE TEMP TABLE n AS WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < $n)
  SELECT i, printf('00000000-0000-4000-8000-%012d', i) AS id,
         strftime('%Y-%m-%dT%H:%M:%fZ', 'now') AS at,
         strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '+1 day') AS due FROM k;
INSERT INTO parley_rooms (id, members) SELECT 'room-' || i, json_array('x', 'y') FROM n;
INSERT INTO negotiations (id, intent_id, initiator_did, responder_did, state, rounds,
                          convergence_score, current_proposal, max_rounds, created_at,
                          expires_at, updated_at)
  SELECT id, printf('10000000-0000-4000-8000-%012d', i), 'x', 'y', 'initiated',
         json_array(json_object('round', 1, 'proposal',
                                json_object('amount', 10000 + i, 'currency', 'GBP'),
                                'timestamp', at, 'from', 'x', 'action', 'propose',
                                'message_id', 'open-' || i)),
         0, json_object('amount', 10000 + i, 'currency', 'GBP'), 5, at, due, at
  FROM n;
INSERT INTO negotiation_runtime (negotiation_id, room_id, round_timeout_ms, total_timeout_ms)
  SELECT id, 'room-' || i, 86400000, 86400000 FROM n;
COMMIT;
SQL
fi

work=$(mktemp -d)
log="$work/serve.log"
cp "$store" "$work/store.db"
"$binary" serve --port 0 --store "$work/store.db" >"$log" 2>&1 &
serve_pid=$!
trap 'kill -TERM $serve_pid 2>/dev/null || true; rm -rf "$work"' EXIT
start=$(date +%s.%N)
for _ in $(seq 1 6000); do
  grep -q "parley serve: ready" "$log" && break
  kill -0 "$serve_pid" 2>/dev/null || { cat "$log"; exit 1; }
  sleep 0.05
done
ready=$(date +%s.%N)
grep -q "parley serve: ready" "$log" || { cat "$log"; exit 1; }
status() { awk -v k="$1:" '$1 == k {print $2}' "/proc/$serve_pid/status"; }
grep "recovered" "$log"
echo "recovery: store $(($(stat -c %s "$store") / 1048576)) MiB; ready after" \
  "$(awk -v a="$start" -v b="$ready" 'BEGIN { printf "%.1f", b - a }') s;" \
  "serve peak RSS $(status VmHWM) KiB, RSS when ready $(status VmRSS) KiB"
kill -TERM "$serve_pid"
wait "$serve_pid" || true
