#!/usr/bin/env bash
# Installs the Debian 12 packages Parley needs to build and test, if missing.
# With --browser, chromium and chromium-driver too (the dashboard's browser
# test), when they can be; without them that test is skipped with a warning.
# With --clang, also clang and its runtime libraries: the sanitizers' and
# libFuzzer (libclang-rt-14-dev ships libclang_rt.fuzzer; clang only
# recommends it), and lld, which links them quicker than GNU ld.
# scripts/test.sh asks for both; scripts/demo.sh for neither.
set -euo pipefail

packages=(
  g++ cmake ninja-build ccache dpkg-dev
  libcaf-dev nlohmann-json3-dev libcli11-dev catch2
  libcurl4-openssl-dev libcpp-httplib-dev libssl-dev libjemalloc-dev openssl
  libsqlite3-dev sqlite3 libpqxx-dev postgresql
  libboost-dev prometheus-cpp-dev wrk curl jq
)
browser=()
for flag in "$@"; do
  case "$flag" in
  --clang) packages+=(clang libclang-rt-14-dev lld) ;;
  --browser) browser=(chromium chromium-driver) ;;
  *)
    echo "usage: install-deps.sh [--clang] [--browser]" >&2
    exit 2
    ;;
  esac
done

is_installed() {
  dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"
}
missing=()
for p in "${packages[@]}"; do
  is_installed "$p" || missing+=("$p")
done
missing_browser=()
for p in "${browser[@]}"; do
  is_installed "$p" || missing_browser+=("$p")
done

if [ ${#missing[@]} -eq 0 ] && [ ${#missing_browser[@]} -eq 0 ]; then
  echo "parley: all build packages are installed"
  exit 0
fi

echo "parley: installing ${missing[*]} ${missing_browser[*]}"
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
  sudo_cmd=(sudo)
fi
"${sudo_cmd[@]}" apt-get update -qq
if [ ${#missing[@]} -gt 0 ]; then
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
if [ ${#missing_browser[@]} -gt 0 ] &&
  ! DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing_browser[@]}"; then
  echo "parley: chromium could not be installed: the dashboard's browser tests will be SKIPPED"
fi
