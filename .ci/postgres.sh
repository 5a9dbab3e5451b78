#!/usr/bin/env bash
# Start a throwaway PostgreSQL server for the SQL export tests, and print its DSN.
#
#   eval "$(bash .ci/postgres.sh)"      # prints and exports SCORECARD_PG_DSN=postgresql://...
#   bash .ci/postgres.sh stop           # stops it and removes its data directory
#
# The server lives in $SCORECARD_PG_DIR (default /tmp/scorecard-pg-UID), listens on 127.0.0.1 only,
# port $SCORECARD_PG_PORT (default 55432), trusts local connections and holds database
# "scorecard". Idempotent: a server already answering on the port is reused. As root, initdb and
# the server run as the "postgres" user (PostgreSQL refuses to run as root). A lock serialises
# concurrent callers (parallel test sessions).
set -euo pipefail

DIR=${SCORECARD_PG_DIR:-/tmp/scorecard-pg-$(id -u)}
PORT=${SCORECARD_PG_PORT:-55432}
DB=scorecard
USER_NAME=postgres
DSN="postgresql://${USER_NAME}@127.0.0.1:${PORT}/${DB}"

bindir=""
for d in "$(dirname "$(readlink -f "$(command -v pg_ctl 2>/dev/null || echo /nonexistent/x)")")" /usr/lib/postgresql/*/bin /usr/local/pgsql/bin; do
  if [ -x "$d/pg_ctl" ] && [ -x "$d/initdb" ] && [ -x "$d/pg_isready" ]; then bindir=$d; break; fi
done
[ -n "$bindir" ] || { echo "postgres.sh: PostgreSQL binaries (initdb, pg_ctl, pg_isready) not found" >&2; exit 1; }

as_owner() {
  if [ "$(id -u)" = 0 ]; then
    id "$USER_NAME" >/dev/null 2>&1 || useradd --system --no-create-home "$USER_NAME"
    runuser -u "$USER_NAME" -- "$@"
  else
    "$@"
  fi
}

mkdir -p "$(dirname "$DIR")"
exec 9>"${DIR}.lock"
flock 9

if [ "${1:-}" = "stop" ]; then
  if [ -f "$DIR/data/PG_VERSION" ]; then as_owner "$bindir/pg_ctl" -D "$DIR/data" -m fast -w stop >/dev/null 2>&1 || true; fi
  rm -rf "$DIR"
  exit 0
fi

ready() { "$bindir/pg_isready" -q -h 127.0.0.1 -p "$PORT" -d "$DB" -U "$USER_NAME"; }

if ! ready; then
  if [ ! -f "$DIR/data/PG_VERSION" ]; then
    rm -rf "$DIR"
    mkdir -p "$DIR"
    if [ "$(id -u)" = 0 ]; then as_owner true; chown "$USER_NAME" "$DIR"; fi
    as_owner "$bindir/initdb" -D "$DIR/data" -U "$USER_NAME" --auth=trust -E UTF8 --locale=C >"$DIR/initdb.log" 2>&1 \
      || { echo "postgres.sh: initdb failed, see $DIR/initdb.log" >&2; exit 1; }
  fi
  start_server() {
    as_owner "$bindir/pg_ctl" -D "$DIR/data" -l "$DIR/server.log" -w -t 60 9>&- \
      -o "-p $PORT -c listen_addresses=127.0.0.1 -c unix_socket_directories=$DIR -c fsync=off -c full_page_writes=off" \
      start >/dev/null 2>&1
  }
  # A server killed a moment ago (a stale postmaster.pid whose children are still exiting)
  # refuses the first start; the second, a few seconds later, succeeds.
  start_server || { sleep 3; start_server; } || { echo "postgres.sh: server did not start, see $DIR/server.log" >&2; exit 1; }
  for _ in $(seq 1 60); do "$bindir/pg_isready" -q -h 127.0.0.1 -p "$PORT" && break; sleep 0.5; done
  if ! psql -h 127.0.0.1 -p "$PORT" -U "$USER_NAME" -d postgres -tAc "SELECT 1 FROM pg_database WHERE datname = '$DB'" | grep -q 1; then
    psql -h 127.0.0.1 -p "$PORT" -U "$USER_NAME" -d postgres -qc "CREATE DATABASE $DB" >/dev/null
  fi
  ready || { echo "postgres.sh: server on port $PORT does not answer, see $DIR/server.log" >&2; exit 1; }
fi

echo "export SCORECARD_PG_DSN=$DSN"
