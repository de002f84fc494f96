#!/usr/bin/env bash
# The browser tests: Debian's headless Chromium, driven by playwright-core, against the real
# `plateau serve` (started with --test-seeds, so every run plays the same games). Installs what is
# missing and builds the binary (setup.sh), then runs every *.test.mjs with node's test runner, or
# only the files given as arguments. Files run side by side (BROWSER_JOBS at once, default 2): each
# starts servers of its own, on ports of their own.
# Exit status: non-zero if anything fails. Screenshots land in a temporary folder, or in
# $PLATEAU_SCREENSHOTS (e.g. docs/screenshots to refresh the committed ones).
set -euo pipefail
source "$(dirname "$0")/setup.sh"

echo "== browser tests =="
if [ "$#" -gt 0 ]; then
  node --test --test-concurrency="${BROWSER_JOBS:-2}" "$@"
else
  # The longest files first (as measured in the CI log), so that none of them starts last and
  # runs on alone after the others are done.
  longest=(phone tournament players analysis moonleap naval)
  files=()
  for name in "${longest[@]}"; do files+=("$here/$name.test.mjs"); done
  for file in "$here"/*.test.mjs; do
    [[ " ${longest[*]} " == *" $(basename "$file" .test.mjs) "* ]] || files+=("$file")
  done
  node --test --test-concurrency="${BROWSER_JOBS:-2}" "${files[@]}"
fi
