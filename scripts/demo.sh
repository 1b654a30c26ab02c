#!/usr/bin/env bash
# Installs what is missing, builds Parley (Release) and runs `parley demo`.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/install-deps.sh"
cmake -S "$root" -B "$root/build" -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build "$root/build" --target parley
"$root/build/parley" demo "$@"
