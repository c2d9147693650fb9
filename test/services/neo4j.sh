#!/usr/bin/env bash
# Starts embedded Neo4j 5.26 Community (Maven Central jars, see neo4j/pom.xml)
# with Bolt on 127.0.0.1:7687, auth DISABLED (any credentials are accepted),
# fresh data dir on each (re)start. Idempotent.
# Set NEO4J_NODE_CHECK=1 to also run neo4j/check-node.mjs with neo4j-driver.
# Prints NEO4J_URL, NEO4J_USER, NEO4J_PASSWORD lines.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$HERE/lib.sh"

PORT=7687
PIDFILE="$CS_RUN/neo4j.pid"
LOG="$CS_RUN/neo4j.log"
DATA="$CS_RUN/neo4j-data"
HEAP="${NEO4J_HEAP:-2g}"

ready() { port_open "$PORT" && grep -q '^READY' "$LOG" 2>/dev/null; }

need_java_maven
maven_build "$HERE/neo4j" neo4j

if pid_alive "$PIDFILE" Neo4jTestServer && ready; then
  log "already running (pid $(cat "$PIDFILE"))"
else
  if pid_alive "$PIDFILE" Neo4jTestServer; then kill "$(cat "$PIDFILE")"; sleep 3; fi
  port_open "$PORT" && die "port $PORT is taken by another process"
  log "starting neo4j"
  nohup java -Xms256m -Xmx"$HEAP" ${NEO4J_JAVA_OPTS--XX:TieredStopAtLevel=1} -Dfile.encoding=UTF-8 \
    -cp "$BUILD_DIR/target/neo4j-test-server-1.jar:$BUILD_DIR/target/lib/*" \
    dev.codesynapse.testservices.Neo4jTestServer "$DATA" "$PORT" >"$LOG" 2>&1 &
  echo $! >"$PIDFILE"
  alive_and_ready() { kill -0 "$(cat "$PIDFILE")" 2>/dev/null && grep -q '^READY' "$LOG"; }
  wait_for 180 "neo4j" alive_and_ready \
    || { tail -30 "$LOG" >&2; die "neo4j did not start (log: $LOG)"; }
  wait_for 30 "neo4j bolt port" port_open "$PORT" || die "neo4j bolt port $PORT not open"
fi

if [ "${NEO4J_NODE_CHECK:-0}" = 1 ]; then
  NODE_DIR="$CS_CACHE/neo4j-node-check"
  if [ ! -d "$NODE_DIR/node_modules/neo4j-driver" ]; then
    mkdir -p "$NODE_DIR" && (cd "$NODE_DIR" && npm init -y >/dev/null && npm i -s neo4j-driver >&2)
  fi
  NEO4J_DRIVER_DIR="$NODE_DIR" node "$HERE/neo4j/check-node.mjs" "bolt://127.0.0.1:$PORT" >&2
fi

echo "NEO4J_URL=bolt://127.0.0.1:$PORT"
echo "NEO4J_USER=neo4j"
echo "NEO4J_PASSWORD=codesynapse"
