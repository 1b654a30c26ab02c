#!/usr/bin/env bash
# A three-node Parley cluster on this machine (issue 37; docs/cluster.md).
#
# Starts a throwaway PostgreSQL (initdb in a temporary directory, loopback
# only, a free port) and three `parley serve --cluster demo` nodes over it,
# each with its own certificate from scripts/make-certs.sh (mutual TLS
# between the nodes' CAF ports) and a bearer token for the API. Then:
#
#   1. opens two negotiations through each node (each between two external
#      agents registered through that node, which runs them: the nodes run
#      with --placement local, so that the demo knows which node runs what;
#      docs/cluster.md, "Placement");
#   2. sends each negotiation's first counter through another node, which
#      forwards it over CAF to the owner;
#   3. kills one node with SIGKILL while its negotiations are open, and
#      shows `parley cluster status`: the dead incarnation, the survivor that
#      took it over, and how long that took;
#   4. finishes all six negotiations through the survivors, the killed
#      node's first: a counter through the survivor that does not run it
#      (forwarded), then an accept through the one that does; a move
#      answered 503 E030 is sent again after its Retry-After, with the same
#      message id (at most 20 times and 30 s);
#   5. prints each negotiation's final status and rounds, checks them, and
#      stops the survivors with SIGTERM (they leave the cluster).
#
# Exits 0 when every negotiation ended as expected, 1 otherwise (the reason
# is printed), 2 on bad usage. Everything it started (nodes, PostgreSQL,
# temporary files) is stopped and removed on the way out, also on error or
# Ctrl-C.
#
# Like scripts/demo.sh it first installs what is missing
# (scripts/install-deps.sh) and builds the `parley` target (Release, into
# build/); with PARLEY=/path/to/parley it uses that binary and does neither.
set -euo pipefail

usage() {
  cat <<'EOF'
usage: scripts/cluster-demo.sh [--help]

Starts a throwaway PostgreSQL and three `parley serve --cluster` nodes on
127.0.0.1 (mutual TLS between them, certificates from scripts/make-certs.sh),
runs six negotiations through them, kills one node with SIGKILL, shows a
survivor taking over its negotiations and finishes them all through the
survivors. Exits 0 when every negotiation ended as expected.

Environment:
  PARLEY=/path/to/parley   use this binary; skip install-deps.sh and the build
  PARLEY_PG_BIN=DIR        PostgreSQL's initdb and pg_ctl (default
                           /usr/lib/postgresql/15/bin, else the newest
                           /usr/lib/postgresql/*/bin)
EOF
}
case "${1:-}" in
  -h | --help) usage; exit 0 ;;
  "") ;;
  *) usage >&2; exit 2 ;;
esac

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [ -n "${PARLEY:-}" ]; then
  binary=$(realpath "$PARLEY")
  [ -x "$binary" ] || { echo "cluster-demo: PARLEY=$PARLEY is not an executable" >&2; exit 2; }
else
  "$root/scripts/install-deps.sh"
  cmake -S "$root" -B "$root/build" -G Ninja -DCMAKE_BUILD_TYPE=Release
  cmake --build "$root/build" --target parley
  binary="$root/build/parley"
fi
# Debian 12's PostgreSQL 15, else the newest installed.
pg_bin=${PARLEY_PG_BIN:-/usr/lib/postgresql/15/bin}
if [ -z "${PARLEY_PG_BIN:-}" ] && [ ! -x "$pg_bin/initdb" ]; then
  pg_bin=$(find /usr/lib/postgresql -maxdepth 2 -name bin 2>/dev/null | sort -V | tail -1)
  pg_bin=${pg_bin:-/usr/lib/postgresql/15/bin}
fi
for tool in "$pg_bin/initdb" "$pg_bin/pg_ctl" curl jq openssl; do
  command -v "$tool" >/dev/null ||
    { echo "cluster-demo: $tool is missing (scripts/install-deps.sh installs it)" >&2; exit 2; }
done

t0=$(date +%s%N)
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
# Seconds since $1 (ms), one decimal.
since() { local d=$(( $(now_ms) - $1 )); printf '%d.%d' $(( d / 1000 )) $(( d % 1000 / 100 )); }
say() { # the narrative: seconds since the start, then the line
  local d=$(( ($(date +%s%N) - t0) / 1000000 ))
  printf '[%3d.%d s] %s\n' $(( d / 1000 )) $(( d % 1000 / 100 )) "$*"
}
fail() { echo "cluster-demo: FAILED: $*" >&2; exit 1; }

work=$(mktemp -d -t parley-cluster-demo.XXXXXX)
as_owner=()
if [ "$(id -u)" = 0 ]; then
  # PostgreSQL refuses to run as root.
  chown nobody "$work"
  as_owner=(runuser -u nobody --)
fi
declare -a pid=() api=() node_addr=() incarnation=()
pg_started=0
cleanup() {
  local status=$?
  trap - EXIT INT TERM
  for i in "${!pid[@]}"; do kill -KILL "${pid[$i]}" 2>/dev/null || true; done
  if [ "$pg_started" = 1 ]; then
    "${as_owner[@]}" "$pg_bin/pg_ctl" -D "$work/pg" -m immediate -w -t 10 stop \
      >/dev/null 2>&1 || true
  fi
  if [ "$status" != 0 ] && [ -d "$work" ]; then
    for log in "$work"/node-*.log; do
      [ -f "$log" ] || continue
      echo "--- the last lines of $(basename "$log"):" >&2
      tail -n 15 "$log" >&2
    done
  fi
  rm -rf "$work"
  exit "$status"
}
trap cleanup EXIT
interrupted() {
  echo "cluster-demo: interrupted" >&2
  exit 130
}
trap interrupted INT TERM

# A port nothing listens on now (bash's /dev/tcp connects or fails at once).
free_port() {
  local p
  for _ in $(seq 1 50); do
    p=$(( 20000 + RANDOM % 20000 ))
    (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null || { echo "$p"; return; }
  done
  fail "no free port found"
}

# --- PostgreSQL --------------------------------------------------------------
say "starting a throwaway PostgreSQL in $work/pg"
"${as_owner[@]}" "$pg_bin/initdb" -D "$work/pg" -U parley -A trust -E UTF8 --no-sync \
  --no-instructions >/dev/null
for attempt in 1 2 3; do
  pg_port=$(free_port)
  pg_started=1
  if "${as_owner[@]}" "$pg_bin/pg_ctl" -D "$work/pg" -l "$work/pg.log" -w -t 30 \
    -o "-p $pg_port -k $work -c listen_addresses=127.0.0.1" start >/dev/null; then
    break
  fi
  pg_started=0
  [ "$attempt" = 3 ] && { cat "$work/pg.log" >&2; fail "PostgreSQL did not start"; }
done
store="postgresql://parley@127.0.0.1:$pg_port/postgres"
"$binary" db migrate --store "$store" >/dev/null
say "PostgreSQL listens on 127.0.0.1:$pg_port; schema migrated ($store)"

# --- certificates and token --------------------------------------------------
"$root/scripts/make-certs.sh" --days 1 "$work/certs" node-1 node-2 node-3
head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$work/token"
chmod 0600 "$work/token"
token=$(cat "$work/token")
say "made a CA and a certificate for node-1, node-2 and node-3 (scripts/make-certs.sh), and an API token"

# --- the nodes ---------------------------------------------------------------
# Starts node $1 (1..3) and waits, at most 30 s, until it is ready; sets
# api[$1] (host:port of its HTTP API) and node_addr[$1] (its CAF node port).
start_node() {
  local i=$1 log="$work/node-$1.log"
  "$binary" serve --port 0 --store "$store" --token-file "$work/token" \
    --cluster demo --node-id "node-$i" --node-port 0 --placement local \
    --tls-ca "$work/certs/ca.pem" --tls-cert "$work/certs/node-$i.pem" \
    --tls-key "$work/certs/node-$i.key" >"$log" 2>&1 &
  pid[i]=$!
  disown "${pid[$i]}" # no word from the shell when it is killed
}
wait_ready() {
  local i=$1 log="$work/node-$1.log"
  for _ in $(seq 1 600); do
    grep -q "parley serve: ready" "$log" && break
    kill -0 "${pid[$i]}" 2>/dev/null || fail "node-$i exited at its start"
    sleep 0.05
  done
  grep -q "parley serve: ready" "$log" || fail "node-$i was not ready in 30 s"
  api[i]=$(sed -n 's/^parley serve listening on \([^ ]*\) .*/\1/p' "$log" | tail -1)
  node_addr[i]=$(sed -n 's/^parley serve: node port \([^ ]*\) .*/\1/p' "$log" | tail -1)
  incarnation[i]=$(sed -n 's/^parley serve: joined cluster .*, incarnation \([0-9]*\)$/\1/p' \
    "$log" | tail -1)
}
say "starting node-1, node-2 and node-3: parley serve --cluster demo --node-port 0 --tls-ca/--tls-cert/--tls-key --token-file"
for i in 1 2 3; do start_node "$i"; done
for i in 1 2 3; do
  wait_ready "$i"
  say "node-$i ready: API on ${api[$i]}, CAF node port ${node_addr[$i]} (mutual TLS), incarnation ${incarnation[$i]}"
done

members() { "$binary" cluster status --store "$store" --cluster demo --json; }
# Waits, at most 10 s, until the store reads every node live.
deadline=$(( $(now_ms) + 10000 ))
until [ "$(members | jq '[.members[] | select(.status == "live")] | length')" = 3 ]; do
  [ "$(now_ms)" -lt "$deadline" ] || fail "the three nodes did not all read live in 10 s"
  sleep 0.1
done
say "all three are live members (parley cluster status):"
"$binary" cluster status --store "$store" --cluster demo | sed 's/^/    /'

# --- the API -----------------------------------------------------------------
# Sends method $1 to path $2 of node $3 with JSON body $4 (may be empty);
# leaves the answer's body in $work/body, its headers in $work/headers, and
# prints the HTTP status (000: no answer).
call() {
  local data=()
  [ -n "${4:-}" ] && data=(-H 'Content-Type: application/json' -d "$4")
  curl -s -o "$work/body" -D "$work/headers" -w '%{http_code}' --max-time 10 \
    -X "$1" -H "Authorization: Bearer $token" "${data[@]}" "http://${api[$3]}$2" || true
}
body() { cat "$work/body"; }

# Sends move $2 (JSON) of negotiation $1 through node $3; while the answer is
# 503 E030, waits its Retry-After and sends it again (the same message id:
# moves are idempotent), at most 20 times and 30 s. Leaves the negotiation's
# record in $work/record (from a 200 E011 too: a retried move that the first
# try had applied) and sets note to what the retries were; fails on any other
# answer. (With mutual TLS, CAF 0.17.6 now and then drops the link between
# two live nodes that connected both ways; the forwarding node sends the move
# again itself, up to three times, but a move can still be answered 503 E030
# "cannot be reached" though the owner applied it: its retry is then
# answered 200 E011. The output shows each such retry; docs/cluster.md,
# "Any node answers".)
move() {
  local id=$1 json=$2 via=$3 code wait start tries=0 first_503=""
  start=$(now_ms)
  note=""
  while :; do
    tries=$(( tries + 1 ))
    code=$(call POST "/api/v1/negotiations/$id/messages" "$via" "$json")
    if [ "$code" = 200 ]; then
      jq 'if .error_code == "E011" then .details.result else . end' "$work/body" >"$work/record"
      if [ "$tries" -gt 1 ]; then
        note="; $(( tries - 1 )) answer(s) 503 E030 first, the first: \"$first_503\""
        [ "$(jq -r '.error_code // empty' "$work/body")" = E011 ] &&
          note="$note; the retry was answered 200 E011: the first try had been applied"
      fi
      return 0
    fi
    if [ "$code" = 503 ] && [ "$(jq -r .error_code "$work/body" 2>/dev/null)" = E030 ]; then
      [ -z "$first_503" ] && first_503=$(jq -r .message "$work/body")
      wait=$(sed -n 's/^[Rr]etry-[Aa]fter: *\([0-9]*\).*/\1/p' "$work/headers" | tr -d '\r')
      if [ "$tries" -ge 20 ] || [ $(( $(now_ms) - start )) -ge 30000 ]; then
        fail "negotiation $id: still 503 E030 through node-$via after $tries tries: $(body)"
      fi
      sleep "${wait:-1}"
      continue
    fi
    fail "negotiation $id: node-$via answered $code: $(body)"
  done
}
counter() { # message id, from, amount
  printf '{"message_id":"%s","from":"%s","action":"counter","proposal":{"amount":%d,"currency":"GBP"}}' "$1" "$2" "$3"
}
accept() { # message id, from
  printf '{"message_id":"%s","from":"%s","action":"accept"}' "$1" "$2"
}
state() { jq -r '"\(.status), round \(.rounds | length)"' "$work/record"; }
pounds() { printf '£%d.%02d' $(( $1 / 100 )) $(( $1 % 100 )); }

# --- six negotiations, two through each node ---------------------------------
declare -a neg_id=() neg_owner=() neg_buyer=() neg_seller=() neg_what=()
items=("logo design" "website copy" "product photos" "brand guide" "icon set" "launch video")
amounts=(100000 80000 120000 150000 60000 200000)
n=0
for i in 1 2 3; do
  for k in a b; do
    buyer="did:key:z6Mk-buyer-$i$k" seller="did:key:z6Mk-seller-$i$k"
    for agent in "$buyer" "$seller"; do
      code=$(call POST /api/v1/agents "$i" "{\"id\":\"$agent\",\"brain\":{\"kind\":\"external\"}}")
      [ "$code" = 201 ] || fail "node-$i: registering $agent: $code $(body)"
    done
    code=$(call POST /api/v1/negotiations "$i" \
      "{\"initiator\":\"$buyer\",\"responder\":\"$seller\",\"proposal\":{\"amount\":${amounts[$n]},\"currency\":\"GBP\",\"description\":\"${items[$n]}\"}}")
    [ "$code" = 201 ] || fail "node-$i: opening a negotiation: $code $(body)"
    neg_id[n]=$(jq -r .id "$work/body")
    neg_owner[n]=$i neg_buyer[n]=$buyer neg_seller[n]=$seller neg_what[n]=${items[$n]}
    say "opened ${neg_id[$n]} through node-$i (node-$i runs it): $buyer offers $(pounds "${amounts[$n]}") for ${items[$n]}"
    n=$(( n + 1 ))
  done
done

# Each seller counters at 90 % through the next node, which forwards it.
for n in "${!neg_id[@]}"; do
  via=$(( neg_owner[n] % 3 + 1 ))
  start=$(now_ms)
  move "${neg_id[$n]}" "$(counter "seller-$n-1" "${neg_seller[$n]}" $(( amounts[n] * 9 / 10 )))" "$via"
  say "counter of ${neg_id[$n]} sent to node-$via, forwarded to node-${neg_owner[$n]}: $(state) ($(( $(now_ms) - start )) ms$note)"
done

# --- kill one node -----------------------------------------------------------
victim=2
victims=() others=() victim_ids=()
for n in "${!neg_id[@]}"; do
  if [ "${neg_owner[$n]}" = "$victim" ]; then
    victims+=("$n")
    victim_ids+=("${neg_id[$n]}")
  else
    others+=("$n")
  fi
done
say "kill -9 node-$victim (pid ${pid[$victim]}) while it runs ${#victims[@]} open negotiations:" \
  "${victim_ids[*]}"
kill -KILL "${pid[$victim]}"
killed_at=$(now_ms)
unset "pid[$victim]"
# Waits, at most 15 s, until a survivor took the victim's incarnation over.
taker=0
deadline=$(( killed_at + 15000 ))
while [ "$(now_ms)" -lt "$deadline" ]; do
  taker=$(members | jq --argjson inc "${incarnation[$victim]}" \
    '[.members[] | select(.incarnation == $inc) | .taken_over_by][0] // 0')
  [ "$taker" != 0 ] && break
  sleep 0.05
done
[ "$taker" != 0 ] || fail "no survivor took node-$victim over in 15 s"
taken_in=$(( $(now_ms) - killed_at ))
heir=0
for i in 1 3; do [ "${incarnation[$i]}" = "$taker" ] && heir=$i; done
[ "$heir" != 0 ] || fail "node-$victim was taken over by incarnation $taker, not a survivor"
say "node-$heir (incarnation $taker) took over node-$victim (incarnation ${incarnation[$victim]})" \
  "$taken_in ms after the kill (parley cluster status; --json gives taken_over_by $taker):"
"$binary" cluster status --store "$store" --cluster demo | sed 's/^/    /'
for _ in $(seq 1 100); do
  grep -q "parley serve: took over" "$work/node-$heir.log" && break
  sleep 0.05
done
grep -h "parley serve: took over" "$work/node-$heir.log" | sed 's/^/    node-'"$heir"' logged: /'
for n in "${victims[@]}"; do neg_owner[n]=$heir; done

# --- finish all six through the survivors ------------------------------------
other() { # the survivor that is not $1
  if [ "$1" = 1 ]; then echo 3; else echo 1; fi
}
# The buyer counters at 95 % through the survivor that does not run it, then
# the seller accepts through the one that does: node-$victim's first.
for n in "${victims[@]}" "${others[@]}"; do
  via=$(other "${neg_owner[$n]}")
  start=$(now_ms)
  move "${neg_id[$n]}" "$(counter "buyer-$n-2" "${neg_buyer[$n]}" $(( amounts[n] * 95 / 100 )))" "$via"
  whose=""
  [ "$n" = "${victims[0]}" ] && whose=" (node-$victim's; answered $(since "$killed_at") s after the kill)"
  [ "$n" = "${victims[1]}" ] && whose=" (node-$victim's)"
  say "counter of ${neg_id[$n]}$whose sent to node-$via, forwarded to node-${neg_owner[$n]}: $(state) ($(( $(now_ms) - start )) ms$note)"
  start=$(now_ms)
  move "${neg_id[$n]}" "$(accept "seller-$n-3" "${neg_seller[$n]}")" "${neg_owner[$n]}"
  say "accept of ${neg_id[$n]} sent to node-${neg_owner[$n]}, which runs it: $(state) ($(( $(now_ms) - start )) ms$note)"
done

# --- the outcome -------------------------------------------------------------
say "every negotiation as the store holds it (read through node-1):"
bad=0
for n in "${!neg_id[@]}"; do
  code=$(call GET "/api/v1/negotiations/${neg_id[$n]}" 1)
  [ "$code" = 200 ] || fail "reading ${neg_id[$n]}: $code $(body)"
  status=$(jq -r .status "$work/body")
  got=$(jq -r '[.rounds[] | .message_id // "-"] | .[1:] | join(",")' "$work/body")
  final=$(jq -r '.final_proposal.amount // 0' "$work/body")
  expected_final=$(( amounts[n] * 95 / 100 ))
  printf '    %s  %-15s opened on node-%s  %-8s %s, %d rounds: %s\n' "${neg_id[$n]}" \
    "${neg_what[$n]}" "$(( n / 2 + 1 ))" "$status" "$(pounds "$final")" \
    "$(jq '.rounds | length' "$work/body")" \
    "$(jq -r '[.rounds[] | "\(.action)\(if .proposal.amount then " " + (.proposal.amount / 100 | tostring) else "" end)"] | join(" > ")' "$work/body")"
  if [ "$status" != accepted ] || [ "$final" != "$expected_final" ] ||
    [ "$got" != "seller-$n-1,buyer-$n-2,seller-$n-3" ]; then
    echo "    ^ expected accepted at $(pounds "$expected_final") with moves seller-$n-1,buyer-$n-2,seller-$n-3; got $status, $final, $got" >&2
    bad=$(( bad + 1 ))
  fi
done
[ "$bad" = 0 ] || fail "$bad of ${#neg_id[@]} negotiations did not end as expected"

# --- stop the survivors ------------------------------------------------------
for i in 1 3; do kill -TERM "${pid[$i]}"; done
for i in 1 3; do
  for _ in $(seq 1 100); do kill -0 "${pid[$i]}" 2>/dev/null || break; sleep 0.1; done
  kill -0 "${pid[$i]}" 2>/dev/null && fail "node-$i did not stop within 10 s of SIGTERM"
  unset "pid[$i]"
  grep -q "^parley serve: stopped" "$work/node-$i.log" || fail "node-$i did not stop cleanly"
done
say "node-1 and node-3 stopped on SIGTERM and left the cluster:"
"$binary" cluster status --store "$store" --cluster demo | sed 's/^/    /'
say "done: ${#neg_id[@]} negotiations through 3 nodes, node-$victim killed with ${#victims[@]} open," \
  "finished on node-$heir; all accepted as expected"
