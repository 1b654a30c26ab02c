#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz with clang, AddressSanitizer and
# UndefinedBehaviorSanitizer, and runs each for SECONDS (default 30), seeded
# from the examples, config/parley.json, the tests' inputs and
# tests/fuzz/http_corpus/. Fails on any crash, sanitizer report, leak or
# input slower than 10 s; prints each target's executions per second and
# total executions. See docs/fuzzing.md.
#
# Usage: scripts/fuzz.sh [SECONDS] [TARGET...]
# Environment: PARLEY_FUZZ_BUILD (build directory, default build-fuzz).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seconds="${1:-30}"
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(scenario_fuzz config_fuzz environment_fuzz llm_reply_fuzz http_fuzz)
fi
build="${PARLEY_FUZZ_BUILD:-$root/build-fuzz}"
if ! [[ "$seconds" =~ ^[1-9][0-9]*$ ]]; then
  echo "fuzz: SECONDS must be a positive integer, got \"$seconds\"" >&2
  exit 2
fi

if ! command -v clang++ >/dev/null; then
  echo "fuzz: clang++ not found (scripts/install-deps.sh --clang installs it)" >&2
  exit 1
fi

# A build directory configured before is used as it is (scripts/test.sh
# builds the fuzz targets with the tests); a new one gets the targets alone.
if [ -f "$build/CMakeCache.txt" ]; then
  if ! grep -q '^PARLEY_FUZZ:BOOL=ON' "$build/CMakeCache.txt"; then
    echo "fuzz: $build is not configured with -DPARLEY_FUZZ=ON" >&2
    exit 1
  fi
else
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_CXX_COMPILER=clang++ \
    -DCMAKE_BUILD_TYPE=Debug \
    -DCMAKE_CXX_FLAGS_DEBUG="-g -O1" -DPARLEY_FUZZ=ON -DPARLEY_SANITIZE=ON \
    -DPARLEY_BUILD_TESTS=OFF -DPARLEY_BUILD_EXAMPLES=OFF >/dev/null
fi
cmake --build "$build" --target "${targets[@]}"

# Writes every raw string literal R"(...)" of the given sources to its own
# file in directory $1: the JSON the tests feed the parsers.
raw_strings() {
  local dir="$1"
  shift
  perl -0777 -ne '
    my $n = 0;
    while (/R"\((.*?)\)"/sg) {
      my $name = $ARGV =~ s{.*/}{}r;
      open(my $out, ">", "'"$dir"'/$name-" . ++$n) or die;
      print $out $1;
    }' "$@"
}

# Fills the corpus of target $1 (kept between runs in the build directory;
# the seeds are copied afresh every time).
seed() {
  local dir="$build/fuzz/corpus/$1"
  mkdir -p "$dir"
  case "$1" in
  scenario_fuzz)
    cp "$root"/examples/scenarios/*.json "$root/examples/llm_agents/scenario.json" "$dir/"
    raw_strings "$dir" "$root"/tests/unit/cli/*_test.cpp "$root"/tests/integration/*_test.cpp
    ;;
  config_fuzz)
    cp "$root/config/parley.json" "$dir/"
    raw_strings "$dir" "$root"/tests/unit/config/*_test.cpp
    ;;
  environment_fuzz)
    cp "$root/config/parley.json" "$dir/"
    ;;
  http_fuzz)
    # Real requests: every route with a valid body, event streams resuming
    # with Last-Event-ID, a chunked body, bytes that are not UTF-8.
    cp "$root"/tests/fuzz/http_corpus/* "$dir/"
    ;;
  llm_reply_fuzz)
    cp "$root/examples/llm_agents/fake_script.json" "$dir/"
    raw_strings "$dir" "$root"/tests/unit/actors/llm/*_test.cpp
    # Each scripted answer of the fake provider is a Messages API body.
    perl -0777 -ne '
      my $n = 0;
      while (/(\{"match".*?"stop_reason": "\w+"\})/sg) {
        open(my $out, ">", "'"$dir"'/fake_script-" . ++$n) or die;
        print $out $1;
      }' "$root/examples/llm_agents/fake_script.json"
    ;;
  esac
  echo "$dir"
}

failed=()
for target in "${targets[@]}"; do
  corpus="$(seed "$target")"
  artifacts="$build/fuzz/artifacts/$target/"
  log="$build/fuzz/$target.log"
  mkdir -p "$artifacts"
  echo "fuzz: $target for ${seconds}s (corpus $corpus)"
  dict="$root/tests/fuzz/json.dict"
  if [ "$target" = http_fuzz ]; then
    dict="$root/tests/fuzz/http.dict"
  fi
  status=0
  "$build/tests/fuzz/$target" "$corpus" -max_total_time="$seconds" -timeout=10 \
    -rss_limit_mb=2048 -dict="$dict" -print_final_stats=1 \
    -artifact_prefix="$artifacts" \
    >"$log" 2>&1 || status=$?
  runs="$(awk '/stat::number_of_executed_units/ {print $2}' "$log")"
  rate="$(awk '/stat::average_exec_per_sec/ {print $2}' "$log")"
  echo "fuzz: $target: ${runs:-0} executions, ${rate:-0} exec/s, exit $status"
  if [ "$status" -ne 0 ]; then
    grep -E "^(==[0-9]+==ERROR|SUMMARY|.*runtime error|terminate called|  what\(\))" "$log" |
      head -n 20 || true
    echo "fuzz: $target FAILED; the input is in $artifacts, the log in $log" >&2
    echo "fuzz: reproduce with: $build/tests/fuzz/$target $artifacts<file>" >&2
    failed+=("$target")
  fi
done

if [ ${#failed[@]} -ne 0 ]; then
  echo "fuzz: FAILED: ${failed[*]}" >&2
  exit 1
fi
echo "fuzz: all ${#targets[@]} targets ran ${seconds}s each without a finding"
