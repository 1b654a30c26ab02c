#!/usr/bin/env bash
# Installs what is missing, builds Parley and its tests with AddressSanitizer
# and UndefinedBehaviorSanitizer, runs the whole suite with ctest, checks the
# install and the .deb (scripts/check-install.sh) and the cluster's demo
# (scripts/cluster-demo.sh), then runs every fuzz target
# for PARLEY_FUZZ_SECONDS (default 30; 0 skips) each (scripts/fuzz.sh).
#
# The tests build with clang when it can be installed: with the sanitizers it
# compiles Parley in about 60 % of g++'s time (11 against 19 minutes on a
# 2-core machine), and the same build holds the fuzz targets (only the
# parsers they run are instrumented for libFuzzer), which keeps CI within its
# budget. g++ builds the tests otherwise, and fuzzing (clang only) is skipped.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# First, in seconds: every citation points inside the repository.
"$root/scripts/check-citations.sh"
if "$root/scripts/install-deps.sh" --clang --browser; then
  cxx=clang++
  fuzz=ON
else
  "$root/scripts/install-deps.sh" --browser
  echo "parley: clang could not be installed: the tests build with g++, fuzzing is SKIPPED"
  cxx=g++
  fuzz=OFF
fi
# A build directory made with another compiler starts afresh: CMake's own
# re-run after a compiler change would drop the options below.
cache="$root/build-test/CMakeCache.txt"
if [ -f "$cache" ] && ! grep -q "^CMAKE_CXX_COMPILER:[A-Z]*=\(.*/\)\?$cxx\$" "$cache"; then
  rm -rf "$cache" "$root/build-test/CMakeFiles"
fi
# Debug information is line tables only (-g1): what the sanitizers' reports
# need (function, file and line of every frame), in about 10 % less compile
# time than -g's full information. Configure a build of your own for gdb.
cmake -S "$root" -B "$root/build-test" -G Ninja -DCMAKE_BUILD_TYPE=Debug \
  -DCMAKE_CXX_FLAGS_DEBUG=-g1 \
  -DPARLEY_BUILD_TESTS=ON -DPARLEY_SANITIZE=ON -DCMAKE_CXX_COMPILER="$cxx" \
  -DPARLEY_FUZZ="$fuzz"
cmake --build "$root/build-test"
(cd "$root/build-test" && ctest --output-on-failure --no-tests=error -j "$(nproc)" "$@")
# Parley as a library: installed into a temporary prefix, examples/custom_brain
# built against it and run, and the .deb listed, extracted and run.
"$root/scripts/check-install.sh" "$root/build-test"
# The cluster's demo (three TLS nodes over a throwaway PostgreSQL, one
# killed) runs to its end with the test build (lsan.supp: see there).
LSAN_OPTIONS="suppressions=$root/tests/lsan.supp" PARLEY="$root/build-test/parley" \
  "$root/scripts/cluster-demo.sh"

fuzz_seconds="${PARLEY_FUZZ_SECONDS:-30}"
if [ "$fuzz_seconds" = 0 ]; then
  echo "parley: SKIPPED fuzzing: PARLEY_FUZZ_SECONDS=0"
elif [ "$fuzz" = OFF ]; then
  echo "parley: SKIPPED fuzzing: clang and libclang-rt-14-dev could not be installed"
else
  PARLEY_FUZZ_BUILD="$root/build-test" "$root/scripts/fuzz.sh" "$fuzz_seconds"
fi
