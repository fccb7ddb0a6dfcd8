// The renderer is served from app://agent/ rather than file://, so that it has a real origin,
// a Content-Security-Policy header applies, and only the built renderer folder can be read.
import { readFile } from 'node:fs/promises';
import { extname, isAbsolute, relative, resolve, sep } from 'node:path';

export const appScheme = 'app';
export const appHost = 'agent';
export const appOrigin = `${appScheme}://${appHost}`;
export const appIndexUrl = `${appOrigin}/index.html`;

/** Electron's `protocol.registerSchemesAsPrivileged` entry, which must run before `ready`. */
export const appSchemePrivileges = {
  scheme: appScheme,
  // standard: relative URLs and an origin; secure: treated like https (no mixed-content blocks).
  privileges: { standard: true, secure: true, supportFetchAPI: true },
} as const;

/**
 * No inline script, no eval, nothing loaded from anywhere but the app itself. React sets styles
 * through the CSSOM, which style-src does not govern, so no 'unsafe-inline' is needed.
 */
export const contentSecurityPolicy = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/** Is this URL one of the app's own pages (same scheme and host)? */
export function isAppUrl(url: string | undefined): boolean {
  if (url === undefined || url === '') return false;
  try {
    const parsed = new URL(url);
    return parsed.protocol === `${appScheme}:` && parsed.host === appHost;
  } catch {
    return false;
  }
}

/** The file a request maps to inside `root`, or undefined when it would leave it. */
export function fileFor(root: string, url: string): string | undefined {
  let pathname: string;
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== `${appScheme}:` || parsed.host !== appHost) return undefined;
    // Decoded so that "%2e%2e%2f" is judged as the "../" it means.
    pathname = decodeURIComponent(parsed.pathname);
  } catch {
    return undefined;
  }
  if (pathname.includes('\0')) return undefined;
  const file = resolve(root, `.${sep}${pathname === '/' ? 'index.html' : pathname}`);
  const inside = relative(root, file);
  if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) return undefined;
  return file;
}

const headers = (type: string): Record<string, string> => ({
  'content-type': type,
  'content-security-policy': contentSecurityPolicy,
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-cache',
});

const plain = (status: number, text: string): Response => new Response(text, { status, headers: headers('text/plain; charset=utf-8') });

/** The `protocol.handle` handler serving `root` (the built renderer). */
export function appProtocolHandler(root: string, read: (file: string) => Promise<Buffer> = readFile): (request: Request) => Promise<Response> {
  const base = resolve(root);
  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return plain(405, 'Only GET and HEAD are served here.');
    const file = fileFor(base, request.url);
    if (file === undefined) return plain(403, 'This address is outside the app and is not served.');
    let body: Buffer;
    try {
      body = await read(file);
    } catch {
      return plain(404, `Not found: ${new URL(request.url).pathname}. The app files may be incomplete; reinstall Uptime Agent.`);
    }
    return new Response(request.method === 'HEAD' ? null : new Uint8Array(body), {
      status: 200,
      headers: headers(contentTypes[extname(file).toLowerCase()] ?? 'application/octet-stream'),
    });
  };
}
