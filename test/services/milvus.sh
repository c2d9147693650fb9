#!/usr/bin/env bash
# Starts Milvus Lite 3.x (PyPI milvus-lite, pure Python) as a gRPC server on
# 127.0.0.1:19530, fresh data dir on each (re)start. Idempotent.
# Set MILVUS_NODE_CHECK=1 to also run milvus/check-node.mjs with the Node SDK.
# Prints: MILVUS_URL=127.0.0.1:19530
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$HERE/lib.sh"

PORT=19530
REQ="$HERE/milvus/requirements.txt"
VENV="$CS_CACHE/milvus-venv-$(sha256sum "$REQ" | cut -c1-12)"
PIDFILE="$CS_RUN/milvus.pid"
LOG="$CS_RUN/milvus.log"
DATA="$CS_RUN/milvus-data"
PY="${PYTHON:-python3}"

answers() {
  "$VENV/bin/python" - "$PORT" <<'PY'
import sys
from pymilvus import MilvusClient
c = MilvusClient(f"http://127.0.0.1:{sys.argv[1]}", timeout=5)
c.list_collections()
c.close()
PY
}

if [ ! -x "$VENV/bin/python" ] || [ ! -f "$VENV/.complete" ]; then
  log "creating venv $VENV"
  rm -rf "$VENV"
  "$PY" -m venv "$VENV" >&2 || { apt_install python3-venv; "$PY" -m venv "$VENV" >&2; }
  "$VENV/bin/pip" install -q --disable-pip-version-check -r "$REQ" >&2
  touch "$VENV/.complete"
fi

if pid_alive "$PIDFILE" serve.py && answers >/dev/null 2>&1; then
  log "already running (pid $(cat "$PIDFILE"))"
else
  if pid_alive "$PIDFILE" serve.py; then kill "$(cat "$PIDFILE")"; sleep 2; fi
  port_open "$PORT" && die "port $PORT is taken by another process"
  rm -rf "$DATA"
  log "starting milvus-lite server"
  nohup "$VENV/bin/python" -u "$HERE/milvus/serve.py" "$DATA" 127.0.0.1 "$PORT" >"$LOG" 2>&1 &
  echo $! >"$PIDFILE"
  wait_for 120 "milvus" answers || { tail -20 "$LOG" >&2; die "milvus did not answer (log: $LOG)"; }
fi

if [ "${MILVUS_NODE_CHECK:-0}" = 1 ]; then
  NODE_DIR="$CS_CACHE/milvus-node-check"
  if [ ! -d "$NODE_DIR/node_modules/@zilliz/milvus2-sdk-node" ]; then
    mkdir -p "$NODE_DIR" && (cd "$NODE_DIR" && npm init -y >/dev/null && npm i -s @zilliz/milvus2-sdk-node >&2)
  fi
  MILVUS_SDK_DIR="$NODE_DIR" node "$HERE/milvus/check-node.mjs" "127.0.0.1:$PORT" >&2
fi

echo "MILVUS_URL=127.0.0.1:$PORT"
