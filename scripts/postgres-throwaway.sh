#!/usr/bin/env bash
# Sourced by scripts/test: starts a throwaway PostgreSQL server of its own in a temporary folder
# (initdb with trust auth, a Unix socket in that folder, no TCP), stopped and removed
# by an EXIT trap, and exports PLATEAU_TEST_POSTGRES with its URL (and PLATEAU_TEST_PG_BIN, the
# folder of the server's programs). Installs Debian's `postgresql`
# package when initdb is missing. initdb refuses root: as root, the server runs as the
# unprivileged user `postgres` (created by the package).
# After sourcing: PG_SKIP is empty when the server runs, else it says why there is none.

PG_SKIP=""

# The folder of PostgreSQL's server programs: on PATH, or Debian's newest versioned folder.
pg_find_bin() {
  if command -v initdb >/dev/null 2>&1; then
    dirname "$(command -v initdb)"
    return 0
  fi
  local d
  for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
    if [ -x "$d/initdb" ]; then
      echo "$d"
      return 0
    fi
  done
  return 1
}

pg_bin="$(pg_find_bin || true)"
if [ -z "$pg_bin" ]; then
  echo "PostgreSQL's initdb is missing: installing Debian's postgresql package"
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    apt-get update -qq || true
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null || true
  fi
  pg_bin="$(pg_find_bin || true)"
fi

if [ -z "$pg_bin" ]; then
  PG_SKIP="the postgresql package could not be installed (apt-get as root is needed)"
else
  pg_dir="$(mktemp -d /tmp/plateau-pg.XXXXXX)"
  pg_port=54329
  # As root, every PostgreSQL program runs as `postgres`, which must own the folder.
  pg_as=()
  if [ "$(id -u)" = 0 ]; then
    chown postgres: "$pg_dir"
    pg_as=(runuser -u postgres --)
  fi
  pg_stop() {
    "${pg_as[@]}" "$pg_bin/pg_ctl" -D "$pg_dir/data" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$pg_dir"
  }
  trap pg_stop EXIT
  "${pg_as[@]}" "$pg_bin/initdb" -D "$pg_dir/data" -U postgres -A trust -E UTF8 --no-locale \
    >"$pg_dir/initdb.log" 2>&1 || { cat "$pg_dir/initdb.log"; exit 1; }
  # No TCP (listen_addresses empty): only the socket in the folder, so runs never collide. No
  # fsync: the tests kill Plateau's processes, not the machine, so a commit in the system's cache
  # is as good as one on the disk, and a run spends its time on Plateau instead of the disk.
  "${pg_as[@]}" "$pg_bin/pg_ctl" -D "$pg_dir/data" -l "$pg_dir/server.log" -w \
    -o "-k $pg_dir -p $pg_port -c fsync=off -c full_page_writes=off -c listen_addresses='' -c max_connections=300" \
    start >/dev/null || { cat "$pg_dir/server.log"; exit 1; }
  export PLATEAU_TEST_POSTGRES="postgres://postgres@/postgres?host=$pg_dir&port=$pg_port"
  # For a test that runs (and stops) a server of its own.
  export PLATEAU_TEST_PG_BIN="$pg_bin"
  echo "PostgreSQL $("$pg_bin/postgres" --version | awk '{print $3}') at $pg_dir (port $pg_port)"
fi
