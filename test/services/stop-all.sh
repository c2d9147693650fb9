#!/usr/bin/env bash
# Stops what test/services/*.sh started (by their pid files / markers only).
set -uo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$HERE/lib.sh"

stop_pid() {  # stop_pid NAME PIDFILE CMDLINE-PATTERN
  local name=$1 f=$2 pid
  pid_alive "$f" "$3" || { rm -f "$f"; return 0; }
  pid=$(cat "$f")
  log "stopping $name (pid $pid)"
  kill "$pid" 2>/dev/null
  for _ in $(seq 30); do kill -0 "$pid" 2>/dev/null || break; sleep 1; done
  if kill -0 "$pid" 2>/dev/null; then log "$name did not exit, killing"; kill -9 "$pid" 2>/dev/null; fi
  rm -f "$f"
}

stop_pid hugegraph "$CS_RUN/hugegraph.pid" HugeGraphServer
stop_pid neo4j "$CS_RUN/neo4j.pid" Neo4jTestServer
stop_pid milvus "$CS_RUN/milvus.pid" serve.py
stop_pid redis "$CS_RUN/redis.pid" redis-server
for f in "$CS_RUN"/redis-cluster/*.pid; do [ -e "$f" ] && stop_pid "redis cluster node $(basename "$f" .pid)" "$f" redis-server; done
if [ -f "$CS_RUN/postgres.started" ]; then
  log "stopping postgresql 15/main"
  pg_ctlcluster 15 main stop >&2 || true
  rm -f "$CS_RUN/postgres.started"
fi
exit 0
