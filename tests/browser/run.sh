#!/usr/bin/env bash
# The browser tests: Debian's headless Chromium, driven by playwright-core, against the real
# `plateau serve` (started with --test-seeds, so every run plays the same games). Installs what is
# missing and builds the binary (setup.sh), then runs every *.test.mjs with node's test runner, or
# only the files given as arguments. Files run side by side (BROWSER_JOBS at once, default 2): each
# starts servers of its own, on ports of their own, and opens browser contexts of its own in the
# run's one Chromium (browser-server.mjs, stopped when this script exits).
# Exit status: non-zero if anything fails. Screenshots land in a temporary folder, or in
# $PLATEAU_SCREENSHOTS (e.g. docs/screenshots to refresh the committed ones).
set -euo pipefail
source "$(dirname "$0")/setup.sh"

# The run's Chromium: its endpoint is the launcher's first line of output.
endpoint="$(mktemp)"
node "$here/browser-server.mjs" >"$endpoint" &
browser_pid=$!
trap 'kill "$browser_pid" 2>/dev/null; wait "$browser_pid" 2>/dev/null; rm -f "$endpoint"' EXIT
for _ in $(seq 600); do
  [ "$(wc -l <"$endpoint")" = 0 ] || break
  kill -0 "$browser_pid" 2>/dev/null || { echo "Chromium did not start" >&2; exit 1; }
  sleep 0.1
done
PLATEAU_BROWSER_WS="$(head -n 1 "$endpoint")"
[ -n "$PLATEAU_BROWSER_WS" ] || { echo "Chromium did not start in 60 s" >&2; exit 1; }
export PLATEAU_BROWSER_WS

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
