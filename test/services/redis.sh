#!/usr/bin/env bash
# Starts redis-server (Debian) daemonized on 127.0.0.1:6379. Idempotent.
# Prints: REDIS_URL=redis://127.0.0.1:6379
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$HERE/lib.sh"

PORT=6379
DIR="$CS_RUN/redis"
PIDFILE="$CS_RUN/redis.pid"
mkdir -p "$DIR"

apt_install redis-server redis-tools

if ! redis-cli -h 127.0.0.1 -p "$PORT" ping 2>/dev/null | grep -q PONG; then
  port_open "$PORT" && die "port $PORT is taken by something that does not answer PING"
  log "starting redis-server"
  # no persistence: a test server; no disk dumps.
  redis-server --bind 127.0.0.1 --port "$PORT" --daemonize yes \
    --pidfile "$PIDFILE" --logfile "$CS_RUN/redis.log" --dir "$DIR" \
    --save "" --appendonly no --protected-mode yes >&2
fi

wait_for 30 "redis" sh -c "redis-cli -h 127.0.0.1 -p $PORT ping | grep -q PONG" || die "redis did not answer PING (log: $CS_RUN/redis.log)"
echo "REDIS_URL=redis://127.0.0.1:$PORT"
