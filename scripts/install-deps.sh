#!/usr/bin/env bash
# Installs the Debian 12 packages Parley needs to build and test, if missing.
# With --clang, also clang and its runtime libraries: the sanitizers' and
# libFuzzer (libclang-rt-14-dev ships libclang_rt.fuzzer; clang only
# recommends it). scripts/test.sh builds the tests and the fuzz targets with
# them.
set -euo pipefail

packages=(
  g++ cmake ninja-build ccache
  libcaf-dev nlohmann-json3-dev libcli11-dev catch2
  libcurl4-openssl-dev libcpp-httplib-dev libssl-dev libjemalloc-dev openssl
  libsqlite3-dev sqlite3 libpqxx-dev postgresql
  libboost-dev prometheus-cpp-dev wrk curl jq
)
if [ "${1:-}" = "--clang" ]; then
  packages+=(clang libclang-rt-14-dev)
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "parley: all build packages are installed"
  exit 0
fi

echo "parley: installing ${missing[*]}"
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
  sudo_cmd=(sudo)
fi
"${sudo_cmd[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
