# Sourced by the cluster benchmarks (failover-bench.sh, cluster-api-bench.sh):
# a temporary directory $work, and in it a throwaway PostgreSQL (initdb,
# trust authentication for the user parley, 127.0.0.1 only) on port $pg_port,
# run by nobody when this is root (PostgreSQL refuses root). Every process
# whose pid is added to the array pids is killed, the server stopped and
# $work removed when the script exits. Needs $pg_bin (the server's binaries).

work=$(mktemp -d)
as_owner=()
if [ "$(id -u)" = 0 ]; then
  chown nobody "$work"
  as_owner=(runuser -u nobody --)
fi
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill -KILL "$pid" 2>/dev/null || true; done
  "${as_owner[@]}" "$pg_bin/pg_ctl" -D "$work/pg" -m immediate -w stop >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

pg_port=$(( 20000 + RANDOM % 20000 ))
"${as_owner[@]}" "$pg_bin/initdb" -D "$work/pg" -U parley -A trust -E UTF8 --no-sync \
  --no-instructions >/dev/null
"${as_owner[@]}" "$pg_bin/pg_ctl" -D "$work/pg" -l "$work/pg.log" -w -t 30 \
  -o "-p $pg_port -k $work -c listen_addresses=127.0.0.1" start >/dev/null
