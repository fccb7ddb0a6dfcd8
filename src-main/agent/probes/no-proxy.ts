// NO_PROXY as curl and most tools read it: a comma or space separated list of host names,
// domain suffixes (".corp.example" or "corp.example" both cover sub.corp.example), IP
// addresses, optional ":port", and "*" for everything. Pure, so each rule is tested by table.
import { isIP } from 'node:net';

interface Entry {
  host: string;
  port: number | undefined;
}

function parseEntry(raw: string): Entry | undefined {
  let text = raw.trim().toLowerCase();
  if (text === '') return undefined;
  let port: number | undefined;
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(text);
  if (bracketed !== null) {
    return { host: bracketed[1] ?? '', port: bracketed[2] === undefined ? undefined : Number(bracketed[2]) };
  }
  const withPort = /^(.*):(\d+)$/.exec(text);
  // A bare IPv6 literal also ends in ":digits"; only split when the rest is not an address.
  if (withPort !== null && isIP(text) === 0) {
    text = withPort[1] ?? '';
    port = Number(withPort[2]);
  }
  return { host: text.replace(/^\*?\./, ''), port };
}

/** Whether a connection to host:port bypasses the proxy under `noProxy`. */
export function bypassesProxy(noProxy: string | undefined, host: string, port: number): boolean {
  if (noProxy === undefined) return false;
  const target = host
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '');
  for (const raw of noProxy.split(/[\s,]+/)) {
    if (raw.trim() === '*') return true;
    const entry = parseEntry(raw);
    if (entry === undefined || entry.host === '') continue;
    if (entry.port !== undefined && entry.port !== port) continue;
    if (target === entry.host) return true;
    if (isIP(target) === 0 && target.endsWith(`.${entry.host}`)) return true;
  }
  return false;
}
