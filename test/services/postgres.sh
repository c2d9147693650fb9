#!/usr/bin/env bash
# Starts PostgreSQL 15 (Debian) on 127.0.0.1:5432 with role/db for tests.
# Idempotent. Prints: DATABASE_URL=postgres://codesynapse:codesynapse@127.0.0.1:5432/codesynapse_test
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$HERE/lib.sh"

PGVER=15
USER_NAME=codesynapse
USER_PASS=codesynapse
DB_NAME=codesynapse_test
URL="postgres://$USER_NAME:$USER_PASS@127.0.0.1:5432/$DB_NAME"

apt_install postgresql

if ! pg_lsclusters -h 2>/dev/null | awk '{print $1,$2}' | grep -qx "$PGVER main"; then
  log "creating cluster $PGVER/main"
  pg_createcluster "$PGVER" main >&2
fi

if ! pg_lsclusters -h | awk -v v="$PGVER" '$1==v && $2=="main" {print $4}' | grep -q online; then
  log "starting cluster $PGVER/main"
  # a stale pid file after an unclean stop makes pg_ctlcluster refuse; remove it
  # only when no postgres process owns it
  pidf="/var/lib/postgresql/$PGVER/main/postmaster.pid"
  if [ -f "$pidf" ] && ! kill -0 "$(head -1 "$pidf")" 2>/dev/null; then rm -f "$pidf"; fi
  pg_ctlcluster "$PGVER" main start >&2
  touch "$CS_RUN/postgres.started"   # stop-all.sh stops only what we started
fi

wait_for 60 "postgres socket" su postgres -c "pg_isready -q -p 5432" || die "postgres did not start"

psql_su() { su postgres -c "psql -v ON_ERROR_STOP=1 -qAt -p 5432 $*"; }
if [ "$(psql_su "-c \"SELECT 1 FROM pg_roles WHERE rolname='$USER_NAME'\"")" != 1 ]; then
  psql_su "-c \"CREATE ROLE $USER_NAME LOGIN SUPERUSER PASSWORD '$USER_PASS'\"" >&2
else
  psql_su "-c \"ALTER ROLE $USER_NAME LOGIN SUPERUSER PASSWORD '$USER_PASS'\"" >&2
fi
if [ "$(psql_su "-c \"SELECT 1 FROM pg_database WHERE datname='$DB_NAME'\"")" != 1 ]; then
  psql_su "-c \"CREATE DATABASE $DB_NAME OWNER $USER_NAME\"" >&2
fi

# Verify over TCP with the password, exactly as the tests connect.
wait_for 30 "postgres tcp" psql "$URL" -qAtc "SELECT 1" || die "cannot connect to $URL"

echo "DATABASE_URL=$URL"
