const { createRequire } = process.getBuiltinModule('node:module');
// The agent's version, as sent in MonitorStatus and the User-Agent header.

const require = createRequire(import.meta.url);

function readVersion(): string {
  // src-main/agent/base/version.ts sits three folders below the root, dist/main/agent/base/version.js four.
  for (const manifest of ['../../../package.json', '../../../../package.json']) {
    try {
      const pkg = require(manifest) as { name?: unknown; version?: unknown };
      if (pkg.name === 'uptime-agent' && typeof pkg.version === 'string') return pkg.version;
    } catch {
      // not at this depth: try the next
    }
  }
  return '0.0.0';
}

export const agentVersion = readVersion();
export const userAgent = `uptime-agent/${agentVersion} (node ${process.versions.node}; ${process.platform})`;
