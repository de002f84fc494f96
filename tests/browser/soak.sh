#!/usr/bin/env bash
# Runs each browser test file N times (default 20), one run at a time, and prints a table of passes
# per file and the failed runs with the path of their log. A test that fails one run in N is a
# defect: this is how to find it before CI does.
#
#   tests/browser/soak.sh 20                        # every *.test.mjs, 20 times each
#   tests/browser/soak.sh 5 chakart.test.mjs        # one file
#
# Exit status: non-zero if any run failed. Logs are kept in $SOAK_LOGS (default a new folder
# under /tmp), one file per failed run.
set -euo pipefail
runs="${1:-20}"
shift || true
case "$runs" in
  ''|*[!0-9]*) echo "usage: $0 [N] [file.test.mjs ...]" >&2; exit 2 ;;
esac
source "$(dirname "$0")/setup.sh"

if [ "$#" -gt 0 ]; then files=("$@"); else files=(*.test.mjs); fi
logs="${SOAK_LOGS:-$(mktemp -d /tmp/plateau-soak.XXXXXX)}"
mkdir -p "$logs"
failures=()
summary=()
started=$(date +%s)
for file in "${files[@]}"; do
  name="$(basename "$file" .test.mjs)"
  passed=0
  for i in $(seq 1 "$runs"); do
    log="$logs/$name.$i.log"
    printf '%s run %d/%d ... ' "$name" "$i" "$runs"
    if node --test --test-concurrency=1 "$file" >"$log" 2>&1; then
      passed=$((passed + 1))
      rm -f "$log"
      echo ok
    else
      failures+=("$name run $i: $log")
      echo "FAILED ($log)"
    fi
  done
  summary+=("$(printf '%-24s %3d/%d' "$name" "$passed" "$runs")")
done

echo
echo "== soak: $runs runs per file, $(( $(date +%s) - started )) s =="
printf '%s\n' "${summary[@]}"
if [ "${#failures[@]}" -gt 0 ]; then
  echo "== failures =="
  printf '%s\n' "${failures[@]}"
  exit 1
fi
echo "every run passed"
