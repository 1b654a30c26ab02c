#!/usr/bin/env bash
# Checks that a built Parley installs and packs for other projects
# (README, "Use Parley as a library"):
# 1. installs BUILD_DIR into a temporary prefix (`cmake --install`); every
#    header there includes only headers installed beside it or the system's;
# 2. builds examples/custom_brain, copied out of the repository, against that
#    prefix only (CMAKE_PREFIX_PATH, with the compiler BUILD_DIR was built
#    with): it must find Parley there, and no compile or link command may name
#    the repository or BUILD_DIR; runs it, which must end with an outcome;
# 3. packs BUILD_DIR as a .deb (`cpack -G DEB`), lists it (`dpkg-deb
#    --contents`: the executable, headers, libraries and CMake package, and a
#    Depends field), extracts it and runs the extracted `parley --version` and
#    `parley demo`. Skipped with a message when dpkg-deb is missing.
# Usage: scripts/check-install.sh BUILD_DIR   (a built tree: build-test, build)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [ $# -ne 1 ] || [ ! -f "$1/CMakeCache.txt" ]; then
  echo "usage: check-install.sh BUILD_DIR (a configured and built Parley)" >&2
  exit 2
fi
build="$(cd "$1" && pwd)"
tmp="$(mktemp -d "${TMPDIR:-/tmp}/parley-install.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT

fail() {
  echo "check-install: FAILED: $*" >&2
  exit 1
}

# 1. The install.
prefix="$tmp/prefix"
cmake --install "$build" --prefix "$prefix" >"$tmp/install.log"
cmake_dir="$(dirname "$(find "$prefix" -name ParleyConfig.cmake -print -quit)")"
[ -f "$cmake_dir/ParleyConfigVersion.cmake" ] || fail "no CMake package in $prefix"
version="$(sed -n 's/^set(PACKAGE_VERSION "\(.*\)")$/\1/p' "$cmake_dir/ParleyConfigVersion.cmake")"
[ -n "$version" ] || fail "no version in $cmake_dir/ParleyConfigVersion.cmake"
includes="$prefix/include/parley"
# A quoted include is Parley's (installed under include/parley) or CAF's.
missing=0
while IFS=: read -r file included; do
  if [ ! -f "$includes/$included" ] && [ ! -f "/usr/include/$included" ]; then
    echo "check-install: ${file#"$includes"/} includes \"$included\", which is not installed" >&2
    missing=1
  fi
done < <(grep -rHo --include='*.hpp' '^#include "[^"]*"' "$includes" |
  sed 's/:#include "\(.*\)"$/:\1/')
[ "$missing" = 0 ] || fail "installed headers include headers that are not installed"
installed_version="$("$prefix/bin/parley" --version)"
[ "$installed_version" = "parley $version" ] ||
  fail "installed parley --version printed '$installed_version', not 'parley $version'"
echo "check-install: installed Parley $version into a temporary prefix" \
  "($(find "$includes" -name '*.hpp' | wc -l) headers)"

# 2. The example, outside the repository, against the prefix only.
cxx="$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt")"
cp -r "$root/examples/custom_brain" "$tmp/custom_brain"
generator=()
if command -v ninja >/dev/null; then
  generator=(-G Ninja)
fi
cmake -S "$tmp/custom_brain" -B "$tmp/custom_brain/build" "${generator[@]}" \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER="$cxx" \
  -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON \
  >"$tmp/example-configure.log" 2>&1 ||
  { cat "$tmp/example-configure.log" >&2; fail "the example does not configure"; }
found="$(sed -n 's/^Parley_DIR:PATH=//p' "$tmp/custom_brain/build/CMakeCache.txt")"
[ "$found" = "$cmake_dir" ] || fail "the example found Parley in '$found', not in $cmake_dir"
cmake --build "$tmp/custom_brain/build" --verbose >"$tmp/example-build.log" 2>&1 ||
  { cat "$tmp/example-build.log" >&2; fail "the example does not build"; }
commands="$tmp/custom_brain/build/compile_commands.json"
[ -s "$commands" ] || fail "the example wrote no compile_commands.json"
if grep -F -e "$root" -e "$build" "$commands" "$tmp/example-build.log"; then
  fail "the example's compile or link commands name the repository or $build"
fi
if ! timeout 60 "$tmp/custom_brain/build/custom_brain" >"$tmp/example.out" 2>&1; then
  cat "$tmp/example.out" >&2
  fail "the example did not end with an outcome (exit code or timeout)"
fi
cat "$tmp/example.out"
grep -Eq '^outcome: (accepted|rejected|expired) ' "$tmp/example.out" ||
  fail "the example printed no outcome"
echo "check-install: examples/custom_brain built against the prefix only and ran"

# 3. The .deb.
if ! command -v dpkg-deb >/dev/null; then
  echo "check-install: SKIPPED the .deb check: dpkg-deb is missing"
  exit 0
fi
cpack --config "$build/CPackConfig.cmake" -G DEB -B "$tmp/deb" >"$tmp/cpack.log" 2>&1 ||
  { cat "$tmp/cpack.log" >&2; fail "cpack -G DEB failed"; }
deb="$(find "$tmp/deb" -maxdepth 1 -name 'parley_*.deb' -print -quit)"
[ -n "$deb" ] || fail "cpack made no parley_*.deb"
dpkg-deb --contents "$deb" | awk '{print $NF}' >"$tmp/deb-contents"
# Libraries in usr/lib/ or, with a /usr install prefix, usr/lib/<multiarch>/.
lib='\./usr/lib/([^/]+/)?'
for path in '\./usr/bin/parley' '\./usr/include/parley/runtime/world\.hpp' \
  '\./usr/include/parley/runtime/version\.hpp' \
  '\./usr/include/parley/actors/agent/brain\.hpp' \
  '\./usr/include/parley/messages/proposal\.hpp' "${lib}libparley_runtime\.a" \
  "${lib}cmake/Parley/ParleyConfig\.cmake" "${lib}cmake/Parley/ParleyConfigVersion\.cmake" \
  "${lib}cmake/Parley/ParleyTargets\.cmake" "${lib}cmake/Parley/FindCAF\.cmake"; do
  grep -qE "^$path\$" "$tmp/deb-contents" || fail "$(basename "$deb") holds no ${path//\\/}"
done
[ "$(dpkg-deb --field "$deb" Version)" = "$version" ] ||
  fail "$(basename "$deb") has version '$(dpkg-deb --field "$deb" Version)', not $version"
depends="$(dpkg-deb --field "$deb" Depends)"
case "$depends" in
*libcaf-core*) ;;
*) fail "$(basename "$deb") does not depend on CAF's library: Depends: $depends" ;;
esac
dpkg-deb -x "$deb" "$tmp/root"
extracted="$("$tmp/root/usr/bin/parley" --version)"
[ "$extracted" = "parley $version" ] ||
  fail "the extracted parley --version printed '$extracted', not 'parley $version'"
if ! timeout 60 "$tmp/root/usr/bin/parley" demo --seed 1 >"$tmp/demo.out" 2>&1 ||
  ! grep -q "AGREED" "$tmp/demo.out"; then
  cat "$tmp/demo.out" >&2
  fail "the extracted parley demo did not reach an agreement"
fi
echo "check-install: $(basename "$deb") ($(du -h "$deb" | cut -f1), Depends: $depends)" \
  "holds the executable, headers and CMake package; its parley demo runs"
