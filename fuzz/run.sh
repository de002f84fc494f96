#!/usr/bin/env bash
# Fuzzes Plateau's parsers with AFL++ through cargo-afl (README.md here).
#
#   fuzz/run.sh                   every target in turn, 300 s each
#   fuzz/run.sh action_naval 600  one target for 600 s
#   fuzz/run.sh all 120           every target, 120 s each
#
# Findings go to fuzz/out/<target>/default/{queue,crashes,hangs}; afl-fuzz's own
# fuzzer_stats there holds the exact execution count (execs_done). Runs under nice, one target
# at a time (afl-fuzz takes a whole core).
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
cd "$here"
target="${1:-all}"
seconds="${2:-300}"
targets=(position_mad position_moonleap position_chakart position_naval
         action_mad action_moonleap action_chakart action_naval
         config record client_message)

nice -n 15 cargo afl build --release
bin="$here/target/release/plateau-fuzz"

run_one() {
    local t="$1"
    # Each run starts afresh; the previous one's findings stay in out/<target>.prev.
    rm -rf "out/$t.prev"
    if [[ -d "out/$t" ]]; then mv "out/$t" "out/$t.prev"; fi
    mkdir -p "out/$t"
    # The committed corpus is the input; AFL_NO_UI keeps the log plain. AFL_SKIP_CPUFREQ and
    # AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES let it start on machines it cannot tune.
    AFL_NO_UI=1 AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 \
        nice -n 15 cargo afl fuzz -V "$seconds" -i "corpus/$t" -o "out/$t" -- "$bin" "$t" \
        > "out/$t.log" 2>&1 || true
    local stats="out/$t/default/fuzzer_stats"
    if [[ -f "$stats" ]]; then
        local execs crashes
        execs=$(awk -F': *' '$1 ~ /^execs_done/ {print $2}' "$stats")
        crashes=$(awk -F': *' '$1 ~ /^saved_crashes/ {print $2}' "$stats")
        echo "$t: $execs executions, $crashes crashes"
    else
        echo "$t: afl-fuzz did not start; see fuzz/out/$t.log" >&2
        return 1
    fi
}

if [[ "$target" == all ]]; then
    for t in "${targets[@]}"; do run_one "$t"; done
else
    run_one "$target"
fi
