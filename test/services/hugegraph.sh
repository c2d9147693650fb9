#!/usr/bin/env bash
# Starts Apache HugeGraph server 1.5.0 (Maven Central jars, see hugegraph/pom.xml)
# with the in-memory backend: REST on 127.0.0.1:18080, its Gremlin Server on
# 127.0.0.1:18182, graph "hugegraph", no auth. Data is lost on restart.
# Idempotent. Set HUGEGRAPH_CHECK=1 to also run hugegraph/check.mjs.
# Prints HUGEGRAPH_URL and HUGEGRAPH_GRAPH lines.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$HERE/lib.sh"

PORT=18080
GREMLIN_PORT=18182
URL="http://127.0.0.1:$PORT"
PIDFILE="$CS_RUN/hugegraph.pid"
HOME_DIR="$CS_RUN/hugegraph"
LOG="$HOME_DIR/logs/stdout.log"
HEAP="${HUGEGRAPH_HEAP:-3g}"  # the memory backend holds every test graph; tenant-scale suites need room

ready() {
  curl -sf --max-time 5 "$URL/versions" >/dev/null &&
  curl -sf --compressed --max-time 20 -X POST -H 'Content-Type: application/json' "$URL/gremlin" \
    -d '{"gremlin":"hugegraph.traversal().V().limit(1).count()","bindings":{},"language":"gremlin-groovy","aliases":{}}' \
    | grep -q '"code":200'
}

command -v curl >/dev/null 2>&1 || apt_install curl
command -v unzip >/dev/null 2>&1 || apt_install unzip
need_java_maven
maven_build "$HERE/hugegraph" hugegraph

if pid_alive "$PIDFILE" HugeGraphServer && ready; then
  log "already running (pid $(cat "$PIDFILE"))"
else
  if pid_alive "$PIDFILE" HugeGraphServer; then kill "$(cat "$PIDFILE")"; sleep 3; fi
  port_open "$PORT" && die "port $PORT is taken by another process"
  port_open "$GREMLIN_PORT" && die "port $GREMLIN_PORT is taken by another process"
  log "starting hugegraph"
  rm -rf "$HOME_DIR" && mkdir -p "$HOME_DIR/conf/graphs" "$HOME_DIR/logs"
  ln -s "$BUILD_DIR/target/lib" "$HOME_DIR/lib"
  DIST_JAR=$(ls "$BUILD_DIR"/target/lib/hugegraph-dist-*.jar)
  (cd "$HOME_DIR" && unzip -q -o "$DIST_JAR" 'scripts/*' conf/log4j2.xml) || die "cannot unpack $DIST_JAR (is unzip installed?)"
  cp "$HERE/hugegraph/rest-server.properties" "$HERE/hugegraph/gremlin-server.yaml" "$HOME_DIR/conf/"
  cp "$HERE/hugegraph/graphs/"*.properties "$HOME_DIR/conf/graphs/"
  # classpath order as in the dist's bin/hugegraph-server.sh
  CP=$(cd "$HOME_DIR" && { find -L lib -name 'log4j-slf4j-impl*.jar' | sort
        find -L lib -name 'hugegraph*.jar' | sort
        find -L lib -name '*.jar' ! -name 'hugegraph*' ! -name 'log4j-slf4j-impl*.jar' | sort; } | tr '\n' ':')
  cd "$HOME_DIR"
  nohup java -Dname=HugeGraphServer -Xms256m -Xmx"$HEAP" ${HUGEGRAPH_JAVA_OPTS--XX:TieredStopAtLevel=1} \
      -Dlog4j.configurationFile=conf/log4j2.xml -Djava.security.manager=allow \
      --add-exports=java.base/jdk.internal.reflect=ALL-UNNAMED --add-modules=jdk.unsupported \
      --add-exports=java.base/sun.nio.ch=ALL-UNNAMED \
      -cp "$CP" org.apache.hugegraph.dist.HugeGraphServer conf/gremlin-server.yaml conf/rest-server.properties \
      >"$LOG" 2>&1 &
  echo $! >"$PIDFILE"
  cd - >/dev/null
  alive_and_ready() { kill -0 "$(cat "$PIDFILE")" 2>/dev/null && ready; }
  wait_for 240 "hugegraph rest+gremlin" alive_and_ready \
    || { tail -30 "$HOME_DIR/logs/hugegraph-server.log" "$LOG" >&2 2>/dev/null; die "hugegraph did not start (logs: $HOME_DIR/logs)"; }
fi

if [ "${HUGEGRAPH_CHECK:-0}" = 1 ]; then
  node "$HERE/hugegraph/check.mjs" "$URL" hugegraph >&2
fi

echo "HUGEGRAPH_URL=$URL"
echo "HUGEGRAPH_GRAPH=hugegraph"
