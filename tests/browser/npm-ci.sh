#!/usr/bin/env bash
# Installs the browser tests' npm packages from the committed lock file (`npm ci`), unless
# node_modules already holds that install: a stamp written after a successful `npm ci` keeps the
# SHA-256 of package.json and package-lock.json it installed. lint.sh and setup.sh both call this,
# so scripts/test (which runs both) installs once, and so does a second run of either.
# `npm ci` empties node_modules first, stamp included: a failed install is never taken as done.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
want="$(cat package.json package-lock.json | sha256sum | cut -d' ' -f1)"
stamp=node_modules/.plateau-installed
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
  echo "== npm packages: installed from this package-lock.json =="
  exit 0
fi
echo "== npm ci =="
# playwright-core never downloads a browser; the variable only makes that explicit.
PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error
echo "$want" > "$stamp"
