# Sourced by run.sh and soak.sh: installs what the browser tests need when it is missing (Debian's
# chromium through apt, the npm packages from the committed lock file through npm-ci.sh) and
# builds the `plateau` binary (cargo is incremental, and the web/ files are embedded in it, so it
# is always asked).
# Afterwards PLATEAU_BIN names the binary and the working directory is tests/browser.
#
# Environment: PLATEAU_BIN to use a given binary (then nothing is built); CHROMIUM for another
# Chromium executable (default /usr/bin/chromium); CARGO_TARGET_DIR as for cargo.
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"

if [ -z "${CHROMIUM:-}" ] && [ ! -x /usr/bin/chromium ]; then
  echo "== installing Debian's chromium =="
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq chromium >/dev/null
fi

"$here/npm-ci.sh"
cd "$here"

if [ -z "${PLATEAU_BIN:-}" ]; then
  echo "== cargo build (plateau) =="
  (cd "$root" && cargo build --locked -p plateau-cli --bin plateau)
  export PLATEAU_BIN="${CARGO_TARGET_DIR:-$root/target}/debug/plateau"
fi
