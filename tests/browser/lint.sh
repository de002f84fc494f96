#!/usr/bin/env bash
# Checks the web client without a browser or a server: `tsc --noEmit` over web/js (tsconfig.json:
# the `// @ts-check` JSDoc types, strict, every parameter typed) and ESLint over web/js and these
# tests (eslint.config.js).
# Installs the npm packages from the committed lock file first (npm-ci.sh: once per lock file).
# Exit status non-zero on any finding.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"

"$here/npm-ci.sh"
cd "$here"
echo "== tsc --noEmit (web/js) =="
node_modules/.bin/tsc -p tsconfig.json
echo "== eslint (web/js, tests/browser) =="
# From the root, so that the config's patterns name the repository's folders.
cd "$root"
tests/browser/node_modules/.bin/eslint -c tests/browser/eslint.config.js --max-warnings 0 web/js tests/browser
echo "web client: tsc and eslint clean"
