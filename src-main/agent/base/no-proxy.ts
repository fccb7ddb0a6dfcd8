// NO_PROXY, read one way for the agent's own traffic to the server (wire/proxy.ts) and for the
// checks' dial (probes/dial.ts). No library reads it from an explicit value: proxy-from-env
// reads process.env only and undici keeps its matcher private (and both differ from curl on
// "example.com" covering its subdomains). The rules, as curl documents them where it has one:
// - entries are separated by commas or white space; case does not matter; empty ones are ignored;
// - "*" exempts every host; "*:443" every host on port 443;
// - "example.com", ".example.com" and "*.example.com" all exempt example.com and its subdomains;
// - "host:port" (IPv6 as "[::1]:8080") exempts that port only;
// - an IP address is matched whole, never as a suffix ("0.0.1" does not exempt 10.0.0.1).
import { bareHost } from './url-parts.ts';
const { isIP } = process.getBuiltinModule('node:net');

interface Entry {
  host: string;
  port: number | undefined;
}

function parseEntry(raw: string): Entry | undefined {
  const text = raw.trim().toLowerCase();
  if (text === '') return undefined;
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(text);
  if (bracketed !== null) {
    return { host: bracketed[1] ?? '', port: bracketed[2] === undefined ? undefined : Number(bracketed[2]) };
  }
  // A bare IPv6 literal also ends in ":digits": it has no port to split off.
  const withPort = isIP(text) === 0 ? /^(.*):(\d+)$/.exec(text) : null;
  const host = withPort === null ? text : (withPort[1] ?? '');
  return {
    host: host === '*' ? host : host.replace(/^\*?\./, '').replace(/\.$/, ''),
    port: withPort === null ? undefined : Number(withPort[2]),
  };
}

/** Whether a connection to host:port goes direct under `noProxy` (unset or empty: never). */
export function bypassesProxy(noProxy: string | undefined, host: string, port: number): boolean {
  if (noProxy === undefined) return false;
  const target = bareHost(host.trim().toLowerCase()).replace(/\.$/, '');
  const targetIsName = isIP(target) === 0;
  for (const raw of noProxy.split(/[\s,]+/)) {
    const entry = parseEntry(raw);
    if (entry === undefined || entry.host === '') continue;
    if (entry.port !== undefined && entry.port !== port) continue;
    if (entry.host === '*' || target === entry.host) return true;
    if (targetIsName && target.endsWith(`.${entry.host}`)) return true;
  }
  return false;
}
