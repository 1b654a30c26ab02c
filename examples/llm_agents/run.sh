#!/bin/sh
# llm_agents: an LLM agent (Alice) and a rule agent (Bob) hear a conversation; a
# trigger starts a negotiation. With ANTHROPIC_API_KEY set it talks to the real
# provider (ANTHROPIC_BASE_URL, LLM_MODEL), otherwise to the fake provider.
# Usage: examples/llm_agents/run.sh BUILD_DIR   (e.g. build or /tmp/build-llm)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-build}
parley="$build/parley"
if [ -n "${ANTHROPIC_API_KEY:-}" ]; then
  exec "$parley" run "$here/scenario.json"
fi
out=$(mktemp)
"$build/tools/parley_fake_llm" --script "$here/fake_script.json" --port 0 >"$out" &
fake=$!
trap 'kill $fake 2>/dev/null; rm -f "$out"' EXIT
for _ in 1 2 3 4 5 6 7 8 9 10; do
  grep -q listening "$out" && break
  sleep 0.2
done
port=$(sed -n 's/listening on //p' "$out")
ANTHROPIC_BASE_URL="http://127.0.0.1:$port" "$parley" run "$here/scenario.json"
