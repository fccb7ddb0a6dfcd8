// Validates the server address a user typed, before any request is sent.
import { bareHost } from '../base/url-parts.ts';
const { isIP } = process.getBuiltinModule('node:net');

export type ServerUrlOutcome =
  | { ok: true; url: string }
  /** plain-http: http to another machine without allowInsecureHttp; invalid: anything else. */
  | { ok: false; message: string; problem: 'invalid' | 'plain-http' };

export function isLoopbackHost(hostname: string): boolean {
  const host = bareHost(hostname).toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1';
}

/**
 * An https address, or http to this machine only: over plain http the API key would cross the
 * network in clear, so anything else needs the explicit allowInsecureHttp.
 */
export function parseServerUrl(input: string, allowInsecureHttp = false): ServerUrlOutcome {
  const text = input.trim();
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return {
      ok: false,
      problem: 'invalid',
      message: `"${text}" is not a valid server URL; give one like https://uptime.example.com`,
    };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return {
      ok: false,
      problem: 'invalid',
      message: `the server URL must start with https:// or http:// (got ${url.protocol}//)`,
    };
  }
  if (url.username !== '' || url.password !== '') {
    return {
      ok: false,
      problem: 'invalid',
      message: 'the server URL must not hold a user name or password; the enrollment token is the credential',
    };
  }
  if (url.search !== '' || url.hash !== '') {
    return { ok: false, problem: 'invalid', message: 'the server URL must not have a query (?…) or fragment (#…)' };
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname) && !allowInsecureHttp) {
    return {
      ok: false,
      problem: 'plain-http',
      message: `plain http to ${url.host} would send the API key in clear; use https://, or pass --allow-insecure-http if you accept that`,
    };
  }
  return { ok: true, url: url.href.replace(/\/+$/, '') };
}
