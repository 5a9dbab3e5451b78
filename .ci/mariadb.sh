#!/usr/bin/env bash
# Start a throwaway MariaDB server for the mysql SQL dialect's tests, and print its DSN.
#
#   eval "$(bash .ci/mariadb.sh)"      # prints and exports SCORECARD_MYSQL_DSN=mysql://...
#   bash .ci/mariadb.sh stop           # stops it and removes its data directory
#
# The server (Debian's mariadb-server) lives in $SCORECARD_MYSQL_DIR (default
# /tmp/scorecard-mysql-UID), listens on 127.0.0.1 only, port $SCORECARD_MYSQL_PORT (default
# 53306), lets "root" in from 127.0.0.1 without a password and holds database "scorecard".
# Idempotent: a server already answering on the port is reused. As root, the server runs as
# the "mysql" user. A lock serialises concurrent callers (parallel test sessions).
set -euo pipefail

DIR=${SCORECARD_MYSQL_DIR:-/tmp/scorecard-mysql-$(id -u)}
PORT=${SCORECARD_MYSQL_PORT:-53306}
DB=scorecard
OWNER=mysql
DSN="mysql://root@127.0.0.1:${PORT}/${DB}"

server=$(command -v mariadbd || command -v mysqld || ls /usr/sbin/mariadbd /usr/sbin/mysqld 2>/dev/null | head -n1 || true)
install_db=$(command -v mariadb-install-db || command -v mysql_install_db || true)
client=$(command -v mariadb || command -v mysql || true)
[ -n "$server" ] && [ -n "$install_db" ] && [ -n "$client" ] \
  || { echo "mariadb.sh: MariaDB (mariadbd, mariadb-install-db, mariadb) not found; apt-get install mariadb-server" >&2; exit 1; }

as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u "$OWNER" -- "$@"; else "$@"; fi
}

mkdir -p "$(dirname "$DIR")"
exec 9>"${DIR}.lock"
flock 9

sql() { "$client" --protocol=TCP -h 127.0.0.1 -P "$PORT" -u root "$@"; }

if [ "${1:-}" = "stop" ]; then
  if [ -f "$DIR/server.pid" ]; then kill "$(cat "$DIR/server.pid")" 2>/dev/null || true; fi
  for _ in $(seq 1 40); do [ -f "$DIR/server.pid" ] || break; sleep 0.25; done
  rm -rf "$DIR"
  exit 0
fi

ready() { sql -e "SELECT 1" >/dev/null 2>&1; }

if ! ready; then
  if [ ! -d "$DIR/data/mysql" ]; then
    rm -rf "$DIR"
    mkdir -p "$DIR"
    if [ "$(id -u)" = 0 ]; then
      id "$OWNER" >/dev/null 2>&1 || useradd --system --no-create-home "$OWNER"
      chown "$OWNER" "$DIR"
    fi
    as_owner "$install_db" --no-defaults --datadir="$DIR/data" --auth-root-authentication-method=normal \
      --skip-test-db >"$DIR/install.log" 2>&1 || { echo "mariadb.sh: install_db failed, see $DIR/install.log" >&2; exit 1; }
  fi
  # Started in the background with its own session (setsid), so it outlives this script.
  as_owner setsid "$server" --no-defaults --datadir="$DIR/data" --socket="$DIR/server.sock" \
    --pid-file="$DIR/server.pid" --port="$PORT" --bind-address=127.0.0.1 --skip-name-resolve \
    --character-set-server=utf8mb4 --collation-server=utf8mb4_bin --innodb-flush-log-at-trx-commit=0 \
    --skip-log-bin --log-error="$DIR/server.log" 9>&- </dev/null >/dev/null 2>&1 &
  for _ in $(seq 1 120); do ready && break; sleep 0.5; done
  ready || { echo "mariadb.sh: server on port $PORT does not answer, see $DIR/server.log" >&2; exit 1; }
  sql -e "CREATE DATABASE IF NOT EXISTS $DB CHARACTER SET utf8mb4 COLLATE utf8mb4_bin"
fi

echo "export SCORECARD_MYSQL_DSN=$DSN"
