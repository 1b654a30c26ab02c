#!/usr/bin/env bash
# Checks that every citation in the repository points inside it: no file
# names one of the original specifications (the numbered "seed" documents),
# the design or CAF notes that lived outside the repository, or a section
# sign (§) of them; every docs/ path named exists; every section cited as
# `docs/FILE.md, "Heading"` is a heading (or a bold paragraph lead) of that
# file; and every relative Markdown link of a .md file reaches a file (and
# heading) that exists. Prints each offending line as FILE:LINE: WHY: TEXT and
# exits 1; exits 0 when there is none. The repository's own documents are
# docs/design.md, docs/caf-notes.md and docs/protocols/.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
self="scripts/check-citations.sh"

# Every text file of the source tree (build directories and .git left out).
mapfile -t all < <(find . -path ./.git -prune -o -path './build*' -prune -o -type f -print |
  sed 's|^\./||' | grep -vxF "$self" | sort | xargs grep -IlE '.' || true)

bad=0
report() { # FILE LINE WHY TEXT
  printf '%s:%s: %s: %s\n' "$1" "$2" "$3" "$4"
  bad=1
}

# Whether FILE has the heading (a `#` line; for a title also a paragraph's
# bold lead, `**Title.**`) whose title or anchor is the second argument. A
# title may be cited by its beginning ("2026-11-27, 21:00 UTC" for
# "2026-11-27, 21:00 UTC: the store's writer"); an anchor is the heading as
# GitHub makes it: lower case, punctuation dropped, spaces as hyphens.
declare -A anchors=()
has_heading() { # FILE TITLE-OR-ANCHOR title|anchor
  local line
  if [ "$3" = anchor ]; then
    [ -n "${anchors[$1]+set}" ] ||
      anchors[$1]="$(grep -E '^#{1,6} ' "$1" | sed -E 's/^#+ +//' | tr '[:upper:]' '[:lower:]' |
        sed 's/[^[:alnum:] _-]//g; s/ /-/g')"
    grep -qxF -e "$2" <<<"${anchors[$1]}"
    return
  fi
  if grep -qF -e "**$2**" -e "**$2.**" "$1"; then return 0; fi
  while IFS= read -r line; do
    line="${line#"${line%%[![:space:]#]*}"}"
    case "$line" in "$2" | "$2"[!A-Za-z0-9]*) return 0 ;; esac
  done < <(grep -E '^#{1,6} ' "$1")
  return 1
}

# 1. Documents outside the repository.
outside='[Ss]eeds?[ _-]?0[0-9]{1,2}\b|\bseeds/|DESIGN\.md|CAF-0\.17'
while IFS=: read -r file line text; do
  report "$file" "$line" "cites a document outside the repository" "$text"
done < <(grep -nHE "$outside" "${all[@]}" || true)
# A section sign, unless it is of a published standard (RFC, W3C).
while IFS=: read -r file line text; do
  report "$file" "$line" "cites a section outside the repository" "$text"
done < <(grep -nHF '§' "${all[@]}" | grep -vE '^[^:]*:[0-9]+:.*(RFC [0-9]+|WebDriver) §' || true)

# 2. docs/ paths that do not exist, and cited headings missing from them.
while IFS=: read -r file line path; do
  path="${path#[!d]}"
  [ -e "$path" ] || report "$file" "$line" "no such path" "$path"
done < <(grep -noHE '(^|[^A-Za-z0-9_./-])docs/[A-Za-z0-9_./-]*[A-Za-z0-9_/]' "${all[@]}" || true)
while IFS=: read -r file line cited; do
  path="${cited%%, \"*}"
  heading="${cited#*, \"}"
  heading="${heading%\"}"
  [ ! -f "$path" ] || has_heading "$path" "$heading" title ||
    report "$file" "$line" "no such heading in $path" "$heading"
done < <(grep -noHE '\bdocs/[A-Za-z0-9_./-]+\.md, "[^"]+"' "${all[@]}" || true)

# 3. Relative Markdown links of .md files: the file, and its heading.
mapfile -t markdown < <(printf '%s\n' "${all[@]}" | grep '\.md$' || true)
while IFS=: read -r file line target; do
  target="${target#](}"
  target="${target%)}"
  case "$target" in http://* | https://* | mailto:*) continue ;; esac
  path="${target%%#*}"
  frag="${target#"$path"}"
  frag="${frag#\#}"
  if [ -n "$path" ]; then path="$(dirname "$file")/$path"; else path="$file"; fi
  if [ ! -e "$path" ]; then
    report "$file" "$line" "link to a missing file" "$target"
  elif [ -n "$frag" ] && [ "${path##*.}" = md ] && ! has_heading "$path" "$frag" anchor; then
    report "$file" "$line" "link to a missing heading" "$target"
  fi
done < <(grep -noHE '\]\([^) ]+\)' "${markdown[@]}" || true)

if [ "$bad" != 0 ]; then
  echo "check-citations: cite the repository's own documents (docs/design.md," \
    "docs/caf-notes.md, docs/protocols/) by file and heading" >&2
fi
exit "$bad"
