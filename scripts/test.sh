#!/usr/bin/env bash
# Installs what is missing, builds Parley and its tests with AddressSanitizer
# and UndefinedBehaviorSanitizer, runs the whole suite with ctest, then runs
# every fuzz target for PARLEY_FUZZ_SECONDS (default 30; 0 skips) each
# (scripts/fuzz.sh).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/install-deps.sh"
cmake -S "$root" -B "$root/build-test" -G Ninja -DCMAKE_BUILD_TYPE=Debug \
  -DPARLEY_BUILD_TESTS=ON -DPARLEY_SANITIZE=ON
cmake --build "$root/build-test"
(cd "$root/build-test" && ctest --output-on-failure --no-tests=error -j "$(nproc)" "$@")

fuzz_seconds="${PARLEY_FUZZ_SECONDS:-30}"
if [ "$fuzz_seconds" = 0 ]; then
  echo "parley: SKIPPED fuzzing: PARLEY_FUZZ_SECONDS=0"
elif "$root/scripts/install-deps.sh" --fuzz; then
  "$root/scripts/fuzz.sh" "$fuzz_seconds"
else
  echo "parley: SKIPPED fuzzing: clang and libclang-rt-14-dev could not be installed"
fi
