#!/usr/bin/env bash
# Starts a Redis Cluster (Debian's redis-server): three masters and three replicas,
# daemonized on 127.0.0.1 ports 17000-17005 (cluster bus: 27000-27005). Idempotent:
# a cluster that already answers `cluster info` with state ok is left alone.
# Prints: REDIS_CLUSTER_NODES=127.0.0.1:17000,...,127.0.0.1:17005
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$HERE/lib.sh"

BASE=${REDIS_CLUSTER_BASE_PORT:-17000}
PORTS=$(seq "$BASE" $((BASE + 5)))
DIR="$CS_RUN/redis-cluster"
mkdir -p "$DIR"

apt_install redis-server redis-tools

cluster_ok() { redis-cli -h 127.0.0.1 -p "$BASE" cluster info 2>/dev/null | grep -q '^cluster_state:ok'; }

if ! cluster_ok; then
  for p in $PORTS; do
    if redis-cli -h 127.0.0.1 -p "$p" ping 2>/dev/null | grep -q PONG; then
      # Ours from an earlier run that never formed a cluster: start it clean.
      pid_alive "$DIR/$p.pid" redis-server || die "port $p answers PING but is not our cluster node"
      redis-cli -h 127.0.0.1 -p "$p" shutdown nosave >/dev/null 2>&1 || true
      wait_for 10 "node $p stopped" sh -c "! redis-cli -h 127.0.0.1 -p $p ping" || die "node $p did not stop"
    fi
    port_open "$p" && die "port $p is taken"
    rm -f "$DIR/nodes-$p.conf"
    # A test server: no persistence, no disk dumps; a replica takes over 2 s after its master stops answering.
    redis-server --bind 127.0.0.1 --port "$p" --daemonize yes --cluster-enabled yes \
      --cluster-config-file "$DIR/nodes-$p.conf" --cluster-node-timeout 2000 \
      --pidfile "$DIR/$p.pid" --logfile "$DIR/$p.log" --dir "$DIR" \
      --save "" --appendonly no --protected-mode yes >&2
  done
  for p in $PORTS; do
    wait_for 30 "node $p" sh -c "redis-cli -h 127.0.0.1 -p $p ping | grep -q PONG" || die "node $p did not start (log: $DIR/$p.log)"
  done
  log "creating the cluster (3 masters, 1 replica each)"
  # shellcheck disable=SC2046
  redis-cli --cluster create $(for p in $PORTS; do printf '127.0.0.1:%s ' "$p"; done) --cluster-replicas 1 --cluster-yes >"$DIR/create.log" 2>&1 \
    || { tail -20 "$DIR/create.log" >&2; die "redis-cli --cluster create failed"; }
fi

wait_for 30 "redis cluster" cluster_ok || die "cluster did not reach state ok (logs: $DIR)"
# A replica that never synced with its master cannot take over: wait for all three links.
replicas_synced() { [ "$(for p in $PORTS; do redis-cli -h 127.0.0.1 -p "$p" info replication; done | grep -c '^master_link_status:up')" -ge 3 ]; }
wait_for 60 "replicas synced" replicas_synced || die "the replicas did not sync with their masters (logs: $DIR)"
echo "REDIS_CLUSTER_NODES=$(for p in $PORTS; do printf '127.0.0.1:%s,' "$p"; done | sed 's/,$//')"
