#!/usr/bin/env bash
# Provides promtool (Prometheus's checker, from Debian's `prometheus` package) for the metrics
# tests. Idempotent: a promtool already on PATH, or one unpacked here before, is used as it is.
# The package is downloaded and unpacked into the cache, never installed: installing it would
# start a Prometheus server on this machine. Prints: PROMTOOL=/path/to/promtool
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$HERE/lib.sh"

BIN="$CS_CACHE/bin/promtool"
if command -v promtool >/dev/null 2>&1; then
  BIN=$(command -v promtool)
elif [ ! -x "$BIN" ]; then
  log "downloading Debian's prometheus package for promtool"
  if [ -z "$(find "$APT_UPDATED_FLAG" -mmin -360 2>/dev/null)" ]; then
    flock "$CS_RUN/.apt.lock" apt-get update -qq >"$CS_RUN/apt.log" 2>&1 && touch "$APT_UPDATED_FLAG"
  fi
  TMP=$(mktemp -d)
  trap 'rm -rf "$TMP"' EXIT
  # apt-get download writes to the current directory and runs as the _apt user: give it $TMP.
  chmod 777 "$TMP"
  (cd "$TMP" && flock "$CS_RUN/.apt.lock" apt-get download -qq prometheus >"$CS_RUN/promtool.log" 2>&1) \
    || { tail -20 "$CS_RUN/promtool.log" >&2; die "apt-get download prometheus failed"; }
  dpkg-deb -x "$TMP"/prometheus_*.deb "$TMP/x"
  mkdir -p "$(dirname "$BIN")"
  install -m 0755 "$TMP/x/usr/bin/promtool" "$BIN.tmp" && mv "$BIN.tmp" "$BIN"
fi
"$BIN" --version >/dev/null 2>&1 || die "promtool at $BIN does not run"
log "promtool: $("$BIN" --version 2>&1 | head -1)"
echo "PROMTOOL=$BIN"
