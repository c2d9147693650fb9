#!/usr/bin/env bash
# Installs the deployment validators (scripts/deploy-validators.txt) into a virtualenv
# under node_modules/.cache, once per requirements file; prints the venv's bin directory.
# Called by test/integration/deploy-manifests.test.ts, so `npm test` needs nothing else.
set -euo pipefail
cd "$(dirname "$0")/.."
req=scripts/deploy-validators.txt
venv=node_modules/.cache/codesynapse-deploy-validators
stamp="$venv/.requirements-$(sha256sum "$req" | cut -c1-16)"
if [ ! -f "$stamp" ]; then
  if ! python3 -m venv --help >/dev/null 2>&1 || ! python3 -c 'import ensurepip' 2>/dev/null; then
    export DEBIAN_FRONTEND=noninteractive
    (apt-get update && apt-get install -y python3-venv) >&2
  fi
  rm -rf "$venv"
  python3 -m venv "$venv" >&2
  "$venv/bin/pip" install --quiet --disable-pip-version-check --no-input -r "$req" >&2
  touch "$stamp"
fi
echo "$PWD/$venv/bin"
