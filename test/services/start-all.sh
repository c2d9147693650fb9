#!/usr/bin/env bash
# Starts every test service (PostgreSQL, Redis, a Redis Cluster, Milvus Lite, Neo4j,
# HugeGraph; promtool for the metrics tests)
# on 127.0.0.1 and writes their KEY=VALUE lines to $1
# (default test/services/.env.services). Use it with:
#   set -a; . test/services/.env.services; set +a
# Exits non-zero naming each service that did not come up.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$HERE/lib.sh"
OUT="${1:-$HERE/.env.services}"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
start=$SECONDS
failed=()

run() {  # run NAME: runs NAME.sh, its stdout to $TMP/NAME.env, stderr to $TMP/NAME.log
  local t0=$SECONDS rc=0
  bash "$HERE/$1.sh" >"$TMP/$1.env" 2>"$TMP/$1.log" || rc=$?
  echo "$rc $(( SECONDS - t0 ))" >"$TMP/$1.rc"
}

# apt-based ones first (they share apt's lock), then the slow ones in parallel;
# the two Maven builds serialize on a lock in lib.sh.
run postgres & { run redis; run redis-cluster; } & wait
# promtool (metrics tests) unpacks a Debian package: after the apt installs above.
run promtool
for s in neo4j hugegraph milvus; do run "$s" & done
wait

: >"$TMP/all.env"
for s in postgres redis redis-cluster promtool milvus neo4j hugegraph; do
  read -r rc secs <"$TMP/$s.rc"
  if [ "$rc" = 0 ]; then
    log "$s up (${secs}s)"
    cat "$TMP/$s.env" >>"$TMP/all.env"
  else
    failed+=("$s")
    echo "----- $s failed (exit $rc) after ${secs}s:" >&2
    tail -40 "$TMP/$s.log" >&2
  fi
done

mkdir -p "$(dirname "$OUT")"
{ echo "# written by test/services/start-all.sh $(date -u +%FT%TZ); load with: set -a; . FILE; set +a"
  cat "$TMP/all.env"; } >"$OUT.tmp" && mv "$OUT.tmp" "$OUT"
log "env written to $OUT ($(( SECONDS - start ))s total)"
if [ ${#failed[@]} -gt 0 ]; then
  die "services that did not come up: ${failed[*]}"
fi
cat "$TMP/all.env"
