// The agent's version, as sent in MonitorStatus and the User-Agent header.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

function readVersion(): string {
  // dist/main/agent/version.js and src-main/agent/version.ts both sit two folders below the root.
  try {
    const pkg = require('../../package.json') as { version?: unknown };
    if (typeof pkg.version === 'string') return pkg.version;
  } catch {
    // fall through: try one level further up (dist/main/...)
  }
  const pkg = require('../../../package.json') as { version?: unknown };
  return typeof pkg.version === 'string' ? pkg.version : '0.0.0';
}

export const agentVersion = readVersion();
export const userAgent = `uptime-agent/${agentVersion} (node ${process.versions.node}; ${process.platform})`;
