#!/usr/bin/env bash
# Installs what is missing, builds Parley and its tests with AddressSanitizer
# and UndefinedBehaviorSanitizer, and runs the whole suite with ctest.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/install-deps.sh"
cmake -S "$root" -B "$root/build-test" -G Ninja -DCMAKE_BUILD_TYPE=Debug \
  -DPARLEY_BUILD_TESTS=ON -DPARLEY_SANITIZE=ON
cmake --build "$root/build-test"
cd "$root/build-test"
ctest --output-on-failure --no-tests=error -j "$(nproc)" "$@"
