#!/usr/bin/env bash
# The browser tests: Debian's headless Chromium, driven by playwright-core, against the real
# `plateau serve`. Installs what is missing (chromium through apt, the npm packages from the
# committed lock file), builds the binary (cargo is incremental, and the web/ files are embedded in
# it, so it is always asked), then runs every *.test.mjs with node's test runner.
# Exit status: non-zero if anything fails. Screenshots land in a temporary folder, or in
# $PLATEAU_SCREENSHOTS (e.g. docs/screenshots to refresh the committed ones).
#
# Environment: PLATEAU_BIN to use a given binary (then nothing is built); CHROMIUM for another
# Chromium executable (default /usr/bin/chromium); CARGO_TARGET_DIR as for cargo.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"

if [ -z "${CHROMIUM:-}" ] && [ ! -x /usr/bin/chromium ]; then
  echo "== installing Debian's chromium =="
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq chromium >/dev/null
fi

cd "$here"
echo "== npm ci =="
# playwright-core never downloads a browser; the variable only makes that explicit.
PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error

if [ -z "${PLATEAU_BIN:-}" ]; then
  echo "== cargo build (plateau) =="
  (cd "$root" && cargo build --locked -p plateau-cli --bin plateau)
  export PLATEAU_BIN="${CARGO_TARGET_DIR:-$root/target}/debug/plateau"
fi

echo "== browser tests =="
node --test --test-concurrency=1 "$here"/*.test.mjs
